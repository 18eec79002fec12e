"""Agents by name: ``make_agent("greedy")``, ``make_agent("search:200", seed=3)``.

Specs (``list_agents()`` lists them with a line each):

- ``random``: uniform over the legal actions (:class:`vigtavl_env.agent.RandomAgent`).
- ``greedy``, ``aggressor``, ``builder``: the heuristic bots (:mod:`agents.heuristic`).
- ``search``: the search bot at its default budget; ``search:200`` runs at most 200
  simulations per decision, ``search:50ms`` at most 50 milliseconds, ``search:200:50ms`` both
  (:mod:`agents.heuristic.search`).
- ``ppo:path/to/model.zip``, ``ppo:pretrained`` (``ppo:pretrained-3p`` for 3 players, ``ppo:pretrained-4p`` for 4): a trained PPO policy
  playing its most likely legal action (``ppo:MODEL:sample``: sampling from the policy), loaded by
  ``agents.ppo.load_ppo_agent``.
- ``ppo-search:pretrained``, ``ppo-search:path/to/model.zip:200``: the search bot with the
  policy's favourite decisions among its candidates (``agents.heuristic.ppo_search.PPOSearchAgent``). Its
  default budget (5 simulations) keeps it within the search bot's CPU per decision; ``:v2``
  adds the network's value of each simulation's end, at 2 tokens per unit of value.
- ``az:MODEL``: a self-taught network (``vigtavl az train``) alone, its most likely legal action,
  one forward pass per decision; ``az-search:MODEL`` and ``az-search:MODEL:N``: the network in
  Gumbel search with N simulations per decision (default 24; ``agents.az``, ``agents.gumbel``),
  ``:Mms`` adding a time limit of M milliseconds per decision.
  ``MODEL`` is a ``.pt`` model file (``runs/<run>/generations/gen_<k>.pt``) or ``pretrained``.

The shipped ``pretrained`` model (``agents/pretrained/``) plays ``vigtavl_v2``; a model trained on
an earlier version (such as those kept in ``agents/pretrained/v0/`` and ``v1/``) is refused by both
PPO specs in one line (``agents.ppo.ModelMismatchError``, an :class:`AgentUnavailableError`)
saying to retrain.

A bad spec raises ValueError naming the known specs; a PPO spec without the training package, or
with a model of another environment version, raises :class:`AgentUnavailableError` (also a
ValueError) saying why and how to get one.
"""

from __future__ import annotations

import math
import re
from typing import Any

import numpy as np

from agents.kinds import AZ_SEARCH_SIMULATIONS, AgentKind
from games import load_game
from vigtavl_env.agent import Agent, AgentUnavailableError, RandomAgent, agent_factory, agent_names
from .heuristic import STYLES, HeuristicAgent
from .heuristic.search import DEFAULT_ITERATIONS, PPO_SEARCH_ITERATIONS, SearchAgent

# The table of Vigtavl's agent kinds (agents.kinds.AgentKind): the menus, the error messages and
# the arena read it; it is this game's entry in the vigtavl.game_agents group.
_KIND_ROWS: list[tuple[str, str, str, bool]] = [  # name, description, argument, loads a model
    ("random", "uniform over the legal actions", "", False),
    ("greedy", "heuristic: the best expected token gain now, one decision at a time", "", False),
    ("aggressor", "heuristic: seeks battles it can win, seizes, flanks, lands knights near the enemy", "", False),
    ("builder", "heuristic: the Complex, developments, walls (Great Wall, Citadel), guards", "", False),
    ("search", f"rollout search over the heuristic's best decisions ({DEFAULT_ITERATIONS} simulations "
               "per decision; search:N for N, search:Mms for a time limit)", "N, Mms or N:Mms", False),
    ("ppo", "a trained PPO policy: ppo:path/to/model.zip, or ppo:pretrained for the shipped one "
            "(needs the training package)", "MODEL or MODEL:sample", True),
    ("ppo-search", "the search bot with a trained policy's favourite decisions among its candidates: "
                   "ppo-search:MODEL, ppo-search:MODEL:N or :Mms for a budget, :vW to add the "
                   "network's value at weight W", "MODEL[:N][:Mms][:vW]", True),
    ("az", "a self-taught network alone (vigtavl az train): az:path/to/gen_k.pt or az:pretrained",
     "MODEL", True),
    ("az-search", "a self-taught network in Gumbel search: az-search:MODEL, az-search:MODEL:N for N "
                  f"simulations per decision (default {AZ_SEARCH_SIMULATIONS}), :Mms for a time limit",
     "MODEL[:N][:Mms]", True),
]
# A search's budget when its spec names none: the simulations per decision of each searching kind.
DEFAULT_BUDGETS = {"search": DEFAULT_ITERATIONS, "ppo-search": PPO_SEARCH_ITERATIONS,
                   "az-search": AZ_SEARCH_SIMULATIONS}
AGENTS: dict[str, str] = {name: description for name, description, _, _ in _KIND_ROWS}


class SeatPlayer:
    """A Vigtavl agent as a player of the game interface (``agents.generic.Player``): handed its
    seat's view and the legal action indices, it acts on the observation, the mask and the engine
    state as it would in the environment."""

    def __init__(self, agent: Agent, seed: int | None = None) -> None:
        self.agent, self.seed, self.seat = agent, seed, None

    def __call__(self, view: Any, legal: list[int]) -> int:
        seat = view.current_player()
        if self.seat != seat:  # the first decision: the agent learns its seat
            self.agent.reset(seat, self.seed)
            self.seat = seat
        info = {"state": view.engine}
        if not getattr(self.agent, "reads_observation", True):
            return int(self.agent.act(None, None, info))
        mask = np.zeros(load_game("vigtavl").num_actions(view), dtype=np.int8)
        mask[legal] = 1
        return int(self.agent.act(view.observation(seat), mask, info))


def _kind(name: str, description: str, argument: str, model: bool) -> AgentKind:
    def factory(arg: str, seed: int | None) -> SeatPlayer:
        return SeatPlayer(make_agent(f"{name}:{arg}" if arg else name, seed), seed)
    budget = "simulations" if name.endswith("search") else ""
    return AgentKind(name, description, factory, argument, model, game="vigtavl", budget=budget,
                     default_budget=DEFAULT_BUDGETS.get(name, 0))


KINDS: dict[str, AgentKind] = {row[0]: _kind(*row) for row in _KIND_ROWS}


BUDGET = re.compile(r"\d+|\d+(\.\d*)?ms")  # a search budget: simulations or milliseconds
SAMPLE = ":sample"  # ppo:MODEL:sample
VALUE_WEIGHT = re.compile(r"v(\d+(\.\d*)?)")  # ppo-search's weight of the network's value
PPO_MISSING = "PPO agents need torch and sb3-contrib (pip install vigtavl); train one with `vigtavl train`"
AZ_MISSING = "az agents need torch (pip install vigtavl); train one with `vigtavl az train`"
SIMULATIONS = re.compile(r"\d+")  # az-search's simulations per decision
MS = re.compile(r"\d+(\.\d*)?ms")  # a time limit per decision (az-search's, and the web server's check of every search)


def list_agents() -> list[str]:
    """The agent names ``make_agent`` knows (see :data:`AGENTS` for a line about each)."""
    return list(AGENTS)


def make_agent(spec: str, seed: int | None = None) -> Agent:
    """Create an agent from a spec such as ``"builder"``, ``"search:200"`` or ``"ppo:model.zip"``."""
    if not isinstance(spec, str) or not spec.strip():
        raise ValueError(f"agent spec must be a non-empty string, got {spec!r}; {_known()}")
    name, _, arg = spec.strip().partition(":")
    name = name.lower()
    if name == "random":
        _no_argument(name, arg)
        return RandomAgent(seed)
    if name in STYLES:
        _no_argument(name, arg)
        return HeuristicAgent(STYLES[name], seed)
    if name == "search":
        iterations, ms = _search_budget(arg, spec)
        return SearchAgent(iterations=iterations, ms=ms, seed=seed)
    if name == "ppo":
        return _ppo(arg, spec, seed)
    if name == "ppo-search":
        return _ppo_search(arg, spec, seed)
    if name in ("az", "az-search"):
        return _az(name, arg, spec, seed)
    factory = agent_factory(name)  # another package's agents (the vigtavl.agents entry points)
    if factory is not None and factory is not make_agent:
        return factory(spec.strip(), seed)
    raise ValueError(f"unknown agent {spec!r}; {_known()}")


def _known() -> str:
    return "known agents: " + ", ".join(["random", "greedy", "aggressor", "builder", "search",
                                          "search:N", "search:Mms", "ppo:PATH", "ppo:pretrained",
                                          "ppo-search:pretrained", "ppo-search:PATH:N",
                                          "az:PATH", "az-search:PATH:N"]
                                         + [n for n in agent_names() if n not in AGENTS])


def _no_argument(name: str, arg: str) -> None:
    if arg:
        raise ValueError(f"agent {name!r} takes no argument (got {name}:{arg}); {_known()}")


def _search_budget(arg: str, spec: str) -> tuple[int, float | None]:
    """``""`` -> default; ``"200"``, ``"50ms"`` or ``"200:50ms"``."""
    iterations, ms = DEFAULT_ITERATIONS, None
    for part in filter(None, arg.split(":")):
        part = part.strip().lower()
        try:
            if part.endswith("ms"):
                ms = float(part[:-2])
                if not 0 < ms < math.inf:  # also nan: no comparison holds
                    raise ValueError
            else:
                iterations = int(part)
                if iterations < 1:
                    raise ValueError
        except ValueError:
            raise ValueError(f"bad search budget in {spec!r}: {part!r} is not a positive number of "
                             "simulations (search:200) or milliseconds (search:50ms)") from None
    if ms is not None and not any(p and not p.strip().lower().endswith("ms") for p in arg.split(":")):
        iterations = 10**9  # a time limit alone: as many simulations as fit
    return iterations, ms


def _ppo(arg: str, spec: str, seed: int | None) -> Agent:
    if not arg:
        raise ValueError(f"agent {spec!r} needs a model: ppo:path/to/model.zip or ppo:pretrained")
    try:
        from agents.ppo import load_ppo_agent
    except ImportError:
        raise AgentUnavailableError(PPO_MISSING) from None
    if arg.endswith(SAMPLE):  # ppo:MODEL:sample draws its actions from the policy (seeded)
        return load_ppo_agent(arg[: -len(SAMPLE)], deterministic=False, seed=seed)
    return load_ppo_agent(arg, seed=seed)


def spec_model(spec: str) -> str | None:
    """The model a ``ppo`` or ``ppo-search`` spec loads (``pretrained``, a path); None for the
    other agents, which load no file."""
    name, _, arg = spec.strip().partition(":")
    name = name.lower()
    if name == "ppo":
        return arg[: -len(SAMPLE)] if arg.endswith(SAMPLE) else arg
    if name == "ppo-search":
        return _split_ppo_search(arg)[0]
    if name in ("az", "az-search"):
        return _split_az(name, arg, spec)[0]
    return None


def _split_ppo_search(arg: str) -> tuple[str, list[str], dict]:
    """``MODEL[:budget...][:vW]`` -> the model, the budget parts and the options."""
    parts = arg.split(":")
    budget: list[str] = []
    options: dict = {}
    while len(parts) > 1:
        last = parts[-1].strip().lower()
        if BUDGET.fullmatch(last):
            budget.insert(0, parts.pop())
        elif (m := VALUE_WEIGHT.fullmatch(last)) and "value_weight" not in options:
            options["value_weight"] = float(m.group(1))
            parts.pop()
        else:
            break
    return ":".join(parts), budget, options


def _ppo_search(arg: str, spec: str, seed: int | None) -> Agent:
    """``ppo-search:MODEL`` with an optional budget after the model: ``:200``, ``:50ms``."""
    model, budget, options = _split_ppo_search(arg)
    if not model:
        raise ValueError(f"agent {spec!r} needs a model: ppo-search:path/to/model.zip or ppo-search:pretrained")
    if budget:
        options["iterations"], options["ms"] = _search_budget(":".join(budget), spec)
    try:
        from agents.heuristic.ppo_search import load_ppo_search_agent
    except ImportError:
        raise AgentUnavailableError(PPO_MISSING) from None
    return load_ppo_search_agent(model, seed=seed, **options)


def _split_az(name: str, arg: str, spec: str) -> tuple[str, int | None, float | None]:
    """``MODEL`` or, for az-search, ``MODEL[:N][:Mms]`` -> the model, the simulations and the
    milliseconds per decision (None: the default, no time limit)."""
    model, simulations, ms = arg, None, None
    bad = (f"bad az-search budget in {spec!r}: {{!r}} is not a positive number of simulations "
           "(az-search:MODEL:16) or of milliseconds (az-search:MODEL:16:50ms), each named once")
    while name == "az-search" and ":" in model:
        head, _, last = model.rpartition(":")
        part = last.strip().lower()
        if SIMULATIONS.fullmatch(part) and simulations is None:
            simulations = int(part)
            if simulations < 1:
                raise ValueError(bad.format(last))
        elif MS.fullmatch(part) and ms is None:
            ms = float(part[:-2])
            if not ms > 0:
                raise ValueError(bad.format(last))
        elif not part or part.endswith("ms") or SIMULATIONS.fullmatch(part):
            raise ValueError(bad.format(last))
        else:
            break  # a ':' inside the model's path
        model = head
    if not model.strip():
        raise ValueError(f"agent {spec!r} needs a model: {name}:path/to/gen_k.pt or {name}:pretrained")
    return model.strip(), simulations, ms


def _az(name: str, arg: str, spec: str, seed: int | None) -> Agent:
    """``az:MODEL`` (the network alone) or ``az-search:MODEL[:N][:Mms]`` (N simulations, within
    M milliseconds per decision)."""
    model, simulations, ms = _split_az(name, arg, spec)
    try:
        from agents.az import load_az_agent, load_az_search_agent
    except ImportError:
        raise AgentUnavailableError(AZ_MISSING) from None
    if name == "az":
        return load_az_agent(model, seed=seed)
    return load_az_search_agent(model, simulations or AZ_SEARCH_SIMULATIONS, seed=seed, ms=ms)
