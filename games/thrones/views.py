"""What a seat may see of a Thrones state: the observation tensor, the public view, the agent's
copy (``view_for``) and pictures. Before the reveal nothing of the other seat's setup is shown.

Observation: float32 ``(43, H, W)`` in the seat's own frame (its home at the bottom; seat 1's
board turned half a turn). Channels, in ``CHANNELS`` order:
  0-4 tile plains/forest/mountain/water/fortress, 5 unknown (not laid, or the opponent's before
  the reveal), 6 breached fortress, 7-16 own pieces by type (ranger ... throne), 17-26 the
  opponent's, 27 the acting piece, 28 the guarded Warhorse, 29 the first piece of a deception,
  30 own home rows; planes of one value: 31 this seat decides now, 32 revealed, 33 first turn,
  34 moved, 35 switched, 36 favor spent this turn, 37 a check is asked, 38-39 own / opponent's
  favors (/ favor_max), 40-41 own / opponent's Dragons in reserve (/ Dragons; the opponent's 0
  before the reveal), 42 own setup progress (decisions made / setup decisions).

``view_for(seat)`` before the reveal wipes the other seat's setup: its tiles, middle-row picks
and pieces become unknown, its setup decisions in ``history`` become -1, and its setup counts as
not made. If the other seat is still setting up, the view asks it to set up again; if it had
finished, the view lays a random legal setup for it (with the view's own coin) when the reveal
comes: a determinization. Every view's coin is reseeded from public facts, so a view never
tells the true coin's future flips, before or after the reveal.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import numpy as np

from .config import DRAGON, FORTRESS, PIECE_NAMES, TILE_NAMES, UNKNOWN

if TYPE_CHECKING:
    from .state import ThronesState

CHANNELS = (TILE_NAMES + ("unknown", "breached") + tuple(f"own {p}" for p in PIECE_NAMES)
            + tuple(f"opponent {p}" for p in PIECE_NAMES)
            + ("actor", "guarded", "deceive from", "own home", "to decide", "revealed", "first turn",
               "moved", "switched", "favor spent", "check asked", "own favors", "opponent favors",
               "own reserve", "opponent reserve", "setup progress"))
N_CHANNELS = len(CHANNELS)
UNKNOWN_CH, BREACHED_CH, OWN_CH, OPP_CH, ACTOR_CH = 5, 6, 7, 17, 27


def tile_seen(st: "ThronesState", seat: int | None, cell: int) -> int:
    """The tile as ``seat`` sees it (UNKNOWN where hidden or not laid)."""
    if st.revealed:
        return st.tile[cell]
    home = st.board.home_of[cell]
    if home >= 0:
        return st.tile[cell] if home == seat else UNKNOWN
    if seat is None:
        return UNKNOWN
    return st.mid[seat][st.board.middle.index(cell)]


def piece_seen(st: "ThronesState", seat: int | None, cell: int) -> int:
    """The piece id on ``cell`` as ``seat`` sees it (-1 none or hidden)."""
    q = st.occ[cell]
    if q < 0 or st.revealed or st.owner(q) == seat:
        return q
    return -1


def reserve(st: "ThronesState", seat: int) -> int:
    if st.phase == "setup" and st.step[seat] < st.steps:
        return 0
    return sum(1 for q in st.pieces_of(seat) if st.ptype[q] == DRAGON and st.ppos[q] == -1)


def observation(st: "ThronesState", seat: int) -> np.ndarray:
    b, cfg = st.board, st.cfg
    obs = np.zeros((N_CHANNELS, b.n), dtype=np.float32)
    for c in range(b.n):
        r = b.rel(seat, c)
        t = tile_seen(st, seat, c)
        obs[t if t >= 0 else UNKNOWN_CH, r] = 1.0
        if st.breached[c]:
            obs[BREACHED_CH, r] = 1.0
        q = piece_seen(st, seat, c)
        if q >= 0:
            obs[(OWN_CH if st.owner(q) == seat else OPP_CH) + st.ptype[q], r] = 1.0
        if b.home_of[c] == seat:
            obs[30, r] = 1.0
    for ch, q in ((ACTOR_CH, st.actor), (28, st.guard)):
        if q >= 0 and st.ppos[q] >= 0:
            obs[ch, b.rel(seat, st.ppos[q])] = 1.0
    if st.deceive_from >= 0:
        obs[29, b.rel(seat, st.deceive_from)] = 1.0
    fmax = max(cfg.favor_max, 1)
    dragons = max(cfg.piece_amounts[DRAGON], 1)
    planes = (st.current_player() == seat, st.revealed, st.first_turn and st.revealed, st.moved,
              st.switched, st.favor_used, st.pending >= 0, st.fav[seat] / fmax, st.fav[1 - seat] / fmax,
              reserve(st, seat) / dragons, (reserve(st, 1 - seat) / dragons) if st.revealed else 0.0,
              st.step[seat] / st.steps)
    for i, v in enumerate(planes):
        obs[31 + i, :] = float(v)
    return obs.reshape(N_CHANNELS, b.h, b.w)


def cell_view(st: "ThronesState", seat: int | None, cell: int) -> dict[str, Any]:
    t = tile_seen(st, seat, cell)
    q = piece_seen(st, seat, cell)
    hidden = not st.revealed and st.board.home_of[cell] not in (seat, -1)
    piece: Any = None
    if q >= 0:
        piece = {"type": PIECE_NAMES[st.ptype[q]], "seat": st.owner(q)}
    elif hidden or (seat is None and not st.revealed):
        piece = "unknown"
    tile: Any = TILE_NAMES[t] if t >= 0 else ("unknown" if hidden or seat is None or st.revealed else None)
    return {"tile": tile, "breached": st.breached[cell], "piece": piece}


def public_view(st: "ThronesState", seat: int | None) -> dict[str, Any]:
    """JSON-able: the board (rows top to bottom in seat 0's frame) as ``seat`` may see it."""
    b = st.board
    board = [[cell_view(st, seat, y * b.w + x) for x in range(b.w)] for y in range(b.h)]
    flips = [e for e in st.events if e.get("chance")][-6:]
    return {
        "game": "thrones", "phase": st.phase, "revealed": st.revealed, "board": board,
        "to_move": st.current_player(), "turn": st.turn, "turn_no": st.turn_no, "first_player": st.first,
        "favors": list(st.fav), "favor_totals": list(st.fav_total),
        "reserve": [reserve(st, s) if (st.revealed or s == seat) else None for s in (0, 1)],
        "setup_steps": list(st.step), "actor": st.ppos[st.actor] if st.actor >= 0 else None,
        "moved": st.moved, "switched": st.switched, "favor_used": st.favor_used,
        "check_asked": st.pending >= 0, "first_turn": st.first_turn, "last_flips": flips,
        "winner": st.winner if st.winner >= 0 else None, "truncated": st.is_truncated(),
    }


def wipe(st: "ThronesState", seat: int) -> None:
    """Replace ``seat``'s secret setup by the placeholder (see the module docstring)."""
    b = st.board
    for c in b.home[seat]:
        st.tile[c] = UNKNOWN
    st.mid[seat] = [UNKNOWN] * b.w
    for q in st.pieces_of(seat):
        if st.ppos[q] >= 0:
            st.occ[st.ppos[q]] = -1
        st.ppos[q] = -1
    done_before = st.step[seat] >= st.steps
    first_setup = st.step[0] if seat == 1 else 0
    st.step[seat] = 0
    st.hidden[seat] = done_before
    # the wiped seat's setup decisions: seat 0 makes the first ones, seat 1 the next ones
    lo = 0 if seat == 0 else first_setup
    for i in range(lo, lo + (st.steps if done_before else len(st.history) - lo)):
        if i < len(st.history):
            st.history[i] = -1


def view_for(st: "ThronesState", seat: int) -> "ThronesState":
    view = st.clone()
    view.forced = []
    view.rng = (hash_public(st) * 2 + seat) & ((1 << 64) - 1)
    if not st.revealed:
        wipe(view, 1 - seat)
    return view


def hash_public(st: "ThronesState") -> int:
    """A number from public facts only (decisions made, events seen)."""
    return (len(st.history) * 1_000_003 + st.turn_no * 7919 + len(st.events)) ^ 0x5DEECE66D


def fill_hidden(st: "ThronesState") -> None:
    """At the reveal of a view: lay a random legal setup for a wiped seat."""
    for seat in (0, 1):
        if not st.hidden[seat]:
            continue
        st.hidden[seat] = False
        while st.step[seat] < st.steps:
            codes = st._setup_codes(seat)
            st._apply_setup_silent(seat, codes[st.roll(len(codes))])


TILE_CHARS = {-1: "?", 0: ".", 1: "f", 2: "^", 3: "~", 4: "#"}
PIECE_CHARS = "RSXCTLWEDK"
TILE_RGB = {-1: (90, 90, 90), 0: (196, 214, 120), 1: (60, 130, 60), 2: (150, 120, 100),
            3: (80, 130, 210), 4: (200, 190, 170)}
SEAT_RGB = ((250, 250, 250), (30, 30, 30))
CELL_PX = 16


def render(st: "ThronesState", mode: str, seat: int | None) -> Any:
    b = st.board
    cells = list(range(b.n)) if seat != 1 else list(range(b.n - 1, -1, -1))
    if mode == "ansi":
        lines = []
        for y in range(b.h):
            row = []
            for c in cells[y * b.w:(y + 1) * b.w]:
                t = tile_seen(st, seat, c)
                tc = "%" if st.breached[c] else TILE_CHARS[t]
                q = piece_seen(st, seat, c)
                pc = " " if q < 0 else (PIECE_CHARS[st.ptype[q]] if st.owner(q) == 0 else PIECE_CHARS[st.ptype[q]].lower())
                row.append(tc + pc)
            lines.append(" ".join(row))
        lines.append(f"phase {st.phase}, to move {st.current_player()}, favors {st.fav}")
        return "\n".join(lines)
    if mode != "rgb_array":
        raise ValueError(f"render mode must be ansi or rgb_array, got {str(mode)[:20]!r}")
    img = np.zeros((b.h * CELL_PX, b.w * CELL_PX, 3), dtype=np.uint8)
    for i, c in enumerate(cells):
        y, x = divmod(i, b.w)
        block = img[y * CELL_PX:(y + 1) * CELL_PX, x * CELL_PX:(x + 1) * CELL_PX]
        block[:] = TILE_RGB[tile_seen(st, seat, c)]
        block[0, :] = block[:, 0] = 40
        q = piece_seen(st, seat, c)
        if q >= 0:
            block[4:12, 4:12] = SEAT_RGB[st.owner(q)]
            block[7:9, 4 + st.ptype[q] % 8] = (200, 40, 40)
    return img


def fortress_cells(st: "ThronesState") -> list[int]:
    return [c for c, t in enumerate(st.tile) if t == FORTRESS]
