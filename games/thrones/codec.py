"""Thrones' action codec: a verb on a cell, plus four global verbs.

Layout (``N`` = width x height cells, 81 on the 9x9 board)::

    code = verb * N + cell            for the 24 cell verbs (0 <= cell < N)
    code = 24 * N + g                 for the 4 global verbs (g = 0..3)
    num_actions = 24 * N + 4          (1948 on 9x9)

    verb  0-4   TILE_<type>    setup: lay plains/forest/mountain/water/fortress on the cell
    verb  5-14  PIECE_<type>   setup: put the next ranger ... throne on the cell
    verb 15     SELECT         pick the piece that acts this turn
    verb 16     MOVE           the acting piece moves to the (empty) cell
    verb 17     SWITCH         ... switches with the piece on the cell
    verb 18     ATTACK         ... attacks the piece on the cell
    verb 19     FIRE           ... fires at the piece on the cell
    verb 20     DRAGON         put a Dragon from the reserve on the cell
    verb 21     HASTE          favor (plains): the acting piece takes one more step
    verb 22     AMBUSH         favor (forest): the acting piece switches with the one on the cell
    verb 23     DECEIVE        favor (water): pick the first, then the second piece to switch
    global 0 RESERVE (setup: keep the Dragon in reserve), 1 END_TURN, 2 CUNNING (favor
    (mountain): pass the check asked now), 3 FLIP (take the check's coin)

The cell is in the acting seat's own frame (``board.Board.rel``): seat 1's cell ``c`` is the
absolute cell ``N - 1 - c``, so both seats read their own home at the bottom.

Worked example on 9x9: code 1322 = 16 * 81 + 26, verb 16 MOVE on cell 26 (x 8, y 2 in the
acting seat's frame). For seat 1 that is the absolute cell 80 - 26 = 54.
"""

from __future__ import annotations

from typing import NamedTuple

from .config import PIECE_NAMES, TILE_NAMES

TILE_VERBS = tuple(range(5))
PIECE_VERBS = tuple(range(5, 15))
SELECT, MOVE, SWITCH, ATTACK, FIRE, DRAGON, HASTE, AMBUSH, DECEIVE = range(15, 24)
N_CELL_VERBS = 24
RESERVE, END_TURN, CUNNING, FLIP = range(4)
N_GLOBAL = 4
VERB_NAMES = tuple(f"tile {t}" for t in TILE_NAMES) + tuple(f"piece {p}" for p in PIECE_NAMES) + (
    "select", "move", "switch", "attack", "fire", "dragon", "haste", "ambush", "deceive")
GLOBAL_NAMES = ("reserve dragon", "end turn", "cunning", "flip")


class Action(NamedTuple):
    """A decoded action: ``verb`` with ``cell`` (in the seat's frame), or ``glob`` (cell -1)."""

    verb: int  # cell verb, or -1 for a global one
    cell: int  # -1 for a global verb
    glob: int = -1


def num_actions(n_cells: int) -> int:
    return N_CELL_VERBS * n_cells + N_GLOBAL


def encode(a: Action, n_cells: int) -> int:
    if a.verb < 0:
        if not 0 <= a.glob < N_GLOBAL:
            raise ValueError(f"no global verb {a.glob}")
        return N_CELL_VERBS * n_cells + a.glob
    if not (0 <= a.verb < N_CELL_VERBS and 0 <= a.cell < n_cells):
        raise ValueError(f"no cell verb {a.verb} on cell {a.cell}")
    return a.verb * n_cells + a.cell


def decode(code: int, n_cells: int) -> Action:
    if isinstance(code, bool) or not isinstance(code, int) or not 0 <= code < num_actions(n_cells):
        raise ValueError(f"not an action code: {str(code)[:30]!r}")
    base = N_CELL_VERBS * n_cells
    if code >= base:
        return Action(-1, -1, code - base)
    return Action(code // n_cells, code % n_cells)


def cell_code(verb: int, rel_cell: int, n_cells: int) -> int:
    return verb * n_cells + rel_cell


def global_code(g: int, n_cells: int) -> int:
    return N_CELL_VERBS * n_cells + g


def describe(a: Action, cell_name: str = "") -> str:
    if a.verb < 0:
        return GLOBAL_NAMES[a.glob]
    return f"{VERB_NAMES[a.verb]} {cell_name or a.cell}"
