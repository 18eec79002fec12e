"""Hints: what the strongest agent would decide now, for a person who chose hints for his game.

The strongest shipped agent for the player count gives them: for two players the AlphaZero
network in its search, ``az-search:pretrained`` (it beats ``ppo:pretrained`` in 72.8% of games,
agents/pretrained/az/README.md), at :data:`HINT_SIMULATIONS` simulations within
:data:`HINT_MS` milliseconds (the server's own limit on an agent's decision is 2000 ms by
default, ``vigtavl serve --think-ms``); for three and four players, where no AlphaZero network is
shipped, the PPO networks (``ppo:pretrained-3p``, ``ppo:pretrained-4p``), one forward pass.

A hint is the agent's probabilities over the person's legal decisions (the search's improved
policy, or the PPO policy), the :data:`HINT_CHOICES` most likely each with its hex, its words and
its share in whole percent (:func:`percentages`: largest-remainder rounding, so the shares of
all the legal decisions add up to exactly 100), and the value head's estimate of the game for the
person's seat, said as a share of a win, ``(value + 1) / 2`` (the value is about -1 for a lost
game and 1 for a won one: an estimate, not a probability the network was trained to give).

The work is bounded (the search's time limit, or one pass; the first hint loads the network, a
second or two) and runs on the server's think pool, never on the event loop.
"""

from __future__ import annotations

import time
from typing import Any

import numpy as np

from webapp.guards import WebError

HINT_SIMULATIONS = 24  # az-search's own default (agents/az.py)
HINT_MS = 1000  # at most this long a hint's search, under the server's default --think-ms (2000)
HINT_AGENTS = {2: f"az-search:pretrained:{HINT_SIMULATIONS}:{HINT_MS}ms", 3: "ppo:pretrained-3p",
               4: "ppo:pretrained-4p"}
HINT_CHOICES = 3
MIN_PROB = 0.01  # choices less likely than this are left out (the most likely one never is)
PERCENT = 100


def hint_agent_spec(n_players: int) -> str:
    """The agent that gives hints in a game of ``n_players``; a 400 where there is none."""
    if n_players not in HINT_AGENTS:
        raise WebError(f"hints come from the shipped networks, which play 2, 3 or 4 players, not {n_players}")
    return HINT_AGENTS[n_players]


def load_hinter(n_players: int) -> Any:
    """The hint agent, loaded: call it off the event loop."""
    from agents.registry import make_agent
    try:
        return make_agent(hint_agent_spec(n_players), seed=0)
    except (ValueError, OSError) as e:  # AgentUnavailableError is a ValueError: a model missing or damaged
        raise WebError(f"hints are not available: {str(e)[:200]}", 409) from None


def percentages(probs: np.ndarray) -> np.ndarray:
    """``probs`` (summing to 1) in whole percent that add up to exactly 100: each share rounded
    down, then the points left over go to the largest remainders (ties: the lower index)."""
    probs = np.asarray(probs, dtype=np.float64)
    total = probs.sum()
    exact = probs * (PERCENT / total) if total > 0 else np.zeros_like(probs)
    out = np.floor(exact).astype(int)
    left = PERCENT - int(out.sum()) if total > 0 else 0
    order = np.argsort(-(exact - out), kind="stable")
    out[order[:left]] += 1
    return out


def advice(agent: Any, observation: np.ndarray, mask: np.ndarray, seat: int, state: Any = None) -> tuple[np.ndarray, float]:
    """The agent's probabilities over the env's actions (0 for the illegal ones) and its value
    for ``seat`` (-1 to 1). An az-search agent searches ``state`` (the engine state, copied)."""
    from agents.az import AZSearchAgent, _one_thread
    if not isinstance(agent, AZSearchAgent):
        import torch as th
        policy = agent.model.policy
        with th.no_grad():
            obs = th.as_tensor(observation, dtype=th.float32, device=policy.device)[None]
            value = float(policy.predict_values(obs)[0, 0])
        return agent.action_probs(observation, mask), value
    if state is None:
        raise WebError("a hint from the search needs the game's position", 500)
    deadline = time.perf_counter() + (agent.ms or HINT_MS) / 1000.0
    with _one_thread():
        result = agent.search.run([state.clone()], deadline=deadline)[0]
        values = result.value if result.simulations else agent.evaluator([state], [result.legal])[1][0]
    probs = np.zeros(len(mask), dtype=np.float64)
    probs[agent.evaluator.steps.indices(state, result.legal)] = result.policy
    return probs, float(values[seat])


def hint(agent: Any, observation: np.ndarray, mask: np.ndarray, decisions: list[dict[str, Any]],
         seat: int, state: Any = None) -> dict[str, Any]:
    """The agent's top choices among ``decisions`` (the page's legal decisions now), each with
    its share in percent, and its estimate of the game for ``seat``."""
    probs, value = advice(agent, observation, mask, seat, state)
    by_action = {d["action"]: d for d in decisions}
    legal = np.array(sorted(by_action), dtype=int)
    shares = dict(zip(legal.tolist(), percentages(probs[legal]).tolist()))
    top = [int(a) for a in np.argsort(-probs, kind="stable")[:HINT_CHOICES] if int(a) in by_action]
    order = top[:1] + [a for a in top[1:] if probs[a] >= MIN_PROB]
    return {"seat": seat, "choices": [{**by_action[a], "prob": round(float(probs[a]), 3), "percent": shares[a]}
                                      for a in order],
            "win": round(min(1.0, max(0.0, (value + 1) / 2)), 3)}
