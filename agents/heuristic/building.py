"""Building and economy: developments, units, walls, discharging and recruiting.

Gold and silver are spent before they are forfeited. A development scores its lasting value
(production, the Builder award, the Complex of castle, fort and camp side by side) less its
exposure to a seizure; a unit, the style's preference for its type and where it can stand; a
wall, progress towards the Great Wall and the Citadel and the protection it gives my
developments. Discharging a land unit and recruiting score what the unit is worth on the board
against its cost.
"""

from __future__ import annotations

from vigtavl_env.engine.actions import BUILD_DEV, BUILD_UNIT, BUILD_WALL, DISCHARGE
from vigtavl_env.engine.state import CITADEL, COMPLEX, GREAT_WALL, GameState
from vigtavl_env.engine.stats import CAMP, CASTLE, DEV_COST, FORT, IS_LAND, LAND_TYPES, NO_DEV, UNIT_COST
from vigtavl_env.engine.tokens import may_close_enclosure

from ..tactics import LAST_DEVELOPMENT_BONUS
from .attacks import gain_this_turn
from .context import Context


def _complex_bonus(ctx: Context, dev: int, cell: int) -> float:
    """Progress towards the Complex: 3 tokens if this completes it, part of it if the rest
    fits next to it (more if the gold for it is at hand)."""
    st, me = ctx.state, ctx.me
    awards = st.awards[me]
    if awards & COMPLEX:
        return 0.0
    # The two other kinds of development the Complex needs, and whether one of mine is next door.
    if dev == CAMP:
        need1, need2 = FORT, CASTLE
    elif dev == FORT:
        need1, need2 = CAMP, CASTLE
    else:
        need1, need2 = CAMP, FORT
    has1 = has2 = False
    for d in range(6):
        x = st.nbr[cell * 6 + d]
        if x >= 0 and st.dev_owner[x] == me:
            has1 = has1 or st.dev_type[x] == need1
            has2 = has2 or st.dev_type[x] == need2
    if has1 and has2:
        return 3.0
    for d in range(6):  # a chain cell - x - y is a connected triple too
        x = st.nbr[cell * 6 + d]
        if x < 0 or st.dev_owner[x] != me or (st.dev_type[x] != need1 and st.dev_type[x] != need2):
            continue
        other = need2 if st.dev_type[x] == need1 else need1
        for k in range(6):
            y = st.nbr[x * 6 + k]
            if y >= 0 and y != cell and st.dev_owner[y] == me and st.dev_type[y] == other:
                return 3.0
    missing = (0 if has1 else 1) + (0 if has2 else 1)
    room = 0
    for d in range(6):
        x = st.nbr[cell * 6 + d]
        if x >= 0 and st.land[x] and st.dev_type[x] == NO_DEV and (st.cell_player[x] == -1 or st.cell_player[x] == me):
            room += 1
    if room < missing:
        return 0.0
    price = (0 if has1 else DEV_COST[need1]) + (0 if has2 else DEV_COST[need2])
    if st.gold[me] - DEV_COST[dev] >= price:
        return 3.0 * (0.7 if missing == 1 else 0.55)
    if ctx.my_turns_left > 0:
        return 3.0 * (0.35 if missing == 1 else 0.25)
    return 0.0


def score_build_dev(ctx: Context, verb: int, cell: int) -> float:
    """A development: the Builder award it moves, the Complex, a first development (captures,
    production), a castle's production and a coast's shipyard, less its exposure to a seizure
    times what it would give away, and a little of its price (cheaper ones leave gold for more)."""
    st, w = ctx.state, ctx.w
    dev = verb - BUILD_DEV + 1
    v = ctx.builder_award_gain() * w.dev
    v += w.complex * _complex_bonus(ctx, dev, cell)
    if not ctx.my_devs:
        v += w.first_camp
    if ctx.my_turns_left > 0:
        castle = coast = False
        for c in ctx.my_devs:
            castle = castle or st.dev_type[c] == CASTLE
            coast = coast or bool(ctx.info.coastal[c])
        if dev == CASTLE and not castle:
            v += 0.4 * w.units  # a castle raises production to 3 units a turn
        if ctx.info.coastal[cell] and not coast:
            v += 0.3  # ships may be built
    # Exposure: a development is a gift to whoever can seize it.
    price = DEV_COST[dev]
    worth = price + (LAST_DEVELOPMENT_BONUS if not ctx.my_devs else 0) + 1.0
    v -= w.dev_safety * ctx.new_dev_exposure(cell) * worth
    v -= 0.15 * price  # cheaper developments leave gold for more
    if dev == CASTLE and ctx.threats:
        v -= 0.3  # a castle hex holds no defender
    return v


def score_build_unit(ctx: Context, verb: int, cell: int) -> float:
    """A unit: the style's preference for its type times its value where it is built (what it
    guards and approaches, and half of what it can win this turn if silver is left to activate
    it), less a little of its price."""
    st, w = ctx.state, ctx.w
    t = verb - BUILD_UNIT
    pref = w.unit_pref[t]  # C doubles from here (the same arithmetic, without a float object per step)
    if pref <= 0:
        return -1.0
    cost = UNIT_COST[t]
    loaded = IS_LAND[t] and bool(st.sea[cell])
    now = 0.5 * gain_this_turn(ctx, t, cell, loaded) if st.silver[ctx.me] >= cost else 0.0
    if not ctx.future:
        return now - 0.12 * cost - 0.3  # the game ends before it could matter
    v = ctx.lasting_value(t, cell, loaded) + now
    return w.units * pref * (0.3 + v) - 0.12 * cost


def score_build_wall(ctx: Context, verb: int, cell: int) -> float:
    """A wall: progress towards the Great Wall (five in a row), a Citadel it may close, and the
    cover it gives an exposed development of mine on either side. Only a wall beside a
    development of mine or extending my walls scores above zero."""
    st, w, me = ctx.state, ctx.w, ctx.me
    if w.walls <= 0:
        return -0.5
    d = verb - BUILD_WALL
    edge = st.nbr_edge[cell * 6 + d]
    other = st.nbr[cell * 6 + d]
    v = 0.0
    mine = st.dev_owner[cell] == me or (other >= 0 and st.dev_owner[other] == me)
    joins = edge >= 0 and ctx.wall_extensions()[edge] != 0
    if not mine and not joins:
        return w.walls * 0.1 - 0.5 if ctx.wall_length() == 0 else -0.5
    awards = st.awards[me]
    if not awards & GREAT_WALL:
        length = ctx.wall_length()
        if joins or length == 0:
            v += 1.0 if length + 1 >= 5 else 0.22 * (length + 1)
    if not awards & CITADEL and joins and may_close_enclosure(st, me, edge):
        v += _enclosed_by(st, me, edge)
    if st.dev_owner[cell] == me:  # the cover for a development of mine on either side
        v += _cover(ctx, cell, other)
    if other >= 0 and st.dev_owner[other] == me:
        v += _cover(ctx, other, cell)
    return w.walls * v - 0.35


def _cover(ctx: Context, a: int, b: int) -> float:
    """What a wall between my development on ``a`` and the hex ``b`` (-1: off the board) covers:
    a little at the board's edge, its exposure and price where another player may come from."""
    if b < 0:
        return 0.05
    st = ctx.state
    if st.cell_player[b] != ctx.me:
        price = DEV_COST[st.dev_type[a]]
        return 0.35 * ctx.exposure(a) + 0.1 * price
    return 0.0


def _enclosed_by(st: GameState, me: int, edge: int, cap: int = 12) -> int:
    """Hexes a new wall of mine on ``edge`` would close off (small regions only)."""
    board, gmap = st.gmap.board, st.gmap
    total = 0
    for s0 in board.edge_cells[edge]:
        if s0 < 0 or not (gmap.is_land[s0] or gmap.is_sea[s0]):
            continue
        seen, stack, closed = {s0}, [s0], True
        while stack and closed:
            a = stack.pop()
            for d, b in enumerate(board.neighbours[a]):
                e = board.edge[a][d]
                if e == edge or st.walls[e] == me:
                    continue
                if b < 0 or len(seen) >= cap:
                    closed = False
                    break
                if (gmap.is_land[b] or gmap.is_sea[b]) and b not in seen:
                    seen.add(b)
                    stack.append(b)
        if closed:
            total += len(seen)
    return total


def score_discharge(ctx: Context, verb: int, cell: int) -> float:
    """Discharge and recruit: a knight that is no use where it is comes back next to one of
    my developments."""
    st = ctx.state
    t = LAND_TYPES[verb - DISCHARGE]
    here = ctx.lasting_value(t, cell, bool(st.sea[cell]))
    sites = ctx.unit_sites(t)
    if not sites or not ctx.future:
        return -1.0
    best = ctx.lasting_value(t, sites[0], bool(st.sea[sites[0]]))
    for c in sites[1:]:
        best = max(best, ctx.lasting_value(t, c, bool(st.sea[c])))
    return best - here - 0.4


def score_recruit(ctx: Context, verb: int, cell: int) -> float:
    """A recruited prisoner: its value where it stands, and half of what it can win this turn."""
    st = ctx.state
    t = st.recruit_type
    loaded = bool(st.sea[cell])
    return ctx.lasting_value(t, cell, loaded) + 0.5 * gain_this_turn(ctx, t, cell, loaded)
