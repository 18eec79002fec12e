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
from collections.abc import Callable

from vigtavl_env.agent import EngineAgent
from vigtavl_env.engine.actions import N_HEX_VERBS, SEIZE
from vigtavl_env.engine.state import GameState, LOADED, ON_BOARD, active_of

from ..tactics.maps import map_info as shared_map_info
from ..tactics import (
    GLOBAL_GROUPS, VERB_GROUP, MapInfo, Recent, Threats, approach_risk, battle_turns_left, target_field, threats_of,
)
from .attacks import score_attack, score_breach
from .building import score_build_dev, score_build_unit, score_build_wall, score_discharge, score_recruit
from .context import Context, Weights
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
        self.weights = Weights(style)  # the same, as C doubles for the scorers
        self.name = style.name
        self.rng = random.Random(seed)
        self._maps: dict[int, tuple] = {}  # id(map) -> (the map, its tables)
        kept = _KEPT if remember_scores else _PLAIN_KEPT
        self._threat_cache = Recent(kept)
        self._table_cache = Recent(kept)
        self._pos = Recent(_KEPT) if remember_scores else None  # positions' caches (a search's bots)
        self._scores = Recent(_SCORES_KEPT) if remember_scores else None

    def decide(self, state: GameState, legal: list[int]) -> int:
        """The best-scoring legal code (the only one, at once): the same pick as
        ``max(self.scored(state, legal))[1]``, without making the list of pairs."""
        if len(legal) == 1:
            return legal[0]
        return _best_code(self._values(state, legal), legal, self.style.noise, self.rng.random)

    def scored(self, state: GameState, legal: list[int]) -> list[tuple[float, int]]:
        """``(score, code)`` for every legal code, in the order of ``legal`` (scores include
        the style's small noise)."""
        values = self._values(state, legal)
        noise = self.style.noise
        rnd = self.rng.random
        return [(values[i] + noise * rnd(), legal[i]) for i in range(len(legal))]

    def _values(self, state: GameState, legal: list[int]) -> array:
        """The scores of ``legal`` without the noise (a search's bot remembers them by state)."""
        info = self.map_info(state)
        if self._scores is None:
            return _score_all(self, state, legal, info)
        return self._scores.get((state_key(state), tuple(legal)), lambda: _score_all(self, state, legal, info))

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
            enemy.append((state.u_cell[u] * _PACK + state.u_where[u]) * _PACK + state.u_type[u])
    return (id(state.gmap), me, state.turns_played, state.phase, state.wind, tuple(enemy),
            bytes(state.dev_owner))


# A unit's place and type are each below 8: with its hex, one int in the signature.
_PACK = 8

# Positions (and threat tables) and states remembered per bot: the search bot's simulations of
# one decision come back to the same few positions and states again and again.
_KEPT = 64
# A plain game comes back to a position only while a decision leaves the pieces where they
# stand, so it keeps the last one alone. Keeping 64 there cost time: the kept tables outlive
# the young generations of the garbage collector and trigger full collections, which walk
# every object of the process (torch's included): 16% of the vector env's time against
# greedy, -21% with one kept (docs/changelog.md).
_PLAIN_KEPT = 1


_SCORES_KEPT = 256
_DOUBLE_SIZE = array("d").itemsize  # bytes


def state_key(state: GameState) -> tuple:
    """Everything in ``state`` a score may read, hashable (``GameState.score_key``). The map
    goes by identity: a bot keeps every map it has seen (:meth:`HeuristicAgent.map_info`), so no
    other map can take its id."""
    return (id(state.gmap), state.score_key())


def _best_code(values: array, legal: list[int], noise: float, rnd: Callable[[], float]) -> int:
    """The code of the best (score + noise * rnd(), code) pair, compared as max() compares the
    pairs (the score first, then the code), one rnd() per code in order, as in ``scored``."""
    vals = values  # its C doubles, in the compiled build
    r = rnd()  # a C double, so that the sum below is C arithmetic
    best = vals[0] + noise * r
    best_code = legal[0]
    for i in range(1, len(legal)):
        r = rnd()
        s = vals[i] + noise * r
        code = legal[i]
        if s > best or (s == best and code > best_code):
            best = s
            best_code = code
    return best_code


def _score_all(agent: HeuristicAgent, state: GameState, legal: list[int], info: MapInfo) -> array:
    """The scores of ``legal`` without the noise, in its order, as a C array of doubles: a
    search remembers many states' scores, and arrays are no work for the garbage collector (a
    list of tuples per state set off its collections, a tenth of a search bot's time).

    One :class:`Context` serves every code; each code goes to its verb group's scorer
    (:func:`_score_code`)."""
    ctx = Context(agent, state, info)
    n = info.n
    top = N_HEX_VERBS * n
    count = len(legal)
    values = array("d", bytes(_DOUBLE_SIZE * count))  # zeros
    out = values  # its C doubles, in the compiled build
    # The hexes seizable now without moving anything (a move's seizures leave them out).
    free = set()
    first = SEIZE * n
    for i in range(count):
        code = legal[i]
        if first <= code < first + n:
            free.add(code - first)
    ctx.free_seizes = free
    # While a unit acts, building waits until its activation is over (it stays possible).
    busy = active_of(state) is not None
    for i in range(count):
        code = legal[i]
        if code >= top:
            out[i] = _score_code(ctx, _GLOBAL_SCORER[code - top], -1, code - top)
        else:
            verb = code // n
            kind = _WAIT if busy and _WAITS_WHILE_BUSY[verb] else _HEX_SCORER[verb]
            out[i] = _score_code(ctx, kind, verb, code - verb * n)
    return values


# The scorer kinds, by number: every verb group (agents.tactics.codes.GROUPS) goes to one
# (_SCORER_OF_GROUP), and _score_code calls the kind's scorer. Two kinds are a fixed score.
_PLACE = 0  # a unit placed in the setup: placement.score_place
_BUILD_UNIT = 1  # building.score_build_unit
_BUILD_DEV = 2  # a development built: building.score_build_dev
_BUILD_WALL = 3  # building.score_build_wall
_NEVER = 4  # artillery built or moved, a wall relocated: _NEVER_SCORE
_BREACH = 5  # a wall breached: attacks.score_breach
_ACTIVATE = 6  # a unit activated: movement.score_activate
_MOVE = 7  # the active unit moved: movement.score_move
_ATTACK = 8  # attack, fire, shoot: attacks.score_attack
_OCCUPY = 9  # a hex occupied after a battle: seizures.score_occupy
_SEIZE = 10  # seizures.score_seize
_DISCHARGE = 11  # a freighter unloaded: building.score_discharge
_RECRUIT = 12  # building.score_recruit
_ATTACK_FROM = 13  # the side an attack comes from: movement.score_attack_from
_CHOOSE = 14  # who defends, or which unit acts: seizures.score_choose
_HOLD_PRISONER = 15  # seizures.score_hold_prisoner
_PLACE_RESCUED = 16  # a rescued unit placed: seizures.score_place_rescued
_END_ACTIVATION = 17  # movement.score_end_activation
_END_TURN = 18  # movement.score_end_turn
_NO_DEFENCE = 19  # seizures.score_no_defence
_LOAD = 20  # a freighter's load chosen in the setup: placement.score_load
_VARIANT = 21  # which of the unalike units acts: placement.score_variant
_WAIT = 22  # a building verb while a unit acts: _WAIT_SCORE
# The fixed scores. Building waits for the end of an activation: below ending the turn with a
# unit active (-0.05, movement.score_end_turn), so the bot ends the activation first and builds
# after it. What the heuristic never does scores below that.
_WAIT_SCORE = -0.2
_NEVER_SCORE = -1.0
_SCORER_OF_GROUP = {
    "place": _PLACE, "build_unit": _BUILD_UNIT, "build_artillery": _NEVER, "build_dev": _BUILD_DEV,
    "build_wall": _BUILD_WALL, "relocate_wall": _NEVER, "breach": _BREACH, "activate": _ACTIVATE, "move": _MOVE,
    "move_artillery": _NEVER, "attack": _ATTACK, "fire": _ATTACK, "occupy": _OCCUPY, "seize": _SEIZE,
    "discharge": _DISCHARGE, "recruit": _RECRUIT, "shoot": _ATTACK, "attack_from": _ATTACK_FROM,
    "choose": _CHOOSE, "hold_prisoner": _HOLD_PRISONER, "place_rescued": _PLACE_RESCUED,
    "end_activation": _END_ACTIVATION, "end_turn": _END_TURN, "no_defence": _NO_DEFENCE, "load": _LOAD,
    "variant": _VARIANT,
}
# Building while a unit acts waits (_WAIT) for the end of its activation.
_BUILD_GROUPS = frozenset({"build_unit", "build_artillery", "build_dev", "build_wall", "relocate_wall",
                           "discharge"})
# Per hex verb and per global verb, as bytes (read as C chars in the compiled build).
_HEX_SCORER = bytes(_SCORER_OF_GROUP[g] for g in VERB_GROUP)
_WAITS_WHILE_BUSY = bytes(g in _BUILD_GROUPS for g in VERB_GROUP)
_GLOBAL_SCORER = bytes(_SCORER_OF_GROUP[g] for g in GLOBAL_GROUPS)


def _score_code(ctx: Context, kind: int, verb: int, cell: int) -> float:
    """One code's score by its group's scorer (``cell``: a global verb's number). The most
    frequent groups come first."""
    if kind == _BUILD_WALL:
        return score_build_wall(ctx, verb, cell)
    if kind == _WAIT:
        return _WAIT_SCORE
    if kind == _BUILD_DEV:
        return score_build_dev(ctx, verb, cell)
    if kind == _BUILD_UNIT:
        return score_build_unit(ctx, verb, cell)
    if kind == _PLACE:
        return score_place(ctx, verb, cell)
    if kind == _NEVER:
        return _NEVER_SCORE
    if kind == _MOVE:
        return score_move(ctx, verb, cell)
    if kind == _ACTIVATE:
        return score_activate(ctx, verb, cell)
    if kind == _DISCHARGE:
        return score_discharge(ctx, verb, cell)
    if kind == _END_TURN:
        return score_end_turn(ctx, verb, cell)
    if kind == _END_ACTIVATION:
        return score_end_activation(ctx, verb, cell)
    if kind == _ATTACK:
        return score_attack(ctx, verb, cell)
    if kind == _RECRUIT:
        return score_recruit(ctx, verb, cell)
    if kind == _SEIZE:
        return score_seize(ctx, verb, cell)
    if kind == _BREACH:
        return score_breach(ctx, verb, cell)
    if kind == _OCCUPY:
        return score_occupy(ctx, verb, cell)
    if kind == _ATTACK_FROM:
        return score_attack_from(ctx, verb, cell)
    if kind == _CHOOSE:
        return score_choose(ctx, verb, cell)
    if kind == _NO_DEFENCE:
        return score_no_defence(ctx, verb, cell)
    if kind == _LOAD:
        return score_load(ctx, verb, cell)
    if kind == _VARIANT:
        return score_variant(ctx, verb, cell)
    if kind == _HOLD_PRISONER:
        return score_hold_prisoner(ctx, verb, cell)
    return score_place_rescued(ctx, verb, cell)


def aggressor(seed: int | None = None) -> HeuristicAgent:
    """The aggressor bot."""
    return HeuristicAgent(AGGRESSOR, seed)


def builder(seed: int | None = None) -> HeuristicAgent:
    """The builder bot."""
    return HeuristicAgent(BUILDER, seed)


def greedy(seed: int | None = None) -> HeuristicAgent:
    """The greedy bot."""
    return HeuristicAgent(GREEDY, seed)
