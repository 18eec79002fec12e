"""Vigtavl's engine as a self-play loop's and a network's step functions
(``agents.game_steps.GameSteps``): :mod:`vigtavl_env.search_steps`' search steps over engine
states and codes, and the rest a loop reads of a position, bound to the engine's own tools.

- New games: one map and rule set per run (the map a run's seed generates, as ``raw_env``
  does), each game's dice from its own seed; the event log off (nothing reads it in self-play).
- The network's inputs: :class:`vigtavl_env.observation.ObservationEncoder`'s planes for the
  player to move, and the environment's action indices (:class:`vigtavl_env.codec.ActionCodec`),
  one encoder and codec per board.
- A position's phase (``PHASE_NAMES``) and each seat's victory tokens.

:data:`GAME_STEPS` is what ``VigtavlGame.search_steps()`` hands the layers above.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

import numpy as np

from .codec import ActionCodec
from .engine import new_game
from .engine.state import PHASE_NAMES
from .engine.state import GameState as EngineState
from .env import SEED_BITS, raw_env
from .observation import ObservationEncoder
from .search_steps import EngineSteps

SEED_MASK = (1 << SEED_BITS) - 1


class EngineGameSteps(EngineSteps):
    """``GameSteps`` over Vigtavl's engine states (module docstring)."""

    phase_names = PHASE_NAMES

    def __init__(self) -> None:
        self._boards: dict[int, tuple[ObservationEncoder, ActionCodec]] = {}

    def new_games(self, game: Any, num_players: int, seed: int, **options: Any) -> Callable[[int], EngineState]:
        probe = raw_env(num_players=num_players, seed=seed, **options)
        gmap, rules = probe.gmap, probe.config

        def make(game_seed: int) -> EngineState:
            state = new_game(gmap, rules, seed=game_seed & SEED_MASK)
            state.record_events = False
            return state
        return make

    def tools(self, state: EngineState) -> tuple[ObservationEncoder, ActionCodec]:
        """The encoder and codec of ``state``'s board (made once per board)."""
        board = state.gmap.board
        found = self._boards.get(id(board))
        if found is None:
            found = self._boards[id(board)] = (ObservationEncoder(state.gmap, state.config.rounds_per_phase),
                                               ActionCodec(board))
        return found

    def encode(self, states: Sequence[EngineState]) -> np.ndarray:
        encoder = self.tools(states[0])[0]
        obs = np.empty((len(states),) + encoder.shape, dtype=np.float32)
        for k, s in enumerate(states):
            self.tools(s)[0].encode_into(s, s.current_player, obs[k])
        return obs

    def indices(self, state: EngineState, codes: Sequence[int]) -> np.ndarray:
        return self.tools(state)[1].legal_indices(codes)

    def code(self, state: EngineState, index: int) -> int:
        return self.tools(state)[1].to_engine(int(index))

    @staticmethod
    def phase(state: EngineState) -> int:
        return state.phase

    @staticmethod
    def scores(state: EngineState) -> list[float]:
        return [float(t) for t in state.tokens]


GAME_STEPS = EngineGameSteps()
