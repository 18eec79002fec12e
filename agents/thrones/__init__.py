"""The Thrones bots (issue 57, item 5), by the names Vigtavl's bots have for the same parts:

- ``greedy``: the heuristic bot (``greedy.py``): its setup from ``layout.py``, then the decision
  of the best expected evaluation (``evaluate.py``) one decision ahead (``lookahead.py``).
- ``search`` / ``search:N``: the search bot (``search.py``), which never peeks: the greedy setup
  before the reveal, then the N best lines of the greedy bot searched through the opponent's reply.

``KINDS`` is this game's part of the one table of agent kinds (:mod:`agents.kinds`); the arena
finds it through the entry point ``thrones = "agents.thrones:KINDS"`` of the group
``vigtavl.game_agents``.
"""

from __future__ import annotations

from agents.generic import Player
from agents.kinds import AgentKind

from .greedy import GreedyPlayer
from .search import DEFAULT_LINES, SearchPlayer, lines_arg


def _greedy(arg: str, seed: int | None) -> Player:
    if arg:
        raise ValueError(f"greedy takes no argument, got {arg[:20]!r}")
    return GreedyPlayer(seed)


KINDS: dict[str, AgentKind] = {
    "greedy": AgentKind("greedy", "heuristic: captures, threats, a safe Throne; a Fortress-first setup",
                        _greedy, game="thrones"),
    "search": AgentKind("search", f"the greedy bot's {DEFAULT_LINES} best lines searched through the opponent's "
                        "reply (search:N for N lines); the greedy setup, so it never peeks",
                        lambda arg, seed: SearchPlayer(lines_arg(arg), seed), argument="N",
                        game="thrones", budget="lines searched"),
}

__all__ = ["KINDS", "GreedyPlayer", "SearchPlayer"]
