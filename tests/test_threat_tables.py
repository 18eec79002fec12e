"""The heuristic's threat and target tables (``agents.tactics.threats``) against their first
definition, in numpy matrices: the typed loops must give the same values to the bit, since the
bots' decisions compare them (and the search bot's recorded digest depends on them)."""

from __future__ import annotations

import numpy as np
import pytest

from agents import tactics as T
from agents.heuristic import AGGRESSOR, BUILDER, GREEDY, HeuristicAgent
from agents.tactics.odds import ranged_hit_prob
from vigtavl_env.engine import apply_action, legal_actions, load_map, new_game
from vigtavl_env.engine.movement import has_development
from vigtavl_env.engine.state import BATTLE, LOADED, ON_BOARD
from vigtavl_env.engine.stats import (
    ARCHER, DEV_COST, FREIGHTER, IS_SHIP, UNIT_COST, UNIT_MOVEMENT, UNIT_RANGE,
)


def _units(state, player):
    """(unit, type, hex, place) of ``player``'s units that could fight next turn."""
    return [(u, state.u_type[u], state.u_cell[u], state.u_where[u]) for u in range(state.n_units)
            if state.u_owner[u] == player and state.u_where[u] in (ON_BOARD, LOADED)
            and state.u_type[u] != FREIGHTER]


def _matrices(info, gmap):
    """Adjacency and the rays of range 1..3 as n x n matrices."""
    n, board = info.n, gmap.board
    adj = np.zeros((n, n), dtype=np.float32)
    for c in range(n):
        for x in info.nb[c]:
            adj[c, x] = 1.0
    ray = [np.zeros((n, n), dtype=np.float32) for _ in range(4)]
    for c in range(n):
        for d in range(6):
            for k, (x, _e) in enumerate(board.rays[c][d], start=1):
                if not (gmap.is_land[x] or gmap.is_sea[x]):
                    break
                ray[k][c, x] = 1.0
    return adj, ray


def threats_by_matrices(state, info, player, adj, ray):
    """close, ranged, stand: where each unit could stand (a boolean row per unit), the hexes
    next to them, and those along the rays, as matrix products."""
    n = info.n
    stand = np.zeros(n, dtype=bool)
    close_masks = {1: np.zeros(n, dtype=bool), 3: np.zeros(n, dtype=bool)}
    ranged_masks = {2: np.zeros(n, dtype=bool), 3: np.zeros(n, dtype=bool)}
    for _u, t, c, w in _units(state, player):
        m = info.distance_row(t, c, w, state.wind) <= UNIT_MOVEMENT[t]
        if w == LOADED and t == ARCHER:
            m = m.copy()
            m[c] = True
        stand |= m
        (ranged_masks if UNIT_RANGE[t] else close_masks)[UNIT_COST[t]] |= m
    close = np.zeros(n, dtype=np.int8)
    for cost in (1, 3):
        close[close_masks[cost].astype(np.float32) @ adj > 0] = cost
    ranged = np.zeros(n, dtype=np.float32)
    for cost, mask in ranged_masks.items():
        for k in (3, 2, 1):
            hit = mask.astype(np.float32) @ ray[k] > 0
            ranged[hit] = np.maximum(ranged[hit], ranged_hit_prob(cost, k))
    return close.tolist(), ranged.tolist(), stand.tolist()


def target_field_by_matrices(state, info, me):
    """The best target value per hex, over 1 + half a turn per step beyond three (land) or
    0.3 per step beyond five (sea), in float32."""
    xs, vs = [], []
    for c in range(state.n_cells):
        if state.dev_owner[c] >= 0 and state.dev_owner[c] != me:
            xs.append(c)
            vs.append(DEV_COST[state.dev_type[c]] + 1.0)
    for u in range(state.n_units):
        t = state.u_type[u]
        if (state.u_owner[u] != me and state.u_where[u] == ON_BOARD
                and (IS_SHIP[t] or has_development(state, me))):
            xs.append(state.u_cell[u])
            vs.append(0.5 * UNIT_COST[t])
    if not xs:
        return [0.0] * info.n, [0.0] * info.n
    v = np.array(vs, dtype=np.float32)
    land_d = info.LD[:, xs].astype(np.float32) - 1.0
    land = (v / (1.0 + np.maximum(0.0, land_d - 3.0) * 0.5)).max(axis=1)
    sea_d = info.SEA_APPROACH(state.wind)[:, xs].astype(np.float32)
    sea = (v / (1.0 + np.maximum(0.0, sea_d - 5.0) * 0.3)).max(axis=1)
    land[~np.array(info.is_land)] = 0.0
    sea[~np.array(info.is_sea)] = 0.0
    return land.tolist(), sea.tolist()


def approach_risk_by_matrices(state, info, me):
    """Per hex, the most any other player's fighting unit threatens to come next to it."""
    turns, scale = (1, 0.8) if state.phase == BATTLE else (2, 0.6)
    units = [x for q in range(state.n_players) if q != me and T.battle_turns_left(state, q) > 0
             for x in _units(state, q)]
    if not units:
        return [0.0] * info.n
    d = np.empty((len(units), info.n), dtype=np.float32)
    for i, (_u, t, c, w) in enumerate(units):
        if IS_SHIP[t]:
            d[i] = info.SEA_APPROACH(state.wind)[c]
        else:
            d[i] = (info.DECK if w == LOADED else info.LD)[c] - 1.0
    span = np.array([UNIT_MOVEMENT[t] + 1.0 for _, t, _, _ in units], dtype=np.float32)[:, None]
    r = 1.0 - np.maximum(0.0, d - span) / (span * turns + 1.0)
    return (np.clip(r, 0.0, 1.0) * scale).max(axis=0).tolist()


@pytest.mark.parametrize("map_name", ["duel", "triad", "quad"])
def test_threat_and_target_tables_equal_their_matrix_definition(map_name):
    """Every player's tables, at every decision of a bot game, equal the matrix definition."""
    gmap = load_map(map_name)
    info = T.MapInfo(gmap)
    adj, ray = _matrices(info, gmap)
    state = new_game(gmap, seed=11)
    styles = (GREEDY, AGGRESSOR, BUILDER, GREEDY)
    bots = [HeuristicAgent(styles[p], seed=p) for p in range(state.n_players)]
    checked = ranged = 0
    while not state.is_over and state.turns_played < 40:
        for p in range(state.n_players):
            th = T.Threats(state, info, p)
            want = threats_by_matrices(state, info, p, adj, ray)
            assert (list(th.close), list(th.ranged), [bool(x) for x in th.stand]) == want
            assert tuple(map(list, T.target_field(state, info, p))) == target_field_by_matrices(state, info, p)
            assert list(T.approach_risk(state, info, p)) == approach_risk_by_matrices(state, info, p)
            checked += 1
            ranged += any(want[1])
        legal = legal_actions(state)
        apply_action(state, bots[state.current_player].decide(state, legal), legal)
    assert checked > 200 and ranged > 50  # the games reached the battle, archers and galleons in it


@pytest.mark.parametrize("map_name", ["duel", "quad"])
def test_guarded_beside_is_a_guard_on_the_common_neighbours(map_name):
    """guarded_beside(cell, d) looks at the two hexes next to both ``cell`` and its neighbour in
    direction ``d``: exactly the board's common neighbours of the two, for every hex and side."""
    state = new_game(load_map(map_name), seed=1)
    board = state.gmap.board
    checked = 0
    for cell in range(board.n_cells):
        for d, a in enumerate(board.neighbours[cell]):
            if a < 0:
                continue
            common = set(board.common_neighbours(a, cell))
            assert 1 <= len(common) <= 2
            for x in range(board.n_cells):
                assert T.guarded_beside(state, {x}, cell, d) == (x in common)
                assert T.guarded_beside(state, set(), cell, d, extra_guard=x) == (x in common)
            checked += 1
    assert checked > 400
