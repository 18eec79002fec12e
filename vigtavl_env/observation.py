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

How it is fast: ``encode_into`` writes straight into the caller's array (a row of a batch),
in the observer's seat order: one copy of the static planes (board, terrain), then one loop over
the units, one over the hexes (developments, artillery), one over the edges (walls), this turn's
marks, and the non-zero scalars broadcast over the hexagon. The loops are typed
(``observation.pxd``) and read the state's tables as C arrays in the compiled build.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from .engine.combat import pending_attack_dice
from .engine.hexgrid import DIRECTION_NAMES
from .engine.free_actions import still_defended
from .engine.legal import variant_options
from .engine.state import (
    BATTLE, BUILD, CHOOSE_BREACHER, CHOOSE_DEFENDER, CHOOSE_GUARD, CHOOSE_PRISON, CHOOSE_RESCUE_SPOT,
    CHOOSE_SEIZER, CHOOSE_SIDE, CHOOSE_VARIANT, LOADED, MOVE_DONE, ON_BOARD, OVER, PLACEMENT, PRISONER,
    RESERVE, SPENT, GameState,
)
from .engine.variants import MAX_VARIANTS, variant_features
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
LAND_NAMES = UNIT_NAMES[:3]
SHIP_NAMES = UNIT_NAMES[3:]
PHASES = ("placement", "build", "battle", "over")
FLAGS = ("wall_in_hand", "wall_relocated", "discharged", "retaliation_used")
N_WHERE = 5  # board, loaded, prisoner, reserve, gone
N_TYPES = len(UNIT_NAMES)
N_LAND = len(LAND_NAMES)
# What the deciding player is asked: one item per engine ``Pending`` kind (by kind), then the
# setup's freighter loads (no Pending: the placement phase with players still to load).
PENDING_ITEMS = ("side", "defend", "guard", "breacher", "seizer", "variant", "prison", "rescue", "load")
LOAD_ITEM = PENDING_ITEMS.index("load")
assert [PENDING_ITEMS.index(k) for k in PENDING_ITEMS[:LOAD_ITEM]] == [
    CHOOSE_SIDE, CHOOSE_DEFENDER, CHOOSE_GUARD, CHOOSE_BREACHER, CHOOSE_SEIZER, CHOOSE_VARIANT, CHOOSE_PRISON,
    CHOOSE_RESCUE_SPOT]
# What a "choose variant k" answer would pick (rules v2): per class k, variants.variant_features.
VARIANT_FEATURES = ("acting", "spent", "soldiers", "archers", "cavalry")
N_VARIANT_FEATURES = len(VARIANT_FEATURES)
VARIANT_ITEMS = tuple(f"{k}_{name}" for k in range(MAX_VARIANTS) for name in VARIANT_FEATURES)
CARGO_SCALE = 3.0

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
    ("defended", ("",), False),
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
    ("variant", VARIANT_ITEMS, False),
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
    """Encodes states of one map into observations; holds the per-map tables."""

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
        self.tc = np.asarray(board.tensor_index, dtype=np.int32)  # cell -> index in a plane
        self.board_row = np.zeros(self.hw, dtype=np.float32)
        self.board_row[self.tc] = 1.0
        self._static = self._static_planes(gmap).reshape(-1)
        self._tables = self._encoding_tables(board)
        self._tc_view, self._tables_view = memoryview(self.tc), memoryview(self._tables)

    # ------------------------------------------------------------------ per-map tables
    def _static_planes(self, gmap: Any) -> np.ndarray:
        static = np.zeros((self.n_channels, self.hw), dtype=np.float32)
        static[self.layout.channel("board")] = self.board_row
        t0 = self.layout.channel("terrain")
        for c, terrain in enumerate(gmap.terrain):
            static[t0 + terrain, self.tc[c]] = 1.0
        return static

    def _encoding_tables(self, board: Any) -> np.ndarray:
        """One int32 table for :func:`draw`: the channels of every group (for owner 0, relative
        seat 0), the unit channel per (where, type), and per edge the two (hex, direction)
        sides its wall shows on."""
        L = self.layout
        heads = [L.base[k] for k, _, _ in SPATIAL_GROUPS + SCALAR_GROUPS] + [L.scalar_start, self.rounds_per_phase]
        units = [-1] * (N_WHERE * N_TYPES)
        for t in range(N_TYPES):
            units[ON_BOARD * N_TYPES + t] = L.channel("unit", t, 0)
            if t < N_LAND:
                units[LOADED * N_TYPES + t] = L.channel("aboard", t, 0)
                units[PRISONER * N_TYPES + t] = L.channel("prisoner", 0, 0)
        sides = [[-1, -1, -1, -1] for _ in range(board.n_edges)]  # cell, direction (twice)
        for c, edges in enumerate(board.edge):
            for d, e in enumerate(edges):
                k = 0 if sides[e][0] < 0 else 2
                sides[e][k], sides[e][k + 1] = c, d
        return np.asarray(heads + units + [x for side in sides for x in side], dtype=np.int32)

    # ------------------------------------------------------------------ encoding
    def encode(self, state: GameState, observer: int, key: Any = None) -> np.ndarray:
        """A fresh ``(C, H, W)`` float32 observation of ``state`` for seat ``observer``
        (``key`` is accepted for older callers and ignored)."""
        out = np.empty(self.shape, dtype=np.float32)
        self.encode_into(state, observer, out)
        return out

    def encode_into(self, state: GameState, observer: int, out: np.ndarray) -> None:
        """Write the observation into ``out``, a C-contiguous float32 array of ``shape`` (a row
        of a batch: nothing is allocated)."""
        if out.dtype != np.float32 or out.shape != self.shape or not out.flags.c_contiguous:
            raise ValueError(f"out must be a C-contiguous float32 array of shape {self.shape}, got "
                             f"{out.dtype} {out.shape}")
        flat = out.reshape(-1)
        np.copyto(flat, self._static)
        draw(state, observer, memoryview(flat), self._tc_view, self._tables_view, self.hw)


# Positions in ObservationEncoder._tables: the groups' first channels in layout order, then the
# first scalar channel and the rounds per phase, then the unit channels, then the wall sides.
_G = {k: i for i, (k, _, _) in enumerate(SPATIAL_GROUPS + SCALAR_GROUPS)}
_SCALAR_START = len(_G)
_ROUNDS = _SCALAR_START + 1
_UNITS = _ROUNDS + 1
_SIDES = _UNITS + N_WHERE * N_TYPES
# Each group's position as a module constant: a C int in the compiled build, where a look-up
# in ``_G`` by name was a Python dict look-up per group per observation.
_G_ACTIVE = _G["active"]
_G_ACTIVE_CAN_ATTACK = _G["active_can_attack"]
_G_ACTIVE_MOVE_LEFT = _G["active_move_left"]
_G_ACTIVE_TYPE = _G["active_type"]
_G_ARTILLERY = _G["artillery"]
_G_ATTACKS = _G["attacks"]
_G_BUILDS_LEFT = _G["builds_left"]
_G_DEFENDED = _G["defended"]
_G_DEV = _G["dev"]
_G_FLAG = _G["flag"]
_G_FRONT = _G["front"]
_G_GOLD = _G["gold"]
_G_OCCUPY = _G["occupy"]
_G_PENDING = _G["pending"]
_G_PENDING_ATTACKER = _G["pending_attacker"]
_G_PENDING_CELL = _G["pending_cell"]
_G_PENDING_DICE = _G["pending_dice"]
_G_PENDING_ORIGIN = _G["pending_origin"]
_G_PENDING_RANGE = _G["pending_range"]
_G_PHASE = _G["phase"]
_G_RECRUIT = _G["recruit"]
_G_RESERVE = _G["reserve"]
_G_RETALIATOR = _G["retaliator"]
_G_ROUND = _G["round"]
_G_SEIZED = _G["seized"]
_G_SILVER = _G["silver"]
_G_SPENT = _G["spent"]
_G_SUNK = _G["sunk"]
_G_TOKENS = _G["tokens"]
_G_TURN = _G["turn"]
_G_VARIANT = _G["variant"]
_G_WALL = _G["wall"]
_G_WIND = _G["wind"]


def draw(state: GameState, observer: int, f: Any, tc: Any, tab: Any, hw: int) -> None:
    """Draw the dynamic planes of ``state``, seen from ``observer``, onto ``f`` (the flat
    observation, its static planes already there and every other value 0). A player's groups
    go to his relative seat ``(p - observer) % P``."""
    P = state.n_players
    units0, n_types, sides0 = _UNITS, N_TYPES, _SIDES  # typed locals: C arithmetic in the loops
    # Units: counts per (where, type, owner) on their hex, the spent ones, ships in reserve.
    reserve = [0] * (3 * P)
    spent0 = tab[_G_SPENT]
    for u in range(state.n_units):
        w = state.u_where[u]
        t = state.u_type[u]
        o = state.u_owner[u]
        if w <= PRISONER and state.u_cell[u] >= 0:  # (not aboard a freighter still in reserve)
            cell = tc[state.u_cell[u]]
            rel = (o - observer + P) % P
            i = (tab[units0 + w * n_types + t] + rel) * hw + cell
            f[i] += 1.0
            if state.u_flags[u] & SPENT and w <= LOADED:
                f[(spent0 + rel) * hw + cell] += 1.0
        elif w == RESERVE and t >= N_LAND:
            reserve[(t - N_LAND) * P + o] += 1
    # Developments and artillery.
    castle = [0] * P
    dev0, art0 = tab[_G_DEV], tab[_G_ARTILLERY]
    for c in range(state.n_cells):
        p = state.dev_owner[c]
        if p >= 0:
            d = state.dev_type[c]
            f[(dev0 + (d - 1) * P + (p - observer + P) % P) * hw + tc[c]] = 1.0
            if d == CASTLE:
                castle[p] = 1
        p = state.art_owner[c]
        if p >= 0:
            f[(art0 + (p - observer + P) % P) * hw + tc[c]] = 1.0
    # Walls: on both hexes they separate, as that hex's edge direction.
    wall0 = tab[_G_WALL]
    for e in range(state.n_edges):
        p = state.walls[e]
        if p >= 0:
            rel = (p - observer + P) % P
            for k in range(0, 4, 2):
                c = tab[sides0 + e * 4 + k]
                if c >= 0:
                    f[(wall0 + tab[sides0 + e * 4 + k + 1] * P + rel) * hw + tc[c]] = 1.0
    _draw_marks(state, f, tc, tab, hw)
    _draw_scalars(state, observer, f, tc, tab, hw, reserve, castle)


def _draw_marks(state: GameState, f: Any, tc: Any, tab: Any, hw: int) -> None:
    """This turn's front and attacks, the active hex, the occupation offer, this turn's
    seizures, the pieces defended against them and the hexes a pending choice is about."""
    front0, attacks0 = tab[_G_FRONT], tab[_G_ATTACKS]
    for cell, d in state.front.items():
        f[(front0 + d) * hw + tc[cell]] = 1.0
    for k, n in state.attacks.items():
        f[(attacks0 + k % 6) * hw + tc[k // 6]] = n / ATTACK_SCALE
    if state.stack:
        c = state.u_cell[state.stack[-1].unit]
        if c >= 0:
            f[tab[_G_ACTIVE] * hw + tc[c]] = 1.0
    if state.occupy_unit >= 0 and state.occupy_cell >= 0:
        f[tab[_G_OCCUPY] * hw + tc[state.occupy_cell]] = 1.0
    for cell in state.seized_this_turn:
        f[tab[_G_SEIZED] * hw + tc[cell]] = 1.0
    for cell in state.defended:
        if still_defended(state, cell):
            f[tab[_G_DEFENDED] * hw + tc[cell]] = 1.0
    pend = state.pending
    if pend is not None:
        if pend.cell >= 0:
            f[tab[_G_PENDING_CELL] * hw + tc[pend.cell]] = 1.0
        if pend.origin >= 0:
            f[tab[_G_PENDING_ORIGIN] * hw + tc[pend.origin]] = 1.0
        if pend.unit >= 0 and state.u_cell[pend.unit] >= 0:
            f[tab[_G_PENDING_ATTACKER] * hw + tc[state.u_cell[pend.unit]]] = 1.0


def _draw_scalars(state: GameState, observer: int, f: Any, tc: Any, tab: Any, hw: int,
                  reserve: list[int], castle: list[int]) -> None:
    """The scalars, each broadcast over the hexagon (only the non-zero ones: the rest are 0)."""
    P, tp = state.n_players, state.turn_player
    _fill(f, tc, hw, tab[_G_WIND], float(state.wind))
    _fill(f, tc, hw, tab[_G_PHASE] + state.phase, 1.0)
    _fill(f, tc, hw, tab[_G_ROUND], state.round / tab[_ROUNDS])
    if state.phase == BUILD or state.phase == BATTLE:
        cap = UNITS_PER_TURN_WITH_CASTLE if castle[tp] else UNITS_PER_TURN
        _fill(f, tc, hw, tab[_G_BUILDS_LEFT], max(cap - state.built_units, 0) / BUILD_SCALE)
    if state.recruit_type >= 0:
        _fill(f, tc, hw, tab[_G_RECRUIT] + state.recruit_type, 1.0)
    flag0 = tab[_G_FLAG]
    _fill(f, tc, hw, flag0, float(state.wall_in_hand))
    _fill(f, tc, hw, flag0 + 1, float(state.wall_relocated))
    _fill(f, tc, hw, flag0 + 2, float(state.discharged))
    _fill(f, tc, hw, flag0 + 3, float(state.retaliation_used))
    if state.stack:
        top = state.stack[-1]
        t = state.u_type[top.unit]
        _fill(f, tc, hw, tab[_G_ACTIVE_MOVE_LEFT], 0.0 if top.move == MOVE_DONE else top.move_left / MOVE_SCALE)
        can = not top.attacked and state.phase == BATTLE and UNITS[t].can_attack
        _fill(f, tc, hw, tab[_G_ACTIVE_CAN_ATTACK], float(can))
        _fill(f, tc, hw, tab[_G_ACTIVE_TYPE] + t, 1.0)
    pend = state.pending
    if pend is not None:
        _fill(f, tc, hw, tab[_G_PENDING] + pend.kind, 1.0)
        _fill(f, tc, hw, tab[_G_PENDING_DICE], pending_attack_dice(state) / DICE_SCALE)
        _fill(f, tc, hw, tab[_G_PENDING_RANGE], pend.reach / RANGE_SCALE)
        if pend.kind == CHOOSE_VARIANT:
            _draw_variants(state, f, tc, tab, hw)
    elif state.phase == PLACEMENT and state.to_load:
        _fill(f, tc, hw, tab[_G_PENDING] + LOAD_ITEM, 1.0)
    if state.phase != OVER:
        _fill(f, tc, hw, tab[_G_TURN] + (tp - observer + P) % P, 1.0)
    if state.retaliator >= 0:
        _fill(f, tc, hw, tab[_G_RETALIATOR] + (state.retaliator - observer + P) % P, 1.0)
    for p in range(P):
        rel = (p - observer + P) % P
        _fill(f, tc, hw, tab[_G_GOLD] + rel, min(state.gold[p] / GOLD_SCALE, OBS_HIGH))
        _fill(f, tc, hw, tab[_G_SILVER] + rel, min(state.silver[p] / SILVER_SCALE, OBS_HIGH))
        _fill(f, tc, hw, tab[_G_TOKENS] + rel, min(state.tokens[p] / TOKEN_SCALE, OBS_HIGH))
        _fill(f, tc, hw, tab[_G_SUNK] + rel, min(state.sunk[p] / SUNK_SCALE, OBS_HIGH))
        for i in range(3):
            _fill(f, tc, hw, tab[_G_RESERVE] + i * P + rel, reserve[i * P + p] / RESERVE_SCALE)


def _draw_variants(state: GameState, f: Any, tc: Any, tab: Any, hw: int) -> None:
    """What each "choose variant k" would pick: the class's status and cargo."""
    base = tab[_G_VARIANT]
    for k, cls in enumerate(variant_options(state)):
        feats = variant_features(state, cls[0])
        for i in range(N_VARIANT_FEATURES):
            _fill(f, tc, hw, base + k * N_VARIANT_FEATURES + i, feats[i] / (1.0 if i < 2 else CARGO_SCALE))


def _fill(f: Any, tc: Any, hw: int, channel: int, v: float) -> None:
    """Broadcast ``v`` over the hexagon of one channel (nothing to do for 0)."""
    if v != 0.0:
        base = channel * hw
        for j in range(len(tc)):
            f[base + tc[j]] = v


def plane_text(plane: np.ndarray, board: Any, fmt: str = "{:g}") -> str:
    """One observation plane drawn as the hexagon (row by row, indented), for debugging."""
    R, lines = board.radius, []
    for r in range(-R, R + 1):
        qs = [q for q in range(-R, R + 1) if abs(q + r) <= R]
        cells = [fmt.format(float(plane[r + R, q + R])) for q in qs]
        lines.append(" " * abs(r) + " ".join(f"{x:>1}" for x in cells))
    return "\n".join(lines)
