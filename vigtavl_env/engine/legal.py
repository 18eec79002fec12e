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

from collections.abc import Callable

from . import actions as A
from .building import (
    ARTILLERY_SLOT, artillery_sites, can_afford_development, can_afford_unit, can_afford_wall,
    development_sites, may_build_now, placement_sites, reserve_ships,
)
from .combat import (
    can_attack_from_here, can_occupy, close_targets, coastal_or_sea, defender_options, ranged_targets,
)
from .free_actions import breachers, guard_options, seize_sources, seizer_cells, seizers
from .movement import Reach, reach
from .shared import Shared
from .state import (
    BATTLE, CHOOSE_BREACHER, CHOOSE_DEFENDER, CHOOSE_GUARD, CHOOSE_SIDE, LOADED, MOVE_DONE,
    ON_BOARD, OVER, PLACEMENT, Activation, GameState,
)
from .stats import FREIGHTER, FREIGHTER_SPLITS, IS_SHIP, LAND_TYPES, SHIP_TYPES, UNIT_COST, UNIT_RANGE

GLOBAL_OPEN = -100  # marker in open_verbs for the global verbs
# Verbs that open_verbs opens together, in its order.
_BUILD_AND_WALL_VERBS = tuple(range(A.BUILD_UNIT, A.BUILD_DEV + 3)) + tuple(range(A.BUILD_WALL, A.BUILD_WALL + 6))
_RELOCATE_VERBS = tuple(range(A.RELOCATE_WALL, A.RELOCATE_WALL + 6))
_DISCHARGE_VERBS = tuple(range(A.DISCHARGE, A.DISCHARGE + 3))
_SEIZE_BREACH_VERBS = (A.SEIZE,) + tuple(range(A.BREACH, A.BREACH + 6))
_ACTIVATE_VERBS = tuple(range(A.ACTIVATE, A.ACTIVATE + 6))
_CHOOSE_VERBS = tuple(range(A.CHOOSE, A.CHOOSE + 6))
_LOAD_GLOBALS = [A.LOAD + i for i in range(len(FREIGHTER_SPLITS))]


def open_verbs(state: GameState) -> tuple[list[int], list[int], str]:
    """(hex verbs, global verbs, why) for the moment; ``why`` explains what is going on."""
    if state.phase == OVER:
        return [], [], "the game is over"
    pend = state.pending
    if pend is not None:
        if pend.kind == CHOOSE_SIDE:
            return [A.ATTACK_FROM], [], "choose the side your battle move attacks from"
        if pend.kind == CHOOSE_DEFENDER:
            return list(_CHOOSE_VERBS), [], "you are attacked: choose the unit that defends"
        if pend.kind == CHOOSE_GUARD:
            return list(_CHOOSE_VERBS), [A.NO_DEFENCE], "a seizure: choose a defender, or none"
        what = "breaches" if pend.kind == CHOOSE_BREACHER else "seizes"
        return list(_CHOOSE_VERBS), [], f"choose the unit that {what}"
    if state.phase == PLACEMENT:
        if state.to_load:
            return [], list(_LOAD_GLOBALS), "setup: load your two freighters with 3 land units each"
        return [A.PLACE, A.PLACE + 1, A.PLACE + 2], [], "placement: place one of your ships"
    if state.recruit_type >= 0:
        return [A.RECRUIT], [], "a discharged unit must be recruited first"
    verbs: list[int] = []
    top = state.active
    if state.occupy_unit >= 0 and state.u_owner[state.occupy_unit] == state.current_player:
        verbs.append(A.OCCUPY)
        if top is not None and top.done:
            return verbs, [A.END_ACTIVATION], "occupy the hex your unit won, or end its activation"
    if state.retaliator >= 0:
        if top is None and not state.retaliation_used:
            verbs += _ACTIVATE_VERBS
        if top is not None:
            verbs += _unit_verbs(state)
        if state.phase == BATTLE:
            verbs += _SEIZE_BREACH_VERBS
        glob = [A.END_ACTIVATION] if top is not None else []
        return verbs, glob + [A.END_TURN], "retaliation: activate one unit, or end to decline"
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
    glob = [A.END_ACTIVATION] if top is not None else []
    return verbs, glob + [A.END_TURN], "your turn"


def _unit_verbs(state: GameState) -> list[int]:
    top = state.active
    out = []
    if top.move != MOVE_DONE and top.move_left > 0:
        out += [A.MOVE, A.MOVE_ARTILLERY]
    if not top.attacked and state.phase == BATTLE:
        out += [A.ATTACK, A.FIRE_ARTILLERY, A.SHOOT]
    return out


def legal_codes(state: GameState) -> list[int]:
    """Engine codes of every decision the current player may make now, ascending (the body of
    ``legal_actions``): the open verbs in order, each verb's hexes in order. Verbs come in spans
    (the six wall directions, the six unit types ...) that are worked out together."""
    n = state.gmap.board.n_cells
    verbs, glob, _ = open_verbs(state)
    shared = Shared(state)
    is_open = set(verbs)
    out: list[int] = []
    done_below = 0
    for v in sorted(verbs):
        if v < done_below:
            continue  # listed with its span
        start, every_hexes = _SPAN_OF[v]
        hexes_by_verb = every_hexes(state, shared)
        for w, hexes in enumerate(hexes_by_verb, start):
            if hexes and w in is_open:
                base = w * n
                out += [base + c for c in hexes]
        done_below = start + len(hexes_by_verb)
    base = A.N_HEX_VERBS * n
    out += [base + g for g in glob]
    return out


def hexes_for(state: GameState, verb: int, shared: Shared | None = None) -> list[int]:
    """Hexes where ``verb`` is legal now (assuming the moment opens the verb)."""
    return list(_VERB_HEXES[verb](state, verb, shared or Shared(state)))  # the caller's own list


def _h_place(state: GameState, verb: int, sh: Shared) -> list[int]:
    return _all_placements(state, sh)[verb - A.PLACE]


def _all_placements(state: GameState, sh: Shared) -> list[list[int]]:
    """One list of sea hexes, for each ship type the player still has in reserve."""
    in_reserve = {state.u_type[u] for u in reserve_ships(state, sh.me)}
    sites = placement_sites(state, sh.me) if in_reserve else []
    return [sites if t in in_reserve else [] for t in SHIP_TYPES]


def _h_build_unit(state: GameState, verb: int, sh: Shared) -> list[int]:
    utype = verb - A.BUILD_UNIT
    return sh.unit_sites(utype) if can_afford_unit(state, sh.me, utype, sh.capacity()) else []


def _h_build_artillery(state: GameState, verb: int, sh: Shared) -> list[int]:
    return artillery_sites(state, sh.me, sh.near()) if can_afford_unit(state, sh.me, ARTILLERY_SLOT) else []


def _h_build_dev(state: GameState, verb: int, sh: Shared) -> list[int]:
    dev = verb - A.BUILD_DEV + 1
    if not can_afford_development(state, sh.me, dev):
        return []
    return development_sites(state, sh.me, dev, sh.dev_candidates())


def _h_build_wall(state: GameState, verb: int, sh: Shared) -> list[int]:
    return _all_walls(state, sh)[verb - A.BUILD_WALL]


def _all_walls(state: GameState, sh: Shared) -> list[list[int]]:
    return sh.walls() if can_afford_wall(state, sh.me) else _NONE[6]


def _h_relocate_wall(state: GameState, verb: int, sh: Shared) -> list[int]:
    return sh.own_walls()[verb - A.RELOCATE_WALL]


def _all_relocations(state: GameState, sh: Shared) -> list[list[int]]:
    return sh.own_walls()


def _h_breach(state: GameState, verb: int, sh: Shared) -> list[int]:
    return sh.breaches()[verb - A.BREACH]


def _all_breaches(state: GameState, sh: Shared) -> list[list[int]]:
    return sh.breaches()


def _h_activate(state: GameState, verb: int, sh: Shared) -> list[int]:
    return _activatable(state, sh.me, verb - A.ACTIVATE, sh)


def _h_unit_action(state: GameState, verb: int, sh: Shared) -> list[int]:
    return _unit_action_hexes(state, verb)


def _h_occupy(state: GameState, verb: int, sh: Shared) -> list[int]:
    u = state.occupy_unit
    # Still possible after a retaliation in between (the unit may have been captured).
    if u < 0 or state.u_where[u] not in (ON_BOARD, LOADED) or not can_occupy(state, u, state.occupy_cell):
        return []
    return [state.occupy_cell]


def _h_attack_from(state: GameState, verb: int, sh: Shared) -> list[int]:
    top, pend = state.active, state.pending
    r = reach(state, top.unit, top.move_left, can_attack=True, wind=not top.rode)
    return battle_sides(state, top, r, pend.cell)


def _h_choose(state: GameState, verb: int, sh: Shared) -> list[int]:
    return _all_choices(state, sh)[verb - A.CHOOSE]


def _all_choices(state: GameState, sh: Shared) -> list[list[int]]:
    out: list[list[int]] = [[] for _ in range(6)]
    for u in pending_units(state):
        out[state.u_type[u]].append(state.u_cell[u])
    return [sorted(set(x)) for x in out]


def pending_units(state: GameState) -> list[int]:
    """The units the pending choice may name: defenders, breachers or seizers (one per hex and
    type)."""
    pend = state.pending
    if pend.kind == CHOOSE_DEFENDER:
        return defender_options(state, pend.cell, pend.origin)
    if pend.kind == CHOOSE_GUARD:
        return guard_options(state, pend.cell, pend.origin)
    if pend.kind == CHOOSE_BREACHER:
        return breachers(state, pend.player, pend.cell)
    return seizers(state, pend.player, pend.cell)  # CHOOSE_SEIZER


def battle_sides(state: GameState, top: Activation, r: Reach, cell: int) -> list[int]:
    """Feint: the hexes next to ``cell`` a battle move may enter it from (the side sets the
    front and the flanking dice): hexes the mover reaches with a movement point to spare, on its
    own terrain (or the freighter a knight storms ashore from), not across an opponent wall."""
    u = top.unit
    me, start, ship = state.u_owner[u], state.u_cell[u], IS_SHIP[state.u_type[u]]
    out = []
    for d in range(6):
        n = state.nbr[cell * 6 + d]
        if n < 0 or n not in r.cost or n in r.battles or r.cost[n] + 1 > top.move_left:
            continue
        if n != start and ship != bool(state.sea[n]):
            continue
        w = state.walls[state.nbr_edge[cell * 6 + d]]
        if w >= 0 and w != me:
            continue
        out.append(n)
    return sorted(out)


def activation_spent(state: GameState, top: Activation) -> bool:
    """The active unit has no action left: its attack used or impossible, and its movement
    used or impossible."""
    if state.phase == BATTLE and not top.attacked:
        for verb in (A.ATTACK, A.SHOOT, A.FIRE_ARTILLERY):
            if _unit_action_hexes(state, verb):
                return False
    if top.move != MOVE_DONE and top.move_left > 0:
        return not _unit_action_hexes(state, A.MOVE)
    return True


def _h_seize(state: GameState, verb: int, sh: Shared) -> list[int]:
    return _seizable(state, sh.me, sh)


def _h_discharge(state: GameState, verb: int, sh: Shared) -> list[int]:
    return _dischargeable_hexes(state, sh.me, LAND_TYPES[verb - A.DISCHARGE], sh)


def _h_recruit(state: GameState, verb: int, sh: Shared) -> list[int]:
    return sh.unit_sites(state.recruit_type)


def _all_builds(state: GameState, sh: Shared) -> list[list[int]]:
    """Units, artillery and developments: every one costs gold, so none without it."""
    if state.gold[sh.me] <= 0:
        return _NONE[A.BUILD_DEV + 3 - A.BUILD_UNIT]
    return [_VERB_HEXES[v](state, v, sh) for v in range(A.BUILD_UNIT, A.BUILD_DEV + 3)]


def _all_activations(state: GameState, sh: Shared) -> list[list[int]]:
    top = state.active
    if top is not None and not _nesting_open(state, top):
        return _NONE[6]  # mid-activation only the freighter exception activates another unit
    return [_activatable(state, sh.me, t, sh) for t in range(6)]


def _nesting_open(state: GameState, top) -> bool:
    """The part of the freighter exception (``nested_ok``) that depends on the active unit
    alone: outside a retaliation and a nested activation, a freighter, or a knight aboard one
    and still moving."""
    if state.retaliator >= 0 or len(state.stack) > 1:
        return False
    t_active = state.u_type[top.unit]
    if t_active == FREIGHTER:
        return True
    return t_active in LAND_TYPES and state.u_where[top.unit] == LOADED and top.move != MOVE_DONE


_NONE = {k: [[]] * k for k in (6, 10)}  # no hexes for any verb of a span (never changed)
# (first verb, verbs, hexes of one verb, hexes of each verb of the span or None: one by one).
# A span is what open_verbs opens together: a span function works out all of its verbs.
_SPANS = (
    (A.PLACE, 3, _h_place, _all_placements), (A.BUILD_UNIT, 6, _h_build_unit, _all_builds),
    (A.BUILD_ARTILLERY, 1, _h_build_artillery, None), (A.BUILD_DEV, 3, _h_build_dev, None),
    (A.BUILD_WALL, 6, _h_build_wall, _all_walls),
    (A.RELOCATE_WALL, 6, _h_relocate_wall, _all_relocations),
    (A.BREACH, 6, _h_breach, _all_breaches), (A.ACTIVATE, 6, _h_activate, _all_activations),
    (A.MOVE, 2, _h_unit_action, None), (A.ATTACK, 2, _h_unit_action, None),
    (A.OCCUPY, 1, _h_occupy, None), (A.SEIZE, 1, _h_seize, None),
    (A.DISCHARGE, 3, _h_discharge, None), (A.RECRUIT, 1, _h_recruit, None),
    (A.SHOOT, 1, _h_unit_action, None), (A.ATTACK_FROM, 1, _h_attack_from, None),
    (A.CHOOSE, 6, _h_choose, _all_choices),
)


def _one_by_one(start: int, count: int, fn: Callable[[GameState, int, Shared], list[int]]
                ) -> Callable[[GameState, Shared], list[list[int]]]:
    """A span function that asks the verb function of each verb in turn."""
    def every(state: GameState, sh: Shared) -> list[list[int]]:
        return [fn(state, v, sh) for v in range(start, start + count)]
    return every


def _verb_tables() -> tuple[tuple, tuple]:
    """Per verb: its hexes function, and (first verb of its span, the span's function). The
    build span's function covers artillery and developments too (verbs 3-12)."""
    table: list = [None] * A.N_HEX_VERBS
    span_of: list = [None] * A.N_HEX_VERBS
    for start, count, fn, every in _SPANS:
        for v in range(start, start + count):
            table[v] = fn
            span_of[v] = (start, every or _one_by_one(start, count, fn))
    for v in range(A.BUILD_UNIT, A.BUILD_DEV + 3):
        span_of[v] = (A.BUILD_UNIT, _all_builds)
    assert all(table), "every verb needs a function"
    return tuple(table), tuple(span_of)


_VERB_HEXES, _SPAN_OF = _verb_tables()


def _dischargeable_hexes(state: GameState, me: int, utype: int, sh: Shared) -> list[int]:
    """Hexes with a land unit of this type that may be discharged: its replacement must have
    somewhere to go once it is gone (a free site now, or the room it leaves behind)."""
    cells = sh.mine().land_cells[utype]
    if not cells:
        return []
    sites = sh.unit_sites(utype)
    out = []
    for c in sorted(cells):
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
    top, upright = state.active, sh.mine().upright[utype]
    cells = set()
    for u in upright:
        if top is None or nested_ok(state, top.unit, u):
            cells.add(state.u_cell[u])
    return sorted(cells)


def nested_ok(state: GameState, active: int, u: int) -> bool:
    """The freighter exception: while a freighter is active, a knight aboard it or on land next
    to it may be activated (to disembark or embark); while a knight aboard a freighter is active
    and still moving, that freighter may be activated to carry it. ``active`` is the active
    unit (``state.active.unit``)."""
    if not _nesting_open(state, state.active):
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


def _unit_action_hexes(state: GameState, verb: int) -> list[int]:
    top = state.active
    u = top.unit
    me = state.u_owner[u]
    cell = state.u_cell[u]
    if verb == A.MOVE:
        r = reach(state, u, top.move_left, can_attack=may_battle_move(state, top), wind=not top.rode)
        return sorted(list(r.stops) + list(r.battles))
    if verb == A.MOVE_ARTILLERY:
        if state.u_where[u] != ON_BOARD or state.u_type[u] not in LAND_TYPES or state.art_owner[cell] != me:
            return []
        return sorted(reach(state, u, top.move_left, towing=True).stops)
    if verb in (A.ATTACK, A.SHOOT):
        if not can_attack_from_here(state, u):
            return []
        if verb == A.ATTACK:
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
    candidates = set()
    for c in sh.guards(me)[0]:  # my units other than freighters
        for d in range(6):
            n = state.nbr[c * 6 + d]
            if n >= 0 and state.cell_player[n] != -1 and state.cell_player[n] != me \
                    and (state.dev_type[n] or state.art_owner[n] >= 0):
                candidates.add(n)
    out = []
    mine = seizer_cells(state, me) if candidates else set()
    for c in sorted(candidates):
        if state.retaliator >= 0 and c in state.seized_this_turn:
            continue
        # the bound method as a Python object (a typed Shared's C method cannot be passed on)
        if seize_sources(state, me, c, getattr(sh, "guards"), mine):
            out.append(c)
    return out
