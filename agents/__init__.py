"""Bots that play Vigtavl.

Every bot is an :class:`~vigtavl_env.agent.Agent` (``act(observation, action_mask, info)``); the
rules-based ones are :class:`~vigtavl_env.agent.EngineAgent` subclasses that decide on engine codes
(``decide(state, legal_codes)``). Create them by name with :func:`make_agent`:

- ``random``: uniform over the legal actions.
- ``greedy``, ``aggressor``, ``builder``: heuristic bots (``agents.heuristic``).
- ``search`` / ``search:200`` / ``search:50ms``: rollout search over the heuristic's best
  decisions (``agents.heuristic.search``).
- ``ppo:path/to/model.zip``, ``ppo:pretrained``: trained policies (the training package).

Shared rules-based evaluation (battle odds, token values, threats, a position value) lives in
``agents.tactics``.
"""

# Loaded on first use (PEP 562), so that importing a generic module of this package
# (agents.generic, agents.kinds, agents.stats) does not load Vigtavl's engine.
_EXPORTS = {
    "Agent": "vigtavl_env.agent", "EngineAgent": "vigtavl_env.agent", "RandomAgent": "vigtavl_env.agent",
    "agent_info": "vigtavl_env.agent", "AGGRESSOR": "agents.heuristic", "BUILDER": "agents.heuristic",
    "GREEDY": "agents.heuristic", "STYLES": "agents.heuristic", "HeuristicAgent": "agents.heuristic",
    "Style": "agents.heuristic", "AGENTS": "agents.registry", "AgentUnavailableError": "agents.registry",
    "list_agents": "agents.registry", "make_agent": "agents.registry", "SearchAgent": "agents.heuristic.search",
}
__all__ = sorted(_EXPORTS)


def __getattr__(name: str) -> object:
    if name not in _EXPORTS:
        raise AttributeError(f"module 'agents' has no attribute {name!r}")
    import importlib
    return getattr(importlib.import_module(_EXPORTS[name]), name)
