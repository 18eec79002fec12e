"""Free actions that do not count towards a unit's two: seize, breach, discharge and recruit.

Rules implemented here (Additional Unit Actions, Walls > Breaching, Results > Rescue, Objective):
- Seize: "Players may seize opponent developments and artillery if they are located on or
  adjacent to any hex occupied by one of their units and it is undefended." The owner's units
  on the hex must be defeated first; his units on a hex "adjacent to both the attacker and" the
  piece may defend it when the seizure is declared (Defend: his choice, asked of him). "If the
  development is defended, the attacking player must first defeat all defenders" (rules v2):
  the seizure stops, and the piece cannot be seized while its defender stands next to it; the
  seizing side defeats it by attacks, under the Tactics rules, and may then try again.
  Freighters defend nothing but themselves; artillery is defended only by knights. Conquer
  tokens equal the development's value, +3 for the owner's last one. The seizing player
  chooses which of his units seizes.
- Rescue: seizing a developed hex frees the seizer's prisoners held there (Rescue tokens), and
  other players' prisoners there become his. They stand on the hex while it has room, else on
  the nearest hexes with room: where, among equally near ones, is the rescuer's choice (v2).
- Seizing Walls: walls on the seized hex change owner unless the hex across the wall is
  occupied by their original owner.
- Breach: a unit next to an opponent wall that has not exhausted its actions (the player's
  choice of unit) rolls its cost in dice; any 1-3 removes the wall; the third attempt on a wall
  adds 2 dice.
- Discharge and Recruit: once per turn, remove a land unit and place a new one of its type on
  or next to a developed hex.
"""

from __future__ import annotations

from .combat import can_stand
from .hexgrid import nearest
from .state import (
    BREACHED, CHOOSE_RESCUE_SPOT, LOADED, ON_BOARD, PRISONER, SPENT, SRC_CONQUER, SRC_RESCUE, GameState,
    count_of, positions,
)
from .stats import BREACH_HIT_MAX, DEV_COST, CAVALRY, FREIGHTER, LAND_TYPES, NO_DEV, UNIT_COST
from .tokens import check_complex, check_wall_awards

LAST_DEVELOPMENT_BONUS = 3


def seizers(state: GameState, player: int, target: int) -> list[int]:
    """Own units from whose hex the pieces on ``target`` can be seized, ascending: the player
    picks one (by hex and type, then among the unalike: ``variants``)."""
    cells = seize_sources(state, player, target, guard_cells(state, state.cell_player[target]),
                          seizer_cells(state, player))
    if not cells:
        return []
    return [u for u in _seizing_units(state, player) if state.u_cell[u] in cells]


def _seizing_units(state: GameState, player: int) -> list[int]:
    """Units of the player that may seize: on the board, not freighters."""
    return [u for u in range(state.n_units)
            if state.u_owner[u] == player and state.u_where[u] == ON_BOARD and state.u_type[u] != FREIGHTER]


def seizer_cells(state: GameState, player: int) -> set[int]:
    """Hexes of the player's units that may seize."""
    return {state.u_cell[u] for u in _seizing_units(state, player)}


def guard_cells(state: GameState, owner: int) -> tuple[set[int], set[int]]:
    """Hexes of the owner's units that defend: (any unit but a freighter, knights only).

    Developments are defended by the first kind, artillery alone by the second. Kept in the
    state between decisions (``GameState.guards_memo``) under the ``unit_stamp`` they were
    worked out under, and shared by the legal list and the bots: callers never change the sets.
    ``owner`` -1 (an empty hex's holder) guards nothing, and reads or writes no player's memo."""
    if owner < 0:
        return set(), set()
    memo = state.guards_memo[owner]
    if memo is not None and memo[0] == state.unit_stamp:
        return memo[1]
    fighters: set[int] = set()
    knights: set[int] = set()
    for u in range(state.n_units):
        if state.u_owner[u] != owner or state.u_where[u] != ON_BOARD:
            continue
        t = state.u_type[u]
        if t != FREIGHTER:
            fighters.add(state.u_cell[u])
            if t <= CAVALRY:  # a knight (LAND_TYPES)
                knights.add(state.u_cell[u])
    out = (fighters, knights)
    state.guards_memo[owner] = (state.unit_stamp, out)
    return out


def seize_sources(state: GameState, player: int, target: int, guards: tuple[set[int], set[int]],
                  mine: set[int]) -> list[int]:
    """Hexes next to ``target`` from which ``player``'s units may seize its pieces; empty when
    nothing there can be seized. ``guards``: :func:`guard_cells` of the target's holder
    (``state.cell_player[target]``); ``mine``: the hexes of ``player``'s units that may seize
    (:func:`seizer_cells`).

    The owner's units on the hex itself must be defeated first (attacked: they hold the hex);
    his units on a hex next to both may step in when the seizure is declared (Defend), a
    choice asked of him then (:func:`guard_options`)."""
    owner = state.cell_player[target]
    if owner == -1 or owner == player or (state.dev_owner[target] != owner and state.art_owner[target] != owner):
        return []
    if still_defended(state, target):
        return []
    fighters, knights = guards
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


def still_defended(state: GameState, target: int) -> bool:
    """The piece on ``target`` was defended this turn and its defender still stands next to it,
    the piece's owner's: "the attacking player must first defeat all defenders"."""
    g = state.defended.get(target, -1)
    if g < 0 or state.u_where[g] != ON_BOARD or state.u_owner[g] != state.cell_player[target]:
        return False
    return state.gmap.board.dist[target][state.u_cell[g]] == 1


def guard_options(state: GameState, target: int, origin: int) -> list[int]:
    """Defend: the owner's units that may defend the development or artillery on ``target``
    against a seizure from ``origin``: "located on a hex adjacent to both the attacker and" the
    piece; any unit but a freighter for a development, knights alone for artillery. Every such
    unit, in hex, type and unit order."""
    owner = state.cell_player[target]
    artillery_only = state.dev_type[target] == NO_DEV
    dist_o = state.gmap.board.dist[origin]
    u_where, u_owner, u_type = state.u_where, state.u_owner, state.u_type
    out: list[tuple[int, int, int]] = []
    for h in state.gmap.board.neighbours[target]:
        if h < 0 or h == origin or dist_o[h] != 1 or state.cell_player[h] != owner:
            continue
        for u in positions(state.u_cell, h):
            t = u_type[u]
            if (u_where[u] == ON_BOARD and u_owner[u] == owner and t != FREIGHTER
                    and (t in LAND_TYPES or not artillery_only)):
                out.append((h, t, u))
    return [u for _, _, u in sorted(out)]


def seize(state: GameState, player: int, target: int) -> tuple[int, list[int]]:
    """Seize the development and artillery on ``target``. Returns the player who lost them and
    the hexes where rescued prisoners now stand."""
    owner = state.cell_player[target]
    board = state.gmap.board
    dev = state.dev_type[target]
    if state.art_owner[target] == owner:
        state.set_artillery(target, player)
    if dev != NO_DEV:
        last = count_of(state.dev_owner, owner) == 1
        state.set_development(target, dev, player)
        gain = DEV_COST[dev] + (LAST_DEVELOPMENT_BONUS if last else 0)
        state.earn(player, SRC_CONQUER, gain)
        state.emit("seized", dict(cell=target, dev=dev, owner=owner, tokens=gain, last=last, player=player))
        freed = _rescue(state, player, target)
        converted = False
        for d in range(6):
            e = board.edge[target][d]
            n = board.neighbours[target][d]
            if state.walls[e] == owner and (n < 0 or state.cell_player[n] != owner):
                state.walls[e] = player
                converted = True
        if converted:
            state.mark_walls()
            check_wall_awards(state, player)
        check_complex(state, player)  # counts only what he built: taking back his own fort may complete it
    else:
        freed = []
        state.emit("seized_artillery", dict(cell=target, owner=owner, player=player))
    return owner, freed


def _rescue(state: GameState, player: int, cell: int) -> list[int]:
    """Rescue: the player's prisoners held on ``cell`` go free (Rescue tokens); the others' become
    his. A freed unit with one place to stand is put there now; with several equally near, the
    rescuer is asked where once the decision is over (``state.asks``). Returns where they stand."""
    freed = []
    for u in range(state.n_units):
        if state.u_where[u] != PRISONER or state.u_cell[u] != cell:
            continue
        if state.u_owner[u] != player:
            state.u_holder[u] = player
            state.mark_units()
            continue
        state.earn(player, SRC_RESCUE, UNIT_COST[state.u_type[u]])
        state.u_holder[u] = -1  # free, standing nowhere yet
        state.mark_units()
        spots = rescue_spots(state, u, cell)
        state.emit("rescued", dict(unit=u, cell=spots[0] if spots else -1, tokens=UNIT_COST[state.u_type[u]],
                                        player=player))
        if len(spots) > 1:
            state.asks.append([CHOOSE_RESCUE_SPOT, player, u, cell])
        elif spots:
            state.put(u, spots[0])
            freed.append(spots[0])
        else:
            state.remove(u)
    return freed


def rescue_spots(state: GameState, u: int, cell: int) -> list[int]:
    """Where a freed unit may stand: the hexes with room for it nearest to ``cell`` (the seized
    hex itself first), ascending; empty if none."""
    return nearest(state.gmap.board.dist[cell], [c for c in range(state.n_cells) if can_stand(state, u, c)])


def breachers(state: GameState, player: int, cell: int) -> list[int]:
    """Own units on ``cell`` able to breach (not yet breached, upright or in an activation),
    ascending: the player picks one."""
    active = {a.unit for a in state.stack}
    return [u for u in positions(state.u_cell, cell)
            if state.u_owner[u] == player and state.u_where[u] == ON_BOARD and may_breach(state, u, active)]


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
    state.mark_units()
    owner = state.walls[edge]
    if ok:
        state.walls[edge] = -1
        state.mark_walls()
    state.emit("breach", dict(edge=edge, unit=unit, owner=owner, dice=rolls, success=ok, player=player))
    return ok


def dischargeable(state: GameState, player: int, cell: int, utype: int) -> list[int]:
    """The player's land units of this type at ``cell`` (standing or aboard) not in an
    activation, ascending."""
    active = {a.unit for a in state.stack}
    return [u for u in positions(state.u_cell, cell)
            if state.u_owner[u] == player and state.u_type[u] == utype
            and state.u_where[u] in (ON_BOARD, LOADED) and u not in active]
