"""The batch core: N games of any registered game, one learning seat each, as numpy arrays.

::

    from agents.generic import make_generic
    from games.batch import GameBatch
    batch = GameBatch("pig", num_envs=8, opponents=["random"], make_player=make_generic, seed=0)
    obs, masks = batch.reset()                  # (N, C, H, W) float32, (N, A) bool
    step = batch.step(actions)                  # actions: (N,) ints, one legal action per row
    step.obs, step.masks, step.rewards, step.terminated, step.truncated, step.final_obs, step.games

It is framework-neutral (numpy and the game interface only); thin adapters put it under
gymnasium's ``VectorEnv`` (:mod:`games.vector`) and SB3's ``VecEnv`` (:mod:`training.vec`).

**The seat loop.** Each game has one learning seat, drawn per game (or fixed by ``seat``);
every other seat is played by an opponent drawn per game from ``opponents``: a player
(:data:`agents.generic.Player`) that ``make_player(spec, seed)`` makes (such as
:func:`agents.generic.make_generic`; passed in, as the agents live a floor above the games), handed ``state.view_for(seat)`` and the legal actions, never the true state. After
the learner's action the opponents play, out-of-turn decisions included, until the learner must
decide again (its own out-of-turn decisions too) or the game ends.

**Rewards** are the learner's return, given at the step that ends the game; a game cut by its
move limit is truncated with reward 0.

**Auto-reset** (gymnasium's ``SAME_STEP``): the step that ends game ``i`` returns the next
game's first observation and mask in row ``i``; the finished game's last observation is
``step.final_obs[i]`` and its summary ``step.games[i]`` (return, win, length, seat, opponent).

**Seeding.** Row ``i`` draws every game seed, learning seat, opponent and opponent seed from its
own ``numpy`` generator seeded by ``(seed, i)``: the same seed and actions give the same games.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from games.interface import Game, GameState
from games.registry import load_game

Player = Callable[[GameState, list[int]], int]  # agents.generic's players
PlayerFactory = Callable[[str, int], Player]
MAX_EMPTY_GAMES = 100  # games in a row that end before the learner decides: a broken game


@dataclass
class BatchStep:
    """What one :meth:`GameBatch.step` returns (arrays the batch never writes again)."""

    obs: np.ndarray
    masks: np.ndarray
    rewards: np.ndarray
    terminated: np.ndarray
    truncated: np.ndarray
    final_obs: dict[int, np.ndarray]
    games: dict[int, dict[str, Any]]

    @property
    def dones(self) -> np.ndarray:
        return self.terminated | self.truncated


class GameBatch:
    """N games of ``game`` with one learning seat each (see the module docstring)."""

    def __init__(self, game: str | Game, num_envs: int = 8, opponents: Sequence[str] = ("random",),
                 num_players: int | None = None, seed: int = 0, seat: int | None = None,
                 weights: Sequence[float] | None = None, *, make_player: PlayerFactory,
                 **options: Any) -> None:
        self.game = load_game(game) if isinstance(game, str) else game
        if isinstance(num_envs, bool) or not isinstance(num_envs, int) or num_envs < 1:
            raise ValueError(f"num_envs must be a positive int, got {num_envs!r}")
        self.num_envs, self.options = num_envs, options
        self.num_players = self.game.check_players(num_players)
        if seat is not None and not (isinstance(seat, int) and 0 <= seat < self.num_players):
            raise ValueError(f"seat must be 0-{self.num_players - 1} or None, got {seat!r}")
        self.fixed_seat = seat
        probe = self.game.new_state(self.num_players, 0, **options)  # the options checked here
        self.num_actions = self.game.num_actions(probe)
        self.observation_shape = tuple(self.game.observation_shape(probe))
        self.make_player = make_player
        self.set_opponents(opponents, weights)
        self.states: list[GameState] = [probe] * num_envs
        self.seats = np.zeros(num_envs, dtype=np.int64)
        self.names = [""] * num_envs
        self.players: list[list[Player | None]] = [[] for _ in range(num_envs)]
        self.lengths = np.zeros(num_envs, dtype=np.int64)
        self.seed(seed)

    # --- configuration -------------------------------------------------------------------
    def set_opponents(self, opponents: Sequence[str], weights: Sequence[float] | None = None) -> None:
        """The opponent pool for the games that start from now on (specs checked here)."""
        opponents = list(opponents)
        if not opponents:
            raise ValueError("opponents: at least one agent spec")
        for spec in opponents:
            self.make_player(spec, 0)  # a bad spec fails here, in one line
        w = np.ones(len(opponents)) if weights is None else np.asarray(weights, dtype=float)
        if w.shape != (len(opponents),) or (w < 0).any() or w.sum() <= 0:
            raise ValueError(f"weights: {len(opponents)} non-negative numbers, not all zero")
        self.opponents, self.weights = opponents, w / w.sum()

    def seed(self, seed: int) -> None:
        """Row ``i``'s generator from ``(seed, i)``; the next :meth:`reset` starts from it."""
        self.rngs = [np.random.default_rng([int(seed) & 0xFFFFFFFF, i]) for i in range(self.num_envs)]

    # --- the loop ------------------------------------------------------------------------
    def reset(self) -> tuple[np.ndarray, np.ndarray]:
        """A new game in every row: ``(obs, masks)``."""
        for i in range(self.num_envs):
            self._new_game(i)
        return self.observations(), self.action_masks()

    def step(self, actions: Sequence[int] | np.ndarray) -> BatchStep:
        """Row ``i``'s learner plays ``actions[i]`` (IllegalAction if not legal), then the
        opponents play until it must decide again; finished games restart at once."""
        actions = np.asarray(actions)
        if actions.shape != (self.num_envs,):
            raise ValueError(f"step takes one action per game: shape ({self.num_envs},), got {actions.shape}")
        n = self.num_envs
        rewards = np.zeros(n, dtype=np.float32)
        terminated, truncated = np.zeros(n, dtype=bool), np.zeros(n, dtype=bool)
        final_obs: dict[int, np.ndarray] = {}
        games: dict[int, dict[str, Any]] = {}
        for i in range(n):
            s, seat = self.states[i], int(self.seats[i])
            s.apply_action(int(actions[i]))
            self.lengths[i] += 1
            self._play_opponents(i)
            if s.is_over():
                ret = float(s.returns()[seat]) if s.is_terminal() else 0.0
                rewards[i], terminated[i], truncated[i] = ret, s.is_terminal(), not s.is_terminal()
                final_obs[i] = s.observation(seat)
                games[i] = self._summary(i)
                self._new_game(i)
        return BatchStep(self.observations(), self.action_masks(), rewards, terminated, truncated,
                         final_obs, games)

    def observations(self) -> np.ndarray:
        """``(N, C, H, W)`` float32: each row's state as its learner sees it (a fresh array)."""
        out = np.empty((self.num_envs, *self.observation_shape), dtype=np.float32)
        for i, s in enumerate(self.states):
            out[i] = s.observation(int(self.seats[i]))
        return out

    def action_masks(self) -> np.ndarray:
        """``(N, A)`` bool: each row's legal actions now (never empty)."""
        masks = np.zeros((self.num_envs, self.num_actions), dtype=bool)
        for i, s in enumerate(self.states):
            masks[i, s.legal_actions()] = True
        return masks

    def infos(self) -> list[dict[str, Any]]:
        """Each row's facts its learner may know: its seat, the out-of-turn kind, the game's own."""
        return [dict(s.seat_info(int(self.seats[i])), seat=int(self.seats[i]), interrupt=s.interrupt() or "")
                for i, s in enumerate(self.states)]

    # --- inside ----------------------------------------------------------------------------
    def _new_game(self, i: int) -> None:
        rng = self.rngs[i]
        for _ in range(MAX_EMPTY_GAMES):
            s = self.game.new_state(self.num_players, int(rng.integers(2**31)), **self.options)
            seat = self.fixed_seat if self.fixed_seat is not None else int(rng.integers(self.num_players))
            name = self.opponents[int(rng.choice(len(self.opponents), p=self.weights))]
            self.states[i], self.seats[i], self.names[i], self.lengths[i] = s, seat, name, 0
            self.players[i] = [None if k == seat else self.make_player(name, int(rng.integers(2**31)))
                               for k in range(self.num_players)]
            self._play_opponents(i)
            if not s.is_over():
                return
        raise RuntimeError(f"{MAX_EMPTY_GAMES} {self.game.name} games in a row ended before the learner decided")

    def _play_opponents(self, i: int) -> None:
        s, seat, players = self.states[i], int(self.seats[i]), self.players[i]
        while not s.is_over():
            k = s.current_player()
            if k == seat:
                return
            s.apply_action(int(players[k](s.view_for(k), s.legal_actions())))
            self.lengths[i] += 1

    def _summary(self, i: int) -> dict[str, Any]:
        s, seat = self.states[i], int(self.seats[i])
        ret = float(s.returns()[seat]) if s.is_terminal() else 0.0
        winners = s.winners() if s.is_terminal() else []
        win = 1.0 / len(winners) if seat in winners and len(winners) < self.num_players else 0.0
        return {"return": ret, "win": win, "length": int(self.lengths[i]), "seat": seat,
                "opponent": self.names[i], "truncated": bool(s.is_truncated())}
