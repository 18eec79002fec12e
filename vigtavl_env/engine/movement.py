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

Speed: the result is typed arrays (C arrays in the compiled build): each hex's cost and kind,
and the order the search reached them. Its dicts (``Reach.cost``, ``stops``, ``battles``) are
made from them on first use, in that order (the bots iterate them, and their ties follow it);
the engine asks the arrays.
"""

from __future__ import annotations

from array import array
from typing import Any

from .state import BATTLE, GameState
from .stats import ARTILLERY_OCCUPANCY, FREIGHTER, FREIGHTER_CAPACITY, IS_SHIP, MAX_OCCUPANCY


STOP, BATTLE_HEX, WINDY = 1, 2, 4  # Reach.kind bits of a hex
# board size -> a blank Reach buffer: seen -1, then kind, order and the search's two queues 0
_BLANK: dict[int, Any] = {}


class Reach:
    """Result of a movement search, as typed arrays in one int buffer ``tables`` of the board's
    ``n`` hexes: ``seen`` (``tables[c]``) the cheapest cost of hex ``c`` (-1: not reached),
    ``kind`` (``tables[n + c]``) its bits (``STOP``: the unit may end there, ``BATTLE_HEX``: moving
    in starts a battle, ``WINDY``: its cheapest way in rode the wind) and ``order``
    (``tables[2n + i]``), the hexes in the order the search reached them (``count`` of them); the
    search's queues after them.

    The dicts hex -> cost ``cost``, ``stops`` and ``battles`` (in the order reached, which the
    bots' ties follow) and the set ``windy`` are made from the arrays on first use; the engine
    asks the arrays (``cost_of``, ``is_stop``, ``is_battle``, ``is_windy``, ``destinations``, ``in_order``)."""

    def __init__(self, n_cells: int) -> None:
        blank = _BLANK.get(n_cells)
        if blank is None:
            blank = _BLANK[n_cells] = array("i", [-1]) * n_cells + array("i", [0]) * (4 * n_cells)
        # one copy of a blank buffer, one view of it: a fresh buffer, or a view per table, costs more
        self.tables = blank[:]
        self.n = n_cells
        self.count = 0
        self._cost = self._stops = self._battles = self._windy = None

    def reached(self, c: int, cost: int, bits: int) -> None:
        """Hex ``c`` is reached first at ``cost``, with the ``kind`` bits ``bits``."""
        self.tables[c] = cost
        self.tables[self.n + c] = bits
        self.tables[2 * self.n + self.count] = c
        self.count += 1

    def cost_of(self, c: int) -> int:
        return self.tables[c]

    def is_stop(self, c: int) -> bool:
        return self.tables[self.n + c] & STOP != 0

    def is_battle(self, c: int) -> bool:
        return self.tables[self.n + c] & BATTLE_HEX != 0

    def is_windy(self, c: int) -> bool:
        return self.tables[self.n + c] & WINDY != 0

    def order_at(self, i: int) -> int:
        """The ``i``-th hex the search reached."""
        return self.tables[2 * self.n + i]

    def destinations(self, bits: int) -> list[int]:
        """The hexes with one of the ``kind`` bits ``bits`` (stops, battles or both), ascending."""
        out = []
        t, n = self.tables, self.n
        for c in range(n):  # in hex order: no sort
            if t[n + c] & bits:
                out.append(c)
        return out

    def in_order(self, bits: int) -> list[int]:
        """The hexes with one of the ``kind`` bits ``bits``, in the order the search reached
        them (the order of the dicts, without making one)."""
        out = []
        t, n = self.tables, self.n
        for i in range(self.count):
            c = t[2 * n + i]
            if t[n + c] & bits:
                out.append(c)
        return out

    def _dict(self, bits: int) -> dict[int, int]:
        out = {}
        t, n = self.tables, self.n
        for i in range(self.count):
            c = t[2 * n + i]
            if bits == 0 or t[n + c] & bits:
                out[c] = t[c]
        return out

    @property
    def cost(self) -> dict[int, int]:
        if self._cost is None:
            self._cost = self._dict(0)
        return self._cost

    @property
    def stops(self) -> dict[int, int]:
        if self._stops is None:
            self._stops = self._dict(STOP)
        return self._stops

    @property
    def battles(self) -> dict[int, int]:
        if self._battles is None:
            self._battles = self._dict(BATTLE_HEX)
        return self._battles

    @property
    def windy(self) -> set[int]:
        if self._windy is None:
            self._windy = {c for c in self._dict(WINDY)}
        return self._windy


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
    if start < 0:
        return Reach(state.n_cells)  # not on the board: nowhere to go
    res = Reach(state.n_cells)
    t = res.tables  # seen at 0, kind at n, order at 2n, the queue at 3n, the wind's arrivals at 4n
    n = state.n_cells
    stop, windy = STOP, WINDY  # the kind bits as C ints here (module constants are Python objects)
    res.reached(start, 0, 0)
    # The hexes to step on from, level by level: this level's frontier is queue[f0:f1]; the next
    # level's is appended after it, the hexes the wind brought first (they arrive one level later).
    qs = 3 * n
    f0, f1 = qs, qs + 1
    t[qs] = start
    ls = 4 * n
    n_later = 0  # hexes reached by the wind, one cost level further out: t[ls:ls + n_later]
    for cost in range(1, points + 1):
        nxt = f1
        for i in range(n_later):
            t[nxt] = t[ls + i]
            nxt += 1
        n_later = 0
        for i in range(f0, f1):
            a = t[i]
            for d in range(6):
                b = nbr[a * 6 + d]
                if b < 0:
                    continue
                e = nbr_edge[a * 6 + d]
                if t[b] >= 0:
                    if t[n + b] & windy and t[b] == cost and not t[n + a] & windy and own_terrain[b]:
                        # as cheap without the wind: the ride is not needed to get here
                        w = walls[e]
                        h = holder[b]
                        if (w < 0 or w == me) and (h == -1 or h == me):
                            t[n + b] &= ~windy
                    continue
                w = walls[e]
                if w >= 0 and w != me:
                    continue
                h = holder[b]
                if own_terrain[b] and (h < 0 or h == me):
                    # The common step (as _enter does it): an empty or own hex of its terrain.
                    res.reached(b, cost, stop if occ[b] + need <= MAX_OCCUPANCY and not (towing and art_owner[b] >= 0)
                                else 0)
                elif not _enter(state, res, b, cost, me, ship, need, towing, battle_phase, can_attack):
                    continue
                t[nxt] = b
                nxt += 1
                if t[n + a] & windy:
                    t[n + b] |= windy
        if ship and wind and cost + 1 <= points:
            # Riding the wind arrives one level later, so ordinary steps of this level go first.
            for i in range(f0, f1):
                a = t[i]
                if t[n + a] & windy:
                    continue
                for b in wind_to[a]:
                    h = holder[b]
                    if t[b] < 0 and (h == -1 or h == me):
                        res.reached(b, cost + 1, (stop if occ[b] + 1 <= MAX_OCCUPANCY else 0) | windy)
                        t[ls + n_later] = b
                        n_later += 1
        f0, f1 = f1, nxt
        if f0 == f1 and not n_later:
            break
    return res


def _enter(state: GameState, res: Reach, b: int, cost: int, me: int, ship: bool, need: int,
           towing: bool, battle_phase: bool, can_attack: bool) -> bool:
    """Record what stepping onto ``b`` at ``cost`` allows (in ``res``); True if movement may go
    on from b."""
    stop = STOP
    land = state.land[b]
    if not land and not state.sea[b]:
        return False  # mountain
    h = state.cell_player[b]
    if ship != (not land):
        # A knight steps onto sea only to board its own freighter (and stops there).
        if not ship and not towing and h == me and freighter_with_room(state, b, me) >= 0:
            res.reached(b, cost, stop)
        return False
    if h >= 0 and h != me:
        if battle_phase:
            # U28: knights (the defenders of a land hex) are attacked only by a player with a
            # development to hold the prisoner; ships may always be attacked.
            if can_attack and (ship or has_development(state, me)) and _has_defenders(state, b, h):
                res.reached(b, cost, BATTLE_HEX)
            return False
        res.reached(b, cost, 0)  # build phase: pass through, never stop
        return True
    res.reached(b, cost, stop if state.occ[b] + need <= MAX_OCCUPANCY and not (towing and state.art_owner[b] >= 0)
                else 0)
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
