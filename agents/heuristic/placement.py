"""The setup: which freighter load goes first, where ships are placed, and which of two
different units of one type acts (rules v2's "which unit").

Ships go next to free land (developments may be built beside them, knights step ashore), spread
out, freighters and the galleon first. Each style has its favourite split of the starting
knights over the two freighters (:attr:`Style.loads`).
"""

from __future__ import annotations

from vigtavl_env.engine.actions import DISCHARGE, LOAD, PLACE, VARIANT
from vigtavl_env.engine.legal import variant_options
from vigtavl_env.engine.state import CHOOSE_BREACHER, ON_BOARD
from vigtavl_env.engine.stats import FREIGHTER, GALLEON
from vigtavl_env.engine.variants import ACTING, unit_status, variant_features

from .context import Context


def score_place(ctx: Context, verb: int, cell: int) -> float:
    """Ships go next to free land (developments may be built beside them, knights step
    ashore), spread out, freighters and the galleon first."""
    st, info, me = ctx.state, ctx.info, ctx.me
    t = 3 + verb - PLACE
    free_land = [x for x in info.shore[cell] if st.cell_player[x] < 0]
    if t == FREIGHTER:
        v = 1.0 * min(len(free_land), 3) + 0.5
        behind = bytearray(info.n)  # the land within two steps of that free land, each hex once
        count = 0
        for y in free_land:
            for dd, x in info.land_order[y]:
                if dd > 2:
                    break
                if not behind[x]:
                    behind[x] = 1
                    count += 1
        v += 0.08 * count + 0.6
    else:
        v = 0.5 * min(len(free_land), 3) + (0.6 if t == GALLEON else 0.0)
    dist, row = info.dist_flat, cell * info.n  # the steps from cell
    near = 10
    for u in range(st.n_units):
        if st.u_where[u] != ON_BOARD:
            continue
        dd = dist[row + st.u_cell[u]]
        if st.u_owner[u] == me:  # my units crowding it
            v -= 1.0 if dd == 0 else (0.5 if dd == 1 else (0.15 if dd == 2 else 0.0))
        elif dd < near:
            near = dd
    # Aggressors like other players close, builders keep away.
    return v + (ctx.w.approach - 0.35) * (1.0 if near <= 2 else 0.0)


def score_load(ctx: Context, verb: int, g: int) -> float:
    """Setup: the style's favourite split of the starting knights over the two freighters."""
    return ctx.w.loads[g - LOAD]


def score_variant(ctx: Context, verb: int, g: int) -> float:
    """Which of several unalike units (rules v2): the spent one defends, seizes or is
    discharged (keeping the upright ones able to act; a discharged unit's recruit stands
    upright); the unit already acting breaches; otherwise the freighter carrying the most."""
    st = ctx.state
    pend = st.pending
    k = g - VARIANT
    u = variant_options(st)[k][0]
    status = unit_status(st, u)
    parent = pend.parent.kind if pend.parent is not None else -1
    if parent == CHOOSE_BREACHER:
        return 1.0 if status == ACTING else -float(status)
    if parent >= 0 or DISCHARGE <= pend.extra < DISCHARGE + 3:
        return float(status)
    cargo = variant_features(st, u)[2:]
    return 0.1 * sum(cargo) - 0.001 * k
