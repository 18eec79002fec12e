"""Vigtavl's engine as a self-play loop's and a network's step functions
(``agents.game_steps.GameSteps``): :mod:`vigtavl_env.search_steps`' search steps over engine
states and codes, and the rest a loop reads of a position, bound to the engine's own tools.

- New games: one map and rule set per run (the map a run's seed generates, as ``raw_env``
  does), each game's dice from its own seed; the event log off (nothing reads it in self-play).
- The network's inputs: :class:`vigtavl_env.observation.ObservationEncoder`'s planes for the
  player to move, and the environment's action indices (:class:`vigtavl_env.codec.ActionCodec`),
  from :mod:`vigtavl_env.board_tools` (the interface's adapter reads the same ones).
- A position's phase (``PHASE_NAMES``) and each seat's victory tokens.

:data:`GAME_STEPS` is what ``VigtavlGame.search_steps()`` hands the layers above.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

import numpy as np

from .board_tools import tools_for
from .engine import new_game
from .engine.state import PHASE_NAMES
from .engine.state import GameState as EngineState
from .env import SEED_BITS, raw_env
from .search_steps import EngineSteps

SEED_MASK = (1 << SEED_BITS) - 1


class EngineGameSteps(EngineSteps):
    """``GameSteps`` over Vigtavl's engine states (module docstring)."""

    phase_names = PHASE_NAMES

    def new_games(self, game: Any, num_players: int, seed: int, **options: Any) -> Callable[[int], EngineState]:
        probe = raw_env(num_players=num_players, seed=seed, **options)
        gmap, rules = probe.gmap, probe.config

        def make(game_seed: int) -> EngineState:
            state = new_game(gmap, rules, seed=game_seed & SEED_MASK)
            state.record_events = False
            return state
        return make

    def encode(self, states: Sequence[EngineState]) -> np.ndarray:
        first = states[0]
        encoder = tools_for(first).encoder(first)
        obs = np.empty((len(states),) + encoder.shape, dtype=np.float32)
        for k, s in enumerate(states):
            same = s.gmap is first.gmap and s.config.rounds_per_phase == first.config.rounds_per_phase
            (encoder if same else tools_for(s).encoder(s)).encode_into(s, s.current_player, obs[k])
        return obs

    def indices(self, state: EngineState, codes: Sequence[int]) -> np.ndarray:
        return tools_for(state).codec.legal_indices(codes)

    def code(self, state: EngineState, index: int) -> int:
        return tools_for(state).codec.to_engine(int(index))

    @staticmethod
    def phase(state: EngineState) -> int:
        return state.phase

    @staticmethod
    def scores(state: EngineState) -> list[float]:
        return [float(t) for t in state.tokens]


GAME_STEPS = EngineGameSteps()
