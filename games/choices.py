"""A legal decision as a person reads and types it (:class:`Choice`): what a game's
:meth:`games.interface.GameState.choices` lists for a terminal's menu or a page's decision list.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Choice:
    """One legal decision as the person sees it."""

    number: int  # 1-based, in the game's order of the decisions
    action: int  # the action index
    kind: str  # "move", "build wall", "end turn": the command without its place
    command: str  # what the person types: "move 3,-1", "build wall ne 0,2", "end turn"
    hex: str | None  # the place the command ends with, as typed ("3,-1"), if any
    text: str  # the game's own words for it
    plain: bool = True  # the text says no more than the command

    @property
    def stem(self) -> str:
        """The command without its place (``build wall ne``)."""
        return self.command[:-len(self.hex)].rstrip() if self.hex else self.command

    def line(self) -> str:
        extra = "" if self.plain else f"   ({self.text})"
        return f"{self.number:>5}. {self.command}{extra}"
