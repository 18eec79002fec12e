"""PettingZoo's standard AEC wrappers, with direct reads of the attributes every step reads.

``env()`` wraps :class:`~vigtavl_env.env.raw_env` as PettingZoo's classic environments do
(TerminateIllegalWrapper, AssertOutOfBoundsWrapper, OrderEnforcingWrapper). Those wrappers
reach ``agent_selection``, ``terminations``, ``infos`` ... through ``BaseWrapper.__getattr__``,
which runs only after a failed lookup and then asks the next wrapper, which fails again: each
read walks the whole chain, and ``last()`` + ``step()`` make about 36 of them, some 30 us a
decision (as much as the rules engine's legal list).

The subclasses here behave exactly like PettingZoo's (same checks, same errors, same
``str()``, ``isinstance`` of the originals) but answer those reads with one property that goes
straight to the unwrapped environment, where the chain always ended; their ``step`` and
``observe`` call the wrapped env directly instead of through ``BaseWrapper``'s (one Python frame
each), and a step that follows ``last(observe=False)`` reads the raw env's mask where PettingZoo's
``TerminateIllegalWrapper`` would encode a whole observation for it. Assigning one of these
names on a wrapper is refused (PettingZoo would have stored it on the wrapper, shadowing the
environment's value, which no caller should rely on).
"""

from __future__ import annotations

from operator import attrgetter
from typing import Any

import numpy as np
from pettingzoo import AECEnv
from pettingzoo.utils import wrappers
from pettingzoo.utils.env_logger import EnvLogger

# Read on every decision by last(), step() and agent_iter().
FORWARDED = ("agent_selection", "agents", "rewards", "terminations", "truncations", "infos",
             "_cumulative_rewards")
# OrderEnforcingWrapper refuses these before the first reset().
_NEEDS_RESET = frozenset({"rewards", "terminations", "truncations", "infos", "agent_selection", "agents"})


def _forward(name: str, check_reset: bool) -> property:
    doc = f"The unwrapped environment's ``{name}``."
    if not check_reset:
        return property(attrgetter(f"_raw.{name}"), doc=doc)  # read in C

    def get(self: Any) -> Any:
        if not self._has_reset:
            raise AttributeError(f"{name} cannot be accessed before reset")
        return getattr(self._raw, name)

    return property(get, doc=doc)


class _Forwarding:
    """Mixin: remember the unwrapped environment and forward the hot attributes to it."""

    def _remember_raw(self, env: AECEnv) -> None:
        self._raw = env.unwrapped

    def action_space(self, agent: Any) -> Any:
        return self._raw.action_space(agent)  # no wrapper here changes the spaces

    def observation_space(self, agent: Any) -> Any:
        return self._raw.observation_space(agent)


for _name in FORWARDED:
    setattr(_Forwarding, _name, _forward(_name, check_reset=False))


class TerminateIllegalWrapper(_Forwarding, wrappers.TerminateIllegalWrapper):
    def __init__(self, env: AECEnv, illegal_reward: float) -> None:
        super().__init__(env, illegal_reward)
        self._remember_raw(env)

    def observe(self, agent: Any) -> Any:
        obs = self.env.observe(agent)  # PettingZoo's observe, without BaseWrapper's extra frame
        if agent == self._raw.agent_selection:
            self._prev_obs = obs
            self._prev_info = self._raw.infos.get(agent, {})
        return obs

    def step(self, action: Any) -> None:
        raw = self._raw
        agent = raw.agent_selection
        if self._prev_obs is None:
            # PettingZoo's step would observe the agent here (a caller's ``last(observe=False)``)
            # only to read the mask: a whole observation encoded for it. The mask is the raw env's.
            self._prev_obs = {"action_mask": raw.action_mask(agent)}
            self._prev_info = raw.infos.get(agent, {})
        if (type(action) is int and isinstance(self._prev_obs, dict) and not self._terminated
                and not raw.terminations[agent] and not raw.truncations[agent]
                and self._prev_obs["action_mask"][action]):
            self._prev_obs = self._prev_info = None  # a legal move: PettingZoo's last branch, direct
            self.env.step(action)
        else:
            super().step(action)  # PettingZoo's own: a finished agent's step, or an illegal move


class AssertOutOfBoundsWrapper(_Forwarding, wrappers.AssertOutOfBoundsWrapper):
    def __init__(self, env: AECEnv) -> None:
        super().__init__(env)
        self._remember_raw(env)
        self._n_actions = self._raw.action_space(self._raw.possible_agents[0]).n

    def observe(self, agent: Any) -> Any:
        return self.env.observe(agent)  # as BaseWrapper's, in C

    def step(self, action: Any) -> None:
        # A plain int in range is what Discrete.contains accepts (about 4 us a call through
        # numpy); None steps a finished agent out; anything else is refused in one line.
        if type(action) is int and 0 <= action < self._n_actions:
            self.env.step(action)
        elif isinstance(action, np.integer) and 0 <= action < self._n_actions:
            self.env.step(int(action))
        elif action is None and (self.env.terminations.get(self.env.agent_selection, True)
                                 or self.env.truncations.get(self.env.agent_selection, True)):
            self.env.step(None)  # a finished agent stepped out
        else:
            raise ActionOutOfBoundsError(
                f"{self.env.agent_selection} chose {action!r} ({type(action).__name__}): an action is an "
                f"int in 0..{self._n_actions - 1} (Discrete({self._n_actions})), None for a finished agent")


class ActionOutOfBoundsError(ValueError, AssertionError):
    """An action outside the action space: a ValueError with a one-line message, and an
    AssertionError as PettingZoo's AssertOutOfBoundsWrapper raises."""


class OrderEnforcingWrapper(_Forwarding, wrappers.OrderEnforcingWrapper):
    def __init__(self, env: AECEnv) -> None:
        super().__init__(env)
        self._remember_raw(env)

    def __str__(self) -> str:
        return str(self.env)  # as PettingZoo prints its own OrderEnforcingWrapper

    # PettingZoo's step and observe, calling the wrapped env directly (BaseWrapper's frame saved)
    def step(self, action: Any) -> None:
        if not self._has_reset:
            EnvLogger.error_step_before_reset()
        elif not self._raw.agents:
            self._has_updated = True
            EnvLogger.warn_step_after_terminated_truncated()
        else:
            self._has_updated = True
            self.env.step(action)

    def observe(self, agent: Any) -> Any:
        if not self._has_reset:
            EnvLogger.error_observe_before_reset()
        return self.env.observe(agent)


for _name in FORWARDED:
    setattr(OrderEnforcingWrapper, _name, _forward(_name, check_reset=_name in _NEEDS_RESET))
