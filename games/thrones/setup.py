"""The secret setup as decisions, and the reveal (page: "Gameplay"; source Game::checkOwnTiles,
checkMidTiles, checkOwnPieces, rearangeMiddle, prepareMatch).

Each seat in turn (seat 0, then seat 1) makes ``steps`` decisions: a tile type for each home
cell in its reading order (front row first), a middle-row cell for each of its middle tiles
(plains first, then forest, mountain, water), and a cell for each piece (ranger first, throne
last; the Dragon may be kept in reserve instead). The masks keep every rule of the page true and
never lead to a dead end. Then the setups are revealed.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from .config import DRAGON, FORTRESS, PIECE_NAMES, THRONE, UNKNOWN

if TYPE_CHECKING:
    from .state import ThronesState


def step_kind(st: "ThronesState", step: int) -> tuple[str, int]:
    """What setup step ``step`` asks: ("tile", k-th home cell), ("middle", tile type) or
    ("piece", piece type)."""
    cfg, nh = st.cfg, len(st.board.home[0])
    if step < nh:
        return "tile", step
    step -= nh
    for t, amount in enumerate(cfg.middle_amounts):
        if step < amount:
            return "middle", t
        step -= amount
    for p, amount in enumerate(cfg.piece_amounts):
        if step < amount:
            return "piece", p
        step -= amount
    raise IndexError(step)


def total_steps(cfg_amounts: tuple[int, int, int]) -> int:
    return sum(cfg_amounts)


def rows_of(st: "ThronesState", seat: int) -> list[list[int]]:
    return [list(row) for row in st.board.rows[seat]]


def _home_counts(st: "ThronesState", seat: int, skip: tuple[int, ...] = ()) -> tuple[list[int], list[int], int] | None:
    """What the home still asks, over its rows but ``skip``: the tiles left of each type, how many
    rows miss each type, and the room for Fortresses (free inner cells a row can spare); None
    when a laid Fortress is on the edge or a row can no longer get every type."""
    cfg, tile, edge = st.cfg, st.tile, st.board.edge
    left = list(cfg.tile_amounts)
    for c in st.board.home[seat]:
        t = tile[c]
        if t != UNKNOWN:
            left[t] -= 1
            if t == FORTRESS and edge[c]:
                return None
    need, fort_room = [0] * FORTRESS, 0
    for row in st.board.rows[seat]:
        if row is skip:
            continue
        have = {tile[c] for c in row}
        missing = [t for t in range(FORTRESS) if cfg.tile_amounts[t] and t not in have]
        free = [c for c in row if tile[c] == UNKNOWN]
        if len(missing) > len(free):
            return None
        for t in missing:
            need[t] += 1
        fort_room += min(sum(1 for c in free if not edge[c]), len(free) - len(missing))
    return left, need, fort_room


def tiles_feasible(st: "ThronesState", seat: int) -> bool:
    """Page: "at least one of each tile type must be in each of the 4 rows and Fortresses
    cannot border game board boundaries", with the amounts of ``tile_amounts``: can the home
    still be completed? (Each row's missing types fit in its free cells, each type has enough
    left for the rows missing it, and the fortresses left fit in free inner cells beside them.)"""
    counts = _home_counts(st, seat)
    if counts is None:
        return False
    left, need, fort_room = counts
    return min(left) >= 0 and all(need[t] <= left[t] for t in range(FORTRESS)) and left[FORTRESS] <= fort_room


def tile_choices(st: "ThronesState", seat: int, cell: int) -> list[int]:
    """The tile types that may go on ``cell`` (not laid yet) now, the mask of a tile step:
    the types ``t`` for which :func:`tiles_feasible` holds with ``t`` on ``cell``. The same
    conditions, with what does not depend on ``t`` counted once (the other rows, the tiles laid)."""
    cfg, tile, edge = st.cfg, st.tile, st.board.edge
    here = next(row for row in st.board.rows[seat] if cell in row)
    counts = _home_counts(st, seat, skip=here)
    if counts is None:
        return []
    left, need, fort_room = counts
    have = {tile[c] for c in here}
    free = [c for c in here if tile[c] == UNKNOWN and c != cell]
    inner = sum(1 for c in free if not edge[c])
    out = []
    for t in range(FORTRESS + 1):
        if left[t] < 1 or (t == FORTRESS and edge[cell]):
            continue
        missing = [k for k in range(FORTRESS) if cfg.tile_amounts[k] and k not in have and k != t]
        if len(missing) > len(free):
            continue
        left_t = [a - (k == t) for k, a in enumerate(left)]
        if any(need[k] + (k in missing) > left_t[k] for k in range(FORTRESS)):
            continue
        if min(left_t) >= 0 and left_t[FORTRESS] <= fort_room + min(inner, len(free) - len(missing)):
            out.append(t)
    return out


def middle_choices(st: "ThronesState", seat: int) -> list[int]:
    """Free middle cells for this seat's next middle tile (page: "puts them between their front
    tile row and the screen, intended as where they want them placed in the middle row")."""
    picks = st.mid[seat]
    return [c for i, c in enumerate(st.board.middle) if picks[i] == UNKNOWN]


def piece_choices(st: "ThronesState", seat: int) -> list[int]:
    """Empty home cells (any tile) for the next piece (source: Program::placePiece)."""
    return [c for c in st.board.home[seat] if st.occ[c] < 0]


def arrange_middle(first: list[int], second: list[int], mode: str, from_left: bool) -> list[int]:
    """The middle row after the reveal, indexed from the first player's left (page: "first place
    all uncontested tiles down in the middle row; then move both contested tiles to the leftmost
    open space of the player that is moving first, starting from their left. The middle row
    Fortress occupies wherever no tile was set"). ``mode`` "near"/"first" is the source's
    rearangeMiddle (shiftNear on/off): the first player's tiles stay, the second's move."""
    w = len(first)
    order = list(range(w)) if from_left else list(range(w - 1, -1, -1))
    row = [UNKNOWN] * w
    if mode == "page":
        clashes = []
        for i in order:
            a, b = first[i], second[i]
            if a != UNKNOWN and b != UNKNOWN:
                clashes.append(i)
            elif a != UNKNOWN or b != UNKNOWN:
                row[i] = a if a != UNKNOWN else b
        for i in clashes:
            for t in (first[i], second[i]):
                row[next(x for x in order if row[x] == UNKNOWN)] = t
    else:
        row[:] = first
        for k, i in enumerate(order):
            t = second[i]
            if t == UNKNOWN:
                continue
            if row[i] == UNKNOWN:
                row[i] = t
                continue
            if mode == "near":
                back = [x for x in reversed(order[:k]) if row[x] == UNKNOWN]
                ahead = [x for x in order[k + 1:] if row[x] == UNKNOWN]
                row[(back or ahead)[0]] = t
            else:
                row[next(x for x in order if row[x] == UNKNOWN)] = t
    return [FORTRESS if t == UNKNOWN else t for t in row]


def reveal(st: "ThronesState") -> None:
    """Both setups done: the middle row laid, the screens removed, favors for thrones that
    start on a Fortress (page: "When the game starts with a Throne occupying a Fortress")."""
    board, cfg = st.board, st.cfg
    first = st.first
    # the picks in the first player's left-to-right frame
    frames = []
    for s in (first, 1 - first):
        picks = [st.mid[s][i] for i in range(board.w)]
        frames.append(picks if first == 0 else picks[::-1])
    row = arrange_middle(frames[0], frames[1], cfg.middle_shift, cfg.shift_left)
    if first == 1:
        row = row[::-1]
    for i, c in enumerate(board.middle):
        st.tile[c] = row[i]
    st.revealed = True
    st.phase = "play"
    st.turn = first
    for pid, pos in enumerate(st.ppos):
        if pos >= 0 and st.ptype[pid] == THRONE and st.tile[pos] == FORTRESS:
            st.gain_favor(pid, pos)
    st.log_event({"kind": "reveal", "first": first})


def piece_label(p: int) -> str:
    return PIECE_NAMES[p] + (" (or keep it in reserve)" if p == DRAGON else "")
