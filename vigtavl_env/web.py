"""What the web app reads of Vigtavl: its one door into the game's own modules.

The web app imports no game's modules (tests/test_imports.py); it reaches Vigtavl through the
registry, ``games.registry.load_game("vigtavl").web`` (:attr:`vigtavl_env.game.VigtavlGame.web`),
which is this module. Here are Vigtavl's environment and agent hooks, its engine's decisions
in words, its maps, and the page's pictures of a position and of each decision
(:mod:`vigtavl_env.web_view`, :mod:`vigtavl_env.web_moves`). Any other game is served through
the game interface alone (``webapp/any_game.py``).
"""

from __future__ import annotations

from typing import Any

from .agent import agent_info, agent_names
from .engine import IllegalActionError, apply_action, describe
from .engine.maps import list_presets, load_map, parse_map
from .env import raw_env
from .web_moves import last_decisions, move_entry
from .web_view import board_view, decision_cells, decision_list, state_view

__all__ = [
    "IllegalActionError", "agent_info", "agent_names", "apply_action", "board_cells", "board_view", "decision_cells",
    "decision_list", "describe", "engine_of", "interface_state", "last_decisions", "list_presets", "load_map", "move_entry", "parse_map",
    "raw_env", "state_view",
]


def interface_state(env: Any, game: Any) -> Any:
    """The game of a Vigtavl env behind the game interface of ``game`` (``load_game("vigtavl")``;
    no copy), as the match runner records it (``arena.vigtavl_match.record_game``)."""
    return game.wrap(env.game_state, env.max_steps, engine_seed=int(env.game_seed))


def board_cells(env: Any) -> int:
    """The hexes of a Vigtavl env's board (the web app's memory estimate of a live game)."""
    return env.game_state.gmap.board.n_cells


def engine_of(state: Any) -> Any:
    """The engine state inside a Vigtavl state of the game interface (no copy): what the page's
    views read (a replay steps the interface state, :mod:`arena.replay`)."""
    return state.engine
