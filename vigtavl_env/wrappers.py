"""One learner seat as a single-agent ``gymnasium.Env``, the opponents played inside it.

``SingleSeatEnv(opponents=..., seat=0 | "random", **env_kwargs)`` wraps :class:`raw_env` for
single-agent training (sb3-contrib's MaskablePPO): ``step(action)`` applies the learner's action,
then steps every opponent decision until the learner must decide again or the game ends. Out-of-
turn decisions go to whoever they belong to: the learner's own retaliations and defences (who
defends its attacked hex or its development about to be seized) come to the learner, with
``info["interrupt"]`` set to ``"retaliation"`` or ``"defend"``; an opponent answers the same
questions for its own seat inside ``step`` (also in the middle of the learner's turn: the
learner's attack returns once the defender has chosen). The reward returned is the learner's
reward summed over all those steps, so the learner sees the final result even when an
opponent's move ends the game.

- Observation: ``Box(-1, 16, (C, H, W), float32)``, the learner's view (``observation.py``);
  the action mask is not in it: ``action_masks()`` returns it as a bool array (MaskablePPO
  finds that method), and ``info["action_mask"]`` carries a copy.
- Action: ``Discrete(N)`` as in the AEC env (``codec.py``).
- Opponents: ``None`` or ``"random"`` (uniform over legal actions, from this env's seeded
  ``np_random``), a bot by its agent spec (``"greedy"``, ``"search:50"``, ``"ppo:pretrained"``:
  ``vigtavl agents`` lists them; each seat gets its own, reseeded from ``np_random`` at every
  reset), a policy, or a list of ``n - 1`` of these for the seats after the learner's in turn
  order. A policy is a callable ``(observation, action_mask) -> action`` or an object with
  ``.act(observation, action_mask, info) -> action`` (``observation`` is the ``(C, H, W)`` view of
  the seat it plays, ``action_mask`` int8, ``info`` the env's infos entry plus ``"state"``, the
  live engine state to read, not change -- so the bots in ``agents/`` can play here).
- ``seat``: the learner's seat, or ``"random"`` (drawn at each reset).
- ``illegal_action``: ``"penalty"`` (default: the episode ends with reward -1 and
  ``info["illegal_action"] = True``) or ``"raise"`` (the engine's IllegalActionError).
- Every other keyword goes to :class:`raw_env` (``num_players``, ``map``, ``reward``, ``rules``,
  ``max_steps``, ``render_mode`` among ``"ansi"``/``"rgb_array"``...).
"""

from __future__ import annotations

import warnings
from collections.abc import Callable, Sequence
from typing import Any

import gymnasium
import numpy as np
from gymnasium import spaces

from .agent import agent_info, make_named_agent
from .engine import IllegalActionError
from .env import ILLEGAL_REWARD, raw_env
from .observation import OBS_HIGH, OBS_LOW
from .seats import AECTable, aec_player, game_summary, play_other_seats, seat_reward

Policy = Callable[[np.ndarray, np.ndarray], int] | Any
RANDOM = "random"
SEAT_CHOICES = "an int seat 0..n-1 or 'random'"


class SingleSeatEnv(gymnasium.Env):
    """A Gymnasium env for one Vigtavl seat against fixed opponent policies."""

    metadata = {"render_modes": ["ansi", "rgb_array"], "render_fps": 2}

    def __init__(self, opponents: Policy | Sequence[Policy] | None = None, seat: int | str = 0,
                 illegal_action: str = "penalty", render_mode: str | None = None, **env_kwargs: Any) -> None:
        if render_mode not in (None, *self.metadata["render_modes"]):
            raise ValueError(f"render_mode must be None or one of {self.metadata['render_modes']}, got {render_mode!r}")
        if illegal_action not in ("penalty", "raise"):
            raise ValueError(f"illegal_action must be 'penalty' or 'raise', got {illegal_action!r}")
        self.aec = raw_env(render_mode=render_mode, **env_kwargs)
        self.render_mode = render_mode
        self.illegal_action = illegal_action
        self.n_players = len(self.aec.possible_agents)
        if seat != RANDOM and (isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < self.n_players):
            raise ValueError(f"seat must be {SEAT_CHOICES}, got {seat!r}")
        self._seat_option = seat
        self.opponents, self._named = _opponent_list(opponents, self.n_players)
        self.observation_space = spaces.Box(OBS_LOW, OBS_HIGH, self.aec.encoder.shape, dtype=np.float32)
        self.action_space = spaces.Discrete(self.aec.codec.n_actions)
        self.seat = 0 if seat == RANDOM else seat
        self._table = AECTable(self.aec)
        self._players: list[Any] = []  # per seat: an opponent's player, None for the learner's
        self._tokens_seen = 0  # the learner's tokens when it last saw the game (its reward since)
        self._done = True
        self._warned = False

    @property
    def agent(self) -> str:
        return self.aec.possible_agents[self.seat]

    # ------------------------------------------------------------------ gymnasium API
    def reset(self, *, seed: int | None = None, options: dict[str, Any] | None = None) -> tuple[np.ndarray, dict]:
        super().reset(seed=seed)
        if self._seat_option == RANDOM:
            self.seat = int(self.np_random.integers(self.n_players))
        for i in self._named:
            self.opponents[i].reset((self.seat + 1 + i) % self.n_players, int(self.np_random.integers(2**31)))
        self.aec.reset(seed=seed, options=options)
        self._done = False
        self._players = self._seat_players()
        self._tokens_seen = self.aec.game_state.tokens[self.seat]  # opponents' moves now: paid with the first step
        play_other_seats(self._table, self._players)
        return self._observation(), self._info()

    def step(self, action: Any) -> tuple[np.ndarray, float, bool, bool, dict]:
        if self._done:
            raise RuntimeError("the episode is over: call reset()")
        try:
            self.aec.step(int(action))
        except IllegalActionError as err:
            if self.illegal_action == "raise":
                raise
            if not self._warned:  # the trap of unmasked evaluation (SB3's evaluate_policy): say it once
                self._warned = True
                warnings.warn(f"an illegal action ended the episode with reward {ILLEGAL_REWARD} ({err}); "
                              "mask the policy's actions with env.action_masks() (sb3_contrib's "
                              "evaluate_policy, MaskablePPO.predict(action_masks=...))", stacklevel=2)
            self._done = True
            info = self._info()
            info.update(illegal_action=True, reason=str(err))
            return self._observation(), float(ILLEGAL_REWARD), True, False, info
        play_other_seats(self._table, self._players)
        state = self.aec.game_state
        reward = seat_reward(state, self.seat, self.aec.reward_kind, self._tokens_seen)
        self._tokens_seen = state.tokens[self.seat]
        terminated = bool(state.is_over)
        truncated = bool(not terminated and self.aec.truncations.get(self.agent, False))
        self._done = terminated or truncated
        return self._observation(), reward, terminated, truncated, self._info()

    def action_masks(self) -> np.ndarray:
        """Bool mask of the learner's legal actions (all False once the episode is over)."""
        return self.aec.action_mask(self.agent).astype(bool)

    def agent_info(self) -> dict[str, Any]:
        """The ``info`` a Vigtavl agent deciding for the learner's seat now is handed
        (:func:`vigtavl_env.agent.agent_info`: the engine state, the legal codes): a teacher acts on it."""
        return agent_info(self.aec, self.aec.agent_selection)

    def game_summary(self, opponents: Sequence[str]) -> dict[str, Any]:
        """The game so far seen from the learner's seat, as training statistics read it
        (:func:`~vigtavl_env.seats.game_summary`; ``opponents``: the other seats' names)."""
        return game_summary(self.aec.game_state, self.seat, opponents)

    def render(self) -> Any:
        return self.aec.render() if self.render_mode is not None else None

    def close(self) -> None:
        self.aec.close()

    # ------------------------------------------------------------------ opponents
    def _seat_players(self) -> list[Any]:
        """The seat loop's players (``seats.play_other_seats``): the opponents in the seats
        after the learner's, in turn order; ``None`` in the learner's."""
        players: list[Any] = [None] * self.n_players
        for k, policy in enumerate(self.opponents):
            players[(self.seat + 1 + k) % self.n_players] = (
                self._random_action if policy is RANDOM else aec_player(policy))
        return players

    def _random_action(self, aec: raw_env) -> int:
        """The ``"random"`` opponent: uniform over the legal actions, from ``np_random``."""
        legal = aec.legal_action_indices()
        return int(legal[self.np_random.integers(len(legal))])

    # ------------------------------------------------------------------ views
    def _observation(self) -> np.ndarray:
        return self.aec.observe(self.agent)["observation"]

    def _info(self) -> dict[str, Any]:
        info = self.aec.infos.get(self.agent, {})
        return {"action_mask": self.action_masks(), "interrupt": info.get("interrupt"), "seat": self.seat,
                "tokens": list(self.aec.game_state.tokens)}


class SeatTable:
    """Every seat of one Vigtavl game at a time, for a multi-agent env (:mod:`training.rllib`'s):
    the seats a bot plays are played inside (out-of-turn decisions included), each other seat
    is observed when it must decide and paid what it earned since it last observed (``reward``
    as :class:`raw_env`'s). ``options``: :class:`raw_env`'s keywords."""

    def __init__(self, **options: Any) -> None:
        self.aec = raw_env(mask_in_info=False, **options)
        self._table = AECTable(self.aec)
        self.n_players = len(self.aec.possible_agents)
        self.n_actions = self.aec.codec.n_actions
        self.observation_space = self.aec.observation_space("player_0")["observation"]
        self._players: list[Any] = []  # per seat: a bot's player, None for a seat observed
        self._tokens_seen: list[int] = []  # per seat: its tokens when it last observed

    def reset(self, seed: int, bots: dict[int, Any]) -> int | None:
        """A new game from ``seed``, ``bots`` (seat -> agent, reset by the caller) playing their
        seats; the seat to decide next of the others, None if the bots ended the game."""
        self.aec.reset(seed=seed)
        self._players = [aec_player(bots[s]) if s in bots else None for s in range(self.n_players)]
        self._tokens_seen = list(self.aec.game_state.tokens)
        return play_other_seats(self._table, self._players)

    def seat_to_decide(self) -> int:
        return self._table.seat_to_decide()

    def step(self, action: int) -> int | None:
        """Apply the deciding seat's action (an env action index), then the bots' decisions;
        the seat to decide next, None once the game is over or cut."""
        self.aec.step(int(action))
        return play_other_seats(self._table, self._players)

    def terminated(self) -> bool:
        """Over by the rules (else, with no seat to decide, cut at ``max_steps``)."""
        return bool(self.aec.game_state.is_over)

    def observe(self, seat: int) -> tuple[np.ndarray, np.ndarray]:
        """``seat``'s observation and action mask (int8)."""
        o = self.aec.observe(self.aec.possible_agents[seat])
        return o["observation"], o["action_mask"]

    def reward(self, seat: int) -> float:
        """What ``seat`` earned since it last observed (:func:`~vigtavl_env.seats.seat_reward`);
        now it has."""
        state = self.aec.game_state
        reward = seat_reward(state, seat, self.aec.reward_kind, self._tokens_seen[seat])
        self._tokens_seen[seat] = state.tokens[seat]
        return reward


def _opponent_list(opponents: Any, n_players: int) -> tuple[list[Any], list[int]]:
    """One policy per seat after the learner's (relative order), validated, with bot names made;
    and the indices of the bots made here (this env reseeds them at every reset)."""
    if isinstance(opponents, (list, tuple)):
        if len(opponents) != n_players - 1:
            raise ValueError(f"opponents: expected {n_players - 1} policies (one per other seat), got {len(opponents)}")
        pols = list(opponents)
    else:
        pols = [opponents] * (n_players - 1)
    named = []
    for i, p in enumerate(pols):
        if p is None or p == RANDOM:
            pols[i] = RANDOM
        elif isinstance(p, str):
            pols[i] = make_named_agent(p)
            named.append(i)
        elif not callable(p) and not hasattr(p, "act"):
            raise ValueError(f"an opponent must be 'random', a bot name (vigtavl agents), a callable "
                             f"(obs, mask) -> action or have .act(obs, mask, info); got {p!r}")
    return pols, named
