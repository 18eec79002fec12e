"""The agent of one seat, as an environment asks it: ``agent.act(observation, action_mask, info)``.

The observation and mask are what a PettingZoo AEC environment of any game gives the deciding
seat; ``info`` is that seat's ``infos`` entry plus whatever its runner adds. The answer is an
action index whose mask entry is 1. A game's own agents subclass :class:`Agent` (Vigtavl's engine
bots: ``vigtavl_env.agent.EngineAgent``), as do the trained ones (``agents.ppo``, ``agents.az``).
"""

from __future__ import annotations

import random
from typing import Any

import numpy as np


class AgentUnavailableError(ValueError):
    """The spec is well formed but the agent cannot be made here (a missing package, a model
    file of another environment version)."""


class Agent:
    """Base class: a name, a per-game reset, and ``act``."""

    name = "agent"
    reads_observation = True
    """Whether ``act`` reads its observation and mask; a runner may pass ``None`` for both to an
    agent that does not (Vigtavl's ``EngineAgent`` reads ``info`` alone)."""

    def reset(self, seat: int, seed: int | None = None) -> None:
        """Called before each game with the agent's seat and a seed for its own randomness."""
        self.seat = seat
        self.rng = random.Random(seed)

    def act(self, observation: np.ndarray, action_mask: np.ndarray, info: dict[str, Any]) -> int:
        raise NotImplementedError

    def __call__(self, observation: np.ndarray, action_mask: np.ndarray, info: dict[str, Any] | None = None) -> int:
        return self.act(observation, action_mask, info or {})

    def __repr__(self) -> str:
        return f"<{type(self).__name__} {self.name}>"
