"""Shared test fixtures: small hand-made maps and the helpers scenario tests speak in.

``make_map`` draws a board for the player count: every hex land, the outer ring sea (so ships
can sail and ride the winds), then the listed hexes turned to sea or mountain. Scenario tests
put pieces on it with :class:`vigtavl_env.engine.scenario.Scenario` and ask questions with the
helpers below (``hexes(state, "move")``, ``refused(state, "seize", (1, 0))``, ...).
"""

from __future__ import annotations

from collections.abc import Iterable

import pytest

from vigtavl_env.engine import GameState, IllegalActionError, to_json
from vigtavl_env.engine import actions as A
from vigtavl_env.engine.hexgrid import Board
from vigtavl_env.engine.maps import LAND, MOUNTAIN, SEA, SIDE_FOR_PLAYERS, GameMap
from vigtavl_env.engine.scenario import Scenario, act, legal

Axial = tuple[int, int]


def make_map(num_players: int = 2, sea: Iterable[Axial] = (), mountains: Iterable[Axial] = (),
             sea_rings: int = 1, name: str = "test") -> GameMap:
    """Land everywhere, ``sea_rings`` outer rings of sea, plus extra sea and mountain hexes."""
    board = Board(SIDE_FOR_PLAYERS[num_players])
    terrain = []
    sea, mountains = set(map(tuple, sea)), set(map(tuple, mountains))
    for q, r in board.coords:
        ring = max(abs(q), abs(r), abs(q + r))
        if (q, r) in mountains:
            terrain.append(MOUNTAIN)
        elif (q, r) in sea or ring > board.radius - sea_rings:
            terrain.append(SEA)
        else:
            terrain.append(LAND)
    return GameMap(name, num_players, tuple(terrain))


# ---------------------------------------------------------------- helpers for scenario tests
def at(state: GameState, u: int) -> Axial:
    """Axial hex of unit ``u`` (its freighter's hex when aboard)."""
    return state.gmap.board.coords[state.u_cell[u]]


def hx(state: GameState, a: Axial) -> int:
    """Hex number of an axial coordinate."""
    return state.gmap.board.index[a]


def hexes(state: GameState, verb: str) -> set[Axial]:
    """The hexes where ``verb`` is legal now."""
    return {h for v, h in legal(state) if v == verb}


def verbs(state: GameState) -> set[str]:
    """The verb names legal now."""
    return {v for v, _ in legal(state)}


def battles(state: GameState) -> list[dict]:
    """The battle events so far."""
    return [e for e in state.events if e["event"] == "battle"]


def load_freighters(state: GameState, split: int = 1) -> list[int]:
    """Play the setup's load decisions (S4): every player still to load his freighters takes
    ``FREIGHTER_SPLITS[split]`` (1, SSA|SAC, was the rules-v0 engine's constant). Returns the
    players who decided, in order."""
    who = []
    while state.to_load:
        who.append(state.current_player)
        act(state, A.GLOBAL_NAMES[A.LOAD + split])
    return who


def refused(state: GameState, verb: str, where: Axial | None = None) -> bool:
    """The decision raises IllegalActionError and leaves the state exactly as it was."""
    before = to_json(state)
    with pytest.raises(IllegalActionError):
        act(state, verb, where)
    assert to_json(state) == before
    return True


def defend_scenario() -> Scenario:
    """Battle phase: player 0's cavalry at (0, 0) may attack (1, 0), where player 1 has a soldier
    and an archer; player 1's soldier at (1, -1), next to both and cheaper than the archer, may
    defend too: three possible defenders, so player 1 is asked (out of turn) which one defends."""
    sc = Scenario(make_map(), phase="battle")
    sc.development(0, "camp", (-4, 0))
    sc.unit(0, "cavalry", (0, 0))
    sc.unit(1, "soldier", (1, 0))
    sc.unit(1, "archer", (1, 0))
    sc.unit(1, "soldier", (1, -1))
    return sc


@pytest.fixture
def one_torch_thread():
    """One torch thread for the test (small networks: more threads only wait on a loaded machine)."""
    import torch as th
    before = th.get_num_threads()
    th.set_num_threads(1)
    yield
    th.set_num_threads(before)
