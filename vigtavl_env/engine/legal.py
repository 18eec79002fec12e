"""Which decisions are legal now: the verbs open in this moment, and the hexes for each verb.

``open_verbs`` says which verbs the moment allows (placement, a pending recruit, a retaliation,
an ordinary turn with or without an active unit); ``hexes_for`` lists the hexes where one verb
is legal. ``legal_actions`` (game.py, body in ``legal_codes``) is their product, and
``apply_action`` validates a decision with the same two functions, so the list and the checks
can never disagree.

Speed: ``legal_codes`` works out each span of verbs that open together (the six wall
directions, the ten builds ...) in one call, and the verbs share their scans of the state through
one ``shared.Shared`` per enumeration; the per-verb functions use the same pieces.
"""

from __future__ import annotations

from .actions import (
    ACTIVATE, ATTACK, ATTACK_FROM, BREACH, BUILD_ARTILLERY, BUILD_DEV,
    BUILD_UNIT, BUILD_WALL, CHOOSE, DISCHARGE, END_ACTIVATION, END_TURN,
    FIRE_ARTILLERY, HOLD_PRISONER, LOAD, MOVE, MOVE_ARTILLERY, NO_DEFENCE, N_HEX_VERBS,
    OCCUPY, PLACE, PLACE_RESCUED, RECRUIT, RELOCATE_WALL, SEIZE, SHOOT, VARIANT,
)
from .building import (
    ARTILLERY_SLOT, artillery_sites, can_afford_development, can_afford_unit, can_afford_wall,
    development_sites, may_build_now, placement_sites, reserve_ships,
)
from .combat import (
    can_attack_from_here, can_occupy, close_targets, coastal_or_sea, defender_options, prison_options,
    ranged_targets,
)
from .free_actions import breachers, dischargeable, guard_options, rescue_spots, seize_sources, seizers
from .movement import BATTLE_HEX, STOP, Reach, reach
from .shared import Shared, sorted_once
from .state import (
    BATTLE, CHOOSE_BREACHER, CHOOSE_DEFENDER, CHOOSE_GUARD, CHOOSE_PRISON, CHOOSE_RESCUE_SPOT, CHOOSE_SIDE,
    CHOOSE_VARIANT, LOADED, MOVE_DONE, ON_BOARD, OVER, PLACEMENT, RESERVE, SPENT, Activation, GameState, Pending,
    active_of, deciding_player,
)
from .stats import (
    FREIGHTER, FREIGHTER_CAPACITY, FREIGHTER_SPLITS, IS_SHIP, LAND_TYPES, SHIP_TYPES, UNIT_COST, UNIT_RANGE,
)
from .variants import variant_classes

# Verbs that open_verbs opens together, in its order.
_BUILD_AND_WALL_VERBS = tuple(range(BUILD_UNIT, BUILD_DEV + 3)) + tuple(range(BUILD_WALL, BUILD_WALL + 6))
_RELOCATE_VERBS = tuple(range(RELOCATE_WALL, RELOCATE_WALL + 6))
_DISCHARGE_VERBS = tuple(range(DISCHARGE, DISCHARGE + 3))
_SEIZE_BREACH_VERBS = (SEIZE,) + tuple(range(BREACH, BREACH + 6))
_ACTIVATE_VERBS = tuple(range(ACTIVATE, ACTIVATE + 6))
_CHOOSE_VERBS = tuple(range(CHOOSE, CHOOSE + 6))
_LOAD_GLOBALS = [LOAD + i for i in range(len(FREIGHTER_SPLITS))]


def open_verbs(state: GameState) -> tuple[list[int], list[int], str]:
    """(hex verbs, global verbs, why) for the moment; ``why`` explains what is going on."""
    if state.phase == OVER:
        return [], [], "the game is over"
    pend = state.pending
    if pend is not None:
        if pend.kind == CHOOSE_SIDE:
            return [ATTACK_FROM], [], "choose the side your battle move attacks from"
        if pend.kind == CHOOSE_DEFENDER:
            return list(_CHOOSE_VERBS), [], "you are attacked: choose the unit that defends"
        if pend.kind == CHOOSE_GUARD:
            return list(_CHOOSE_VERBS), [NO_DEFENCE], "a seizure: choose a defender, or none"
        if pend.kind == CHOOSE_VARIANT:
            n = len(variant_options(state))
            return [], [VARIANT + k for k in range(n)], "these units differ: choose which one"
        if pend.kind == CHOOSE_PRISON:
            return [HOLD_PRISONER], [], "choose which of your developments holds the prisoner"
        if pend.kind == CHOOSE_RESCUE_SPOT:
            return [PLACE_RESCUED], [], "choose where your rescued unit stands"
        what = "breaches" if pend.kind == CHOOSE_BREACHER else "seizes"
        return list(_CHOOSE_VERBS), [], f"choose the unit that {what}"
    if state.phase == PLACEMENT:
        if state.to_load:
            return [], list(_LOAD_GLOBALS), "setup: load your two freighters with 3 land units each"
        return [PLACE, PLACE + 1, PLACE + 2], [], "placement: place one of your ships"
    if state.recruit_type >= 0:
        return [RECRUIT], [], "a discharged unit must be recruited first"
    verbs: list[int] = []
    top = active_of(state)
    if state.occupy_unit >= 0 and state.u_owner[state.occupy_unit] == deciding_player(state):
        verbs.append(OCCUPY)
        if top is not None and top.done:
            return verbs, [END_ACTIVATION], "occupy the hex your unit won, or end its activation"
    if state.retaliator >= 0:
        if top is None and not state.retaliation_used:
            verbs += _ACTIVATE_VERBS
        if top is not None:
            verbs += _unit_verbs(state)
        if state.phase == BATTLE:
            verbs += _SEIZE_BREACH_VERBS
        glob = [END_ACTIVATION, END_TURN] if top is not None else [END_TURN]
        return verbs, glob, "retaliation: activate one unit, or end to decline"
    if may_build_now(state):
        verbs += _BUILD_AND_WALL_VERBS
        if not state.wall_relocated:
            verbs += _RELOCATE_VERBS
        if not state.discharged:
            verbs += _DISCHARGE_VERBS
    if state.phase == BATTLE:
        verbs += _SEIZE_BREACH_VERBS
    verbs += _ACTIVATE_VERBS
    if top is not None:
        verbs += _unit_verbs(state)
    glob = [END_ACTIVATION, END_TURN] if top is not None else [END_TURN]
    return verbs, glob, "your turn"


def _unit_verbs(state: GameState) -> list[int]:
    top = active_of(state)
    out = []
    if not still_on_board(state, top.unit):
        return out  # lost while active (T6: it surrendered): nothing left to do but end
    if top.move != MOVE_DONE and top.move_left > 0:
        out += [MOVE, MOVE_ARTILLERY]
    if not top.attacked and state.phase == BATTLE:
        out += [ATTACK, FIRE_ARTILLERY, SHOOT]
    return out


_BIT = 1  # an unsigned 64-bit one when compiled, shifted by a verb number
assert N_HEX_VERBS <= 64


def legal_codes(state: GameState) -> list[int]:
    """Engine codes of every decision the current player may make now, ascending (the body of
    ``legal_actions``): the open verbs in order, each verb's hexes in order. Verbs come in spans
    (the six wall directions, the six unit types ...) that are worked out together."""
    n = state.n_cells
    verbs, glob, _ = open_verbs(state)
    shared = Shared(state)
    opened = 0  # bit v: verb v is open (57 verbs: one C integer when compiled; no set, no sort)
    for v in verbs:
        opened |= _BIT << v
    codes = state.gmap.codes  # the map's shared int objects: the list allocates no ints
    out: list[int] = []
    v = 0
    while v < N_HEX_VERBS:
        if not opened >> v & 1:
            v += 1
            continue
        start = _span_start(v)
        w = start
        for hexes in _span_hexes(state, start, shared):
            if hexes and opened >> w & 1:
                base = w * n
                for c in hexes:
                    out.append(codes[base + c])
            w += 1
        v = w  # past the span: its other open verbs are listed
    base = N_HEX_VERBS * n
    for g in glob:
        out.append(codes[base + g])
    return out


def hexes_for(state: GameState, verb: int, shared: Shared | None = None) -> list[int]:
    """Hexes where ``verb`` is legal now (assuming the moment opens the verb)."""
    return list(_verb_hexes(state, verb, shared or Shared(state)))  # the caller's own list


def _all_placements(state: GameState, sh: Shared) -> list[list[int]]:
    """One list of sea hexes, for each ship type the player still has in reserve."""
    in_reserve = {state.u_type[u] for u in reserve_ships(state, sh.me)}
    sites = placement_sites(state, sh.me) if in_reserve else []
    return [sites if t in in_reserve else [] for t in SHIP_TYPES]


def _h_build_unit(state: GameState, verb: int, sh: Shared) -> list[int]:
    utype = verb - BUILD_UNIT
    return sh.unit_sites(utype) if can_afford_unit(state, sh.me, utype, sh.capacity()) else []


def _h_build_artillery(state: GameState, verb: int, sh: Shared) -> list[int]:
    return artillery_sites(state, sh.me, sh.near()) if can_afford_unit(state, sh.me, ARTILLERY_SLOT) else []


def _h_build_dev(state: GameState, verb: int, sh: Shared) -> list[int]:
    dev = verb - BUILD_DEV + 1
    if not can_afford_development(state, sh.me, dev):
        return []
    return development_sites(state, sh.me, dev, sh.dev_candidates())


def _all_walls(state: GameState, sh: Shared) -> list[list[int]]:
    return sh.walls() if can_afford_wall(state, sh.me) else _NONE[6]


def _h_occupy(state: GameState, verb: int, sh: Shared) -> list[int]:
    u = state.occupy_unit
    # Still possible after a retaliation in between (the unit may have been captured).
    if u < 0 or not still_on_board(state, u) or not can_occupy(state, u, state.occupy_cell):
        return []
    return [state.occupy_cell]


def _h_attack_from(state: GameState, verb: int, sh: Shared) -> list[int]:
    top, pend = active_of(state), state.pending
    r = reach(state, top.unit, top.move_left, towing=False, can_attack=True, wind=not top.rode)
    return battle_sides(state, top, r, pend.cell)


def _all_choices(state: GameState, sh: Shared) -> list[list[int]]:
    out: list[list[int]] = [[] for _ in range(6)]
    for u in pending_units(state):
        out[state.u_type[u]].append(state.u_cell[u])
    return [sorted(set(x)) for x in out]


def pending_units(state: GameState, pend: Pending | None = None) -> list[int]:
    """The units a pending choice (``state.pending`` unless given) may name: defenders,
    breachers or seizers, ascending by hex, type and number."""
    pend = pend or state.pending
    if pend.kind == CHOOSE_DEFENDER:
        return defender_options(state, pend.cell, pend.origin, state.u_owner[pend.unit])
    if pend.kind == CHOOSE_GUARD:
        return guard_options(state, pend.cell, pend.origin)
    if pend.kind == CHOOSE_BREACHER:
        return breachers(state, pend.player, pend.cell)
    return seizers(state, pend.player, pend.cell)  # CHOOSE_SEIZER


def decision_units(state: GameState, player: int, verb: int, cell: int, parent: Pending | None = None) -> list[int]:
    """The units a decision names by hex and type, among which it acts on one: the units to
    activate, discharge or place, the freighters a knight may board there (a move, a build, a
    recruit onto a sea hex), or the units of a choice (``parent``) on the hex."""
    out = []  # explicit loops over a typed unit number: the compiled build runs them in C
    if ACTIVATE <= verb < MOVE:
        top, t = active_of(state), verb - ACTIVATE
        for u in range(state.n_units):
            if (state.u_cell[u] == cell and state.u_type[u] == t and state.u_owner[u] == player
                    and still_on_board(state, u)
                    and not state.u_flags[u] & SPENT and (top is None or nested_ok(state, top.unit, u))):
                out.append(u)
        return out
    if DISCHARGE <= verb < DISCHARGE + 3:
        return dischargeable(state, player, cell, LAND_TYPES[verb - DISCHARGE])
    if PLACE <= verb < PLACE + 3:
        t = SHIP_TYPES[verb - PLACE]
        for u in range(state.n_units):
            if state.u_where[u] == RESERVE and state.u_owner[u] == player and state.u_type[u] == t:
                out.append(u)
        return out
    if CHOOSE <= verb < CHOOSE + 6:
        for u in pending_units(state, parent):
            if state.u_cell[u] == cell and state.u_type[u] == verb - CHOOSE:
                out.append(u)
        return out
    return freighters_with_room(state, cell, player)  # MOVE, BUILD_UNIT, RECRUIT onto a sea hex


def freighters_with_room(state: GameState, cell: int, player: int) -> list[int]:
    """The player's freighters on ``cell`` with room for one more knight, ascending."""
    out = []
    for u in range(state.n_units):
        if (state.u_cell[u] == cell and state.u_type[u] == FREIGHTER and state.u_owner[u] == player
                and state.u_where[u] == ON_BOARD and len(state.cargo(u)) < FREIGHTER_CAPACITY):
            out.append(u)
    return out


def variant_options(state: GameState) -> list[list[int]]:
    """The classes a pending CHOOSE_VARIANT offers, in the order of the "choose variant" verbs."""
    pend = state.pending
    return variant_classes(state, decision_units(state, pend.player, pend.extra, pend.cell, pend.parent))


def battle_sides(state: GameState, top: Activation, r: Reach, cell: int) -> list[int]:
    """Feint: the hexes next to ``cell`` a battle move may enter it from (the side sets the
    front and the flanking dice): hexes the mover reaches with a movement point to spare, on its
    own terrain (or the freighter a knight storms ashore from), not across an opponent wall."""
    u = top.unit
    me, start, ship = state.u_owner[u], state.u_cell[u], IS_SHIP[state.u_type[u]]
    out = []
    for d in range(6):
        n = state.nbr[cell * 6 + d]
        if n < 0 or r.cost_of(n) < 0 or r.is_battle(n) or r.cost_of(n) + 1 > top.move_left:
            continue
        if n != start and ship != bool(state.sea[n]):
            continue
        w = state.walls[state.nbr_edge[cell * 6 + d]]
        if w >= 0 and w != me:
            continue
        out.append(n)
    return sorted(out)


def still_on_board(state: GameState, u: int) -> bool:
    """The unit is on the board or aboard a freighter there (not captured, sunk or in reserve)."""
    return state.u_where[u] == ON_BOARD or state.u_where[u] == LOADED


def activation_spent(state: GameState, top: Activation) -> bool:
    """The active unit has no action left: its attack used or impossible, and its movement
    used or impossible (a unit lost while active, by its own surrender, has none)."""
    if not still_on_board(state, top.unit):
        return True
    if state.phase == BATTLE and not top.attacked:
        for verb in (ATTACK, SHOOT, FIRE_ARTILLERY):
            if _unit_action_hexes(state, verb):
                return False
    if top.move != MOVE_DONE and top.move_left > 0:
        return not _unit_action_hexes(state, MOVE)
    return True


def _all_builds(state: GameState, sh: Shared) -> list[list[int]]:
    """Units, artillery and developments: every one costs gold, so none without it."""
    if state.gold[sh.me] <= 0:
        return _NONE[BUILD_DEV + 3 - BUILD_UNIT]
    out = []
    for v in range(BUILD_UNIT, BUILD_ARTILLERY):
        out.append(_h_build_unit(state, v, sh))
    out.append(_h_build_artillery(state, BUILD_ARTILLERY, sh))
    for v in range(BUILD_DEV, BUILD_DEV + 3):
        out.append(_h_build_dev(state, v, sh))
    return out


def _all_activations(state: GameState, sh: Shared) -> list[list[int]]:
    top = active_of(state)
    if top is not None and not _nesting_open(state, top):
        return _NONE[6]  # mid-activation only the freighter exception activates another unit
    return [_activatable(state, sh.me, t, sh) for t in range(6)]


def _nesting_open(state: GameState, top) -> bool:
    """The part of the freighter exception (``nested_ok``) that depends on the active unit
    alone: outside a retaliation and a nested activation, a freighter, or a knight aboard one
    and still moving."""
    if state.retaliator >= 0 or len(state.stack) > 1 or not still_on_board(state, top.unit):
        return False
    t_active = state.u_type[top.unit]
    if t_active == FREIGHTER:
        return True
    return t_active in LAND_TYPES and state.u_where[top.unit] == LOADED and top.move != MOVE_DONE


_NONE = {k: [[]] * k for k in (6, 10)}  # no hexes for any verb of a span (never changed)


def _span_start(verb: int) -> int:
    """The first verb of the span ``verb`` belongs to: a span is what ``open_verbs`` opens
    together and ``_span_hexes`` works out in one call (the build span covers units, artillery
    and developments, verbs 3-12); any other verb is a span of its own."""
    if verb < BUILD_UNIT:
        return PLACE
    if verb < BUILD_WALL:
        return BUILD_UNIT
    if verb < RELOCATE_WALL:
        return BUILD_WALL
    if verb < BREACH:
        return RELOCATE_WALL
    if verb < ACTIVATE:
        return BREACH
    if verb < MOVE:
        return ACTIVATE
    if CHOOSE <= verb < CHOOSE + 6:
        return CHOOSE
    return verb


def _span_hexes(state: GameState, start: int, sh: Shared) -> list[list[int]]:
    """The hexes of each verb of the span starting at ``start``, in verb order."""
    if start == PLACE:
        return _all_placements(state, sh)
    if start == BUILD_UNIT:
        return _all_builds(state, sh)
    if start == BUILD_WALL:
        return _all_walls(state, sh)
    if start == RELOCATE_WALL:
        return sh.own_walls()
    if start == BREACH:
        return sh.breaches()
    if start == ACTIVATE:
        return _all_activations(state, sh)
    if start == CHOOSE:
        return _all_choices(state, sh)
    return [_verb_hexes(state, start, sh)]


def _verb_hexes(state: GameState, verb: int, sh: Shared) -> list[int]:
    """Hexes where one verb is legal (the moment aside); a verb of a span asks its span."""
    if verb == MOVE or verb == MOVE_ARTILLERY or verb == ATTACK or verb == FIRE_ARTILLERY or verb == SHOOT:
        return _unit_action_hexes(state, verb)
    if verb == OCCUPY:
        return _h_occupy(state, verb, sh)
    if verb == SEIZE:
        return _seizable(state, sh.me, sh)
    if DISCHARGE <= verb < DISCHARGE + 3:
        return _dischargeable_hexes(state, sh.me, LAND_TYPES[verb - DISCHARGE], sh)
    if verb == RECRUIT:
        return sh.unit_sites(state.recruit_type)
    if verb == ATTACK_FROM:
        return _h_attack_from(state, verb, sh)
    if verb == HOLD_PRISONER:
        return prison_options(state, state.pending.player, state.pending.cell)
    if verb == PLACE_RESCUED:
        return rescue_spots(state, state.pending.unit, state.pending.cell)
    if verb == BUILD_ARTILLERY:
        return _h_build_artillery(state, verb, sh)
    if BUILD_DEV <= verb < BUILD_DEV + 3:
        return _h_build_dev(state, verb, sh)
    if BUILD_UNIT <= verb < BUILD_ARTILLERY:
        return _h_build_unit(state, verb, sh)
    start = _span_start(verb)  # a verb of a span of several (every single verb is above)
    return _span_hexes(state, start, sh)[verb - start]


def _dischargeable_hexes(state: GameState, me: int, utype: int, sh: Shared) -> list[int]:
    """Hexes with a land unit of this type that may be discharged: its replacement must have
    somewhere to go once it is gone (a free site now, or the room it leaves behind)."""
    cells = sh.mine().land_cells[utype]
    if not cells:
        return []
    sites = sh.unit_sites(utype)
    out = []
    for c in cells:  # ascending
        if sites or _frees_a_site(state, me, c):
            out.append(c)
    return out


def _frees_a_site(state: GameState, me: int, cell: int) -> bool:
    """Removing a knight here would make this hex a recruit site (it is on or next to an own
    development, on land or aboard a freighter beside one)."""
    for d in range(6):
        n = state.nbr[cell * 6 + d]
        if n >= 0 and state.dev_owner[n] == me:
            return True
    return bool(state.land[cell]) and state.dev_owner[cell] == me


def _activatable(state: GameState, me: int, utype: int, sh: Shared) -> list[int]:
    """Hexes with an upright own unit of this type that may be activated now."""
    if UNIT_COST[utype] > state.silver[me]:
        return []
    upright = sh.mine().upright[utype]
    if not upright:
        return []
    top = active_of(state)
    cells = []
    for u in upright:
        if top is None or nested_ok(state, top.unit, u):
            cells.append(state.u_cell[u])
    return sorted_once(cells)


def nested_ok(state: GameState, active: int, u: int) -> bool:
    """The freighter exception: while a freighter is active, a knight aboard it or on land next
    to it may be activated (to disembark or embark); while a knight aboard a freighter is active
    and still moving, that freighter may be activated to carry it. ``active`` is the active
    unit (``state.active.unit``)."""
    if not _nesting_open(state, active_of(state)):
        return False
    if state.u_type[active] == FREIGHTER:
        if state.u_type[u] not in LAND_TYPES:
            return False
        if state.u_where[u] == LOADED:
            return state.u_carrier[u] == active
        return _adjacent(state, state.u_cell[u], state.u_cell[active])
    return state.u_type[u] == FREIGHTER and state.u_carrier[active] == u  # the knight's carrier


def _adjacent(state: GameState, a: int, b: int) -> bool:
    for d in range(6):
        if state.nbr[a * 6 + d] == b:
            return True
    return False


def may_battle_move(state: GameState, top) -> bool:
    """Moving into another player's hex is the unit's attack: it needs its attack unused, and
    freighters never attack (a knight may storm ashore straight from a freighter)."""
    return not top.attacked and state.u_type[top.unit] != FREIGHTER


def active_reach(state: GameState, top: Activation) -> Reach:
    """The active unit's reach for a move: its move verb's hexes, and the move itself. Kept in
    the state (``GameState.reach_memo``) while the unit, its movement left, whether it may still
    attack and ride the wind, the phase, the winds and the stamps of every table are the same:
    a move picked from the legal list is carried out with the reach the list came from."""
    can_attack = may_battle_move(state, top)
    key = (top.unit, top.move_left, can_attack, top.rode, state.phase, state.wind,
           state.unit_stamp, state.dev_stamp, state.wall_stamp)
    memo = state.reach_memo
    if memo is not None and memo[0] == key:
        return memo[1]
    r = reach(state, top.unit, top.move_left, towing=False, can_attack=can_attack, wind=not top.rode)
    state.reach_memo = (key, r)
    return r


def _unit_action_hexes(state: GameState, verb: int) -> list[int]:
    top = active_of(state)
    u = top.unit
    me = state.u_owner[u]
    cell = state.u_cell[u]
    if verb == MOVE:
        return active_reach(state, top).destinations(STOP | BATTLE_HEX)
    if verb == MOVE_ARTILLERY:
        if state.u_where[u] != ON_BOARD or state.u_type[u] not in LAND_TYPES or state.art_owner[cell] != me:
            return []
        return reach(state, u, top.move_left, towing=True).destinations(STOP)
    if verb in (ATTACK, SHOOT):
        if not can_attack_from_here(state, u):
            return []
        if verb == ATTACK:
            targets = close_targets(state, u)
        elif UNIT_RANGE[state.u_type[u]]:
            targets = list(ranged_targets(state, me, cell))
        else:
            return []
        if state.u_where[u] == LOADED:  # archers aboard: coastal hexes or enemy ships
            targets = [c for c in targets if coastal_or_sea(state, c)]
        return sorted(targets)
    # FIRE_ARTILLERY: a knight standing on its own artillery's hex
    if state.u_where[u] != ON_BOARD or state.u_type[u] not in LAND_TYPES or state.art_owner[cell] != me:
        return []
    return sorted(ranged_targets(state, me, cell))


def _seizable(state: GameState, me: int, sh: Shared) -> list[int]:
    """Other players' developments and artillery next to one of my units, undefended."""
    mine = sh.guards(me)[0]  # hexes of my units on the board but freighters: those that seize too
    candidates = set()
    for c in mine:
        for d in range(6):
            n = state.nbr[c * 6 + d]
            if n >= 0 and state.cell_player[n] != -1 and state.cell_player[n] != me \
                    and (state.dev_type[n] or state.art_owner[n] >= 0):
                candidates.add(n)
    out = []
    for c in sorted(candidates):
        if state.retaliator >= 0 and c in state.seized_this_turn:
            continue
        if seize_sources(state, me, c, sh.guards(state.cell_player[c]), mine):
            out.append(c)
    return out
