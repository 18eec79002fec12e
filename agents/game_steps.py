"""What a tree search needs of a game, as step functions: the seam between :mod:`agents.gumbel`
and the games.

The search calls a game only through a :class:`SearchSteps`: copy a position for a simulation
(with its own chance to come), list the legal actions, apply one (and say whether chance was
drawn, and which outcome), who decides, whether it is over, its returns. Two kinds exist:

- :data:`INTERFACE_STEPS` (:class:`InterfaceSteps`): any game of the registry through the game
  interface (:mod:`games.interface`) alone. The root is the view of the player to move
  (``view_for``: the other seats' secrets replaced), every copy is :meth:`GameState.search_copy`
  (its dice reseeded from the search's generator), so the search never reads the true state's
  secrets or future dice. An action that logged chance events is a chance edge keyed by those
  outcomes (as in :mod:`training.az_game`).
- a game's own, faster steps over its engine states and codes, supplied by the game's package
  (Vigtavl's: ``vigtavl_env.search_steps.ENGINE_STEPS``, its engine functions bound directly).
"""

from __future__ import annotations

import json
from collections.abc import Hashable, Sequence
from typing import Any, Protocol

from games.interface import GameState


class SearchSteps(Protocol):
    """A game's positions as a search runs them (states and action codes of the game's kind)."""

    def root(self, state: Any, seed: int) -> Any:
        """The search's copy of the position to decide: what its player may see, with its own
        chance to come drawn from ``seed``."""
        ...

    def copy(self, state: Any, seed: int) -> Any:
        """An independent copy of a searched position, its chance to come drawn from ``seed``."""
        ...

    def reseed(self, state: Any, seed: int) -> None:
        """Draw ``state``'s chance to come from ``seed`` (common random numbers)."""
        ...

    def legal(self, state: Any) -> list[int]:
        """The legal action codes, never empty while the game is not over."""
        ...

    def apply(self, state: Any, action: int, legal: list[int]) -> Hashable | None:
        """Apply a legal action (``legal``: the position's legal list); the key of the chance
        outcome it drew, None where it drew none (a deterministic edge)."""
        ...

    def player(self, state: Any) -> int:
        """The seat that decides now (out of turn included)."""
        ...

    def is_over(self, state: Any) -> bool:
        ...

    def returns(self, state: Any) -> Sequence[float]:
        """Each seat's result once over (a game cut by a limit: zeros)."""
        ...


class InterfaceSteps:
    """:class:`SearchSteps` over any game's :class:`games.interface.GameState` (module docstring)."""

    def root(self, state: GameState, seed: int) -> GameState:
        return state.view_for(state.current_player()).search_copy(seed)

    def copy(self, state: GameState, seed: int) -> GameState:
        return state.search_copy(seed)

    def reseed(self, state: GameState, seed: int) -> None:
        try:
            state.reseed(seed)
        except NotImplementedError:
            pass  # the copy's own dice, the view's: never the true state's

    def legal(self, state: GameState) -> list[int]:
        return state.legal_actions()

    def apply(self, state: GameState, action: int, legal: list[int]) -> Hashable | None:
        seen = len(state.chance_events())
        state.apply_action(action)
        drawn = state.chance_events()[seen:]
        return json.dumps(drawn, sort_keys=True) if drawn else None

    def player(self, state: GameState) -> int:
        return state.current_player()

    def is_over(self, state: GameState) -> bool:
        return state.is_over()

    def returns(self, state: GameState) -> list[float]:
        return state.returns() if state.is_terminal() else [0.0] * state.num_players


INTERFACE_STEPS = InterfaceSteps()
