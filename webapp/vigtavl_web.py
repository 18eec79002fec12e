"""The door from the web app's Vigtavl pages (live games :mod:`webapp.sessions`, replays
:mod:`webapp.replays`, maps and agents :mod:`webapp.guards`) to the game: Vigtavl's own web
tools (its env, maps, and the page's board and move views) are the game's ``web`` attribute,
found through the game registry, so the web app imports none of Vigtavl's modules.
"""

from __future__ import annotations

from types import ModuleType

from games.registry import load_game

VIGTAVL = "vigtavl"


def vigtavl_web() -> ModuleType:
    """Vigtavl's web tools (``vigtavl_env/web.py``); the registry keeps the game, so a call is cheap."""
    return load_game(VIGTAVL).web
