"""The game state: every piece, every counter, the dice, and cheap cloning.

The state is plain mutable data: parallel tables (no per-unit objects), all of them views of
one flat ``array('i')``, so that ``clone()`` is one buffer copy (search bots clone thousands of
times a second) and the compiled core reads them as C arrays (``state.pxd``). Rules live
elsewhere; this module only knows how to place, lift and count pieces so that the occupancy
tables stay consistent, and how to roll dice.

The state also records what changes: each group of tables (the units with the activation
stack, the developments with the artillery, the walls) holds a stamp that every writer renews
(``new_stamp``), and the legal facts kept between decisions are used again only while their
stamps are the same. Code that writes the tables by hand calls ``GameState.touch()``.

Units are numbered once and keep their number for the whole game. ``u_where`` says where a unit
is: on the board, loaded on a freighter (``u_carrier``), held as a prisoner on a developed hex
(``u_holder`` holds it), still in reserve before placement, or gone (sunk, discharged).
"""

from __future__ import annotations

from array import array
from typing import Any

from .config import RulesConfig
from .stats import (
    ARTILLERY_OCCUPANCY, DEV_OCCUPANCY, FREIGHTER, IS_SHIP, NO_DEV, UNIT_COST,
)

# Phases.
PLACEMENT, BUILD, BATTLE, OVER = range(4)
PHASE_NAMES = ("placement", "build", "battle", "over")

# Where a unit is.
ON_BOARD, LOADED, PRISONER, RESERVE, GONE = range(5)
WHERE_NAMES = ("board", "loaded", "prisoner", "reserve", "gone")

# Per-turn unit flags.
SPENT = 1  # activated this turn (laid on its side)
BREACHED = 2  # attempted a breach this turn

# Choices asked of a player in the middle of a decision (``GameState.pending``).
(CHOOSE_SIDE, CHOOSE_DEFENDER, CHOOSE_GUARD, CHOOSE_BREACHER, CHOOSE_SEIZER, CHOOSE_VARIANT, CHOOSE_PRISON,
 CHOOSE_RESCUE_SPOT) = range(8)
N_PENDING_KINDS = 8

# Where victory tokens came from (``GameState.token_src``; tokens.token_sheet names them).
(SRC_CONQUER, SRC_BATTLE, SRC_RESCUE, SRC_CITADEL, SRC_COMPLEX, SRC_GREAT_WALL, SRC_GENERAL, SRC_ADMIRAL,
 SRC_BUILDER) = range(9)
N_TOKEN_SOURCES = 9

# Once-per-game awards (bit flags).
CITADEL, COMPLEX, GREAT_WALL = 1, 2, 4

# Movement state of an activation record.
MOVE_UNUSED, MOVE_IN_PROGRESS, MOVE_DONE = range(3)

MASK64 = (1 << 64) - 1
N_UNIT_TABLES = 7  # u_owner u_type u_cell u_where u_carrier u_holder u_flags
UNIT_ROOM_PER_PLAYER = 32  # room for units made before the tables move to a larger buffer

_last_stamp = 0  # the last number new_stamp handed out (one counter for the whole process)


_ZERO_BYTE = bytearray(1)


def zero_flags(n: int) -> bytearray:
    """``n`` zero bytes, a flag each (per hex, per edge): ``bytearray(n)`` made by repeating one
    byte, which costs a third of calling the type."""
    return _ZERO_BYTE * n


def new_stamp() -> int:
    """A number never handed out before in this process. A state holds one per group of tables
    (``unit_stamp``, ``dev_stamp``, ``wall_stamp``) and takes a new one whenever a table of the
    group changes: a fact kept with the stamps it was worked out under is still true while they
    are the same. One counter for all states, so two clones that change apart never share one."""
    global _last_stamp
    _last_stamp += 1
    return _last_stamp


def active_of(state: GameState) -> Activation | None:
    """``state.active`` as a function: the compiled modules call it in C (a property is a
    Python attribute look-up wherever it is read)."""
    return state.stack[-1] if state.stack else None


def deciding_player(state: GameState) -> int:
    """``state.current_player`` as a function (the compiled modules call it in C): the player a
    pending choice is asked of (a defender, out of turn), else the retaliating player during a
    retaliation, else the turn's player; -1 once the game is over."""
    if state.phase == OVER:
        return -1
    if state.pending is not None:
        return state.pending.player
    return state.retaliator if state.retaliator >= 0 else state.turn_player


def in_activation(state: GameState, u: int) -> bool:
    """Unit ``u`` is active: anywhere on the activation stack (a nested one too)."""
    for a in state.stack:
        if a.unit == u:
            return True
    return False


_EMPTY: dict[tuple[int, int, int], array] = {}  # the starting tables by board size (never changed)


def _empty_tables(n_cells: int, n_edges: int, room: int) -> array:
    """The tables of a new game (no developments, artillery, walls or units), made once per
    board size: a new state copies them whole instead of building them from Python lists."""
    key = (n_cells, n_edges, room)
    buf = _EMPTY.get(key)
    if buf is None:
        fill = [NO_DEV] * n_cells + [-1] * (2 * n_cells) + [0] * n_cells + [-1] * (2 * n_cells) \
            + [-1] * (2 * n_edges)
        buf = _EMPTY[key] = array("i", fill) + array("i", [0]) * (N_UNIT_TABLES * room)
    return buf


def unit_tables_at(n_cells: int, n_edges: int) -> int:
    """Where the unit tables start in ``GameState.buf``: after six tables per hex and two
    per edge (the layout :meth:`GameState._views` reads)."""
    return 6 * n_cells + 2 * n_edges


def positions(values: Any, x: int) -> list[int]:
    """Indices where ``values`` (a table of the state) holds ``x``, ascending."""
    out = []
    for i in range(len(values)):
        if values[i] == x:
            out.append(i)
    return out


def count_of(values: Any, x: int) -> int:
    """How many entries of ``values`` (a table of the state) hold ``x``."""
    n = 0
    for i in range(len(values)):
        if values[i] == x:
            n += 1
    return n


class Activation:
    """An activated unit: its two unique actions and the movement it has left."""

    def __init__(self, unit: int, move_left: int, origin: int) -> None:
        self.unit = unit
        self.move = MOVE_UNUSED
        self.attacked = False
        self.move_left = move_left
        self.origin = origin  # where its movement began (retreat goes back here)
        self.losers: list[int] = []  # players who lost a battle or a development to it
        self.rode = False  # rode the prevailing winds in this movement (once per move)
        self.done = False  # no action left; only its occupation is still to decide

    def copy(self) -> "Activation":
        a = Activation(self.unit, self.move_left, self.origin)
        a.move, a.attacked, a.losers = self.move, self.attacked, list(self.losers)
        a.rode, a.done = self.rode, self.done
        return a

    def to_list(self) -> list:
        return [self.unit, self.move, int(self.attacked), self.move_left, self.origin, list(self.losers),
                int(self.rode), int(self.done)]

    @classmethod
    def from_list(cls, x: list) -> "Activation":
        a = cls(int(x[0]), int(x[3]), int(x[4]))
        a.move, a.attacked, a.losers = int(x[1]), bool(x[2]), [int(p) for p in x[5]]
        a.rode, a.done = bool(x[6]), bool(x[7])
        return a


class Pending:
    """A choice a player must make before the decision that raised it can go on.

    ``kind``: CHOOSE_SIDE (the mover picks the hex its battle move enters from), CHOOSE_DEFENDER
    (the attacked player picks the unit that defends), CHOOSE_GUARD (the owner of a development
    or artillery about to be seized picks a defender, or none), CHOOSE_BREACHER and
    CHOOSE_SEIZER (the acting player picks which of several units breaches or seizes),
    CHOOSE_VARIANT (units of one type on one hex differ, upright or spent or by cargo: which one;
    ``extra`` is the decision's code that asked, ``parent`` the choice it answers, if any),
    CHOOSE_PRISON (the victor picks which of his equally near developments holds ``unit``) and
    CHOOSE_RESCUE_SPOT (the rescuer picks where the freed ``unit`` stands).
    ``player`` decides. ``unit``: the attacker, mover or seizer (-1 for the last two kinds).
    ``cell``: the attacked or seized hex (the breacher's hex for CHOOSE_BREACHER). ``origin``:
    the hex the attack comes from. ``reach``: the range of a ranged attack (0: close combat).
    ``extra``: the movement a battle move costs (-1: not a battle move), or the breached edge.
    ``artillery``: the attack fires artillery.
    """

    def __init__(self, kind: int, player: int, unit: int = -1, cell: int = -1, origin: int = -1,
                 reach: int = 0, extra: int = -1, artillery: bool = False, parent: "Pending | None" = None) -> None:
        self.kind, self.player, self.unit, self.cell = kind, player, unit, cell
        self.origin, self.reach, self.extra, self.artillery = origin, reach, extra, artillery
        self.parent = parent

    def copy(self) -> "Pending":
        return Pending(self.kind, self.player, self.unit, self.cell, self.origin, self.reach, self.extra,
                       self.artillery, None if self.parent is None else self.parent.copy())

    def to_list(self) -> list:
        return [self.kind, self.player, self.unit, self.cell, self.origin, self.reach, self.extra,
                int(self.artillery), None if self.parent is None else self.parent.to_list()]

    @classmethod
    def from_list(cls, x: list) -> "Pending":
        parent = cls.from_list(x[8]) if len(x) > 8 and x[8] is not None else None
        return cls(*(int(v) for v in x[:7]), artillery=bool(x[7]), parent=parent)


class GameState:
    """Everything that changes during a game (the map and config are shared, never copied).

    The per-hex, per-edge and per-unit tables live in one flat ``array('i')``, ``buf``; each
    table (``u_owner``, ``dev_type``, ``walls`` ...) is a view of its slice, indexed like a list.
    ``clone()`` is then one copy of ``buf`` and a few slices, and the compiled core reads the
    views as C arrays (``state.pxd`` types them). The unit tables are views of the first
    ``n_units`` entries of room for ``unit_room``; ``add_unit`` widens them (and, rarely, moves
    them to a larger buffer). Per-player counters stay small lists.
    """

    def __init__(self, gmap: Any, config: RulesConfig, n_cells: int, n_edges: int) -> None:
        self.gmap = gmap
        self.config = config
        self.n_players = gmap.num_players
        p = self.n_players
        self.n_cells, self.n_edges = n_cells, n_edges
        self.phase = PLACEMENT
        self.round = 0
        self.turn_player = 0
        self.turns_played = 0
        self.decisions = 0
        self.wind = 1  # +1 clockwise, -1 counter-clockwise
        self.gold = [0] * p
        self.silver = [0] * p
        self.tokens = [0] * p
        self.awards = [0] * p  # once-per-game award flags
        self.sunk = [0] * p  # each player's ship graveyard (ships he sank)
        self.token_src = [0] * (p * N_TOKEN_SOURCES)  # tokens by player and source (SRC_*)
        # Hex and edge tables: dev_type (0: none), dev_owner, art_owner, occ (occupancy: units
        # + development + artillery), cell_player (who holds the hex: units, development or
        # artillery), dev_builder; walls (wall owner per edge), wall_builder. Who built the
        # piece standing there counts for the Complex and the Great Wall (they are for
        # building: a seized development or a wall that changed hands does not count).
        self.n_units = 0
        self.unit_room = UNIT_ROOM_PER_PLAYER * p
        self.buf = _empty_tables(n_cells, n_edges, self.unit_room)[:]
        self._views()
        self._map_views()
        self.to_load: list[int] = []  # players still to load their freighters (setup)
        # Per turn.
        self.built_units = 0
        self.built_types = [0] * 7  # per unit type, index 6 = artillery
        self.wall_in_hand = False
        self.wall_relocated = False
        self.discharged = False
        self.recruit_type = -1
        self.front: dict[int, int] = {}  # hex -> direction of its front (set by the first attack)
        self.attacks: dict[int, int] = {}  # hex * 6 + direction -> attacks this turn
        self.breaches: dict[int, int] = {}  # edge -> breach attempts this turn
        self.seized_this_turn: set[int] = set()
        self.defended: dict[int, int] = {}  # hex -> the unit that defended its piece this turn
        # Activations and interrupts.
        self.stack: list[Activation] = []
        self.pending_retaliation: list[int] = []
        self.retaliator = -1
        self.retaliation_used = False
        self.ending_turn = False
        self.occupy_unit = -1
        self.occupy_cell = -1
        self.pending: Pending | None = None
        # Questions a decision raised for later in it: [kind, player, unit, cell] (a prison hex
        # to choose, a rescued unit to place), asked once the decision is done.
        self.asks: list[list[int]] = []
        # Dice: a splitmix64 state, plus dice a caller forces (tests, search chance nodes).
        self.rng = 0
        self.forced_dice: list[int] = []
        self.record_events = True
        self.events: list[dict] = []
        # The record of what changed: a new stamp for a group of tables each time one of them is
        # written (see new_stamp; the writers below and the engine's rules take them).
        self.unit_stamp = self.dev_stamp = self.wall_stamp = new_stamp()
        # Legal facts kept between decisions, each with the stamps it was worked out under: each
        # player's hexes around his developments (building.near_sites) and his walls
        # (Shared.own_walls), the hexes his units guard (free_actions.guard_cells), and the
        # deciding player's units grouped for the verbs (shared.kept_mine).
        self.near_memo: list[Any] = [None] * p
        self.walls_memo: list[Any] = [None] * p
        self.guards_memo: list[Any] = [None] * p
        self.mine_memo: Any = None
        self.reach_memo: Any = None  # the active unit's movement search (legal.active_reach)

    def _map_views(self) -> None:
        """The map's tables as views: ``nbr[c * 6 + d]`` (the neighbour, -1 off the board),
        ``nbr_edge[c * 6 + d]`` (the edge between), ``sea[c]``, ``land[c]`` (1 or 0)."""
        flat, n = memoryview(self.gmap.flat), self.n_cells
        self.nbr = flat[0:6 * n]
        self.nbr_edge = flat[6 * n:12 * n]
        self.sea = flat[12 * n:13 * n]
        self.land = flat[13 * n:14 * n]

    def _views(self) -> None:
        """Point every table at its slice of ``buf`` (after making or copying it)."""
        whole = memoryview(self.buf)
        n, e = self.n_cells, self.n_edges
        self.dev_type = whole[0:n]
        self.dev_owner = whole[n:2 * n]
        self.art_owner = whole[2 * n:3 * n]
        self.occ = whole[3 * n:4 * n]
        self.cell_player = whole[4 * n:5 * n]
        self.dev_builder = whole[5 * n:6 * n]
        self.walls = whole[6 * n:6 * n + e]
        self.wall_builder = whole[6 * n + e:6 * n + 2 * e]
        self._unit_views()

    def _unit_views(self) -> None:
        """Point the unit tables at their slices (alone: a new unit widens only them)."""
        whole = memoryview(self.buf)
        room, k = self.unit_room, self.n_units
        u = unit_tables_at(self.n_cells, self.n_edges)  # the unit tables: room for unit_room units each
        self.u_owner = whole[u:u + k]
        self.u_type = whole[u + room:u + room + k]
        self.u_cell = whole[u + 2 * room:u + 2 * room + k]
        self.u_where = whole[u + 3 * room:u + 3 * room + k]
        self.u_carrier = whole[u + 4 * room:u + 4 * room + k]
        self.u_holder = whole[u + 5 * room:u + 5 * room + k]
        self.u_flags = whole[u + 6 * room:u + 6 * room + k]

    def _make_room(self) -> None:
        """Twice the room for units: a larger buffer, the unit tables copied across."""
        room, head = self.unit_room, unit_tables_at(self.n_cells, self.n_edges)
        old = self.buf
        self.buf = old[:head] + array("i", [0]) * (N_UNIT_TABLES * 2 * room)
        for t in range(N_UNIT_TABLES):
            a, b = head + t * room, head + t * 2 * room
            self.buf[b:b + room] = old[a:a + room]
        self.unit_room = 2 * room
        self._views()

    def set_unit_count(self, n: int) -> None:
        """Make the unit tables ``n`` long (for loading a saved state; new entries are 0)."""
        while self.unit_room < n:
            self._make_room()
        self.n_units = n
        self._views()
        self.touch()

    def fill(self, table: str, values: list[int]) -> None:
        """Write ``values`` into a table of the same length (loading a saved state)."""
        view = getattr(self, table)
        if len(values) != len(view):
            raise ValueError(f"table {table!r} holds {len(view)} entries, not {len(values)}")
        for i, v in enumerate(values):
            view[i] = v
        self.touch()

    # ----------------------------------------------------------------- the record of changes
    def touch(self) -> None:
        """Record that any table may have changed. The engine's own writers record what they
        change; code that writes the tables by hand (a test, a tool) calls this afterwards, or
        the facts kept between decisions would not know."""
        self.unit_stamp = new_stamp()
        self.dev_stamp = new_stamp()
        self.wall_stamp = new_stamp()

    def mark_units(self) -> None:
        """Record a change to the unit tables or to the activation stack (who is active)."""
        self.unit_stamp = new_stamp()

    def mark_walls(self) -> None:
        """Record a change to the walls (who owns one, who built it)."""
        self.wall_stamp = new_stamp()

    def mark_developments(self) -> None:
        """Record a change to the developments or the artillery."""
        self.dev_stamp = new_stamp()

    # ----------------------------------------------------------------- copying
    def clone(self, keep_events: bool = True) -> "GameState":
        """A deep copy that shares only the immutable map and config."""
        new = GameState.__new__(GameState)
        new.gmap, new.config, new.n_players = self.gmap, self.config, self.n_players
        new.n_cells, new.n_edges, new.n_units, new.unit_room = self.n_cells, self.n_edges, self.n_units, self.unit_room
        new.buf = self.buf[:]
        new._views()
        new.nbr, new.nbr_edge, new.sea, new.land = self.nbr, self.nbr_edge, self.sea, self.land
        new.phase, new.round, new.turn_player = self.phase, self.round, self.turn_player
        new.turns_played, new.decisions, new.wind = self.turns_played, self.decisions, self.wind
        new.gold, new.silver, new.tokens = self.gold[:], self.silver[:], self.tokens[:]
        new.awards, new.sunk, new.to_load = self.awards[:], self.sunk[:], self.to_load[:]
        new.token_src = self.token_src[:]
        new.built_units, new.built_types = self.built_units, self.built_types[:]
        new.wall_in_hand, new.wall_relocated, new.discharged = self.wall_in_hand, self.wall_relocated, self.discharged
        new.recruit_type = self.recruit_type
        new.front, new.attacks, new.breaches = self.front.copy(), self.attacks.copy(), self.breaches.copy()
        new.seized_this_turn = set(self.seized_this_turn)
        new.defended = self.defended.copy()
        new.stack = [a.copy() for a in self.stack]
        new.pending_retaliation = self.pending_retaliation[:]
        new.retaliator, new.retaliation_used, new.ending_turn = self.retaliator, self.retaliation_used, self.ending_turn
        new.occupy_unit, new.occupy_cell = self.occupy_unit, self.occupy_cell
        new.pending = None if self.pending is None else self.pending.copy()
        new.asks = [list(a) for a in self.asks]
        new.rng, new.forced_dice = self.rng, self.forced_dice[:]
        new.record_events = self.record_events
        new.events = self.events[:] if keep_events else []
        new.unit_stamp, new.dev_stamp, new.wall_stamp = self.unit_stamp, self.dev_stamp, self.wall_stamp
        new.near_memo = self.near_memo[:]  # entries are never changed, only replaced
        new.walls_memo = self.walls_memo[:]
        new.guards_memo = self.guards_memo[:]
        new.reach_memo = self.reach_memo
        new.mine_memo = self.mine_memo
        return new

    def __deepcopy__(self, memo: dict) -> "GameState":
        return self.clone()

    def __copy__(self) -> "GameState":
        return self.clone()

    def pieces_key(self) -> bytes:
        """Where the pieces stand, as bytes for a cache key: the artillery, the walls, and each
        unit's owner, type, hex, place and carrier (two states of one map have the same key
        exactly when these tables are equal)."""
        return b"".join([bytes(self.art_owner), bytes(self.walls), bytes(self.u_owner), bytes(self.u_type),
                         bytes(self.u_cell), bytes(self.u_where), bytes(self.u_carrier)])

    def score_key(self) -> tuple:
        """Everything a position's evaluation may read, hashable: the tables, the counters and
        the turn (not the dice stream, the event log, the decision count or the map)."""
        pend = None if self.pending is None else repr(self.pending.to_list())
        return (self.buf.tobytes(), self.n_units, tuple(self.gold), tuple(self.silver), tuple(self.tokens),
                tuple(self.awards), tuple(self.sunk), tuple(self.to_load), self.phase, self.round,
                self.turn_player, self.turns_played, self.wind, self.built_units, tuple(self.built_types),
                self.wall_in_hand, self.wall_relocated, self.discharged, self.recruit_type,
                tuple(self.front.items()), tuple(self.attacks.items()), tuple(self.breaches.items()),
                frozenset(self.seized_this_turn), tuple(self.defended.items()), tuple(self.token_src),
                tuple(tuple(a) for a in self.asks), tuple(self.pending_retaliation), self.retaliator,
                self.retaliation_used, self.ending_turn, self.occupy_unit, self.occupy_cell, pend,
                tuple(tuple(a.to_list()[:5]) + (tuple(a.losers), a.rode, a.done) for a in self.stack))

    # ----------------------------------------------------------------- queries
    @property
    def current_player(self) -> int:
        """Who must decide now (:func:`deciding_player`)."""
        return deciding_player(self)

    @property
    def is_over(self) -> bool:
        return self.phase == OVER

    @property
    def active(self) -> Activation | None:
        """The innermost activation (None when no unit is active)."""
        return active_of(self)

    def units_at(self, cell: int, owner: int = -1, where: int = ON_BOARD) -> list[int]:
        """Units at a hex (optionally of one owner) in the given place (board, loaded...)."""
        out = []
        for u in range(self.n_units):
            if self.u_cell[u] == cell and self.u_where[u] == where and (owner < 0 or self.u_owner[u] == owner):
                out.append(u)
        return out

    def cargo(self, freighter: int) -> list[int]:
        """The land units aboard ``freighter``."""
        out = []
        for u in range(self.n_units):
            if self.u_carrier[u] == freighter and self.u_where[u] == LOADED:
                out.append(u)
        return out

    def developments(self, player: int) -> list[int]:
        return positions(self.dev_owner, player)

    def earn(self, player: int, source: int, n: int) -> None:
        """``player`` takes ``n`` victory tokens from ``source`` (SRC_*)."""
        self.tokens[player] += n
        self.token_src[player * N_TOKEN_SOURCES + source] += n

    def emit(self, kind: str, data: dict) -> None:
        """Record the event ``data`` (a new dict, which becomes the event) of this kind, when
        events are recorded; the player it concerns is the deciding player unless named."""
        if self.record_events:
            data["event"] = kind
            if "player" not in data:  # the deciding player unless named (asked only then: a property)
                data["player"] = deciding_player(self)
            self.events.append(data)

    # ----------------------------------------------------------------- pieces
    def add_unit(self, owner: int, utype: int, where: int = RESERVE, cell: int = -1, carrier: int = -1) -> int:
        u = self.n_units
        self.unit_stamp = new_stamp()
        if u == self.unit_room:
            self._make_room()
        self.n_units = u + 1
        self._unit_views()
        self.u_owner[u] = owner
        self.u_type[u] = utype
        self.u_cell[u] = -1
        self.u_where[u] = RESERVE
        self.u_carrier[u] = -1
        self.u_holder[u] = -1
        self.u_flags[u] = 0
        if where == ON_BOARD:
            self.put(u, cell)
        elif where == LOADED:
            self.load(u, carrier)
        else:
            self.u_where[u] = where
            self.u_cell[u] = cell
        return u

    def put(self, u: int, cell: int) -> None:
        """Stand unit ``u`` on the board at ``cell`` (it must be off the board now)."""
        self.unit_stamp = new_stamp()
        self.u_where[u] = ON_BOARD
        self.u_cell[u] = cell
        self.u_carrier[u] = -1
        self.occ[cell] += 1
        self.cell_player[cell] = self.u_owner[u]
        if self.u_type[u] == FREIGHTER:
            for x in self.cargo(u):
                self.u_cell[x] = cell

    def lift(self, u: int) -> None:
        """Take an on-board unit off its hex (before moving or removing it)."""
        self.unit_stamp = new_stamp()
        cell = self.u_cell[u]
        self.occ[cell] -= 1
        self.u_where[u] = RESERVE
        self._refresh_holder(cell)

    def move_unit(self, u: int, cell: int) -> None:
        self.lift(u)
        self.put(u, cell)

    def load(self, u: int, freighter: int) -> None:
        """Put land unit ``u`` (off the board) aboard ``freighter``."""
        self.unit_stamp = new_stamp()
        self.u_where[u] = LOADED
        self.u_carrier[u] = freighter
        self.u_cell[u] = self.u_cell[freighter]

    def remove(self, u: int) -> None:
        """Take a unit out of the game (sunk, drowned, discharged); its cargo goes with it."""
        self.unit_stamp = new_stamp()
        if self.u_where[u] == ON_BOARD:
            self.lift(u)
            if self.u_type[u] == FREIGHTER:
                for x in self.cargo(u):
                    self.u_where[x] = GONE
                    self.u_cell[x] = -1
        self.u_where[u] = GONE
        self.u_cell[u] = -1
        self.u_carrier[u] = -1

    def set_development(self, cell: int, dev: int, owner: int) -> None:
        self.dev_stamp = new_stamp()
        self.occ[cell] += DEV_OCCUPANCY[dev] - DEV_OCCUPANCY[self.dev_type[cell]]
        self.dev_type[cell] = dev
        self.dev_owner[cell] = owner if dev != NO_DEV else -1
        self._refresh_holder(cell)

    def set_artillery(self, cell: int, owner: int) -> None:
        self.dev_stamp = new_stamp()
        had = self.art_owner[cell] >= 0
        self.occ[cell] += (owner >= 0) * ARTILLERY_OCCUPANCY - had * ARTILLERY_OCCUPANCY
        self.art_owner[cell] = owner
        self._refresh_holder(cell)

    def _refresh_holder(self, cell: int) -> None:
        if self.dev_owner[cell] >= 0:
            self.cell_player[cell] = self.dev_owner[cell]
        elif self.art_owner[cell] >= 0:
            self.cell_player[cell] = self.art_owner[cell]
        elif self.occ[cell] == 0:
            self.cell_player[cell] = -1
        # else: units remain and keep the hex's holder

    def unit_cost(self, u: int) -> int:
        return UNIT_COST[self.u_type[u]]

    def is_ship(self, u: int) -> bool:
        return IS_SHIP[self.u_type[u]]

    # ----------------------------------------------------------------- dice
    def roll(self) -> int:
        """One six-sided die: a forced value if the caller queued one, else the seeded stream."""
        if self.forced_dice:
            return self.forced_dice.pop(0)
        self.rng = (self.rng + 0x9E3779B97F4A7C15) & MASK64
        z = self.rng
        z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & MASK64
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & MASK64
        return (z ^ (z >> 31)) % 6 + 1

    def roll_dice(self, n: int) -> list[int]:
        return [self.roll() for _ in range(n)]
