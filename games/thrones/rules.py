"""The rules of play after the reveal, one small function per rule (page sections "Pieces",
"Your Turn", "Survival", "Breaching Fortresses"; source Game::checkMove, checkFire,
checkAttack, survivalCheck, failSurvivalCheck, concludeAction, checkWin).

Cells here are absolute (seat 0's frame); pieces are ids into the state's piece tables.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from .board import STRAIGHT
from .config import (CATAPULT, CROSSBOWMAN, DRAGON, ELEPHANT, FIRING_RANGE, FOREST, FORTRESS,
                     LANCER, MOUNTAIN, PLAINS, RANGER, SPEARMAN, THRONE, WARHORSE, WATER)

if TYPE_CHECKING:
    from .state import ThronesState

KIND_MOVE, KIND_SWITCH, KIND_ATTACK, KIND_FIRE = "move", "switch", "attack", "fire"
CHECK_TILES = (MOUNTAIN, WATER)
LONG_MOVER = {SPEARMAN: WATER, LANCER: PLAINS}


def is_enemy(st: "ThronesState", p: int, q: int) -> bool:
    return p // st.per != q // st.per  # st.owner, inlined: the hottest test of the legal lists


def dragon_passable(st: "ThronesState", p: int, cell: int) -> bool:
    """Page: "Only an enemy Dragon & firing pieces can block it's movement"."""
    q = st.occ[cell]
    if q < 0 or not is_enemy(st, p, q):
        return True
    t = st.ptype[q]
    return t != DRAGON and t not in FIRING_RANGE


def dragon_dirs(st: "ThronesState") -> tuple[int, ...]:
    return tuple(range(8)) if st.cfg.dragon_diag else STRAIGHT


def dragon_reach(st: "ThronesState", p: int) -> list[int]:
    """Page: "May move up to four tiles ... in any single direction" (dragon_dist; with
    dragon_single off, any path of that length: source collectTilesByArea)."""
    src, dist, rays = st.ppos[p], st.cfg.dragon_dist, st.board.rays
    if st.cfg.dragon_single:
        out, occ, ptype, per, me = [], st.occ, st.ptype, st.per, p // st.per
        for d in dragon_dirs(st):
            for c in rays[src][d][:dist]:
                q = occ[c]  # dragon_passable, inlined: an enemy Dragon or firing piece blocks
                if q >= 0 and q // per != me and (ptype[q] == DRAGON or ptype[q] in FIRING_RANGE):
                    break
                out.append(c)
        return out
    seen, frontier = {src}, [src]
    for _ in range(dist):
        nxt = []
        for c in frontier:
            for d in dragon_dirs(st):
                ray = rays[c][d]
                if ray and ray[0] not in seen and dragon_passable(st, p, ray[0]):
                    seen.add(ray[0])
                    nxt.append(ray[0])
        frontier = nxt
    seen.discard(src)
    return list(seen)


def long_reach(st: "ThronesState", p: int, kind: int) -> list[int]:
    """Spearman on Water / Lancer on Plains: "may move over any connected Water (Plains)": the
    cells of that tile joined to the piece's through empty cells or allies (source
    collectAdjacentTilesByType)."""
    src, tile, occ, adj = st.ppos[p], st.tile, st.occ, st.board.adj
    seen, stack, me = {src}, [src], st.owner(p)
    while stack:
        c = stack.pop()
        for n in adj[c]:
            if n not in seen and tile[n] == kind and (occ[n] < 0 or st.owner(occ[n]) == me):
                seen.add(n)
                stack.append(n)
    return [c for c in seen if occ[c] < 0]


def long_allowed(st: "ThronesState") -> bool:
    """Page: "... if only moving that turn" (only_moving): not after a switch."""
    return not (st.cfg.only_moving and st.switched)


def move_targets(st: "ThronesState", p: int) -> list[int]:
    """Page: "Move a piece one tile in any direction, unless otherwise specified"; one move a
    turn (source: ``ownRec.action & ~ACT_SWAP``)."""
    if st.moved:
        return []
    src, t, occ = st.ppos[p], st.ptype[p], st.occ
    if t == DRAGON:
        return [c for c in dragon_reach(st, p) if occ[c] < 0]
    out = [c for c in st.board.adj[src] if occ[c] < 0]
    kind = LONG_MOVER.get(t)
    if kind is not None and st.tile[src] == kind and long_allowed(st):
        near = set(out)
        out += [c for c in long_reach(st, p, kind) if c not in near]
    return out


def is_long(st: "ThronesState", p: int, dst: int) -> bool:
    return st.ptype[p] in LONG_MOVER and dst not in st.board.adj[st.ppos[p]]


def switch_targets(st: "ThronesState", p: int) -> list[int]:
    """Page: "Switch positions with an adjacent, allied piece of a different type"; a Warhorse
    "may switch positions with any number of allied and enemy pieces", never with an enemy
    Warhorse."""
    t = st.ptype[p]
    if (st.switched and t != WARHORSE) or (st.cfg.only_moving and st.long_moved):
        return []
    out = []
    for c in st.board.adj[st.ppos[p]]:
        q = st.occ[c]
        if q >= 0 and st.ptype[q] != t and (t == WARHORSE or not is_enemy(st, p, q)):
            out.append(c)
    return out


def may_engage(st: "ThronesState", p: int, q: int, firing: bool) -> bool:
    """Who may be engaged (attacked or fired upon): an Elephant on Plains only by a Dragon; a
    Warhorse that removed a piece last turn not attacked (warhorse_guard); a Ranger on
    Mountain never fired upon. A Throne attacks "any piece/tile including Elephants,
    Warhorse"."""
    at = st.ptype[p]
    if at == THRONE and not firing:
        return True
    cell, qt = st.ppos[q], st.ptype[q]
    if qt == ELEPHANT and st.tile[cell] == PLAINS and at != DRAGON:
        return False
    if q == st.guard and (not firing or st.cfg.warhorse_guard == "source"):
        return False
    return not (firing and qt == RANGER and st.tile[cell] == MOUNTAIN)


def may_strike(st: "ThronesState") -> bool:
    """Attack or fire: the whole turn (nothing done yet), never on the first player's first
    turn ("Whichever player goes first cannot attack/fire that turn")."""
    return not (st.first_turn or st.moved or st.switched)


def attack_targets(st: "ThronesState", p: int) -> list[int]:
    """Page: "Attacking: Occupying a tile and removing it's piece", next to the piece; a Dragon
    "may move up to four tiles and attack in any single direction" (dragon_attack "line";
    "adjacent" is the source) and "cannot attack Forest"."""
    if not may_strike(st):
        return []
    src, t, occ, tile = st.ppos[p], st.ptype[p], st.occ, st.tile
    if t == DRAGON and st.cfg.dragon_attack == "line":
        cells, ptype, per, me = [], st.ptype, st.per, p // st.per
        for d in dragon_dirs(st):
            for c in st.board.rays[src][d][:st.cfg.dragon_dist]:
                q = occ[c]
                if q >= 0 and q // per != me:  # an enemy: a target, and a block if dragon_passable says so
                    cells.append(c)
                    if ptype[q] == DRAGON or ptype[q] in FIRING_RANGE:
                        break
    else:
        cells = [c for c in st.board.adj[src] if occ[c] >= 0 and is_enemy(st, p, occ[c])]
    if t == DRAGON:
        cells = [c for c in cells if tile[c] != FOREST]
    return [c for c in cells if may_engage(st, p, occ[c], False)]


def fire_targets(st: "ThronesState", p: int) -> list[int]:
    """Crossbowman: adjacent, Catapult: two tiles, Trebuchet: three tiles away "in a single
    direction"; the first two not at Forest. Nothing in between blocks (source
    collectTilesByDistance)."""
    rng = FIRING_RANGE.get(st.ptype[p])
    if rng is None or not may_strike(st):
        return []
    out, occ = [], st.occ
    no_forest = st.ptype[p] in (CROSSBOWMAN, CATAPULT)
    for ray in st.board.rays[st.ppos[p]]:
        if len(ray) >= rng:
            c = ray[rng - 1]
            q = occ[c]
            if q >= 0 and is_enemy(st, p, q) and not (no_forest and st.tile[c] == FOREST) \
                    and may_engage(st, p, q, True):
                out.append(c)
    return out


def strikes(st: "ThronesState", seat: int) -> list[tuple[int, str, int, bool]]:
    """(piece, KIND_ATTACK or KIND_FIRE, target cell, whether a check is made) of every attack and
    shot ``seat``'s pieces could make at the start of a turn of its own in this position (the
    observation's strike planes and the bots' evaluation); ``st`` is left as it was."""
    saved = st.first_turn, st.moved, st.switched
    st.first_turn = st.moved = st.switched = False  # as at a turn's start: may_strike
    near, ring = st.board.near_mask, st.board.ring_mask
    foes = 0
    for q in st.pieces_of(1 - seat):
        if st.ppos[q] >= 0:
            foes |= 1 << st.ppos[q]
    out = []
    try:
        for p in st.pieces_of(seat):
            src, t = st.ppos[p], st.ptype[p]
            if src < 0:
                continue
            rng = FIRING_RANGE.get(t)  # a quick pass first: an enemy next to it, or at its range
            if t != DRAGON and not near[src] & foes and not (rng and ring[rng][src] & foes):
                continue
            for kind, cells in ((KIND_ATTACK, attack_targets(st, p)), (KIND_FIRE, fire_targets(st, p))):
                out += [(p, kind, c, check_needed(st, kind, p, c)) for c in cells]
    finally:
        st.first_turn, st.moved, st.switched = saved
    return out


def _exempt(t: int, tile: int) -> bool:
    """Dragon "always passes both survival checks"; Ranger the Mountain's, Spearman the Water's."""
    return t == DRAGON or (t == RANGER and tile == MOUNTAIN) or (t == SPEARMAN and tile == WATER)


def check_needed(st: "ThronesState", kind: str, p: int, dst: int) -> bool:
    """Survival: "If a piece is move/switching from, attacking onto/from, or firing onto/from a
    Mountain or Water tile, a Survival Check is made"; an unbreached Fortress is breached only
    by a check; a Throne "always passes Survival Checks while attacking"."""
    t, src, tile = st.ptype[p], st.ppos[p], st.tile
    if t == THRONE and kind == KIND_ATTACK:
        return False
    if kind in (KIND_ATTACK, KIND_FIRE) and tile[dst] == FORTRESS and not st.breached[dst]:
        return True
    if st.cfg.check_tiles == "source":
        return _source_check(t, kind, tile[src], tile[dst])
    if kind == KIND_MOVE:
        return tile[src] in CHECK_TILES and not _exempt(t, tile[src])
    if kind == KIND_SWITCH:
        pair = (t, st.ptype[st.occ[dst]])
        return any(tl in CHECK_TILES and not any(_exempt(x, tl) for x in pair)
                   for tl in (tile[src], tile[dst]))
    return any(tl in CHECK_TILES and not _exempt(t, tl) for tl in (tile[src], tile[dst]))


def _source_check(t: int, kind: str, src_tile: int, dst_tile: int) -> bool:
    """Game::survivalCheck at acf30b3: a shot looks at the target's tile, an attack at its own,
    a switch at both; a Ranger (Spearman) passes only starting on Mountain (Water)."""
    s = src_tile if kind != KIND_FIRE else -1
    d = dst_tile if kind in (KIND_SWITCH, KIND_FIRE) else -1
    if (s not in CHECK_TILES and d not in CHECK_TILES) or t == DRAGON:
        return False
    return not ((t == RANGER and s == MOUNTAIN and d != WATER) or (t == SPEARMAN and s == WATER and d != MOUNTAIN))


def turn_over_after(st: "ThronesState", p: int, last: str) -> bool:
    """Moved and switched: the turn is over, unless a Warhorse just switched (it "may switch
    positions with any number ... pieces"); a long move is a turn of moving only."""
    if st.cfg.only_moving and st.long_moved:
        return True
    return st.moved and st.switched and not (st.ptype[p] == WARHORSE and last == KIND_SWITCH)


def thrones_lost(st: "ThronesState", seat: int) -> bool:
    """"Winning requires the removal of your opponent's Throne" (win_throne of them)."""
    need = st.cfg.win_throne
    if need <= 0:
        return False
    first = seat * st.per + sum(st.cfg.piece_amounts[:THRONE])  # the Thrones' ids (piece_amounts' order)
    return st.ppos[first:first + st.cfg.piece_amounts[THRONE]].count(-2) >= need


def fortresses_held(st: "ThronesState", seat: int) -> bool:
    """"... or occupying the opponent's homeland Fortress with your Throne" (win_fortress of
    them, by the capturers)."""
    need = st.cfg.win_fortress
    if need <= 0:
        return False
    held, home_of, tile, occ = 0, st.board.home_of, st.tile, st.occ
    for q in st.pieces_of(seat):  # the seat's capturers on the other home's Fortresses
        c = st.ppos[q]
        if c >= 0 and home_of[c] == 1 - seat and tile[c] == FORTRESS and occ[c] == q \
                and st.ptype[q] in st.capturer_types:
            held += 1
    return held >= need


def check_win(st: "ThronesState") -> bool:
    """After every change on the board: the mover's loss first, then his win, then the other's
    (a switch can carry a piece of either side)."""
    me = st.turn
    for seat, won in ((me, False), (1 - me, True), (me, True), (1 - me, False)):
        hit = fortresses_held(st, seat) if won else thrones_lost(st, seat)
        if hit or (won and thrones_lost(st, 1 - seat)):
            st.winner = seat if won else 1 - seat
            st.phase = "over"
            st.log_event({"kind": "win", "seat": st.winner})
            return True
    return False
