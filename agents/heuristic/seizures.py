"""Seizures and defence: taking developments, defending them, prisoners and rescues.

- What a unit standing on a hex could seize from there (:func:`seize_from`): the tokens of the
  undefended developments next to it, for the attack and movement scorers.
- A seizure scores its tokens (the development's value, +3 for an owner's last, the rescued
  prisoners, the Builder award's swing), by the chance the best of my seizing units holds against
  the owner's possible defenders; occupying a won hex takes what stands there.
- Choices asked in the middle of a decision are scored like the rest, in tokens: who defends an
  attacked hex (the unit that loses the fewest tokens on average, P(it loses) x its stake: a cheap
  unit steps in for a valuable one), whether and with whom to defend a development about to be
  seized (while P(holding) x its stake outweighs P(losing) x the defender's value, else "no
  defence"), which unit breaches (the most dice) or seizes (the best chance, then one that can
  occupy), where a prisoner is held and where rescued prisoners stand.
"""

from __future__ import annotations

from vigtavl_env.engine.actions import CHOOSE
from vigtavl_env.engine.combat import pending_attack_dice
from vigtavl_env.engine.free_actions import guard_options, seizers
from vigtavl_env.engine.legal import pending_units
from vigtavl_env.engine.state import CHOOSE_BREACHER, CHOOSE_DEFENDER, CHOOSE_GUARD, GameState, ON_BOARD
from vigtavl_env.engine.stats import IS_LAND, MAX_OCCUPANCY, NO_DEV, UNIT_COST

from ..tactics import breach_prob, guard_outcome, guarded_beside, loss_prob, seize_value, stake_value
from .context import Context, cached_units, seize_tokens


def seize_from(ctx: Context, a: int) -> float:
    """Tokens for the developments a unit standing on ``a`` could seize (those that can
    be seized already, without moving, do not count)."""
    st, me = ctx.state, ctx.me
    total = 0.0
    for d in range(6):
        x = st.nbr[a * 6 + d]
        if x < 0 or st.dev_type[x] == NO_DEV or x in ctx.free_seizes:
            continue
        owner = st.dev_owner[x]
        if owner == me or owner < 0:
            continue
        if st.retaliator >= 0 and x in st.seized_this_turn:
            continue
        w = st.walls[st.nbr_edge[a * 6 + d]]
        if w >= 0 and w != me:
            continue
        g = ctx.guards(owner)
        if x in g or guarded_beside(st, g, a, d):
            continue
        total += seize_tokens(ctx, x)
    return total


def score_occupy(ctx: Context, verb: int, cell: int) -> float:
    """Moving the victor onto the hex it won; a development or artillery still there is taken
    (tokens as a seizure)."""
    st = ctx.state
    u = st.occupy_unit
    t = st.u_type[u]
    here = st.u_cell[u]
    gain = ctx.lasting_value(t, cell) - ctx.lasting_value(t, here)
    if st.cell_player[cell] not in (-1, ctx.me):
        gain += ctx.w.seize * (seize_tokens(ctx, cell) if st.dev_type[cell] != NO_DEV else 0.3)
    return gain + 0.5 * ctx.w.seize * (seize_from(ctx, cell) - seize_from(ctx, here))


def score_seize(ctx: Context, verb: int, cell: int) -> float:
    """A seizure, by what the best of my units that could seize it may expect (its owner may
    send defenders: :func:`_seizer_value`)."""
    options = cached_units(ctx, ("seizers", cell), lambda: seizers(ctx.state, ctx.me, cell))
    best = max((_seizer_value(ctx, s, cell) for s in options), default=-1.0)
    return best + (0.5 if ctx.state.dev_type[cell] != NO_DEV else 0.0)


def _seizer_value(ctx: Context, s: int, cell: int) -> float:
    """Seizing ``cell`` with unit ``s``: its owner may defend with his units next to both (rules
    v2: a defender stops the seizure until it is defeated by attacks, so :func:`guard_holds` is
    certain); the tokens of the seizure times its chance, and the occupation that may follow (a
    knight moves onto the seized hex if there is room)."""
    st = ctx.state
    t, h = st.u_type[s], st.u_cell[s]
    artillery_only = st.dev_type[cell] == NO_DEV
    # The owner weighs it as a greedy owner would (:func:`_piece_stake`).
    stake = 1.0 if artillery_only else seize_value(st, ctx.me, cell) + 0.5
    guards = guard_options(st, cell, h)
    outcome = guard_outcome([(guard_holds(st, s, g), stake_value(st, g)) for g in guards], stake)
    _, p_seized, beaten = outcome
    tokens = 0.3 if artillery_only else seize_tokens(ctx, cell)
    v = ctx.w.seize * (p_seized * tokens + beaten)
    if IS_LAND[t] and st.occ[cell] + 1 <= MAX_OCCUPANCY:
        v += p_seized * (0.05 + 0.5 * max(0.0, ctx.lasting_value(t, cell) - ctx.lasting_value(t, h)))
    return v


def guard_holds(st: GameState, seizer: int, guard: int) -> float:
    """P(``guard`` stops ``seizer``'s seizure): certain under rules v2 ("the attacking player
    must first defeat all defenders", by attacks: no dice are rolled when it defends)."""
    return 1.0


def _chosen_unit(ctx: Context, verb: int, cell: int) -> int:
    """The unit a "choose <type>" code names: of that type on that hex, among the candidates
    of the pending choice (``legal.pending_units``)."""
    st = ctx.state
    t = verb - CHOOSE
    options = cached_units(ctx, ("pending",), lambda: pending_units(st))
    return next((u for u in options if st.u_cell[u] == cell and st.u_type[u] == t), -1)


def score_choose(ctx: Context, verb: int, cell: int) -> float:
    """The answer to a pending choice: who defends (an attack or a seizure), who breaches,
    who seizes."""
    st = ctx.state
    pend = st.pending
    u = _chosen_unit(ctx, verb, cell)
    if u < 0:
        return -1.0
    if pend.kind == CHOOSE_DEFENDER:
        # The tokens I should expect to lose: a cheap unit steps in for a valuable one when the
        # odds are bad; against a shot or an overwhelm (the same odds for all) the cheapest.
        p = loss_prob(st, pending_attack_dice(st), pend.reach, u)
        return -p * stake_value(st, u)
    if pend.kind == CHOOSE_GUARD:
        # The defender becomes the seizer's target: the one hardest to defeat.
        return -_guard_loss(ctx, u) + 0.01 * UNIT_COST[st.u_type[u]]
    if pend.kind == CHOOSE_BREACHER:
        # Breaching spends nothing (the unit may still act): the one with the most dice.
        return breach_prob(UNIT_COST[st.u_type[u]])
    return _seizer_value(ctx, u, pend.cell)  # CHOOSE_SEIZER


def _piece_stake(ctx: Context, cell: int, seizer_owner: int) -> float:
    """What my development (or artillery) on ``cell`` is worth against a seizure: the
    seizer's tokens (+3 if it is my last, his prisoners rescued) and its lasting value to me
    (the Builder count, production), weighed by my style."""
    st = ctx.state
    if st.dev_type[cell] == NO_DEV:
        return 1.0  # artillery: no tokens, but it would fire at me
    return seize_value(st, seizer_owner, cell) + 0.5 * ctx.w.dev


def _guard_loss(ctx: Context, guard: int) -> float:
    """Tokens I expect to lose sending ``guard`` against the pending seizure: it fights the
    seizer; if it loses it is defeated and I choose again (:func:`guard_outcome`)."""
    st = ctx.state
    pend = st.pending
    seizer = pend.unit
    stake = _piece_stake(ctx, pend.cell, st.u_owner[seizer])
    others = [g for g in cached_units(ctx, ("pending",), lambda: pending_units(st)) if g != guard]
    rest, _, _ = guard_outcome([(guard_holds(st, seizer, g), stake_value(st, g)) for g in others], stake)
    return (1.0 - guard_holds(st, seizer, guard)) * (stake_value(st, guard) + rest)


def score_no_defence(ctx: Context, verb: int, cell: int) -> float:
    """Letting the piece go: I lose its stake for sure (better than a hopeless defence)."""
    pend = ctx.state.pending
    return -_piece_stake(ctx, pend.cell, ctx.state.u_owner[pend.unit])


def score_hold_prisoner(ctx: Context, verb: int, cell: int) -> float:
    """Where my prisoner is held: the development farthest from other players' units (a
    seizure there would free it)."""
    st = ctx.state
    dist = ctx.info.dist[cell]
    near = min((dist[st.u_cell[u]] for u in range(st.n_units)
                if st.u_owner[u] != ctx.me and st.u_where[u] == ON_BOARD), default=9)
    return 0.1 * min(near, 9)


def score_place_rescued(ctx: Context, verb: int, cell: int) -> float:
    """Where my rescued knight stands: where it is worth most to me."""
    st = ctx.state
    return ctx.lasting_value(st.u_type[st.pending.unit], cell)
