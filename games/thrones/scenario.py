"""Positions from pictures, for tests and demonstrations: a board drawn as the ``ansi`` render
draws it, already revealed and in play.

Each row (top to bottom, seat 0's frame) lists its cells separated by spaces; a cell is a tile
character (``.`` plains, ``f`` forest, ``^`` mountain, ``~`` water, ``#`` fortress, ``%``
breached fortress) and optionally a piece letter (``RSXCTLWEDK``: ranger, spearman,
crossbowman, catapult, trebuchet, lancer, warhorse, elephant, dragon, throne), upper case for
seat 0, lower case for seat 1. Pieces not drawn are removed, except Dragons, kept in reserve.
The default options are a 7x7 board (``SMALL``).
"""

from __future__ import annotations

from typing import Any

from .config import DRAGON, FORTRESS
from .game import ThronesGame
from .state import ThronesState
from .views import PIECE_CHARS, TILE_CHARS

SMALL = dict(home_width=7, home_height=3, tile_amounts=(6, 5, 4, 4, 2), middle_amounts=(1, 1, 1, 0))
CHAR_TILE = {ch: t for t, ch in TILE_CHARS.items() if t >= 0}


def position(rows: list[str], to_move: int = 0, first_turn: bool = False, seed: int = 0,
             **options: Any) -> ThronesState:
    """A state in play with the board drawn in ``rows`` (see the module docstring)."""
    st = ThronesGame().new_state(seed=seed, **{**SMALL, **options})
    b = st.board
    cells = [tok for row in rows for tok in row.split()]
    if len(rows) != b.h or len(cells) != b.n:
        raise ValueError(f"a {b.w}x{b.h} board needs {b.h} rows of {b.w} cells")
    free = {s: list(st.pieces_of(s)) for s in (0, 1)}
    for c, tok in enumerate(cells):
        st.tile[c] = FORTRESS if tok[0] == "%" else CHAR_TILE[tok[0]]
        st.breached[c] = tok[0] == "%"
        if len(tok) > 1:
            seat = 0 if tok[1].isupper() else 1
            kind = PIECE_CHARS.index(tok[1].upper())
            pid = next(q for q in free[seat] if st.ptype[q] == kind)
            free[seat].remove(pid)
            st.occ[c], st.ppos[pid] = pid, c
            if st.tile[c] == FORTRESS:
                st.last_fort[pid] = c
    for s in (0, 1):
        for q in free[s]:
            st.ppos[q] = -1 if st.ptype[q] == DRAGON else -2
    st.step = [st.steps, st.steps]
    st.phase, st.revealed = "play", True
    st.first, st.turn, st.first_turn = to_move, to_move, first_turn
    st._legal = None
    return st


def legal_texts(st: ThronesState) -> list[str]:
    """The legal actions in words (``action_to_string``)."""
    return [st.action_to_string(a) for a in st.legal_actions()]


def play(st: ThronesState, *texts: str) -> ThronesState:
    """Apply the legal actions named in words, in order (ValueError naming one not legal)."""
    for text in texts:
        found = [a for a in st.legal_actions() if st.action_to_string(a) == text]
        if not found:
            raise ValueError(f"{text!r} is not legal now; legal: {', '.join(legal_texts(st))[:300]}")
        st.apply_action(found[0])
    return st
