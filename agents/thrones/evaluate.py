"""The Thrones bots' evaluation of a position after the reveal: material, the strikes each side
has next turn (with their survival-check odds), the Thrones' safety and the march on the enemy.

A strike is an attack or a shot the engine would allow (``rules.attack_targets``,
``rules.fire_targets``); its odds come from ``rules.check_needed`` and ``check_odds``; a strike
on an unbreached Fortress only breaches it (a Throne's attack breaches and removes at once).
The side to move next gets its best strike's expected gain at full weight; the other side's
strikes count less, since the mover can answer them first. Values are in pieces' worth, from the
point of view of ``me``: ``evaluate(st, me) == -evaluate(st, 1 - me)``.
"""

from __future__ import annotations

from functools import cache

from games.thrones import rules as R
from games.thrones.config import (CATAPULT, CROSSBOWMAN, DRAGON, ELEPHANT, FIRING_RANGE, FORTRESS, LANCER,
                                  ODDS_LIMIT, RANGER, SPEARMAN, THRONE, TREBUCHET, WARHORSE)
from games.thrones.state import ThronesState

WIN = 1000.0  # a won game
# what a piece is worth, by type (a Throne's loss is the game: WIN)
PIECE_VALUE = {RANGER: 3.0, SPEARMAN: 3.0, CROSSBOWMAN: 4.0, CATAPULT: 5.0, TREBUCHET: 5.0,
               LANCER: 4.0, WARHORSE: 4.0, ELEPHANT: 5.0, DRAGON: 9.0, THRONE: WIN}
RESERVE_SHARE = 0.8  # a Dragon in reserve: worth this share of one on the board
MOVER_WEIGHT = 0.9  # the side to move: its best strike's expected gain counts this much
WAITER_WEIGHT = 0.3  # the other side: its strikes, which the mover may parry first
THRONE_BREACH_SHARE = 0.15  # a breach of the Fortress a Throne sits on: this share of WIN
PIECE_BREACH_SHARE = 0.3  # a breach of a Fortress another piece sits on: this share of it
MARCH_WEIGHT = 0.05  # per cell nearer the enemy Throne, for each piece but the Throne
THRONE_ON_FORTRESS = 2.0  # a Throne sitting on a Fortress (it must be breached first)
THRONE_EXPOSED = 1.5  # per enemy piece within two cells of a Throne off a Fortress
FAVOR_VALUE = 1.0  # a Fate's Favor in hand
# per cell nearer the enemy's home Fortress, for a Throne (it wins by standing there), scaled by
# the share of the enemy's army already removed: a Throne sets out once the way is clear
THRONE_MARCH_WEIGHT = 1.0
EXPOSURE_RANGE = 2


def strike_odds(st: ThronesState) -> float:
    return st.cfg.check_odds / ODDS_LIMIT


def piece_value(st: ThronesState, pid: int) -> float:
    return PIECE_VALUE[st.ptype[pid]]


def near_cells(st: ThronesState, foes: list[int]) -> set[int]:
    """The cells next to any of the cells ``foes``."""
    near: set[int] = set()
    adj = st.board.adj
    for f in foes:
        near.update(adj[f])
    return near


def in_reach(st: ThronesState, p: int, foes: set[int], near: set[int]) -> bool:
    """Whether an enemy stands where piece ``p`` could strike at all (next to it, or at its
    firing range; a Dragon always looks): a quick pass before the rules are asked."""
    pos, t = st.ppos[p], st.ptype[p]
    if t == DRAGON or pos in near:
        return True
    rng = FIRING_RANGE.get(t)
    if rng is None:
        return False
    for ray in st.board.rays[pos]:
        if len(ray) >= rng and ray[rng - 1] in foes:
            return True
    return False


def strikes(st: ThronesState, seat: int) -> list[tuple[float, float]]:
    """(gain if it succeeds, chance it succeeds) of every strike ``seat`` could make on a turn
    of its own in this position, less the attacker's loss when a failed attack removes it."""
    foes = {st.ppos[q] for q in st.pieces_of(1 - seat) if st.ppos[q] >= 0}
    near = near_cells(st, list(foes))
    saved = st.first_turn, st.moved, st.switched
    st.first_turn = st.moved = st.switched = False
    odds = strike_odds(st)
    out = []
    for p in st.pieces_of(seat):
        if st.ppos[p] < 0 or not in_reach(st, p, foes, near):
            continue
        for kind, cells in ((R.KIND_ATTACK, R.attack_targets(st, p)), (R.KIND_FIRE, R.fire_targets(st, p))):
            for c in cells:
                q = st.occ[c]
                gain = piece_value(st, q)
                if st.tile[c] == FORTRESS and not st.breached[c] and not (kind == R.KIND_ATTACK and st.ptype[p] == THRONE):
                    gain *= THRONE_BREACH_SHARE if st.ptype[q] == THRONE else PIECE_BREACH_SHARE
                if not R.check_needed(st, kind, p, c):
                    out.append((gain, 1.0))
                    continue
                risk = piece_value(st, p) if kind == R.KIND_ATTACK and st.ptype[p] != THRONE else 0.0
                out.append((gain - risk * (1 - odds) / odds, odds))
    st.first_turn, st.moved, st.switched = saved
    return out


def best_strike(st: ThronesState, seat: int) -> float:
    """The best expected gain among ``seat``'s strikes (0 when none is worth it)."""
    return max(0.0, max((g * p for g, p in strikes(st, seat)), default=0.0))


@cache
def distances(width: int, height: int) -> tuple[tuple[int, ...], ...]:
    """Kings' distances between the cells of a board (a Throne's steps)."""
    n = width * height
    return tuple(tuple(max(abs(a % width - b % width), abs(a // width - b // width)) for b in range(n))
                 for a in range(n))


def distance(st: ThronesState, a: int, b: int) -> int:
    return distances(st.board.w, st.board.h)[a][b]


def army_left(st: ThronesState, seat: int) -> float:
    """The share of ``seat``'s army (its Throne aside) still on the board or in reserve."""
    worth = [(PIECE_VALUE[st.ptype[q]], st.ppos[q] != -2) for q in st.pieces_of(seat) if st.ptype[q] != THRONE]
    full = sum(v for v, _ in worth)
    return sum(v for v, alive in worth if alive) / full if full else 0.0


def fortress_march(st: ThronesState, seat: int, pos: int) -> float:
    """The Throne's way to the enemy's home Fortress, worth more as the enemy's army falls."""
    forts = [c for c in st.board.home[1 - seat] if st.tile[c] == FORTRESS]
    if not forts:
        return 0.0
    return -THRONE_MARCH_WEIGHT * (1.0 - army_left(st, 1 - seat)) * min(distance(st, pos, c) for c in forts)


def side_value(st: ThronesState, seat: int) -> float:
    """Material, favors and the march of ``seat``'s pieces on the enemy Throne."""
    enemy_throne = next((st.ppos[q] for q in st.pieces_of(1 - seat) if st.ptype[q] == THRONE and st.ppos[q] >= 0), -1)
    total = FAVOR_VALUE * st.fav[seat]
    for p in st.pieces_of(seat):
        t, pos = st.ptype[p], st.ppos[p]
        if pos == -1 and t == DRAGON:
            total += RESERVE_SHARE * PIECE_VALUE[DRAGON]
        if pos < 0:
            continue
        if t == THRONE:
            total += throne_safety(st, seat, pos) + fortress_march(st, seat, pos)
            continue
        total += PIECE_VALUE[t]
        if enemy_throne >= 0:
            total -= MARCH_WEIGHT * distance(st, pos, enemy_throne)
    return total


def throne_safety(st: ThronesState, seat: int, pos: int) -> float:
    if st.tile[pos] == FORTRESS and not st.breached[pos]:
        return THRONE_ON_FORTRESS
    near = sum(1 for q in st.pieces_of(1 - seat) if st.ppos[q] >= 0 and distance(st, pos, st.ppos[q]) <= EXPOSURE_RANGE)
    return -THRONE_EXPOSED * near


def evaluate(st: ThronesState, me: int, mover: int | None = None) -> float:
    """The position's worth to ``me``; ``mover`` strikes next (default: the turn's seat)."""
    if st.winner >= 0:
        return WIN if st.winner == me else -WIN
    if st.is_truncated():
        return 0.0
    mover = st.turn if mover is None else mover
    score = side_value(st, me) - side_value(st, 1 - me)
    for seat in (0, 1):
        weight = MOVER_WEIGHT if seat == mover else WAITER_WEIGHT
        gain = weight * best_strike(st, seat)
        score += gain if seat == me else -gain
    return score
