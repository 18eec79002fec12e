"""Bots that play Vigtavl.

Every bot is an :class:`~vigtavl_env.agent.Agent` (``act(observation, action_mask, info)``); the
rules-based ones are :class:`~vigtavl_env.agent.EngineAgent` subclasses that decide on engine codes
(``decide(state, legal_codes)``). Create them by name with :func:`make_agent`:

- ``random``: uniform over the legal actions.
- ``greedy``, ``aggressor``, ``builder``: heuristic bots (``agents.heuristic``).
- ``search`` / ``search:200`` / ``search:50ms``: rollout search over the heuristic's best
  decisions (``agents.search``).
- ``ppo:path/to/model.zip``, ``ppo:pretrained``: trained policies (the training package).

Shared rules-based evaluation (battle odds, token values, threats, a position value) lives in
``agents.tactics``.
"""

from vigtavl_env.agent import Agent, EngineAgent, RandomAgent, agent_info
from .heuristic import AGGRESSOR, BUILDER, GREEDY, STYLES, HeuristicAgent, Style
from .registry import AGENTS, AgentUnavailableError, list_agents, make_agent
from .search import SearchAgent

__all__ = [
    "AGENTS", "AGGRESSOR", "Agent", "AgentUnavailableError", "BUILDER", "EngineAgent", "GREEDY",
    "HeuristicAgent", "RandomAgent", "STYLES", "SearchAgent", "Style", "agent_info",
    "list_agents", "make_agent",
]
