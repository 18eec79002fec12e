"""Movement: where a unit can go with the movement it has left.

Rules implemented here (Units > Movement, Winds, Occupancy, Walls, Freighters):
- "Players may move units through hexes occupied by their own units, but must respect maximum
  occupancy rule, and only end movement in an eligible hex."
- "During the build phase, units may pass through but not end their movement in hexes occupied
  by another player. During the attack phase, movement into a hex occupied by another player
  initiates a battle."
- "Units may not attack or move through opponent walls"; mountains "can not be occupied".
- "Loading knights onto a freighter is considered 1 movement": a knight steps onto a sea hex
  holding its own freighter with room, and is then aboard.
- Winds: a ship on a border sea hex may spend 1 movement to enter the prevailing winds and 1 to
  exit onto any border sea hex of the next side in the wind's direction; it never ends in the
  deep ocean, so riding the wind is one step of cost 2, taken at most once per move ("from one
  edge of the map to the next adjacent edge"), also when the move is made in legs (a freighter
  picking up knights): the activation remembers the ride.

Every step costs 1 (the wind costs 2), so a bucketed breadth-first search finds the cheapest
cost of every hex; ``reach`` returns the hexes where the unit may stop, and the hexes where it
may move in to start a battle.

Speed: the search asks "seen yet?" and "came in on the wind?" of typed arrays (C arrays in the
compiled build), never of the result's dicts, which it fills in the same order as ever (callers
iterate them, and the bots' ties follow that order).
"""

from __future__ import annotations

from array import array
from typing import Any

from .state import BATTLE, GameState
from .stats import ARTILLERY_OCCUPANCY, FREIGHTER, FREIGHTER_CAPACITY, IS_SHIP, MAX_OCCUPANCY


class Reach:
    """Result of a movement search: cheapest cost per visited hex, stops and battle hexes."""

    def __init__(self) -> None:
        self.cost: dict[int, int] = {}
        self.stops: dict[int, int] = {}
        self.battles: dict[int, int] = {}
        self.windy: set[int] = set()  # hexes whose cheapest way in rides the wind


def freighter_with_room(state: GameState, cell: int, player: int) -> int:
    """An own freighter at ``cell`` with room for one more land unit, or -1."""
    for u in range(state.n_units):
        if state.u_cell[u] == cell and state.u_type[u] == FREIGHTER and state.u_owner[u] == player \
                and state.u_where[u] == 0:
            if len(state.cargo(u)) < FREIGHTER_CAPACITY:
                return u
    return -1


def reach(state: GameState, u: int, points: int, towing: bool = False, can_attack: bool = False,
          wind: bool = True) -> Reach:
    """Hexes unit ``u`` can end a move on with ``points`` movement left.

    ``towing``: a knight moving artillery with it (the destination needs room for both, and the
    pair stays on land). ``can_attack``: the unit may still attack, so in the battle phase
    moving into another player's hex with units it can fight is a battle destination.
    ``wind``: the ship may still ride the prevailing winds in this move.
    """
    gmap = state.gmap
    me = state.u_owner[u]
    ship = IS_SHIP[state.u_type[u]]
    start = state.u_cell[u]
    battle_phase = state.phase == BATTLE
    need = 1 + (ARTILLERY_OCCUPANCY if towing else 0)
    walls, holder, occ, art_owner = state.walls, state.cell_player, state.occ, state.art_owner
    # The hexes this unit walks (knights) or sails (ships) on.
    own_terrain = state.sea if ship else state.land
    nbr, nbr_edge = state.nbr, state.nbr_edge
    wind_to = gmap.wind_targets_cw if state.wind > 0 else gmap.wind_targets_ccw
    res = Reach()
    if start < 0:
        return res  # not on the board: nowhere to go
    costs, stops = res.cost, res.stops
    seen = array("i", [-1]) * state.n_cells  # each hex's cost once reached (the keys of costs)
    windy = bytearray(state.n_cells)  # 1: its cheapest way in rode the wind (the set res.windy)
    costs[start] = 0
    seen[start] = 0
    frontier = [start]
    later: list[int] = []  # hexes reached by the wind, one cost level further out
    rode = res.windy  # hexes whose cheapest way in used the wind: one ride per move
    for cost in range(1, points + 1):
        nxt = later
        later = []
        for a in frontier:
            for d in range(6):
                b = nbr[a * 6 + d]
                if b < 0:
                    continue
                e = nbr_edge[a * 6 + d]
                if seen[b] >= 0:
                    if windy[b] and seen[b] == cost and not windy[a] and own_terrain[b]:
                        # as cheap without the wind: the ride is not needed to get here
                        w = walls[e]
                        h = holder[b]
                        if (w < 0 or w == me) and (h == -1 or h == me):
                            rode.discard(b)
                            windy[b] = 0
                    continue
                w = walls[e]
                if w >= 0 and w != me:
                    continue
                h = holder[b]
                if own_terrain[b] and (h < 0 or h == me):
                    # The common step (as _enter does it): an empty or own hex of its terrain.
                    costs[b] = cost
                    seen[b] = cost
                    if occ[b] + need <= MAX_OCCUPANCY and not (towing and art_owner[b] >= 0):
                        stops[b] = cost
                elif not _enter(state, res, seen, b, cost, me, ship, need, towing, battle_phase, can_attack):
                    continue
                nxt.append(b)
                if windy[a]:
                    rode.add(b)
                    windy[b] = 1
        if ship and wind and cost + 1 <= points:
            # Riding the wind arrives one level later, so ordinary steps of this level go first.
            for a in frontier:
                if windy[a]:
                    continue
                for b in wind_to[a]:
                    h = holder[b]
                    if seen[b] < 0 and (h == -1 or h == me):
                        costs[b] = cost + 1
                        seen[b] = cost + 1
                        if occ[b] + 1 <= MAX_OCCUPANCY:
                            stops[b] = cost + 1
                        later.append(b)
                        rode.add(b)
                        windy[b] = 1
        frontier = nxt
        if not frontier and not later:
            break
    return res


def _enter(state: GameState, res: Reach, seen: Any, b: int, cost: int, me: int, ship: bool, need: int,
           towing: bool, battle_phase: bool, can_attack: bool) -> bool:
    """Record what stepping onto ``b`` at ``cost`` allows (in ``res`` and in ``reach``'s
    ``seen``); True if movement may go on from b."""
    land = state.land[b]
    if not land and not state.sea[b]:
        return False  # mountain
    h = state.cell_player[b]
    if ship != (not land):
        # A knight steps onto sea only to board its own freighter (and stops there).
        if not ship and not towing and h == me and freighter_with_room(state, b, me) >= 0:
            res.cost[b] = seen[b] = cost
            res.stops[b] = cost
        return False
    if h >= 0 and h != me:
        if battle_phase:
            # U28: knights (the defenders of a land hex) are attacked only by a player with a
            # development to hold the prisoner; ships may always be attacked.
            if can_attack and (ship or has_development(state, me)) and _has_defenders(state, b, h):
                res.cost[b] = seen[b] = cost
                res.battles[b] = cost
            return False
        res.cost[b] = seen[b] = cost  # build phase: pass through, never stop
        return True
    res.cost[b] = seen[b] = cost
    if state.occ[b] + need <= MAX_OCCUPANCY and not (towing and state.art_owner[b] >= 0):
        res.stops[b] = cost
    return True


def _has_defenders(state: GameState, cell: int, owner: int) -> bool:
    for v in range(state.n_units):
        if state.u_cell[v] == cell and state.u_where[v] == 0 and state.u_owner[v] == owner:
            return True
    return False


def has_development(state: GameState, player: int) -> bool:
    """``player`` holds a development (U28: only then may his knights attack knights)."""
    for c in range(state.n_cells):
        if state.dev_owner[c] == player:
            return True
    return False
