"""The heuristic bot (:class:`HeuristicAgent`): every legal decision scored in victory tokens,
the best one played.

A score is what the decision wins now plus how much better the position is for the turns to
come. The scorers live by what they judge (``movement``, ``attacks``, ``seizures``,
``building``, ``placement``); this module dispatches each verb group of the legal codes to its
scorer over one :class:`~agents.heuristic.context.Context`, adds the style's small random
tie-break, and keeps the caches that outlive a decision (threat and target tables, positions,
and, for the search bot's simulations, whole states' scores).
"""

from __future__ import annotations

import random
from array import array

from vigtavl_env.agent import EngineAgent
from vigtavl_env.engine.state import GameState, LOADED, ON_BOARD

from ..tactics.maps import map_info as shared_map_info
from ..tactics import (
    MapInfo, Recent, Threats, approach_risk, battle_turns_left, split_legal, target_field, threats_of,
)
from .attacks import score_attack, score_breach
from .building import score_build_dev, score_build_unit, score_build_wall, score_discharge, score_recruit
from .context import Context
from .movement import score_activate, score_attack_from, score_end_activation, score_end_turn, score_move
from .placement import score_load, score_place, score_variant
from .seizures import (
    score_choose, score_hold_prisoner, score_no_defence, score_occupy, score_place_rescued, score_seize,
)
from .styles import AGGRESSOR, BUILDER, GREEDY, Style


class HeuristicAgent(EngineAgent):
    """A rules-based bot; its :class:`Style` decides what it values.

    ``remember_scores``: keep the scores of the last states scored, and the tables of the last
    :data:`_KEPT` positions. Only a search's simulations meet the same states and positions
    again; a plain game keeps its current threat and target tables alone (:data:`_PLAIN_KEPT`)
    and works out each decision's position values afresh.
    """

    def __init__(self, style: Style = GREEDY, seed: int | None = None,
                 remember_scores: bool = False) -> None:
        super().__init__()
        self.style = style
        self.name = style.name
        self.rng = random.Random(seed)
        self._maps: dict[int, tuple] = {}  # id(map) -> (the map, its tables)
        kept = _KEPT if remember_scores else _PLAIN_KEPT
        self._threat_cache = Recent(kept)
        self._table_cache = Recent(kept)
        self._pos = Recent(_KEPT) if remember_scores else None  # positions' caches (a search's bots)
        self._scores = Recent(_SCORES_KEPT) if remember_scores else None

    def decide(self, state: GameState, legal: list[int]) -> int:
        """The best-scoring legal code (the only one, at once)."""
        if len(legal) == 1:
            return legal[0]
        return max(self.scored(state, legal))[1]

    def scored(self, state: GameState, legal: list[int]) -> list[tuple[float, int]]:
        """``(score, code)`` for every legal code (scores include the style's small noise)."""
        info = self.map_info(state)
        if self._scores is None:
            codes, values = self._score_all(state, legal, info)
        else:
            codes, values = self._scores.get((state_key(state), tuple(legal)),
                                             lambda: self._score_all(state, legal, info))
        noise = self.style.noise
        rnd = self.rng.random
        return [(values[i] + noise * rnd(), codes[i]) for i in range(len(codes))]

    def _score_all(self, state: GameState, legal: list[int], info: MapInfo) -> tuple[array, array]:
        """The legal codes in the order they are scored (by verb group) and their scores without
        the noise, as two C arrays: a search remembers many states' scores, and arrays are no
        work for the garbage collector, where a list of (score, code) tuples per state set off
        its collections (a tenth of a search bot's time)."""
        ctx = Context(self, state, info)
        codes: list[int] = []
        values: list[float] = []
        groups = split_legal(legal, info.n)
        ctx.free_seizes = {cell for _, cell, _ in groups.get("seize", ())}
        # While a unit acts, building waits until its activation is over (it stays possible).
        busy = state.active is not None
        for g, items in groups.items():
            fn = _wait if busy and g in _BUILD_GROUPS else _SCORERS[g]
            for verb, cell, code in items:
                values.append(fn(ctx, verb, cell))
                codes.append(code)
        return array("q", codes), array("d", values)

    def position_value(self, state: GameState, player: int) -> float:
        """The lasting value (the style's unit values) of everything ``player`` has on the board:
        guards, pull towards targets, risk. The search bot adds it to its evaluation."""
        info = self.map_info(state)
        ctx = Context(self, state, info, me=player)
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
        """The tables of ``state``'s map (shared by the process's bots for equal maps). The bot
        keeps each map it has met alive, so no other map can take its ``id`` (:func:`state_key`)."""
        kept = self._maps.get(id(state.gmap))
        if kept is None or kept[0] is not state.gmap:
            kept = self._maps[id(state.gmap)] = (state.gmap, shared_map_info(state.gmap))
        return kept[1]

    # ------------------------------------------------------------ caches across decisions
    @staticmethod
    def _signature(state: GameState, me: int) -> tuple:
        """What the threat and target tables depend on: other players' pieces and who owns
        which development (my own moves do not change them)."""
        return signature(state, me)

    def _position_cache(self, state: GameState, sig: tuple) -> dict:
        """A cache for values that depend only on where every piece and wall stands (and on
        ``sig``); each position has its own, and a search's bots keep the last few. A plain
        game's bot starts a new one at each decision: it meets the same position again at 7% of
        its decisions (greedy against aggressor), which does not pay for the key."""
        if self._pos is None:
            return {}
        key = (sig, state.pieces_key(), state.retaliator, len(state.stack))
        return self._pos.get(key, dict)

    def _threats(self, state: GameState, info: MapInfo, me: int, sig: tuple) -> list[Threats]:
        return self._threat_cache.get(sig, lambda: [
            threats_of(state, info, q) for q in range(state.n_players)
            if q != me and battle_turns_left(state, q) > 0])

    def _tables(self, state: GameState, info: MapInfo, me: int, sig: tuple) -> tuple:
        def make() -> tuple:
            land, sea = target_field(state, info, me)
            return land, sea, approach_risk(state, info, me)
        return self._table_cache.get(sig, make)


def signature(state: GameState, me: int) -> tuple:
    """:meth:`HeuristicAgent._signature`'s key: the other players' pieces (hex, place and type:
    a cache kept over several games must not mistake one unit for another), the turn, the
    winds and who owns which development."""
    enemy = []
    for u in range(state.n_units):
        if state.u_owner[u] != me:
            enemy.append((state.u_cell[u] * 8 + state.u_where[u]) * 8 + state.u_type[u])
    return (id(state.gmap), me, state.turns_played, state.phase, state.wind, tuple(enemy),
            bytes(state.dev_owner))


# Positions (and threat tables) and states remembered per bot: the search bot's simulations of
# one decision come back to the same few positions and states again and again.
_KEPT = 64
# A plain game comes back to a position only while a decision leaves the pieces where they
# stand, so it keeps the last one alone. Keeping 64 there cost time: the kept tables outlive
# the young generations of the garbage collector and trigger full collections, which walk
# every object of the process (torch's included): 16% of the vector env's time against
# greedy, -21% with one kept (docs/benchmarks.md).
_PLAIN_KEPT = 1


_SCORES_KEPT = 256


def state_key(state: GameState) -> tuple:
    """Everything in ``state`` a score may read, hashable (``GameState.score_key``). The map
    goes by identity: a bot keeps every map it has seen (:meth:`HeuristicAgent.map_info`), so no
    other map can take its id."""
    return (id(state.gmap), state.score_key())


def _never(ctx: Context, verb: int, cell: int) -> float:
    """Verbs the heuristic never plays: artillery (building, moving) and relocating a wall."""
    return -1.0


_SCORERS = {
    "place": score_place, "build_unit": score_build_unit, "build_artillery": _never,
    "build_dev": score_build_dev, "build_wall": score_build_wall,
    "relocate_wall": _never, "breach": score_breach, "activate": score_activate,
    "move": score_move, "move_artillery": _never, "attack": score_attack,
    "fire": score_attack, "occupy": score_occupy, "seize": score_seize,
    "discharge": score_discharge, "recruit": score_recruit, "end_activation": score_end_activation,
    "end_turn": score_end_turn, "shoot": score_attack, "attack_from": score_attack_from,
    "choose": score_choose, "no_defence": score_no_defence, "load": score_load,
    "variant": score_variant, "hold_prisoner": score_hold_prisoner, "place_rescued": score_place_rescued,
}


_BUILD_GROUPS = frozenset({"build_unit", "build_artillery", "build_dev", "build_wall", "relocate_wall",
                           "discharge"})


def _wait(ctx: Context, verb: int, cell: int) -> float:
    """Building while a unit acts: left for after its activation (it stays possible)."""
    return -0.2


def aggressor(seed: int | None = None) -> HeuristicAgent:
    """The aggressor bot."""
    return HeuristicAgent(AGGRESSOR, seed)


def builder(seed: int | None = None) -> HeuristicAgent:
    """The builder bot."""
    return HeuristicAgent(BUILDER, seed)


def greedy(seed: int | None = None) -> HeuristicAgent:
    """The greedy bot."""
    return HeuristicAgent(GREEDY, seed)
