"""Build positions by hand: for scenario tests, tutorials and puzzles.

A :class:`Scenario` starts from a map (a preset name, map text, or a GameMap) and an empty board
in the phase you ask for; you place pieces by axial coordinate, then ``build()`` returns a state
that has been through the JSON loader, so a position that breaks the rules' invariants
(occupancy, terrain, one player per hex) fails with a ValueError naming the problem.

    sc = Scenario("duel", phase="battle")
    sc.unit(0, "cavalry", (0, 0))
    sc.unit(1, "soldier", (1, 0))
    sc.development(0, "camp", (-1, 0))
    state = sc.build()
    act(state, "activate cavalry", (0, 0))
    state.forced_dice[:] = [6, 6, 6, 1]        # the dice the battle will roll, in order
    act(state, "attack", (1, 0))

``act`` and ``legal`` speak in verb names and axial coordinates, the words of the rules.
"""

from __future__ import annotations

from typing import Any

from . import actions as A
from .config import RulesConfig
from .game import apply_action, legal_actions, new_game
from .hexgrid import DIRECTION_NAMES
from .serialize import from_dict, to_dict
from .state import BATTLE, BUILD, LOADED, ON_BOARD, PLACEMENT, PRISONER, GameState
from .stats import DEV_ALIASES, FREIGHTER, UNIT_ALIASES

PHASES = {"placement": PLACEMENT, "build": BUILD, "battle": BATTLE}


class Scenario:
    """A hand-made position. Every placement names its player, piece and axial hex."""

    def __init__(self, gmap: Any = "duel", phase: str = "battle", turn_player: int = 0,
                 config: RulesConfig | None = None, seed: int = 0, num_players: int | None = None,
                 wind: int = 1, gold: int | None = None, silver: int | None = None) -> None:
        from .maps import GameMap, load_map, parse_map

        if isinstance(gmap, str) and "\n" in gmap:
            gmap = parse_map(gmap)
        elif not isinstance(gmap, GameMap):
            gmap = load_map(gmap, num_players)
        if phase not in PHASES:
            raise ValueError(f"phase must be one of {sorted(PHASES)}, got {phase!r}")
        self.state = s = new_game(gmap, config, seed)
        s.set_unit_count(0)
        s.events.clear()
        s.to_load.clear()  # the position's pieces are placed by hand, freighters' cargo too
        s.phase = PHASES[phase]
        s.turn_player = turn_player
        s.wind = wind
        if phase != "placement":
            for p in range(s.n_players):
                s.gold[p] = s.silver[p] = 0
            s.gold[turn_player] = s.config.gold_per_turn if gold is None else gold
            s.silver[turn_player] = s.config.silver_per_turn if silver is None else silver

    def cell(self, at: tuple[int, int]) -> int:
        idx = self.state.gmap.board.index
        if tuple(at) not in idx:
            raise ValueError(f"hex {at} is not on this {self.state.gmap.board.side}-sided board")
        return idx[tuple(at)]

    def unit(self, owner: int, kind: str, at: tuple[int, int], aboard: int | None = None) -> int:
        """Place a unit; ``aboard`` puts a knight on that freighter (a unit number)."""
        utype = _lookup(kind, UNIT_ALIASES, "unit")
        s = self.state
        if aboard is not None:
            if s.u_type[aboard] != FREIGHTER:
                raise ValueError(f"unit {aboard} is not a freighter")
            return s.add_unit(owner, utype, where=LOADED, carrier=aboard)
        return s.add_unit(owner, utype, where=ON_BOARD, cell=self.cell(at))

    def prisoner(self, owner: int, kind: str, held_by: int, at: tuple[int, int]) -> int:
        """A knight of ``owner`` held prisoner by ``held_by`` on his developed hex ``at``."""
        s = self.state
        u = s.add_unit(owner, _lookup(kind, UNIT_ALIASES, "unit"), where=PRISONER, cell=self.cell(at))
        s.u_holder[u] = held_by
        s.mark_units()
        return u

    def development(self, owner: int, kind: str, at: tuple[int, int], built_by: int | None = None) -> None:
        """A development of ``owner``; ``built_by``: who built it (default the owner; another
        player for a development that ``owner`` seized)."""
        c = self.cell(at)
        self.state.set_development(c, _lookup(kind, DEV_ALIASES, "development"), owner)
        self.state.dev_builder[c] = owner if built_by is None else built_by
        self.state.mark_developments()

    def artillery(self, owner: int, at: tuple[int, int]) -> None:
        self.state.set_artillery(self.cell(at), owner)

    def wall(self, owner: int, at: tuple[int, int], direction: int | str, built_by: int | None = None) -> int:
        """A wall on the edge of ``at`` in ``direction`` (0-5 or E, NE, NW, W, SW, SE);
        ``built_by`` as for :meth:`development`."""
        d = DIRECTION_NAMES.index(direction) if isinstance(direction, str) else direction
        e = self.state.gmap.board.edge[self.cell(at)][d]
        self.state.walls[e] = owner
        self.state.wall_builder[e] = owner if built_by is None else built_by
        self.state.mark_walls()
        return e

    def build(self) -> GameState:
        """The finished position, checked by the JSON loader."""
        return from_dict(to_dict(self.state))


def _lookup(name: str, table: dict[str, int], what: str) -> int:
    key = name.lower()
    if key not in table:
        raise ValueError(f"unknown {what} {name!r}; known: {sorted(table)}")
    return table[key]


def code_for(state: GameState, verb: str, at: tuple[int, int] | None = None) -> int:
    """Engine code for a verb name (see actions.VERB_NAMES, or 'end turn'/'end activation')."""
    n = state.gmap.board.n_cells
    if verb in A.GLOBAL_NAMES:
        return A.encode_global(A.GLOBAL_NAMES.index(verb), n)
    if verb not in A.VERB_NAMES:
        raise ValueError(f"unknown verb {verb!r}; known: {list(A.VERB_NAMES) + list(A.GLOBAL_NAMES)}")
    if at is None:
        raise ValueError(f"verb {verb!r} needs a hex")
    return A.encode(A.VERB_NAMES.index(verb), state.gmap.board.index[tuple(at)], n)


def act(state: GameState, verb: str, at: tuple[int, int] | None = None) -> None:
    """Apply a decision given as a verb name and an axial hex."""
    apply_action(state, code_for(state, verb, at))


def legal(state: GameState) -> list[tuple[str, tuple[int, int] | None]]:
    """The legal decisions as (verb name, axial hex or None)."""
    n = state.gmap.board.n_cells
    out = []
    for code in legal_actions(state):
        verb, cell, g = A.decode(code, n)
        out.append((A.GLOBAL_NAMES[g], None) if g >= 0 else (A.VERB_NAMES[verb], state.gmap.board.coords[cell]))
    return out
