"""One AlphaZero generation for any registered game, through the game interface alone.

::

    from training.az_game import AZGameConfig, PolicyValueNet, generation
    net = PolicyValueNet.for_game("pig", num_players=2)
    stats = generation("pig", net, AZGameConfig(games=8, simulations=16), seed=0)

Why a module of its own: :mod:`training.az` runs Vigtavl's engine states through its hex
network and codec (:mod:`agents.gumbel`'s search itself takes any game's step functions,
:mod:`agents.game_steps`). This is the least that proves the interface carries AlphaZero:

- **Search** (:class:`Search`): PUCT over the interface's ``clone``, ``apply_action`` and
  ``chance_events``. It starts from ``view_for(seat)``, never the true state (the other seats'
  secrets are the view's placeholders). Each simulation's copy of that view
  (:meth:`~games.interface.GameState.search_copy`) draws its dice from the search's own
  generator, so no simulation reads the real game's future dice; an action that logged chance
  events is a chance edge whose child is keyed by those outcomes. Values are vectors in seat
  order; each node picks by its own player's entry, so out-of-turn decisions (pig's veto) and
  2-4 players need nothing special.
- **Self-play** (:func:`self_play`): every decision with a choice is searched, the move drawn
  from the visit counts (root Dirichlet noise); each position keeps its observation, the legal
  mask, the visit distribution and, when its game ends, the returns seen from its player.
- **Training** (:func:`train_on`): cross-entropy of the visit distribution against the masked
  policy plus the MSE of the value vector, minibatches over the generation's positions.
"""

from __future__ import annotations

import json
import math
import random
from dataclasses import dataclass, field
from typing import Any

import numpy as np
import torch as th
from gymnasium import spaces
from torch import nn
from torch.nn import functional as F

from agents.network import MASKED_LOGIT, GridConvExtractor
from games.interface import GameState
from games.registry import load_game



@dataclass
class AZGameConfig:
    """One generation's sizes."""

    games: int = 8
    simulations: int = 16
    c_puct: float = 1.5
    dirichlet_alpha: float = 0.5
    noise_fraction: float = 0.25
    max_decisions: int = 500  # a game cut here ends with returns 0 (as a truncation)
    epochs: int = 4
    batch_size: int = 64
    learning_rate: float = 1e-3
    value_weight: float = 1.0


class PolicyValueNet(nn.Module):
    """The grid trunk of :mod:`agents.network`, a logit per action and a value per seat (entry
    k: the seat k after the player to move), in [-1, 1]."""

    def __init__(self, obs_shape: tuple[int, int, int], num_actions: int, num_players: int,
                 channels: int = 16, blocks: int = 1, hidden: int = 64) -> None:
        super().__init__()
        self.num_players = num_players
        self.trunk = GridConvExtractor(spaces.Box(-np.inf, np.inf, obs_shape, dtype=np.float32), channels, blocks)
        self.policy = nn.Linear(self.trunk.features_dim, num_actions)
        self.value = nn.Sequential(nn.Linear(self.trunk.features_dim, hidden), nn.ReLU(),
                                   nn.Linear(hidden, num_players), nn.Tanh())

    @classmethod
    def for_game(cls, game: str, num_players: int | None = None, **sizes: Any) -> "PolicyValueNet":
        g = load_game(game)
        probe = g.new_state(g.check_players(num_players), 0)
        return cls(tuple(g.observation_shape(probe)), g.num_actions(probe), probe.num_players, **sizes)

    def forward(self, obs: th.Tensor) -> tuple[th.Tensor, th.Tensor]:
        x = self.trunk(obs)
        return self.policy(x), self.value(x)

    @th.no_grad()
    def evaluate(self, state: GameState) -> tuple[np.ndarray, np.ndarray]:
        """Priors over ``state.legal_actions()`` (in their order) and values in seat order."""
        p = state.current_player()
        logits, values = self(th.as_tensor(state.observation(p)[None]))
        legal = state.legal_actions()
        priors = F.softmax(logits[0, legal], dim=0).numpy().astype(np.float64)
        return priors, np.roll(values[0].numpy().astype(np.float64), p)


@dataclass
class Node:
    """A position in the tree: its player, legal actions, priors, visits and value totals per
    action; children by (action, chance outcomes)."""

    player: int
    legal: list[int]
    priors: np.ndarray
    visits: np.ndarray = field(init=False)
    totals: np.ndarray = field(init=False)
    children: dict[tuple[int, str], "Node"] = field(default_factory=dict)

    def __post_init__(self) -> None:
        self.visits = np.zeros(len(self.legal))
        self.totals = np.zeros((len(self.legal), 0))

    def select(self, c_puct: float) -> int:
        """PUCT by this node's player's value entry; the index into ``legal``."""
        q = np.zeros(len(self.legal)) if self.totals.shape[1] == 0 else \
            self.totals[:, self.player] / np.maximum(self.visits, 1)
        u = c_puct * self.priors * math.sqrt(self.visits.sum() + 1) / (1 + self.visits)
        return int(np.argmax(q + u))


class Search:
    """PUCT over the game interface (module docstring); ``seed`` draws the search's dice."""

    def __init__(self, net: PolicyValueNet, cfg: AZGameConfig, seed: int = 0) -> None:
        self.net, self.cfg = net, cfg
        self.rng = random.Random(seed)
        self.np_rng = np.random.default_rng(seed)

    def run(self, state: GameState, noise: bool = True) -> tuple[list[int], np.ndarray]:
        """The root's legal actions and the visit distribution over them after the simulations."""
        seat = state.current_player()
        view = state.view_for(seat)
        root, _ = self._expand(view)
        if noise:
            eta = self.np_rng.dirichlet([self.cfg.dirichlet_alpha] * len(root.legal))
            root.priors = (1 - self.cfg.noise_fraction) * root.priors + self.cfg.noise_fraction * eta
        for _ in range(self.cfg.simulations):
            self._simulate(root, view)
        return root.legal, root.visits / root.visits.sum()

    def _simulate(self, root: Node, view: GameState) -> None:
        s = view.search_copy(self.rng.getrandbits(64))  # this simulation's own dice
        node, path = root, []
        while True:
            i = node.select(self.cfg.c_puct)
            seen = len(s.chance_events())
            s.apply_action(node.legal[i])
            key = (i, json.dumps(s.chance_events(seen), sort_keys=True))
            path.append((node, i))
            if s.is_over():
                value = np.asarray(s.returns() if s.is_terminal() else [0.0] * s.num_players, dtype=np.float64)
                break
            child = node.children.get(key)
            if child is None:
                node.children[key], value = self._expand(s)
                break
            node = child
        for n, i in path:
            if n.totals.shape[1] == 0:
                n.totals = np.zeros((len(n.legal), len(value)))
            n.visits[i] += 1
            n.totals[i] += value

    def _expand(self, state: GameState) -> tuple[Node, np.ndarray]:
        priors, value = self.net.evaluate(state)
        return Node(state.current_player(), state.legal_actions(), priors), value


@dataclass
class Positions:
    """Searched positions: observation, legal mask, visit distribution (over all actions), and
    the returns seen from the position's player (entry 0: that player)."""

    obs: list[np.ndarray] = field(default_factory=list)
    masks: list[np.ndarray] = field(default_factory=list)
    policies: list[np.ndarray] = field(default_factory=list)
    values: list[np.ndarray] = field(default_factory=list)


def self_play(game: str, net: PolicyValueNet, cfg: AZGameConfig, seed: int,
              num_players: int | None = None) -> tuple[Positions, dict[str, float]]:
    """``cfg.games`` games (game g: seed + g), every choice searched."""
    g = load_game(game)
    probe = g.new_state(num_players, 0)
    if probe.num_players != net.num_players:
        raise ValueError(f"the network is for {net.num_players} players, not {probe.num_players}")
    n_actions = g.num_actions(probe)
    search, pick = Search(net, cfg, seed), np.random.default_rng(seed)
    out, lengths, cut = Positions(), [], 0
    for k in range(cfg.games):
        s, steps, mine = g.new_state(num_players, seed + k), 0, []
        while not s.is_over() and steps < cfg.max_decisions:
            legal = s.legal_actions()
            if len(legal) > 1:
                legal, visits = search.run(s)
                p, policy, mask = s.current_player(), np.zeros(n_actions, np.float32), np.zeros(n_actions, bool)
                policy[legal], mask[legal] = visits, True
                mine.append((s.observation(p), mask, policy, p))
                s.apply_action(legal[int(pick.choice(len(legal), p=visits))])
            else:
                s.apply_action(legal[0])
            steps += 1
        results = np.asarray(s.returns() if s.is_terminal() else [0.0] * s.num_players, dtype=np.float32)
        for obs, mask, policy, p in mine:
            out.obs.append(obs)
            out.masks.append(mask)
            out.policies.append(policy)
            out.values.append(np.roll(results, -p))
        lengths.append(steps)
        cut += not s.is_terminal()
    return out, {"games": cfg.games, "positions": len(out.obs), "mean_length": float(np.mean(lengths)),
                 "truncated": cut}


def train_on(net: PolicyValueNet, data: Positions, cfg: AZGameConfig, seed: int) -> dict[str, float]:
    """``cfg.epochs`` passes over the positions in minibatches; the last pass's mean losses."""
    th.manual_seed(seed)
    obs, masks, policies, values = (th.as_tensor(np.stack(x)) for x in
                                    (data.obs, data.masks, data.policies, data.values))
    opt = th.optim.Adam(net.parameters(), lr=cfg.learning_rate)
    losses: list[tuple[float, float]] = []
    for _ in range(cfg.epochs):
        losses = []
        for idx in th.randperm(len(obs)).split(cfg.batch_size):
            logits, v = net(obs[idx])
            logp = F.log_softmax(logits.masked_fill(~masks[idx], MASKED_LOGIT), dim=1)
            policy_loss = -(policies[idx] * logp).sum(1).mean()
            value_loss = F.mse_loss(v, values[idx])
            opt.zero_grad()
            (policy_loss + cfg.value_weight * value_loss).backward()
            opt.step()
            losses.append((policy_loss.item(), value_loss.item()))
    return {"loss/policy": float(np.mean([a for a, _ in losses])), "loss/value": float(np.mean([b for _, b in losses]))}


def generation(game: str, net: PolicyValueNet, cfg: AZGameConfig, seed: int = 0,
               num_players: int | None = None) -> dict[str, float]:
    """Self-play, then training on its positions: one generation; its statistics and losses."""
    data, stats = self_play(game, net, cfg, seed, num_players)
    if not data.obs:
        raise ValueError(f"{cfg.games} {game} games gave no decision to learn from")
    return {**stats, **train_on(net, data, cfg, seed)}


class AZPlayer:
    """A network's search as a player of the arena (``noise`` off: its most visited action)."""

    def __init__(self, net: PolicyValueNet, cfg: AZGameConfig, seed: int = 0) -> None:
        self.search = Search(net, cfg, seed)

    def __call__(self, view: GameState, legal: list[int]) -> int:
        if len(legal) == 1:
            return legal[0]
        actions, visits = self.search.run(view, noise=False)
        return actions[int(np.argmax(visits))]
