"""The Thrones bots' evaluation of a position after the reveal: material, the strikes each side
has next turn (with their survival-check odds), the Thrones' safety and the march on the enemy.

A strike is an attack or a shot the engine would allow (``rules.strikes``); its odds come from ``rules.check_needed`` and ``check_odds``; a strike
on an unbreached Fortress only breaches it (a Throne's attack breaches and removes at once).
The side to move next gets its best strike's expected gain at full weight; the other side's
strikes count less, since the mover can answer them first. Values are in pieces' worth, from the
point of view of ``me``: ``evaluate(st, me) == -evaluate(st, 1 - me)``.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache, lru_cache

from games.thrones import rules as R
from games.thrones.config import (CATAPULT, CROSSBOWMAN, DRAGON, ELEPHANT, FORTRESS, LANCER,
                                  ODDS_LIMIT, RANGER, SPEARMAN, THRONE, TREBUCHET, WARHORSE)
from games.thrones.board import board_for
from games.thrones.state import REMOVED, ThronesState

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


@cache
def kings_distances(width: int, home_height: int) -> tuple[tuple[int, ...], ...]:
    """Cell to cell, the steps of a king (a Throne's steps) on a board of this size."""
    n = width * (2 * home_height + 1)
    return tuple(tuple(max(abs(a % width - c % width), abs(a // width - c // width)) for c in range(n))
                 for a in range(n))


@lru_cache(maxsize=64)
def home_fortresses(tiles: tuple[int, ...], width: int, home_height: int, seat: int) -> tuple[int, ...]:
    """The Fortress cells of ``seat``'s home (tiles never change after the reveal)."""
    return tuple(c for c in board_for(width, home_height).home[seat] if tiles[c] == FORTRESS)


def strikes(st: ThronesState, seat: int) -> list[tuple[float, float]]:
    """(gain if it succeeds, chance it succeeds) of every strike ``seat`` could make on a turn
    of its own in this position, less the attacker's loss when a failed attack removes it."""
    odds = strike_odds(st)
    out = []
    for p, kind, c, checked in R.strikes(st, seat):
        q = st.occ[c]
        gain = PIECE_VALUE[st.ptype[q]]
        if st.tile[c] == FORTRESS and not st.breached[c] and not (kind == R.KIND_ATTACK and st.ptype[p] == THRONE):
            gain *= THRONE_BREACH_SHARE if st.ptype[q] == THRONE else PIECE_BREACH_SHARE
        if not checked:
            out.append((gain, 1.0))
            continue
        risk = PIECE_VALUE[st.ptype[p]] if kind == R.KIND_ATTACK and st.ptype[p] != THRONE else 0.0
        out.append((gain - risk * (1 - odds) / odds, odds))
    return out


def best_strike(st: ThronesState, seat: int) -> float:
    """The best expected gain among ``seat``'s strikes (0 when none is worth it)."""
    return max(0.0, max((g * p for g, p in strikes(st, seat)), default=0.0))


@dataclass
class Army:
    """One side's pieces at a glance: (type, cell) of those on the board, its Throne's cell (-1
    none), the worth of its Dragons in reserve, and the share of its army's worth left."""

    placed: list[tuple[int, int]]
    throne: int
    reserve: float
    left: float


def army(st: ThronesState, seat: int) -> Army:
    placed, throne, reserve, alive, full = [], -1, 0.0, 0.0, 0.0
    for q in st.pieces_of(seat):
        t, pos = st.ptype[q], st.ppos[q]
        if t == THRONE:
            throne = pos if pos >= 0 else throne
            continue
        full += PIECE_VALUE[t]
        if pos != REMOVED:
            alive += PIECE_VALUE[t]
        if pos >= 0:
            placed.append((t, pos))
        elif pos == -1 and t == DRAGON:
            reserve += RESERVE_SHARE * PIECE_VALUE[DRAGON]
    return Army(placed, throne, reserve, alive / full if full else 0.0)


def side_value(st: ThronesState, seat: int, mine: Army, theirs: Army) -> float:
    """Material, favors, the march of ``seat``'s pieces on the enemy Throne, its Throne's
    safety and its way to the enemy's Fortress."""
    dist = kings_distances(st.board.w, st.board.hh)
    total = FAVOR_VALUE * st.fav[seat] + mine.reserve
    toward = dist[theirs.throne] if theirs.throne >= 0 else None
    for t, pos in mine.placed:
        total += PIECE_VALUE[t] - (MARCH_WEIGHT * toward[pos] if toward else 0.0)
    if mine.throne < 0:
        return total
    here = dist[mine.throne]
    if st.tile[mine.throne] == FORTRESS and not st.breached[mine.throne]:
        total += THRONE_ON_FORTRESS
    else:
        near = [pos for _, pos in theirs.placed] + ([theirs.throne] if theirs.throne >= 0 else [])
        total -= THRONE_EXPOSED * sum(1 for pos in near if here[pos] <= EXPOSURE_RANGE)
    forts = home_fortresses(tuple(st.tile), st.board.w, st.board.hh, 1 - seat)
    if forts:
        total -= THRONE_MARCH_WEIGHT * (1.0 - theirs.left) * min(here[c] for c in forts)
    return total


def evaluate(st: ThronesState, me: int, mover: int | None = None) -> float:
    """The position's worth to ``me``; ``mover`` strikes next (default: the turn's seat)."""
    if st.winner >= 0:
        return WIN if st.winner == me else -WIN
    if st.is_truncated():
        return 0.0
    mover = st.turn if mover is None else mover
    armies = army(st, me), army(st, 1 - me)
    score = side_value(st, me, armies[0], armies[1]) - side_value(st, 1 - me, armies[1], armies[0])
    for seat in (0, 1):
        weight = MOVER_WEIGHT if seat == mover else WAITER_WEIGHT
        gain = weight * best_strike(st, seat)
        score += gain if seat == me else -gain
    return score
