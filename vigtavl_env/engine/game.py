"""The game: setup, applying one decision, retaliation, and the flow of turns, rounds and phases.

Public API (no gymnasium or PettingZoo here)::

    state = new_game(load_map("duel"), RulesConfig(), seed=7)
    while not state.is_over:
        action = random.choice(legal_actions(state))
        apply_action(state, action)
    print(state.tokens, winners(state))

``apply_action`` validates first: an illegal decision raises :class:`IllegalActionError` naming
the decision and the reason, and the state is untouched. Handlers are one per verb, each named
after the rule it carries out. Retaliation (Retaliation section) is an interrupt: as soon as
the active unit has no action left (or its activation is ended) and it made players lose a
battle or a development, ``current_player`` becomes each such player in turn, who may activate
one unit with 1 silver. Choices that belong to another player in the middle of a decision (who
defends an attacked unit or a development about to be seized) are interrupts too:
``state.pending`` holds the question and ``current_player`` is the player it is asked of.
"""

from __future__ import annotations

from typing import Any

from . import actions as A
from .actions import (
    ACTIVATE, ATTACK, ATTACK_FROM, BREACH, BUILD_ARTILLERY, BUILD_DEV,
    BUILD_UNIT, BUILD_WALL, CHOOSE, DISCHARGE, END_ACTIVATION, END_TURN,
    FIRE_ARTILLERY, HOLD_PRISONER, LOAD, MOVE, MOVE_ARTILLERY, NO_DEFENCE, N_HEX_VERBS,
    OCCUPY, PLACE, PLACE_RESCUED, RECRUIT, RELOCATE_WALL, SEIZE, SHOOT, VARIANT, as_code, decode,
)
from .building import ARTILLERY_SLOT
from .combat import (
    attack_dice, can_occupy, can_stand, check_surrender, close_combat, defeat, defender_options,
    direction_from, prison_options, ranged_hit, ranged_targets, tactics_dice,
)
from .config import RulesConfig
from .free_actions import breach, breachers, guard_options, rescue_spots, seize, seizers
from .legal import (
    activation_spent, active_reach, battle_sides, decision_units, hexes_for, legal_codes, open_verbs,
    still_on_board, variant_options,
)
from .movement import Reach, freighter_with_room, reach
from .state import (
    BATTLE, BUILD, CHOOSE_BREACHER, CHOOSE_DEFENDER, CHOOSE_GUARD, CHOOSE_PRISON, CHOOSE_RESCUE_SPOT,
    CHOOSE_SEIZER, CHOOSE_SIDE, CHOOSE_VARIANT, LOADED, MOVE_DONE, MOVE_IN_PROGRESS, MOVE_UNUSED, ON_BOARD,
    OVER, PHASE_NAMES, PRISONER, RESERVE, SPENT, Activation, GameState, Pending, active_of, deciding_player,
)
from .stats import (
    ARTILLERY_COST, DEV_COST, DEV_NAMES, FREIGHTER, FREIGHTER_SPLITS, LAND_TYPES, SHIP_TYPES,
    STARTING_SHIPS, UNIT_COST, UNIT_MOVEMENT, UNIT_NAMES, WALL_COST,
)
from .tokens import check_complex, check_wall_awards, end_awards
from .variants import describe_variant, variant_classes


class IllegalActionError(ValueError):
    """A decision that the rules do not allow now; the state was not changed."""


def new_game(gmap: Any, config: RulesConfig | None = None, seed: int = 0) -> GameState:
    """Set up a game: starting units in reserve, the winds flipped; each player then loads his
    freighters (his first decision), unless the config fixes the loads."""
    config = config or RulesConfig()
    board = gmap.board
    state = GameState(gmap, config, board.n_cells, board.n_edges)
    state.rng = int(seed) & ((1 << 64) - 1)
    # "Determine the direction of prevailing [winds] by flipping the Prevailing Winds Token."
    state.wind = 1 if state.roll() <= 3 else -1
    for p in range(state.n_players):
        for t in STARTING_SHIPS:
            state.add_unit(p, t)
        if config.freighter_loads is not None:
            _load_freighters(state, p, config.freighter_loads)
    if config.freighter_loads is None:
        state.to_load = list(range(state.n_players))  # seat order, before the placement
    state.emit("setup", dict(wind="clockwise" if state.wind > 0 else "counter-clockwise", seed=seed, player=-1))
    return state


def _load_freighters(state: GameState, player: int, loads: tuple[tuple[int, ...], ...]) -> None:
    freighters = [u for u in range(len(state.u_type))
                  if state.u_owner[u] == player and state.u_type[u] == FREIGHTER]
    for f, load in zip(freighters, loads):
        for land in load:
            state.add_unit(player, land, where=LOADED, carrier=f)


def load_freighters(state: GameState, g: int) -> None:
    """Setup: "Each player must load his 2 freighters with 3 land units each": the player
    deciding chooses the split (``FREIGHTER_SPLITS[g - LOAD]``)."""
    p = state.to_load.pop(0)
    split = FREIGHTER_SPLITS[g - LOAD]
    _load_freighters(state, p, split)
    state.emit("load", dict(player=p, loads=[[UNIT_NAMES[t] for t in load] for load in split]))
    state.turn_player = state.to_load[0] if state.to_load else 0


def legal_actions(state: GameState) -> list[int]:
    """Engine codes of every decision the current player may make now (sorted)."""
    return legal_codes(state)


def apply_action(state: GameState, code: int, legal: Any = None) -> None:
    """Apply one decision of the current player, or raise IllegalActionError and change nothing.

    ``legal``: optionally what ``legal_actions(state)`` returned for this very state (a list or
    set); membership in it then replaces re-checking the decision. Anything not in it is still
    checked in full, so the error names the reason.
    """
    n = state.n_cells
    try:
        code = as_code(code)
        verb, cell, g = decode(code, n)
    except ValueError as e:
        raise IllegalActionError(str(e)) from None
    if legal is None or not _listed(code, legal):
        _check(state, code, verb, cell, g)
    state.decisions += 1
    if verb != OCCUPY and state.pending is None and _own_occupy_chance(state):
        # Any other decision of the victor lets the chance pass (answering a question his own
        # decision raised does not); a retaliation that starts right after a seizure (no unit
        # active) leaves it for when his turn resumes.
        state.occupy_unit = state.occupy_cell = -1
    if g == END_ACTIVATION:
        end_activation(state)
    elif g == END_TURN:
        end_turn(state)
    elif g == NO_DEFENCE:
        no_defence(state)
    elif g >= VARIANT:
        choose_variant(state, g - VARIANT)
    elif g >= LOAD:
        load_freighters(state, g)
    else:
        _handle(state, verb, cell)
    if state.pending is None and state.asks:
        _next_ask(state)
    if (state.pending is None and state.pending_retaliation and not state.stack
            and state.retaliator < 0):
        _next_retaliation(state)  # a loss with no unit active (a seizure): retaliation at once


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


def _listed(code: int, legal: Any) -> bool:
    """``code in legal``, by bisection first when ``legal`` is a list (``legal_actions`` lists
    ascend): found there, it is listed whatever the order; not found, the plain test decides."""
    if type(legal) is list:
        try:
            if _in_ascending(code, legal):
                return True
        except OverflowError:
            pass  # an int past the C range in the list (compiled build): the plain test decides
    return code in legal


def _in_ascending(code: int, legal: list) -> bool:
    """``code`` found by bisection in ``legal``, read as ascending ints (an element that is not
    an int ends the search: not found). In the compiled build the comparisons are C ones."""
    lo, hi = 0, len(legal)
    while lo < hi:
        mid = (lo + hi) >> 1
        item = legal[mid]
        if type(item) is not int:
            return False
        x = item  # a C integer in the compiled build
        if x < code:
            lo = mid + 1
        else:
            hi = mid
    if lo < len(legal):
        item = legal[lo]
        return type(item) is int and item == code
    return False


def _own_occupy_chance(state: GameState) -> bool:
    """The pending occupation (if any) belongs to the player deciding now."""
    return state.occupy_unit < 0 or state.u_owner[state.occupy_unit] == deciding_player(state)


def _handle(state: GameState, verb: int, cell: int) -> None:
    """Carry out a hex verb by the rule that owns its span (the verbs of a span, such as the six
    wall directions, share one rule); the most frequent verbs first. C calls when compiled."""
    k = _HANDLER_START[verb]
    if k == MOVE:
        move(state, verb, cell)
    elif k == ACTIVATE:
        activate(state, verb, cell)
    elif k == BUILD_WALL:
        build_wall(state, verb, cell)
    elif k == BUILD_UNIT:
        build_unit(state, verb, cell)
    elif k == BUILD_DEV:
        build_development(state, verb, cell)
    elif k == PLACE:
        place_ship(state, verb, cell)
    elif k == ATTACK:
        attack(state, verb, cell)
    elif k == CHOOSE:
        choose(state, verb, cell)
    elif k == SEIZE:
        seize_hex(state, verb, cell)
    elif k == OCCUPY:
        occupy(state, verb, cell)
    elif k == DISCHARGE:
        discharge(state, verb, cell)
    elif k == RECRUIT:
        recruit(state, verb, cell)
    elif k == BREACH:
        breach_wall(state, verb, cell)
    elif k == SHOOT:
        shoot(state, verb, cell)
    elif k == FIRE_ARTILLERY:
        fire_artillery(state, verb, cell)
    elif k == MOVE_ARTILLERY:
        move_with_artillery(state, verb, cell)
    elif k == ATTACK_FROM:
        attack_from(state, verb, cell)
    elif k == HOLD_PRISONER:
        hold_prisoner(state, verb, cell)
    elif k == PLACE_RESCUED:
        place_rescued(state, verb, cell)
    elif k == BUILD_ARTILLERY:
        build_artillery(state, verb, cell)
    else:
        relocate_wall(state, verb, cell)


# ------------------------------------------------------------------ placement and building
def _pick(state: GameState, verb: int, cell: int, parent: Pending | None = None) -> int:
    """The unit a decision acts on, among those it names by hex and type
    (``legal.decision_units``): the only one, or the lowest-numbered of alike ones; when they
    differ (upright or spent, cargo), -1, and the player is asked which (CHOOSE_VARIANT)."""
    me = parent.player if parent is not None else deciding_player(state)
    classes = variant_classes(state, decision_units(state, me, verb, cell, parent))
    if len(classes) == 1:
        return classes[0][0]
    state.pending = Pending(CHOOSE_VARIANT, me, -1, cell, extra=verb, parent=parent)
    return -1


def choose_variant(state: GameState, k: int) -> None:
    """The answer to CHOOSE_VARIANT: the decision that asked goes on with the k-th class."""
    pend = state.pending
    u = variant_options(state)[k][0]
    state.pending = None
    verb, cell = pend.extra, pend.cell
    if pend.parent is not None:
        _answer_choice(state, pend.parent, cell, u)
    elif PLACE <= verb < PLACE + 3:
        _place_unit(state, u, cell)
    elif ACTIVATE <= verb < MOVE:
        _activate_unit(state, u, cell)
    elif DISCHARGE <= verb < DISCHARGE + 3:
        _discharge_unit(state, u, cell)
    elif verb == MOVE:
        _move_to(state, cell, u)
    elif verb == RECRUIT:
        _recruit_onto(state, cell, u)
    else:  # BUILD_UNIT + a knight's type, onto a freighter
        _build_unit_onto(state, verb - BUILD_UNIT, cell, u)


def place_ship(state: GameState, verb: int, cell: int) -> None:
    """Phase 1 - Placement: "places one of any of his ships on any sea hex" (which freighter,
    when their loads differ, is his choice), then the next player with ships left."""
    u = _pick(state, verb, cell)
    if u >= 0:
        _place_unit(state, u, cell)


def _place_unit(state: GameState, u: int, cell: int) -> None:
    utype = state.u_type[u]
    state.put(u, cell)
    state.emit("place", dict(unit=u, type=UNIT_NAMES[utype], cell=cell))
    _next_placement(state)


def _first_in_reserve(state: GameState, player: int, utype: int) -> int:
    """The lowest-numbered unit of this type the player still has in reserve, or -1."""
    for u in range(state.n_units):
        if state.u_where[u] == RESERVE and state.u_owner[u] == player and state.u_type[u] == utype:
            return u
    return -1


def _next_placement(state: GameState) -> None:
    p = state.n_players
    for k in range(1, p + 1):
        q = (state.turn_player + k) % p
        for t in SHIP_TYPES:
            if _first_in_reserve(state, q, t) >= 0:
                state.turn_player = q
                return
    state.phase, state.round, state.turn_player = BUILD, 0, 0
    _start_turn(state)


def build_unit(state: GameState, verb: int, cell: int) -> None:
    """Build a unit (gold = its cost) on or next to a developed hex, or onto a freighter (which
    one, when his freighters there differ, is the player's choice)."""
    utype, freighter = verb - BUILD_UNIT, -1
    if _onto_freighter(state, utype, cell):
        freighter = _pick(state, verb, cell)
        if freighter < 0:
            return
    _build_unit_onto(state, utype, cell, freighter)


def _build_unit_onto(state: GameState, utype: int, cell: int, freighter: int) -> None:
    me = deciding_player(state)
    state.gold[me] -= UNIT_COST[utype]
    state.built_units += 1
    state.built_types[utype] += 1
    _place_new_unit(state, me, utype, cell, freighter)
    state.emit("build", dict(what=UNIT_NAMES[utype], cell=cell))
    check_surrender(state, me)


def _onto_freighter(state: GameState, utype: int, cell: int) -> bool:
    """A knight put on a sea hex goes aboard a freighter there."""
    return utype in LAND_TYPES and bool(state.gmap.is_sea[cell])


def _place_new_unit(state: GameState, me: int, utype: int, cell: int, freighter: int) -> int:
    if _onto_freighter(state, utype, cell):
        return state.add_unit(me, utype, where=LOADED, carrier=freighter)
    return state.add_unit(me, utype, where=ON_BOARD, cell=cell)


def build_artillery(state: GameState, verb: int, cell: int) -> None:
    me = deciding_player(state)
    state.gold[me] -= ARTILLERY_COST
    state.built_types[ARTILLERY_SLOT] += 1
    state.set_artillery(cell, me)
    state.emit("build", dict(what="artillery", cell=cell))
    check_surrender(state, me)


def build_development(state: GameState, verb: int, cell: int) -> None:
    me, dev = deciding_player(state), verb - BUILD_DEV + 1
    state.gold[me] -= DEV_COST[dev]
    state.set_development(cell, dev, me)
    state.dev_builder[cell] = me
    state.mark_developments()
    state.emit("build", dict(what=DEV_NAMES[dev], cell=cell))
    check_complex(state, me)
    check_surrender(state, me)


def build_wall(state: GameState, verb: int, cell: int) -> None:
    me, d = deciding_player(state), verb - BUILD_WALL
    if state.wall_in_hand:
        state.wall_in_hand = False  # the relocated wall goes up again at no cost
    else:
        state.gold[me] -= WALL_COST
    edge = state.nbr_edge[cell * 6 + d]
    state.walls[edge] = me
    state.wall_builder[edge] = me
    state.mark_walls()
    state.emit("build", dict(what="wall", cell=cell, direction=d))
    check_wall_awards(state, me, edge)
    # A wall closes a way: the check catches rings it completes (the builder's own units too).
    check_surrender(state, me)


def relocate_wall(state: GameState, verb: int, cell: int) -> None:
    """Once per a player's turn, he may deconstruct an existing wall and rebuild it"."""
    d = verb - RELOCATE_WALL
    edge = state.nbr_edge[cell * 6 + d]
    state.walls[edge] = state.wall_builder[edge] = -1
    state.mark_walls()
    state.wall_in_hand = state.wall_relocated = True
    state.emit("wall_taken_down", dict(cell=cell, direction=d))


# ------------------------------------------------------------------ activation and unit actions
def activate(state: GameState, verb: int, cell: int) -> None:
    """Pay the unit's cost in silver; it gets two unique actions (move, attack). Which unit,
    when those of the type on the hex differ (a freighter's cargo, a knight's freighter), is the
    player's choice."""
    u = _pick(state, verb, cell)
    if u >= 0:
        _activate_unit(state, u, cell)


def _activate_unit(state: GameState, u: int, cell: int) -> None:
    me, utype = deciding_player(state), state.u_type[u]
    state.silver[me] -= UNIT_COST[utype]
    state.u_flags[u] |= SPENT
    state.stack.append(Activation(u, UNIT_MOVEMENT[utype], cell))
    state.mark_units()
    if state.retaliator >= 0:
        state.retaliation_used = True
    state.emit("activate", dict(unit=u, type=UNIT_NAMES[utype], cell=cell))


def move(state: GameState, verb: int, cell: int) -> None:
    """Move the active unit; moving into another player's hex in the battle phase is a battle.
    A knight moving onto a sea hex boards a freighter there (which one, when they differ, is the
    player's choice)."""
    top = active_of(state)
    u = top.unit
    r = active_reach(state, top)
    if top.move == MOVE_UNUSED:
        top.origin = state.u_cell[u]
    if r.is_battle(cell):
        sides = battle_sides(state, top, r, cell)
        if len(sides) == 1:
            _battle_move(state, top, cell, sides[0], r.cost_of(sides[0]) + 1)
        else:  # Feint: the side it attacks from sets the front; the mover chooses it
            state.pending = Pending(CHOOSE_SIDE, state.u_owner[u], u, cell)
        return
    freighter = -1
    if _onto_freighter(state, state.u_type[u], cell):
        freighter = _pick(state, MOVE, cell)
        if freighter < 0:
            return
    _move_to(state, cell, freighter, r)


def _move_to(state: GameState, cell: int, freighter: int, r: Reach | None = None) -> None:
    """The active unit's move to ``cell`` (aboard ``freighter`` if a knight onto sea); ``r``: its
    reach in this very state, when the caller has it."""
    top = active_of(state)
    u = top.unit
    if r is None:
        r = active_reach(state, top)
    cost = r.cost_of(cell)  # a stop (the move is legal)
    top.move_left -= cost
    top.rode |= r.is_windy(cell)
    start = state.u_cell[u]
    _relocate(state, u, cell, freighter)
    embarked = state.u_where[u] == LOADED
    keeps_moving = (state.u_type[u] == FREIGHTER or embarked) and top.move_left > 0
    top.move = MOVE_IN_PROGRESS if keeps_moving else MOVE_DONE
    state.emit("move", dict(unit=u, frm=start, to=cell, cost=cost))
    check_surrender(state, state.u_owner[u])
    _after_unit_action(state)


def attack_from(state: GameState, verb: int, cell: int) -> None:
    """The mover's answer to CHOOSE_SIDE: the hex its battle move enters the enemy hex from."""
    top, pend = active_of(state), state.pending
    state.pending = None
    r = reach(state, top.unit, top.move_left, towing=False, can_attack=True, wind=not top.rode)
    _battle_move(state, top, pend.cell, cell, r.cost_of(cell) + 1)


def _relocate(state: GameState, u: int, cell: int, freighter: int = -1) -> None:
    """Put a unit on ``cell``: aboard ``freighter`` (else the first of his with room) if a
    knight steps onto sea."""
    if state.u_where[u] == ON_BOARD:
        state.lift(u)
    if state.u_type[u] in LAND_TYPES and state.gmap.is_sea[cell]:
        state.load(u, freighter if freighter >= 0 else freighter_with_room(state, cell, state.u_owner[u]))
    else:
        state.put(u, cell)


def move_with_artillery(state: GameState, verb: int, cell: int) -> None:
    """Artillery can be moved by any knight, up to the same movement range as the unit."""
    top = active_of(state)
    u, me = top.unit, deciding_player(state)
    cost = reach(state, u, top.move_left, towing=True).cost_of(cell)  # a stop (the move is legal)
    start = state.u_cell[u]
    if top.move == MOVE_UNUSED:
        top.origin = start
    state.set_artillery(start, -1)
    state.move_unit(u, cell)
    state.set_artillery(cell, me)
    top.move_left -= cost
    top.move = MOVE_DONE
    state.emit("move", dict(unit=u, frm=start, to=cell, cost=cost, artillery=True))
    check_surrender(state, me)
    _after_unit_action(state)


def _battle_move(state: GameState, top: Activation, cell: int, side: int, cost: int) -> None:
    """Movement into another player's hex: a close-combat battle entered from ``side``."""
    top.move, top.attacked = MOVE_DONE, True
    top.move_left -= cost
    state.emit("battle_move", dict(unit=top.unit, cell=cell, side=side, cost=cost))
    _declare_battle(state, top.unit, cell, side, 0, False, battle_move=True)


def attack(state: GameState, verb: int, cell: int) -> None:
    """Close combat: "Units can attack opponents in the same or adjacent hexes" (any unit)."""
    top = active_of(state)
    _end_movement(top)
    top.attacked = True
    _declare_battle(state, top.unit, cell, state.u_cell[top.unit], 0, False)


def shoot(state: GameState, verb: int, cell: int) -> None:
    """A ranged attack along a straight line (archers, galleons)."""
    _ranged_attack(state, cell, artillery=False)


def fire_artillery(state: GameState, verb: int, cell: int) -> None:
    """Artillery units must be fired by a knight on the same hex" (the knight's attack)."""
    _ranged_attack(state, cell, artillery=True)


def _ranged_attack(state: GameState, cell: int, artillery: bool) -> None:
    top = active_of(state)
    origin = state.u_cell[top.unit]
    reach = ranged_targets(state, deciding_player(state), origin)[cell]
    _end_movement(top)
    top.attacked = True
    _declare_battle(state, top.unit, cell, origin, reach, artillery)


def _end_movement(top: Activation) -> None:
    if top.move == MOVE_IN_PROGRESS:
        top.move = MOVE_DONE


def _declare_battle(state: GameState, u: int, cell: int, origin: int, reach: int, artillery: bool,
                    battle_move: bool = False) -> None:
    """An attack by ``u`` from ``origin`` on ``cell``: the defending player chooses which unit
    defends (Defend), out of turn, when he has more than one unalike unit that may; then the
    battle."""
    options = defender_options(state, cell, origin, state.u_owner[u])
    if len(_alike_groups(state, options)) == 1:
        _resolve_battle(state, u, cell, origin, reach, artillery, battle_move, options[0])
        return
    owner = state.cell_player[cell]
    state.pending = Pending(CHOOSE_DEFENDER, owner, u, cell, origin, reach, 1 if battle_move else -1, artillery)
    state.emit("defend_asked", dict(unit=u, cell=cell, origin=origin, player=owner))


def _resolve_battle(state: GameState, u: int, cell: int, origin: int, reach: int, artillery: bool,
                    battle_move: bool, defender: int) -> None:
    """The battle with the chosen defender, then what it leads to: the battle move stands on
    the won hex or stays where its move began (Retreat); any other victor next to a hex with
    no enemy units left may occupy it (Occupation)."""
    me = state.u_owner[u]
    won = _battle(state, u, cell, direction_from(state, cell, origin), reach, artillery, defender)
    if battle_move:
        if won and can_occupy(state, u, cell):
            start = state.u_cell[u]
            _take_pieces(state, me, cell)
            _relocate(state, u, cell)
            state.emit("move", dict(unit=u, frm=start, to=cell, cost=0))
            check_surrender(state, me)
        else:
            state.emit("retreat", dict(unit=u, to=state.u_cell[u]))
    elif (won and state.u_where[u] in (ON_BOARD, LOADED)
          and state.gmap.board.dist[state.u_cell[u]][cell] == 1 and can_occupy(state, u, cell)):
        state.occupy_unit, state.occupy_cell = u, cell  # "Occupation" is offered next
    _after_unit_action(state)


def _battle(state: GameState, u: int, cell: int, from_dir: int, ranged_range: int, artillery: bool,
            victim: int) -> bool:
    """Resolve one battle by unit ``u`` on ``cell`` against ``victim``; True if the attacker won."""
    me = state.u_owner[u]
    loser = state.u_owner[victim]
    base = ARTILLERY_COST if artillery else UNIT_COST[state.u_type[u]]
    flank, attrition = tactics_dice(state, cell, from_dir, bool(ranged_range))
    dice = attack_dice(state, base, cell, from_dir, ranged=bool(ranged_range))
    info: dict[str, Any] = dict(unit=u, cell=cell, defender=victim, owner=loser, dice=dice,
                                ranged=ranged_range, artillery=artillery, at=state.u_cell[victim],
                                flank=flank, attrition=attrition)
    ranged_overwhelm = state.config.ranged_tactics or not ranged_range
    if dice >= state.config.overwhelm_dice and ranged_overwhelm:
        won, info["overwhelm"] = True, True
    elif ranged_range:
        won, info["rolls"] = ranged_hit(state, dice, ranged_range)
    else:
        won, info["rolls"] = close_combat(state, dice, UNIT_COST[state.u_type[victim]])
    info["won"] = won
    state.emit("battle", info)
    if won:
        defeat(state, victim, me, state.u_cell[victim])
        _lost_to_active(state, loser)
    return won


def _after_unit_action(state: GameState) -> None:
    """Retaliation timing: once the active unit "has expended all its actions" (both used, or
    none possible) its activation ends at once, retaliation following; only the occupation its
    attack won may still be decided (``Activation.done``). Nested activations (the freighter
    exception) end one by one."""
    while state.pending is None and state.stack:
        top = state.stack[-1]
        if not activation_spent(state, top):
            return
        if state.occupy_unit == top.unit and hexes_for(state, OCCUPY):
            top.done = True
            return
        end_activation(state)


def _alike_groups(state: GameState, units: list[int]) -> list[list[int]]:
    """``units`` grouped by hex, type and variant: one group means no real choice."""
    by_hex_type: dict[tuple[int, int], list[int]] = {}
    for u in units:
        by_hex_type.setdefault((state.u_cell[u], state.u_type[u]), []).append(u)
    out = []
    for key in sorted(by_hex_type):
        out += variant_classes(state, by_hex_type[key])
    return out


def _lost_to_active(state: GameState, loser: int) -> None:
    """Record a player who lost a battle or a development to the active player (Retaliation);
    with no unit active the retaliation comes when the decision is over (``apply_action``)."""
    if state.retaliator >= 0:
        return  # "Battles won by a retaliating player do not trigger additional retaliations."
    if state.stack:
        if loser not in state.stack[0].losers:
            state.stack[0].losers.append(loser)
    elif loser not in state.pending_retaliation:
        state.pending_retaliation.append(loser)


def occupy(state: GameState, verb: int, cell: int) -> None:
    """The attacker may move his victorious unit onto the hex that was attacked if no enemy
    units remain"; a development or artillery still there becomes his, as by a seizure."""
    u = state.occupy_unit
    me = state.u_owner[u]
    start = state.u_cell[u]
    _take_pieces(state, me, cell)
    _relocate(state, u, cell)
    state.occupy_unit = state.occupy_cell = -1
    state.emit("occupy", dict(unit=u, frm=start, to=cell))
    check_surrender(state, me)
    _after_unit_action(state)


def _take_pieces(state: GameState, me: int, cell: int) -> None:
    """Artillery: "If an opponent defeats all knights on the hex where an artillery is located,
    he may occupy the hex and use the artillery for himself": occupying a hex takes what
    stands on it, with the tokens and effects of a seizure."""
    if state.cell_player[cell] in (-1, me):
        return
    was_development = state.dev_type[cell] != 0
    state.occ[cell] += 1  # the occupier's room: rescued prisoners stand elsewhere if it is full
    loser, freed = seize(state, me, cell)
    state.occ[cell] -= 1
    if state.retaliator < 0:
        state.seized_this_turn.add(cell)
    if was_development:
        _lost_to_active(state, loser)
    return freed


# ------------------------------------------------------------------ free actions
def seize_hex(state: GameState, verb: int, cell: int) -> None:
    """Seize: the player chooses which of his units seizes when several unalike ones could."""
    me = deciding_player(state)
    options = seizers(state, me, cell)
    if len(_alike_groups(state, options)) == 1:
        _seize_with(state, options[0], cell)
    else:
        state.pending = Pending(CHOOSE_SEIZER, me, -1, cell)


def _seize_with(state: GameState, u: int, cell: int) -> None:
    """The owner may defend the piece with a unit next to both (his choice, asked of him);
    "If the development is defended, the attacking player must first defeat all defenders"."""
    origin = state.u_cell[u]
    if guard_options(state, cell, origin):
        owner = state.cell_player[cell]
        state.pending = Pending(CHOOSE_GUARD, owner, u, cell, origin)
        state.emit("defend_asked", dict(unit=u, cell=cell, origin=origin, player=owner, seize=True))
    else:
        _seize_now(state, u, cell)


def _seize_now(state: GameState, u: int, cell: int) -> None:
    me = state.u_owner[u]
    was_development = state.dev_type[cell] != 0
    loser, _ = seize(state, me, cell)
    if state.retaliator < 0:
        state.seized_this_turn.add(cell)
    if was_development:
        _lost_to_active(state, loser)
    check_surrender(state, me)
    if state.u_type[u] in LAND_TYPES and can_stand(state, u, cell) and state.phase != OVER:
        state.occupy_unit, state.occupy_cell = u, cell


def no_defence(state: GameState) -> None:
    """The owner lets the development or artillery go undefended: it is seized."""
    pend = state.pending
    state.pending = None
    state.emit("no_defence", dict(cell=pend.cell, player=pend.player))
    _seize_now(state, pend.unit, pend.cell)


def choose(state: GameState, verb: int, cell: int) -> None:
    """The answer to a pending choice: the unit of this type on this hex defends (an attack or
    a seizure), breaches or seizes; which one, if they differ, is asked next."""
    pend = state.pending
    state.pending = None
    u = _pick(state, verb, cell, parent=pend)
    if u >= 0:
        _answer_choice(state, pend, cell, u)


def _answer_choice(state: GameState, pend: Pending, cell: int, unit: int) -> None:
    if pend.kind == CHOOSE_DEFENDER:
        state.emit("defend", dict(unit=unit, cell=cell, player=pend.player))
        _resolve_battle(state, pend.unit, pend.cell, pend.origin, pend.reach, pend.artillery,
                        pend.extra >= 0, unit)
    elif pend.kind == CHOOSE_GUARD:
        defend_piece(state, pend, unit)
    elif pend.kind == CHOOSE_BREACHER:
        breach(state, pend.player, unit, pend.extra)
    else:  # CHOOSE_SEIZER
        _seize_with(state, unit, pend.cell)


def defend_piece(state: GameState, pend: Pending, guard: int) -> None:
    """Seize: "If the development is defended, the attacking player must first defeat all
    defenders" (rules v2): the seizure stops, and the piece cannot be seized while ``guard``
    stands next to it; the seizing side must defeat it by attacks, under the Tactics rules."""
    state.defended[pend.cell] = guard
    state.emit("defend", dict(unit=guard, cell=state.u_cell[guard], player=pend.player, seize=True, target=pend.cell,
                              seizer=pend.unit))


def hold_prisoner(state: GameState, verb: int, cell: int) -> None:
    """The victor's answer to CHOOSE_PRISON: the prisoner is held on this developed hex."""
    pend = state.pending
    state.pending = None
    state.u_cell[pend.unit] = cell
    state.mark_units()
    state.emit("prison", dict(unit=pend.unit, cell=cell, player=pend.player))


def place_rescued(state: GameState, verb: int, cell: int) -> None:
    """The rescuer's answer to CHOOSE_RESCUE_SPOT: the freed unit stands on this hex."""
    pend = state.pending
    state.pending = None
    _stand_rescued(state, pend.unit, cell, pend.player)


def _stand_rescued(state: GameState, u: int, cell: int, player: int) -> None:
    state.put(u, cell)
    state.emit("rescued_stands", dict(unit=u, cell=cell, player=player))
    check_surrender(state, player)


def _next_ask(state: GameState) -> None:
    """Ask the next question a decision left (``state.asks``), once it is done: a question with
    one answer (or none left) is settled without asking."""
    while state.asks and state.pending is None:
        kind, player, u, cell = state.asks.pop(0)
        if kind == CHOOSE_PRISON:
            if state.u_where[u] != PRISONER or state.u_holder[u] != player:
                continue  # rescued or taken again in the meantime
            options = prison_options(state, player, cell)
            if len(options) > 1:
                state.pending = Pending(CHOOSE_PRISON, player, u, cell)
            elif options:
                state.u_cell[u] = options[0]
                state.mark_units()
        else:  # CHOOSE_RESCUE_SPOT
            if state.u_where[u] != PRISONER or state.u_holder[u] != -1:
                continue
            spots = rescue_spots(state, u, cell)
            if len(spots) > 1:
                state.pending = Pending(CHOOSE_RESCUE_SPOT, player, u, cell)
            elif spots:
                _stand_rescued(state, u, spots[0], player)
            else:
                state.remove(u)


def breach_wall(state: GameState, verb: int, cell: int) -> None:
    me, d = deciding_player(state), verb - BREACH
    edge = state.gmap.board.edge[cell][d]
    options = breachers(state, me, cell)
    if len(_alike_groups(state, options)) == 1:
        breach(state, me, options[0], edge)
    else:  # which unit breaches is the player's choice
        state.pending = Pending(CHOOSE_BREACHER, me, -1, cell, extra=edge)


def discharge(state: GameState, verb: int, cell: int) -> None:
    """Once per turn a player may discharge any land unit ... recruit a new unit of the same
    type": "any" unit, so which one (upright or spent, and on which freighter) is his choice."""
    u = _pick(state, verb, cell)
    if u >= 0:
        _discharge_unit(state, u, cell)


def _discharge_unit(state: GameState, u: int, cell: int) -> None:
    utype = state.u_type[u]
    state.remove(u)
    state.discharged = True
    state.recruit_type = utype
    state.emit("discharge", dict(unit=u, cell=cell, type=UNIT_NAMES[utype]))


def recruit(state: GameState, verb: int, cell: int) -> None:
    """The recruit is placed "on or adjacent to any developed hex" (onto a freighter of the
    player's choice at sea)."""
    freighter = -1
    if _onto_freighter(state, state.recruit_type, cell):
        freighter = _pick(state, verb, cell)
        if freighter < 0:
            return
    _recruit_onto(state, cell, freighter)


def _recruit_onto(state: GameState, cell: int, freighter: int) -> None:
    me, utype = deciding_player(state), state.recruit_type
    state.recruit_type = -1
    u = _place_new_unit(state, me, utype, cell, freighter)
    state.emit("recruit", dict(unit=u, cell=cell, type=UNIT_NAMES[utype]))
    check_surrender(state, me)


# ------------------------------------------------------------------ turn flow
def end_activation(state: GameState) -> None:
    """Lay the unit on its side; retaliation follows once no unit of the turn is active. An
    outer activation whose unit was lost meanwhile (a freighter that surrendered when its knight
    stepped ashore, T6) ends with it: it has nothing left to do."""
    rec = state.stack.pop()
    state.mark_units()
    state.emit("end_activation", dict(unit=rec.unit))
    if state.retaliator >= 0:
        _finish_retaliation(state)
        return
    for p in rec.losers:
        if p not in state.pending_retaliation:
            state.pending_retaliation.append(p)
    if not state.stack:
        _next_retaliation(state)
    elif not still_on_board(state, state.stack[-1].unit):
        end_activation(state)


def end_turn(state: GameState) -> None:
    if state.retaliator >= 0:
        if state.stack:
            state.stack.pop()
            state.mark_units()
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
    if state.stack or state.pending is not None:
        return
    if state.pending_retaliation:
        p = _first_in_turn_order(state, state.pending_retaliation)
        state.pending_retaliation.remove(p)
        state.retaliator = p
        state.retaliation_used = False
        state.silver[p] = state.config.retaliation_silver
        state.emit("retaliation", dict(player=p, against=state.turn_player))
        return
    if state.ending_turn:
        _finish_turn(state)


def _first_in_turn_order(state: GameState, players: list[int]) -> int:
    """Retaliation order (the document is silent; rules v2): in turn order, starting with the
    player after the active one; under ``retaliation_order="losses"``, the first to lose."""
    if state.config.retaliation_order == "losses":
        return players[0]
    n, me = state.n_players, state.turn_player
    return min(players, key=lambda q: (q - me) % n)


def _finish_retaliation(state: GameState) -> None:
    p = state.retaliator
    state.silver[p] = 0
    state.retaliator = -1
    state.emit("retaliation_over", dict(player=p))
    _next_retaliation(state)


def _start_turn(state: GameState) -> None:
    p = state.turn_player
    state.gold[p] = state.config.gold_per_turn
    state.silver[p] = state.config.silver_per_turn
    state.emit("turn", dict(player=p, phase=PHASE_NAMES[state.phase], round=state.round))


def _finish_turn(state: GameState) -> None:
    """Forfeit unspent gold and silver, stand units upright, and pass the turn."""
    p = state.turn_player
    state.gold[p] = state.silver[p] = 0
    state.ending_turn = False
    u_flags = state.u_flags
    for u in range(len(u_flags)):
        u_flags[u] = 0
    state.mark_units()
    state.front.clear()
    state.attacks.clear()
    state.breaches.clear()
    state.seized_this_turn.clear()
    state.defended.clear()
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
        state.emit("game_over", dict(tokens=list(state.tokens), winners=winners(state), player=-1))
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
        verb, cell, g = decode(int(code), board.n_cells)
    except (TypeError, ValueError):
        return f"action {code!r}"
    who = f"P{deciding_player(state)}"
    if g >= VARIANT and state.pending is not None and state.pending.kind == CHOOSE_VARIANT:
        classes = variant_options(state)
        if g - VARIANT < len(classes):
            u = classes[g - VARIANT][0]
            return f"{who}: the {UNIT_NAMES[state.u_type[u]]} {describe_variant(state, u)}"
    if g >= 0:
        return f"{who}: {A.GLOBAL_NAMES[g]}"
    where = board.coords[cell]
    top = active_of(state)
    if CHOOSE <= verb < CHOOSE + 6 and state.pending is not None and state.pending.kind in _CHOICE_WORDS:
        what = _CHOICE_WORDS[state.pending.kind]
        return f"{who}: {what} {UNIT_NAMES[verb - CHOOSE]} at {where}"
    if verb == ATTACK_FROM and state.pending is not None:
        return f"{who}: attack {board.coords[state.pending.cell]} from {where}"
    if verb in (MOVE, MOVE_ARTILLERY, ATTACK, SHOOT, FIRE_ARTILLERY) and top is not None:
        u = top.unit
        return f"{who}: {A.VERB_NAMES[verb]} {UNIT_NAMES[state.u_type[u]]} {board.coords[state.u_cell[u]]} -> {where}"
    return f"{who}: {A.VERB_NAMES[verb]} at {where}"


def explain(state: GameState, verb: int, cell: int) -> str:
    """Why a hex verb the moment allows is not legal on this hex (best effort, never empty)."""
    me = deciding_player(state)
    gmap = state.gmap
    if BUILD_UNIT <= verb <= BUILD_DEV + 2 and state.gold[me] <= 0:
        return f"no gold left ({state.gold[me]})"
    if ACTIVATE <= verb < MOVE and state.silver[me] < UNIT_COST[verb - ACTIVATE]:
        return f"activation costs {UNIT_COST[verb - ACTIVATE]} silver, {state.silver[me]} left"
    if verb in (MOVE, MOVE_ARTILLERY, ATTACK, SHOOT, FIRE_ARTILLERY) and active_of(state) is None:
        return "no unit is active"
    if not (gmap.is_land[cell] or gmap.is_sea[cell]):
        return "mountain hexes can not be occupied or built on"
    h = state.cell_player[cell]
    if h >= 0 and h != me and verb not in (ATTACK, SHOOT, FIRE_ARTILLERY, SEIZE, MOVE):
        return f"the hex is held by player {h}"
    return f"not legal on hex {gmap.board.coords[cell]} now (range, occupancy, terrain or limits)"


_CHOICE_WORDS = {CHOOSE_DEFENDER: "defend with", CHOOSE_GUARD: "defend with",
                 CHOOSE_BREACHER: "breach with", CHOOSE_SEIZER: "seize with", CHOOSE_SIDE: "choose"}

# The first verb of each span of verbs that one rule carries out (``_handle``).
_SPAN_STARTS = (PLACE, BUILD_UNIT, BUILD_ARTILLERY, BUILD_DEV, BUILD_WALL, RELOCATE_WALL, BREACH, ACTIVATE, MOVE,
                MOVE_ARTILLERY, ATTACK, FIRE_ARTILLERY, OCCUPY, SEIZE, DISCHARGE, RECRUIT, SHOOT, ATTACK_FROM,
                CHOOSE, HOLD_PRISONER, PLACE_RESCUED)
_HANDLER_START = bytes(max(start for start in _SPAN_STARTS if start <= v) for v in range(N_HEX_VERBS))
