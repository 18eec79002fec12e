"""What one decision needs to know (:class:`Context`), computed once per decision, mostly lazily.

The facts every scorer shares, in victory tokens:

- **threats and exposure**: the other players' threat tables, how open each of my developments
  is to a seizure on another player's turn (:meth:`Context.exposure`; one I would build,
  :meth:`Context.new_dev_exposure`), and what a defender standing on a hex takes off that
  (:meth:`Context.guard_gain`);
- **a unit's lasting value where it stands**: :meth:`Context.lasting_value` (guarding, the pull
  of targets for my next turns, the risk of losing it);
- **the targets** I may attack (:meth:`Context.targets`) and the tables behind the pull
  (:meth:`Context.tables`);
- **seizures and awards**: what a seizure is worth (:func:`seize_tokens`) and the end awards'
  swing (:meth:`Context.award_delta`).

What a unit can win this turn (its best attack, who would defend, the feint, a victim's worth)
is judged in ``attacks.py``, what it can seize from a hex in ``seizures.py``; the context holds
their memos for the decision.

Values that depend only on where the pieces stand survive across decisions (the agent's
position cache); the rest lives as long as the decision. In the compiled build the context is a
C type (``context.pxd``) so its methods read the state's tables as C arrays.
"""

from __future__ import annotations

from array import array
from collections.abc import Callable
from typing import Any

from vigtavl_env.engine.building import unit_sites
from vigtavl_env.engine.free_actions import guard_cells
from vigtavl_env.engine.movement import has_development
from vigtavl_env.engine.state import (
    BATTLE, LOADED, ON_BOARD, PRISONER, Activation, GameState, active_of, count_of, positions,
)
from vigtavl_env.engine.stats import DEV_COST, FREIGHTER, FREIGHTER_CAPACITY, IS_SHIP, UNIT_COST
from vigtavl_env.engine.tokens import longest_wall

from ..tactics.maps import MapInfo
from ..tactics import (
    LAST_DEVELOPMENT_BONUS, award_shares, battle_turns_left, end_counts, seize_exposure, seize_value, turns_left,
)


_UNKNOWN = [float("nan")]  # an entry of a memo not worked out yet


def unknown_values(count: int) -> array:
    """A memo of ``count`` doubles, each NaN until worked out (``x == x`` is false only for NaN)."""
    return array("d", _UNKNOWN) * count


def unit_place_memo(n: int) -> array:
    """A memo by (unit type, hex, aboard) on a board of ``n`` hexes, read and written at
    ``(t * n + c) * 2 + aboard``: the lasting values, this turn's gains."""
    return unknown_values(len(IS_SHIP) * n * 2)
_SHIP, _COST = bytes(IS_SHIP), bytes(UNIT_COST)  # per unit type, read as C chars when compiled


class Weights:
    """A style's weights (:class:`~agents.heuristic.styles.Style`) as C doubles in the compiled
    build: the scorers read them at every code, where a style's attribute is a dictionary
    look-up. Made once per bot."""

    def __init__(self, style: Any) -> None:
        self.attack, self.seize, self.approach = style.attack, style.seize, style.approach
        self.guard, self.caution, self.dev = style.guard, style.caution, style.dev
        self.dev_safety, self.complex, self.walls = style.dev_safety, style.complex, style.walls
        self.units, self.first_camp, self.landing = style.units, style.first_camp, style.landing
        self.unit_pref, self.loads = tuple(style.unit_pref), tuple(style.loads)


class Context:
    """What one decision needs to know, computed once per decision (mostly lazily)."""

    def __init__(self, agent: Any, state: GameState, info: MapInfo, me: int = -1) -> None:
        # agent: the HeuristicAgent deciding (agent.py, which imports this module: not imported here)
        self.agent = agent
        self.state = state
        self.info = info
        self.w = agent.weights  # the style's weights, as C doubles
        self.me = me = state.current_player if me < 0 else me
        self.board = state.gmap.board
        self.battle = state.phase == BATTLE
        self.my_battle_left = battle_turns_left(state, me)
        self.my_turns_left = turns_left(state, me)
        self.sig = agent._signature(state, me)
        self.threats = agent._threats(state, info, me, self.sig)
        self.can_capture = has_development(state, me)
        self.my_devs = positions(state.dev_owner, me)
        self.counts: tuple | None = None
        self.free_seizes: set[int] = set()  # seizable now without moving anything
        self.cache: dict = {}
        # Values that depend only on where pieces stand survive across decisions.
        self.pos = agent._position_cache(state, self.sig)
        # lasting_value by (type, hex, aboard): a C array of doubles, NaN until worked out
        lasting = self.pos.get("lasting_value")
        if lasting is None:
            lasting = self.pos["lasting_value"] = unit_place_memo(info.n)
        self._lasting = lasting
        self.n = info.n
        self._wall_ext: set[int] | None = None
        # The attack values' memos (attacks.py), for this decision: this turn's gain by (type,
        # hex, aboard), NaN until worked out, and by an int key (a key tuple and its hash cost
        # more than the look-up) who defends, the feint, a victim's value.
        self.this_turn: array | None = None
        self.defences: dict[int, tuple] = {}
        self.feints: dict[int, float] = {}
        self.victims: dict[int, float] = {}
        # Per hex, NaN until worked out: exposure (0..n-1), guard_gain (n..2n-1), new_dev_exposure (2n..3n-1)
        self._by_hex: array | None = None
        self._targets: dict[int, int] | None = None
        self.target_at: array | None = None  # targets() as a unit per hex, -1 where none
        self._tables = None
        self._near: bytearray | None = None
        self._berths: bytearray | None = None
        self._builder_gain = float("nan")
        self._wall_len = -1
        # Future turns in which my units' positions still matter.
        self.future = self.my_battle_left > 0 or bool(self.threats)

    # ------------------------------------------------------------ shared facts
    def tables(self) -> tuple[array, array, array]:
        """(target pull for knights, for ships, approach risk) per hex, as arrays of doubles (C
        arrays here in the compiled build: ``_land``, ``_sea``, ``_risk``)."""
        if self._tables is None:
            self._tables = self.agent._tables(self.state, self.info, self.me, self.sig)
            self._land, self._sea, self._risk = self._tables
        return self._tables

    def approach_risk(self, c: int) -> float:
        """The approach risk of hex ``c`` (the third of :meth:`tables`)."""
        if self._tables is None:
            self.tables()
        return self._risk[c]

    def wall_length(self) -> int:
        """My longest line of walls (the Great Wall needs five)."""
        if self._wall_len < 0:
            st = self.state
            self._wall_len = longest_wall(st, self.me) if count_of(st.walls, self.me) else 0
        return self._wall_len

    def guards(self, p: int) -> set[int]:
        """Hexes where player ``p`` has a unit that defends developments."""
        return guard_cells(self.state, p)[0]  # kept in the state (tactics.guards, called in C)

    def targets(self) -> dict[int, int]:
        """Other players' hexes I may attack now, with the unit that would defend each."""
        if self._targets is None:
            st, me = self.state, self.me
            best: dict[int, tuple] = {}
            for u in range(st.n_units):
                c, o = st.u_cell[u], st.u_owner[u]
                if o == me or st.u_where[u] != ON_BOARD:
                    continue
                t = st.u_type[u]
                key = (t != FREIGHTER, UNIT_COST[t], -u)
                if c not in best or key > best[c][0]:
                    best[c] = (key, u)
            self._targets = {
                c: u for c, (_, u) in best.items()
                if IS_SHIP[st.u_type[u]] or self.can_capture
            }
            at = array("i", [-1]) * self.n
            for c in self._targets:
                at[c] = self._targets[c]
            self.target_at = at
        return self._targets

    def acting_unit(self) -> tuple[Activation, int, int, bool, int]:
        """The unit acting now: its activation, index, type, whether it is aboard, and its hex."""
        st = self.state
        top = active_of(st)
        u = top.unit
        return top, u, st.u_type[u], st.u_where[u] == LOADED, st.u_cell[u]

    # ------------------------------------------------------------ developments
    def dev_worth(self, c: int) -> float:
        """What losing my development on ``c`` would cost (its value, +3 if my last, the
        prisoners held there, and the Builder count)."""
        st = self.state
        v = DEV_COST[st.dev_type[c]] + (LAST_DEVELOPMENT_BONUS if len(self.my_devs) == 1 else 0)
        for u in range(st.n_units):
            if st.u_where[u] == PRISONER and st.u_cell[u] == c:
                v += 0.5 * UNIT_COST[st.u_type[u]]
        return v + 1.0

    def exposure(self, c: int, extra_guard: int = -1) -> float:
        """0..1: how open my development on ``c`` is to a seizure on another player's turn."""
        if extra_guard < 0:
            if self._by_hex is None:
                self._make_by_hex()
            e = self._by_hex[c]
            if e == e:  # not NaN: worked out already
                return e
        e = 0.0
        g = self.guards(self.me)
        for th in self.threats:
            e = max(e, seize_exposure(self.state, self.info, c, self.me, th, g, extra_guard))
            if e >= 1.0:
                break
        if extra_guard < 0:
            self._by_hex[c] = e
        return e

    def guard_gain(self, c: int) -> float:
        """Exposure removed from my developments by a defender standing on ``c``."""
        if not self.threats or not self.near_devs()[c]:
            return 0.0
        if self._by_hex is None:
            self._make_by_hex()
        gain = self._by_hex[self.n + c]
        if gain == gain:  # not NaN: worked out already
            return gain
        gain = 0.0
        st = self.state
        devown = st.dev_owner
        for k in range(-1, 6):  # c itself, then its neighbours
            d = c if k < 0 else st.nbr[c * 6 + k]
            if d < 0 or devown[d] != self.me:
                continue
            before = self.exposure(d)
            if before > 0:
                gain += (before - self.exposure(d, extra_guard=c)) * self.dev_worth(d)
        self._by_hex[self.n + c] = gain
        return gain

    def near_devs(self) -> bytearray:
        """A flag per hex: one of my developments' hexes or next to one."""
        if self._near is None:
            st = self.state
            flags = bytearray(self.n)
            for x in self.my_devs:
                flags[x] = 1
                for k in range(6):
                    y = st.nbr[x * 6 + k]
                    if y >= 0:
                        flags[y] = 1
            self._near = flags
        return self._near

    # ------------------------------------------------------------ unit values
    def lasting_value(self, t: int, c: int, loaded: bool = False) -> float:
        """Lasting value of my unit of type ``t`` standing on ``c`` (aboard, if ``loaded``):
        guarding, the pull of targets for my next turns, the risk of losing it."""
        key = (t * self.n + c) * 2 + loaded
        known = self._lasting[key]  # read in place: a local view of it would count references
        if known == known:  # not NaN: worked out already
            return known
        v = 0.0
        if self.future:
            ship = _SHIP[t]
            cost = _COST[t]
            if self.threats and not loaded:
                pr = 0.0
                for th in self.threats:
                    pr = max(pr, th.attack_prob(cost, c, ship))
                v -= self.w.caution * pr * (cost + 0.5)
            if t != FREIGHTER and not loaded:
                v += self.w.guard * self.guard_gain(c)
                if not ship:
                    v += self.w.landing
            if self.my_battle_left > 0 and t != FREIGHTER:
                if self._tables is None:
                    self.tables()
                if ship:
                    pull = self._sea[c]
                elif loaded:
                    pull = 0.8 * self._sea[c]  # a freighter can carry it next to its target
                else:
                    pull = self._land[c]
                    berths = self.freighter_berths()
                    if berths:  # or it boards a freighter of mine next to it
                        st = self.state
                        for d in range(6):
                            y = st.nbr[c * 6 + d]
                            if y >= 0 and st.sea[y] and berths[y]:
                                pull = max(pull, 0.6 * self._sea[y])
                v += self.w.approach * pull
        self._lasting[key] = v
        return v

    def wall_extensions(self) -> bytearray:
        """A flag per edge: a free edge that touches one of my walls end to end."""
        j = self._wall_ext
        if j is None:
            st, me = self.state, self.me
            j = bytearray(len(st.walls))
            mine = positions(st.walls, me)
            if mine:
                board = self.board
                for e in mine:
                    for vtx in board.edge_vertices[e]:
                        for x in board.vertex_edges[vtx]:
                            if x >= 0 and st.walls[x] < 0:  # not the edges that have a wall already
                                j[x] = 1
            self._wall_ext = j
        return j

    def freighter_berths(self) -> bytearray:
        """A flag per hex: a sea hex where a freighter of mine has room for a knight (an empty
        bytearray when there is none)."""
        if self._berths is None:
            st, me = self.state, self.me
            f = bytearray()
            for u in range(st.n_units):
                if st.u_owner[u] == me and st.u_type[u] == FREIGHTER and st.u_where[u] == ON_BOARD:
                    if len(st.cargo(u)) < FREIGHTER_CAPACITY:
                        if not f:
                            f = bytearray(self.n)
                        f[st.u_cell[u]] = 1
            self._berths = f
        return self._berths

    def award_delta(self, kind: int, changes: tuple[tuple[int, int], ...]) -> float:
        """Change of my end-award standing (relative to the best other player) if the counts
        of award ``kind`` (0 General, 1 Admiral, 2 Builder) change by ``changes``, plus a
        margin for a narrow lead that may still be lost."""
        key = ("award", kind, changes)
        v = self.cache.get(key)
        if v is not None:
            return v
        if self.counts is None:
            self.counts = end_counts(self.state)
        counts = list(self.counts[kind])
        need = self.state.config.end_awards_need_one
        me = self.me
        before = _award_standing(counts, need, me)
        for p, d in changes:
            counts[p] += d
        lead = counts[me] - _best_other(counts, me)
        margin = (0.8 if 0 < lead <= 2 else (0.3 if lead > 2 else 0.0)) if self.future else 0.0
        v = self.cache[key] = _award_standing(counts, need, me) - before + margin
        return v

    def new_dev_exposure(self, c: int) -> float:
        """0..1: how open a development I would build on ``c`` is to a seizure: the worst of each
        threat's seizure exposure of ``c`` and the risk of approaching it (once per decision)."""
        if self._by_hex is None:
            self._make_by_hex()
        e = self._by_hex[2 * self.n + c]
        if e == e:  # not NaN: worked out already
            return e
        e = 0.0
        g = self.guards(self.me)
        for th in self.threats:
            e = max(e, seize_exposure(self.state, self.info, c, self.me, th, g))
        if self.threats:
            e = max(e, self.approach_risk(c))
        self._by_hex[2 * self.n + c] = e
        return e

    def _make_by_hex(self) -> None:
        self._by_hex = unknown_values(3 * self.n)

    def builder_award_gain(self) -> float:
        """What one more development of mine is worth for the Builder award (once per decision)."""
        if self._builder_gain != self._builder_gain:  # NaN: not worked out yet
            self._builder_gain = self.award_delta(2, ((self.me, 1),))
        return self._builder_gain

    def unit_sites(self, t: int) -> list[int]:
        """Where I may build a unit of type ``t`` (ships at sea, knights on land), once per decision."""
        key = ("sites", IS_SHIP[t])
        if key not in self.cache:
            self.cache[key] = unit_sites(self.state, self.me, t)
        return self.cache[key]


def _award_standing(counts: list[int], need_one: bool, me: int) -> float:
    """My end-award tokens for these counts less the best other player's."""
    shares = award_shares(counts, need_one)
    best = shares[1] if me == 0 else shares[0]  # the first other player's, then the most
    for p in range(len(shares)):
        if p != me and shares[p] > best:
            best = shares[p]
    return shares[me] - best


def _best_other(counts: list[int], me: int) -> int:
    """The most any other player counts."""
    best = counts[1] if me == 0 else counts[0]
    for p in range(len(counts)):
        if p != me and counts[p] > best:
            best = counts[p]
    return best


def cached_units(ctx: Context, key: tuple, make: Callable[[], list[int]]) -> list[int]:
    """Units worked out once per decision (a choice's candidates, a hex's seizers)."""
    v = ctx.cache.get(key)
    if v is None:
        v = ctx.cache[key] = make()
    return v


def seize_tokens(ctx: Context, x: int) -> float:
    """A seizure's worth: its tokens and the Builder count swinging by one each way."""
    owner = ctx.state.dev_owner[x]
    return seize_value(ctx.state, ctx.me, x) + max(0.5, ctx.award_delta(2, ((ctx.me, 1), (owner, -1))))
