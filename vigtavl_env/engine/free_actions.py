"""Free actions that do not count towards a unit's two: seize, breach, discharge and recruit.

Rules implemented here (Additional Unit Actions, Walls > Breaching, Results > Rescue, Objective):
- Seize: "Players may seize opponent developments and artillery if they are located on or
  adjacent to any hex occupied by one of their units and it is undefended." The owner's units
  on the hex must be defeated first; his units on a hex "adjacent to both the attacker and" the
  piece may defend it when the seizure is declared (Defend: his choice, asked of him), and the
  seizer must then defeat them; freighters defend nothing but themselves; artillery is
  defended only by knights. Conquer tokens equal the development's value, +3 for the owner's
  last one. The seizing player chooses which of his units seizes.
- Rescue: seizing a developed hex frees the seizer's prisoners held there (Rescue tokens), and
  other players' prisoners there become his.
- Seizing Walls: walls on the seized hex change owner unless the hex across the wall is
  occupied by their original owner.
- Breach: a unit next to an opponent wall that has not exhausted its actions (the player's
  choice of unit) rolls its cost in dice; any 1-3 removes the wall; the third attempt on a wall
  adds 2 dice.
- Discharge and Recruit: once per turn, remove a land unit and place a new one of its type on
  or next to a developed hex.
"""

from __future__ import annotations

from collections.abc import Callable

from .combat import can_stand
from .state import BREACHED, LOADED, ON_BOARD, PRISONER, REPELLED, SPENT, GameState, positions
from .stats import BREACH_HIT_MAX, DEV_COST, CAVALRY, FREIGHTER, LAND_TYPES, NO_DEV, UNIT_COST
from .tokens import check_complex, check_wall_awards

LAST_DEVELOPMENT_BONUS = 3


def seizers(state: GameState, player: int, target: int) -> list[int]:
    """Own units from whose hex the pieces on ``target`` can be seized, one per hex and unit
    type (a unit in an activation first, then the lowest-numbered): the player picks one."""
    cells = seize_sources(state, player, target, lambda p: guard_cells(state, p), seizer_cells(state, player))
    if not cells:
        return []
    return one_per_hex_and_type(state, [u for u in _seizing_units(state, player) if state.u_cell[u] in cells])


def one_per_hex_and_type(state: GameState, units: list[int]) -> list[int]:
    """One unit per (hex, type) among ``units``, in hex and type order: units of one type on one
    hex are one choice for a player; a unit in an activation stands for them, else the
    lowest-numbered."""
    active = {a.unit for a in state.stack}
    best: dict[tuple[int, int], int] = {}
    for u in units:
        key = (state.u_cell[u], state.u_type[u])
        if key not in best or (u in active and best[key] not in active):
            best[key] = u
    return [best[k] for k in sorted(best)]


def _seizing_units(state: GameState, player: int) -> list[int]:
    """Units of the player that may seize: on the board, not freighters, not repelled."""
    return [u for u in range(state.n_units)
            if state.u_owner[u] == player and state.u_where[u] == ON_BOARD and state.u_type[u] != FREIGHTER
            and not state.u_flags[u] & REPELLED]


def seizer_cells(state: GameState, player: int) -> set[int]:
    """Hexes of the player's units that may seize."""
    return {state.u_cell[u] for u in _seizing_units(state, player)}


def guard_cells(state: GameState, owner: int, on_board: list[int] | None = None) -> tuple[set[int], set[int]]:
    """Hexes of the owner's units that defend: (any unit but a freighter, knights only).

    Developments are defended by the first kind, artillery alone by the second. ``on_board``:
    the owner's units on the board, when the caller has them."""
    if on_board is None:
        on_board = [u for u in range(state.n_units) if state.u_owner[u] == owner and state.u_where[u] == ON_BOARD]
    fighters: set[int] = set()
    knights: set[int] = set()
    for u in on_board:
        t = state.u_type[u]
        if t != FREIGHTER:
            fighters.add(state.u_cell[u])
            if t <= CAVALRY:  # a knight (LAND_TYPES)
                knights.add(state.u_cell[u])
    return fighters, knights


def seize_sources(state: GameState, player: int, target: int,
                  guards_of: Callable[[int], tuple[set[int], set[int]]], mine: set[int]) -> list[int]:
    """Hexes next to ``target`` from which ``player``'s units may seize its pieces; empty when
    nothing there can be seized. ``guards_of(p)`` is :func:`guard_cells` for player ``p``;
    ``mine``: the hexes of ``player``'s units that may seize (:func:`seizer_cells`).

    The owner's units on the hex itself must be defeated first (attacked: they hold the hex);
    his units on a hex next to both may step in when the seizure is declared (Defend), a
    choice asked of him then (:func:`guard_options`)."""
    owner = state.cell_player[target]
    if owner == -1 or owner == player or (state.dev_owner[target] != owner and state.art_owner[target] != owner):
        return []
    fighters, knights = guards_of(owner)
    if target in (knights if state.dev_type[target] == NO_DEV else fighters):
        return []
    out = []
    for d in range(6):
        c = state.nbr[target * 6 + d]
        if c not in mine:  # -1 (off the board) never is
            continue
        w = state.walls[state.nbr_edge[target * 6 + d]]
        if w >= 0 and w != player:
            continue  # no seizing through an opponent's wall
        out.append(c)
    return out


def guard_options(state: GameState, target: int, origin: int) -> list[int]:
    """Defend: the owner's units that may defend the development or artillery on ``target``
    against a seizure from ``origin``: "located on a hex adjacent to both the attacker and" the
    piece; any unit but a freighter for a development, knights alone for artillery. One per hex
    and type (the lowest-numbered), in hex order."""
    owner = state.cell_player[target]
    artillery_only = state.dev_type[target] == NO_DEV
    dist_o = state.gmap.board.dist[origin]
    u_where, u_owner, u_type = state.u_where, state.u_owner, state.u_type
    out: dict[tuple[int, int], int] = {}
    for h in state.gmap.board.neighbours[target]:
        if h < 0 or h == origin or dist_o[h] != 1 or state.cell_player[h] != owner:
            continue
        for u in positions(state.u_cell, h):
            t = u_type[u]
            if (u_where[u] == ON_BOARD and u_owner[u] == owner and t != FREIGHTER
                    and (t in LAND_TYPES or not artillery_only)):
                out.setdefault((h, t), u)
    return [out[k] for k in sorted(out)]


def seize(state: GameState, player: int, target: int) -> tuple[int, list[int]]:
    """Seize the development and artillery on ``target``. Returns the player who lost them and
    the hexes where rescued prisoners now stand."""
    owner = state.cell_player[target]
    board = state.gmap.board
    dev = state.dev_type[target]
    if state.art_owner[target] == owner:
        state.set_artillery(target, player)
    if dev != NO_DEV:
        last = sum(1 for o in state.dev_owner if o == owner) == 1
        state.set_development(target, dev, player)
        gain = DEV_COST[dev] + (LAST_DEVELOPMENT_BONUS if last else 0)
        state.tokens[player] += gain
        state.emit("seized", cell=target, dev=dev, owner=owner, tokens=gain, last=last, player=player)
        freed = _rescue(state, player, target)
        converted = False
        for d in range(6):
            e = board.edge[target][d]
            n = board.neighbours[target][d]
            if state.walls[e] == owner and (n < 0 or state.cell_player[n] != owner):
                state.walls[e] = player
                converted = True
        if converted:
            check_wall_awards(state, player)
        check_complex(state, player)  # counts only what he built: taking back his own fort may complete it
    else:
        freed = []
        state.emit("seized_artillery", cell=target, owner=owner, player=player)
    return owner, freed


def _rescue(state: GameState, player: int, cell: int) -> list[int]:
    freed = []
    for u, w in enumerate(state.u_where):
        if w != PRISONER or state.u_cell[u] != cell:
            continue
        if state.u_owner[u] == player:
            state.tokens[player] += UNIT_COST[state.u_type[u]]
            spot = free_spot(state, u, cell)
            state.u_holder[u] = -1
            state.emit("rescued", unit=u, cell=spot, tokens=UNIT_COST[state.u_type[u]], player=player)
            if spot >= 0:
                state.put(u, spot)
                freed.append(spot)
            else:
                state.remove(u)
        else:
            state.u_holder[u] = player
    return freed


def free_spot(state: GameState, u: int, cell: int) -> int:
    """The nearest hex where a freed unit can stand (ties: lowest hex number), or -1."""
    dist = state.gmap.board.dist[cell]
    best = -1
    for c in range(len(dist)):
        if can_stand(state, u, c) and (best < 0 or dist[c] < dist[best]):
            best = c
    return best


def breachers(state: GameState, player: int, cell: int) -> list[int]:
    """Own units on ``cell`` able to breach (not yet breached, upright or in an activation), one
    per type (a unit in an activation first, then the lowest-numbered): the player picks one."""
    active = {a.unit for a in state.stack}
    return one_per_hex_and_type(state, [
        u for u in positions(state.u_cell, cell)
        if state.u_owner[u] == player and state.u_where[u] == ON_BOARD and may_breach(state, u, active)])


def may_breach(state: GameState, u: int, active: set[int]) -> bool:
    """Unit ``u`` has not breached this turn and is upright or in an activation (``active``)."""
    f = state.u_flags[u]
    return not f & BREACHED and (not f & SPENT or u in active)


def breach(state: GameState, player: int, unit: int, edge: int) -> bool:
    """Attempt to breach the wall on ``edge``; True if it falls."""
    n = state.breaches.get(edge, 0) + 1
    state.breaches[edge] = n
    dice = UNIT_COST[state.u_type[unit]]
    if n >= state.config.attrition_attacks:
        dice += state.config.attrition_bonus
    rolls = state.roll_dice(dice)
    ok = min(rolls) <= BREACH_HIT_MAX
    state.u_flags[unit] |= BREACHED
    owner = state.walls[edge]
    if ok:
        state.walls[edge] = -1
    state.emit("breach", edge=edge, unit=unit, owner=owner, dice=rolls, success=ok, player=player)
    return ok


def dischargeable(state: GameState, player: int, cell: int, utype: int) -> int:
    """A land unit of this type at ``cell`` (standing or aboard) not in an activation, or -1."""
    active = {a.unit for a in state.stack}
    for u in positions(state.u_cell, cell):
        if (state.u_owner[u] == player and state.u_type[u] == utype
                and state.u_where[u] in (ON_BOARD, LOADED) and u not in active):
            return u
    return -1
