"""Gumbel search with a policy-value network, on the game itself as simulator (``az-search``, training).

Danihelka et al. 2022, "Policy improvement by planning with Gumbel", as in mctx's
``gumbel_muzero_policy`` (read, re-written here for this game; docs/training.md says why):

- **Root.** The network's logits ``l(a)`` over the legal actions; Gumbel noise ``g(a)``
  (``gumbel_scale``: 1 in self-play, 0 for a deterministic agent); the ``considered`` actions
  with the highest ``g + l`` are searched by Sequential Halving: each simulation visits, among the
  actions with the visit count the schedule names (:func:`considered_visits`), the one with the
  highest ``g + l + sigma(q)``. The action played is the highest ``g + l + sigma(q)`` among the
  most visited.
- **Improved policy** (the training target): ``softmax(l + sigma(completed q))``, where an
  unvisited action's q is the node's mixed value (the network's value and the visited actions'
  q, prior-weighted) and ``sigma(q) = (c_visit + max visits) * c_scale * q`` over q rescaled to
  [0, 1] at the node.
- **Below the root** the action is ``argmax(improved policy - visits / (1 + total visits))``.

The game is reached only through its step functions (:class:`agents.game_steps.SearchSteps`):
any game through the game interface (:data:`agents.game_steps.INTERFACE_STEPS`, the default), or
a game's own faster ones (Vigtavl's engine: ``vigtavl_env.search_steps.ENGINE_STEPS``). The tree
is over exact states of the game: a node holds a copy, a child comes from the steps' ``copy``
then ``apply``. Nothing here assumes turns alternate:

- **Chance (dice).** Every simulation draws its own dice: the copy's chance to come is drawn
  from the search's generator before each action it applies (the root is a copy too, what its
  player may see), so the search never reads the real game's future dice. An action whose
  application drew chance (the steps' ``apply`` returns the outcome's key) is a chance edge:
  each pass samples an outcome again and the child is the outcome's node, made on first sight.
  A deterministic edge is applied once; later passes walk to its child without the game.
- **Out-of-turn decisions** (retaliation, defence, a veto) are nodes of the player the game
  asks (the steps' ``player``), chosen by that player's values like any other node.
- **Values are vectors**, one entry per player, in seat order: a leaf's network value is seen
  from the player to move (entry k: the player k seats after) and turned to seat order
  (:func:`to_seats`); a finished game's is the steps' ``returns``. Each node selects by its own
  player's entry, so 2, 3 and 4 players, and a player moving twice in a row, need nothing
  special.
- **Batching.** :class:`BatchedSearch` runs many games' searches in lockstep: each round every
  tree descends to new leaves, and all the leaves are evaluated in one network call (the
  network is ~90% of the cost: 0.24 ms a position in a batch of 32 against 1.5 ms alone, on one
  CPU thread). A tree descends once a round, or (``leaves_per_round`` > 1) once for each root
  action of its Sequential Halving pass: those descents start from different root actions, so
  they meet no pending leaf, and Sequential Halving judges a pass's actions on the values before
  it anyway. A descent counts its visits on the way down, so the next one of the round is
  steered elsewhere below the root too; its value is added when the network has answered.

Plain Python over small NumPy arrays, no torch: the evaluator is passed in
(:class:`Evaluator`), so this module can join the compiled core (``vigtavl_env/compiled.py``)
when its loops matter.
"""

from __future__ import annotations

import math
import random
import time
from collections.abc import Callable, Hashable, Sequence
from dataclasses import dataclass, field
from typing import Any, Protocol

import numpy as np

from agents.game_steps import INTERFACE_STEPS, SearchSteps

MASK64 = (1 << 64) - 1
EPSILON = 1e-8


@dataclass(frozen=True)
class SearchConfig:
    """The search's settings (``az.search`` in configs/az.yaml)."""

    simulations: int = 16
    """Simulations per decision (one network evaluation each, unless it ends the game)."""
    considered: int = 16
    """Actions searched at the root at most (Sequential Halving over them)."""
    c_visit: float = 50.0
    """sigma(q) = (c_visit + max visits) * c_scale * q (the paper's and mctx's 50)."""
    c_scale: float = 0.1
    """See c_visit (mctx's default value_scale; the paper's 1.0 makes the policy target one-hot on
    a handful of dice-noisy visits: measured, the best action got 1.0 after 7 visits)."""
    gumbel_scale: float = 1.0
    """Gumbel noise at the root: 1 to sample (self-play), 0 for the deterministic best."""
    leaves_per_round: int = 1
    """A tree's new leaves per network call at most: 1 (one simulation a round), or more to
    evaluate a Sequential Halving pass (one simulation per root action still in it) together;
    a single game's search then makes a few calls of several positions instead of one call per
    simulation."""
    common_dice: bool = False
    """Common random numbers: the root actions of one Sequential Halving pass are simulated on
    the same dice (a stream per pass and depth), so the halving compares them on the same luck
    instead of on each one's own draw (the search bot's practice). False: every simulation
    draws its own dice."""

    def __post_init__(self) -> None:
        if self.simulations < 1 or self.considered < 1 or self.leaves_per_round < 1:
            raise ValueError(f"search needs simulations, considered and leaves_per_round >= 1, got "
                             f"{self.simulations}, {self.considered}, {self.leaves_per_round}")
        if self.c_visit < 0 or self.c_scale < 0 or self.gumbel_scale < 0:
            raise ValueError("c_visit, c_scale and gumbel_scale must be >= 0")


class Evaluator(Protocol):
    """The network as the search sees it: for each position, its player's view."""

    def __call__(self, states: Sequence[Any], legal: Sequence[list[int]]) -> tuple[list[np.ndarray], np.ndarray]:
        """Logits over each position's legal action codes (in their order), and values
        ``(B, n_players)`` seen from each position's player to move (entry k: k seats after)."""
        ...


def to_seats(relative: np.ndarray, player: int) -> np.ndarray:
    """A value vector seen from ``player`` (entry k: the player k seats after) in seat order."""
    return np.roll(np.asarray(relative, dtype=np.float64), player)


def from_seats(values: np.ndarray, player: int) -> np.ndarray:
    """The inverse of :func:`to_seats`: seat order -> seen from ``player``."""
    return np.roll(np.asarray(values, dtype=np.float64), -player)


def considered_visits(considered: int, simulations: int) -> list[int]:
    """Sequential Halving as a schedule: the visit count the root action of simulation ``k``
    must have. Phases give every remaining action the same visits, then halve the field
    (at least 2 stay), so a budget reaches ``log2(considered)`` rounds of halving."""
    if considered <= 1:
        return list(range(simulations))
    phases = math.ceil(math.log2(considered))
    schedule: list[int] = []
    visits = [0] * considered
    alive = considered
    while len(schedule) < simulations:
        for _ in range(max(1, simulations // (phases * alive))):
            schedule.extend(visits[:alive])
            for i in range(alive):
                visits[i] += 1
        alive = max(2, alive // 2)
    return schedule[:simulations]


class Node:
    """One exact position: its legal actions, the network's logits and value, and per action
    its visits, summed value vectors and child (a node, a dict of chance outcomes, or None)."""

    __slots__ = ("state", "player", "legal", "logits", "value", "visits", "totals", "children", "chance",
                 "terminal")

    def __init__(self, state: Any, player: int, legal: list[int], logits: np.ndarray, value: np.ndarray,
                 n_players: int, terminal: bool = False) -> None:
        self.state = state
        self.player = player
        self.legal = legal
        self.logits = np.asarray(logits, dtype=np.float64) - float(np.max(logits)) if len(legal) else np.zeros(0)
        self.value = value  # seat order
        self.visits = np.zeros(len(legal), dtype=np.float64)
        self.totals = np.zeros((len(legal), n_players), dtype=np.float64)
        self.children: list[Node | dict[int, Node] | None] = [None] * len(legal)
        self.chance: list[bool | None] = [None] * len(legal)  # None: never applied
        self.terminal = terminal

    def q(self) -> np.ndarray:
        """Each visited action's mean value for this node's player (0 where unvisited)."""
        return np.divide(self.totals[:, self.player], np.maximum(self.visits, 1.0))

    def prior(self) -> np.ndarray:
        p = np.exp(self.logits)
        return p / p.sum()

    def completed_q(self) -> np.ndarray:
        """q of the visited actions; the mixed value for the others (the paper's Appendix D)."""
        q, visited = self.q(), self.visits > 0
        n = self.visits.sum()
        v = float(self.value[self.player])
        if n > 0:
            prior = np.maximum(self.prior(), 1e-30)
            weighted = float((prior[visited] * q[visited]).sum() / prior[visited].sum())
            v = (v + n * weighted) / (n + 1)
        return np.where(visited, q, v)

    def sigma(self, cfg: SearchConfig) -> np.ndarray:
        """sigma(completed q): rescaled to [0, 1] at this node, times (c_visit + max visits) * c_scale."""
        cq = self.completed_q()
        lo, hi = float(cq.min()), float(cq.max())
        scaled = (cq - lo) / max(hi - lo, EPSILON)
        return (cfg.c_visit + float(self.visits.max(initial=0.0))) * cfg.c_scale * scaled

    def improved_policy(self, cfg: SearchConfig) -> np.ndarray:
        """softmax(logits + sigma(completed q)) over the legal actions: the policy target."""
        z = self.logits + self.sigma(cfg)
        p = np.exp(z - z.max())
        return p / p.sum()

    def interior_action(self, cfg: SearchConfig) -> int:
        """Below the root: the action whose visits lag most behind the improved policy."""
        scores = self.improved_policy(cfg) - self.visits / (1.0 + self.visits.sum())
        return int(np.argmax(scores))


@dataclass
class SearchResult:
    """A finished search: the action to play, the improved policy over the legal actions (the
    training target), the root's values and the simulations run (0: a forced decision)."""

    action: int
    legal: list[int]
    policy: np.ndarray
    value: np.ndarray
    simulations: int
    visits: np.ndarray = field(default_factory=lambda: np.zeros(0))


@dataclass
class _Leaf:
    """A simulation's new position, waiting for the network: the path to it and where it goes."""

    tree: "_Tree"
    path: list[tuple[Node, int]]
    state: Any
    legal: list[int]
    key: Hashable | None  # the chance outcome's key; None: a deterministic edge


class _Tree:
    """One game's search: its root, Gumbel draws and schedule."""

    def __init__(self, root: Node, cfg: SearchConfig, rng: random.Random) -> None:
        self.root, self.cfg, self.rng = root, cfg, rng
        n = len(root.legal)
        self.gumbel = np.array([-math.log(-math.log(rng.random() or EPSILON)) for _ in range(n)]) * cfg.gumbel_scale
        m = min(cfg.considered, n)
        order = np.argsort(-(self.gumbel + root.logits), kind="stable")
        self.considered = np.zeros(n, dtype=bool)
        self.considered[order[:m]] = True
        self.schedule = considered_visits(m, cfg.simulations)
        self.done = 0
        # common_dice: this search's streams (drawn only then: without it the draws are as before)
        self.dice_base = rng.getrandbits(64) if cfg.common_dice else 0

    @property
    def finished(self) -> bool:
        return self.done >= self.cfg.simulations

    def round_size(self) -> int:
        """Descents this round: the rest of the current Sequential Halving pass (simulations that
        ask for the same root visit count), at most ``leaves_per_round``."""
        cap = min(self.cfg.leaves_per_round, self.cfg.simulations - self.done)
        if cap <= 1:  # (the schedule has an entry for each simulation)
            return max(0, cap)
        want, k = self.schedule[self.done], 1
        while k < cap and self.schedule[self.done + k] == want:
            k += 1
        return k

    def root_action(self) -> int:
        root, cfg = self.root, self.cfg
        want = self.schedule[self.done] if self.done < len(self.schedule) else root.visits.max()
        self.done += 1
        score = self.gumbel + root.logits + root.sigma(cfg)
        allowed = self.considered & (root.visits == want)
        if not allowed.any():
            allowed = self.considered
        return int(np.argmax(np.where(allowed, score, -np.inf)))

    def final_action(self) -> int:
        root = self.root
        most = root.visits[self.considered].max()
        score = self.gumbel + root.logits + root.sigma(self.cfg)
        return int(np.argmax(np.where(self.considered & (root.visits == most), score, -np.inf)))


class BatchedSearch:
    """Searches many games at once, one network call per round of simulations.

    ``evaluator``: see :class:`Evaluator`; ``stop``: called between rounds (a training run's
    stop check: it raises to end the search at once); ``steps``: the game's step functions
    (module docstring; the states searched and the evaluator's are of their kind).
    """

    def __init__(self, evaluator: Evaluator, n_players: int, cfg: SearchConfig = SearchConfig(),
                 seed: int | None = None, stop: Callable[[], None] | None = None,
                 steps: SearchSteps = INTERFACE_STEPS) -> None:
        self.evaluator, self.n_players, self.cfg, self.steps = evaluator, n_players, cfg, steps
        self.rng = random.Random(seed)
        self.stop = stop
        self.evaluations = 0  # network positions evaluated (for throughput figures)
        self.last_roots: list[Node] = []  # the last run's searched roots (for inspection and tests)

    def run(self, states: Sequence[Any], deadline: float | None = None) -> list[SearchResult]:
        """The search's decision for each position (none of them finished). ``deadline``
        (``time.perf_counter()``'s clock): no round starts after it, and each game plays its best
        action of the simulations done by then (the prior's own choice if none)."""
        legal = [self.steps.legal(s) for s in states]
        results: list[SearchResult | None] = [None] * len(states)
        todo = []
        for i, (s, codes) in enumerate(zip(states, legal)):
            if len(codes) == 1:  # forced: nothing to search, nothing to learn
                results[i] = SearchResult(codes[0], codes, np.ones(1), np.zeros(self.n_players), 0)
            else:
                todo.append(i)
        if todo:
            roots = self._expand([self.steps.root(states[i], self._seed()) for i in todo], [legal[i] for i in todo])
            trees = [_Tree(r, self.cfg, self.rng) for r in roots]
            self.last_roots = roots
            while not all(t.finished for t in trees):
                if self.stop is not None:
                    self.stop()
                if deadline is not None and time.perf_counter() > deadline:
                    break
                leaves = []
                for t in trees:
                    for _ in range(t.round_size()):
                        leaf = self._descend(t)
                        if leaf is not None:
                            leaves.append(leaf)
                if leaves:
                    nodes = self._expand([leaf.state for leaf in leaves], [leaf.legal for leaf in leaves])
                    for leaf, node in zip(leaves, nodes):
                        node = self._attach(leaf, node)
                        _add_value(leaf.path, node.value)
            for i, t in zip(todo, trees):
                r = t.root
                results[i] = SearchResult(r.legal[t.final_action()], r.legal, r.improved_policy(self.cfg),
                                          r.value.copy(), int(r.visits.sum()), r.visits.copy())
        return results  # type: ignore[return-value]

    # ------------------------------------------------------------------ one simulation
    def _descend(self, tree: _Tree) -> _Leaf | None:
        """Walk from the root to a new position (returned for the network; the path's visits
        are counted now, its value when the network answers) or to the game's end (backed up
        here, None returned)."""
        node, path, steps = tree.root, [], self.steps
        dice_pass = -1  # the root action's visits before this simulation: its Sequential Halving pass
        while True:
            if node is tree.root:
                a = tree.root_action()
                dice_pass = int(node.visits[a])
            else:
                a = node.interior_action(self.cfg)
            path.append((node, a))
            node.visits[a] += 1.0
            child = node.children[a]
            if node.chance[a] is False:
                if child is None:  # a leaf of this round not yet evaluated: walk no further
                    for n_, a_ in path:
                        n_.visits[a_] -= 1.0
                    return None
                assert isinstance(child, Node)
                node = child
            else:
                state = steps.copy(node.state, self._seed())
                if self.cfg.common_dice:
                    steps.reseed(state, _dice_stream(tree.dice_base, dice_pass, len(path)))
                key = steps.apply(state, node.legal[a], node.legal)
                rolled = key is not None
                node.chance[a] = rolled
                if rolled:
                    outcomes = child if isinstance(child, dict) else {}
                    node.children[a] = outcomes
                    child = outcomes.get(key)  # type: ignore[arg-type]
                if child is None:
                    if steps.is_over(state):
                        node_ = Node(state, steps.player(state), [], np.zeros(0),
                                     np.asarray(steps.returns(state), dtype=np.float64), self.n_players, True)
                        self._attach(_Leaf(tree, path, state, [], key), node_)
                        _add_value(path, node_.value)
                        return None
                    return _Leaf(tree, path, state, steps.legal(state), key)
                assert isinstance(child, Node)
                node = child
            if node.terminal:
                _add_value(path, node.value)
                return None

    def _seed(self) -> int:
        """A copy's chance to come: the next draw of the search's generator."""
        return self.rng.getrandbits(64) & MASK64

    def _expand(self, states: list[Any], legal: list[list[int]]) -> list[Node]:
        logits, values = self.evaluator(states, legal)
        self.evaluations += len(states)
        steps, n = self.steps, self.n_players
        nodes = []
        for s, codes, lg, v in zip(states, legal, logits, values):
            player = steps.player(s)
            nodes.append(Node(s, player, codes, lg, to_seats(v, player), n, steps.is_over(s)))
        return nodes

    @staticmethod
    def _attach(leaf: _Leaf, node: Node) -> Node:
        """Put the evaluated leaf in the tree; the node there (a chance outcome drawn twice in one
        round keeps its first node) is returned."""
        parent, a = leaf.path[-1]
        if leaf.key is None:
            parent.children[a] = node
            return node
        outcomes = parent.children[a]
        assert isinstance(outcomes, dict)
        return outcomes.setdefault(leaf.key, node)


def _dice_stream(base: int, dice_pass: int, depth: int) -> int:
    """The dice seed of a pass's simulations at one depth (splitmix64's finaliser over the three)."""
    z = (base + 0x9E3779B97F4A7C15 * (dice_pass + 1) + 0xD1B54A32D192ED03 * depth) & MASK64
    z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & MASK64
    z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & MASK64
    return z ^ (z >> 31)


def _add_value(path: list[tuple[Node, int]], value: np.ndarray) -> None:
    """The backup's second half: a simulation's value added along its path (its visits were
    counted on the way down)."""
    for node, a in path:
        node.totals[a] += value
