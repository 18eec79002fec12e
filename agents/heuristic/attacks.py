"""Attacks: what my units can win this turn, and the attack verbs scored by it.

- **What an attack is worth** (:func:`target_value`): the battle's odds times the defeated
  unit's value in tokens (:func:`victim_value`: its cost, a prisoner or a sunk ship for the
  end awards, drowned cargo, a development it alone held), the odds counting the flanking dice
  of a hex whose front an earlier attack set (attrition) and the defender the other player
  would choose (:func:`defence`: the unit that loses the fewest tokens on average); a miss
  still sets the front, worth what the best follower gains from a flank (:func:`feint_bonus`).
- **What a unit can win this turn from a hex** (:func:`gain_this_turn`): its best attack from
  there (:func:`best_attack`: close combat next door, shots along the rays) and the
  developments it could seize from there (``seizures.seize_from``). The movement and building
  scorers ask it for each hex a unit could stand on; the context keeps the answers for the
  decision.
- **The attack verbs**: close combat, archers' and galleons' shots and artillery fire by their
  expected tokens (:func:`score_attack`); breaching a wall by the most dice against it, for
  what opening it makes reachable (:func:`score_breach`).
"""

from __future__ import annotations

from vigtavl_env.engine.actions import ATTACK, BREACH, FIRE_ARTILLERY
from vigtavl_env.engine.combat import coastal_or_sea, defender_options
from vigtavl_env.engine.free_actions import breachers
from vigtavl_env.engine.hexgrid import angular_gap
from vigtavl_env.engine.state import MOVE_DONE, ON_BOARD, SPENT, active_of
from vigtavl_env.engine.stats import (
    ARCHER, ARTILLERY_COST, DEV_COST, FREIGHTER, IS_SHIP, NO_DEV, UNIT_COST, UNIT_MOVEMENT, UNIT_RANGE,
)

from ..tactics import CLOSE_WIN, attack_dice_from, breach_prob, choose_defender
from .context import Context, seize_tokens, unit_place_memo
from .seizures import seize_from


_COST = bytes(UNIT_COST)  # per unit type, read as C chars when compiled


def gain_this_turn(ctx: Context, t: int, c: int, loaded: bool = False) -> float:
    """What my unit of type ``t`` (attack unused) can win this turn from ``c``: its best
    attack's expected tokens, plus the developments it could seize from there."""
    key = (t * ctx.n + c) * 2 + loaded
    if ctx.this_turn is None:
        ctx.this_turn = unit_place_memo(ctx.n)
    known = ctx.this_turn[key]
    if known == known:  # not NaN: worked out already
        return known
    v = 0.0
    if ctx.battle:
        if not loaded or t == ARCHER:
            v = ctx.w.attack * best_attack(ctx, t, c, loaded)
        if not loaded and t != FREIGHTER:
            v += ctx.w.seize * seize_from(ctx, c)
    ctx.this_turn[key] = v
    return v


def best_attack(ctx: Context, t: int, c: int, loaded: bool = False) -> float:
    """Expected tokens of the best attack a unit of type ``t`` makes from ``c``: close
    combat next door, and a shot along the rays for archers and galleons (an archer aboard
    a freighter: only at sea hexes and the coast)."""
    if t == FREIGHTER:
        return 0.0
    if not ctx.targets():
        return 0.0
    target_at = ctx.target_at
    st, me = ctx.state, ctx.me
    cost = _COST[t]
    best = 0.0
    if UNIT_RANGE[t]:
        rays, crossed = ctx.info.rays_flat, ctx.info.ray_edges_flat
        for d in range(6):
            for k in range(1, 4):  # out along the ray: a mountain, the edge or another's wall stops it
                i = (c * 6 + d) * 3 + k - 1
                x = rays[i]
                if x < 0:
                    break
                w = st.walls[crossed[i]]
                if w >= 0 and w != me:
                    break
                if target_at[x] >= 0 and not (loaded and not coastal_or_sea(st, x)):
                    v = target_value(ctx, x, cost, c, k)
                    if v > best:
                        best = v
    for d in range(6):
        x = st.nbr[c * 6 + d]
        if x < 0 or target_at[x] < 0 or (loaded and not coastal_or_sea(st, x)):
            continue
        w = st.walls[st.nbr_edge[c * 6 + d]]
        if w >= 0 and w != me:
            continue
        v = target_value(ctx, x, cost, c, 0)
        if v > best:
            best = v
    return best


def defence(ctx: Context, x: int, base: int, origin: int, reach: int) -> tuple[int, float]:
    """(the unit the attacked player will choose to defend ``x``, P(the attack beats it))
    for an attack with ``base`` dice from ``origin`` at range ``reach`` (0: close combat)."""
    key = ((base * 4 + reach) * ctx.n + origin) * ctx.n + x  # reach: 0..3
    v = ctx.defences.get(key)
    if v is None:
        st = ctx.state
        dice = attack_dice_from(st, base, x, origin, bool(reach))
        v = ctx.defences[key] = choose_defender(st, dice, reach, defender_options(st, x, origin, ctx.me))
    return v


def target_value(ctx: Context, x: int, base: int, origin: int, reach: int) -> float:
    """Expected tokens of an attack on ``x`` from ``origin`` against the defender the
    attacked player will choose, with the feint it sets up."""
    victim, p = defence(ctx, x, base, origin, reach)
    if victim < 0:
        return 0.0
    v = p * victim_value(ctx, victim, x)
    if p < 1.0 and x not in ctx.state.front:
        d = ctx.info.direction_flat[x * ctx.n + origin]  # the board's direction_between
        v += (1.0 - p) * feint_bonus(ctx, x, victim, d, base)
    return v


def feint_bonus(ctx: Context, x: int, victim: int, front: int, spent: int) -> float:
    """Tactics > Feint: the first attack on ``x`` sets its front to ``front``; what that is
    worth to the strongest unit of mine that could attack next from a flank or the rear
    (the silver ``spent`` on the first attack already gone)."""
    key = (spent * 6 + front) * ctx.n + x
    known = ctx.feints.get(key)
    if known is not None:
        return known
    st = ctx.state
    silver = st.silver[ctx.me] - spent if st.retaliator < 0 else 0
    cost_v = UNIT_COST[st.u_type[victim]]
    best = 0.0
    for cost, dirs in followers(ctx, x):
        if cost > silver:
            continue
        gap = 0
        for d in dirs:  # its widest side (a loop: the compiled method has no closures)
            gap = max(gap, angular_gap(d, front))
        if gap <= 0:
            continue
        if cost + gap >= st.config.overwhelm_dice:
            gain = 1.0 - CLOSE_WIN[cost][cost_v]
        else:
            gain = CLOSE_WIN[cost + gap][cost_v] - CLOSE_WIN[cost][cost_v]
        if gain > best:
            best = gain
    v = best * victim_value(ctx, victim, x)
    ctx.feints[key] = v
    return v


def followers(ctx: Context, x: int) -> list[tuple[int, list[int]]]:
    """My upright close-combat units of cost 2 or more that could attack ``x`` this turn,
    with the sides (directions from ``x``) they could attack it from."""
    key = ("followers", x)
    out = ctx.cache.get(key)
    if out is not None:
        return out
    st, me, info = ctx.state, ctx.me, ctx.info
    top = active_of(st)
    active = top.unit if top is not None else -1
    out = []
    for u in range(st.n_units):
        if st.u_owner[u] != me or u == active or st.u_flags[u] & SPENT or st.u_where[u] != ON_BOARD:
            continue
        t = st.u_type[u]
        if t == FREIGHTER or UNIT_RANGE[t] or UNIT_COST[t] < 2:
            continue
        row = info.reach_list(st, u)
        m = UNIT_MOVEMENT[t]
        here = st.u_cell[u]
        dirs = []
        for d in range(6):
            y = st.nbr[x * 6 + d]
            if y >= 0 and (y == here or (row[y] <= m and st.cell_player[y] in (-1, me))):
                dirs.append(d)
        if dirs:
            out.append((UNIT_COST[t], dirs))
    ctx.cache[key] = out
    return out


def victim_value(ctx: Context, victim: int, x: int) -> float:
    """Tokens for defeating ``victim`` defending ``x``, plus what it brings: a prisoner
    (General) or a sunk ship (Admiral), drowned cargo, a development it alone held."""
    key = victim * ctx.n + x
    known = ctx.victims.get(key)
    if known is not None:
        return known
    st = ctx.state
    vt = st.u_type[victim]
    v = float(UNIT_COST[vt])
    if vt == FREIGHTER:
        cargo = 0  # loops, not generators: the compiled method has no closures
        for k in st.cargo(victim):
            cargo += UNIT_COST[st.u_type[k]]
        v += 0.7 * cargo
    # A sunk ship counts for the Admiral award, a prisoner for the General.
    v += max(0.3, 0.6 * ctx.award_delta(1 if IS_SHIP[vt] else 0, ((ctx.me, 1),)))
    if st.dev_type[x] != NO_DEV and st.u_cell[victim] == x:
        standing = 0
        for u in range(st.n_units):
            if st.u_cell[u] == x and st.u_where[u] == ON_BOARD:
                standing += 1
        if standing == 1:  # its only defender: occupying the hex (or a seizure) takes the development
            v += 0.5 * seize_tokens(ctx, x)
    ctx.victims[key] = v
    return v


def score_attack(ctx: Context, verb: int, cell: int) -> float:
    """Close combat ("attack"), a shot ("shoot") or the artillery ("fire"), each by its
    expected tokens against the defender the attacked player will choose: an archer next to
    its target plays whichever of the two is worth more. (Losing an attack costs the attacker
    nothing but the action.)"""
    st = ctx.state
    top, u, t, loaded, here = ctx.acting_unit()
    ranged = verb != ATTACK
    reach = ctx.info.dist[here][cell] if ranged else 0
    base = ARTILLERY_COST if verb == FIRE_ARTILLERY else UNIT_COST[t]
    victim, p = defence(ctx, cell, base, here, reach)
    if victim < 0:
        return -1.0
    ev = ctx.w.attack * target_value(ctx, cell, base, here, reach)
    bonus = 0.0
    if ctx.info.dist[here][cell] == 1 and st.u_cell[victim] == cell:
        # The occupation that may follow a win next door.
        bonus = p * 0.3 * max(0.0, ctx.lasting_value(t, cell) - ctx.lasting_value(t, here, loaded))
    if top.move != MOVE_DONE and top.move_left > 0 and not loaded:
        bonus += 0.1  # it may still move afterwards
    return ev + bonus + 0.02


def score_breach(ctx: Context, verb: int, cell: int) -> float:
    """Breaching the wall on one side of ``cell``: the chance my strongest breacher removes it
    (any die of 1-3) times what lies behind: half an enemy development's value, a little for an
    enemy unit's hex, nothing (a small loss of the action) for anything else."""
    st = ctx.state
    x = st.nbr[cell * 6 + verb - BREACH]
    if x < 0:
        return -0.1
    owner = st.dev_owner[x]
    if owner >= 0 and owner != ctx.me:
        value = 0.5 * DEV_COST[st.dev_type[x]]
    elif st.cell_player[x] >= 0 and st.cell_player[x] != ctx.me:
        value = 0.2
    else:
        return -0.1
    options = breachers(st, ctx.me, cell)
    if not options:
        return -0.1
    most = 0  # a loop, not a generator: the compiled function has no closures
    for b in options:
        most = max(most, UNIT_COST[st.u_type[b]])
    return breach_prob(most) * value
