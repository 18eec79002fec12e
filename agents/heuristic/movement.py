"""Movement and activation: where a unit goes, and which unit acts.

A move scores the change in the unit's value where it stands (:meth:`Context.lasting_value`)
plus what it can still win this turn from its destination (``attacks.gain_this_turn``), its
reach counted with the winds. A battle move also weighs the side it enters from: its flanking
dice and the defenders able to step in (the battle's expected value). An activation is worth the
best plan of the unit it activates (a knight's best move and attack, a freighter carrying its
cargo towards a landing), less its silver: an activation that lets a unit do anything useful is
always worth it. Ending the activation or the turn scores 0, so a turn goes on while some
decision is worth something.
"""

from __future__ import annotations

from vigtavl_env.engine.actions import ACTIVATE
from vigtavl_env.engine.combat import can_attack_from_here
from vigtavl_env.engine.legal import active_reach, battle_sides, nested_ok
from vigtavl_env.engine.movement import BATTLE_HEX, STOP, reach
from vigtavl_env.engine.state import Activation, GameState, LOADED, ON_BOARD, SPENT
from vigtavl_env.engine.stats import ARCHER, FREIGHTER, IS_LAND, UNIT_COST, UNIT_MOVEMENT

from .attacks import defence, gain_this_turn, target_value
from .context import Context
from .seizures import seize_from


def _freighter_lasting_value(ctx: Context, cargo: list[int], c: int) -> float:
    """A freighter's value on ``c``: where its ``cargo`` (the units aboard) could step ashore
    from there."""
    st = ctx.state
    me = ctx.me
    v = ctx.lasting_value(FREIGHTER, c)
    for k in cargo:
        t = st.u_type[k]
        best = ctx.lasting_value(t, c, loaded=True)
        for d in range(6):  # the shore next to it
            y = st.nbr[c * 6 + d]
            if y >= 0 and st.land[y] and (st.cell_player[y] == -1 or st.cell_player[y] == me) and st.occ[y] < 3:
                ashore = ctx.lasting_value(t, y)
                if ashore > best:
                    best = ashore
        v += 0.8 * best
    return v


def _value_at(ctx: Context, u: int, t: int, c: int, loaded: bool, attack_left: bool) -> float:
    """Unit ``u`` (of type ``t``) standing on ``c``: its lasting value, plus what it can still win
    this turn when its attack is unused (a freighter: where its cargo could land)."""
    if t == FREIGHTER:
        return _freighter_lasting_value(ctx, ctx.state.cargo(u), c)
    v = ctx.lasting_value(t, c, loaded)
    if attack_left:
        v += gain_this_turn(ctx, t, c, loaded)
    return v


def _reach_of(ctx: Context, u: int, move_left: int, can_attack: bool, wind: bool = True):
    """The engine's movement search for ``u`` (``wind``: it may still ride the winds)."""
    key = ("reach", u, move_left, can_attack, wind)
    r = ctx.pos.get(key)
    if r is None:
        r = ctx.pos[key] = reach(ctx.state, u, move_left, towing=False, can_attack=can_attack, wind=wind)
    return r


def _battle_move_value(ctx: Context, u: int, x: int, side: int, stay: float) -> float:
    """A battle move of ``u`` into ``x`` entering from ``side`` (the mover's choice: it sets
    the flanking dice, and who may step in to defend): the battle's expected tokens, then
    standing on ``x`` if it wins (taking what stands there), or ``stay`` (the value of where
    its move began) if it loses."""
    t = ctx.state.u_type[u]
    cost = UNIT_COST[t]
    victim, p = defence(ctx, x, cost, side, 0)
    if victim < 0:
        return -1.0
    ev = ctx.w.attack * target_value(ctx, x, cost, side, 0)
    return ev + p * (ctx.lasting_value(t, x) + ctx.w.seize * seize_from(ctx, x)) + (1 - p) * stay


def _best_battle_move(ctx: Context, u: int, x: int, r, move_left: int, stay: float) -> float:
    """:func:`_battle_move_value` from the best side the engine allows (``r``: the reach)."""
    top = Activation(u, move_left, ctx.state.u_cell[u])
    best = -1.0
    for i, s in enumerate(battle_sides(ctx.state, top, r, x)):  # a loop: no closures when compiled
        v = _battle_move_value(ctx, u, x, s, stay)
        if i == 0 or v > best:
            best = v
    return best


def score_move(ctx: Context, verb: int, cell: int) -> float:
    """Scored, like every decision about the active unit, against ending its activation now."""
    st = ctx.state
    top, u, t, loaded, here = ctx.acting_unit()
    attack_left = not top.attacked and ctx.battle and can_attack_from_here(st, u)
    now = _value_at(ctx, u, t, here, loaded, False)
    h = st.cell_player[cell]
    if h >= 0 and h != ctx.me:
        # A battle move: win and stand there, lose and stay where the move began. The reach is
        # the one the legal list searched (kept in the state while nothing changes).
        r = active_reach(st, top)
        if cell not in ctx.targets() or not r.is_battle(cell):
            return -1.0
        return _best_battle_move(ctx, u, cell, r, top.move_left, ctx.lasting_value(t, here, loaded)) - now
    if t == FREIGHTER:
        return _freighter_lasting_value(ctx, st.cargo(u), cell) - now - 0.01
    to_loaded = IS_LAND[t] and bool(st.sea[cell])
    after = _value_at(ctx, u, t, cell, to_loaded, attack_left and (not to_loaded or t == ARCHER))
    return after - now - 0.01


def score_attack_from(ctx: Context, verb: int, cell: int) -> float:
    """The side my battle move enters from: the most flanking dice, and the fewest defenders
    able to step in (those next to both the side and the target), as its expected value; the
    first attack on a hex also sets its front for my next attacks (the feint). Where the side
    makes no difference, the one it reaches with the fewest movement points."""
    st = ctx.state
    pend, top = st.pending, st.active
    u = pend.unit
    stay = ctx.lasting_value(st.u_type[u], st.u_cell[u], st.u_where[u] == LOADED)
    r = _reach_of(ctx, u, top.move_left, True, not top.rode)
    return _battle_move_value(ctx, u, pend.cell, cell, stay) - 0.001 * max(r.cost_of(cell), 0)


def score_end_activation(ctx: Context, verb: int, cell: int) -> float:
    """Ending an activation: a hair above nothing, since the turn stays open for more."""
    return 0.02  # ending the activation leaves the turn open


def score_end_turn(ctx: Context, verb: int, cell: int) -> float:
    """Ending the turn: nothing, so the turn goes on while some decision is worth more (a little
    less with a unit active: end its activation first and look again)."""
    # With a unit active, end its activation first and look again at what the turn offers.
    return -0.05 if ctx.state.active is not None and ctx.state.retaliator < 0 else 0.0


def _activation_unit(st: GameState, me: int, utype: int, cell: int) -> int:
    """The unit the engine activates for this code (the lowest-numbered eligible one)."""
    top = st.active
    for u in range(st.n_units):
        if (st.u_cell[u] == cell and st.u_type[u] == utype and st.u_owner[u] == me
                and st.u_where[u] in (ON_BOARD, LOADED) and not st.u_flags[u] & SPENT
                and (top is None or nested_ok(st, top.unit, u))):
            return u
    return -1


def score_activate(ctx: Context, verb: int, cell: int) -> float:
    """The best this unit can do with a move and an attack, over staying put."""
    st = ctx.state
    t = verb - ACTIVATE
    u = _activation_unit(st, ctx.me, t, cell)
    if u < 0:
        return -1.0
    loaded = st.u_where[u] == LOADED
    cost = UNIT_COST[t]
    if t == FREIGHTER:
        gain = _freighter_plan(ctx, u)
    else:
        gain = _unit_plan(ctx, u, t, cell, loaded)
    if st.retaliator >= 0:
        return gain - 0.02
    # Silver is forfeited at the end of the turn: a useful activation is worth its silver.
    return gain - 0.03 * cost + (0.05 if gain > 0.02 else -0.05)


def _unit_plan(ctx: Context, u: int, t: int, cell: int, loaded: bool) -> float:
    """What activating knight or ship ``u`` gains: its best plan this turn (stay and attack, move
    and attack, attack then move, or a battle move) over its value standing where it is."""
    st = ctx.state
    attack_left = ctx.battle and can_attack_from_here(st, u)
    stay = ctx.lasting_value(t, cell, loaded)
    best = stay + (gain_this_turn(ctx, t, cell, loaded) if attack_left else 0.0)
    r = _reach_of(ctx, u, UNIT_MOVEMENT[t], ctx.battle)
    land_unit = IS_LAND[t]
    best_stop = stay
    for c in r.in_order(STOP):  # the order reached (ties keep the first)
        to_loaded = land_unit and bool(st.sea[c])
        v = ctx.lasting_value(t, c, to_loaded)
        if v > best_stop:
            best_stop = v
        if ctx.battle and (not to_loaded or t == ARCHER):
            v += gain_this_turn(ctx, t, c, to_loaded)
        if v > best:
            best = v
    if attack_left and not loaded:
        a = gain_this_turn(ctx, t, cell, loaded)
        if a > 0:
            best = max(best, a + best_stop)  # attack first, then move
    if ctx.battle:
        targets = ctx.targets()
        for c in r.in_order(BATTLE_HEX):
            if c in targets:
                best = max(best, _best_battle_move(ctx, u, c, r, UNIT_MOVEMENT[t], stay))
    return best - stay


def _freighter_plan(ctx: Context, f: int) -> float:
    """What activating freighter ``f`` gains: the best stop for its cargo's landing over where it
    is (an empty freighter: a small loss, the silver)."""
    st = ctx.state
    cargo = st.cargo(f)
    if not cargo:
        return -0.05
    now = _freighter_lasting_value(ctx, cargo, st.u_cell[f])
    r = _reach_of(ctx, f, UNIT_MOVEMENT[FREIGHTER], False)
    best = now
    for c in r.in_order(STOP):
        v = _freighter_lasting_value(ctx, cargo, c)
        if v > best:
            best = v
    return best - now
