"""Attacks: close combat, archers' and galleons' shots, artillery fire, and breaching a wall.

An attack scores the battle's odds times the defeated unit's value (its tokens), the odds
counting the flanking dice of a hex whose front an earlier attack set (attrition) and the
defender the other player would choose (the unit that loses the fewest tokens on average). A
breach scores the most dice against the wall, for what opening it makes reachable.
"""

from __future__ import annotations

from vigtavl_env.engine.actions import ATTACK, BREACH, FIRE_ARTILLERY
from vigtavl_env.engine.free_actions import breachers
from vigtavl_env.engine.state import MOVE_DONE
from vigtavl_env.engine.stats import ARTILLERY_COST, DEV_COST, UNIT_COST

from ..tactics import breach_prob
from .context import Context


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
    victim, p = ctx.defence(cell, base, here, reach)
    if victim < 0:
        return -1.0
    ev = ctx.w.attack * ctx.target_value(cell, base, here, reach)
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
