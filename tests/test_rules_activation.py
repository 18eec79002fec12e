"""Scenario tests for activating units: cost, the two unique actions, one activation a turn,
finishing one unit before the next, and the freighter exception.

Rows U11-U14 of docs/rules.md.
"""

from __future__ import annotations

from conftest import at, hexes, make_map, refused, verbs

from vigtavl_env.engine.scenario import Scenario, act
from vigtavl_env.engine.state import LOADED, ON_BOARD


def test_activation_gives_two_unique_actions():
    """U11: activation costs the unit's cost in silver and gives one move and one attack, in
    either order; never two of the same."""
    sc = Scenario(make_map(), phase="battle", silver=6)
    sc.development(0, "camp", (-4, 0))
    c = sc.unit(0, "cavalry", (0, 0))
    s = sc.unit(0, "soldier", (0, 3))
    sc.unit(1, "soldier", (3, 0))
    sc.unit(1, "soldier", (1, 3))
    state = sc.build()

    # Move first, then attack.
    act(state, "activate cavalry", (0, 0))
    assert state.silver[0] == 6 - 3
    act(state, "move", (2, 0))
    assert "move" not in verbs(state)
    assert (3, 0) in hexes(state, "attack")
    refused(state, "move", (1, 0))
    state.forced_dice[:] = [1, 1, 1, 6]   # the cavalry loses
    act(state, "attack", (3, 0))
    # Both actions used: the activation is over by itself (R2), no third action.
    assert state.active is None
    assert "attack" not in verbs(state) and "move" not in verbs(state)
    assert "end activation" not in verbs(state)
    refused(state, "attack", (3, 0))
    refused(state, "move", (1, 0))
    assert at(state, c) == (2, 0)

    # Attack first, then move.
    act(state, "activate soldier", (0, 3))
    assert state.silver[0] == 6 - 3 - 1
    state.forced_dice[:] = [1, 6]         # the soldier loses
    act(state, "attack", (1, 3))
    assert "attack" not in verbs(state)
    assert (-1, 3) in hexes(state, "move")
    act(state, "move", (-1, 3))
    assert at(state, s) == (-1, 3)
    assert state.active is None  # both actions used
    assert "move" not in verbs(state) and "attack" not in verbs(state)
    assert set(verbs(state)) & {"end activation", "end turn"} == {"end turn"}
    refused(state, "move", (-2, 3))


def test_activation_needs_the_silver():
    """U11: activation is paid in silver at the unit's cost; without it the unit cannot act."""
    sc = Scenario(make_map(), phase="build", silver=2)
    sc.unit(0, "cavalry", (0, 0))
    sc.unit(0, "archer", (2, 0))
    state = sc.build()
    assert hexes(state, "activate cavalry") == set()
    refused(state, "activate cavalry", (0, 0))
    act(state, "activate archer", (2, 0))
    assert state.silver[0] == 0


def test_unit_activated_once_per_turn():
    """U12: a unit laid on its side after its activation is not activated again this turn; it
    stands up at the end of the turn."""
    sc = Scenario(make_map(), phase="battle", silver=6)
    s = sc.unit(0, "soldier", (0, 0))
    sc.unit(1, "soldier", (-3, 3))
    state = sc.build()
    act(state, "activate soldier", (0, 0))
    act(state, "move", (1, 0))
    assert state.active is None  # nothing to attack from (1, 0): the activation is over
    assert state.silver[0] == 5  # silver enough for more activations...
    assert hexes(state, "activate soldier") == set()  # ...but this unit is spent
    refused(state, "activate soldier", (1, 0))
    act(state, "end turn")       # player 1's turn
    assert state.current_player == 1
    act(state, "end turn")       # player 0 again, next round
    assert state.current_player == 0 and state.phase == 2
    assert hexes(state, "activate soldier") == {(1, 0)}
    act(state, "activate soldier", (1, 0))
    assert state.active.unit == s


def test_finish_one_unit_before_the_next():
    """U13: while a unit is active no other unit may be activated; ending its activation
    forfeits the actions it has left."""
    sc = Scenario(make_map(), phase="build", silver=6)
    a = sc.unit(0, "soldier", (0, 0))
    b = sc.unit(0, "soldier", (-2, 0))
    state = sc.build()
    act(state, "activate soldier", (0, 0))
    assert hexes(state, "activate soldier") == set()
    refused(state, "activate soldier", (-2, 0))
    act(state, "end activation")  # the move is forfeited
    assert state.active is None
    assert at(state, a) == (0, 0)
    assert hexes(state, "activate soldier") == {(-2, 0)}
    assert "move" not in verbs(state)
    act(state, "activate soldier", (-2, 0))
    assert state.active.unit == b
    act(state, "move", (-1, 0))
    assert at(state, a) == (0, 0) and at(state, b) == (-1, 0)


def test_freighter_picks_up_and_carries_knight():
    """U14: while a freighter is active (moving in legs), a knight next to it may be activated to
    board it; the freighter then carries the knight on."""
    sc = Scenario(make_map(), phase="build", silver=6)
    f = sc.unit(0, "freighter", (5, -3))
    k = sc.unit(0, "soldier", (4, 0))    # 3 steps from the freighter, next to (5,-1)
    far = sc.unit(0, "soldier", (2, 0))
    state = sc.build()
    act(state, "activate freighter", (5, -3))
    assert hexes(state, "activate soldier") == set()  # not next to the freighter yet
    act(state, "move", (5, -1))                        # first leg: 2 of 5
    assert state.active.move_left == 3
    # Building is closed in the middle of a movement, but the knight beside it may join.
    assert hexes(state, "activate soldier") == {(4, 0)}
    act(state, "activate soldier", (4, 0))
    assert state.active.unit == k and len(state.stack) == 2
    act(state, "move", (5, -1))
    assert state.u_where[k] == LOADED and state.u_carrier[k] == f
    act(state, "end activation")                        # back to the freighter
    assert state.active.unit == f and state.active.move_left == 3
    act(state, "move", (5, -4))                         # second leg: 3 more
    assert at(state, f) == (5, -4) and at(state, k) == (5, -4)
    assert state.u_where[k] == LOADED
    assert state.u_where[far] == ON_BOARD and at(state, far) == (2, 0)
    assert state.silver[0] == 6 - 2 - 1


def test_knight_embarks_rides_and_lands_in_one_movement():
    """U14: a knight that boarded its freighter and is still moving may have the freighter
    activated to carry it, then land with the movement it has left."""
    sc = Scenario(make_map(), phase="build", silver=6)
    f = sc.unit(0, "freighter", (5, -1))
    c = sc.unit(0, "cavalry", (4, 0))
    state = sc.build()
    act(state, "activate cavalry", (4, 0))
    assert hexes(state, "activate freighter") == set()  # not aboard yet
    act(state, "move", (5, -1))                          # boarding costs 1 of 4
    assert state.u_where[c] == LOADED and state.active.move_left == 3
    assert hexes(state, "activate freighter") == {(5, -1)}
    act(state, "activate freighter", (5, -1))
    assert state.active.unit == f
    act(state, "move", (5, -4))
    assert at(state, c) == (5, -4)
    act(state, "end activation")                          # the knight is on top again
    assert state.active.unit == c and state.active.move_left == 3
    landing = hexes(state, "move")
    # 3 movement left from the freighter's hex: 3 steps inland but not 4.
    assert (2, -3) in landing and (1, -3) not in landing
    act(state, "move", (2, -3))
    assert state.u_where[c] == ON_BOARD and at(state, c) == (2, -3)
    assert at(state, f) == (5, -4)
    assert state.silver[0] == 6 - 3 - 2


def test_freighter_exception_is_one_level_only():
    """U14: the nesting is one level deep; while nested no third unit joins."""
    sc = Scenario(make_map(), phase="build", silver=6)
    f = sc.unit(0, "freighter", (5, -1))
    sc.unit(0, "soldier", (4, 0))
    sc.unit(0, "soldier", None, aboard=f)
    state = sc.build()
    act(state, "activate freighter", (5, -1))
    act(state, "activate soldier", (4, 0))
    assert len(state.stack) == 2
    assert hexes(state, "activate soldier") == set()
    refused(state, "activate soldier", (5, -1))
