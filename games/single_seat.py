"""One seat of any registered game as a single-agent ``gymnasium.Env``, through the game
interface alone (:mod:`games.interface`); the other seats are played inside ``step``.

    from games.single_seat import GameSingleSeatEnv
    env = GameSingleSeatEnv("thrones", seat=0, seed=7)
    obs, info = env.reset()
    obs, reward, terminated, truncated, info = env.step(int(info["action_mask"].nonzero()[0][0]))

- Observation: ``state.observation(seat)``, a float32 ``(C, H, W)`` Box as that seat sees it.
- Action: ``Discrete(game.num_actions)``; the legal ones are ``info["action_mask"]`` (int8) and
  ``action_masks()`` (bool, the method sb3-contrib's MaskablePPO looks for).
- ``illegal_action``: ``"penalty"`` (default, as ``vigtavl_env.SingleSeatEnv``: the episode ends
  with reward -1 and ``info["illegal_action"] = True``; gymnasium's checker steps unmasked
  samples) or ``"raise"`` (:class:`games.interface.IllegalAction`, nothing changed).
- Opponent: ``None`` or ``"random"`` (uniform over its legal actions, from this env's seeded
  ``np_random``), or a policy ``(view, legal) -> action`` as ``agents.generic``'s players are,
  handed ``state.view_for(its seat)`` (never the secrets of the learner) and its legal codes.
  The same policy plays every other seat, out-of-turn decisions included.
- Reward: the learner's return, once, when the game ends by its rules; a game cut by its move
  limit is truncated with reward 0.
- ``seed``: games are seeded ``seed, seed+1, ...`` (as :class:`games.aec.GameAEC`); a seed given
  to ``reset`` starts that count again. ``**options`` are the game's own.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import gymnasium
import numpy as np
from gymnasium import spaces

from .aec import OBS_BOUND
from .interface import GameState, IllegalAction
from .registry import load_game

Policy = Callable[[GameState, list[int]], int]
RANDOM = "random"
ILLEGAL_REWARD = -1.0


class GameSingleSeatEnv(gymnasium.Env):
    """A Gymnasium env for one seat of a game against a fixed opponent policy."""

    metadata = {"render_modes": ["ansi", "rgb_array"], "render_fps": 2}

    def __init__(self, game: str = "pig", seat: int = 0, opponent: Policy | str | None = None,
                 num_players: int | None = None, seed: int | None = None,
                 illegal_action: str = "penalty", render_mode: str | None = None, **options: Any) -> None:
        if illegal_action not in ("penalty", "raise"):
            raise ValueError(f"illegal_action must be 'penalty' or 'raise', got {str(illegal_action)[:20]!r}")
        if render_mode not in (None, *self.metadata["render_modes"]):
            raise ValueError(f"render_mode must be None or one of {self.metadata['render_modes']}, got {render_mode!r}")
        self.game = load_game(game)
        self.num_players = self.game.check_players(num_players)
        if isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < self.num_players:
            raise ValueError(f"seat must be an int 0..{self.num_players - 1}, got {str(seat)[:20]!r}")
        if not (opponent is None or opponent == RANDOM or callable(opponent)):
            raise ValueError(f"opponent must be 'random' or a callable (view, legal) -> action, got {str(opponent)[:40]!r}")
        self.seat, self.options, self.render_mode = seat, options, render_mode
        self.illegal_action = illegal_action
        self.opponent = None if opponent in (None, RANDOM) else opponent
        probe = self.game.new_state(self.num_players, 0, **options)  # the options checked here
        self.n_actions = self.game.num_actions(probe)
        self.observation_space = spaces.Box(-OBS_BOUND, OBS_BOUND, self.game.observation_shape(probe), dtype=np.float32)
        self.action_space = spaces.Discrete(self.n_actions)
        self._seed, self._games = seed, 0
        self.state: GameState | None = None
        self._ended = True  # an illegal action ends the episode without ending the game

    def reset(self, *, seed: int | None = None, options: dict[str, Any] | None = None) -> tuple[np.ndarray, dict]:
        super().reset(seed=seed)
        if seed is not None:
            self._seed, self._games = seed, 0
        base = 0 if self._seed is None else int(self._seed)
        self.state = self.game.new_state(self.num_players, base + self._games, **self.options)
        self._games += 1
        self._ended = False
        self._play_others()
        return self.state.observation(self.seat), self._info()

    def step(self, action: Any) -> tuple[np.ndarray, float, bool, bool, dict]:
        s = self.state
        if self._ended or s.is_over():
            raise RuntimeError("the episode is over: call reset()")
        try:
            s.apply_action(int(action))
        except IllegalAction as err:
            if self.illegal_action == "raise":
                raise
            self._ended = True
            info = dict(self._info(), illegal_action=True, reason=str(err))
            return s.observation(self.seat), ILLEGAL_REWARD, True, False, info
        self._play_others()
        terminated, truncated = s.is_terminal(), s.is_truncated()
        reward = float(s.returns()[self.seat]) if terminated else 0.0
        return s.observation(self.seat), reward, terminated, truncated, self._info()

    def action_masks(self) -> np.ndarray:
        """Bool mask of the learner's legal actions (all False when it is not to decide)."""
        mask = np.zeros(self.n_actions, dtype=bool)
        s = self.state
        if not self._ended and not s.is_over() and s.current_player() == self.seat:
            mask[s.legal_actions()] = True
        return mask

    def render(self) -> Any:
        if self.render_mode is None or self.state is None:
            return None
        return self.state.render(self.render_mode, self.seat)

    def _play_others(self) -> None:
        """The other seats' decisions until the learner decides or the game is over."""
        s = self.state
        while not s.is_over() and (seat := s.current_player()) != self.seat:
            legal = s.legal_actions()
            if self.opponent is None:
                s.apply_action(legal[int(self.np_random.integers(len(legal)))])
            else:
                s.apply_action(int(self.opponent(s.view_for(seat), legal)))

    def _info(self) -> dict[str, Any]:
        s = self.state
        return dict(s.seat_info(self.seat), action_mask=self.action_masks().astype(np.int8),
                    interrupt=s.interrupt() or "", seat=self.seat)
