"""The Thrones heuristic bot, ``greedy``: the layout of ``layout.py`` in the setup, then the
decision of the best expected evaluation one decision ahead (``lookahead.best_code``)."""

from __future__ import annotations

import random

from games.interface import GameState
from games.thrones.state import ThronesState

from .layout import mirror_coin, setup_choice
from .lookahead import best_code


class GreedyPlayer:
    """Plays the seat it is asked for from the view it is handed (never the true state)."""

    def __init__(self, seed: int | None = None) -> None:
        self.mirror = mirror_coin(random.Random(seed))

    def __call__(self, view: GameState, legal: list[int]) -> int:
        assert isinstance(view, ThronesState)
        if len(legal) == 1:
            return legal[0]
        if not view.revealed:
            return setup_choice(view, legal, self.mirror)
        return self.after_reveal(view, legal)

    def after_reveal(self, view: ThronesState, legal: list[int]) -> int:
        """A decision of full information: the best evaluation one decision ahead."""
        return best_code(view, legal)
