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

A self-play loop and a network need a little more of a game (:class:`GameSteps`): new games of
a seed, the observation and the network's action indices of a position, its phase (for the value
check by phase), each seat's score. :func:`steps_for` gives a game's: its own
(:meth:`games.interface.Game.search_steps`, Vigtavl's engine-bound ones) or the interface's.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Hashable, Sequence
from typing import Any, Protocol

import numpy as np

from games.interface import Game, GameState


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


class GameSteps(SearchSteps, Protocol):
    """:class:`SearchSteps` and what a self-play loop and a network read of a position."""

    phase_names: Sequence[str]
    """The phases a position may be in (:meth:`phase` indexes it)."""

    def new_games(self, game: Game, num_players: int, seed: int, **options: Any) -> Callable[[int], Any]:
        """A maker of new games of ``game`` with these options (the run's ``seed`` fixes what
        they share, e.g. a generated map): game seed -> a fresh position of the steps' kind."""
        ...

    def encode(self, states: Sequence[Any]) -> np.ndarray:
        """The float32 observations ``(N, C, H, W)`` of positions of one configuration, each as
        its player to move sees it."""
        ...

    def indices(self, state: Any, codes: Sequence[int]) -> np.ndarray:
        """The network's action indices (the game's interface actions) of action codes."""
        ...

    def code(self, state: Any, index: int) -> int:
        """The action code of a network's action index (:meth:`indices`' inverse)."""
        ...

    def phase(self, state: Any) -> int:
        """The position's phase, an index of :attr:`phase_names`."""
        ...

    def scores(self, state: Any) -> list[float]:
        """Each seat's own score (the game's first score field: Vigtavl's victory tokens)."""
        ...


class InterfaceSteps:
    """:class:`GameSteps` over any game's :class:`games.interface.GameState` (module docstring):
    codes are the interface's actions, one phase."""

    phase_names: Sequence[str] = ("game",)

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


    def new_games(self, game: Game, num_players: int, seed: int, **options: Any) -> Callable[[int], GameState]:
        return lambda game_seed: game.new_state(num_players, seed=game_seed, **options)

    def encode(self, states: Sequence[GameState]) -> np.ndarray:
        return np.stack([s.observation(s.current_player()) for s in states]).astype(np.float32, copy=False)

    def indices(self, state: GameState, codes: Sequence[int]) -> np.ndarray:
        return np.asarray(codes, dtype=np.int64)

    def code(self, state: GameState, index: int) -> int:
        return int(index)

    def phase(self, state: GameState) -> int:
        return 0

    def scores(self, state: GameState) -> list[float]:
        fields = list(state.scores().values())
        return [float(x) for x in fields[0]] if fields else list(self.returns(state))


INTERFACE_STEPS = InterfaceSteps()


def steps_for(game: Game) -> GameSteps:
    """``game``'s step functions: its own (:meth:`games.interface.Game.search_steps`) or the
    interface's (:data:`INTERFACE_STEPS`)."""
    return game.search_steps() or INTERFACE_STEPS
