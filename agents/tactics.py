"""Rules-based evaluation shared by the bots: battle odds, token values, threats, a position value.

Everything here reads a :class:`~vigtavl_env.engine.GameState` and never changes it.

- **Codes**: :func:`split_legal` groups the engine's legal codes by verb.
- **Odds** from the dice rules: close combat is won by the higher of the two highest dice with
  ties re-rolled, so ``p = P(A > D) / (1 - P(A = D))``; a ranged shot hits if any of ``n`` dice
  is at most ``k`` (3, 2, 1 at range 1, 2, 3): ``1 - (1 - k/6)^n``; an attack with at least
  ``overwhelm_dice`` dice wins outright. :func:`preview_dice` (the engine's
  ``preview_attack_dice``) adds flanking (the first attack on a hex sets its front) and
  attrition (the third attack from one side) without recording anything.
- **Defence** (rules v1: the attacked player chooses): :func:`choose_defender` is the choice
  that loses the fewest tokens on average, which is also what an attacker should expect;
  :func:`guard_outcome` plays out a defended seizure, the owner sending defenders while they
  are worth it.
- **Values**: what a defeated unit, a seized development (+3 for an owner's last one, plus the
  prisoners rescued there) and the end awards are worth in victory tokens.
- **Threats** (:class:`Threats`): for one player, what his units could attack or stand next to
  on his next turn, from static distances (walls and blocking units aside).
- **Position value** (:func:`evaluate`): tokens, the end awards as they stand now, and what each
  player's developments, prisoners and units are likely to win or lose before the game ends.

Per-map tables (:class:`MapInfo`) are built once per map by whoever owns the cache (a bot keeps
one per map it has seen; the tables also remember the threats of the last positions seen);
nothing here is cached at module level.
"""

from __future__ import annotations

from collections import OrderedDict
from typing import Any, Callable

import numpy as np

from vigtavl_env.engine import actions as A
from vigtavl_env.engine.combat import defender_at, defender_options, preview_attack_dice
from vigtavl_env.engine.state import (
    BATTLE, LOADED, ON_BOARD, OVER, PLACEMENT, PRISONER, GameState, positions,
)
from vigtavl_env.engine.stats import (
    ARCHER, BREACH_HIT_MAX, DEV_COST, FREIGHTER, IS_SHIP,
    NO_DEV, RANGED_HIT_MAX, UNIT_COST, UNIT_MOVEMENT, UNIT_RANGE,
)

LAST_DEVELOPMENT_BONUS = 3  # "the victor receives 3 victory tokens in addition"
END_AWARD = 3  # General, Admiral, Builder
COMPLEX_TOKENS = 3
INF = 99

# Verb groups (the engine's verbs that take several codes collapse to one group each).
GROUPS = {
    "place": range(A.PLACE, A.PLACE + 3),
    "build_unit": range(A.BUILD_UNIT, A.BUILD_UNIT + 6),
    "build_artillery": range(A.BUILD_ARTILLERY, A.BUILD_ARTILLERY + 1),
    "build_dev": range(A.BUILD_DEV, A.BUILD_DEV + 3),
    "build_wall": range(A.BUILD_WALL, A.BUILD_WALL + 6),
    "relocate_wall": range(A.RELOCATE_WALL, A.RELOCATE_WALL + 6),
    "breach": range(A.BREACH, A.BREACH + 6),
    "activate": range(A.ACTIVATE, A.ACTIVATE + 6),
    "move": range(A.MOVE, A.MOVE + 1),
    "move_artillery": range(A.MOVE_ARTILLERY, A.MOVE_ARTILLERY + 1),
    "attack": range(A.ATTACK, A.ATTACK + 1),
    "fire": range(A.FIRE_ARTILLERY, A.FIRE_ARTILLERY + 1),
    "occupy": range(A.OCCUPY, A.OCCUPY + 1),
    "seize": range(A.SEIZE, A.SEIZE + 1),
    "discharge": range(A.DISCHARGE, A.DISCHARGE + 3),
    "recruit": range(A.RECRUIT, A.RECRUIT + 1),
    "shoot": range(A.SHOOT, A.SHOOT + 1),
    "attack_from": range(A.ATTACK_FROM, A.ATTACK_FROM + 1),
    "choose": range(A.CHOOSE, A.CHOOSE + 6),
    "hold_prisoner": range(A.HOLD_PRISONER, A.HOLD_PRISONER + 1),
    "place_rescued": range(A.PLACE_RESCUED, A.PLACE_RESCUED + 1),
}
# The global verbs by number: end activation, end turn, no defence, the freighter splits, then
# "choose variant k".
GLOBAL_GROUPS = (("end_activation", "end_turn", "no_defence") + ("load",) * (A.VARIANT - A.LOAD)
                 + ("variant",) * A.MAX_VARIANTS)
VERB_GROUP = tuple(next(g for g, vs in GROUPS.items() if v in vs) for v in range(A.N_HEX_VERBS))


# ---------------------------------------------------------------------------------- codes
def split_legal(legal: list[int], n_cells: int) -> dict[str, list[tuple[int, int, int]]]:
    """Legal codes grouped by verb group: ``{group: [(verb, cell, code), ...]}``. A global verb
    comes in its :data:`GLOBAL_GROUPS` group as ``(-1, g, code)``: no verb, and its number ``g``
    (``A.LOAD + i`` for the split ``i``) where a hex verb has its cell."""
    out: dict[str, list[tuple[int, int, int]]] = {}
    top = A.N_HEX_VERBS * n_cells
    for code in legal:
        if code >= top:
            g = code - top
            out.setdefault(GLOBAL_GROUPS[g], []).append((-1, g, code))
        else:
            verb = code // n_cells
            out.setdefault(VERB_GROUP[verb], []).append((verb, code - verb * n_cells, code))
    return out


def verb_group(code: int, n_cells: int) -> str:
    """The group name of one engine code (see :data:`GROUPS`, :data:`GLOBAL_GROUPS`)."""
    top = A.N_HEX_VERBS * n_cells
    if code >= top:
        return GLOBAL_GROUPS[code - top]
    return VERB_GROUP[code // n_cells]


# ---------------------------------------------------------------------------------- odds
def _p_max_le(k: int, n: int) -> float:
    """P(the highest of n dice is at most k)."""
    return (k / 6.0) ** n


def close_win_prob(attack: int, defend: int, overwhelm: int = 6) -> float:
    """Close combat: P(attacker's highest die beats the defender's), ties re-rolled."""
    if attack >= overwhelm:
        return 1.0
    if attack <= 0:
        return 0.0
    if defend <= 0:
        return 1.0
    if attack < _TABLE_DICE and defend < _TABLE_DICE:
        return CLOSE_WIN[attack][defend]
    return _close_win(attack, defend)


def _close_win(attack: int, defend: int) -> float:
    win = tie = 0.0
    for a in range(1, 7):
        pa = _p_max_le(a, attack) - _p_max_le(a - 1, attack)
        win += pa * _p_max_le(a - 1, defend)
        tie += pa * (_p_max_le(a, defend) - _p_max_le(a - 1, defend))
    return win / (1.0 - tie)


_TABLE_DICE = 13
# CLOSE_WIN[a][d]: close-combat win chance with a attack dice against d defence dice.
CLOSE_WIN = tuple(
    tuple(_close_win(a, d) if a > 0 and d > 0 else float(a > 0) for d in range(_TABLE_DICE))
    for a in range(_TABLE_DICE)
)


def ranged_hit_prob(dice: int, reach: int, overwhelm: int = 99) -> float:
    """Ranged: P(any of ``dice`` dice is at most the range's hit number)."""
    if dice >= overwhelm:
        return 1.0
    k = RANGED_HIT_MAX.get(reach, 0)
    return 1.0 - (1.0 - k / 6.0) ** max(dice, 0)


def breach_prob(dice: int) -> float:
    """Breach: any die of 1-3 removes the wall."""
    return 1.0 - (1.0 - BREACH_HIT_MAX / 6.0) ** max(dice, 0)


# The engine's own dice preview and defender rule, under the names the bots use.
preview_dice = preview_attack_dice  # (state, base, target, from_dir, ranged): records nothing
defender = defender_at  # the strongest unit on a hex (freighters last): what kind holds it


def attack_dice_from(state: GameState, base: int, target: int, origin: int, ranged: bool) -> int:
    """Attack dice (flanking, feint, attrition) of an attack with ``base`` dice from ``origin``
    (a neighbour, or a hex on one of the target's rays) on ``target``."""
    d = state.gmap.board.direction_between(target, origin)
    return preview_attack_dice(state, base, target, d if d >= 0 else 0, ranged)


def loss_prob(state: GameState, dice: int, reach: int, u: int) -> float:
    """P(unit ``u`` loses) defending against ``dice`` attack dice at range ``reach`` (0: close
    combat, the defender rolling its cost); overwhelm wins outright."""
    cfg = state.config
    if reach:
        return ranged_hit_prob(dice, reach, cfg.overwhelm_dice if cfg.ranged_tactics else 99)
    return close_win_prob(dice, UNIT_COST[state.u_type[u]], cfg.overwhelm_dice)


def stake_value(state: GameState, u: int) -> float:
    """What the owner of ``u`` loses with it: its cost, a freighter's cargo (it drowns), and,
    when ``u`` is his last unit on a hex with his development or artillery, part of what the
    victor may take by occupying the hex (Occupation takes what stands there)."""
    t, c, owner = state.u_type[u], state.u_cell[u], state.u_owner[u]
    v = float(UNIT_COST[t])
    if t == FREIGHTER:
        v += sum(UNIT_COST[state.u_type[k]] for k in state.cargo(u))
    if state.dev_owner[c] == owner or state.art_owner[c] == owner:
        alone = sum(1 for k in positions(state.u_cell, c)
                    if state.u_where[k] == ON_BOARD and state.u_owner[k] == owner) == 1
        if alone:
            dev = state.dev_type[c]
            if dev == NO_DEV:
                piece = 1.0  # artillery: no tokens, but it would fire at him
            else:
                piece = DEV_COST[dev] + (LAST_DEVELOPMENT_BONUS if dev_count(state, owner) == 1 else 0)
            v += 0.8 * piece  # the victor may not be next to it (a shot from afar), or stay out
    return v


def choose_defender(state: GameState, dice: int, reach: int, options: list[int]) -> tuple[int, float]:
    """Defend: the unit of ``options`` that loses the fewest tokens on average against ``dice``
    attack dice at range ``reach`` (P(it loses) x :func:`stake_value`), and P(it loses). A cheap
    unit steps in for a valuable one when the odds are bad; against a shot or an overwhelm,
    where every defender's odds are the same, the cheapest defends. (-1, 0.0) without options."""
    best, best_key, best_p = -1, None, 0.0
    for u in options:
        p = loss_prob(state, dice, reach, u)
        key = (p * stake_value(state, u), UNIT_COST[state.u_type[u]], u)
        if best_key is None or key < best_key:
            best, best_key, best_p = u, key, p
    return best, best_p


def guard_outcome(guards: list[tuple[float, float]], stake: float) -> tuple[float, float, float]:
    """A defended seizure played out, the owner choosing well: ``guards`` are his possible
    defenders as (P(it beats the seizer), its value), ``stake`` what the seized piece is worth.
    Each time he may send one (it fights; if it loses it is defeated and he is asked again) or
    let the piece go. Returns (his expected loss, P(the piece is seized), the expected value of
    his defenders defeated). Defending with a guard is worth it while P(it wins) x the stake
    outweighs P(it loses) x its value, counting what the later choices would lose."""
    memo: dict[int, tuple[float, float, float]] = {}

    def best(used: int) -> tuple[float, float, float]:
        if used in memo:
            return memo[used]
        out = (stake, 1.0, 0.0)  # no defence
        for i, (p_hold, value) in enumerate(guards):
            if used >> i & 1:
                continue
            loss, seized, lost = best(used | 1 << i)
            q = 1.0 - p_hold
            option = (q * (value + loss), q * seized, q * (value + lost))
            if option[0] < out[0]:
                out = option
        memo[used] = out
        return out

    return best(0)


def attack_prob(state: GameState, base: int, target: int, origin: int, ranged_range: int, victim: int) -> float:
    """P(win) of an attack with ``base`` dice from ``origin`` on ``target`` (close if range 0)
    against the defender ``victim``."""
    dice = attack_dice_from(state, base, target, origin, bool(ranged_range))
    return loss_prob(state, dice, ranged_range, victim)


def attack_odds(state: GameState, u: int, target: int) -> tuple[float, int]:
    """(P(win), defender) of unit ``u`` attacking ``target`` from where it stands now, the
    attacked player choosing his defender (:func:`choose_defender`): close combat next door, a
    shot along a ray for archers and galleons (next door, the better of the two); (0, -1) when
    nobody there can be attacked."""
    if defender(state, target) < 0:
        return 0.0, -1
    origin = state.u_cell[u]
    base = UNIT_COST[state.u_type[u]]
    options = defender_options(state, target, origin)
    dist = state.gmap.board.dist[origin][target]
    ranges = ([dist] if UNIT_RANGE[state.u_type[u]] else []) + ([0] if dist == 1 else [])
    best, best_ev = (0.0, -1), -1.0
    for reach in ranges:
        dice = attack_dice_from(state, base, target, origin, bool(reach))
        victim, p = choose_defender(state, dice, reach, options)
        if victim >= 0 and p * unit_value(state, victim) > best_ev:
            best, best_ev = (p, victim), p * unit_value(state, victim)
    return best


def expected_attack_tokens(state: GameState, u: int, target: int) -> float:
    """Battle tokens unit ``u`` can expect from attacking ``target``: P(win) x the defender's
    cost (its value)."""
    p, victim = attack_odds(state, u, target)
    return p * unit_value(state, victim) if victim >= 0 else 0.0


# ---------------------------------------------------------------------------------- values
def unit_value(state: GameState, u: int) -> int:
    """Battle tokens for defeating unit ``u`` (its cost)."""
    return UNIT_COST[state.u_type[u]]


def dev_count(state: GameState, player: int) -> int:
    return sum(1 for o in state.dev_owner if o == player)


def seize_value(state: GameState, me: int, cell: int) -> float:
    """Tokens for seizing ``cell`` now: development value (+3 for the owner's last one) and
    the value of my prisoners rescued there. Artillery alone is worth no tokens."""
    dev = state.dev_type[cell]
    if dev == NO_DEV:
        return 0.0
    owner = state.dev_owner[cell]
    v = float(DEV_COST[dev])
    if dev_count(state, owner) == 1:
        v += LAST_DEVELOPMENT_BONUS
    for u, w in enumerate(state.u_where):
        if w == PRISONER and state.u_cell[u] == cell and state.u_owner[u] == me:
            v += UNIT_COST[state.u_type[u]]
    return v


def end_counts(state: GameState) -> tuple[list[int], list[int], list[int]]:
    """(prisoners held, ships sunk, developments) per player: what the end awards compare."""
    p = state.n_players
    prisoners = [0] * p
    for u, w in enumerate(state.u_where):
        if w == PRISONER and state.u_holder[u] >= 0:
            prisoners[state.u_holder[u]] += 1
    devs = [0] * p
    for o in state.dev_owner:
        if o >= 0:
            devs[o] += 1
    return prisoners, list(state.sunk), devs


def award_shares(counts: list[int], need_one: bool = True) -> list[float]:
    """End-award tokens each player would get for these counts (ties all get it)."""
    best = max(counts)
    if best == 0 and need_one:
        return [0.0] * len(counts)
    return [float(END_AWARD) if c == best else 0.0 for c in counts]


def projected_awards(state: GameState) -> list[float]:
    """General + Admiral + Builder tokens per player if the game ended now."""
    if state.phase == OVER:
        return [0.0] * state.n_players
    need = state.config.end_awards_need_one
    out = [0.0] * state.n_players
    for counts in end_counts(state):
        for p, v in enumerate(award_shares(counts, need)):
            out[p] += v
    return out


def battle_turns_left(state: GameState, player: int) -> int:
    """Battle-phase turns ``player`` still starts (his current turn not counted)."""
    if state.phase in (OVER,):
        return 0
    rounds = state.config.rounds_per_phase
    p = state.n_players
    # Turns are numbered in play order from the first build turn.
    if state.phase == PLACEMENT:
        now = -1
    else:
        now = (state.round + (rounds if state.phase == BATTLE else 0)) * p + state.turn_player
    first_battle = rounds * p
    last = 2 * rounds * p - 1
    n = 0
    for t in range(max(now + 1, first_battle), last + 1):
        if t % p == player:
            n += 1
    return n


def turns_left(state: GameState, player: int) -> int:
    """Turns (build or battle) ``player`` still starts after now."""
    if state.phase == OVER:
        return 0
    rounds = state.config.rounds_per_phase
    p = state.n_players
    now = -1 if state.phase == PLACEMENT else (state.round + (rounds if state.phase == BATTLE else 0)) * p + state.turn_player
    last = 2 * rounds * p - 1
    return sum(1 for t in range(now + 1, last + 1) if t % p == player)


# ---------------------------------------------------------------------------------- caches
class Recent:
    """The values of the last ``size`` keys used, the least recently used dropped first."""

    def __init__(self, size: int) -> None:
        self.size = size
        # hash(key) -> (key, value): a big key is hashed once per look-up, not twice.
        self._d: OrderedDict[int, tuple] = OrderedDict()

    def get(self, key: Any, make: Callable[[], Any]) -> Any:
        """The value for ``key``, made by ``make()`` if it is not kept."""
        d = self._d
        h = hash(key)
        e = d.get(h)
        if e is not None and e[0] == key:
            d.move_to_end(h)
            return e[1]
        v = make()
        d[h] = (key, v)  # a different key with the same hash is replaced
        d.move_to_end(h)
        if len(d) > self.size:
            d.popitem(last=False)
        return v


# ---------------------------------------------------------------------------------- map tables
class MapInfo:
    """Static per-map tables, computed once per map: distances over land (knights), over sea
    (ships, with the winds of either direction), from a freighter's deck to land, adjacency
    and the straight rays of ranged attacks (stopped by mountains), as numpy matrices."""

    def __init__(self, gmap: Any) -> None:
        self.gmap = gmap
        board = gmap.board
        self.n = n = board.n_cells
        self.nb = [tuple(x for x in board.neighbours[c] if x >= 0) for c in range(n)]
        self.is_land = gmap.is_land
        self.is_sea = gmap.is_sea
        self.coastal = gmap.coastal
        self.shore = [tuple(x for x in self.nb[c] if gmap.is_land[x]) for c in range(n)]
        self.sea_nb = [tuple(x for x in self.nb[c] if gmap.is_sea[x]) for c in range(n)]
        self.land_dist = [self._bfs(c, gmap.is_land, None) for c in range(n)]
        self.land_order = [sorted((d, x) for x, d in enumerate(row) if d < INF) for row in self.land_dist]
        self.LD = np.array(self.land_dist, dtype=np.int16)
        # From a freighter on sea hex c: one step ashore, then over land.
        deck = np.full((n, n), INF, dtype=np.int16)
        for c in range(n):
            for y in self.shore[c]:
                deck[c] = np.minimum(deck[c], self.LD[y] + 1)
        self.DECK = deck
        self.deck_list = deck.tolist()
        self.ADJ = np.zeros((n, n), dtype=np.float32)
        for c in range(n):
            for x in self.nb[c]:
                self.ADJ[c, x] = 1.0
        self.RAY = [np.zeros((n, n), dtype=np.float32) for _ in range(4)]  # index = range 1..3
        for c in range(n):
            for d in range(6):
                for k, (x, _e) in enumerate(board.rays[c][d], start=1):
                    if not (gmap.is_land[x] or gmap.is_sea[x]):
                        break
                    self.RAY[k][c, x] = 1.0
        self._sea: dict[int, tuple] = {}
        # Threats of the last positions seen: a search evaluates many futures of one turn, in
        # which most of one player's units stand where they stood.
        self._threats = Recent(64)

    def _bfs(self, start: int, terrain: list[bool], wind: list | None) -> list[int]:
        """Steps from ``start`` to every hex of ``terrain`` (a step costs 1, a wind ride 2)."""
        dist = [INF] * self.n
        if not terrain[start]:
            return dist
        dist[start] = 0
        nb = self.nb
        buckets: list[list[int]] = [[start], [], []]  # hexes to expand, by distance
        k = 0
        while buckets[k] or buckets[k + 1]:
            for a in buckets[k]:
                if dist[a] != k:
                    continue
                for b in nb[a]:
                    if terrain[b] and dist[b] > k + 1:
                        dist[b] = k + 1
                        buckets[k + 1].append(b)
                if wind is not None:
                    for b in wind[a]:
                        if dist[b] > k + 2:
                            dist[b] = k + 2
                            buckets[k + 2].append(b)
            k += 1
            buckets.append([])
        return dist

    def _sea_tables(self, wind: int) -> tuple:
        if wind not in self._sea:
            gm = self.gmap
            targets = gm.wind_targets_cw if wind > 0 else gm.wind_targets_ccw
            rows = [self._bfs(c, gm.is_sea, targets) for c in range(self.n)]
            sd = np.array(rows, dtype=np.int16)
            # Distance for a ship to come next to hex x (on any sea hex beside it, or onto it).
            approach = np.full((self.n, self.n), INF, dtype=np.int16)
            for x in range(self.n):
                cols = list(self.sea_nb[x]) + ([x] if gm.is_sea[x] else [])
                if cols:
                    approach[:, x] = sd[:, cols].min(axis=1)
            self._sea[wind] = (rows, sd, approach)
        return self._sea[wind]

    def sea_dist(self, wind: int) -> list[list[int]]:
        return self._sea_tables(wind)[0]

    def SD(self, wind: int) -> np.ndarray:
        return self._sea_tables(wind)[1]

    def SEA_APPROACH(self, wind: int) -> np.ndarray:
        return self._sea_tables(wind)[2]

    def reach_list(self, state: GameState, u: int) -> list[int]:
        """:meth:`reach_row` as a plain list (fast to index one hex at a time)."""
        t = state.u_type[u]
        c = state.u_cell[u]
        if IS_SHIP[t]:
            return self.sea_dist(state.wind)[c]
        if state.u_where[u] == LOADED:
            return self.deck_list[c]
        return self.land_dist[c]

    def threats(self, state: GameState, player: int) -> "Threats":
        """:class:`Threats` of ``player`` (remembered for the last positions of his units)."""
        mine = positions(state.u_owner, player)
        types, cells, where = state.u_type, state.u_cell, state.u_where
        key = (player, state.wind, player in state.dev_owner,
               tuple((types[u], cells[u], where[u]) for u in mine))
        return self._threats.get(key, lambda: Threats(state, self, player))

    def reach_row(self, state: GameState, u: int) -> np.ndarray:
        """Static distance from unit ``u`` to every hex it could stand on."""
        t = state.u_type[u]
        c = state.u_cell[u]
        if IS_SHIP[t]:
            return self.SD(state.wind)[c]
        if state.u_where[u] == LOADED:
            return self.DECK[c]
        return self.LD[c]


# ---------------------------------------------------------------------------------- threats
class Threats:
    """What one player could do on his next turn, from where his units stand now (static
    distances; walls and units in the way are not counted).

    ``close[c]``: the most close-combat dice one of his units could bring against hex ``c``;
    ``ranged[c]``: his best chance of a ranged hit on ``c``; ``stand[c]``: one of his fighting
    units could end a move on ``c``; ``can_capture``: he holds a development (U28).
    """

    __slots__ = ("player", "close", "ranged", "stand", "can_capture")

    def __init__(self, state: GameState, info: MapInfo, player: int) -> None:
        n = info.n
        self.player = player
        self.can_capture = player in state.dev_owner
        stand = np.zeros(n, dtype=bool)
        close_masks = {1: np.zeros(n, dtype=bool), 3: np.zeros(n, dtype=bool)}
        ranged_masks = {2: np.zeros(n, dtype=bool), 3: np.zeros(n, dtype=bool)}
        for u, o in enumerate(state.u_owner):
            if o != player:
                continue
            w = state.u_where[u]
            if w != ON_BOARD and w != LOADED:
                continue
            t = state.u_type[u]
            if t == FREIGHTER:
                continue
            m = info.reach_row(state, u) <= UNIT_MOVEMENT[t]
            if w == LOADED and t == ARCHER:
                m = m.copy()
                m[state.u_cell[u]] = True
            stand |= m
            if UNIT_RANGE[t]:
                ranged_masks[UNIT_COST[t]] |= m
            else:
                close_masks[UNIT_COST[t]] |= m
        close = np.zeros(n, dtype=np.int8)
        for cost in (1, 3):
            if close_masks[cost].any():
                hit = close_masks[cost].astype(np.float32) @ info.ADJ > 0
                close[hit] = cost
        ranged = np.zeros(n, dtype=np.float32)
        for cost, mask in ranged_masks.items():
            if not mask.any():
                continue
            mf = mask.astype(np.float32)
            for k in (3, 2, 1):
                hit = mf @ info.RAY[k] > 0
                ranged[hit] = np.maximum(ranged[hit], ranged_hit_prob(cost, k))
        self.close = close.tolist()
        self.ranged = ranged.tolist()
        self.stand = stand.tolist()

    def attack_prob(self, cost: int, cell: int, is_ship: bool) -> float:
        """Chance he defeats a defender of this cost on ``cell`` with his best single attack."""
        if not is_ship and not self.can_capture:
            return 0.0
        p = self.ranged[cell]
        d = self.close[cell]
        if d:
            p = max(p, CLOSE_WIN[d][cost])
        return p


def target_field(state: GameState, info: MapInfo, me: int) -> tuple[list[float], list[float]]:
    """Pull of other players' targets per hex, for my knights (over land) and my ships (over
    sea): the best target value, shrinking with the turns it takes to get next to it."""
    xs, vs = [], []
    for c, o in enumerate(state.dev_owner):
        if o >= 0 and o != me:
            xs.append(c)
            vs.append(DEV_COST[state.dev_type[c]] + 1.0)
    can_capture = me in state.dev_owner
    for u, o in enumerate(state.u_owner):
        if o == me or state.u_where[u] != ON_BOARD:
            continue
        t = state.u_type[u]
        if not IS_SHIP[t] and not can_capture:
            continue
        xs.append(state.u_cell[u])
        vs.append(0.5 * UNIT_COST[t])
    n = info.n
    if not xs:
        return [0.0] * n, [0.0] * n
    v = np.array(vs, dtype=np.float32)
    land_d = info.LD[:, xs].astype(np.float32) - 1.0  # next to it
    land = (v / (1.0 + np.maximum(0.0, land_d - 3.0) * 0.5)).max(axis=1)
    sea_d = info.SEA_APPROACH(state.wind)[:, xs].astype(np.float32)
    sea = (v / (1.0 + np.maximum(0.0, sea_d - 5.0) * 0.3)).max(axis=1)
    land[~np.array(info.is_land)] = 0.0
    sea[~np.array(info.is_sea)] = 0.0
    return land.tolist(), sea.tolist()


def approach_risk(state: GameState, info: MapInfo, me: int) -> list[float]:
    """0..1 per hex: how soon other players' fighting units could stand next to it (for the
    turns before a threat is immediate)."""
    n = info.n
    risk = np.zeros(n, dtype=np.float32)
    turns = 1 if state.phase == BATTLE else 2
    scale = 0.8 if state.phase == BATTLE else 0.6
    approach = info.SEA_APPROACH(state.wind)
    for u, o in enumerate(state.u_owner):
        if o == me or state.u_where[u] not in (ON_BOARD, LOADED):
            continue
        if battle_turns_left(state, o) <= 0:
            continue
        t = state.u_type[u]
        if t == FREIGHTER:
            continue
        c = state.u_cell[u]
        if IS_SHIP[t]:
            d = approach[c].astype(np.float32)
        else:
            d = info.reach_row(state, u).astype(np.float32) - 1.0
        span = UNIT_MOVEMENT[t] + 1.0
        r = 1.0 - np.maximum(0.0, d - span) / (span * turns + 1.0)
        np.maximum(risk, np.clip(r, 0.0, 1.0) * scale, out=risk)
    return risk.tolist()


def guards(state: GameState, owner: int) -> set[int]:
    """Hexes where ``owner`` has a unit that defends developments (not a freighter)."""
    out = set()
    for u, o in enumerate(state.u_owner):
        if o == owner and state.u_where[u] == ON_BOARD and state.u_type[u] != FREIGHTER:
            out.add(state.u_cell[u])
    return out


def seize_exposure(state: GameState, info: MapInfo, cell: int, owner: int, threat: Threats,
                   guard_cells: set[int], extra_guard: int = -1) -> float:
    """0..1: how exposed ``owner``'s development on ``cell`` is to a seizure by the threat's
    player next turn (1 = an approach hex he can reach is unguarded, no wall in between)."""
    if cell in guard_cells or cell == extra_guard:
        # A defender on the hex: he must first win a battle against it.
        return 0.0
    board = state.gmap.board
    q = threat.player
    exposed = 0.0
    for d, a in enumerate(board.neighbours[cell]):
        if a < 0 or not threat.stand[a]:
            continue
        h = state.cell_player[a]
        if h >= 0 and h != q:
            continue
        w = state.walls[board.edge[cell][d]]
        if w >= 0 and w != q:
            exposed = max(exposed, 0.3)  # a wall in the way: he must breach it first
            continue
        common = board.common_neighbours(a, cell)
        if any(x in guard_cells or x == extra_guard for x in common):
            continue
        return 1.0
    return exposed


# ---------------------------------------------------------------------------------- evaluation
class Evaluation:
    """Weights of :func:`evaluate` (victory-token units)."""

    def __init__(self, unit_weight: float = 0.25, threat_weight: float = 0.8,
                 award_weight: float = 1.0, resource_weight: float = 0.1) -> None:
        self.unit_weight = unit_weight  # units other players can beat next turn
        self.threat_weight = threat_weight  # developments other players can seize next turn
        self.award_weight = award_weight  # end awards as they stand
        self.resource_weight = resource_weight  # unspent gold and silver of the turn player


DEFAULT_EVAL = Evaluation()


def player_scores(state: GameState, info: MapInfo, weights: Evaluation = DEFAULT_EVAL) -> list[float]:
    """Each player's expected final tokens, roughly: tokens, end awards as they stand, and the
    expected losses of developments, prisoners and units to the players who move before him."""
    n = state.n_players
    scores = [float(t) for t in state.tokens]
    if state.phase == OVER:
        return scores
    aw = projected_awards(state)
    for p in range(n):
        scores[p] += weights.award_weight * aw[p]
    # Gold and silver still to spend this turn (a simulation cut short mid-turn).
    tp = state.turn_player
    scores[tp] += weights.resource_weight * (state.gold[tp] + state.silver[tp])
    # Threats: what each player can take from the others on his next battle turn; the player
    # who moves next counts in full, the others (who can be answered first) at half.
    threat = {q: info.threats(state, q) for q in range(n) if battle_turns_left(state, q) > 0
              or (state.turn_player == q and state.phase == BATTLE)}
    if not threat:
        return scores
    order = {q: (1.0 if q == state.turn_player else 0.5) for q in threat}
    guard = [guards(state, p) for p in range(n)]
    devs = [[] for _ in range(n)]
    for c, o in enumerate(state.dev_owner):
        if o >= 0:
            devs[o].append(c)
    held_at: dict[int, list[int]] = {}
    for u, w in enumerate(state.u_where):
        if w == PRISONER:
            held_at.setdefault(state.u_cell[u], []).append(u)
    tw = weights.threat_weight
    for p in range(n):
        for c in devs[p]:
            worst, by = 0.0, -1
            for q, th in threat.items():
                if q == p:
                    continue
                e = seize_exposure(state, info, c, p, th, guard[p])
                if e > worst:
                    worst, by = e, q
            if worst <= 0:
                continue
            gain = DEV_COST[state.dev_type[c]] + (LAST_DEVELOPMENT_BONUS if len(devs[p]) == 1 else 0)
            for u in held_at.get(c, ()):
                if state.u_owner[u] == by:
                    gain += UNIT_COST[state.u_type[u]]
            w = tw * order[by]
            scores[by] += w * worst * gain
            scores[p] -= w * worst * DEV_COST[state.dev_type[c]] * 0.5
    # Units: a unit another player can beat next turn is a loss to its owner, a gain to him.
    uw = weights.unit_weight
    seen_cells: set[int] = set()
    for u, w in enumerate(state.u_where):
        if w != ON_BOARD:
            continue
        c = state.u_cell[u]
        if c in seen_cells:
            continue
        seen_cells.add(c)
        v = defender(state, c)
        if v < 0:
            continue
        p = state.u_owner[v]
        cost = UNIT_COST[state.u_type[v]]
        best, by = 0.0, -1
        for q, th in threat.items():
            if q == p:
                continue
            pr = th.attack_prob(cost, c, IS_SHIP[state.u_type[v]])
            if pr > best:
                best, by = pr, q
        if best > 0:
            w = uw * order[by]
            scores[by] += w * best * cost
            scores[p] -= w * best * cost * 0.5
    return scores


def evaluate(state: GameState, info: MapInfo, me: int, weights: Evaluation = DEFAULT_EVAL) -> float:
    """My score minus the best other player's (see :func:`player_scores`)."""
    s = player_scores(state, info, weights)
    return s[me] - max(x for p, x in enumerate(s) if p != me)
