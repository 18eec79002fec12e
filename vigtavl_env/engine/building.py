"""Building: developments, units, ships, artillery and walls, and where each may go.

Rules implemented here (Units > Building Units, Additional Unit Actions > Build, Walls, Castles,
Occupancy, Freighters, Phase 1 - Placement):
- "Players may build on any hex that is occupied by or adjacent to one of their units or already
  developed hexes." Developments go on land; mountains cannot be built on.
- "On a player's turn he may only build 2 knights or 2 ships or 1 knight and 1 ship (unless he
  has built a castle, in which case his production capacity increases to 3)."
- "Built land units are placed on or adjacent to any developed hex"; "Built ships are placed on
  any sea hex adjacent to a player's coastal development"; "If a freighter is adjacent to a
  developed hex, units can be built directly on the ship."
- "Walls may be built on any edge of a player's occupied or built hexes"; once per turn a wall
  may be taken down and rebuilt elsewhere at no cost.
- Building is never allowed during a unit's movement nor during a retaliation.
- Placement: ships on any sea hex, never on another player's hex, within occupancy.
"""

from __future__ import annotations


from .movement import freighter_with_room
from .state import BUILD, BATTLE, GameState, GONE, MOVE_IN_PROGRESS, PRISONER, RESERVE, count_of, zero_flags
from .stats import (
    ARTILLERY_COST, ARTILLERY_LIMIT, ARTILLERY_OCCUPANCY, CASTLE, DEV_COST, DEV_OCCUPANCY,
    IS_SHIP, MAX_OCCUPANCY, NO_DEV, UNITS_PER_TURN, UNITS_PER_TURN_WITH_CASTLE,
    UNIT_COST, UNIT_LIMIT, UNIT_LIMIT_PER_TURN, WALL_COST,
)

ARTILLERY_SLOT = 6  # index of artillery in state.built_types


def may_build_now(state: GameState) -> bool:
    """Building happens in the build and battle phases, outside retaliation and movement."""
    if state.phase not in (BUILD, BATTLE) or state.retaliator >= 0 or state.recruit_type >= 0:
        return False
    for a in state.stack:
        if a.move == MOVE_IN_PROGRESS:
            return False
    return True


def unit_capacity(state: GameState, player: int) -> int:
    """Units a player may build this turn: 2, or 3 while he owns a castle."""
    for c in range(state.n_cells):
        if state.dev_type[c] == CASTLE and state.dev_owner[c] == player:
            return UNITS_PER_TURN_WITH_CASTLE
    return UNITS_PER_TURN


def in_play(state: GameState, player: int, utype: int) -> int:
    """Pieces of this type the player has in play: on the board, aboard or in reserve."""
    n = 0
    for u in range(state.n_units):
        if state.u_type[u] == utype and state.u_owner[u] == player:
            w = state.u_where[u]
            if w != GONE and w != PRISONER:
                n += 1
    return n


def type_limit_ok(state: GameState, player: int, utype: int) -> bool:
    """The Stats table's limit for this type ("2/turn" rows per turn; others see limit_scope)."""
    if utype == ARTILLERY_SLOT:
        if state.config.limit_scope == "per_turn":
            return state.built_types[ARTILLERY_SLOT] < ARTILLERY_LIMIT
        return count_of(state.art_owner, player) < ARTILLERY_LIMIT
    limit = UNIT_LIMIT[utype]
    if UNIT_LIMIT_PER_TURN[utype] or state.config.limit_scope == "per_turn":
        return state.built_types[utype] < limit
    return in_play(state, player, utype) < limit


def near_development(state: GameState, player: int) -> list[int]:
    """Own developed hexes and the hexes adjacent to them, ascending."""
    near = zero_flags(state.n_cells)  # a flag per hex, read in C
    for c in range(state.n_cells):
        if state.dev_owner[c] == player:
            near[c] = 1
            for d in range(6):
                n = state.nbr[c * 6 + d]
                if n >= 0:
                    near[n] = 1
    return [c for c in range(state.n_cells) if near[c]]


def near_sites(state: GameState, player: int) -> tuple[list[int], list[int], list[int]]:
    """:func:`near_development` by terrain, ascending: (land hexes, sea hexes, sea hexes next to
    an own development). Kept in the state between decisions (``GameState.near_memo``) with the
    ``dev_stamp`` they were worked out under, and used again while the developments are
    unchanged; the lists are shared, so callers never change them."""
    memo = state.near_memo[player]
    if memo is not None and memo[0] == state.dev_stamp:
        return memo[1]
    out = _near_sites(state, player)
    state.near_memo[player] = (state.dev_stamp, out)
    return out


def _near_sites(state: GameState, player: int) -> tuple[list[int], list[int], list[int]]:
    """:func:`near_sites` worked out afresh."""
    land, sea, sea_by_development = [], [], []
    for c in near_development(state, player):
        if state.land[c]:
            land.append(c)
        elif state.sea[c]:
            sea.append(c)
            if _adjacent_own_development(state, c, player):
                sea_by_development.append(c)
    return land, sea, sea_by_development


def free_for(state: GameState, cell: int, player: int, room: int) -> bool:
    """The hex is not another player's and has room for ``room`` more occupancy."""
    h = state.cell_player[cell]
    return (h == -1 or h == player) and state.occ[cell] + room <= MAX_OCCUPANCY


def unit_sites(state: GameState, player: int, utype: int, near: tuple | None = None) -> list[int]:
    """Where a built (or recruited) unit of this type may be placed, ascending. ``near``: the
    player's :func:`near_sites`, when the caller has them."""
    land, sea, sea_by_development = near or near_sites(state, player)
    if IS_SHIP[utype]:
        return [c for c in sea if free_for(state, c, player, 1)]
    out = [c for c in land if free_for(state, c, player, 1)]
    # built straight onto a freighter next to a developed hex
    aboard = [c for c in sea_by_development
              if state.cell_player[c] == player and freighter_with_room(state, c, player) >= 0]
    return sorted(out + aboard) if aboard else out


def _adjacent_own_development(state: GameState, cell: int, player: int) -> bool:
    for d in range(6):
        n = state.nbr[cell * 6 + d]
        if n >= 0 and state.dev_owner[n] == player:
            return True
    return False


def artillery_sites(state: GameState, player: int, near: tuple | None = None) -> list[int]:
    return [c for c in (near or near_sites(state, player))[0]
            if state.art_owner[c] < 0 and free_for(state, c, player, ARTILLERY_OCCUPANCY)]


def development_sites(state: GameState, player: int, dev: int, candidates: list[int] | None = None) -> list[int]:
    """Land hexes with no development, occupied by or next to the player's units or developments."""
    if candidates is None:
        candidates = development_candidates(state, player)
    room = MAX_OCCUPANCY - DEV_OCCUPANCY[dev]
    return [c for c in candidates if state.occ[c] <= room]


def development_candidates(state: GameState, player: int, presence: list[int] | None = None,
                           near: tuple | None = None) -> list[int]:
    """Hexes a development could go on, occupancy aside: land next to or under the player's
    units (on the board or aboard) or developments. ``presence``: the hexes of those units,
    ``near``: the player's :func:`near_sites`, when the caller has them."""
    if presence is None:
        presence = [state.u_cell[u] for u in range(state.n_units)
                    if state.u_owner[u] == player and state.u_where[u] <= 1]
    mark = zero_flags(state.n_cells)
    for c in (near or near_sites(state, player))[0]:  # the land around own developments
        mark[c] = 1
    for c in presence:
        mark[c] = 1
        for d in range(6):
            n = state.nbr[c * 6 + d]
            if n >= 0:
                mark[n] = 1
    out = []
    for c in range(state.n_cells):
        if mark[c] and state.land[c] and state.dev_type[c] == NO_DEV:
            h = state.cell_player[c]
            if h == -1 or h == player:
                out.append(c)
    return out


def wall_sites(state: GameState, player: int) -> list[list[int]]:
    """Free edges of the player's occupied or built hexes: for each direction, the hexes."""
    out: list[list[int]] = [[], [], [], [], [], []]
    for c in range(state.n_cells):
        if state.cell_player[c] == player:
            for d in range(6):
                if state.walls[state.nbr_edge[c * 6 + d]] < 0:
                    out[d].append(c)
    return out


def can_afford_unit(state: GameState, player: int, utype: int, capacity: int | None = None) -> bool:
    """Gold, the type's limit and (for combat units) the turn's production capacity allow it."""
    cost = ARTILLERY_COST if utype == ARTILLERY_SLOT else UNIT_COST[utype]
    if state.gold[player] < cost:
        return False
    if utype != ARTILLERY_SLOT:
        if capacity is None:
            capacity = unit_capacity(state, player)
        if state.built_units >= capacity:
            return False
    return type_limit_ok(state, player, utype)


def can_afford_development(state: GameState, player: int, dev: int) -> bool:
    return state.gold[player] >= DEV_COST[dev]


def can_afford_wall(state: GameState, player: int) -> bool:
    return state.wall_in_hand or state.gold[player] >= WALL_COST


def placement_sites(state: GameState, player: int) -> list[int]:
    """Phase 1: any sea hex not held by another player, with room."""
    return [c for c in range(state.n_cells) if state.sea[c] and free_for(state, c, player, 1)]


def reserve_ships(state: GameState, player: int) -> list[int]:
    return [u for u in range(state.n_units)
            if state.u_where[u] == RESERVE and state.u_owner[u] == player and IS_SHIP[state.u_type[u]]]
