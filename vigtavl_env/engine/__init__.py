"""The Vigtavl rules engine: the whole game of the rules document, with no RL library in sight.

Start here::

    from vigtavl_env.engine import load_map, new_game, legal_actions, apply_action
    state = new_game(load_map("duel"), seed=7)

Modules, each owning one part of the rules document:

- ``hexgrid``      hex coordinates and per-board tables (neighbours, edges, rays, sides)
- ``maps``         terrain, the text map format, the fair map generator, presets
- ``stats``        the Stats table: costs, limits, ranges, movement
- ``config``       rule options where the document leaves a real choice
- ``state``        the game state, cloning, dice
- ``movement``     movement, passing through, walls, embarking, the prevailing winds
- ``combat``       close and ranged combat, tactics, capture, sinking, surrender
- ``building``     developments, units, ships, artillery, walls, build limits, placement
- ``free_actions`` seize, rescue, breach, discharge and recruit
- ``tokens``       Citadel, Complex, Great Wall and the end awards
- ``actions``      the decision verbs and their integer codes
- ``legal``        which decisions are legal now
- ``game``         setup, applying decisions, retaliation, turns, rounds and phases
- ``serialize``    the state as versioned JSON
"""

from .actions import N_HEX_VERBS, VERB_NAMES, decode, encode, encode_global, n_actions
from .config import RulesConfig
from .game import (
    IllegalActionError, apply_action, describe, legal_actions, new_game, returns, winners,
)
from .serialize import from_dict, from_json, to_dict, to_json
from .state import GameState

__all__ = [
    "GameState", "IllegalActionError", "N_HEX_VERBS", "RulesConfig", "VERB_NAMES", "apply_action",
    "decode", "describe", "encode", "encode_global", "from_dict", "from_json", "legal_actions",
    "load_map", "n_actions", "new_game", "returns", "to_dict", "to_json", "winners",
]


def __getattr__(name: str):
    # maps is imported lazily so the engine core loads without it during development.
    if name in ("load_map", "generate_map", "parse_map", "format_map", "GameMap"):
        from . import maps
        return getattr(maps, name)
    raise AttributeError(name)
