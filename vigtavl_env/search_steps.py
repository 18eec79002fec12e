"""Vigtavl's engine as a tree search's step functions (``agents.game_steps.SearchSteps``): the
engine's own functions bound directly, on engine states and engine codes, for
:mod:`agents.gumbel`'s search in the az agents and trainers.

A plain module (not in the compiled core's list): it only binds the compiled functions.

- The search's copy (:func:`search_clone`): a clone without the event log, recording nothing,
  no forced dice, its dice stream drawn from the search's seed, so a search never reads the real
  game's future dice.
- Chance: an action whose application moved the dice stream (``state.rng``) rolled dice; its
  outcome is keyed by the resulting position (``score_key``).
"""

from __future__ import annotations

from collections.abc import Hashable

from .engine import apply_action, legal_actions, returns
from .engine.state import MASK64, GameState


def search_clone(state: GameState, seed: int) -> GameState:
    """A copy for a search: no event log, its own dice (``seed``), never the real game's future."""
    s = state.clone(keep_events=False)
    s.record_events = False
    s.forced_dice = []
    s.rng = seed & MASK64
    return s


class EngineSteps:
    """``SearchSteps`` over Vigtavl's engine states (module docstring)."""

    root = staticmethod(search_clone)
    copy = staticmethod(search_clone)
    legal = staticmethod(legal_actions)
    returns = staticmethod(returns)

    @staticmethod
    def reseed(state: GameState, seed: int) -> None:
        state.rng = seed

    @staticmethod
    def apply(state: GameState, action: int, legal: list[int]) -> Hashable | None:
        before = state.rng
        apply_action(state, action, legal)
        return hash(state.score_key()) if state.rng != before else None

    @staticmethod
    def player(state: GameState) -> int:
        return state.current_player

    @staticmethod
    def is_over(state: GameState) -> bool:
        return state.is_over


ENGINE_STEPS = EngineSteps()
