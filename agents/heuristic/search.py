"""Search bot: the heuristic's best few decisions, each tried in simulated futures.

At a decision with a real choice, the bot takes the ``top_k`` candidates its heuristic policy
(the greedy style) ranks highest, leaving out those it scores below ``min_score`` (building
while a unit acts, which the policy leaves for later, and verbs it never plays). For each one it
simulates the rest of the current turn on a clone of the engine state: the candidate, then the
heuristic policy for every later decision (the opponents' retaliations included), cut short
after ``max_steps`` decisions; then the next player's whole turn, played by ``reply_style`` (the
aggressor by default: it takes whatever I left exposed, so a plan is judged by the answer it
invites, not only by the static threat terms). Then :func:`agents.tactics.evaluate` scores the
position (tokens, the end awards as they stand, what each side threatens to seize or defeat on
its next turn, gold and silver still to spend), plus the policy's value of my units' positions.

Dice are the chance nodes: every simulation reseeds the clone's dice stream (``state.rng``), and
all candidates of one round share the seed (common random numbers), so they are compared on the
same luck. Simulations are spread over the candidates by successive halving (equal rounds, then
the better half goes on); the last candidate standing is played. A few simulations are noisy, so
the policy's own scores count too (``prior``): a candidate it ranks lower must win the
simulations by that margin.

Decisions out of turn (rules v1): the bot is asked for every decision of its seat, whoever's
turn it is: who defends its attacked hex or its development about to be seized, its
retaliation. Nothing here assumes the deciding player is the turn's player: "me" is the player
asked now, a simulation plays the rest of the current turn (whoever's it is) and then the next
one, and every decision in a simulation, a pending choice of another player included, goes to
the policy of the player asked (mine for me, the rollout or reply policy for the others).

Pending choices (the side of a battle move, who defends, breaches or seizes) are answered by
the policy without simulating: its scores are the exact odds of the dice (expected tokens lost
or won), which a few dice-rolled simulations would only blur. Candidates ``proposed`` by another
policy are still searched there.

Budget: ``iterations`` simulations per decision at most (``search:200``), optionally capped by
``ms`` milliseconds (``search:50ms``). A decision with one legal code is answered at once, as
are the setup (freighter loads, placement), pending choices, and decisions where the policy's
best candidate stands ``clear_gap`` tokens ahead of the next. The default (8 simulations, 4 candidates, the next player's turn
simulated) decides in about 50-60 ms on average on the duel map: about 5-5.5 s for a whole
2-player game against a heuristic bot on the project's 2-core machine (one game per core; the
heuristic remembers the positions and scores the simulations meet again).
"""

from __future__ import annotations

import random
import time
from collections.abc import Sequence

from vigtavl_env.engine import apply_action, legal_actions
from vigtavl_env.engine.state import PLACEMENT, GameState

from vigtavl_env.agent import EngineAgent
from .agent import HeuristicAgent
from .styles import AGGRESSOR, GREEDY, Style
from ..tactics import DEFAULT_EVAL, Evaluation, MapInfo, evaluate

DEFAULT_ITERATIONS = 8
# ppo-search's simulations per decision: with the network's pass and the candidates it adds, 5
# keep its CPU per decision within the search bot's at 8 (docs/changelog.md, "With search at decision time")
PPO_SEARCH_ITERATIONS = 5
MASK64 = (1 << 64) - 1


class SearchAgent(EngineAgent):
    """Rollout search over the policy's top candidates (see the module docstring).

    Args:
        iterations: simulations per decision at most.
        ms: optional time limit per decision in milliseconds.
        top_k: candidates taken from the policy.
        clear_gap: a best candidate ahead of the second by this many tokens is played at once.
        max_steps: decisions simulated after the candidate at most (the turn usually ends first).
        position_weight: weight of the policy's value of my units' positions in the evaluation.
        prior: weight of the policy's own scores (a candidate it ranks lower must win the
            simulations by that much more).
        min_score: candidates the policy scores below this are dropped (building while a unit
            acts, which the policy leaves for later, and verbs it never plays).
        style: the heuristic policy used for candidates and for my decisions in the simulations.
        reply_style: the policy that plays the next player's turn in the simulations (None:
            stop at the end of my turn).
        reply_steps: decisions simulated in the next player's turn at most.
        evaluation: the weights of :func:`agents.tactics.evaluate`.
    """

    name = "search"

    def __init__(self, iterations: int = DEFAULT_ITERATIONS, ms: float | None = None,
                 top_k: int = 4, clear_gap: float = 1.0, max_steps: int = 10,
                 position_weight: float = 1.0, prior: float = 1.0, min_score: float = -0.1,
                 style: Style = GREEDY, reply_style: Style | None = AGGRESSOR,
                 reply_steps: int = 16,
                 evaluation: Evaluation = DEFAULT_EVAL, seed: int | None = None) -> None:
        super().__init__()
        if iterations < 1:
            raise ValueError(f"search needs at least 1 iteration, got {iterations}")
        self.iterations = iterations
        self.ms = ms
        self.top_k = top_k
        self.clear_gap = clear_gap
        self.max_steps = max_steps
        self.position_weight = position_weight
        self.prior = prior
        self.rng = random.Random(seed)
        # Simulations revisit states: the policies remember their scores.
        self.policy = HeuristicAgent(style, seed=None if seed is None else seed + 1,
                                     remember_scores=True)
        self.rollout_policy = HeuristicAgent(style, seed=None if seed is None else seed + 2,
                                             remember_scores=True)
        self.min_score = min_score
        self.reply_steps = reply_steps
        self.reply_policy = None if reply_style is None else HeuristicAgent(
            reply_style, seed=None if seed is None else seed + 3, remember_scores=True)
        self.evaluation = evaluation
        self.simulations = 0  # total simulations run (for budget checks)
        self.last_simulations = 0

    def reset(self, seat: int, seed: int | None = None) -> None:
        super().reset(seat, seed)
        self.policy.rng = random.Random(None if seed is None else seed + 1)
        self.rollout_policy.rng = random.Random(None if seed is None else seed + 2)
        if self.reply_policy is not None:
            self.reply_policy.rng = random.Random(None if seed is None else seed + 3)

    def map_info(self, state: GameState) -> MapInfo:
        return self.policy.map_info(state)

    def decide(self, state: GameState, legal: list[int]) -> int:
        return self.choose(state, legal)

    def choose(self, state: GameState, legal: list[int], proposed: Sequence[int] = ()) -> int:
        """The decision, searching the policy's top candidates plus ``proposed`` ones.

        ``proposed`` (engine codes in ``legal``) come from another policy, such as a trained
        network (:class:`agents.heuristic.ppo_search.PPOSearchAgent`): they join the candidates whatever the
        heuristic scores them, and without the ``prior`` handicap, so the simulations alone judge
        them against the heuristic's favourites.
        """
        self.last_simulations = 0
        if len(legal) == 1:
            return legal[0]
        if state.phase == PLACEMENT or (state.pending is not None and not proposed):
            return self.policy.decide(state, legal)
        scored = sorted(self.policy.scored(state, legal), reverse=True)
        ranked = [r for r in scored[: self.top_k] if r[0] >= self.min_score] or scored[:1]
        cands = [c for _, c in ranked]
        policy_score = {c: s for s, c in ranked}
        top = ranked[0][0]
        extra = [c for c in dict.fromkeys(proposed) if c not in policy_score]
        if not extra and (len(cands) == 1 or top - ranked[1][0] >= self.clear_gap):
            return cands[0]
        for c in extra:
            policy_score[c] = top
        return self._search(state, cands + extra, legal, policy_score)

    def _search(self, state: GameState, cands: list[int], legal: list[int],
                policy_score: dict[int, float]) -> int:
        me = state.current_player  # the player asked: maybe not the turn's player
        info = self.map_info(state)
        deadline = None if self.ms is None else time.perf_counter() + self.ms / 1000.0
        total = {c: 0.0 for c in cands}
        count = {c: 0 for c in cands}
        alive = list(cands)
        budget = self.iterations
        used = 0
        # Successive halving: equal rounds over the survivors, then drop the worse half.
        top = policy_score[cands[0]]

        def mean(c: int) -> float:
            if not count[c]:
                return -1e9
            return total[c] / count[c] + self.prior * (policy_score[c] - top)

        while used < budget and len(alive) > 1:
            rounds = max(1, (budget - used) // (len(alive) * max(1, _halvings(len(alive)))))
            for _ in range(rounds):
                seed = self.rng.getrandbits(64)
                for c in alive:
                    if used >= budget:
                        break
                    total[c] += self._simulate(state, c, legal, me, seed, info)
                    count[c] += 1
                    used += 1
                    if deadline is not None and time.perf_counter() > deadline:
                        budget = used  # past the time limit by one simulation at most
                        break
                if deadline is not None and used >= budget:  # out of time: no more rounds
                    break
            alive.sort(key=mean, reverse=True)
            alive = alive[: max(1, (len(alive) + 1) // 2)] if len(alive) > 2 else alive[:1]
        self.simulations += used
        self.last_simulations = used
        alive.sort(key=mean, reverse=True)  # stable: ties keep the policy's order
        return alive[0]

    def _simulate(self, state: GameState, code: int, legal: list[int], me: int, seed: int,
                  info: MapInfo) -> float:
        """One future: the candidate, the policy to the end of the current turn (mine, or the
        turn in which I was asked out of turn), the reply policy through the next player's
        turn; its value for me."""
        s = state.clone(keep_events=False)
        s.record_events = False
        s.forced_dice = []
        s.rng = seed & MASK64
        apply_action(s, code, legal)
        policy = self.rollout_policy
        policy.rng.seed(seed)  # the same tie-breaks for every candidate of a round
        turn = s.turns_played
        _play_turn(s, me, policy, policy, self.max_steps)
        if self.reply_policy is not None and not s.is_over and s.turns_played != turn:
            # The next player's answer: seizures of what I left exposed, counter-attacks.
            self.reply_policy.rng.seed(seed ^ 1)
            _play_turn(s, me, policy, self.reply_policy, self.reply_steps)
        return self.leaf_value(s, me, info)

    def leaf_value(self, s: GameState, me: int, info: MapInfo) -> float:
        """The value for ``me`` of the position a simulation ends in, in victory tokens: the
        tactical evaluation plus the policy's value of my units' positions."""
        value = evaluate(s, info, me, self.evaluation)
        if self.position_weight:
            value += self.position_weight * self.rollout_policy.position_value(s, me)
        return value


def _play_turn(s: GameState, me: int, mine: HeuristicAgent, others: HeuristicAgent,
               max_steps: int) -> None:
    """Play the current turn of ``s`` to its end (at most ``max_steps`` decisions): whoever is
    asked (``current_player``: the turn's player, a retaliating player, a player asked to
    defend out of turn), ``mine`` decides for ``me``, ``others`` for everyone else."""
    turn = s.turns_played
    for _ in range(max_steps):
        if s.is_over or s.turns_played != turn:
            return
        legal = legal_actions(s)
        bot = mine if s.current_player == me else others
        apply_action(s, bot.decide(s, legal), legal)


def _halvings(n: int) -> int:
    """Rounds of halving (keeping the better half, rounded up) until one candidate is left."""
    k = 0
    while n > 1:
        n = (n + 1) // 2 if n > 2 else 1
        k += 1
    return k
