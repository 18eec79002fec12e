"""Threats and exposure: for one player, what his units could attack or stand next to on his
next turn (:class:`Threats`, from static distances, walls and blocking units aside); the pull of
targets and the risk of approaching them (:func:`target_field`, :func:`approach_risk`); and how
open a development is to a seizure (:func:`seize_exposure`).
"""

from __future__ import annotations

import numpy as np

from vigtavl_env.engine.free_actions import guard_cells
from vigtavl_env.engine.movement import has_development
from vigtavl_env.engine.state import BATTLE, LOADED, ON_BOARD, GameState
from vigtavl_env.engine.stats import (
    ARCHER, DEV_COST, FREIGHTER, IS_SHIP, UNIT_COST, UNIT_MOVEMENT, UNIT_RANGE,
)

from .maps import MapInfo
from .odds import CLOSE_WIN, ranged_hit_prob
from .values import battle_turns_left


class Threats:
    """What one player could do on his next turn, from where his units stand now (static
    distances; walls and units in the way are not counted).

    ``close[c]``: the most close-combat dice one of his units could bring against hex ``c``;
    ``ranged[c]``: his best chance of a ranged hit on ``c``; ``stand[c]``: one of his fighting
    units could end a move on ``c``; ``can_capture``: he holds a development (U28).
    """

    __slots__ = ("player", "close", "ranged", "stand", "can_capture")

    def __init__(self, state: GameState, info: MapInfo, player: int) -> None:
        n = info.n
        self.player = player
        self.can_capture = has_development(state, player)
        stand = np.zeros(n, dtype=bool)
        close_masks = {1: np.zeros(n, dtype=bool), 3: np.zeros(n, dtype=bool)}
        ranged_masks = {2: np.zeros(n, dtype=bool), 3: np.zeros(n, dtype=bool)}
        for u, t, c, w in fighting_units(state, player):
            m = info.distance_row(t, c, w, state.wind) <= UNIT_MOVEMENT[t]
            if w == LOADED and t == ARCHER:
                m = m.copy()
                m[c] = True
            stand |= m
            if UNIT_RANGE[t]:
                ranged_masks[UNIT_COST[t]] |= m
            else:
                close_masks[UNIT_COST[t]] |= m
        close = np.zeros(n, dtype=np.int8)
        for cost in (1, 3):
            if close_masks[cost].any():
                hit = close_masks[cost].astype(np.float32) @ info.ADJ > 0
                close[hit] = cost
        ranged = np.zeros(n, dtype=np.float32)
        for cost, mask in ranged_masks.items():
            if not mask.any():
                continue
            mf = mask.astype(np.float32)
            for k in (3, 2, 1):
                hit = mf @ info.RAY[k] > 0
                ranged[hit] = np.maximum(ranged[hit], ranged_hit_prob(cost, k))
        self.close = close.tolist()
        self.ranged = ranged.tolist()
        self.stand = stand.tolist()

    def attack_prob(self, cost: int, cell: int, is_ship: bool) -> float:
        """Chance he defeats a defender of this cost on ``cell`` with his best single attack."""
        if not is_ship and not self.can_capture:
            return 0.0
        p = self.ranged[cell]
        d = self.close[cell]
        if d:
            p = max(p, CLOSE_WIN[d][cost])
        return p


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


def target_field(state: GameState, info: MapInfo, me: int) -> tuple[list[float], list[float]]:
    """Pull of other players' targets per hex, for my knights (over land) and my ships (over
    sea): the best target value, shrinking with the turns it takes to get next to it."""
    xs, vs = _targets(state, me)
    n = info.n
    if not xs:
        return [0.0] * n, [0.0] * n
    v = np.array(vs, dtype=np.float32)
    land_d = info.LD[:, xs].astype(np.float32) - 1.0  # next to it
    land = (v / (1.0 + np.maximum(0.0, land_d - 3.0) * 0.5)).max(axis=1)
    sea_d = info.SEA_APPROACH(state.wind)[:, xs].astype(np.float32)
    sea = (v / (1.0 + np.maximum(0.0, sea_d - 5.0) * 0.3)).max(axis=1)
    land[~np.array(info.is_land)] = 0.0
    sea[~np.array(info.is_sea)] = 0.0
    return land.tolist(), sea.tolist()


def approach_risk(state: GameState, info: MapInfo, me: int) -> list[float]:
    """0..1 per hex: how soon other players' fighting units could stand next to it (for the
    turns before a threat is immediate)."""
    n = info.n
    turns = 1 if state.phase == BATTLE else 2
    scale = 0.8 if state.phase == BATTLE else 0.6
    units = []
    for q in range(state.n_players):
        if q != me and battle_turns_left(state, q) > 0:
            units += fighting_units(state, q)
    if not units:
        return [0.0] * n
    # Every unit's row at once: steps to stand next to each hex (a ship's approach table
    # counts that already; a knight's distance less one), beyond its move, per turn of moves.
    d = _approach_rows(state, info, units)
    span = np.array([UNIT_MOVEMENT[t] + 1.0 for _, t, _, _ in units], dtype=np.float32)[:, None]
    r = 1.0 - np.maximum(0.0, d - span) / (span * turns + 1.0)
    return (np.clip(r, 0.0, 1.0) * scale).max(axis=0).tolist()


def _approach_rows(state: GameState, info: MapInfo, units: list[tuple]) -> np.ndarray:
    """One row per unit of ``units`` (:func:`fighting_units`): the steps it needs to stand next
    to each hex (a ship's sea approach table; a knight's static distance,
    :meth:`MapInfo.reach_row`, less one)."""
    out = np.empty((len(units), info.n), dtype=np.float32)
    cells = np.array([c for _, _, c, _ in units])
    ships, aboard, land = [], [], []
    for i, (_, t, _, w) in enumerate(units):
        if IS_SHIP[t]:
            ships.append(i)
        elif w == LOADED:
            aboard.append(i)
        else:
            land.append(i)
    if ships:
        out[ships] = info.SEA_APPROACH(state.wind)[cells[ships]]
    for rows, table in ((aboard, info.DECK), (land, info.LD)):
        if rows:
            out[rows] = table[cells[rows]] - 1.0
    return out


def fighting_units(state: GameState, player: int) -> list[tuple[int, int, int, int]]:
    """``(unit, type, hex, place)`` of each of ``player``'s units that could fight next turn:
    on the board or aboard, freighters aside. (Typed in the compiled build: the state's tables
    read as C arrays, not through a Python view per read.)"""
    out = []
    for u in range(state.n_units):
        if state.u_owner[u] != player:
            continue
        w = state.u_where[u]
        if w != ON_BOARD and w != LOADED:
            continue
        t = state.u_type[u]
        if t != FREIGHTER:
            out.append((u, t, state.u_cell[u], w))
    return out


def guards(state: GameState, owner: int) -> set[int]:
    """Hexes where ``owner`` has a unit that defends developments (not a freighter): the
    engine's :func:`~vigtavl_env.engine.free_actions.guard_cells`."""
    return guard_cells(state, owner)[0]


def guarded(guard_cells: set[int], cells: list[int], extra_guard: int = -1) -> bool:
    """A guard (of ``guard_cells``, or ``extra_guard``) stands on one of ``cells``."""
    for x in cells:
        if x in guard_cells or x == extra_guard:
            return True
    return False


def seize_exposure(state: GameState, info: MapInfo, cell: int, owner: int, threat: Threats,
                   guard_cells: set[int], extra_guard: int = -1) -> float:
    """0..1: how exposed ``owner``'s development on ``cell`` is to a seizure by the threat's
    player next turn (1 = an approach hex he can reach is unguarded, no wall in between)."""
    if cell in guard_cells or cell == extra_guard:
        # A defender on the hex: he must first win a battle against it.
        return 0.0
    board = state.gmap.board
    q = threat.player
    exposed = 0.0
    for d, a in enumerate(board.neighbours[cell]):
        if a < 0 or not threat.stand[a]:
            continue
        h = state.cell_player[a]
        if h >= 0 and h != q:
            continue
        w = state.walls[board.edge[cell][d]]
        if w >= 0 and w != q:
            exposed = max(exposed, 0.3)  # a wall in the way: he must breach it first
            continue
        if guarded(guard_cells, board.common_neighbours(a, cell), extra_guard):
            continue
        return 1.0
    return exposed
