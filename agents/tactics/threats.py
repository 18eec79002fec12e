"""Threats and exposure: for one player, what his units could attack or stand next to on his
next turn (:class:`Threats`, from static distances, walls and blocking units aside); the pull of
targets and the risk of approaching them (:func:`target_field`, :func:`approach_risk`); and how
open a development is to a seizure (:func:`seize_exposure`).
"""

from __future__ import annotations

from array import array

import numpy as np

from vigtavl_env.engine.free_actions import guard_cells
from vigtavl_env.engine.movement import has_development
from vigtavl_env.engine.state import BATTLE, LOADED, ON_BOARD, GameState
from vigtavl_env.engine.stats import (
    ARCHER, DEV_COST, FREIGHTER, IS_SHIP, UNIT_COST, UNIT_MOVEMENT, UNIT_RANGE,
)

from .maps import INF, MapInfo
from .odds import CLOSE_WIN, ranged_hit_prob
from .values import battle_turns_left


class Threats:
    """What one player could do on his next turn, from where his units stand now (static
    distances; walls and units in the way are not counted).

    ``close[c]``: the most close-combat dice one of his units could bring against hex ``c``;
    ``ranged[c]``: his best chance of a ranged hit on ``c``; ``stand[c]``: one of his fighting
    units could end a move on ``c`` (1, else 0); ``can_capture``: he holds a development (U28).
    Typed arrays: ``close`` and ``stand`` bytes, ``ranged`` doubles.
    """

    __slots__ = ("player", "close", "ranged", "stand", "can_capture", "_ranged")

    def __init__(self, state: GameState, info: MapInfo, player: int) -> None:
        self.player = player
        self.can_capture = has_development(state, player)
        self.close, self.ranged, self.stand = threat_tables(state, info, player)
        self._ranged = self.ranged  # a C array of it, in the compiled build

    def attack_prob(self, cost: int, cell: int, is_ship: bool) -> float:
        """Chance he defeats a defender of this cost on ``cell`` with his best single attack."""
        if not is_ship and not self.can_capture:
            return 0.0
        p = self._ranged[cell]
        d = self.close[cell]
        if d:
            q = _CLOSE_WIN_FLAT[d * _CLOSE_ROW + cost]
            if q > p:
                p = q
        return p


# CLOSE_WIN flat (index attack dice * row + defence dice), a C array in the compiled build.
_CLOSE_ROW = len(CLOSE_WIN[0])
_CLOSE_WIN_FLAT = array("d", [p for row in CLOSE_WIN for p in row])


# The tables below are typed loops over C arrays in the compiled build. Their values are the
# float32 values the first (numpy) version computed, to the bit: the bots' decisions compare
# them, so the denominators and risks by distance are computed once here with numpy's float32
# arithmetic, and a quotient is rounded to float32 where numpy's was (storing it in an
# ``array("f")``; rounding the double quotient is the float32 quotient, and rounding commutes
# with taking the largest).
_DIST = np.arange(-1, INF + 2).astype(np.float32)  # index: distance + 1 (a knight's "next to" is -1)
# target_field: a target's value over these, by the land distance to stand next to it / the sea approach
_LAND_DEN = array("d", (1.0 + np.maximum(0.0, (_DIST - 1.0) - 3.0) * 0.5).tolist())
_SEA_DEN = array("d", (1.0 + np.maximum(0.0, _DIST - 5.0) * 0.3).tolist())
# Ranged hits: float32 P(hit) of each attack cost at range 1..3, index cost * 4 + range.
_RANGED_P = array("d", [float(np.float32(ranged_hit_prob(cost, k))) if 1 <= k <= 3 else 0.0
                        for cost in range(4) for k in range(4)])


def _risk_rows(turns: int, scale: float) -> array:
    """approach_risk's risk by distance for each unit type (index type * len(_DIST) + distance
    + 1): 1 next to it within its move, falling with the turns of moves beyond."""
    out = array("d")
    for t in range(len(UNIT_MOVEMENT)):
        span = np.full(1, UNIT_MOVEMENT[t] + 1.0, dtype=np.float32)
        r = 1.0 - np.maximum(0.0, _DIST - span) / (span * turns + 1.0)
        out.extend((np.clip(r, 0.0, 1.0) * scale).tolist())
    return out


_RISK_BATTLE = _risk_rows(1, 0.8)  # in the battle phase: the next turn
_RISK_BUILD = _risk_rows(2, 0.6)  # in the build phase: two turns of moves
_N_DIST = len(_DIST)


def _fights(state: GameState, u: int, player: int) -> bool:
    """Unit ``u`` is one of ``player``'s that could fight next turn: on the board or aboard,
    not a freighter."""
    w = state.u_where[u]
    return (state.u_owner[u] == player and (w == ON_BOARD or w == LOADED)
            and state.u_type[u] != FREIGHTER)


def _hex_row(cell: int, n: int) -> int:
    """The row of the distance tables a unit on ``cell`` reads. A knight aboard a freighter
    still in reserve (the setup) has no hex (-1): the first version of these tables read numpy's
    row -1, the last hex's, and so do these, so that the decisions stay the same."""
    return cell + n if cell < 0 else cell


def threat_tables(state: GameState, info: MapInfo, player: int) -> tuple[bytearray, array, bytearray]:
    """:class:`Threats`' ``close``, ``ranged`` and ``stand`` of ``player``: where each of his
    fighting units could stand next turn (its static distance within its move; an archer aboard
    also shoots from its freighter's hex), the hexes next to those for his close combat, and
    the hexes 1-3 steps along a ray from them for his ranged attacks."""
    n = info.n
    stand_out = bytearray(n)
    stand = stand_out  # a C array when compiled
    reach = bytearray(8 * n)  # per attack kind (close or ranged) and cost: where such a unit could stand
    ranged_out = array("d", bytes(8 * n))
    ranged, ranged_p, nb, rays = ranged_out, _RANGED_P, state.nbr, info.rays_flat  # C arrays when compiled
    for u in range(state.n_units):
        if not _fights(state, u, player):
            continue
        w = state.u_where[u]
        t = state.u_type[u]
        dist = info.sea_flat(state.wind) if IS_SHIP[t] else (info.deck_flat if w == LOADED else info.land_flat)
        c = _hex_row(state.u_cell[u], n)
        base = c * n
        m = UNIT_MOVEMENT[t]
        kind = ((1 if UNIT_RANGE[t] else 0) * 4 + UNIT_COST[t]) * n
        for x in range(n):
            if dist[base + x] <= m:
                stand[x] = 1
                reach[kind + x] = 1
        if w == LOADED and t == ARCHER:
            stand[c] = 1
            reach[kind + c] = 1
    close = bytearray(n)  # the most dice: 3 at most
    for cost in (1, 3):  # the stronger last: it overrides
        kind = cost * n
        for c in range(n):
            if reach[kind + c]:
                for d in range(6):
                    x = nb[c * 6 + d]
                    if x >= 0:
                        close[x] = cost
    for cost in (2, 3):
        kind = (4 + cost) * n
        for c in range(n):
            if not reach[kind + c]:
                continue
            for d in range(6):
                for k in range(1, 4):
                    x = rays[(c * 6 + d) * 3 + k - 1]
                    if x < 0:
                        break
                    p = ranged_p[cost * 4 + k]
                    if p > ranged[x]:
                        ranged[x] = p
    return close, ranged_out, stand_out


def threats_of(state: GameState, info: MapInfo, player: int) -> Threats:
    """:class:`Threats` of ``player``, remembered in ``info`` for the last positions of his units."""
    return info.threat_cache.get(threat_key(state, player), lambda: Threats(state, info, player))


def threat_key(state: GameState, player: int) -> tuple:
    """What :class:`Threats` of ``player`` depend on: the winds, whether he holds a
    development, and each of his units' type, hex and place."""
    units = []
    for u in range(state.n_units):
        if state.u_owner[u] == player:
            units.append((state.u_type[u], state.u_cell[u], state.u_where[u]))
    return (player, state.wind, has_development(state, player), tuple(units))


def _targets(state: GameState, me: int) -> tuple[list[int], list[float]]:
    """:func:`target_field`'s targets: other players' developments and the units I may attack,
    with their values."""
    xs, vs = [], []
    for c in range(state.n_cells):
        o = state.dev_owner[c]
        if o >= 0 and o != me:
            xs.append(c)
            vs.append(DEV_COST[state.dev_type[c]] + 1.0)
    can_capture = has_development(state, me)
    for u in range(state.n_units):
        o = state.u_owner[u]
        if o == me or state.u_where[u] != ON_BOARD:
            continue
        t = state.u_type[u]
        if not IS_SHIP[t] and not can_capture:
            continue
        xs.append(state.u_cell[u])
        vs.append(0.5 * UNIT_COST[t])
    return xs, vs


def target_field(state: GameState, info: MapInfo, me: int) -> tuple[array, array]:
    """Pull of other players' targets per hex, for my knights (over land) and my ships (over
    sea): the best target value, shrinking with the turns it takes to get next to it (arrays of
    doubles, read as C arrays by the compiled bots)."""
    xs, vs = _targets(state, me)
    n = info.n
    if not xs:
        return array("d", bytes(8 * n)), array("d", bytes(8 * n))
    cells, value = array("i", xs), array("d", vs)
    land_out = array("f", bytes(4 * n))  # float32: the stored quotient is rounded as numpy's was
    sea_out = array("f", bytes(4 * n))
    land, sea, land_den, sea_den = land_out, sea_out, _LAND_DEN, _SEA_DEN  # C arrays when compiled
    ld = info.land_flat
    sa = info.approach_flat(state.wind)
    is_land, is_sea = info.is_land, info.is_sea
    k = len(cells)
    for c in range(n):
        if is_land[c]:
            land[c] = _best_pull(value, cells, k, land_den, ld, c * n)
        if is_sea[c]:
            sea[c] = _best_pull(value, cells, k, sea_den, sa, c * n)
    land_d, sea_d = array("d", bytes(8 * n)), array("d", bytes(8 * n))
    land64, sea64 = land_d, sea_d  # C arrays when compiled: float32 to double, exact
    for c in range(n):
        land64[c] = land[c]
        sea64[c] = sea[c]
    return land_d, sea_d


def _best_pull(value: array, cells: array, k: int, den: array, dist: array, row: int) -> float:
    """The largest of the ``k`` target values over their denominators by distance (``dist``
    from the hex whose row starts at ``row``)."""
    best = 0.0
    for i in range(k):
        v = value[i] / den[dist[row + cells[i]] + 1]
        if v > best:
            best = v
    return best


def approach_risk(state: GameState, info: MapInfo, me: int) -> array:
    """0..1 per hex: how soon other players' fighting units could stand next to it (for the
    turns before a threat is immediate): per hex, the most any one unit threatens, 1 within
    its move and falling with each turn of moves beyond (an array of doubles)."""
    n = info.n
    risk = _RISK_BATTLE if state.phase == BATTLE else _RISK_BUILD
    risk_out = array("d", bytes(8 * n))
    out = risk_out  # a C array when compiled
    for q in range(state.n_players):
        if q == me or battle_turns_left(state, q) <= 0:
            continue
        for u in range(state.n_units):
            if not _fights(state, u, q):
                continue
            w = state.u_where[u]
            t = state.u_type[u]
            # Steps to stand next to each hex: a ship's sea approach, a knight's distance less one.
            if IS_SHIP[t]:
                dist, off = info.approach_flat(state.wind), t * _N_DIST + 1
            else:
                dist, off = (info.deck_flat if w == LOADED else info.land_flat), t * _N_DIST
            base = _hex_row(state.u_cell[u], n) * n
            for c in range(n):
                r = risk[off + dist[base + c]]
                if r > out[c]:
                    out[c] = r
    return risk_out


def guards(state: GameState, owner: int) -> set[int]:
    """Hexes where ``owner`` has a unit that defends developments (not a freighter): the
    engine's :func:`~vigtavl_env.engine.free_actions.guard_cells`."""
    return guard_cells(state, owner)[0]


def guarded_beside(state: GameState, guard_cells: set[int], cell: int, d: int, extra_guard: int = -1) -> bool:
    """A guard (of ``guard_cells``, or ``extra_guard``) stands on one of the two hexes next to
    both ``cell`` and its neighbour in direction ``d``: the hexes in the directions either side
    of ``d`` (:meth:`Board.common_neighbours` of the two, without building a list)."""
    for k in (1, 5):
        x = state.nbr[cell * 6 + (d + k) % 6]
        if x >= 0 and (x in guard_cells or x == extra_guard):
            return True
    return False


def seize_exposure(state: GameState, info: MapInfo, cell: int, owner: int, threat: Threats,
                   guard_cells: set[int], extra_guard: int = -1) -> float:
    """0..1: how exposed ``owner``'s development on ``cell`` is to a seizure by the threat's
    player next turn (1 = an approach hex he can reach is unguarded, no wall in between)."""
    if cell in guard_cells or cell == extra_guard:
        # A defender on the hex: he must first win a battle against it.
        return 0.0
    q = threat.player
    exposed = 0.0
    for d in range(6):
        a = state.nbr[cell * 6 + d]
        if a < 0 or not threat.stand[a]:
            continue
        h = state.cell_player[a]
        if h >= 0 and h != q:
            continue
        w = state.walls[state.nbr_edge[cell * 6 + d]]
        if w >= 0 and w != q:
            exposed = max(exposed, 0.3)  # a wall in the way: he must breach it first
            continue
        if guarded_beside(state, guard_cells, cell, d, extra_guard):
            continue
        return 1.0
    return exposed
