"""The observation encoder: a Vigtavl state as float32 planes over the axial square tensor.

An observation is a ``(C, H, W)`` float32 array, ``H = W = 2R + 1`` for a board of radius ``R``;
hex ``(q, r)`` sits at row ``r + R``, column ``q + R`` (``Board.tensor_index``), so every hex
neighbour is the same array offset everywhere. Tensor cells off the hexagon are 0 in every
channel; the ``board`` channel marks the hexagon. Scalars are broadcast over the hexagon.

It is seen from one player's side: per-player channels come in relative seat order, ``self``
first, then ``opp1`` (the next seat), ``opp2`` ... (seat = (observer + k) % n). With ``P``
players there are ``52 + 30 P`` channels (112, 142, 172 for 2, 3, 4 players), in this order
(``[P]`` marks a per-player group: one channel per item and relative player, items outer)::

    board                           1 on the hexagon
    terrain_{sea,land,mountain}     terrain one-hot
    unit_{type}_{rel}        [P]    units standing on the hex, by type (soldier archer cavalry
                                    caravel freighter galleon), count 0-3
    aboard_{type}_{rel}      [P]    knights loaded on freighters on the hex (soldier archer
                                    cavalry), count 0-9
    spent_{rel}              [P]    units on the hex (or aboard there) activated this turn, 0-12
    prisoner_{rel}           [P]    prisoners owned by that player (the captive's owner) held
                                    on the hex
    dev_{camp,fort,castle}_{rel} [P] developments by owner
    artillery_{rel}          [P]    artillery by owner
    wall_{E,NE,NW,W,SW,SE}_{rel} [P] a wall on that edge of the hex, by owner (a wall between
                                    two hexes shows on both, in opposite directions)
    front_{E..SE}                   the hex's front this turn: the direction, from the hex
                                    towards the attacker, of its first attack
    attacks_{E..SE}                 attacks on the hex from that direction this turn / 3
    active                          the active unit's hex
    occupy                          the hex offered for occupation (after a won attack/seize)
    seized                          hexes seized this turn (a retaliator may not seize them)
    pending_cell                    the hex a pending choice is about: the attacked hex, the
                                    development or artillery about to be seized, the enemy hex
                                    a battle move enters, the breachers' hex
    pending_origin                  the hex the pending attack or seizure comes from (for a
                                    battle move: the side it enters from)
    pending_attacker                the hex of the pending attacker, mover or seizer
    --- broadcast scalars ---
    wind                            +1 clockwise, -1 counter-clockwise
    phase_{placement,build,battle,over}   phase one-hot
    round                           round within the phase / rounds_per_phase
    builds_left                     units the turn player may still build this turn / 3
    recruit_{soldier,archer,cavalry}      the pending recruit's type (after a discharge)
    flag_{wall_in_hand,wall_relocated,discharged,retaliation_used}   turn flags
    active_move_left                movement the active unit has left / 6 (0 once its move is done)
    active_can_attack               1 if the active unit's attack is still available
    active_type_{type}              the active unit's type one-hot
    pending_{side,defend,guard,breacher,seizer,load}  what the player deciding now is asked:
                                    the side a battle move attacks from, who defends an
                                    attacked hex (out of turn), who defends a development or
                                    artillery about to be seized (out of turn), which unit
                                    breaches, which unit seizes, how to load the freighters
    pending_dice                    the attack dice the defender faces / 6 (tactics included;
                                    a defended seizure: the seizer's own dice)
    pending_range                   the range of the pending attack / 3 (0: close combat)
    turn_{rel}               [P]    whose turn it is (turn_self: my turn)
    retaliator_{rel}         [P]    who is retaliating (retaliator_self: I am retaliating)
    gold_{rel}, silver_{rel} [P]    gold / 6, silver / 6
    tokens_{rel}             [P]    victory tokens / 20
    sunk_{rel}               [P]    ships in that player's graveyard (ships he sank) / 6
    reserve_{caravel,freighter,galleon}_{rel} [P] ships still to place (placement) / 3

``ObservationEncoder.channel_names`` lists the ``C`` names in order; ``docs/observation.md``
is the same table for readers. Values lie in ``[OBS_LOW, OBS_HIGH]``.

How it is fast: the planes live in absolute seat order in one buffer that the encoder keeps
from one state to the next. The static planes are written once; each dynamic part is redrawn
only when the engine lists it comes from changed (comparing lists is far cheaper than encoding):
unit counts (one loop over the units, a precomputed channel table, only the counts that differ
written), developments / artillery / walls (flat indices from per-map tables), this turn's marks,
and the broadcast scalars (only the changed rows). One gather per observer (a plain copy for an
observer whose view is the absolute order) permutes the player groups; it is a fresh array, so
a returned observation never changes when the game goes on.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from .engine.combat import pending_attack_dice
from .engine.hexgrid import DIRECTION_NAMES
from .engine.state import (
    BATTLE, BUILD, CHOOSE_BREACHER, CHOOSE_DEFENDER, CHOOSE_GUARD, CHOOSE_SEIZER, CHOOSE_SIDE,
    LOADED, MOVE_DONE, ON_BOARD, PLACEMENT, PRISONER, RESERVE, SPENT, GameState, positions,
)
from .engine.stats import (
    ARTILLERY_RANGE, CASTLE, UNITS, UNITS_PER_TURN, UNITS_PER_TURN_WITH_CASTLE, UNIT_NAMES,
)

OBS_LOW, OBS_HIGH = -1.0, 16.0  # the largest count: 3 units + 9 aboard spent on one hex
GOLD_SCALE = SILVER_SCALE = 6.0
TOKEN_SCALE = 20.0
SUNK_SCALE = 6.0
MOVE_SCALE = 6.0
RESERVE_SCALE = 3.0
BUILD_SCALE = 3.0
ATTACK_SCALE = 3.0
DICE_SCALE = 6.0
RANGE_SCALE = float(ARTILLERY_RANGE)  # the longest range
FEW_ROWS = 3  # scalar rows rewritten one by one; more than this, all at once
LAND_NAMES = UNIT_NAMES[:3]
SHIP_NAMES = UNIT_NAMES[3:]
PHASES = ("placement", "build", "battle", "over")
FLAGS = ("wall_in_hand", "wall_relocated", "discharged", "retaliation_used")
N_WHERE = 5  # board, loaded, prisoner, reserve, gone
N_TYPES = len(UNIT_NAMES)
N_LAND = len(LAND_NAMES)
# What the deciding player is asked: one item per engine ``Pending`` kind (by kind), then the
# setup's freighter loads (no Pending: the placement phase with players still to load).
PENDING_ITEMS = ("side", "defend", "guard", "breacher", "seizer", "load")
LOAD_ITEM = PENDING_ITEMS.index("load")
assert [PENDING_ITEMS.index(k) for k in ("side", "defend", "guard", "breacher", "seizer")] == [
    CHOOSE_SIDE, CHOOSE_DEFENDER, CHOOSE_GUARD, CHOOSE_BREACHER, CHOOSE_SEIZER]

# (key, items, per_player): the channel layout; spatial groups first, then broadcast scalars.
SPATIAL_GROUPS: tuple[tuple[str, tuple[str, ...], bool], ...] = (
    ("board", ("",), False),
    ("terrain", ("sea", "land", "mountain"), False),
    ("unit", UNIT_NAMES, True),
    ("aboard", LAND_NAMES, True),
    ("spent", ("",), True),
    ("prisoner", ("",), True),
    ("dev", ("camp", "fort", "castle"), True),
    ("artillery", ("",), True),
    ("wall", DIRECTION_NAMES, True),
    ("front", DIRECTION_NAMES, False),
    ("attacks", DIRECTION_NAMES, False),
    ("active", ("",), False),
    ("occupy", ("",), False),
    ("seized", ("",), False),
    ("pending_cell", ("",), False),
    ("pending_origin", ("",), False),
    ("pending_attacker", ("",), False),
)
SCALAR_GROUPS: tuple[tuple[str, tuple[str, ...], bool], ...] = (
    ("wind", ("",), False),
    ("phase", PHASES, False),
    ("round", ("",), False),
    ("builds_left", ("",), False),
    ("recruit", LAND_NAMES, False),
    ("flag", FLAGS, False),
    ("active_move_left", ("",), False),
    ("active_can_attack", ("",), False),
    ("active_type", UNIT_NAMES, False),
    ("pending", PENDING_ITEMS, False),
    ("pending_dice", ("",), False),
    ("pending_range", ("",), False),
    ("turn", ("",), True),
    ("retaliator", ("",), True),
    ("gold", ("",), True),
    ("silver", ("",), True),
    ("tokens", ("",), True),
    ("sunk", ("",), True),
    ("reserve", SHIP_NAMES, True),
)


def relative_name(k: int) -> str:
    """Name of relative seat ``k`` (0 is the observer)."""
    return "self" if k == 0 else f"opp{k}"


class ChannelLayout:
    """Channel offsets of every group, in absolute seat order, and the per-observer permutation."""

    def __init__(self, n_players: int) -> None:
        self.n_players = P = n_players
        self.base: dict[str, int] = {}
        self.stride: dict[str, int] = {}  # P for per-player groups, else 1
        self.names: list[str] = []
        owners: list[tuple[str, int, int]] = []  # (key, item, owner or -1) per absolute channel
        for key, items, per_player in SPATIAL_GROUPS + SCALAR_GROUPS:
            if key == SCALAR_GROUPS[0][0]:
                self.scalar_start = len(owners)
            self.base[key] = len(owners)
            self.stride[key] = P if per_player else 1
            for i, item in enumerate(items):
                stem = key if not item else f"{key}_{item}"
                for k in range(P if per_player else 1):
                    owners.append((key, i, k if per_player else -1))
                    self.names.append(f"{stem}_{relative_name(k)}" if per_player else stem)
        self.n_channels = len(owners)
        # perm[o][view channel] = absolute channel: relative seat k of observer o is (o + k) % P.
        self.perm = np.empty((P, self.n_channels), dtype=np.intp)
        for o in range(P):
            for ch, (key, i, k) in enumerate(owners):
                self.perm[o, ch] = ch if k < 0 else self.base[key] + i * P + (o + k) % P

    def channel(self, key: str, item: int = 0, owner: int = 0) -> int:
        """Absolute channel of a group's item (and absolute owner for per-player groups)."""
        return self.base[key] + item * self.stride[key] + owner


class ObservationEncoder:
    """Encodes states of one map into observations; holds its buffers and per-map tables."""

    def __init__(self, gmap: Any, rounds_per_phase: int) -> None:
        board = gmap.board
        self.n_players = P = gmap.num_players
        self.layout = L = ChannelLayout(P)
        self.channel_names: list[str] = L.names
        self.n_channels = L.n_channels
        self.height = self.width = board.width
        self.hw = board.width * board.width
        self.shape = (self.n_channels, self.height, self.width)
        self.rounds_per_phase = rounds_per_phase
        self.tc = np.asarray(board.tensor_index + (0,), dtype=np.int64)  # [-1] -> 0 (masked later)
        self.board_row = np.zeros(self.hw, dtype=np.float32)
        self.board_row[self.tc[:-1]] = 1.0
        self._static = self._static_planes(gmap)
        self._unit_ch_list = self._unit_channel_table().ravel().tolist()
        self._tc_list = self.tc.tolist()
        self._spent0 = L.channel("spent") * self.hw
        self._edge_tables(board)
        # The absolute planes of the last state encoded: static planes written once, each
        # dynamic part rewritten only when what it is drawn from changed (the parts write
        # disjoint channels, so each can be cleared and redrawn alone).
        self._buf = self._static.copy()
        self._buf_key: Any = None
        self._unit_seen: tuple[list[int], ...] = ()  # copies of the unit lists drawn
        self._unit_counts_drawn: dict[int, float] = {}
        self._reserve: list[int] = []
        self._marks: list[tuple[int, float]] = []
        self._scalar_vals: list[float] | None = None
        self._identity = [bool((L.perm[o] == np.arange(self.n_channels)).all()) for o in range(P)]
        self._cells = memoryview(self._buf.reshape(-1))  # scalar writes without numpy's overhead
        self._hex_seen: dict[str, list[int]] = {}  # copies of the engine lists the parts were drawn from
        self._hex_drawn: dict[str, list[int]] = {"dev": [], "art": [], "wall": []}  # flat indices set to 1
        self._dev_base = [self.layout.channel("dev", d, 0) * self.hw for d in range(3)]
        self._art_base = self.layout.channel("artillery") * self.hw
        self._castle_owners: set[int] = set()
        self._scalar_offset = {k: L.base[k] - L.scalar_start for k, _, _ in SCALAR_GROUPS}

    # ------------------------------------------------------------------ per-map tables
    def _static_planes(self, gmap: Any) -> np.ndarray:
        static = np.zeros((self.n_channels, self.hw), dtype=np.float32)
        static[self.layout.channel("board")] = self.board_row
        t0 = self.layout.channel("terrain")
        for c, terrain in enumerate(gmap.terrain):
            static[t0 + terrain, self.tc[c]] = 1.0
        return static

    def _unit_channel_table(self) -> np.ndarray:
        """``table[where, type, owner]`` = absolute channel counting that unit, or -1."""
        L, P = self.layout, self.n_players
        table = np.full((N_WHERE, len(UNITS), P), -1, dtype=np.int64)
        for t in range(len(UNITS)):
            for o in range(P):
                table[ON_BOARD, t, o] = L.channel("unit", t, o)
                if t < len(LAND_NAMES):
                    table[LOADED, t, o] = L.channel("aboard", t, o)
                    table[PRISONER, t, o] = L.channel("prisoner", 0, o)
        return table

    def _edge_tables(self, board: Any) -> None:
        """Per edge and owner: the flat indices of its wall, one per hex it borders (a wall
        between two hexes shows on both, in opposite directions)."""
        wall0, P, hw = self.layout.channel("wall"), self.n_players, self.hw
        sides: list[list[tuple[int, int]]] = [[] for _ in range(board.n_edges)]
        for c, edges in enumerate(board.edge):
            for d, e in enumerate(edges):
                sides[e].append((self._tc_list[c], d))
        self._wall_index = [[[(wall0 + d * P + p) * hw + cell for cell, d in sides[e]] for p in range(P)]
                            for e in range(board.n_edges)]

    # ------------------------------------------------------------------ encoding
    def encode(self, state: GameState, observer: int, key: Any = None) -> np.ndarray:
        """A fresh ``(C, H, W)`` float32 observation of ``state`` for seat ``observer``.

        ``key`` identifies the state's version: observing the same key again (another seat,
        the same moment) reuses the absolute planes instead of encoding them again.
        """
        if key is None or key != self._buf_key:
            self._encode_absolute(state, self._buf)
            self._buf_key = key
        if self._identity[observer]:
            return self._buf.copy().reshape(self.shape)
        return np.take(self._buf, self.layout.perm[observer], axis=0).reshape(self.shape)

    def _encode_absolute(self, state: GameState, buf: np.ndarray) -> None:
        """Bring ``buf`` (the planes of the last state encoded) up to ``state``."""
        flat = self._cells
        self._draw_units(state, flat)
        self._draw_hex_parts(state, flat)
        marks = self._turn_marks(state)
        if marks != self._marks:
            for i, _ in self._marks:
                flat[i] = 0.0
            for i, v in marks:
                flat[i] = v
            self._marks = marks
        self._draw_scalars(self._scalars(state, self._reserve), buf)

    def _draw_scalars(self, vals: list[float], buf: np.ndarray) -> None:
        """Broadcast the scalars over the hexagon: the changed rows alone when they are few."""
        old, s0 = self._scalar_vals, self.layout.scalar_start
        if old is None:
            changed = range(len(vals))
        else:
            changed = [i for i, (a, b) in enumerate(zip(vals, old)) if a != b]
        if len(changed) <= FEW_ROWS:
            for i in changed:
                np.multiply(self.board_row, np.float32(vals[i]), out=buf[s0 + i])
        else:
            np.multiply.outer(np.asarray(vals, dtype=np.float32), self.board_row, out=buf[s0:])
        self._scalar_vals = vals

    def _draw_units(self, state: GameState, flat: memoryview) -> None:
        """Unit counts, redrawn only when a unit list changed (comparing lists is cheap)."""
        lists = tuple(list(x) for x in (state.u_owner, state.u_type, state.u_cell, state.u_where, state.u_flags))
        if lists == self._unit_seen:
            return
        counts, self._reserve = self._unit_counts(state)
        old = self._unit_counts_drawn
        for i in old:
            if i not in counts:
                flat[i] = 0.0
        for i, n in counts.items():
            if old.get(i) != n:  # a few entries change per decision
                flat[i] = n
        self._unit_counts_drawn = counts
        self._unit_seen = lists

    def _unit_counts(self, state: GameState) -> tuple[dict[int, float], list[int]]:
        """Unit counts by flat index, and reserve ships per (ship type, owner).

        A plain loop over the parallel lists: for the few dozen units of a game it beats
        converting the lists to arrays.
        """
        P, hw, tab, tc, spent0 = self.n_players, self.hw, self._unit_ch_list, self._tc_list, self._spent0
        counts: dict[int, float] = {}
        get = counts.get
        reserve = [0] * (len(SHIP_NAMES) * P)
        for o, t, c, w, f in zip(state.u_owner, state.u_type, state.u_cell, state.u_where, state.u_flags):
            if w <= PRISONER:
                cell = tc[c]
                i = tab[(w * N_TYPES + t) * P + o] * hw + cell
                counts[i] = get(i, 0.0) + 1.0
                if f & SPENT and w <= LOADED:
                    i = spent0 + o * hw + cell
                    counts[i] = get(i, 0.0) + 1.0
            elif w == RESERVE and t >= N_LAND:
                reserve[(t - N_LAND) * P + o] += 1
        return counts, reserve

    def _draw_hex_parts(self, state: GameState, flat: memoryview) -> None:
        """Developments, artillery and walls: each part is redrawn only when the engine lists it
        comes from changed (comparing two lists is far cheaper than encoding), by clearing the
        indices it set last time and setting its new ones (a handful each)."""
        seen = self._hex_seen
        dev_type, dev_owner = list(state.dev_type), list(state.dev_owner)
        if dev_type != seen.get("dev_type") or dev_owner != seen.get("dev_owner"):
            seen["dev_type"], seen["dev_owner"] = dev_type, dev_owner
            self._redraw("dev", self._dev_part(state.dev_type, state.dev_owner), flat)
        art_owner = list(state.art_owner)
        if art_owner != seen.get("art_owner"):
            seen["art_owner"] = art_owner
            self._redraw("art", self._art_part(state.art_owner), flat)
        walls = list(state.walls)
        if walls != seen.get("walls"):
            seen["walls"] = walls
            self._redraw("wall", self._wall_part(state.walls), flat)

    def _redraw(self, part: str, idx: list[int], flat: memoryview) -> None:
        for i in self._hex_drawn[part]:
            flat[i] = 0.0
        for i in idx:
            flat[i] = 1.0  # one development / artillery / wall per index
        self._hex_drawn[part] = idx

    def _dev_part(self, dev_type: list[int], dev_owner: list[int]) -> list[int]:
        hw, P, tc, base, idx = self.hw, self.n_players, self._tc_list, self._dev_base, []
        castles = set()
        for p in range(P):
            for c in positions(dev_owner, p):
                d = dev_type[c]
                idx.append(base[d - 1] + p * hw + tc[c])
                if d == CASTLE:
                    castles.add(p)
        self._castle_owners = castles
        return idx

    def _art_part(self, art_owner: list[int]) -> list[int]:
        hw, tc, base = self.hw, self._tc_list, self._art_base
        return [base + p * hw + tc[c] for p in range(self.n_players) for c in positions(art_owner, p)]

    def _wall_part(self, walls: list[int]) -> list[int]:
        """A wall shows on both hexes it separates, as that hex's edge direction. Walls are
        few: each owner's are found by a scan in C."""
        table, idx = self._wall_index, []
        for p in range(self.n_players):
            for e in positions(walls, p):
                idx += table[e][p]
        return idx

    def _turn_marks(self, state: GameState) -> list[tuple[int, float]]:
        """(flat index, value) of the front, attacks, the active hex, the occupation offer and
        this turn's seizures (each index at most once)."""
        L, hw, tc = self.layout, self.hw, self._tc_list
        front0, attacks0 = L.channel("front") * hw, L.channel("attacks") * hw
        marks = [(front0 + d * hw + tc[cell], 1.0) for cell, d in state.front.items()]
        for k, n in state.attacks.items():
            cell, d = divmod(k, 6)
            marks.append((attacks0 + d * hw + tc[cell], n / ATTACK_SCALE))
        if state.stack:
            c = state.u_cell[state.stack[-1].unit]
            if c >= 0:
                marks.append((L.channel("active") * hw + tc[c], 1.0))
        if state.occupy_unit >= 0 and state.occupy_cell >= 0:
            marks.append((L.channel("occupy") * hw + tc[state.occupy_cell], 1.0))
        seized0 = L.channel("seized") * hw
        marks += [(seized0 + tc[cell], 1.0) for cell in state.seized_this_turn]
        pend = state.pending
        if pend is not None:
            attacker = state.u_cell[pend.unit] if pend.unit >= 0 else -1
            for key, c in (("pending_cell", pend.cell), ("pending_origin", pend.origin),
                           ("pending_attacker", attacker)):
                if c >= 0:
                    marks.append((L.channel(key) * hw + tc[c], 1.0))
        return marks

    def _scalars(self, state: GameState, reserve: list[int]) -> list[float]:
        """The broadcast scalars in channel order (absolute seats)."""
        P, o = self.n_players, self._scalar_offset
        vals = [0.0] * (self.n_channels - self.layout.scalar_start)
        vals[o["wind"]] = float(state.wind)
        vals[o["phase"] + state.phase] = 1.0
        vals[o["round"]] = state.round / self.rounds_per_phase
        tp = state.turn_player
        if state.phase == BUILD or state.phase == BATTLE:
            cap = UNITS_PER_TURN_WITH_CASTLE if tp in self._castle_owners else UNITS_PER_TURN
            vals[o["builds_left"]] = max(cap - state.built_units, 0) / BUILD_SCALE
        if state.recruit_type >= 0:
            vals[o["recruit"] + state.recruit_type] = 1.0
        f = o["flag"]
        vals[f:f + 4] = (float(state.wall_in_hand), float(state.wall_relocated),
                         float(state.discharged), float(state.retaliation_used))
        if state.stack:
            self._active_scalars(state, vals)
        if state.pending is not None:
            pend = state.pending
            vals[o["pending"] + pend.kind] = 1.0
            vals[o["pending_dice"]] = pending_attack_dice(state) / DICE_SCALE
            vals[o["pending_range"]] = pend.rng / RANGE_SCALE
        elif state.phase == PLACEMENT and state.to_load:
            vals[o["pending"] + LOAD_ITEM] = 1.0
        if not state.is_over:
            vals[o["turn"] + tp] = 1.0
        if state.retaliator >= 0:
            vals[o["retaliator"] + state.retaliator] = 1.0
        for key, values, scale in (("gold", state.gold, GOLD_SCALE), ("silver", state.silver, SILVER_SCALE),
                                   ("tokens", state.tokens, TOKEN_SCALE), ("sunk", state.sunk, SUNK_SCALE)):
            b = o[key]
            vals[b:b + P] = [min(v / scale, OBS_HIGH) for v in values]
        b = o["reserve"]
        vals[b:b + len(reserve)] = [n / RESERVE_SCALE for n in reserve]
        return vals

    def _active_scalars(self, state: GameState, vals: list[float]) -> None:
        o, top = self._scalar_offset, state.stack[-1]
        t = state.u_type[top.unit]
        vals[o["active_move_left"]] = 0.0 if top.move == MOVE_DONE else top.move_left / MOVE_SCALE
        can = not top.attacked and state.phase == BATTLE and UNITS[t].can_attack
        vals[o["active_can_attack"]] = float(can)
        vals[o["active_type"] + t] = 1.0


def plane_text(plane: np.ndarray, board: Any, fmt: str = "{:g}") -> str:
    """One observation plane drawn as the hexagon (row by row, indented), for debugging."""
    R, lines = board.radius, []
    for r in range(-R, R + 1):
        qs = [q for q in range(-R, R + 1) if abs(q + r) <= R]
        cells = [fmt.format(float(plane[r + R, q + R])) for q in qs]
        lines.append(" " * abs(r) + " ".join(f"{x:>1}" for x in cells))
    return "\n".join(lines)
