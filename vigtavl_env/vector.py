"""A batched vector environment: N games in one process, stepped by one call.

::

    from vigtavl_env.vector import VigtavlVectorEnv
    venv = VigtavlVectorEnv(num_envs=64, opponents=["random", "greedy"], seed=0)
    obs = venv.reset()                      # (N, C, H, W) float32
    masks = venv.action_masks()             # (N, n_actions) bool
    obs, rewards, dones, infos = venv.step(actions)   # actions: (N,) env action indices

It is a Stable-Baselines3 ``VecEnv`` (so sb3-contrib's ``MaskablePPO`` trains on it as it is:
``action_masks()`` and ``env_method("action_masks")`` give the masks) in the style of EnvPool
and gymnasium's vector API: observations, masks, rewards and done flags are written into
preallocated arrays. ``reset`` and ``step`` return arrays the env never writes again, as
SB3's VecEnvs and gymnasium's ``copy=True`` do, because a learner keeps the last observation
while it steps: the observations are written into a fresh array on each call (rather than
written and then copied: one pass over them, not two), the rewards copied. With ``copy=False``
they return the same arrays every time, which the next call overwrites: only for a loop that
reads them before stepping again. A finished game is
reset at once (its last observation is ``infos[i]["terminal_observation"]``, as SB3 expects;
in learner mode ``infos[i]["game"]`` sums the game up: win, tokens, length, opponent).

**Learner mode** (default). Each game has one learner seat, drawn per game; every other seat is
an opponent drawn per game from ``opponents`` (by ``opponent_weights``, equal by default;
``set_opponents`` changes the pool for the games that start later): bot names (``vigtavl_env.agent.make_named_agent``) (``"random"``,
``"greedy"``, ``"search:20"`` ...), agent objects, or frozen policies (an object with
``predict(obs, action_masks=..., deterministic=...)`` such as a ``MaskablePPO`` model: the
decisions of every game waiting on one policy are made in one batched call). After the learner's
action the opponents play, out-of-turn decisions included (retaliation, defence: whoever the
engine asks), until the learner must decide again or the game ends. Rewards are the learner's, as
the AEC env's ``last()`` gives them between two of its decisions (``reward=`` as ``raw_env``).

**Self-play mode** (``self_play=True``). Every seat of every game is a learner: row ``i`` is the
decision of the seat to move in game ``i`` (``seats[i]``), seen from that seat; ``rewards[i]`` is
what the decision earned the seat that made it, and a finished game's every seat's result is
``infos[i]["final_rewards"]``. It is for learners that batch every seat's decision themselves
(a league, search with a shared network); with SB3's PPO use learner mode against snapshots.

Seeding: game ``i`` draws its game seeds as ``raw_env(seed=seed + i)`` does on each reset, so the
single-game environment replays it (``tests/test_vector.py`` checks observations, masks and
rewards decision by decision); seats and opponents come from their own generators per game.

The seat loop, the rewards and the game summaries are :mod:`vigtavl_env.seats`' (each game is an
:class:`~vigtavl_env.seats.EngineTable`), as in the single-game wrappers.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any

import numpy as np
from gymnasium import spaces
from stable_baselines3.common.vec_env.base_vec_env import VecEnv

from .agent import EngineAgent, RandomAgent, make_named_agent
from .codec import ActionCodec
from .engine import GameState, new_game, returns
from .env import DEFAULT_MAX_STEPS, SEED_BITS, interrupt_kind, raw_env
from .observation import OBS_HIGH, OBS_LOW, ObservationEncoder
from .seats import REWARDS, EnginePlayer, EngineTable, game_summary, play_other_seats, seat_reward

SEAT_SEED = 0x5EA7  # mixed into a game's seed for its seat and opponent draws


class VigtavlVectorEnv(VecEnv):
    """N Vigtavl games stepped together (see the module docstring)."""

    def __init__(self, num_envs: int = 64, num_players: int = 2, map: Any = None,
                 opponents: Sequence[Any] = ("random",), self_play: bool = False, reward: str = "win_loss",
                 max_steps: int = DEFAULT_MAX_STEPS, rules: dict[str, Any] | None = None,
                 seed: int | None = None, deterministic_policies: bool = True,
                 opponent_weights: Sequence[float] | None = None, copy: bool = True) -> None:
        if isinstance(num_envs, bool) or not isinstance(num_envs, int) or num_envs < 1:
            raise ValueError(f"num_envs must be a positive int, got {num_envs!r}")
        if reward not in REWARDS:
            raise ValueError(f"reward must be one of {REWARDS}, got {reward!r}")
        if not self_play and not opponents:
            raise ValueError("opponents must name at least one opponent (or pass self_play=True)")
        # One single-game env checks the other options and gives the map, rules and spaces.
        probe = raw_env(num_players=num_players, map=map, seed=seed, reward=reward, max_steps=max_steps,
                        rules=rules)
        self.gmap, self.config = probe.gmap, probe.config
        self.n_players = self.gmap.num_players
        self.codec = ActionCodec(self.gmap.board)
        self.encoder = ObservationEncoder(self.gmap, self.config.rounds_per_phase)
        self.reward_kind, self.max_steps, self.self_play = reward, int(max_steps), bool(self_play)
        self.deterministic_policies = deterministic_policies
        self.copy = bool(copy)
        self._map_spec, self._rules = map, rules
        self.opponents: list[Any] = []
        self.opponent_names: list[str] = []
        self.opponent_weights: list[float] | None = None
        if not self_play:
            self.set_opponents(opponents, opponent_weights)
        obs_space = spaces.Box(OBS_LOW, OBS_HIGH, self.encoder.shape, dtype=np.float32)
        self.render_mode = None
        super().__init__(num_envs, obs_space, spaces.Discrete(self.codec.n_actions))
        n, a = num_envs, self.codec.n_actions
        self.observations = np.zeros((n,) + self.encoder.shape, dtype=np.float32)
        self.masks = np.zeros((n, a), dtype=bool)
        self.rewards = np.zeros(n, dtype=np.float32)
        self.terminated = np.zeros(n, dtype=bool)
        self.truncated = np.zeros(n, dtype=bool)
        self.seats = np.zeros(n, dtype=np.int64)  # the seat each row decides for
        self.tables: list[EngineTable | None] = [None] * n  # per game: its state, decisions, legal list
        # Per game, per seat: a bot's player (seats.play_other_seats), or None where the decision
        # comes from outside the seat loop (the learner's seat, a frozen policy's).
        self._players: list[list[EnginePlayer | None]] = [[] for _ in range(n)]
        self._policies: list[list[Any]] = [[] for _ in range(n)]  # per game, per seat: a frozen policy or None
        self._with_policy = [False] * n  # per game: a seat of it is a frozen policy's
        self._lineups: list[list[str]] = [[] for _ in range(n)]  # per game: the opponents' names
        self._game_seeds = [random.Random() for _ in range(n)]  # per game: the engine seed of each new game
        self._seat_draws = [random.Random() for _ in range(n)]  # per game: its learner seat, opponents, bot seeds
        self._base_seed = seed
        self._actions: np.ndarray | None = None
        self._infos: list[dict[str, Any]] = [{} for _ in range(n)]

    # ------------------------------------------------------------------ VecEnv API
    def reset(self) -> np.ndarray:
        """Start every game afresh (seeds from ``seed()`` or the constructor, else random)."""
        base = self._seeds[0] if self._seeds[0] is not None else self._base_seed
        if base is None:
            base = random.SystemRandom().getrandbits(32)
        for i in range(self.num_envs):
            self._game_seeds[i] = random.Random(base + i)  # as raw_env(seed=base + i)
            self._seat_draws[i] = random.Random((base + i) * SEAT_SEED + 1)
        self._reset_seeds()
        self._base_seed = base + self.num_envs  # a later plain reset starts new games
        for i in range(self.num_envs):
            self._new_game(i)
            play_other_seats(self.tables[i], self._players[i])
        self._play_policies()
        self._fresh_observations()
        for i in range(self.num_envs):
            self._publish(i)
        return self.observations

    def step_async(self, actions: np.ndarray) -> None:
        actions = np.asarray(actions)
        if actions.shape != (self.num_envs,):
            raise ValueError(f"actions must have shape ({self.num_envs},), got {actions.shape}")
        self._actions = actions

    def step_wait(self) -> tuple[np.ndarray, np.ndarray, np.ndarray, list[dict[str, Any]]]:
        if self._actions is None:
            raise ValueError("step_wait() needs step_async(actions) first")
        actions, self._actions = self._actions, None
        if any(t is None for t in self.tables):
            raise ValueError("call reset() before step()")
        codes = [self._checked_code(i, int(actions[i])) for i in range(self.num_envs)]  # all, before any move
        self._infos = [{} for _ in range(self.num_envs)]
        tokens_before = [t.state.tokens[t.state.current_player] for t in self.tables]  # the deciding seats'
        for i, table in enumerate(self.tables):  # each row's move, then the bots to the next decision
            table.play_code(codes[i])
            play_other_seats(table, self._players[i])
        self._play_policies()
        self._fresh_observations()
        for i, table in enumerate(self.tables):  # every row is published below
            seat = int(self.seats[i])
            self.rewards[i] = seat_reward(table.state, seat, self.reward_kind, tokens_before[i])
            over, cut = table.state.is_over, table.cut
            self.terminated[i], self.truncated[i] = over, cut
            if over or cut:
                # Auto-reset, as SB3's vector envs: the finished game's last observation and result
                # go in its info, and a new game takes its row.
                self._infos[i].update(self._final_info(i, seat))
                self._new_game(i)
                play_other_seats(self.tables[i], self._players[i])
                self._play_policies()
            self._publish(i)
        dones = self.terminated | self.truncated  # a new array either way
        if self.copy:
            return self.observations, self.rewards.copy(), dones, self._infos
        return self.observations, self.rewards, dones, self._infos

    def action_masks(self) -> np.ndarray:
        """The legal actions of every row, (N, n_actions) bool (sb3-contrib's MaskablePPO)."""
        return self.masks

    def set_opponents(self, opponents: Sequence[Any], weights: Sequence[float] | None = None) -> None:
        """The pool games started from now on draw their opponents from (games under way keep
        theirs): as the constructor's ``opponents`` and ``opponent_weights`` (None: equal)."""
        if self.self_play:
            raise ValueError("a self-play vector env has no opponents")
        opponents = list(opponents)
        if not opponents:
            raise ValueError("opponents must name at least one opponent (or pass self_play=True)")
        if weights is not None:
            weights = [float(w) for w in weights]
            if len(weights) != len(opponents) or any(w < 0 for w in weights) or sum(weights) <= 0:
                raise ValueError(f"opponent_weights must be {len(opponents)} weights >= 0 with a positive "
                                 f"sum, got {weights}")
        self.opponents = [_opponent_factory(o) for o in opponents]
        self.opponent_names = [_opponent_name(o) for o in opponents]
        self.opponent_weights = weights

    def close(self) -> None:
        self.tables = [None] * self.num_envs

    def get_attr(self, attr_name: str, indices: Any = None) -> list[Any]:
        """The attribute as seen by each game of ``indices`` (all games share this env's)."""
        return [getattr(self, attr_name) for _ in self._get_indices(indices)]

    def set_attr(self, attr_name: str, value: Any, indices: Any = None) -> None:
        """Set an attribute of the games of ``indices``: all of them, since they share this
        env's attributes (a ValueError for some games only)."""
        if sorted(set(self._get_indices(indices))) != list(range(self.num_envs)):
            raise ValueError(f"the {self.num_envs} games of a VigtavlVectorEnv share their attributes: "
                             f"set_attr({attr_name!r}) applies to all of them (indices=None)")
        setattr(self, attr_name, value)

    def env_method(self, method_name: str, *method_args: Any, indices: Any = None, **method_kwargs: Any) -> list[Any]:
        if method_name == "action_masks":
            return [self.masks[i] for i in self._get_indices(indices)]
        result = getattr(self, method_name)(*method_args, **method_kwargs)
        return [result for _ in self._get_indices(indices)]

    def env_is_wrapped(self, wrapper_class: type, indices: Any = None) -> list[bool]:
        return [False for _ in self._get_indices(indices)]

    def get_images(self) -> list[None]:
        return [None] * self.num_envs

    # ------------------------------------------------------------------ one game
    def _new_game(self, i: int) -> None:
        """Start game ``i`` (its seat players drawn, nobody has played yet)."""
        state = new_game(self.gmap, self.config, seed=self._game_seeds[i].getrandbits(SEED_BITS))
        state.record_events = False
        self.tables[i] = EngineTable(state, self.max_steps)
        n_players, draws = self.n_players, self._seat_draws[i]
        self._players[i], self._policies[i] = [None] * n_players, [None] * n_players
        self._with_policy[i] = False
        if self.self_play:
            return
        learner = draws.randrange(n_players)
        lineup: list[str] = []
        for seat in range(n_players):
            if seat == learner:
                continue
            if self.opponent_weights is None:
                k = draws.randrange(len(self.opponents))
            else:
                k = draws.choices(range(len(self.opponents)), weights=self.opponent_weights)[0]
            opponent = self.opponents[k](seat, draws.getrandbits(32))
            if isinstance(opponent, _Policy):
                self._policies[i][seat] = opponent.model
                self._with_policy[i] = True
            else:
                self._players[i][seat] = _bot_player(opponent, self.codec)
            lineup.append(self.opponent_names[k])
        self._lineups[i] = lineup

    def _checked_code(self, i: int, action: int) -> int:
        """The engine code of row ``i``'s action, or a one-line error if it is not legal."""
        try:
            code = self.codec.to_engine(action)
        except ValueError as e:
            raise ValueError(f"game {i}: {e}") from None
        if code not in self.tables[i].legal:
            raise ValueError(f"game {i}: action {action} is not legal now (mask it with action_masks())")
        return code

    def _play_policies(self) -> None:
        """Frozen policies decide for every game waiting on them, one batched call per policy
        and round, each game then played on to its next outside decision, until no game waits
        on a policy."""
        games = [i for i, p in enumerate(self._with_policy) if p]  # the others never wait on one
        while games:
            waiting: dict[int, list[int]] = {}
            for i in games:
                table = self.tables[i]
                seat = table.seat_to_decide()
                if seat is not None and self._policies[i][seat] is not None:
                    waiting.setdefault(id(self._policies[i][seat]), []).append(i)
            if not waiting:
                return
            for rows in waiting.values():
                first = self.tables[rows[0]]
                model = self._policies[rows[0]][first.state.current_player]
                obs = np.empty((len(rows),) + self.encoder.shape, dtype=np.float32)
                masks = np.zeros((len(rows), self.codec.n_actions), dtype=bool)
                for k, i in enumerate(rows):
                    table = self.tables[i]
                    self.encoder.encode_into(table.state, table.state.current_player, obs[k])
                    self.codec.fill_mask(masks[k], table.legal)
                actions, _ = model.predict(obs, action_masks=masks, deterministic=self.deterministic_policies)
                for k, i in enumerate(rows):
                    self.tables[i].play_code(self.codec.to_engine(int(actions[k])))
                    play_other_seats(self.tables[i], self._players[i])

    def _final_info(self, i: int, seat: int) -> dict[str, Any]:
        """A finished game's info: its last observation from ``seat``, its results and, in
        learner mode, its summary."""
        table = self.tables[i]
        state = table.state
        terminal = np.empty(self.encoder.shape, dtype=np.float32)
        self.encoder.encode_into(state, seat, terminal)
        info = {"terminal_observation": terminal, "TimeLimit.truncated": table.cut,
                "final_rewards": [float(r) for r in returns(state)] if state.is_over else [0.0] * self.n_players,
                "tokens": list(state.tokens), "learner_seat": seat}
        if not self.self_play:
            info["game"] = game_summary(state, seat, self._lineups[i])
        return info

    def _fresh_observations(self) -> None:
        """With ``copy``, the observations of this call go to a new array: the one returned
        last stays the caller's (every row is written before it is returned)."""
        if self.copy:
            self.observations = np.empty_like(self.observations)

    def _publish(self, i: int) -> None:
        """Write game ``i``'s observation and mask for the seat that decides next."""
        table = self.tables[i]
        seat = table.state.current_player
        self.seats[i] = seat
        self.encoder.encode_into(table.state, seat, self.observations[i])
        self.codec.fill_mask(self.masks[i], table.legal)
        self._infos[i]["interrupt"] = interrupt_kind(table.state)

    @property
    def learner_seats(self) -> np.ndarray:
        """The seat each row decides for now (the learner's seat in learner mode)."""
        return self.seats


class _Policy:
    """A frozen policy as an opponent: its decisions are batched across games."""

    def __init__(self, model: Any) -> None:
        self.model = model


def _opponent_factory(spec: Any) -> Any:
    """A function (seat, seed) -> opponent for one game, from a name, an agent or a policy."""
    if isinstance(spec, str):
        make_named_agent(spec, seed=0)  # a bad name fails now, in one line

        def from_name(seat: int, seed: int) -> Any:
            agent = make_named_agent(spec, seed=seed)
            agent.reset(seat, seed)
            return agent
        return from_name
    if hasattr(spec, "predict"):
        policy = _Policy(spec)
        return lambda seat, seed: policy
    if hasattr(spec, "act") and hasattr(spec, "reset"):
        def reuse(seat: int, seed: int) -> Any:
            spec.reset(seat, seed)
            return spec
        return reuse
    raise ValueError(f"an opponent is a bot name, an agent (act/reset) or a policy (predict), got {spec!r}")


def _opponent_name(spec: Any) -> str:
    """A pool entry's name in statistics: a bot's spec, else its class name."""
    return spec if isinstance(spec, str) else getattr(spec, "name", None) or type(spec).__name__


def _bot_player(agent: Any, codec: ActionCodec) -> EnginePlayer:
    """A bot as a seat player on a bare engine state (``seats.EngineTable``): engine bots decide
    on the legal list, the random bot picks among the sorted env indices (as its ``act`` does),
    others act on an observation and an info as the AEC env's (``agent_info``)."""
    if isinstance(agent, EngineAgent):
        return agent.decide

    if type(agent) is RandomAgent:
        def pick(state: GameState, legal: list[int]) -> int:
            return legal[agent.rng.randrange(len(legal))]  # (engine order is env index order)
        return pick

    def act(state: GameState, legal: list[int]) -> int:
        encoder = ObservationEncoder(state.gmap, state.config.rounds_per_phase)
        mask = codec.new_mask(legal)
        info = {"interrupt": interrupt_kind(state), "action_mask": mask, "state": state}
        return codec.to_engine(int(agent.act(encoder.encode(state, state.current_player), mask, info)))
    return act
