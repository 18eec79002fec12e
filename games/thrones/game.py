"""ThronesGame: the static facts of Thrones and its factory of states (games/interface.py).

Thrones (karwler/Thrones at acf30b3, its rules page ``doc/rules.html``): two players lay out
their home terrain and pieces in secret, then play a game of full information with coin-flip
survival checks. The rules table is docs/thrones-rules.md; options are ``ThronesConfig``.
The game has no draw rule: ``max_moves`` turns after the reveal cut it (truncation).
"""

from __future__ import annotations

from typing import Any

from games.interface import Game, GameState

from . import codec
from .config import make_config, option_names
from .serialize import VERSION, state_from_dict
from .state import ThronesState
from .views import N_CHANNELS


class ThronesGame(Game):
    """Thrones for two players."""

    name = "thrones"
    title = "Thrones"
    version = VERSION
    min_players = 2
    max_players = 2
    planar_actions = True  # verb * N + cell in the acting seat's frame (codec.py)

    def new_state(self, num_players: int | None = None, seed: int = 0, **options: Any) -> ThronesState:
        self.check_players(num_players)
        if isinstance(seed, bool) or not isinstance(seed, int):
            raise ValueError(f"seed must be an integer, got {str(seed)[:20]!r}")
        return ThronesState(make_config(**options), seed)

    def load(self, data: Any) -> ThronesState:
        return state_from_dict(self.check_version(data), ThronesState)

    def num_actions(self, state: GameState) -> int:
        assert isinstance(state, ThronesState)
        return codec.num_actions(state.board.n)

    def observation_shape(self, state: GameState) -> tuple[int, int, int]:
        assert isinstance(state, ThronesState)
        return (N_CHANNELS, state.board.h, state.board.w)

    def option_names(self) -> list[str]:
        return option_names()
