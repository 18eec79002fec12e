"""The search bot with a trained policy's favourite decisions among its candidates (``ppo-search:``).

Vigtavl's own bot: :class:`agents.heuristic.search.SearchAgent` searching the heuristic's best
few decisions and the network's (:mod:`agents.ppo` loads the model), each simulation's end
position optionally judged by the network's value head too.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import numpy as np
import torch as th

from agents.ppo import PPOAgent, load_model, resolve_model_path
from vigtavl_env.engine import GameState
from vigtavl_env.observation import ObservationEncoder

from .search import PPO_SEARCH_ITERATIONS, SearchAgent


class PPOSearchAgent(SearchAgent):
    """A trained policy and its value head inside the search bot (``ppo-search:``).

    At each decision the network proposes its ``propose`` most likely legal actions (those of
    probability at least ``min_prob``); they join the search bot's candidates (the greedy
    heuristic's best few), and :class:`~agents.heuristic.search.SearchAgent` simulates each in the same
    futures and plays the best. Each simulation's end position is scored by the search bot's
    tactical evaluation plus ``value_weight`` times the network's value of it for the player
    searching (its estimate of the game's outcome, -1 to 1, in victory tokens at that weight).
    Decision-time planning on top of the learned policy and value, as AlphaZero does: the
    policy chooses what to search, the value judges where the searches end.
    """

    name = "ppo-search"
    reads_observation = True  # the network proposes from the observation

    def __init__(self, model: Any, path: str = "", propose: int = 2, min_prob: float = 0.05,
                 value_weight: float = 0.0, iterations: int = PPO_SEARCH_ITERATIONS,
                 ms: float | None = None, seed: int | None = None, **search: Any) -> None:
        super().__init__(iterations=iterations, ms=ms, seed=seed, **search)
        if propose < 1:
            raise ValueError(f"ppo-search proposes at least 1 action, got {propose}")
        self.network = PPOAgent(model, path)
        self.propose, self.min_prob, self.value_weight = propose, min_prob, value_weight
        self._encoders: dict[int, ObservationEncoder] = {}

    def act(self, observation: np.ndarray, action_mask: np.ndarray, info: dict[str, Any]) -> int:
        state, legal = self.state_and_legal(info)
        if len(legal) == 1:
            return self.codec(state).to_env(legal[0])
        probs = self.network.action_probs(observation, action_mask)
        best = np.argsort(-probs, kind="stable")[: self.propose]
        codec = self.codec(state)
        proposed = [codec.to_engine(int(i)) for i in best if probs[i] >= self.min_prob] or \
            [codec.to_engine(int(best[0]))]
        return codec.to_env(self.choose(state, legal, proposed))

    def leaf_value(self, s: GameState, me: int, info: Any) -> float:
        value = super().leaf_value(s, me, info)
        if self.value_weight:
            value += self.value_weight * self.network_value(s, me)
        return value

    def network_value(self, state: GameState, seat: int) -> float:
        """The value head's estimate of ``state`` for ``seat`` (about -1 lost to 1 won)."""
        board = state.gmap.board
        encoder = self._encoders.get(id(board))
        if encoder is None:
            encoder = self._encoders[id(board)] = ObservationEncoder(state.gmap, state.config.rounds_per_phase)
        policy = self.network.model.policy
        threads = th.get_num_threads()
        th.set_num_threads(1)
        try:
            with th.no_grad():
                obs = th.as_tensor(encoder.encode(state, seat), device=policy.device)[None]
                return float(policy.predict_values(obs)[0, 0])
        finally:
            th.set_num_threads(threads)


def load_ppo_search_agent(spec: str | Path, iterations: int = PPO_SEARCH_ITERATIONS, ms: float | None = None,
                          seed: int | None = None, value_weight: float = 0.0) -> PPOSearchAgent:
    """The model saved at ``spec`` (``"pretrained"``: the shipped one) with the search bot on top."""
    path = resolve_model_path(spec)
    return PPOSearchAgent(load_model(spec), str(path), iterations=iterations, ms=ms, seed=seed,
                          value_weight=value_weight)
