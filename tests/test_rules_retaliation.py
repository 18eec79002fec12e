"""Scenario tests for retaliation: who retaliates, when, with what, and what he may not do.

Rows F4 and R1-R6 of docs/rules.md.
"""

from __future__ import annotations

from conftest import at, hexes, hx, make_map, refused, verbs

from vigtavl_env.engine.scenario import Scenario, act
from vigtavl_env.engine.state import PRISONER


def retaliations(state):
    return [e for e in state.events if e["event"] == "retaliation"]


def battle_scenario():
    """Player 0 (camp, cavalry, archer) against player 1's soldiers."""
    sc = Scenario(make_map(), phase="battle")
    sc.development(0, "camp", (-4, 0))
    sc.unit(0, "cavalry", (0, 0))
    sc.unit(0, "archer", (0, 3))
    v = sc.unit(1, "soldier", (1, 0))
    w = sc.unit(1, "soldier", (2, 1))
    sc.unit(1, "soldier", (-3, 3))
    return sc.build(), v, w


def test_loser_retaliates_after_activation():
    """R1, R2: a player who lost a battle to the active player (a ranged hit too) retaliates
    as soon as the active unit has no action left, or its activation is ended; control then
    comes back to the active player."""
    state, v, w = battle_scenario()
    act(state, "activate cavalry", (0, 0))
    state.forced_dice[:] = [6, 6, 6, 1]
    act(state, "attack", (1, 0))
    assert state.u_where[v] == PRISONER
    # The cavalry still has its move: no retaliation yet.
    assert state.current_player == 0 and state.retaliator == -1
    act(state, "move", (-1, 0))                   # its last action: retaliation at once
    assert state.active is None
    assert state.current_player == 1 and state.retaliator == 1
    assert state.silver == [3, 1]
    act(state, "end turn")                       # he declines
    assert state.current_player == 0 and state.retaliator == -1 and state.turn_player == 0
    assert state.silver == [3, 0]

    # A ranged hit is a lost battle too.
    act(state, "activate archer", (0, 3))
    state.forced_dice[:] = [1, 6]
    act(state, "shoot", (2, 1))                   # range 2 to the NE
    assert state.u_where[w] == PRISONER
    assert state.retaliator == -1                 # it may still move
    act(state, "end activation")
    assert state.current_player == 1 and state.retaliator == 1
    assert len(retaliations(state)) == 2


def test_no_retaliation_when_attacker_loses_or_by_surrender():
    """R1: only a loser retaliates: not the winner of a battle, nor units that surrendered."""
    state, v, _ = battle_scenario()
    act(state, "activate cavalry", (0, 0))
    state.forced_dice[:] = [1, 1, 1, 6]
    act(state, "attack", (1, 0))                  # player 1 wins
    act(state, "end activation")
    assert state.current_player == 0 and state.retaliator == -1
    assert retaliations(state) == []

    sc = Scenario(make_map(), phase="battle")
    sc.development(0, "camp", (-4, 0))
    t = sc.unit(1, "soldier", (0, 0))
    for h in ((1, 0), (1, -1), (0, -1), (-1, 0), (-1, 1)):
        sc.unit(0, "soldier", h)
    sc.unit(0, "soldier", (0, 2))
    state = sc.build()
    act(state, "activate soldier", (0, 2))
    act(state, "move", (0, 1))                    # closes the ring: surrender
    assert state.u_where[t] == PRISONER
    assert state.active is None                   # nothing left to attack: the activation is over
    assert state.current_player == 0 and state.retaliator == -1
    assert retaliations(state) == []


def test_retaliation_at_end_of_turn():
    """R2: ending the turn ends the activation; the loser retaliates before the next turn."""
    state, _, _ = battle_scenario()
    act(state, "activate cavalry", (0, 0))
    state.forced_dice[:] = [6, 6, 6, 1]
    act(state, "attack", (1, 0))
    act(state, "end turn")
    assert state.turn_player == 0 and state.retaliator == 1 and state.silver[1] == 1
    act(state, "end turn")                        # declined: now player 1's own turn
    assert state.turn_player == 1 and state.retaliator == -1
    assert state.silver[1] == 6 and state.silver[0] == 0


def test_retaliation_after_seize_without_activation():
    """R2: a seizure made with no unit active lets the loser retaliate at once; made by an
    active unit, it waits for the end of the activation."""
    sc = Scenario(make_map(), phase="battle")
    sc.development(1, "camp", (0, 0))
    sc.development(1, "camp", (0, -3))
    sc.development(1, "camp", (-4, 0))
    sc.unit(0, "soldier", (1, 0))
    sc.unit(0, "soldier", (1, -3))
    state = sc.build()
    act(state, "seize", (0, 0))
    assert state.current_player == 1 and state.retaliator == 1 and state.silver[1] == 1
    act(state, "end turn")
    assert state.current_player == 0

    act(state, "activate soldier", (1, -3))
    act(state, "seize", (0, -3))
    assert state.dev_owner[hx(state, (0, -3))] == 0
    assert state.current_player == 0 and state.retaliator == -1
    act(state, "end activation")
    assert state.current_player == 1 and state.retaliator == 1


def test_retaliation_gets_one_silver_one_unit():
    """R3: the loser gets 1 silver and may activate one unit he can afford (a soldier or a
    caravel), act with it, or decline; then the active player's turn goes on."""
    sc = Scenario(make_map(), phase="battle")
    sc.development(0, "camp", (-4, 0))
    sc.unit(0, "cavalry", (0, 0))
    sc.unit(1, "soldier", (1, 0))
    r = sc.unit(1, "soldier", (-3, 3))
    other = sc.unit(1, "soldier", (-2, 3))
    sc.unit(1, "archer", (3, -3))
    sc.unit(1, "cavalry", (3, 1))
    sc.unit(1, "caravel", (5, -2))
    sc.unit(1, "freighter", (5, -4))
    state = sc.build()
    act(state, "activate cavalry", (0, 0))
    state.forced_dice[:] = [6, 6, 6, 1]
    act(state, "attack", (1, 0))
    act(state, "end activation")
    assert state.retaliator == 1 and state.silver[1] == 1
    assert verbs(state) == {"activate soldier", "activate caravel", "end turn"}
    assert hexes(state, "activate soldier") == {(-3, 3), (-2, 3)}
    refused(state, "activate archer", (3, -3))
    refused(state, "activate cavalry", (3, 1))
    refused(state, "activate freighter", (5, -4))
    act(state, "activate soldier", (-3, 3))
    assert state.silver[1] == 0
    assert not any(v.startswith("activate") for v in verbs(state))   # one unit only
    act(state, "move", (-3, 2))                   # its last possible action
    # The retaliation is over: the other soldier stays put and player 0 decides again.
    assert state.current_player == 0 and state.retaliator == -1 and state.turn_player == 0
    assert state.silver == [3, 0]
    assert at(state, r) == (-3, 2) and at(state, other) == (-2, 3)


def test_no_building_in_retaliation():
    """F4, R4: the retaliating player may not build (nor discharge, recruit or relocate walls)."""
    sc = Scenario(make_map(), phase="battle")
    sc.development(0, "camp", (-4, 0))
    sc.development(1, "camp", (3, -3))
    sc.wall(1, (3, -3), "E")
    sc.unit(0, "cavalry", (0, 0))
    sc.unit(1, "soldier", (1, 0))
    sc.unit(1, "soldier", (3, -2))
    state = sc.build()
    act(state, "activate cavalry", (0, 0))
    state.forced_dice[:] = [6, 6, 6, 1]
    act(state, "attack", (1, 0))
    act(state, "end activation")
    assert state.retaliator == 1
    state.gold[1] = 6                             # gold is not what stops him
    forbidden = ("build", "relocate", "discharge", "recruit")
    assert not any(v.startswith(forbidden) for v in verbs(state))
    refused(state, "build soldier", (2, -3))
    refused(state, "build wall 3", (3, -3))
    refused(state, "relocate wall 0", (3, -3))
    refused(state, "discharge soldier", (3, -2))
    act(state, "end turn")
    act(state, "end turn")                        # player 1's own turn: building is open
    assert state.turn_player == 1 and state.retaliator == -1
    assert (2, -3) in hexes(state, "build soldier")
    assert (3, -3) in hexes(state, "relocate wall 0")


def test_retaliator_cannot_reseize_this_turn():
    """R5: the retaliating player may not seize back what the active player seized this turn."""
    sc = Scenario(make_map(), phase="battle")
    sc.development(1, "camp", (0, 0))
    sc.development(1, "camp", (-4, 3))
    sc.development(0, "camp", (-2, 0))
    sc.development(0, "camp", (4, -2))
    sc.unit(0, "soldier", (1, 0))
    sc.unit(1, "soldier", (-1, 0))                # next to both camps, not to the seizer
    state = sc.build()
    act(state, "seize", (0, 0))
    assert state.retaliator == 1 and state.dev_owner[hx(state, (0, 0))] == 0
    seizable = hexes(state, "seize")
    assert (0, 0) not in seizable                 # seized this turn
    assert (-2, 0) in seizable                    # any other undefended development
    refused(state, "seize", (0, 0))
    act(state, "end turn")
    act(state, "end turn")                        # player 1's own turn: the restriction is gone
    assert state.turn_player == 1
    assert (0, 0) in hexes(state, "seize")


def test_retaliation_wins_trigger_no_retaliation():
    """R6: battles won by the retaliating player give no retaliation to the active player."""
    sc = Scenario(make_map(), phase="battle")
    sc.development(0, "camp", (4, 0))
    sc.development(1, "camp", (-4, 0))
    sc.unit(0, "cavalry", (0, 0))
    mine = sc.unit(0, "soldier", (-1, 0))
    sc.unit(1, "soldier", (1, 0))
    sc.unit(1, "soldier", (-2, 0))
    state = sc.build()
    act(state, "activate cavalry", (0, 0))
    state.forced_dice[:] = [6, 6, 6, 1]
    act(state, "attack", (1, 0))
    act(state, "end activation")
    assert state.retaliator == 1
    act(state, "activate soldier", (-2, 0))
    state.forced_dice[:] = [6, 1]
    act(state, "attack", (-1, 0))
    assert state.u_where[mine] == PRISONER and at(state, mine) == (-4, 0)
    act(state, "end activation")
    assert state.current_player == 0 and state.retaliator == -1
    assert state.silver == [3, 0]
    assert len(retaliations(state)) == 1


def test_retaliation_comes_when_the_unit_is_spent():
    """R2: "Retaliation occurs immediately after the active player's activated unit has
    expended all its actions": once the attack was its last action the loser retaliates at
    once; the active player cannot build or seize in between. Only the occupation the attack won
    may still be decided first."""
    sc = Scenario(make_map(), phase="battle")
    sc.development(0, "camp", (-4, 0))
    sc.development(1, "camp", (3, -1))
    sc.unit(0, "soldier", (-1, 0))
    sc.unit(0, "soldier", (3, -2))                # next to player 1's camp
    sc.unit(1, "soldier", (1, 0))
    state = sc.build()
    act(state, "activate soldier", (-1, 0))
    act(state, "move", (0, 0))
    assert state.retaliator == -1 and "build wall 0" in verbs(state)
    state.forced_dice[:] = [6, 1]
    act(state, "attack", (1, 0))                  # move and attack used; (1,0) is cleared
    assert state.current_player == 0
    assert verbs(state) == {"occupy", "end activation"}   # no wall, no seizure in between
    refused(state, "seize", (3, -1))
    refused(state, "build wall 0", (0, 0))
    act(state, "occupy", (1, 0))
    assert state.active is None and state.retaliator == 1 and state.current_player == 1

    # Declining the occupation ends the activation: retaliation at once as well.
    sc = Scenario(make_map(), phase="battle")
    sc.development(0, "camp", (-4, 0))
    sc.unit(0, "soldier", (-1, 0))
    sc.unit(1, "soldier", (1, 0))
    state = sc.build()
    act(state, "activate soldier", (-1, 0))
    act(state, "move", (0, 0))
    state.forced_dice[:] = [6, 1]
    act(state, "attack", (1, 0))
    act(state, "end activation")
    assert state.retaliator == 1
