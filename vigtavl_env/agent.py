"""Vigtavl's agent interface: its bots, its training opponents and the web app's live games (the
match runner seats them as players of the game interface: ``agents.registry.SeatPlayer``).

An agent decides for one seat::

    action = agent.act(observation, action_mask, info)

``observation`` and ``action_mask`` are what the PettingZoo environment gives the deciding
agent (the ``(C, H, W)`` float32 tensor and the int8 mask over env actions); ``info`` is that
agent's ``infos`` entry plus the hooks added by whoever runs the game (:func:`agent_info`):
``info["state"]``, the live engine :class:`~vigtavl_env.engine.GameState`, and, for the agent
selected to act, ``info["legal"]``, the engine codes its mask was written from. Agents must
treat both as read-only and ``clone()`` the state before simulating. The action returned is an
env action index whose mask entry is 1.

An agent is asked for every decision of its seat, also out of turn: ``info["interrupt"]`` is
``"retaliation"`` or ``"defend"`` then (who defends its attacked hex or its development about to
be seized: the mask holds only the ``choose <type>`` verbs, and "no defence" for a seizure), and
``None`` for its own turn's decisions (``vigtavl_env/env.py``).

Bots that think in the rules' terms subclass :class:`EngineAgent` and implement
``decide(state, legal_codes) -> engine code``; the env/engine translation is done here, once.
They read neither the observation nor the mask (``reads_observation`` is False), so a runner
may pass ``None`` for both: the match runner does, as encoding an observation costs more than
some bots' decisions.
"""

from __future__ import annotations

import functools
import importlib.metadata
import random
from collections.abc import Callable
from typing import Any

import numpy as np

from games.agent import Agent, AgentUnavailableError

from .codec import ActionCodec, mask_indices
from .engine import GameState, legal_actions


class EngineAgent(Agent):
    """An agent that reads the engine state and picks among the engine's legal codes."""

    reads_observation = False

    def __init__(self) -> None:
        self._codecs: dict[int, ActionCodec] = {}
        self.rng = random.Random(0)
        self.seat = 0

    def act(self, observation: np.ndarray | None, action_mask: np.ndarray | None, info: dict[str, Any]) -> int:
        state, codes = self.state_and_legal(info)
        code = self.decide(state, codes)
        return self.codec(state).to_env(code)

    def state_and_legal(self, info: dict[str, Any]) -> tuple[GameState, list[int]]:
        """The engine state of ``info`` and its legal codes: the env's list when the runner gave
        it (``info["legal"]``), else enumerated here."""
        state = info.get("state")
        if not isinstance(state, GameState):
            raise ValueError(f"{self.name} needs info['state'], the engine state (see vigtavl_env.agent.agent_info)")
        codes = info.get("legal")
        return state, legal_actions(state) if codes is None else codes

    def codec(self, state: GameState) -> ActionCodec:
        board = state.gmap.board
        if id(board) not in self._codecs:
            self._codecs[id(board)] = ActionCodec(board)
        return self._codecs[id(board)]

    def decide(self, state: GameState, legal: list[int]) -> int:
        """Choose one of ``legal`` (engine codes) for ``state.current_player``."""
        raise NotImplementedError


def agent_info(env: Any, agent: str) -> dict[str, Any]:
    """The ``info`` an agent receives: the env's infos entry plus the engine state hook."""
    raw = env.unwrapped
    info = dict(raw.infos.get(agent, {}))
    info["state"] = raw.game_state
    if agent == raw.agent_selection:
        info["legal"] = raw.legal_codes()  # the env's own list: an engine bot need not enumerate it again
    return info


class RandomAgent(Agent):
    """Uniform over the legal actions, from its own seeded generator."""

    name = "random"

    def __init__(self, seed: int | None = None) -> None:
        self.rng = random.Random(seed)
        self.seat = 0

    def act(self, observation: np.ndarray, action_mask: np.ndarray, info: dict[str, Any]) -> int:
        legal = mask_indices(np.asarray(action_mask))
        if legal.size == 0:
            raise ValueError("random agent was asked to act with no legal action")
        return int(legal[self.rng.randrange(legal.size)])


# ------------------------------------------------------------------ agents by name
# Packages name their agents in this entry-point group: the entry ``greedy`` names the specs
# ``greedy`` and ``greedy:ARGS``, its object a factory ``(spec, seed) -> Agent``. The bots of
# this project's ``agents`` package register there (pyproject.toml), and so can anyone's.
AGENT_ENTRY_POINTS = "vigtavl.agents"
_registered: dict[str, Callable[[str, int | None], Agent]] = {}


def register_agent(kind: str, factory: Callable[[str, int | None], Agent]) -> None:
    """Name agents in this process without an installed entry point: ``make_named_agent("kind:...")``
    then calls ``factory(spec, seed)``."""
    if not kind or ":" in kind:
        raise ValueError(f"an agent name is a non-empty word without ':', got {kind!r}")
    _registered[kind.lower()] = factory


@functools.lru_cache(maxsize=1)
def _entry_points() -> dict[str, Any]:
    return {ep.name.lower(): ep for ep in importlib.metadata.entry_points(group=AGENT_ENTRY_POINTS)}


def agent_names() -> list[str]:
    """Every agent name known here: registered in this process or by an installed package."""
    return sorted(set(_registered) | set(_entry_points()))


def agent_factory(kind: str) -> Callable[[str, int | None], Agent] | None:
    """The factory that makes agents named ``kind``, or None."""
    kind = kind.lower()
    if kind in _registered:
        return _registered[kind]
    ep = _entry_points().get(kind)
    return ep.load() if ep is not None else None


def make_named_agent(spec: str, seed: int | None = None) -> Agent:
    """An agent from its spec (``"greedy"``, ``"search:50"``, ``"ppo:pretrained"``) through the
    :data:`AGENT_ENTRY_POINTS` group; a ValueError (one line) for a name nobody registers."""
    if not isinstance(spec, str) or not spec.strip():
        raise ValueError(f"an agent spec is a non-empty string, got {spec!r}")
    factory = agent_factory(spec.strip().partition(":")[0])
    if factory is None:
        known = ", ".join(agent_names()) or "none: is the vigtavl package installed (pip install .)?"
        raise ValueError(f"unknown agent {spec!r}; known agents: {known}")
    return factory(spec.strip(), seed)
