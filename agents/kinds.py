"""One table of agent kinds per game, and the spec that names one (:class:`AgentSpec`).

A spec is ``kind`` or ``kind:argument`` (``random``, ``rollout:16``, ``search:200``), and it
belongs to a game: ``greedy`` for Thrones is another bot than ``greedy`` for Vigtavl. A game's
table holds the generic kinds, which play any game through the interface alone
(:data:`agents.generic.GENERIC_KINDS`), and the game's own bots, found through the entry-point
group ``vigtavl.game_agents``: an entry named after the game points at a dict
``{kind: AgentKind}``, so an outside package can add bots to a game::

    [project.entry-points."vigtavl.game_agents"]
    thrones = "agents.thrones:KINDS"

Parsing, the menus, the error messages and the web app's guard all read this table.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from functools import cache
from importlib.metadata import entry_points
from typing import Any

from games import load_game

from .generic import GENERIC_KINDS, Player, game_bound
from .shipped import PPO_SEARCH_SIMULATIONS

GROUP = "vigtavl.game_agents"
MAX_SPEC_CHARS = 300
# az-search's default budget, simulations per decision: agents.az plays it and a game's kinds table
# names it (without loading torch)
AZ_SEARCH_SIMULATIONS = 24


@dataclass(frozen=True)
class AgentKind:
    """One kind of agent: what it is, what its argument means, and how to make one."""

    name: str
    description: str
    factory: Callable[[str, int | None], Player]
    argument: str = ""  # what follows the ':' (e.g. "N simulations"); "" = takes none
    model: bool = False  # the argument names a model file to load
    game: str | None = None  # None: plays any game
    budget: str = ""  # what a decision's search budget counts ("simulations"); "" = one pass
    default_budget: int = 0  # the budget of a spec that names none, in ``budget``'s units


@dataclass(frozen=True)
class AgentSpec:
    """A parsed spec: the game, the kind, and the argument text after the first ':'."""

    game: str
    kind: str
    argument: str = ""

    @classmethod
    def parse(cls, text: Any, game: str = "vigtavl") -> "AgentSpec":
        """``"search:200"`` for ``game`` -> AgentSpec; ValueError in one line naming the known
        kinds for a kind the game does not have."""
        if not isinstance(text, str) or not text.strip():
            raise ValueError(f"an agent spec is a non-empty string, got {str(text)[:40]!r}")
        if len(text) > MAX_SPEC_CHARS:
            raise ValueError(f"an agent spec is at most {MAX_SPEC_CHARS} characters")
        kind, _, argument = text.strip().partition(":")
        kind = kind.strip().lower()
        table = kinds_for(game)
        if kind not in table:
            raise ValueError(f"unknown agent {text.strip()[:40]!r} for {game}; {known(game)}")
        if argument and not table[kind].argument:
            raise ValueError(f"agent {kind!r} takes no argument (got {text.strip()[:40]!r})")
        return cls(game, kind, argument)

    @property
    def info(self) -> AgentKind:
        return kinds_for(self.game)[self.kind]

    def make(self, seed: int | None = None) -> Player:
        """The player this spec names (a bad argument: ValueError in one line)."""
        return self.info.factory(self.argument, seed)

    def __str__(self) -> str:
        return f"{self.kind}:{self.argument}" if self.argument else self.kind


GENERIC_ARGUMENTS = {"rollout": "N", "ppo": "PATH", "ppo-search": "PATH[:N]"}  # what follows a generic kind's ':'
MODEL_KINDS = ("ppo", "ppo-search")  # generic kinds whose argument names a model file


def _generic(game: str) -> dict[str, AgentKind]:
    """The generic kinds as ``game``'s rows (its ``ppo`` knows the game, for ``ppo:pretrained``)."""
    out = {}
    for name, (description, factory) in GENERIC_KINDS.items():
        out[name] = AgentKind(name, description, game_bound(name, game) or factory,
                              argument=GENERIC_ARGUMENTS.get(name, ""), model=name in MODEL_KINDS,
                              **({"budget": "simulations", "default_budget": PPO_SEARCH_SIMULATIONS}
                                 if name == "ppo-search" else {}))
    return out


def _as_kind(name: str, entry: Any, game: str) -> AgentKind:
    if not isinstance(entry, AgentKind):
        raise ValueError(f"the agents of {game}: {name!r} is not an agents.kinds.AgentKind")
    return entry


@cache
def kinds_for(game: str) -> dict[str, AgentKind]:
    """Every kind that plays ``game``: the generic ones, then the game's own (which win a
    clash of names). ValueError (one line) for an unknown game."""
    load_game(game)
    table = _generic(game)
    for ep in entry_points(group=GROUP):
        if ep.name == game:
            try:
                own: Mapping[str, Any] = ep.load()
            except (ImportError, AttributeError) as e:  # a broken plugin: one line, not a traceback
                raise ValueError(f"the agents of {game} ({ep.value}) cannot be loaded: {e}") from None
            table.update({n: _as_kind(n, e, game) for n, e in own.items()})
    return table


def known(game: str) -> str:
    """The kinds of ``game`` in one line, for error messages."""
    parts = [f"{k.name}:{k.argument}" if k.argument else k.name for k in kinds_for(game).values()]
    return f"known agents for {game}: " + ", ".join(parts)


def make_player(game: str, spec: str, seed: int | None = None) -> Player:
    """The player ``spec`` names for ``game``; ValueError in one line for a bad spec."""
    return AgentSpec.parse(spec, game).make(seed)


def menu(game: str) -> list[dict[str, Any]]:
    """The kinds of ``game`` as the web app's and the CLI's menus list them."""
    return [{"kind": k.name, "description": k.description, "argument": k.argument, "model": k.model,
             "budget": k.budget} for k in kinds_for(game).values()]
