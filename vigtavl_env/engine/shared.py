"""Work that several verbs of one legal enumeration share, each piece computed on first use.

``legal.py`` asks a :class:`Shared` for the pieces: the deciding player's units grouped once
(:class:`Mine`), build sites, wall sites, own walls, breach sites and guard hexes. A ``Shared``
lives for one enumeration of one state; nothing here changes the state.
"""

from __future__ import annotations


from .building import development_candidates, near_sites, unit_capacity, unit_sites, wall_sites
from .free_actions import guard_cells, may_breach
from .state import LOADED, ON_BOARD, SPENT, GameState, deciding_player, in_activation, positions, zero_flags
from .stats import IS_SHIP


class Shared:
    """Work shared by several verbs within one enumeration (computed on first use)."""

    def __init__(self, state: GameState) -> None:
        self.state, self.me = state, deciding_player(state)
        self._walls = self._own_walls = self._land = self._ships = self._mine = None
        self._dev_candidates = self._breaches = self._near = None
        self._capacity = -1

    def near(self) -> tuple:
        """``near_sites`` of the deciding player: the hexes around his developments."""
        if self._near is None:
            self._near = near_sites(self.state, self.me)
        return self._near

    def mine(self) -> "Mine":
        """One scan of the deciding player's units, shared by activation, seize, breach and
        discharge (kept between decisions: :func:`kept_mine`)."""
        if self._mine is None:
            self._mine = kept_mine(self.state, self.me)
        return self._mine

    def own_walls(self) -> list[list[int]]:
        """Own walls by direction, each named once: from the first hex of its edge, ascending.
        Kept in the state between decisions (``GameState.walls_memo``) with the ``wall_stamp``
        they were worked out under; the lists are shared, so callers never change them."""
        if self._own_walls is None:
            state, me = self.state, self.me
            memo = state.walls_memo[me]
            if memo is not None and memo[0] == state.wall_stamp:
                self._own_walls = memo[1]
                return self._own_walls
            out: list[list[int]] = [[], [], [], [], [], []]
            first = state.gmap.board.edge_first
            for e in positions(state.walls, me):
                cell, direction = first[e]
                out[direction].append(cell)
            for x in out:
                x.sort()
            self._own_walls = out
            state.walls_memo[me] = (state.wall_stamp, out)
        return self._own_walls

    def guards(self, player: int) -> tuple[set[int], set[int]]:
        """``guard_cells`` of a player (kept in the state between decisions)."""
        return guard_cells(self.state, player)

    def breaches(self) -> list[list[int]]:
        """Per direction ``d``, hexes of mine facing an opponent wall in direction ``d`` with a
        unit able to breach it (all six directions in one pass)."""
        if self._breaches is None:
            self._breaches = [[] for _ in range(6)]
            state, me, mine = self.state, self.me, self.mine()
            active = None
            for c in mine.board_cells:
                facing = 0  # directions with an opponent wall, as bits: walls are few, units many
                for k in range(6):
                    w = state.walls[state.nbr_edge[c * 6 + k]]
                    if w >= 0 and w != me:
                        facing |= 1 << k
                if not facing:
                    continue
                if active is None:
                    active = {a.unit for a in state.stack}
                if not _may_breach_from(state, mine.board_units, c, active):
                    continue
                for k in range(6):
                    if facing >> k & 1:
                        self._breaches[k].append(c)
        return self._breaches

    def walls(self) -> list[list[int]]:
        """``wall_sites`` of the deciding player, per direction."""
        if self._walls is None:
            self._walls = wall_sites(self.state, self.me)
        return self._walls

    def capacity(self) -> int:
        if self._capacity < 0:
            self._capacity = unit_capacity(self.state, self.me)
        return self._capacity

    def dev_candidates(self) -> list[int]:
        if self._dev_candidates is None:
            self._dev_candidates = development_candidates(self.state, self.me, self.mine().cells, self.near())
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


def _may_breach_from(state: GameState, units: list[int], cell: int, active: set[int]) -> bool:
    """One of ``units`` (on the board) stands on ``cell`` and may still breach."""
    for u in units:
        if state.u_cell[u] == cell and may_breach(state, u, active):
            return True
    return False


class Mine:
    """The deciding player's units, grouped the ways the verbs ask for them: ``upright`` (units by
    type, not yet activated), ``land_cells`` (hexes of knights by type, not active),
    ``board_units``, ``board_cells`` and ``cells`` (on the board or aboard); the hex lists ascend
    and name each hex once, but for ``cells`` (a hex once per unit there, in unit order: its one
    reader marks hexes). ``player`` and ``stamp``: whose units, under which ``unit_stamp``."""

    def __init__(self, state: GameState, me: int) -> None:
        self.player, self.stamp = me, state.unit_stamp
        _scan_units(self, state, me)


def kept_mine(state: GameState, me: int) -> Mine:
    """``Mine(state, me)``, kept in the state between decisions (``GameState.mine_memo``) and
    used again while the unit tables and the activation stack are unchanged (the state's
    ``unit_stamp``, which every writer of them renews); its lists are shared, so callers never
    change them."""
    mine = state.mine_memo
    if mine is not None and mine.player == me and mine.stamp == state.unit_stamp:
        return mine
    mine = Mine(state, me)
    state.mine_memo = mine
    return mine


def _scan_units(mine: Mine, state: GameState, me: int) -> None:
    """Fill ``mine`` with one pass over the units; the hex lists come out ascending, each hex
    once, from a mark per hex (a bit per list) read in hex order: no sort, no set."""
    upright: list[list[int]] = [[], [], [], [], [], []]  # by type: not yet activated
    cells: list[int] = []  # hexes of all of them, on the board or aboard
    board_units: list[int] = []
    marks = zero_flags(state.n_cells)  # bit t (< 3): a knight of type t, not active; bit 3: on the board
    for u in range(state.n_units):
        w = state.u_where[u]
        if state.u_owner[u] != me or w > LOADED:  # ON_BOARD = 0, LOADED = 1
            continue
        t, c = state.u_type[u], state.u_cell[u]
        cells.append(c)
        if not state.u_flags[u] & SPENT:
            upright[t].append(u)
        if t < 3 and not in_activation(state, u):  # the knights a discharge may take
            marks[c] |= 1 << t
        if w == ON_BOARD:
            marks[c] |= 8
            board_units.append(u)
    land_cells: list[list[int]] = [[], [], []]
    board_cells: list[int] = []
    for c in range(state.n_cells):
        m = marks[c]
        if m:
            if m & 1:
                land_cells[0].append(c)
            if m & 2:
                land_cells[1].append(c)
            if m & 4:
                land_cells[2].append(c)
            if m & 8:
                board_cells.append(c)
    mine.upright, mine.land_cells, mine.board_units = upright, land_cells, board_units
    mine.cells, mine.board_cells = cells, board_cells


def sorted_once(cells: list[int]) -> list[int]:
    """``cells`` sorted in place, each hex once (units often share a hex). The lists are short
    (one player's units of a kind): up to 12, an insertion sort on typed ints, no set."""
    m = len(cells)
    if m < 2:
        return cells
    if m > 12:
        cells.sort()
    else:
        for i in range(1, m):
            xo = cells[i]
            x = xo
            j = i - 1
            while j >= 0:
                y = cells[j]
                if y <= x:
                    break
                cells[j + 1] = cells[j]
                j -= 1
            cells[j + 1] = xo
    k = 0  # drop the repeats: cells[:k + 1] are the distinct hexes so far
    for i in range(1, m):
        x = cells[i]
        y = cells[k]
        if x != y:
            k += 1
            cells[k] = cells[i]
    if k + 1 < m:
        del cells[k + 1:]
    return cells
