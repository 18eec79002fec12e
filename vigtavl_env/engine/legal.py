"""Which decisions are legal now: the verbs open in this moment, and the hexes for each verb.

``open_verbs`` says which verbs the moment allows (placement, a pending recruit, a retaliation,
an ordinary turn with or without an active unit); ``hexes_for`` lists the hexes where one verb
is legal. ``legal_actions`` (game.py) is their product, and ``apply_action`` validates a decision
with the same two functions, so the list and the checks can never disagree.
"""

from __future__ import annotations

from . import actions as A
from .building import (
    ARTILLERY_SLOT, artillery_sites, can_afford_development, can_afford_unit, can_afford_wall,
    development_candidates, development_sites, may_build_now, near_development, placement_sites,
    reserve_ships, unit_capacity, unit_sites, wall_sites,
)
from .combat import can_attack_from_here, can_stand, close_targets, ranged_targets
from .free_actions import guard_cells, may_breach, seize_sources
from .movement import reach
from .state import (
    BATTLE, LOADED, MOVE_DONE, ON_BOARD, OVER, PLACEMENT, SPENT, GameState, positions,
)
from .stats import FREIGHTER, IS_SHIP, LAND_TYPES, UNIT_COST, UNIT_RANGE

GLOBAL_OPEN = -100  # marker in open_verbs for the global verbs


def open_verbs(state: GameState) -> tuple[list[int], list[int], str]:
    """(hex verbs, global verbs, why) for the moment; ``why`` explains what is going on."""
    if state.phase == OVER:
        return [], [], "the game is over"
    if state.phase == PLACEMENT:
        return [A.PLACE, A.PLACE + 1, A.PLACE + 2], [], "placement: place one of your ships"
    if state.recruit_type >= 0:
        return [A.RECRUIT], [], "a discharged unit must be recruited first"
    verbs: list[int] = []
    top = state.active
    if state.occupy_unit >= 0 and state.u_owner[state.occupy_unit] == state.current_player:
        verbs.append(A.OCCUPY)
    if state.retaliator >= 0:
        if top is None and not state.retaliation_used:
            verbs += range(A.ACTIVATE, A.ACTIVATE + 6)
        if top is not None:
            verbs += _unit_verbs(state)
        if state.phase == BATTLE:
            verbs += [A.SEIZE] + list(range(A.BREACH, A.BREACH + 6))
        glob = [A.END_ACTIVATION] if top is not None else []
        return verbs, glob + [A.END_TURN], "retaliation: activate one unit, or end to decline"
    if may_build_now(state):
        verbs += range(A.BUILD_UNIT, A.BUILD_DEV + 3)
        verbs += range(A.BUILD_WALL, A.BUILD_WALL + 6)
        if not state.wall_relocated:
            verbs += range(A.RELOCATE_WALL, A.RELOCATE_WALL + 6)
        if not state.discharged:
            verbs += range(A.DISCHARGE, A.DISCHARGE + 3)
    if state.phase == BATTLE:
        verbs += [A.SEIZE] + list(range(A.BREACH, A.BREACH + 6))
    verbs += range(A.ACTIVATE, A.ACTIVATE + 6)
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
        out += [A.ATTACK, A.FIRE_ARTILLERY]
    return out


class _Shared:
    """Work shared by several verbs within one enumeration (computed on first use)."""

    __slots__ = ("state", "me", "_walls", "_own_walls", "_land", "_ships", "_mine", "_near",
                 "_capacity", "_dev_candidates", "_guards", "_breaches")

    def __init__(self, state: GameState) -> None:
        self.state, self.me = state, state.current_player
        self._walls = self._own_walls = self._land = self._ships = self._mine = None
        self._near = self._capacity = self._dev_candidates = self._breaches = None
        self._guards: dict[int, tuple[set[int], set[int]]] = {}

    def mine(self) -> "_Mine":
        """One scan of the deciding player's units, shared by activation, seize, breach and
        discharge."""
        if self._mine is None:
            self._mine = _Mine(self.state, self.me)
        return self._mine

    def own_walls(self, d: int) -> list[int]:
        """Own walls by direction, each named once: from the first hex of its edge."""
        if self._own_walls is None:
            self._own_walls = [[] for _ in range(6)]
            first = self.state.gmap.board.edge_first
            for e in positions(self.state.walls, self.me):
                cell, direction = first[e]
                self._own_walls[direction].append(cell)
        return self._own_walls[d]

    def guards(self, player: int) -> tuple[set[int], set[int]]:
        """``guard_cells`` of a player, scanned once per enumeration."""
        g = self._guards.get(player)
        if g is None:
            g = self._guards[player] = guard_cells(self.state, player)
        return g

    def breaches(self, d: int) -> list[int]:
        """Hexes of mine facing an opponent wall in direction ``d`` with a unit able to breach it,
        for all six directions in one pass."""
        if self._breaches is None:
            self._breaches = [[] for _ in range(6)]
            state, me = self.state, self.me
            edge, walls, ready = state.gmap.board.edge, state.walls, self.mine().breach_cells
            for c in self.mine().board_cells:
                if c in ready:
                    for k, e in enumerate(edge[c]):
                        w = walls[e]
                        if w >= 0 and w != me:
                            self._breaches[k].append(c)
        return self._breaches[d]

    def walls(self, d: int) -> list[int]:
        if self._walls is None:
            self._walls = wall_sites(self.state, self.me)
        return self._walls[d]

    def near(self) -> set[int]:
        if self._near is None:
            self._near = near_development(self.state, self.me)
        return self._near

    def capacity(self) -> int:
        if self._capacity is None:
            self._capacity = unit_capacity(self.state, self.me)
        return self._capacity

    def dev_candidates(self) -> list[int]:
        if self._dev_candidates is None:
            self._dev_candidates = development_candidates(self.state, self.me)
        return self._dev_candidates

    def unit_sites(self, utype: int) -> list[int]:
        # Sites depend only on land versus sea: every knight type shares one list, every ship one.
        if IS_SHIP[utype]:
            if self._ships is None:
                self._ships = unit_sites(self.state, self.me, utype, self.near())
            return self._ships
        if self._land is None:
            self._land = unit_sites(self.state, self.me, utype, self.near())
        return self._land


class _Mine:
    """The deciding player's units, grouped the ways the verbs ask for them."""

    __slots__ = ("upright", "board_cells", "land_cells", "breach_cells")

    def __init__(self, state: GameState, me: int) -> None:
        self.upright: list[list[int]] = [[] for _ in range(6)]  # by type: not yet activated
        # knights on board or aboard, not in an activation: the ones a discharge may take
        self.land_cells: list[set[int]] = [set(), set(), set()]
        active = {a.unit for a in state.stack}
        board_cells: set[int] = set()
        self.breach_cells: set[int] = set()  # hexes with a unit that may still breach
        u_where, u_type, u_cell, u_flags = state.u_where, state.u_type, state.u_cell, state.u_flags
        for u in positions(state.u_owner, me):
            w = u_where[u]
            if w > LOADED:  # ON_BOARD = 0, LOADED = 1
                continue
            t, c = u_type[u], u_cell[u]
            if not u_flags[u] & SPENT:
                self.upright[t].append(u)
            if t < 3 and u not in active:
                self.land_cells[t].add(c)
            if w == ON_BOARD:
                board_cells.add(c)
                if may_breach(state, u, active):
                    self.breach_cells.add(c)
        self.board_cells = sorted(board_cells)


def hexes_for(state: GameState, verb: int, shared: _Shared | None = None) -> list[int]:
    """Hexes where ``verb`` is legal now (assuming the moment opens the verb)."""
    return _VERB_HEXES[verb](state, verb, shared or _Shared(state))


def _h_place(state: GameState, verb: int, sh: _Shared) -> list[int]:
    utype = 3 + verb - A.PLACE
    if not any(state.u_type[u] == utype for u in reserve_ships(state, sh.me)):
        return []
    return placement_sites(state, sh.me)


def _h_build_unit(state: GameState, verb: int, sh: _Shared) -> list[int]:
    utype = verb - A.BUILD_UNIT
    return sh.unit_sites(utype) if can_afford_unit(state, sh.me, utype, sh.capacity()) else []


def _h_build_artillery(state: GameState, verb: int, sh: _Shared) -> list[int]:
    return artillery_sites(state, sh.me) if can_afford_unit(state, sh.me, ARTILLERY_SLOT) else []


def _h_build_dev(state: GameState, verb: int, sh: _Shared) -> list[int]:
    dev = verb - A.BUILD_DEV + 1
    if not can_afford_development(state, sh.me, dev):
        return []
    return development_sites(state, sh.me, dev, sh.dev_candidates())


def _h_build_wall(state: GameState, verb: int, sh: _Shared) -> list[int]:
    return sh.walls(verb - A.BUILD_WALL) if can_afford_wall(state, sh.me) else []


def _h_relocate_wall(state: GameState, verb: int, sh: _Shared) -> list[int]:
    return sorted(sh.own_walls(verb - A.RELOCATE_WALL))


def _h_breach(state: GameState, verb: int, sh: _Shared) -> list[int]:
    return sh.breaches(verb - A.BREACH)


def _h_activate(state: GameState, verb: int, sh: _Shared) -> list[int]:
    return _activatable(state, sh.me, verb - A.ACTIVATE, sh)


def _h_unit_action(state: GameState, verb: int, sh: _Shared) -> list[int]:
    return _unit_action_hexes(state, verb)


def _h_occupy(state: GameState, verb: int, sh: _Shared) -> list[int]:
    u = state.occupy_unit
    # Still possible after a retaliation in between (the unit may have been captured).
    if u < 0 or state.u_where[u] != ON_BOARD or not can_stand(state, u, state.occupy_cell):
        return []
    return [state.occupy_cell]


def _h_seize(state: GameState, verb: int, sh: _Shared) -> list[int]:
    return _seizable(state, sh.me, sh)


def _h_discharge(state: GameState, verb: int, sh: _Shared) -> list[int]:
    return _dischargeable_hexes(state, sh.me, LAND_TYPES[verb - A.DISCHARGE], sh)


def _h_recruit(state: GameState, verb: int, sh: _Shared) -> list[int]:
    return sh.unit_sites(state.recruit_type)


def _verb_table() -> tuple:
    spans = [
        (A.PLACE, 3, _h_place), (A.BUILD_UNIT, 6, _h_build_unit),
        (A.BUILD_ARTILLERY, 1, _h_build_artillery), (A.BUILD_DEV, 3, _h_build_dev),
        (A.BUILD_WALL, 6, _h_build_wall), (A.RELOCATE_WALL, 6, _h_relocate_wall),
        (A.BREACH, 6, _h_breach), (A.ACTIVATE, 6, _h_activate), (A.MOVE, 4, _h_unit_action),
        (A.OCCUPY, 1, _h_occupy), (A.SEIZE, 1, _h_seize), (A.DISCHARGE, 3, _h_discharge),
        (A.RECRUIT, 1, _h_recruit),
    ]
    table = [None] * A.N_HEX_VERBS
    for start, count, fn in spans:
        for v in range(start, start + count):
            table[v] = fn
    assert all(table), "every verb needs a function"
    return tuple(table)


_VERB_HEXES = _verb_table()


def _dischargeable_hexes(state: GameState, me: int, utype: int, sh: _Shared) -> list[int]:
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
    board = state.gmap.board
    next_to_dev = any(n >= 0 and state.dev_owner[n] == me for n in board.neighbours[cell])
    if state.gmap.is_land[cell]:
        return next_to_dev or state.dev_owner[cell] == me
    return next_to_dev


def _activatable(state: GameState, me: int, utype: int, sh: _Shared) -> list[int]:
    """Hexes with an upright own unit of this type that may be activated now."""
    if UNIT_COST[utype] > state.silver[me]:
        return []
    top = state.active
    out = set()
    for u in sh.mine().upright[utype]:
        if top is not None and not nested_ok(state, top.unit, u):
            continue
        out.add(state.u_cell[u])
    return sorted(out)


def nested_ok(state: GameState, active: int, u: int) -> bool:
    """The freighter exception: while a freighter is active, a knight aboard it or on land next
    to it may be activated (to disembark or embark); while a knight aboard a freighter is active
    and still moving, that freighter may be activated to carry it."""
    if state.retaliator >= 0 or len(state.stack) > 1:
        return False
    t_active = state.u_type[active]
    if t_active == FREIGHTER and state.u_type[u] in LAND_TYPES:
        if state.u_where[u] == LOADED:
            return state.u_carrier[u] == active
        board = state.gmap.board
        return board.dist[state.u_cell[u]][state.u_cell[active]] == 1
    if t_active in LAND_TYPES and state.u_type[u] == FREIGHTER:
        top = state.active
        return (state.u_where[active] == LOADED and state.u_carrier[active] == u
                and top.move != MOVE_DONE)
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
        r = reach(state, u, top.move_left, can_attack=may_battle_move(state, top))
        return sorted(list(r.stops) + list(r.battles))
    if verb == A.MOVE_ARTILLERY:
        if state.u_where[u] != ON_BOARD or state.u_type[u] not in LAND_TYPES or state.art_owner[cell] != me:
            return []
        return sorted(reach(state, u, top.move_left, towing=True).stops)
    if verb == A.ATTACK:
        if not can_attack_from_here(state, u):
            return []
        if UNIT_RANGE[state.u_type[u]]:
            return sorted(ranged_targets(state, me, cell))
        return sorted(close_targets(state, u))
    # FIRE_ARTILLERY: a knight standing on its own artillery's hex
    if state.u_where[u] != ON_BOARD or state.u_type[u] not in LAND_TYPES or state.art_owner[cell] != me:
        return []
    return sorted(ranged_targets(state, me, cell))


def _seizable(state: GameState, me: int, sh: _Shared) -> list[int]:
    """Other players' developments and artillery next to one of my units, undefended."""
    neighbours, holder, dev_type, art_owner = state.gmap.board.neighbours, state.cell_player, state.dev_type, state.art_owner
    candidates = set()
    for c in sh.guards(me)[0]:  # my units other than freighters
        for n in neighbours[c]:
            if n >= 0 and holder[n] not in (-1, me) and (dev_type[n] or art_owner[n] >= 0):
                candidates.add(n)
    out = []
    for c in sorted(candidates):
        if state.retaliator >= 0 and c in state.seized_this_turn:
            continue
        if seize_sources(state, me, c, sh.guards):
            out.append(c)
    return out
