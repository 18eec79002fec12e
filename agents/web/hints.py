"""Hints: what the strongest agent would decide now, for a person who chose hints for his game.

The strongest agent a server always has is the shipped network for the player count
(``ppo:pretrained`` for two players, ``ppo:pretrained-3p`` for three, ``ppo:pretrained-4p`` for
four). A hint is one forward pass of it: the policy's probabilities
over the person's legal decisions (the :data:`HINT_CHOICES` most likely, each with its hex and
words, so the page draws them on the board), and the value head's estimate of the game for the
person's seat, said as a share of a win, ``(value + 1) / 2`` (the value is about -1 for a lost
game and 1 for a won one: an estimate, not a probability the network was trained to give).

The work is bounded (one pass, about a millisecond once the model is loaded; the first hint
loads it, a second or two) and runs on the server's think pool, never on the event loop.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from agents.web.guards import WebError

HINT_AGENTS = {2: "ppo:pretrained", 3: "ppo:pretrained-3p", 4: "ppo:pretrained-4p"}
HINT_CHOICES = 3
MIN_PROB = 0.01  # choices less likely than this are left out (the most likely one never is)


def hint_agent_spec(n_players: int) -> str:
    """The agent that gives hints in a game of ``n_players``; a 400 where there is none."""
    if n_players not in HINT_AGENTS:
        raise WebError(f"hints come from the shipped network, which plays 2, 3 or 4 players, not {n_players}")
    return HINT_AGENTS[n_players]


def load_hinter(n_players: int) -> Any:
    """The hint agent (a :class:`agents.ppo.PPOAgent`), loaded: call it off the event loop."""
    from agents.registry import make_agent
    try:
        return make_agent(hint_agent_spec(n_players), seed=0)
    except (ValueError, OSError) as e:  # AgentUnavailableError is a ValueError: a model missing or damaged
        raise WebError(f"hints are not available: {str(e)[:200]}", 409) from None


def hint(agent: Any, observation: np.ndarray, mask: np.ndarray, decisions: list[dict[str, Any]],
         seat: int) -> dict[str, Any]:
    """The agent's top choices among ``decisions`` (the page's legal decisions now) and its
    estimate of the game for ``seat``."""
    import torch as th
    probs = agent.action_probs(observation, mask)
    by_action = {d["action"]: d for d in decisions}
    top = [int(a) for a in np.argsort(-probs, kind="stable")[:HINT_CHOICES] if int(a) in by_action]
    order = top[:1] + [a for a in top[1:] if probs[a] >= MIN_PROB]
    policy = agent.model.policy
    with th.no_grad():
        value = float(policy.predict_values(th.as_tensor(observation, dtype=th.float32, device=policy.device)[None])[0, 0])
    return {"seat": seat, "choices": [{**by_action[a], "prob": round(float(probs[a]), 3)} for a in order],
            "win": round(min(1.0, max(0.0, (value + 1) / 2)), 3)}
