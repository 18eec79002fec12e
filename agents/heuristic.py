"""Rules-based bots: one scoring engine, three styles of play.

Every legal decision gets a score in victory tokens: what it wins now (battle odds times the
defeated unit's value, a seizure's value, the Complex, Great Wall and Citadel, progress towards
the end awards) plus how much better the position is for the turns to come (guarding exposed
developments, standing within reach of targets, keeping units out of reach of stronger enemies).
The bot plays the best-scoring decision. Ending the turn scores 0, so a turn goes on while some
decision is worth something: gold and silver are spent before they are forfeited, and an
activation that lets a unit do anything useful is always worth its silver.

Styles (:class:`Style` weights):

- **aggressor** seeks battles it can win, drives cavalry and soldiers towards enemy units and
  developments, seizes what is left undefended, plays the feint and attrition (the odds count the
  flanking dice of a hex whose front an earlier attack set, so a strong unit follows a cheap
  one from the rear) and lands its knights near the enemy. It builds a camp early so it may
  capture at all (U28).
- **builder** develops: the Complex (castle, fort and camp side by side) in one turn, more
  developments for the Builder award, walls for the Great Wall, the Citadel and around its
  developments, knights to guard what it built; it attacks when the odds are good.
- **greedy** takes the decision with the best expected token gain now (battle odds, seizures
  with the last-development bonus and rescues, the awards), one decision at a time, with only a
  light positional tie-break.

All three handle the setup (each style has its favourite split of the starting knights over
the two freighters), placement (ships spread along coasts with free land behind them),
freighters (a loaded knight is activated and stepped ashore, or the freighter carries it
first), retaliation (activate the 1-silver unit with the best attack, or decline) and the winds
(move destinations already include them).

Choices asked in the middle of a decision (rules v1, ``state.pending``) are scored like the
rest, in tokens: who defends an attacked hex (the unit that loses the fewest tokens on average,
P(it loses) x its stake: a cheap unit steps in for a valuable one, the cheapest takes a shot);
whether and with whom to defend a development about to be seized (while P(holding) x its stake
outweighs P(losing) x the defender's value, else "no defence"); the side a battle move enters
from (its flanking dice and the defenders able to step in, in the battle's expected value);
which unit breaches (the most dice) or seizes (the best chance against the owner's possible
defenders, then one that can occupy). An attacker expects the defender that choice would pick,
and an archer next to its target fights or shoots, whichever is worth more. ``decide`` is the whole interface; :meth:`scored` exposes
the scores so the search bot can take the best few as its candidates.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import dataclass

from vigtavl_env.engine import actions as A
from vigtavl_env.engine.building import unit_sites
from vigtavl_env.engine.combat import (
    can_attack_from_here, coastal_or_sea, defender_options, pending_attack_dice,
)
from vigtavl_env.engine.free_actions import breachers, guard_options, seizers
from vigtavl_env.engine.hexgrid import angular_gap
from vigtavl_env.engine.legal import battle_sides, may_battle_move, nested_ok, pending_units, variant_options
from vigtavl_env.engine.variants import ACTING, unit_status, variant_features
from vigtavl_env.engine.movement import reach
from vigtavl_env.engine.state import (
    BATTLE, CHOOSE_BREACHER, CHOOSE_DEFENDER, CHOOSE_GUARD, CITADEL, COMPLEX, GREAT_WALL, LOADED,
    MOVE_DONE, ON_BOARD, PRISONER, SPENT, Activation, GameState, Pending, positions,
)
from vigtavl_env.engine.stats import (
    ARCHER, ARTILLERY_COST, CAMP, CASTLE, DEV_COST, FORT, FREIGHTER, GALLEON, IS_SHIP, LAND_TYPES,
    MAX_OCCUPANCY, NO_DEV, UNIT_COST, UNIT_MOVEMENT, UNIT_RANGE,
)
from vigtavl_env.engine.tokens import longest_wall, may_close_enclosure

from vigtavl_env.agent import EngineAgent
from .tactics import (
    CLOSE_WIN, LAST_DEVELOPMENT_BONUS, MapInfo, Recent, Threats, approach_risk, attack_dice_from,
    award_shares, battle_turns_left, breach_prob, choose_defender, end_counts,
    guard_outcome, loss_prob, seize_exposure, seize_value, split_legal, stake_value, target_field,
    turns_left,
)


@dataclass(frozen=True)
class Style:
    """Weights of one style of play (victory-token units unless said otherwise)."""

    name: str
    attack: float = 1.0  # multiplier on a battle's expected tokens
    seize: float = 1.0  # multiplier on a seizure's tokens
    approach: float = 0.3  # pull towards other players' targets for the turns to come
    guard: float = 0.6  # value of covering an exposed own development
    caution: float = 0.4  # weight of the chance of losing a unit where it stands
    dev: float = 1.0  # weight of a development's lasting value (awards, production)
    dev_safety: float = 0.7  # weight of a new development's exposure
    complex: float = 1.0  # pursue the Complex
    walls: float = 0.5  # walls: Great Wall, Citadel and protection (0: never builds walls)
    units: float = 0.5  # weight of building combat units
    unit_pref: tuple[float, ...] = (1.0, 0.8, 1.0, 0.6, 0.0, 0.5)  # per unit type
    first_camp: float = 1.0  # extra value of a first development (prisoners, production)
    landing: float = 0.4  # value of a knight standing on land rather than aboard
    noise: float = 0.01  # random tie-break, in tokens
    # Setup: preference per split of the starting knights (stats.FREIGHTER_SPLITS: SSS|AAC,
    # SSA|SAC, SSC|SAA). By default an archer on each freighter: both landings can shoot.
    loads: tuple[float, float, float] = (0.0, 1.0, 0.5)


AGGRESSOR = Style("aggressor", attack=1.4, seize=1.2, approach=0.7, guard=0.3, caution=0.15,
                  dev=0.6, dev_safety=0.4, complex=0.3, walls=0.0, units=0.9,
                  unit_pref=(0.8, 0.6, 1.3, 0.7, 0.0, 0.6), first_camp=2.0, landing=1.0,
                  loads=(0.0, 0.5, 1.0))  # the cavalry lands with two soldiers to feint for it
BUILDER = Style("builder", attack=0.9, seize=1.0, approach=0.15, guard=1.0, caution=0.5,
                dev=1.3, dev_safety=0.9, complex=1.5, walls=1.0, units=0.5,
                unit_pref=(1.2, 0.7, 0.6, 0.3, 0.0, 0.2), first_camp=1.0, landing=1.0,
                loads=(1.0, 0.5, 0.0))  # three soldiers land together to guard the first camp
GREEDY = Style("greedy", attack=1.0, seize=1.0, approach=0.2, guard=0.4, caution=0.3,
               dev=1.0, dev_safety=0.6, complex=1.0, walls=0.3, units=0.4,
               unit_pref=(1.0, 0.8, 1.0, 0.6, 0.0, 0.5), first_camp=1.0, landing=0.8)
STYLES = {s.name: s for s in (AGGRESSOR, BUILDER, GREEDY)}


class _Ctx:
    """What one decision needs to know, computed once per decision (mostly lazily)."""

    def __init__(self, agent: "HeuristicAgent", state: GameState, info: MapInfo, me: int = -1) -> None:
        self.agent = agent
        self.state = state
        self.info = info
        self.style = agent.style
        self.me = me = state.current_player if me < 0 else me
        self.board = state.gmap.board
        self.battle = state.phase == BATTLE
        self.my_battle_left = battle_turns_left(state, me)
        self.my_turns_left = turns_left(state, me)
        self.sig = agent._signature(state, me)
        self.threats = agent._threats(state, info, me, self.sig)
        self.can_capture = me in state.dev_owner
        self.my_devs = positions(state.dev_owner, me)
        self.counts: tuple | None = None
        self.free_seizes: set[int] = set()  # seizable now without moving anything
        self.cache: dict = {}
        self._guards: dict[int, set[int]] = {}
        # Values that depend only on where pieces stand survive across decisions.
        self.pos = agent._position_cache(state, self.sig)
        self._lasting: dict[tuple[int, int, bool], float] = self.pos.setdefault("lasting_value", {})
        self._this_turn: dict[int, float] = {}
        self._exposure: dict[int, float] = {}
        self._targets: dict[int, int] | None = None
        self._tables = None
        self._wall_len = -1
        # Future turns in which my units' positions still matter.
        self.future = self.my_battle_left > 0 or bool(self.threats)

    # ------------------------------------------------------------ shared facts
    def tables(self) -> tuple[list[float], list[float], list[float]]:
        """(target pull for knights, for ships, approach risk) per hex."""
        if self._tables is None:
            self._tables = self.agent._tables(self.state, self.info, self.me, self.sig)
        return self._tables

    def wall_length(self) -> int:
        if self._wall_len < 0:
            st = self.state
            self._wall_len = longest_wall(st, self.me) if self.me in st.walls else 0
        return self._wall_len

    def guards(self, p: int) -> set[int]:
        """Hexes where player ``p`` has a unit that defends developments."""
        if p not in self._guards:
            st = self.state
            self._guards[p] = {
                st.u_cell[u] for u in range(st.n_units)
                if st.u_owner[u] == p and st.u_where[u] == ON_BOARD and st.u_type[u] != FREIGHTER
            }
        return self._guards[p]

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
        return self._targets

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
        if extra_guard < 0 and c in self._exposure:
            return self._exposure[c]
        e = 0.0
        g = self.guards(self.me)
        for th in self.threats:
            e = max(e, seize_exposure(self.state, self.info, c, self.me, th, g, extra_guard))
            if e >= 1.0:
                break
        if extra_guard < 0:
            self._exposure[c] = e
        return e

    def guard_gain(self, c: int) -> float:
        """Exposure removed from my developments by a defender standing on ``c``."""
        if not self.threats or c not in self.near_devs():
            return 0.0
        gain = 0.0
        devown = self.state.dev_owner
        for d in (c,) + self.info.nb[c]:
            if devown[d] != self.me:
                continue
            before = self.exposure(d)
            if before > 0:
                gain += (before - self.exposure(d, extra_guard=c)) * self.dev_worth(d)
        return gain

    def near_devs(self) -> set[int]:
        """My developments' hexes and the hexes next to them."""
        near = self.cache.get("near_devs")
        if near is None:
            nb = self.info.nb
            near = self.cache["near_devs"] = {d for x in self.my_devs for d in (x,) + nb[x]}
        return near

    # ------------------------------------------------------------ unit values
    def lasting_value(self, t: int, c: int, loaded: bool = False) -> float:
        """Lasting value of my unit of type ``t`` standing on ``c`` (aboard, if ``loaded``):
        guarding, the pull of targets for my next turns, the risk of losing it."""
        key = (t, c, loaded)
        v = self._lasting.get(key)
        if v is not None:
            return v
        style = self.style
        v = 0.0
        if self.future:
            ship = IS_SHIP[t]
            cost = UNIT_COST[t]
            if self.threats and not loaded:
                pr = 0.0
                for th in self.threats:
                    pr = max(pr, th.attack_prob(cost, c, ship))
                v -= style.caution * pr * (cost + 0.5)
            if t != FREIGHTER and not loaded:
                v += style.guard * self.guard_gain(c)
                if not ship:
                    v += style.landing
            if self.my_battle_left > 0 and t != FREIGHTER:
                land, sea, _ = self.tables()
                if ship:
                    pull = sea[c]
                elif loaded:
                    pull = 0.8 * sea[c]  # a freighter can carry it next to its target
                else:
                    pull = land[c]
                    for y in self.info.sea_nb[c]:  # or it boards a freighter of mine
                        if y in self.freighter_berths():
                            pull = max(pull, 0.6 * sea[y])
                v += style.approach * pull
        self._lasting[key] = v
        return v

    def wall_extensions(self) -> set[int]:
        """Edges that touch one of my walls end to end."""
        j = self.cache.get("wall_extensions")
        if j is None:
            st, me = self.state, self.me
            j = set()
            if me in st.walls:
                board = self.board
                for e in positions(st.walls, me):
                    for vtx in board.edge_vertices[e]:
                        j.update(board.vertex_edges[vtx])
                j.difference_update(e for e in range(len(st.walls)) if st.walls[e] >= 0)
            self.cache["wall_extensions"] = j
        return j

    def freighter_berths(self) -> set[int]:
        """Sea hexes where a freighter of mine has room for a knight."""
        f = self.cache.get("freighter_berths")
        if f is None:
            st, me = self.state, self.me
            f = set()
            for u in range(st.n_units):
                if st.u_owner[u] == me and st.u_type[u] == FREIGHTER and st.u_where[u] == ON_BOARD:
                    if len(st.cargo(u)) < 3:
                        f.add(st.u_cell[u])
            self.cache["freighter_berths"] = f
        return f

    def gain_this_turn(self, t: int, c: int, loaded: bool = False) -> float:
        """What my unit of type ``t`` (attack unused) can win this turn from ``c``: its best
        attack's expected tokens, plus the developments it could seize from there."""
        key = (t * self.info.n + c) * 2 + loaded
        v = self._this_turn.get(key)
        if v is not None:
            return v
        v = 0.0
        if self.battle:
            if not loaded or t == ARCHER:
                v = self.style.attack * self.best_attack(t, c, loaded)
            if not loaded and t != FREIGHTER:
                v += self.style.seize * self.seize_from(c)
        self._this_turn[key] = v
        return v

    def best_attack(self, t: int, c: int, loaded: bool = False) -> float:
        """Expected tokens of the best attack a unit of type ``t`` makes from ``c``: close
        combat next door, and a shot along the rays for archers and galleons (an archer aboard
        a freighter: only at sea hexes and the coast)."""
        if t == FREIGHTER:
            return 0.0
        targets = self.targets()
        if not targets:
            return 0.0
        st, board, me = self.state, self.board, self.me
        gmap = st.gmap
        cost = UNIT_COST[t]
        best = 0.0
        if UNIT_RANGE[t]:
            for d in range(6):
                for k, (x, e) in enumerate(board.rays[c][d], start=1):
                    w = st.walls[e]
                    if (w >= 0 and w != me) or not (gmap.is_land[x] or gmap.is_sea[x]):
                        break
                    if x in targets and not (loaded and not coastal_or_sea(st, x)):
                        v = self.target_value(x, cost, c, k)
                        if v > best:
                            best = v
        for d, x in enumerate(board.neighbours[c]):
            if x < 0 or x not in targets or (loaded and not coastal_or_sea(st, x)):
                continue
            w = st.walls[board.edge[c][d]]
            if w >= 0 and w != me:
                continue
            v = self.target_value(x, cost, c, 0)
            if v > best:
                best = v
        return best

    def defence(self, x: int, base: int, origin: int, reach: int) -> tuple[int, float]:
        """(the unit the attacked player will choose to defend ``x``, P(the attack beats it))
        for an attack with ``base`` dice from ``origin`` at range ``reach`` (0: close combat)."""
        key = ("defence", x, base, origin, reach)
        v = self.cache.get(key)
        if v is None:
            st = self.state
            dice = attack_dice_from(st, base, x, origin, bool(reach))
            v = self.cache[key] = choose_defender(st, dice, reach, defender_options(st, x, origin))
        return v

    def target_value(self, x: int, base: int, origin: int, reach: int) -> float:
        """Expected tokens of an attack on ``x`` from ``origin`` against the defender the
        attacked player will choose, with the feint it sets up."""
        victim, p = self.defence(x, base, origin, reach)
        if victim < 0:
            return 0.0
        v = p * self.victim_value(victim, x)
        if p < 1.0 and x not in self.state.front:
            d = self.board.direction_between(x, origin)
            v += (1.0 - p) * self.feint_bonus(x, victim, d, base)
        return v

    def feint_bonus(self, x: int, victim: int, front: int, spent: int) -> float:
        """Tactics > Feint: the first attack on ``x`` sets its front to ``front``; what that is
        worth to the strongest unit of mine that could attack next from a flank or the rear
        (the silver ``spent`` on the first attack already gone)."""
        key = ("feint", x, front, spent)
        v = self.cache.get(key)
        if v is not None:
            return v
        st = self.state
        silver = st.silver[self.me] - spent if st.retaliator < 0 else 0
        cost_v = UNIT_COST[st.u_type[victim]]
        best = 0.0
        for cost, dirs in self.followers(x):
            if cost > silver:
                continue
            gap = max(angular_gap(d, front) for d in dirs)
            if gap <= 0:
                continue
            if cost + gap >= st.config.overwhelm_dice:
                gain = 1.0 - CLOSE_WIN[cost][cost_v]
            else:
                gain = CLOSE_WIN[cost + gap][cost_v] - CLOSE_WIN[cost][cost_v]
            if gain > best:
                best = gain
        v = self.cache[key] = best * self.victim_value(victim, x)
        return v

    def followers(self, x: int) -> list[tuple[int, list[int]]]:
        """My upright close-combat units of cost 2 or more that could attack ``x`` this turn,
        with the sides (directions from ``x``) they could attack it from."""
        key = ("followers", x)
        out = self.cache.get(key)
        if out is not None:
            return out
        st, me, info = self.state, self.me, self.info
        nbrs = self.board.neighbours[x]
        active = st.active.unit if st.active is not None else -1
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
            dirs = [d for d, n in enumerate(nbrs) if n >= 0 and (
                n == here or (row[n] <= m and st.cell_player[n] in (-1, me)))]
            if dirs:
                out.append((UNIT_COST[t], dirs))
        self.cache[key] = out
        return out

    def victim_value(self, victim: int, x: int) -> float:
        """Tokens for defeating ``victim`` defending ``x``, plus what it brings: a prisoner
        (General) or a sunk ship (Admiral), drowned cargo, a development it alone held."""
        key = ("victim", victim, x)
        v = self.cache.get(key)
        if v is not None:
            return v
        st = self.state
        vt = st.u_type[victim]
        v = float(UNIT_COST[vt])
        if vt == FREIGHTER:
            v += 0.7 * sum(UNIT_COST[st.u_type[k]] for k in st.cargo(victim))
        # A sunk ship counts for the Admiral award, a prisoner for the General.
        v += max(0.3, 0.6 * self.award_delta(1 if IS_SHIP[vt] else 0, ((self.me, 1),)))
        if st.dev_type[x] != NO_DEV and st.u_cell[victim] == x:
            alone = sum(1 for u in range(st.n_units) if st.u_cell[u] == x and st.u_where[u] == ON_BOARD) == 1
            if alone:  # its only defender: occupying the hex (or a seizure) takes the development
                v += 0.5 * seize_tokens(self, x)
        self.cache[key] = v
        return v

    def seize_from(self, a: int) -> float:
        """Tokens for the developments a unit standing on ``a`` could seize (those that can
        be seized already, without moving, do not count)."""
        st, board, me = self.state, self.board, self.me
        total = 0.0
        for d, x in enumerate(board.neighbours[a]):
            if x < 0 or st.dev_type[x] == NO_DEV or x in self.free_seizes:
                continue
            owner = st.dev_owner[x]
            if owner == me or owner < 0:
                continue
            if st.retaliator >= 0 and x in st.seized_this_turn:
                continue
            w = st.walls[board.edge[a][d]]
            if w >= 0 and w != me:
                continue
            g = self.guards(owner)
            if x in g or any(y in g for y in board.common_neighbours(a, x)):
                continue
            total += seize_tokens(self, x)
        return total

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

        def rel(cs: list[int]) -> float:
            sh = award_shares(cs, need)
            return sh[me] - max(x for p, x in enumerate(sh) if p != me)

        before = rel(counts)
        for p, d in changes:
            counts[p] += d
        lead = counts[me] - max(c for p, c in enumerate(counts) if p != me)
        margin = (0.8 if 0 < lead <= 2 else (0.3 if lead > 2 else 0.0)) if self.future else 0.0
        v = self.cache[key] = rel(counts) - before + margin
        return v

    def unit_sites(self, t: int) -> list[int]:
        key = ("sites", IS_SHIP[t])
        if key not in self.cache:
            self.cache[key] = unit_sites(self.state, self.me, t)
        return self.cache[key]


def seize_tokens(ctx: "_Ctx", x: int) -> float:
    """A seizure's worth: its tokens and the Builder count swinging by one each way."""
    owner = ctx.state.dev_owner[x]
    return seize_value(ctx.state, ctx.me, x) + max(0.5, ctx.award_delta(2, ((ctx.me, 1), (owner, -1))))


class HeuristicAgent(EngineAgent):
    """A rules-based bot; its :class:`Style` decides what it values.

    ``remember_scores``: keep the scores of the last states scored. Only a search's simulations
    meet the same states again; in a plain game the look-up key costs more than it saves.
    """

    def __init__(self, style: Style = GREEDY, seed: int | None = None,
                 remember_scores: bool = False) -> None:
        super().__init__()
        self.style = style
        self.name = style.name
        self.rng = random.Random(seed)
        self._maps: dict[int, MapInfo] = {}
        self._threat_cache = Recent(_KEPT)
        self._table_cache = Recent(_KEPT)
        self._pos = Recent(_KEPT)
        self._scores = Recent(_SCORES_KEPT) if remember_scores else None

    def decide(self, state: GameState, legal: list[int]) -> int:
        if len(legal) == 1:
            return legal[0]
        return max(self.scored(state, legal))[1]

    def scored(self, state: GameState, legal: list[int]) -> list[tuple[float, int]]:
        """``(score, code)`` for every legal code (scores include the style's small noise)."""
        info = self.map_info(state)
        if self._scores is None:
            plain = self._score_all(state, legal, info)
        else:
            plain = self._scores.get((_state_key(state), tuple(legal)),
                                     lambda: self._score_all(state, legal, info))
        noise = self.style.noise
        rnd = self.rng.random
        return [(v + noise * rnd(), code) for v, code in plain]

    def _score_all(self, state: GameState, legal: list[int], info: MapInfo) -> list[tuple[float, int]]:
        """``(score, code)`` for every legal code, without the noise."""
        ctx = _Ctx(self, state, info)
        out: list[tuple[float, int]] = []
        groups = split_legal(legal, info.n)
        ctx.free_seizes = {cell for _, cell, _ in groups.get("seize", ())}
        # While a unit acts, building waits until its activation is over (it stays possible).
        busy = state.active is not None
        for g, items in groups.items():
            fn = _WAIT if busy and g in _BUILD_GROUPS else _SCORERS[g]
            for verb, cell, code in items:
                out.append((fn(ctx, verb, cell), code))
        return out

    def position_value(self, state: GameState, player: int) -> float:
        """The lasting value (the style's unit values) of everything ``player`` has on the board:
        guards, pull towards targets, risk. The search bot adds it to its evaluation."""
        info = self.map_info(state)
        ctx = _Ctx(self, state, info, me=player)
        if not ctx.future:
            return 0.0
        total = 0.0
        for u in range(state.n_units):
            if state.u_owner[u] != player:
                continue
            w = state.u_where[u]
            if w == ON_BOARD or w == LOADED:
                total += ctx.lasting_value(state.u_type[u], state.u_cell[u], w == LOADED)
        return total

    def map_info(self, state: GameState) -> MapInfo:
        info = self._maps.get(id(state.gmap))
        if info is None or info.gmap is not state.gmap:
            info = self._maps[id(state.gmap)] = MapInfo(state.gmap)
        return info

    # ------------------------------------------------------------ caches across decisions
    @staticmethod
    def _signature(state: GameState, me: int) -> tuple:
        """What the threat and target tables depend on: other players' pieces and who owns
        which development (my own moves do not change them)."""
        where, cells, types = state.u_where, state.u_cell, state.u_type
        # The type too: a cache kept over several games must not mistake one unit for another.
        enemy = tuple((cells[u] * 8 + where[u]) * 8 + types[u]
                      for u in range(state.n_units) if state.u_owner[u] != me)
        return (id(state.gmap), me, state.turns_played, state.phase, state.wind, enemy,
                tuple(state.dev_owner))

    def _position_cache(self, state: GameState, sig: tuple) -> dict:
        """A cache for values that depend only on where every piece and wall stands (and on
        ``sig``); each position has its own, and the last few positions are kept."""
        key = (sig, tuple(state.u_owner), tuple(state.u_type), tuple(state.u_cell),
               tuple(state.u_where), tuple(state.u_carrier), tuple(state.walls), tuple(state.art_owner),
               state.retaliator, len(state.stack))
        return self._pos.get(key, dict)

    def _threats(self, state: GameState, info: MapInfo, me: int, sig: tuple) -> list[Threats]:
        return self._threat_cache.get(sig, lambda: [
            info.threats(state, q) for q in range(state.n_players)
            if q != me and battle_turns_left(state, q) > 0])

    def _tables(self, state: GameState, info: MapInfo, me: int, sig: tuple) -> tuple:
        def make() -> tuple:
            land, sea = target_field(state, info, me)
            return land, sea, approach_risk(state, info, me)
        return self._table_cache.get(sig, make)


# Positions (and threat tables) and states remembered per bot: the search bot's simulations of
# one decision come back to the same few positions and states again and again.
_KEPT = 64
_SCORES_KEPT = 256

def _state_key(state: GameState) -> tuple:
    """Everything in ``state`` a score may read, hashable (``GameState.score_key``). The map
    goes by identity: a bot keeps every map it has seen (:meth:`HeuristicAgent.map_info`), so no
    other map can take its id."""
    return (id(state.gmap), state.score_key())


# ---------------------------------------------------------------------------- unit actions
def _score_zero(ctx: _Ctx, verb: int, cell: int) -> float:
    return 0.0


def _score_never(ctx: _Ctx, verb: int, cell: int) -> float:
    return -1.0


def _freighter_lasting_value(ctx: _Ctx, f: int, c: int) -> float:
    """A freighter's value on ``c``: where its cargo could step ashore from there."""
    st = ctx.state
    v = ctx.lasting_value(FREIGHTER, c)
    for k in st.cargo(f):
        t = st.u_type[k]
        best = ctx.lasting_value(t, c, loaded=True)
        for y in ctx.info.shore[c]:
            if st.cell_player[y] in (-1, ctx.me) and st.occ[y] < 3:
                best = max(best, ctx.lasting_value(t, y))
        v += 0.8 * best
    return v


def _value_at(ctx: _Ctx, u: int, t: int, c: int, loaded: bool, attack_left: bool) -> float:
    if t == FREIGHTER:
        return _freighter_lasting_value(ctx, u, c)
    v = ctx.lasting_value(t, c, loaded)
    if attack_left:
        v += ctx.gain_this_turn(t, c, loaded)
    return v


def _reach_of(ctx: _Ctx, u: int, move_left: int, can_attack: bool, wind: bool = True):
    """The engine's movement search for ``u`` (``wind``: it may still ride the winds)."""
    key = ("reach", u, move_left, can_attack, wind)
    r = ctx.pos.get(key)
    if r is None:
        r = ctx.pos[key] = reach(ctx.state, u, move_left, can_attack=can_attack, wind=wind)
    return r


def _battle_move_value(ctx: _Ctx, u: int, x: int, side: int, stay: float) -> float:
    """A battle move of ``u`` into ``x`` entering from ``side`` (the mover's choice: it sets
    the flanking dice, and who may step in to defend): the battle's expected tokens, then
    standing on ``x`` if it wins (taking what stands there), or ``stay`` (the value of where
    its move began) if it loses."""
    t = ctx.state.u_type[u]
    cost = UNIT_COST[t]
    victim, p = ctx.defence(x, cost, side, 0)
    if victim < 0:
        return -1.0
    ev = ctx.style.attack * ctx.target_value(x, cost, side, 0)
    return ev + p * (ctx.lasting_value(t, x) + ctx.style.seize * ctx.seize_from(x)) + (1 - p) * stay


def _best_battle_move(ctx: _Ctx, u: int, x: int, r, move_left: int, stay: float) -> float:
    """:func:`_battle_move_value` from the best side the engine allows (``r``: the reach)."""
    top = Activation(u, move_left, ctx.state.u_cell[u])
    sides = battle_sides(ctx.state, top, r, x)
    return max((_battle_move_value(ctx, u, x, s, stay) for s in sides), default=-1.0)


def _score_move(ctx: _Ctx, verb: int, cell: int) -> float:
    """Scored, like every decision about the active unit, against ending its activation now."""
    st = ctx.state
    top = st.active
    u = top.unit
    t = st.u_type[u]
    loaded = st.u_where[u] == LOADED
    here = st.u_cell[u]
    attack_left = not top.attacked and ctx.battle and can_attack_from_here(st, u)
    now = _value_at(ctx, u, t, here, loaded, False)
    h = st.cell_player[cell]
    if h >= 0 and h != ctx.me:
        # A battle move: win and stand there, lose and stay where the move began.
        r = _reach_of(ctx, u, top.move_left, may_battle_move(st, top), not top.rode)
        if cell not in ctx.targets() or cell not in r.battles:
            return -1.0
        return _best_battle_move(ctx, u, cell, r, top.move_left, ctx.lasting_value(t, here, loaded)) - now
    if t == FREIGHTER:
        return _freighter_lasting_value(ctx, u, cell) - now - 0.01
    to_loaded = t in LAND_TYPES and st.gmap.is_sea[cell]
    after = _value_at(ctx, u, t, cell, to_loaded, attack_left and (not to_loaded or t == ARCHER))
    return after - now - 0.01


def _score_attack(ctx: _Ctx, verb: int, cell: int) -> float:
    """Close combat ("attack"), a shot ("shoot") or the artillery ("fire"), each by its
    expected tokens against the defender the attacked player will choose: an archer next to
    its target plays whichever of the two is worth more. (Losing an attack costs the attacker
    nothing but the action.)"""
    st = ctx.state
    top = st.active
    u = top.unit
    t = st.u_type[u]
    loaded = st.u_where[u] == LOADED
    here = st.u_cell[u]
    ranged = verb != A.ATTACK
    reach = ctx.board.dist[here][cell] if ranged else 0
    base = ARTILLERY_COST if verb == A.FIRE_ARTILLERY else UNIT_COST[t]
    victim, p = ctx.defence(cell, base, here, reach)
    if victim < 0:
        return -1.0
    ev = ctx.style.attack * ctx.target_value(cell, base, here, reach)
    bonus = 0.0
    if ctx.board.dist[here][cell] == 1 and st.u_cell[victim] == cell:
        # The occupation that may follow a win next door.
        bonus = p * 0.3 * max(0.0, ctx.lasting_value(t, cell) - ctx.lasting_value(t, here, loaded))
    if top.move != MOVE_DONE and top.move_left > 0 and not loaded:
        bonus += 0.1  # it may still move afterwards
    return ev + bonus + 0.02


def _score_end_activation(ctx: _Ctx, verb: int, cell: int) -> float:
    return 0.02  # ending the activation leaves the turn open


def _score_end_turn(ctx: _Ctx, verb: int, cell: int) -> float:
    # With a unit active, end its activation first and look again at what the turn offers.
    return -0.05 if ctx.state.active is not None and ctx.state.retaliator < 0 else 0.0


def _score_occupy(ctx: _Ctx, verb: int, cell: int) -> float:
    """Moving the victor onto the hex it won; a development or artillery still there is taken
    (tokens as a seizure)."""
    st = ctx.state
    u = st.occupy_unit
    t = st.u_type[u]
    here = st.u_cell[u]
    gain = ctx.lasting_value(t, cell) - ctx.lasting_value(t, here)
    if st.cell_player[cell] not in (-1, ctx.me):
        gain += ctx.style.seize * (seize_tokens(ctx, cell) if st.dev_type[cell] != NO_DEV else 0.3)
    return gain + 0.5 * ctx.style.seize * (ctx.seize_from(cell) - ctx.seize_from(here))


def _score_seize(ctx: _Ctx, verb: int, cell: int) -> float:
    """A seizure, by what the best of my units that could seize it may expect (its owner may
    send defenders: :func:`_seizer_value`)."""
    options = _cached(ctx, ("seizers", cell), lambda: seizers(ctx.state, ctx.me, cell))
    best = max((_seizer_value(ctx, s, cell) for s in options), default=-1.0)
    return best + (0.5 if ctx.state.dev_type[cell] != NO_DEV else 0.0)


def _seizer_value(ctx: _Ctx, s: int, cell: int) -> float:
    """Seizing ``cell`` with unit ``s``: its owner may defend with his units next to both (rules
    v2: a defender stops the seizure until it is defeated by attacks, so :func:`_guard_holds` is
    certain); the tokens of the seizure times its chance, and the occupation that may follow (a
    knight moves onto the seized hex if there is room)."""
    st = ctx.state
    t, h = st.u_type[s], st.u_cell[s]
    artillery_only = st.dev_type[cell] == NO_DEV
    # The owner weighs it as a greedy owner would (:func:`_piece_stake`).
    stake = 1.0 if artillery_only else seize_value(st, ctx.me, cell) + 0.5
    guards = guard_options(st, cell, h)
    outcome = guard_outcome([(_guard_holds(st, s, g), stake_value(st, g)) for g in guards], stake)
    _, p_seized, beaten = outcome
    tokens = 0.3 if artillery_only else seize_tokens(ctx, cell)
    v = ctx.style.seize * (p_seized * tokens + beaten)
    if t in LAND_TYPES and st.occ[cell] + 1 <= MAX_OCCUPANCY:
        v += p_seized * (0.05 + 0.5 * max(0.0, ctx.lasting_value(t, cell) - ctx.lasting_value(t, h)))
    return v


def _guard_holds(st: GameState, seizer: int, guard: int) -> float:
    """P(``guard`` stops ``seizer``'s seizure): certain under rules v2 ("the attacking player
    must first defeat all defenders", by attacks: no dice are rolled when it defends)."""
    return 1.0


def _score_breach(ctx: _Ctx, verb: int, cell: int) -> float:
    st = ctx.state
    x = ctx.board.neighbours[cell][verb - A.BREACH]
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
    return breach_prob(max(UNIT_COST[st.u_type[b]] for b in options)) * value


# ---------------------------------------------------------------------------- pending choices
def _cached(ctx: _Ctx, key: tuple, make: Callable[[], list[int]]) -> list[int]:
    """Units worked out once per decision (a choice's candidates, a hex's seizers)."""
    v = ctx.cache.get(key)
    if v is None:
        v = ctx.cache[key] = make()
    return v


def _chosen_unit(ctx: _Ctx, verb: int, cell: int) -> int:
    """The unit a "choose <type>" code names: of that type on that hex, among the candidates
    of the pending choice (``legal.pending_units``)."""
    st = ctx.state
    t = verb - A.CHOOSE
    options = _cached(ctx, ("pending",), lambda: pending_units(st))
    return next((u for u in options if st.u_cell[u] == cell and st.u_type[u] == t), -1)


def _score_attack_from(ctx: _Ctx, verb: int, cell: int) -> float:
    """The side my battle move enters from: the most flanking dice, and the fewest defenders
    able to step in (those next to both the side and the target), as its expected value; the
    first attack on a hex also sets its front for my next attacks (the feint). Where the side
    makes no difference, the one it reaches with the fewest movement points."""
    st = ctx.state
    pend, top = st.pending, st.active
    u = pend.unit
    stay = ctx.lasting_value(st.u_type[u], st.u_cell[u], st.u_where[u] == LOADED)
    r = _reach_of(ctx, u, top.move_left, True, not top.rode)
    return _battle_move_value(ctx, u, pend.cell, cell, stay) - 0.001 * r.cost.get(cell, 0)


def _score_choose(ctx: _Ctx, verb: int, cell: int) -> float:
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


def _piece_stake(ctx: _Ctx, cell: int, seizer_owner: int) -> float:
    """What my development (or artillery) on ``cell`` is worth against a seizure: the
    seizer's tokens (+3 if it is my last, his prisoners rescued) and its lasting value to me
    (the Builder count, production), weighed by my style."""
    st = ctx.state
    if st.dev_type[cell] == NO_DEV:
        return 1.0  # artillery: no tokens, but it would fire at me
    return seize_value(st, seizer_owner, cell) + 0.5 * ctx.style.dev


def _guard_loss(ctx: _Ctx, guard: int) -> float:
    """Tokens I expect to lose sending ``guard`` against the pending seizure: it fights the
    seizer; if it loses it is defeated and I choose again (:func:`guard_outcome`)."""
    st = ctx.state
    pend = st.pending
    seizer = pend.unit
    stake = _piece_stake(ctx, pend.cell, st.u_owner[seizer])
    others = [g for g in _cached(ctx, ("pending",), lambda: pending_units(st)) if g != guard]
    rest, _, _ = guard_outcome([(_guard_holds(st, seizer, g), stake_value(st, g)) for g in others], stake)
    return (1.0 - _guard_holds(st, seizer, guard)) * (stake_value(st, guard) + rest)


def _score_no_defence(ctx: _Ctx, verb: int, cell: int) -> float:
    """Letting the piece go: I lose its stake for sure (better than a hopeless defence)."""
    pend = ctx.state.pending
    return -_piece_stake(ctx, pend.cell, ctx.state.u_owner[pend.unit])


def _score_variant(ctx: _Ctx, verb: int, g: int) -> float:
    """Which of several unalike units (rules v2): the spent one defends, seizes or is
    discharged (keeping the upright ones able to act; a discharged unit's recruit stands
    upright); the unit already acting breaches; otherwise the freighter carrying the most."""
    st = ctx.state
    pend = st.pending
    k = g - A.VARIANT
    u = variant_options(st)[k][0]
    status = unit_status(st, u)
    parent = pend.parent.kind if pend.parent is not None else -1
    if parent == CHOOSE_BREACHER:
        return 1.0 if status == ACTING else -float(status)
    if parent >= 0 or A.DISCHARGE <= pend.extra < A.DISCHARGE + 3:
        return float(status)
    cargo = variant_features(st, u)[2:]
    return 0.1 * sum(cargo) - 0.001 * k


def _score_hold_prisoner(ctx: _Ctx, verb: int, cell: int) -> float:
    """Where my prisoner is held: the development farthest from other players' units (a
    seizure there would free it)."""
    st = ctx.state
    dist = ctx.board.dist[cell]
    near = min((dist[st.u_cell[u]] for u in range(st.n_units)
                if st.u_owner[u] != ctx.me and st.u_where[u] == ON_BOARD), default=9)
    return 0.1 * min(near, 9)


def _score_place_rescued(ctx: _Ctx, verb: int, cell: int) -> float:
    """Where my rescued knight stands: where it is worth most to me."""
    st = ctx.state
    return ctx.lasting_value(st.u_type[st.pending.unit], cell)


def _score_load(ctx: _Ctx, verb: int, g: int) -> float:
    """Setup: the style's favourite split of the starting knights over the two freighters."""
    return ctx.style.loads[g - A.LOAD]


# ---------------------------------------------------------------------------- activation
def _activation_unit(st: GameState, me: int, utype: int, cell: int) -> int:
    """The unit the engine activates for this code (the lowest-numbered eligible one)."""
    top = st.active
    for u in range(st.n_units):
        if (st.u_cell[u] == cell and st.u_type[u] == utype and st.u_owner[u] == me
                and st.u_where[u] in (ON_BOARD, LOADED) and not st.u_flags[u] & SPENT
                and (top is None or nested_ok(st, top.unit, u))):
            return u
    return -1


def _score_activate(ctx: _Ctx, verb: int, cell: int) -> float:
    """The best this unit can do with a move and an attack, over staying put."""
    st = ctx.state
    t = verb - A.ACTIVATE
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


def _unit_plan(ctx: _Ctx, u: int, t: int, cell: int, loaded: bool) -> float:
    st = ctx.state
    attack_left = ctx.battle and can_attack_from_here(st, u)
    stay = ctx.lasting_value(t, cell, loaded)
    best = stay + (ctx.gain_this_turn(t, cell, loaded) if attack_left else 0.0)
    r = _reach_of(ctx, u, UNIT_MOVEMENT[t], ctx.battle)
    is_sea = st.gmap.is_sea
    land_unit = t in LAND_TYPES
    best_stop = stay
    for c in r.stops:
        to_loaded = land_unit and is_sea[c]
        v = ctx.lasting_value(t, c, to_loaded)
        if v > best_stop:
            best_stop = v
        if ctx.battle and (not to_loaded or t == ARCHER):
            v += ctx.gain_this_turn(t, c, to_loaded)
        if v > best:
            best = v
    if attack_left and not loaded:
        a = ctx.gain_this_turn(t, cell, loaded)
        if a > 0:
            best = max(best, a + best_stop)  # attack first, then move
    if ctx.battle:
        targets = ctx.targets()
        for c in r.battles:
            if c in targets:
                best = max(best, _best_battle_move(ctx, u, c, r, UNIT_MOVEMENT[t], stay))
    return best - stay


def _freighter_plan(ctx: _Ctx, f: int) -> float:
    st = ctx.state
    if not st.cargo(f):
        return -0.05
    here = st.u_cell[f]
    now = _freighter_lasting_value(ctx, f, here)
    r = _reach_of(ctx, f, UNIT_MOVEMENT[FREIGHTER], False)
    return max([now] + [_freighter_lasting_value(ctx, f, c) for c in r.stops]) - now


# ---------------------------------------------------------------------------- building
def _builder_award_gain(ctx: _Ctx) -> float:
    """What one more development of mine is worth for the Builder award."""
    return ctx.award_delta(2, ((ctx.me, 1),))


def _complex_bonus(ctx: _Ctx, dev: int, cell: int) -> float:
    """Progress towards the Complex: 3 tokens if this completes it, part of it if the rest
    fits next to it (more if the gold for it is at hand)."""
    st, me = ctx.state, ctx.me
    if st.awards[me] & COMPLEX:
        return 0.0
    need = {CAMP, FORT, CASTLE} - {dev}
    have: dict[int, list[int]] = {}
    for x in ctx.info.nb[cell]:
        if st.dev_owner[x] == me and st.dev_type[x] in need:
            have.setdefault(st.dev_type[x], []).append(x)
    if len(have) == 2:
        return 3.0
    for t1, xs in have.items():  # a chain cell - x - y is a connected triple too
        other = (need - {t1}).pop()
        for x in xs:
            for y in ctx.info.nb[x]:
                if y != cell and st.dev_owner[y] == me and st.dev_type[y] == other:
                    return 3.0
    missing = [t for t in need if t not in have]
    room = sum(1 for x in ctx.info.nb[cell] if ctx.info.is_land[x] and st.dev_type[x] == NO_DEV
               and st.cell_player[x] in (-1, me))
    if room < len(missing):
        return 0.0
    if st.gold[me] - DEV_COST[dev] >= sum(DEV_COST[t] for t in missing):
        return 3.0 * (0.7 if len(missing) == 1 else 0.55)
    if ctx.my_turns_left > 0:
        return 3.0 * (0.35 if len(missing) == 1 else 0.25)
    return 0.0


def _new_dev_exposure(ctx: _Ctx, cell: int) -> float:
    key = ("newdev", cell)
    e = ctx.cache.get(key)
    if e is not None:
        return e
    e = ctx.cache[key] = _new_dev_exposure_calc(ctx, cell)
    return e


def _new_dev_exposure_calc(ctx: _Ctx, cell: int) -> float:
    e = 0.0
    g = ctx.guards(ctx.me)
    for th in ctx.threats:
        e = max(e, seize_exposure(ctx.state, ctx.info, cell, ctx.me, th, g))
    if ctx.threats:
        e = max(e, ctx.tables()[2][cell])
    return e


def _score_build_dev(ctx: _Ctx, verb: int, cell: int) -> float:
    st, style = ctx.state, ctx.style
    dev = verb - A.BUILD_DEV + 1
    v = _builder_award_gain(ctx) * style.dev
    v += style.complex * _complex_bonus(ctx, dev, cell)
    if not ctx.my_devs:
        v += style.first_camp
    if ctx.my_turns_left > 0:
        if dev == CASTLE and not any(st.dev_type[c] == CASTLE for c in ctx.my_devs):
            v += 0.4 * style.units  # a castle raises production to 3 units a turn
        if ctx.info.coastal[cell] and not any(ctx.info.coastal[c] for c in ctx.my_devs):
            v += 0.3  # ships may be built
    # Exposure: a development is a gift to whoever can seize it.
    worth = DEV_COST[dev] + (LAST_DEVELOPMENT_BONUS if not ctx.my_devs else 0) + 1.0
    v -= style.dev_safety * _new_dev_exposure(ctx, cell) * worth
    v -= 0.15 * DEV_COST[dev]  # cheaper developments leave gold for more
    if dev == CASTLE and ctx.threats:
        v -= 0.3  # a castle hex holds no defender
    return v


def _score_build_unit(ctx: _Ctx, verb: int, cell: int) -> float:
    st, style = ctx.state, ctx.style
    t = verb - A.BUILD_UNIT
    if style.unit_pref[t] <= 0:
        return -1.0
    loaded = t in LAND_TYPES and bool(st.gmap.is_sea[cell])
    now = 0.5 * ctx.gain_this_turn(t, cell, loaded) if st.silver[ctx.me] >= UNIT_COST[t] else 0.0
    if not ctx.future:
        return now - 0.12 * UNIT_COST[t] - 0.3  # the game ends before it could matter
    v = ctx.lasting_value(t, cell, loaded) + now
    return style.units * style.unit_pref[t] * (0.3 + v) - 0.12 * UNIT_COST[t]


def _score_build_wall(ctx: _Ctx, verb: int, cell: int) -> float:
    st, style, me = ctx.state, ctx.style, ctx.me
    if style.walls <= 0:
        return -0.5
    board = ctx.board
    d = verb - A.BUILD_WALL
    edge = board.edge[cell][d]
    other = board.neighbours[cell][d]
    v = 0.0
    mine = st.dev_owner[cell] == me or (other >= 0 and st.dev_owner[other] == me)
    joins = edge in ctx.wall_extensions()
    if not mine and not joins:
        return style.walls * 0.1 - 0.5 if ctx.wall_length() == 0 else -0.5
    if not st.awards[me] & GREAT_WALL:
        length = ctx.wall_length()
        if joins or length == 0:
            v += 1.0 if length + 1 >= 5 else 0.22 * (length + 1)
    if not st.awards[me] & CITADEL and joins and may_close_enclosure(st, me, edge):
        v += _enclosed_by(st, me, edge)
    for a, b in ((cell, other), (other, cell)):
        if a >= 0 and st.dev_owner[a] == me:
            if b < 0:
                v += 0.05
            elif st.cell_player[b] != me:
                v += 0.35 * ctx.exposure(a) + 0.1 * DEV_COST[st.dev_type[a]]
    return style.walls * v - 0.35


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


def _score_discharge(ctx: _Ctx, verb: int, cell: int) -> float:
    """Discharge and recruit: a knight that is no use where it is comes back next to one of
    my developments."""
    st = ctx.state
    t = LAND_TYPES[verb - A.DISCHARGE]
    here = ctx.lasting_value(t, cell, bool(st.gmap.is_sea[cell]))
    sites = ctx.unit_sites(t)
    if not sites or not ctx.future:
        return -1.0
    best = max(ctx.lasting_value(t, c, bool(st.gmap.is_sea[c])) for c in sites)
    return best - here - 0.4


def _score_recruit(ctx: _Ctx, verb: int, cell: int) -> float:
    st = ctx.state
    t = st.recruit_type
    loaded = bool(st.gmap.is_sea[cell])
    return ctx.lasting_value(t, cell, loaded) + 0.5 * ctx.gain_this_turn(t, cell, loaded)


# ---------------------------------------------------------------------------- placement
def _score_place(ctx: _Ctx, verb: int, cell: int) -> float:
    """Ships go next to free land (developments may be built beside them, knights step
    ashore), spread out, freighters and the galleon first."""
    st, info, me = ctx.state, ctx.info, ctx.me
    t = 3 + verb - A.PLACE
    free_land = [x for x in info.shore[cell] if st.cell_player[x] < 0]
    if t == FREIGHTER:
        v = 1.0 * min(len(free_land), 3) + 0.5
        behind = set()
        for y in free_land:
            for dd, x in info.land_order[y]:
                if dd > 2:
                    break
                behind.add(x)
        v += 0.08 * len(behind) + 0.6
    else:
        v = 0.5 * min(len(free_land), 3) + (0.6 if t == GALLEON else 0.0)
    dist = ctx.board.dist[cell]
    near = 10
    for u in range(st.n_units):
        if st.u_where[u] != ON_BOARD:
            continue
        dd = dist[st.u_cell[u]]
        if st.u_owner[u] == me:
            v -= (1.0, 0.5, 0.15)[dd] if dd <= 2 else 0.0
        elif dd < near:
            near = dd
    # Aggressors like other players close, builders keep away.
    return v + (ctx.style.approach - 0.35) * (1.0 if near <= 2 else 0.0)


_SCORERS = {
    "place": _score_place, "build_unit": _score_build_unit, "build_artillery": _score_never,
    "build_dev": _score_build_dev, "build_wall": _score_build_wall,
    "relocate_wall": _score_never, "breach": _score_breach, "activate": _score_activate,
    "move": _score_move, "move_artillery": _score_never, "attack": _score_attack,
    "fire": _score_attack, "occupy": _score_occupy, "seize": _score_seize,
    "discharge": _score_discharge, "recruit": _score_recruit, "end_activation": _score_end_activation,
    "end_turn": _score_end_turn, "shoot": _score_attack, "attack_from": _score_attack_from,
    "choose": _score_choose, "no_defence": _score_no_defence, "load": _score_load,
    "variant": _score_variant, "hold_prisoner": _score_hold_prisoner, "place_rescued": _score_place_rescued,
}


_BUILD_GROUPS = frozenset({"build_unit", "build_artillery", "build_dev", "build_wall", "relocate_wall",
                           "discharge"})


def _WAIT(ctx: _Ctx, verb: int, cell: int) -> float:
    return -0.2


def aggressor(seed: int | None = None) -> HeuristicAgent:
    return HeuristicAgent(AGGRESSOR, seed)


def builder(seed: int | None = None) -> HeuristicAgent:
    return HeuristicAgent(BUILDER, seed)


def greedy(seed: int | None = None) -> HeuristicAgent:
    return HeuristicAgent(GREEDY, seed)
