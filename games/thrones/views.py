"""What a seat may see of a Thrones state: the observation tensor, the public view, the agent's
copy (``view_for``) and pictures. Before the reveal nothing of the other seat's setup is shown.

Observation: float32 ``(47, H, W)`` in the seat's own frame (its home at the bottom; seat 1's
board turned half a turn). Channels, in ``CHANNELS`` order:
  0-4 tile plains/forest/mountain/water/fortress, 5 unknown (not laid, or the opponent's before
  the reveal), 6 breached fortress, 7-16 own pieces by type (ranger ... throne), 17-26 the
  opponent's, 27 the acting piece, 28 the guarded Warhorse, 29 the first piece of a deception,
  30 own home rows; planes of one value: 31 this seat decides now, 32 revealed, 33 first turn,
  34 moved, 35 switched, 36 favor spent this turn, 37 a check is asked, 38-39 own / opponent's
  favors (/ favor_max), 40-41 own / opponent's Dragons in reserve (/ Dragons; the opponent's 0
  before the reveal), 42 own setup progress (decisions made / setup decisions); the strikes
  (attacks and shots) each side could make on a turn of its own, as their best chance of success
  (1, or ``check_odds`` in 100 when a survival check is made; 0 before the reveal): 43 own pieces
  that could strike, 44 opponent's pieces within those strikes, 45 opponent's pieces that could
  strike, 46 own pieces within those. Strikes reach along lines (shots, the Dragon's flight) that
  a small convolution sees badly; these planes are what the rules already know, no lookahead.

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

from . import rules
from .config import DRAGON, FORTRESS, ODDS_LIMIT, PIECE_NAMES, TILE_NAMES, UNKNOWN

if TYPE_CHECKING:
    from .state import ThronesState

CHANNELS = (TILE_NAMES + ("unknown", "breached") + tuple(f"own {p}" for p in PIECE_NAMES)
            + tuple(f"opponent {p}" for p in PIECE_NAMES)
            + ("actor", "guarded", "deceive from", "own home", "to decide", "revealed", "first turn",
               "moved", "switched", "favor spent", "check asked", "own favors", "opponent favors",
               "own reserve", "opponent reserve", "setup progress",
               "own strikers", "opponent struck", "opponent strikers", "own struck"))
N_CHANNELS = len(CHANNELS)
UNKNOWN_CH, BREACHED_CH, OWN_CH, OPP_CH, ACTOR_CH = 5, 6, 7, 17, 27
STRIKE_CH = 43  # 43-46: own strikers, the opponent's pieces struck, the opponent's strikers, own struck


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
    return st.dragons_in_reserve(seat)


# Kept parts of observations (each cleared when full): the tile and home planes by the tiles,
# the planes of one value by their values, each piece's channel offset by seat and amounts.
_BOARD_PLANES: dict[tuple[int, int, int, tuple[int, ...]], np.ndarray] = {}
_VALUE_PLANES: dict[tuple[float, ...], np.ndarray] = {}
_PIECE_OFFSETS: dict[tuple[int, int, tuple[int, ...]], list[int]] = {}
_KEPT = 256


def piece_offsets(st: "ThronesState", seat: int) -> list[int]:
    """Per piece id, its flat index on cell 0 of ``seat``'s frame: (own or opponent channel of
    its type) * N, plus N - 1 for seat 1 (whose cell ``c`` is ``N - 1 - c``)."""
    key = (seat, st.board.n, st.cfg.piece_amounts)
    out = _PIECE_OFFSETS.get(key)
    if out is None:
        n = st.board.n
        out = [((OWN_CH if q // st.per == seat else OPP_CH) + t) * n + (n - 1 if seat else 0)
               for q, t in enumerate(st.ptype)]
        if len(_PIECE_OFFSETS) >= _KEPT:
            _PIECE_OFFSETS.clear()
        _PIECE_OFFSETS[key] = out
    return out


def board_planes(st: "ThronesState", seat: int) -> np.ndarray:
    """A tensor of zeros but channels 0-5 (tiles, unknown) and 30 (own home), in ``seat``'s
    frame: after the reveal the tiles no longer change, so it is kept, by the tiles themselves
    (a state whose tiles differ never meets another's); the caller copies it."""
    b, n = st.board, st.board.n
    tiles = tuple(st.tile) if st.revealed else None
    key = (seat, b.w, b.h, tiles) if tiles is not None else None
    planes = _BOARD_PLANES.get(key) if key is not None else None
    if planes is None:
        if tiles is None:  # tile_seen for every cell: its own home's tiles, its own middle-row picks
            seen = [UNKNOWN] * n
            for c in b.home[seat]:
                seen[c] = st.tile[c]
            for c, t in zip(b.middle, st.mid[seat]):
                seen[c] = t
        else:
            seen = list(tiles)
        planes = np.zeros((N_CHANNELS, n), dtype=np.float32)  # zeros but channels 0-5 and 30
        planes[[t if t >= 0 else UNKNOWN_CH for t in seen], np.arange(n)] = 1.0
        planes[30, list(b.home[seat])] = 1.0
        if seat:  # seat 1's frame is the numbering read backwards (board.rel)
            planes = np.ascontiguousarray(planes[:, ::-1])
        if key is not None:
            if len(_BOARD_PLANES) >= _KEPT:
                _BOARD_PLANES.clear()
            _BOARD_PLANES[key] = planes
    return planes


def observation(st: "ThronesState", seat: int) -> np.ndarray:
    """A copy of :func:`board_planes`; the other ones gathered as flat indices
    (channel * N + cell in ``seat``'s frame) and set in one numpy call; then the planes of one
    value. The same tensor as setting it cell by cell, several times faster."""
    b, cfg, n = st.board, st.cfg, st.board.n
    last = n - 1 if seat else 0
    sign = -1 if seat else 1
    obs = board_planes(st, seat).copy()
    ones = []
    if True in st.breached:
        ones += [BREACHED_CH * n + last + sign * c for c, x in enumerate(st.breached) if x]
    # the pieces on the board (occ and ppos agree: the soak's invariant), the other seat's once shown
    base, occ, ppos = piece_offsets(st, seat), st.occ, st.ppos
    pairs = enumerate(ppos) if st.revealed else zip(st.pieces_of(seat), ppos[seat * st.per:(seat + 1) * st.per])
    ones += [base[q] + sign * c for q, c in pairs if c >= 0 and occ[c] == q]
    for ch, q in ((ACTOR_CH, st.actor), (28, st.guard)):
        if q >= 0 and st.ppos[q] >= 0:
            ones.append(ch * n + last + sign * st.ppos[q])
    if st.deceive_from >= 0:
        ones.append(29 * n + last + sign * st.deceive_from)
    obs.ravel()[ones] = 1.0
    fmax = max(cfg.favor_max, 1)
    dragons = max(cfg.piece_amounts[DRAGON], 1)
    values = (st.current_player() == seat, st.revealed, st.first_turn and st.revealed, st.moved,
              st.switched, st.favor_used, st.pending >= 0, st.fav[seat] / fmax, st.fav[1 - seat] / fmax,
              reserve(st, seat) / dragons, (reserve(st, 1 - seat) / dragons) if st.revealed else 0.0,
              st.step[seat] / st.steps)
    block = _VALUE_PLANES.get(values)
    if block is None:
        if len(_VALUE_PLANES) >= _KEPT:
            _VALUE_PLANES.clear()
        block = _VALUE_PLANES[values] = np.repeat(np.array(values, dtype=np.float32)[:, None], n, axis=1)
    obs[31:31 + len(values)] = block
    if st.revealed and not st.is_over():
        flat, odds = obs.ravel(), cfg.check_odds / ODDS_LIMIT
        for side, striker_ch in ((seat, STRIKE_CH), (1 - seat, STRIKE_CH + 2)):
            for p, _, cell, checked in rules.strikes(st, side):
                chance = odds if checked else 1.0
                for ch, c in ((striker_ch, st.ppos[p]), (striker_ch + 1, cell)):
                    i = ch * n + last + sign * c
                    if chance > flat[i]:
                        flat[i] = chance
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
