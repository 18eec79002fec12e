"""Battle odds from the dice rules, and the defender the attacked player would choose.

Close combat is won by the higher of the two highest dice with ties re-rolled, so
``p = P(A > D) / (1 - P(A = D))``; a ranged shot hits if any of ``n`` dice is at most ``k``
(3, 2, 1 at range 1, 2, 3): ``1 - (1 - k/6)^n``; an attack with at least ``overwhelm_dice`` dice
wins outright; a breach removes the wall with any die of 1-3. :func:`preview_dice` (the engine's
``preview_attack_dice``) adds flanking (the first attack on a hex sets its front) and attrition
(the third attack from one side) without recording anything. :func:`choose_defender` is the
defence that loses the fewest tokens on average, which is also what an attacker should expect;
:func:`guard_outcome` plays out a defended seizure, the owner sending defenders while they are
worth it.
"""

from __future__ import annotations

from array import array

from vigtavl_env.engine.combat import defender_at, defender_options, preview_attack_dice
from vigtavl_env.engine.state import GameState, ON_BOARD, positions
from vigtavl_env.engine.stats import (
    BREACH_HIT_MAX, DEV_COST, FREIGHTER, NO_DEV, RANGED_HIT_MAX, UNIT_COST, UNIT_RANGE,
)

from .values import LAST_DEVELOPMENT_BONUS, dev_count, unit_value


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
    if 0 <= dice < _TABLE_DICE and 0 <= reach < 4:
        return _RANGED_HIT[dice * 4 + reach]
    return _ranged_hit(dice, reach)


def _ranged_hit(dice: int, reach: int) -> float:
    k = RANGED_HIT_MAX.get(reach, 0)
    return 1.0 - (1.0 - k / 6.0) ** max(dice, 0)


# _RANGED_HIT[dice * 4 + reach]: ranged_hit_prob below the overwhelm, worked out once.
_RANGED_HIT = array("d", [_ranged_hit(d, r) for d in range(_TABLE_DICE) for r in range(4)])


def breach_prob(dice: int) -> float:
    """Breach: any die of 1-3 removes the wall."""
    return 1.0 - (1.0 - BREACH_HIT_MAX / 6.0) ** max(dice, 0)


# The engine's own dice preview and defender rule, under the names the bots use.
preview_dice = preview_attack_dice  # (state, base, target, from_dir, ranged): records nothing


defender = defender_at  # the strongest unit on a hex (freighters last): what kind holds it


def attack_dice_from(state: GameState, base: int, target: int, origin: int, ranged: bool) -> int:
    """Attack dice (flanking, feint, attrition) of an attack with ``base`` dice from ``origin``
    (a neighbour, or a hex on one of the target's rays) on ``target``."""
    d = state.gmap.board.direction[target][origin]  # direction_between, without the method call
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
        for k in state.cargo(u):  # loops, not generators: the compiled function has no closures
            v += UNIT_COST[state.u_type[k]]
    if state.dev_owner[c] == owner or state.art_owner[c] == owner:
        standing = 0
        for k in positions(state.u_cell, c):
            if state.u_where[k] == ON_BOARD and state.u_owner[k] == owner:
                standing += 1
        if standing == 1:
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
    best, best_p = -1, 0.0
    best_loss, best_cost = 0.0, 0
    for u in options:  # the least (expected loss, cost, unit), compared in that order
        p = loss_prob(state, dice, reach, u)
        loss = p * stake_value(state, u)
        cost = UNIT_COST[state.u_type[u]]
        if (best < 0 or loss < best_loss
                or (loss == best_loss and (cost < best_cost or (cost == best_cost and u < best)))):
            best, best_p, best_loss, best_cost = u, p, loss, cost
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
    options = defender_options(state, target, origin, state.u_owner[u])
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
