"""The game: setup, applying one decision, retaliation, and the flow of turns, rounds and phases.

Public API (no gymnasium or PettingZoo here)::

    state = new_game(load_map("duel"), RulesConfig(), seed=7)
    while not state.is_over:
        action = random.choice(legal_actions(state))
        apply_action(state, action)
    print(state.tokens, winners(state))

``apply_action`` validates first: an illegal decision raises :class:`IllegalActionError` naming
the decision and the reason, and the state is untouched. Handlers are one per verb, each named
after the rule it carries out. Retaliation (Retaliation section) is an interrupt: when the
active unit's activation ends and it made players lose a battle or a development,
``current_player`` becomes each such player in turn, who may activate one unit with 1 silver.
"""

from __future__ import annotations

from typing import Any

from . import actions as A
from .building import ARTILLERY_SLOT
from .combat import (
    attack_dice, can_stand, check_surrender, close_combat, defeat, defender_at, direction_from,
    hex_cleared, ranged_hit, ranged_targets,
)
from .config import RulesConfig
from .free_actions import breach, breacher, dischargeable, seize, seizers
from .legal import hexes_for, legal_codes, may_battle_move, nested_ok, open_verbs
from .movement import freighter_with_room, reach
from .state import (
    BATTLE, BUILD, LOADED, MOVE_DONE, MOVE_IN_PROGRESS, MOVE_UNUSED, ON_BOARD, OVER, PHASE_NAMES,
    SPENT, Activation, GameState,
)
from .stats import (
    ARTILLERY_COST, DEV_COST, DEV_NAMES, FREIGHTER, IS_SHIP, LAND_TYPES, STARTING_SHIPS,
    UNIT_COST, UNIT_MOVEMENT, UNIT_NAMES, UNIT_RANGE, WALL_COST,
)
from .tokens import check_complex, check_wall_awards, end_awards


class IllegalActionError(ValueError):
    """A decision that the rules do not allow now; the state was not changed."""


def new_game(gmap: Any, config: RulesConfig | None = None, seed: int = 0) -> GameState:
    """Set up a game: starting units in reserve, freighters loaded, the winds flipped."""
    config = config or RulesConfig()
    board = gmap.board
    state = GameState(gmap, config, board.n_cells, board.n_edges)
    state.rng = int(seed) & ((1 << 64) - 1)
    # "Determine the direction of prevailing [winds] by flipping the Prevailing Winds Token."
    state.wind = 1 if state.roll() <= 3 else -1
    for p in range(state.n_players):
        loads = iter(config.freighter_loads)
        for t in STARTING_SHIPS:
            u = state.add_unit(p, t)
            if t == FREIGHTER:
                for land in next(loads):
                    state.add_unit(p, land, where=LOADED, carrier=u)
    state.emit("setup", wind="clockwise" if state.wind > 0 else "counter-clockwise", seed=seed, player=-1)
    return state


def legal_actions(state: GameState) -> list[int]:
    """Engine codes of every decision the current player may make now (sorted)."""
    return legal_codes(state)


def apply_action(state: GameState, code: int, legal: Any = None) -> None:
    """Apply one decision of the current player, or raise IllegalActionError and change nothing.

    ``legal``: optionally what ``legal_actions(state)`` returned for this very state (a list or
    set); membership in it then replaces re-checking the decision. Anything not in it is still
    checked in full, so the error names the reason.
    """
    n = state.gmap.board.n_cells
    try:
        code = A.as_code(code)
        verb, cell, g = A.decode(code, n)
    except ValueError as e:
        raise IllegalActionError(str(e)) from None
    if legal is None or code not in legal:
        _check(state, code, verb, cell, g)
    state.decisions += 1
    if verb != A.OCCUPY and _own_occupy_chance(state):
        # Any other decision of the victor lets the chance pass; a retaliation that starts
        # right after a seizure (no unit active) leaves it for when his turn resumes.
        state.occupy_unit = state.occupy_cell = -1
    if g == A.END_ACTIVATION:
        end_activation(state)
    elif g == A.END_TURN:
        end_turn(state)
    else:
        HANDLERS[_handler_key(verb)](state, verb, cell)


def _check(state: GameState, code: int, verb: int, cell: int, g: int) -> None:
    """Raise IllegalActionError unless the decision is legal now."""
    verbs, glob, why = open_verbs(state)
    if g >= 0:
        if g not in glob:
            raise IllegalActionError(f"{describe(state, code)}: not allowed now ({why})")
    elif verb not in verbs:
        raise IllegalActionError(f"{describe(state, code)}: not allowed now ({why})")
    elif cell not in hexes_for(state, verb):
        raise IllegalActionError(f"{describe(state, code)}: {explain(state, verb, cell)}")


def _own_occupy_chance(state: GameState) -> bool:
    """The pending occupation (if any) belongs to the player deciding now."""
    return state.occupy_unit < 0 or state.u_owner[state.occupy_unit] == state.current_player


def _handler_key(verb: int) -> int:
    return _HANDLER_START[verb]


# ------------------------------------------------------------------ placement and building
def place_ship(state: GameState, verb: int, cell: int) -> None:
    """Phase 1 - Placement: one ship on a sea hex, then the next player with ships left."""
    me, utype = state.current_player, 3 + verb - A.PLACE
    u = next(u for u, w in enumerate(state.u_where) if w == 3 and state.u_owner[u] == me and state.u_type[u] == utype)
    state.put(u, cell)
    state.emit("place", unit=u, type=UNIT_NAMES[utype], cell=cell)
    _next_placement(state)


def _next_placement(state: GameState) -> None:
    p = state.n_players
    for k in range(1, p + 1):
        q = (state.turn_player + k) % p
        if any(w == 3 and state.u_owner[u] == q and IS_SHIP[state.u_type[u]] for u, w in enumerate(state.u_where)):
            state.turn_player = q
            return
    state.phase, state.round, state.turn_player = BUILD, 0, 0
    _start_turn(state)


def build_unit(state: GameState, verb: int, cell: int) -> None:
    """Build a unit (gold = its cost) on or next to a developed hex, or onto a freighter."""
    me, utype = state.current_player, verb - A.BUILD_UNIT
    state.gold[me] -= UNIT_COST[utype]
    state.built_units += 1
    state.built_types[utype] += 1
    _place_new_unit(state, me, utype, cell)
    state.emit("build", what=UNIT_NAMES[utype], cell=cell)
    check_surrender(state, me, [cell])


def _place_new_unit(state: GameState, me: int, utype: int, cell: int) -> int:
    if utype in LAND_TYPES and state.gmap.is_sea[cell]:
        return state.add_unit(me, utype, where=LOADED, carrier=freighter_with_room(state, cell, me))
    return state.add_unit(me, utype, where=ON_BOARD, cell=cell)


def build_artillery(state: GameState, verb: int, cell: int) -> None:
    me = state.current_player
    state.gold[me] -= ARTILLERY_COST
    state.built_types[ARTILLERY_SLOT] += 1
    state.set_artillery(cell, me)
    state.emit("build", what="artillery", cell=cell)


def build_development(state: GameState, verb: int, cell: int) -> None:
    me, dev = state.current_player, verb - A.BUILD_DEV + 1
    state.gold[me] -= DEV_COST[dev]
    state.set_development(cell, dev, me)
    state.emit("build", what=DEV_NAMES[dev], cell=cell)
    check_complex(state, me)


def build_wall(state: GameState, verb: int, cell: int) -> None:
    me, d = state.current_player, verb - A.BUILD_WALL
    if state.wall_in_hand:
        state.wall_in_hand = False  # the relocated wall goes up again at no cost
    else:
        state.gold[me] -= WALL_COST
    edge = state.gmap.board.edge[cell][d]
    state.walls[edge] = me
    state.emit("build", what="wall", cell=cell, direction=d)
    check_wall_awards(state, me, edge)


def relocate_wall(state: GameState, verb: int, cell: int) -> None:
    """Once per a player's turn, he may deconstruct an existing wall and rebuild it"."""
    d = verb - A.RELOCATE_WALL
    state.walls[state.gmap.board.edge[cell][d]] = -1
    state.wall_in_hand = state.wall_relocated = True
    state.emit("wall_taken_down", cell=cell, direction=d)


# ------------------------------------------------------------------ activation and unit actions
def activate(state: GameState, verb: int, cell: int) -> None:
    """Pay the unit's cost in silver; it gets two unique actions (move, attack)."""
    me, utype = state.current_player, verb - A.ACTIVATE
    top = state.active
    u = min(
        u for u in range(len(state.u_cell))
        if state.u_cell[u] == cell and state.u_type[u] == utype and state.u_owner[u] == me
        and state.u_where[u] in (ON_BOARD, LOADED) and not state.u_flags[u] & SPENT
        and (top is None or nested_ok(state, top.unit, u))
    )
    state.silver[me] -= UNIT_COST[utype]
    state.u_flags[u] |= SPENT
    state.stack.append(Activation(u, UNIT_MOVEMENT[utype], cell))
    if state.retaliator >= 0:
        state.retaliation_used = True
    state.emit("activate", unit=u, type=UNIT_NAMES[utype], cell=cell)


def move(state: GameState, verb: int, cell: int) -> None:
    """Move the active unit; moving into another player's hex in the battle phase is a battle."""
    top = state.active
    u = top.unit
    r = reach(state, u, top.move_left, can_attack=may_battle_move(state, top))
    if top.move == MOVE_UNUSED:
        top.origin = state.u_cell[u]
    if cell in r.battles:
        _battle_move(state, top, r, cell)
        return
    cost = r.stops[cell]
    top.move_left -= cost
    start = state.u_cell[u]
    _relocate(state, u, cell)
    embarked = state.u_where[u] == LOADED
    keeps_moving = (state.u_type[u] == FREIGHTER or embarked) and top.move_left > 0
    top.move = MOVE_IN_PROGRESS if keeps_moving else MOVE_DONE
    state.emit("move", unit=u, frm=start, to=cell, cost=cost)
    check_surrender(state, state.u_owner[u], [cell])


def _relocate(state: GameState, u: int, cell: int) -> None:
    """Put a unit on ``cell``: aboard its own freighter if a knight steps onto sea."""
    if state.u_where[u] == ON_BOARD:
        state.lift(u)
    if state.u_type[u] in LAND_TYPES and state.gmap.is_sea[cell]:
        state.load(u, freighter_with_room(state, cell, state.u_owner[u]))
    else:
        state.put(u, cell)


def move_with_artillery(state: GameState, verb: int, cell: int) -> None:
    """Artillery can be moved by any knight, up to the same movement range as the unit."""
    top = state.active
    u, me = top.unit, state.current_player
    cost = reach(state, u, top.move_left, towing=True).stops[cell]
    start = state.u_cell[u]
    if top.move == MOVE_UNUSED:
        top.origin = start
    state.set_artillery(start, -1)
    state.move_unit(u, cell)
    state.set_artillery(cell, me)
    top.move_left -= cost
    top.move = MOVE_DONE
    state.emit("move", unit=u, frm=start, to=cell, cost=cost, artillery=True)
    check_surrender(state, me, [cell])


def _battle_move(state: GameState, top: Activation, r, cell: int) -> None:
    """Movement into another player's hex: a close-combat battle entered from the best side."""
    u = top.unit
    me = state.u_owner[u]
    board = state.gmap.board
    best_dir, best_bonus = -1, -1
    for d, n in enumerate(board.neighbours[cell]):
        if n < 0 or n not in r.cost or n in r.battles or r.cost[n] > r.battles[cell] - 1:
            continue
        if IS_SHIP[state.u_type[u]] != bool(state.gmap.is_sea[n]) and n != state.u_cell[u]:
            continue
        w = state.walls[board.edge[n][(d + 3) % 6]]
        if w >= 0 and w != me:
            continue
        front = state.front.get(cell, d)
        bonus = min((d - front) % 6, (front - d) % 6)
        if bonus > best_bonus:
            best_dir, best_bonus = d, bonus
    top.move, top.attacked = MOVE_DONE, True
    top.move_left -= r.battles[cell]
    won = _battle(state, u, cell, best_dir, ranged_range=0)
    if won and hex_cleared(state, cell, me) and can_stand(state, u, cell):
        start = state.u_cell[u]
        _relocate(state, u, cell)
        state.emit("move", unit=u, frm=start, to=cell, cost=r.battles[cell])
        check_surrender(state, me, [cell])
    else:
        state.emit("retreat", unit=u, to=state.u_cell[u])


def attack(state: GameState, verb: int, cell: int) -> None:
    """Attack a hex: close combat next door, or a ranged shot along a straight line."""
    top = state.active
    u = top.unit
    me = state.u_owner[u]
    origin = state.u_cell[u]
    rng = ranged_targets(state, me, origin).get(cell, 0) if UNIT_RANGE[state.u_type[u]] else 0
    _end_movement(top)
    top.attacked = True
    won = _battle(state, u, cell, direction_from(state, cell, origin), ranged_range=rng)
    if won and not rng and state.u_where[u] == ON_BOARD and hex_cleared(state, cell, me) and can_stand(state, u, cell):
        state.occupy_unit, state.occupy_cell = u, cell  # "Occupation" is offered next


def fire_artillery(state: GameState, verb: int, cell: int) -> None:
    """Artillery units must be fired by a knight on the same hex" (the knight's attack)."""
    top = state.active
    origin = state.u_cell[top.unit]
    rng = ranged_targets(state, state.current_player, origin)[cell]
    _end_movement(top)
    top.attacked = True
    _battle(state, top.unit, cell, direction_from(state, cell, origin), ranged_range=rng, artillery=True)


def _end_movement(top: Activation) -> None:
    if top.move == MOVE_IN_PROGRESS:
        top.move = MOVE_DONE


def _battle(state: GameState, u: int, cell: int, from_dir: int, ranged_range: int, artillery: bool = False) -> bool:
    """Resolve one battle by unit ``u`` on ``cell``; returns True if the attacker won."""
    me = state.u_owner[u]
    victim = defender_at(state, cell)
    loser = state.u_owner[victim]
    base = ARTILLERY_COST if artillery else UNIT_COST[state.u_type[u]]
    dice = attack_dice(state, base, cell, from_dir, ranged=bool(ranged_range))
    info: dict[str, Any] = dict(unit=u, cell=cell, defender=victim, owner=loser, dice=dice,
                                ranged=ranged_range, artillery=artillery)
    ranged_overwhelm = state.config.ranged_tactics or not ranged_range
    if dice >= state.config.overwhelm_dice and ranged_overwhelm:
        won, info["overwhelm"] = True, True
    elif ranged_range:
        won, info["rolls"] = ranged_hit(state, dice, ranged_range)
    else:
        won, info["rolls"] = close_combat(state, dice, UNIT_COST[state.u_type[victim]])
    info["won"] = won
    state.emit("battle", **info)
    if won:
        defeat(state, victim, me, cell)
        _lost_to_active(state, loser)
    return won


def _lost_to_active(state: GameState, loser: int) -> None:
    """Record a player who lost a battle or a development to the active player (Retaliation)."""
    if state.retaliator >= 0:
        return  # "Battles won by a retaliating player do not trigger additional retaliations."
    if state.stack:
        if loser not in state.stack[0].losers:
            state.stack[0].losers.append(loser)
    elif loser not in state.pending_retaliation:
        state.pending_retaliation.append(loser)
        _next_retaliation(state)


def occupy(state: GameState, verb: int, cell: int) -> None:
    """The attacker may move his victorious unit onto the hex that was attacked"."""
    u = state.occupy_unit
    start = state.u_cell[u]
    state.move_unit(u, cell)
    state.occupy_unit = state.occupy_cell = -1
    state.emit("occupy", unit=u, frm=start, to=cell)
    check_surrender(state, state.u_owner[u], [cell])


# ------------------------------------------------------------------ free actions
def seize_hex(state: GameState, verb: int, cell: int) -> None:
    me = state.current_player
    options = seizers(state, me, cell)
    top = state.active
    unit = top.unit if top is not None and top.unit in options else options[0]
    was_development = state.dev_type[cell] != 0
    loser = seize(state, me, cell)
    if state.retaliator < 0:
        state.seized_this_turn.add(cell)
    if was_development:
        _lost_to_active(state, loser)
    if state.u_type[unit] in LAND_TYPES and can_stand(state, unit, cell) and state.phase != OVER:
        state.occupy_unit, state.occupy_cell = unit, cell


def breach_wall(state: GameState, verb: int, cell: int) -> None:
    me, d = state.current_player, verb - A.BREACH
    breach(state, me, breacher(state, me, cell), state.gmap.board.edge[cell][d])


def discharge(state: GameState, verb: int, cell: int) -> None:
    """Once per turn a player may discharge any land unit ... recruit a new unit of the same type"."""
    me, utype = state.current_player, LAND_TYPES[verb - A.DISCHARGE]
    u = dischargeable(state, me, cell, utype)
    state.remove(u)
    state.discharged = True
    state.recruit_type = utype
    state.emit("discharge", unit=u, cell=cell, type=UNIT_NAMES[utype])


def recruit(state: GameState, verb: int, cell: int) -> None:
    me, utype = state.current_player, state.recruit_type
    state.recruit_type = -1
    u = _place_new_unit(state, me, utype, cell)
    state.emit("recruit", unit=u, cell=cell, type=UNIT_NAMES[utype])
    check_surrender(state, me, [cell])


# ------------------------------------------------------------------ turn flow
def end_activation(state: GameState) -> None:
    """Lay the unit on its side; retaliation follows once no unit of the turn is active."""
    rec = state.stack.pop()
    state.emit("end_activation", unit=rec.unit)
    if state.retaliator >= 0:
        _finish_retaliation(state)
        return
    for p in rec.losers:
        if p not in state.pending_retaliation:
            state.pending_retaliation.append(p)
    if not state.stack:
        _next_retaliation(state)


def end_turn(state: GameState) -> None:
    if state.retaliator >= 0:
        if state.stack:
            state.stack.pop()
        _finish_retaliation(state)
        return
    state.ending_turn = True
    while state.stack:
        end_activation(state)
        if state.retaliator >= 0:
            return
    if state.retaliator < 0:
        _next_retaliation(state)


def _next_retaliation(state: GameState) -> None:
    """Hand the decision to the next player owed a retaliation, or carry on with the turn."""
    if state.stack:
        return
    if state.pending_retaliation:
        p = state.pending_retaliation.pop(0)
        state.retaliator = p
        state.retaliation_used = False
        state.silver[p] = state.config.retaliation_silver
        state.emit("retaliation", player=p, against=state.turn_player)
        return
    if state.ending_turn:
        _finish_turn(state)


def _finish_retaliation(state: GameState) -> None:
    p = state.retaliator
    state.silver[p] = 0
    state.retaliator = -1
    state.emit("retaliation_over", player=p)
    _next_retaliation(state)


def _start_turn(state: GameState) -> None:
    p = state.turn_player
    state.gold[p] = state.config.gold_per_turn
    state.silver[p] = state.config.silver_per_turn
    state.emit("turn", player=p, phase=PHASE_NAMES[state.phase], round=state.round)


def _finish_turn(state: GameState) -> None:
    """Forfeit unspent gold and silver, stand units upright, and pass the turn."""
    p = state.turn_player
    state.gold[p] = state.silver[p] = 0
    state.ending_turn = False
    state.u_flags = [0] * len(state.u_flags)
    state.front.clear()
    state.attacks.clear()
    state.breaches.clear()
    state.seized_this_turn.clear()
    state.built_units = 0
    state.built_types = [0] * 7
    state.wall_in_hand = state.wall_relocated = state.discharged = False
    state.turns_played += 1
    state.turn_player = (p + 1) % state.n_players
    if state.turn_player == 0:
        state.round += 1
        if state.round >= state.config.rounds_per_phase:
            state.round = 0
            state.phase = BATTLE if state.phase == BUILD else OVER
    if state.phase == OVER:
        state.turn_player = 0
        end_awards(state)
        state.emit("game_over", tokens=list(state.tokens), winners=winners(state), player=-1)
        return
    _start_turn(state)


# ------------------------------------------------------------------ results and descriptions
def winners(state: GameState) -> list[int]:
    """Players with the most victory tokens (all of them on a tie)."""
    best = max(state.tokens)
    return [p for p, t in enumerate(state.tokens) if t == best]


def returns(state: GameState) -> list[float]:
    """+1 for each winner and -1 for the others once the game is over; zeros before.
    A tie among all players gives everyone 0."""
    if state.phase != OVER:
        return [0.0] * state.n_players
    w = winners(state)
    if len(w) == state.n_players:
        return [0.0] * state.n_players
    return [1.0 if p in w else -1.0 for p in range(state.n_players)]


def describe(state: GameState, code: int) -> str:
    """A readable description of an engine action code, e.g. "P0: move (2,-1) -> (3,-1)"."""
    board = state.gmap.board
    try:
        verb, cell, g = A.decode(int(code), board.n_cells)
    except (TypeError, ValueError):
        return f"action {code!r}"
    who = f"P{state.current_player}"
    if g >= 0:
        return f"{who}: {A.GLOBAL_NAMES[g]}"
    where = board.coords[cell]
    top = state.active
    if verb in (A.MOVE, A.MOVE_ARTILLERY, A.ATTACK, A.FIRE_ARTILLERY) and top is not None:
        u = top.unit
        return f"{who}: {A.VERB_NAMES[verb]} {UNIT_NAMES[state.u_type[u]]} {board.coords[state.u_cell[u]]} -> {where}"
    return f"{who}: {A.VERB_NAMES[verb]} at {where}"


def explain(state: GameState, verb: int, cell: int) -> str:
    """Why a hex verb the moment allows is not legal on this hex (best effort, never empty)."""
    me = state.current_player
    gmap = state.gmap
    if A.BUILD_UNIT <= verb <= A.BUILD_DEV + 2 and state.gold[me] <= 0:
        return f"no gold left ({state.gold[me]})"
    if A.ACTIVATE <= verb < A.MOVE and state.silver[me] < UNIT_COST[verb - A.ACTIVATE]:
        return f"activation costs {UNIT_COST[verb - A.ACTIVATE]} silver, {state.silver[me]} left"
    if verb in (A.MOVE, A.MOVE_ARTILLERY, A.ATTACK, A.FIRE_ARTILLERY) and state.active is None:
        return "no unit is active"
    if not (gmap.is_land[cell] or gmap.is_sea[cell]):
        return "mountain hexes can not be occupied or built on"
    h = state.cell_player[cell]
    if h >= 0 and h != me and verb not in (A.ATTACK, A.FIRE_ARTILLERY, A.SEIZE, A.MOVE):
        return f"the hex is held by player {h}"
    return f"not legal on hex {gmap.board.coords[cell]} now (range, occupancy, terrain or limits)"


HANDLERS = {
    A.PLACE: place_ship, A.BUILD_UNIT: build_unit, A.BUILD_ARTILLERY: build_artillery,
    A.BUILD_DEV: build_development, A.BUILD_WALL: build_wall, A.RELOCATE_WALL: relocate_wall,
    A.BREACH: breach_wall, A.ACTIVATE: activate, A.MOVE: move,
    A.MOVE_ARTILLERY: move_with_artillery, A.ATTACK: attack, A.FIRE_ARTILLERY: fire_artillery,
    A.OCCUPY: occupy, A.SEIZE: seize_hex, A.DISCHARGE: discharge, A.RECRUIT: recruit,
}
_HANDLER_START = tuple(max(start for start in HANDLERS if start <= v) for v in range(A.N_HEX_VERBS))
