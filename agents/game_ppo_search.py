"""A trained game model inside the Gumbel search, once nothing is hidden (``ppo-search:PATH[:N]``).

Any registered game, through the game interface alone (issue 58, item 2). While a seat's
secret is still hidden (:meth:`games.interface.GameState.hidden_information`: Thrones' setups
before the reveal) the model's policy plays alone, its most likely legal action, as ``ppo:PATH``
does. Afterwards the game is one of full information with chance, and each decision is
:mod:`agents.gumbel`'s search of ``N`` simulations (default :data:`DEFAULT_SIMULATIONS`) on
the seat's view: the model's logits are the prior, its value head judges the leaves, and
chance is sampled anew in every simulation (the view's copies, never the true state's dice).

The value head of a MaskablePPO model is one number, the return expected by the player to
move; for more than two players the others are given an equal share of its opposite (a
zero-sum guess), which the search needs as a vector.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np
import torch as th

from agents.game_ppo import PPOPlayer
from agents.shipped import PPO_SEARCH_SIMULATIONS
from agents.game_steps import INTERFACE_STEPS
from agents.gumbel import BatchedSearch, SearchConfig
from games.interface import GameState

DEFAULT_SIMULATIONS = PPO_SEARCH_SIMULATIONS
MAX_SIMULATIONS = 1000
CONSIDERED = 8  # root actions searched at most (Sequential Halving over them)


def parse_argument(arg: str) -> tuple[str, int]:
    """``PATH`` or ``PATH:N`` -> (path, simulations); ValueError in one line."""
    head, colon, tail = arg.rpartition(":")
    path, tail = (head, tail) if colon and tail.isdigit() else (arg, "")
    if not path.strip():
        raise ValueError("ppo-search takes the path of a model: ppo-search:PATH[:N] (ppo-search:pretrained:16)")
    sims = int(tail) if tail else DEFAULT_SIMULATIONS
    if not 1 <= sims <= MAX_SIMULATIONS:
        raise ValueError(f"ppo-search:PATH:N takes N in 1-{MAX_SIMULATIONS} simulations, got {tail[:20]!r}")
    return path, sims


def policy_outputs(policy: Any, obs: th.Tensor) -> tuple[th.Tensor, th.Tensor]:
    """A MaskablePPO policy's logits over every action and its values, one pass of the trunk."""
    features = policy.extract_features(obs)
    if policy.share_features_extractor:
        latent_pi, latent_vf = policy.mlp_extractor(features)
    else:
        latent_pi = policy.mlp_extractor.forward_actor(features[0])
        latent_vf = policy.mlp_extractor.forward_critic(features[1])
    return policy.action_net(latent_pi), policy.value_net(latent_vf).flatten()


class PolicyEvaluator:
    """:class:`agents.gumbel.Evaluator` over a MaskablePPO policy and the interface's positions."""

    def __init__(self, policy: Any, n_players: int) -> None:
        self.policy, self.n_players = policy, n_players

    def __call__(self, states: Sequence[GameState], legal: Sequence[list[int]]) -> tuple[list[np.ndarray], np.ndarray]:
        obs = INTERFACE_STEPS.encode(states)
        with th.no_grad():
            logits, values = policy_outputs(self.policy, th.as_tensor(obs))
        logits_np = logits.numpy().astype(np.float64)
        v = np.clip(values.numpy().astype(np.float64), -1.0, 1.0)
        relative = np.empty((len(states), self.n_players))
        relative[:, 0] = v
        relative[:, 1:] = (-v / max(1, self.n_players - 1))[:, None]  # entry k: k seats after the mover
        return [logits_np[k, codes] for k, codes in enumerate(legal)], relative


class PPOSearchPlayer(PPOPlayer):
    """The model alone while something is hidden, then the model inside the search (module docstring)."""

    def __init__(self, arg: str, simulations: int = DEFAULT_SIMULATIONS, seed: int | None = None,
                 game: str | None = None) -> None:
        super().__init__(arg, seed=seed, game=game)
        self.cfg = SearchConfig(simulations=simulations, considered=CONSIDERED, gumbel_scale=0.0,
                                leaves_per_round=CONSIDERED)
        self.seed = seed
        self._search: BatchedSearch | None = None
        self._fits = False  # the model's shapes checked against the game's (once: a player plays one game)

    def search_for(self, n_players: int) -> BatchedSearch:
        if self._search is None or self._search.n_players != n_players:
            self._search = BatchedSearch(PolicyEvaluator(self.model.policy, n_players), n_players, self.cfg,
                                         seed=self.seed, steps=INTERFACE_STEPS)
        return self._search

    def __call__(self, view: GameState, legal: list[int]) -> int:
        if len(legal) == 1:
            return legal[0]
        if view.hidden_information():
            return super().__call__(view, legal)
        if not self._fits:
            self.check_fits(view.observation(view.current_player()), legal)
            self._fits = True
        return int(self.search_for(view.num_players).run([view])[0].action)
