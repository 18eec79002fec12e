"""Games by name, found through the entry-point group ``vigtavl.games``.

An entry names a :class:`games.interface.Game` subclass or instance; another package adds a
game by declaring one in its own metadata::

    [project.entry-points."vigtavl.games"]
    mygame = "mypackage.game:MyGame"
"""

from __future__ import annotations

from functools import cache
from importlib.metadata import entry_points

from .interface import Game

GROUP = "vigtavl.games"
DEFAULT_GAME = "vigtavl"


def game_names() -> list[str]:
    """The registered games' names, sorted."""
    return sorted({ep.name for ep in entry_points(group=GROUP)})


@cache
def load_game(name: str = DEFAULT_GAME) -> Game:
    """The game registered as ``name`` (ValueError, one line, naming the known ones)."""
    if not isinstance(name, str):
        raise ValueError(f"a game name must be a string, got {type(name).__name__}")
    found = [ep for ep in entry_points(group=GROUP) if ep.name == name]
    if not found:
        raise ValueError(f"unknown game {name[:40]!r}; known: {', '.join(game_names()) or 'none'}")
    obj = found[0].load()
    game = obj() if isinstance(obj, type) else obj
    if not isinstance(game, Game):
        raise ValueError(f"the entry point for game {name!r} does not name a Game")
    return game
