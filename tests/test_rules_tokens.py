"""Victory tokens for walls, complexes and the end awards (docs/rules.md rows O5-O8)."""

from __future__ import annotations

from conftest import make_map

from vigtavl_env.engine import RulesConfig, winners
from vigtavl_env.engine.hexgrid import DIRECTION_NAMES
from vigtavl_env.engine.scenario import Scenario, act
from vigtavl_env.engine.state import CITADEL, COMPLEX, GREAT_WALL, count_of
from vigtavl_env.engine.tokens import longest_wall


def awards(state):
    return [(e["award"], e["player"], e["tokens"]) for e in state.events if e["event"] == "award"]


def test_citadel_counts_enclosed_hexes_once():
    """O5: Citadel, once a game: 1 token per hex the player's own walls enclose completely."""
    # One hex walled in by six walls: the sixth pays 1 (the fifth made a Great Wall, O7).
    sc = Scenario(make_map(2), phase="build", gold=10)
    sc.unit(0, "soldier", (0, 0))
    state = sc.build()
    for d in range(5):
        act(state, f"build wall {d}", (0, 0))
    assert state.tokens[0] == 1 and not state.awards[0] & CITADEL
    act(state, "build wall 5", (0, 0))
    assert state.tokens[0] == 2 and state.awards[0] & CITADEL
    assert ("citadel", 0, 1) in awards(state)

    # Two hexes enclosed at once pay 2; enclosing more later pays nothing.
    sc = Scenario(make_map(2), phase="build", gold=10)
    sc.unit(0, "soldier", (0, 0))
    sc.unit(0, "soldier", (1, 0))
    sc.unit(0, "soldier", (-3, 0))
    for d in (1, 2, 3, 4, 5):
        sc.wall(0, (0, 0), d)
    for d in (0, 1, 4, 5):  # (1,0)'s west edge is inside the pair
        sc.wall(0, (1, 0), d)
    for d in range(5):
        sc.wall(0, (-3, 0), d)
    state = sc.build()
    state.awards[0] |= GREAT_WALL  # already paid: only the Citadel is counted here
    act(state, "build wall 2", (1, 0))
    assert state.tokens[0] == 2 and state.awards[0] & CITADEL
    act(state, "build wall 5", (-3, 0))  # a third hex walled in
    assert state.tokens[0] == 2
    assert [a for a in awards(state) if a[0] == "citadel"] == [("citadel", 0, 2)]

    # Only his own walls enclose: the opponent's three walls leave the hex open.
    sc = Scenario(make_map(2), phase="build", gold=10)
    sc.unit(0, "soldier", (0, 0))
    for d in (3, 4, 5):
        sc.wall(1, (0, 0), d)
    sc.wall(0, (0, 0), 0)
    sc.wall(0, (0, 0), 1)
    state = sc.build()
    act(state, "build wall 2", (0, 0))
    assert state.tokens == [0, 0] and not state.awards[0] & CITADEL

    # The map's border is open ocean: a border hex needs walls on its border edges too.
    sc = Scenario(make_map(2), phase="build", gold=10)
    sc.unit(0, "caravel", (0, -5))  # a corner: NE, NW and W lie on the border
    for d in (0, 4, 5, 2):
        sc.wall(0, (0, -5), d)
    state = sc.build()
    state.awards[0] |= GREAT_WALL
    act(state, "build wall 1", (0, -5))  # the inner edges are all walled, W is still open
    assert state.tokens[0] == 0
    act(state, "build wall 3", (0, -5))
    assert state.tokens[0] == 1 and state.awards[0] & CITADEL


def test_citadel_mountain_edges_need_no_wall():
    """O5: "you do not have to build walls on edges bordering mountain hexes"."""
    sc = Scenario(make_map(2, mountains=[(1, 0), (0, 1)]), phase="build", gold=10)
    sc.unit(0, "soldier", (0, 0))
    state = sc.build()
    for d in (1, 2, 3):
        act(state, f"build wall {d}", (0, 0))
        assert state.tokens[0] == 0
    act(state, "build wall 4", (0, 0))  # E and SE face mountains
    assert state.tokens[0] == 1 and state.awards[0] & CITADEL  # the hex, not the mountains
    assert awards(state) == [("citadel", 0, 1)]

    # A mountain edge closes only where it is: a land edge left open keeps the hex open.
    sc = Scenario(make_map(2, mountains=[(1, 0)]), phase="build", gold=10)
    sc.unit(0, "soldier", (0, 0))
    state = sc.build()
    for d in (1, 2, 3, 4):
        act(state, f"build wall {d}", (0, 0))
    assert state.tokens[0] == 0
    act(state, "build wall 5", (0, 0))
    assert state.awards[0] & CITADEL and ("citadel", 0, 1) in awards(state)


def test_citadel_needs_walls_not_only_mountains():
    """O5: a pocket ringed by mountains alone is not enclosed "with walls"."""
    ring = [(-2, 0), (-2, -1), (-3, -1), (-4, 0), (-4, 1), (-3, 1)]  # all around (-3, 0)
    sc = Scenario(make_map(2, mountains=ring), phase="build", gold=10)
    sc.unit(0, "soldier", (2, 0))
    state = sc.build()
    act(state, "build wall 0", (2, 0))
    assert state.tokens == [0, 0] and not state.awards[0] & CITADEL
    state.awards[0] |= GREAT_WALL  # only the Citadel is counted below
    for d in range(1, 6):
        act(state, f"build wall {d}", (2, 0))
    # Walling in (2,0) pays for (2,0) alone, not for the mountain-locked pocket at (-3,0).
    assert awards(state) == [("citadel", 0, 1)] and state.tokens == [1, 0]


def test_complex_awarded_once_for_adjacent_castle_fort_camp():
    """O6: Complex, once a game: 3 tokens for a castle, fort and camp on adjacent hexes."""
    # A line: camp - fort - castle.
    sc = Scenario(make_map(2), phase="build", gold=20)
    sc.development(0, "camp", (0, 0))
    sc.development(0, "fort", (1, 0))
    state = sc.build()
    act(state, "build castle", (2, 0))
    assert state.tokens[0] == 3 and state.awards[0] & COMPLEX
    # A second complex (a triangle) pays nothing more.
    act(state, "build castle", (0, -1))
    act(state, "build fort", (-1, -1))
    act(state, "build camp", (-1, 0))
    assert state.tokens[0] == 3
    assert awards(state) == [("complex", 0, 3)]

    # A triangle, finished by the fort; a castle touching only the camp is not a complex.
    sc = Scenario(make_map(2), phase="build", gold=20)
    sc.development(0, "camp", (0, 0))
    sc.development(0, "fort", (3, 0))  # far away
    state = sc.build()
    act(state, "build castle", (-1, 0))  # next to the camp only
    assert state.tokens[0] == 0
    act(state, "build fort", (-1, 1))  # next to both the castle and the camp
    assert state.tokens[0] == 3 and state.awards[0] & COMPLEX

    # Three of the kind, but not all joined: castle - fort adjacent, camp two hexes away.
    sc = Scenario(make_map(2), phase="build", gold=20)
    sc.development(0, "castle", (0, 0))
    sc.unit(0, "soldier", (3, 0))
    state = sc.build()
    act(state, "build fort", (1, 0))
    act(state, "build camp", (3, 0))
    assert state.tokens[0] == 0 and not state.awards[0] & COMPLEX

    # Not earned by seizing the missing piece (v1: the three must be built by the player; see
    # test_complex_needs_built_pieces).
    sc = Scenario(make_map(2), phase="battle", gold=0)
    sc.development(0, "camp", (0, 0))
    sc.development(0, "fort", (1, 0))
    sc.development(1, "castle", (2, 0))
    sc.development(1, "camp", (-3, 3))  # not his last development
    sc.unit(0, "soldier", (2, -1))
    state = sc.build()
    act(state, "seize", (2, 0))
    assert state.dev_owner[state.gmap.board.index[(2, 0)]] == 0
    assert state.tokens[0] == 3  # Conquer alone (a castle is worth 3)
    assert not state.awards[0] & COMPLEX


def test_great_wall_needs_five_connected_walls():
    """O7: Great Wall, once a game: 1 token for 5 of his walls joined end to end."""
    sc = Scenario(make_map(2), phase="build", gold=20)
    sc.unit(0, "soldier", (0, 0))
    sc.unit(0, "soldier", (-3, 0))
    for d in (1, 2, 3, 4):
        sc.wall(0, (0, 0), d)  # a chain of four around (0,0)
    state = sc.build()
    act(state, "build wall 0", (-3, 0))  # a fifth wall, not joined to the four
    assert state.tokens[0] == 0 and not state.awards[0] & GREAT_WALL
    act(state, "build wall 5", (0, 0))  # the chain grows to five
    assert state.tokens[0] == 1 and state.awards[0] & GREAT_WALL
    for d in (1, 2, 3, 4):
        act(state, f"build wall {d}", (-3, 0))  # a second wall of five
    assert state.tokens[0] == 1
    assert awards(state) == [("great_wall", 0, 1)]

    # Branches do not add up (v1): an H of five walls is a run of three with two branches;
    # see test_great_wall_is_one_continuous_run.

    # The opponent's walls do not join his.
    sc = Scenario(make_map(2), phase="build", gold=20)
    sc.unit(0, "soldier", (0, 0))
    sc.wall(0, (0, 0), 0)
    sc.wall(0, (0, 0), 1)
    sc.wall(1, (0, 0), 2)
    sc.wall(0, (0, 0), 3)
    state = sc.build()
    act(state, "build wall 4", (0, 0))
    assert state.tokens == [0, 0]


def test_complex_needs_built_pieces():
    """O6: Complex is "for building" a castle, a fort and a camp: a seized piece (built by
    another player) does not complete it; building the missing piece himself does."""
    # A fort seized from player 1, next to player 0's own castle and camp.
    sc = Scenario(make_map(2), phase="battle", gold=10)
    sc.development(0, "castle", (0, 0))
    sc.development(0, "camp", (1, -1))
    sc.development(1, "fort", (1, 0))
    sc.development(1, "camp", (-3, 3))  # not his last development
    sc.unit(0, "soldier", (2, -1))  # next to the fort
    state = sc.build()
    idx = state.gmap.board.index
    act(state, "seize", (1, 0))
    assert state.retaliator == 1  # the loser may retaliate at once (R2); he declines
    act(state, "end turn")
    assert state.current_player == 0
    assert state.dev_owner[idx[(1, 0)]] == 0 and state.dev_builder[idx[(1, 0)]] == 1
    assert state.tokens[0] == 2 and not state.awards[0] & COMPLEX  # Conquer (a fort) alone
    # Building another development does not count the seized fort either.
    act(state, "build camp", (2, -1))
    assert state.tokens[0] == 2 and not state.awards[0] & COMPLEX
    # A fort of his own next to the castle and the camp: the Complex.
    act(state, "build fort", (0, -1))
    assert state.tokens[0] == 2 + 3 and state.awards[0] & COMPLEX
    assert awards(state) == [("complex", 0, 3)]

    # The same with a position set up by hand: the fort he owns was built by player 1.
    sc = Scenario(make_map(2), phase="build", gold=10)
    sc.development(0, "castle", (0, 0))
    sc.development(0, "fort", (1, 0), built_by=1)
    state = sc.build()
    act(state, "build camp", (1, -1))  # next to both
    assert state.tokens[0] == 0 and not state.awards[0] & COMPLEX
    act(state, "build fort", (-1, 0))  # the missing piece, built by him: a line fort-castle-camp
    assert state.tokens[0] == 3 and state.awards[0] & COMPLEX

    # A castle built by another player completes nothing either, whichever piece is last.
    sc = Scenario(make_map(2), phase="build", gold=10)
    sc.development(0, "castle", (0, 0), built_by=1)
    sc.development(0, "fort", (1, 0))
    state = sc.build()
    act(state, "build camp", (1, -1))
    assert state.tokens[0] == 0 and not state.awards[0] & COMPLEX
    act(state, "build castle", (2, -1))  # next to the fort and the camp: his own castle
    assert state.tokens[0] == 3 and state.awards[0] & COMPLEX


def test_great_wall_is_one_continuous_run():
    """O7: the Great Wall is "a wall of length 5 or more": one continuous run of walls the player
    built, joined end to end through their corners. A branching group of five does not earn it,
    a winding run of five does; walls that came to him by a seizure do not count."""
    # An H: a run of three, (0,0)|(1,-1) - (0,0)|(1,0) - (0,0)|(0,1), with a branch at each end
    # of the middle wall: (1,0)|(1,-1) and (1,0)|(0,1). Five walls, longest run three.
    sc = Scenario(make_map(2), phase="build", gold=20)
    sc.unit(0, "soldier", (0, 0))
    sc.unit(0, "soldier", (1, 0))
    sc.wall(0, (0, 0), "E")
    sc.wall(0, (0, 0), "NE")
    sc.wall(0, (1, 0), "NW")
    state = sc.build()
    act(state, "build wall 5", (0, 0))  # (0,0)|(0,1)
    act(state, "build wall 4", (1, 0))  # (1,0)|(0,1): the fifth wall of the group
    assert count_of(state.walls, 0) == 5 and longest_wall(state, 0) == 3
    assert state.tokens[0] == 0 and not state.awards[0] & GREAT_WALL

    # A run of four around (0,0) with a branch at one of its inner corners: longest run four.
    sc = Scenario(make_map(2), phase="build", gold=20)
    sc.unit(0, "soldier", (0, 0))
    sc.unit(0, "soldier", (-1, 0))
    for d in (1, 2, 3):
        sc.wall(0, (0, 0), d)
    state = sc.build()
    act(state, "build wall 1", (-1, 0))  # (-1,0)|(0,-1): the branch
    act(state, "build wall 4", (0, 0))  # the run's fourth wall, the group's fifth
    assert count_of(state.walls, 0) == 5 and longest_wall(state, 0) == 4
    assert state.tokens[0] == 0 and not state.awards[0] & GREAT_WALL
    act(state, "build wall 5", (0, 0))  # the run grows to five
    assert longest_wall(state, 0) == 5
    assert state.tokens[0] == 1 and awards(state) == [("great_wall", 0, 1)]

    # A winding run of five along the row boundary below (0,0), (1,0) and (2,0).
    sc = Scenario(make_map(2), phase="build", gold=20)
    for q in (0, 1, 2):
        sc.unit(0, "soldier", (q, 0))
    state = sc.build()
    for q, d in ((0, "SW"), (0, "SE"), (1, "SW"), (1, "SE")):
        act(state, f"build wall {DIRECTION_NAMES.index(d)}", (q, 0))
    assert state.tokens[0] == 0
    act(state, f"build wall {DIRECTION_NAMES.index('SW')}", (2, 0))
    assert state.tokens[0] == 1 and state.awards[0] & GREAT_WALL

    # Walls taken by a seizure: player 1's camp at (0,0) has three of his walls; player 0
    # seizes it and the walls become his, but he did not build them.
    sc = Scenario(make_map(2), phase="battle", gold=10)
    sc.development(1, "camp", (0, 0))
    sc.development(1, "camp", (-3, 3))  # not his last development
    for d in (1, 2, 3):
        sc.wall(1, (0, 0), d)
    sc.unit(0, "soldier", (1, 0))
    sc.unit(0, "soldier", (-3, 0))
    state = sc.build()
    idx = state.gmap.board.index
    act(state, "seize", (0, 0))
    assert state.retaliator == 1  # the loser declines his retaliation
    act(state, "end turn")
    assert state.dev_owner[idx[(0, 0)]] == 0
    seized = [edge(state, (0, 0), d) for d in (1, 2, 3)]
    assert [state.walls[e] for e in seized] == [0, 0, 0]
    assert [state.wall_builder[e] for e in seized] == [1, 1, 1]
    # Two walls of his own make a run of five with the three seized ones: no Great Wall.
    act(state, "build wall 4", (0, 0))
    act(state, "build wall 5", (0, 0))
    assert count_of(state.walls, 0) == 5 and longest_wall(state, 0) == 2
    assert not state.awards[0] & GREAT_WALL and awards(state) == []
    # Five he builds himself, end to end: the Great Wall.
    for d in range(5):
        act(state, f"build wall {d}", (-3, 0))
    assert state.awards[0] & GREAT_WALL and awards(state) == [("great_wall", 0, 1)]

    # The same with walls set up by hand: built_by another player.
    sc = Scenario(make_map(2), phase="build", gold=20)
    sc.unit(0, "soldier", (0, 0))
    sc.wall(0, (0, 0), 1)
    sc.wall(0, (0, 0), 2, built_by=1)
    sc.wall(0, (0, 0), 3)
    sc.wall(0, (0, 0), 4)
    state = sc.build()
    act(state, "build wall 5", (0, 0))  # five in a row, one of them not his
    assert longest_wall(state, 0) == 3 and not state.awards[0] & GREAT_WALL
    act(state, "build wall 0", (0, 0))  # 3, 4, 5, 0, 1: five of his own, round the seized one
    assert longest_wall(state, 0) == 5
    assert state.awards[0] & GREAT_WALL and ("great_wall", 0, 1) in awards(state)


def edge(state, at, d):
    return state.gmap.board.edge[state.gmap.board.index[at]][d]


def _final_turn(n, config=None):
    sc = Scenario(make_map(n), phase="battle", turn_player=n - 1, config=config)
    return sc


def _finish(sc, sunk):
    state = sc.build()
    state.round = state.config.rounds_per_phase - 1
    state.sunk = list(sunk)
    assert state.tokens == [0] * len(sunk)
    act(state, "end turn")
    assert state.is_over
    return state


def test_end_awards_and_ties():
    """O8: General, Admiral, Builder: 3 tokens at the end to every player tied for the most."""
    sc = _final_turn(2)
    sc.development(0, "camp", (0, 0))
    sc.prisoner(1, "soldier", 0, (0, 0))
    sc.prisoner(1, "archer", 0, (0, 0))  # player 0 holds 2 prisoners
    sc.development(1, "camp", (3, 0))
    sc.development(1, "fort", (3, -2))
    sc.prisoner(0, "cavalry", 1, (3, 0))  # player 1 holds 1
    state = _finish(sc, sunk=[1, 1])
    # General: player 0 (2 prisoners held against 1); Admiral: tied 1-1, both; Builder: player 1.
    assert sorted(awards(state)) == sorted([
        ("general", 0, 3), ("admiral", 0, 3), ("admiral", 1, 3), ("builder", 1, 3)])
    assert state.tokens == [6, 6] and winners(state) == [0, 1]

    # Nobody gets an award whose best count is 0 (option end_awards_need_one).
    sc = _final_turn(2)
    sc.development(0, "camp", (0, 0))
    state = _finish(sc, sunk=[0, 0])
    assert awards(state) == [("builder", 0, 3)] and state.tokens == [3, 0]
    sc = _final_turn(2, RulesConfig(end_awards_need_one=False))
    sc.development(0, "camp", (0, 0))
    state = _finish(sc, sunk=[0, 0])
    assert state.tokens == [3 + 3 + 3, 3 + 3]  # everyone ties at 0 for General and Admiral

    # Three players: a two-way tie for Builder, a clear Admiral.
    sc = _final_turn(3)
    sc.development(0, "camp", (0, 0))
    sc.development(2, "castle", (-3, 3))
    state = _finish(sc, sunk=[0, 3, 0])
    assert sorted(awards(state)) == [("admiral", 1, 3), ("builder", 0, 3), ("builder", 2, 3)]
    assert state.tokens == [3, 3, 3] and winners(state) == [0, 1, 2]


def test_complex_when_taking_back_a_piece_he_built():
    """O6: the three pieces must be his own building; taking back a fort he built (seized from
    him earlier) completes his Complex at once."""
    sc = Scenario(make_map(2), phase="battle", gold=10)
    sc.development(0, "castle", (0, 0))
    sc.development(0, "camp", (1, -1))
    sc.development(1, "fort", (1, 0), built_by=0)   # his fort, seized earlier by player 1
    sc.development(1, "camp", (-3, 3))
    sc.unit(0, "soldier", (2, -1))
    state = sc.build()
    act(state, "seize", (1, 0))
    assert state.awards[0] & COMPLEX
    assert state.tokens[0] == 2 + 3                  # Conquer (fort) + Complex
