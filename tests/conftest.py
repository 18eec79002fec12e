"""Shared test fixtures: small hand-made maps for scenario tests.

``make_map`` draws a board for the player count: every hex land, the outer ring sea (so ships
can sail and ride the winds), then the listed hexes turned to sea or mountain. Scenario tests
put pieces on it with :class:`vigtavl_env.engine.scenario.Scenario`.
"""

from __future__ import annotations

from collections.abc import Iterable

from vigtavl_env.engine.hexgrid import Board
from vigtavl_env.engine.maps import LAND, MOUNTAIN, SEA, SIDE_FOR_PLAYERS, GameMap

Axial = tuple[int, int]


def make_map(num_players: int = 2, sea: Iterable[Axial] = (), mountains: Iterable[Axial] = (),
             sea_rings: int = 1, name: str = "test") -> GameMap:
    """Land everywhere, ``sea_rings`` outer rings of sea, plus extra sea and mountain hexes."""
    board = Board(SIDE_FOR_PLAYERS[num_players])
    terrain = []
    sea, mountains = set(map(tuple, sea)), set(map(tuple, mountains))
    for q, r in board.coords:
        ring = max(abs(q), abs(r), abs(q + r))
        if (q, r) in mountains:
            terrain.append(MOUNTAIN)
        elif (q, r) in sea or ring > board.radius - sea_rings:
            terrain.append(SEA)
        else:
            terrain.append(LAND)
    return GameMap(name, num_players, tuple(terrain))
