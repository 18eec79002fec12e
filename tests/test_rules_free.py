"""Scenario tests for the free actions: seize (and defend), rescue, discharge and recruit.

Rows O2, O4 and F1, F5-F11 of docs/rules.md.
"""

from __future__ import annotations

import pytest
from conftest import at, battles, hexes, hx, make_map, refused, verbs

from vigtavl_env.engine.hexgrid import distance
from vigtavl_env.engine.scenario import Scenario, act
from vigtavl_env.engine.state import CHOOSE_RESCUE_SPOT, GONE, ON_BOARD, PRISONER
from vigtavl_env.engine.stats import CAMP, CAVALRY, FORT


def decline_retaliation(state, loser=1):
    assert state.retaliator == loser and state.current_player == loser
    act(state, "end turn")
    assert state.retaliator == -1


def wall_owner(state, a, d):
    return state.walls[state.gmap.board.edge[hx(state, a)][d]]


# ----------------------------------------------------------------------------- O2, O4, F9
def test_seize_pays_conquer_tokens():
    """O2: seizing a development pays its value (camp 1, fort 2, castle 3); artillery pays
    nothing."""
    sc = Scenario(make_map(), phase="battle")
    sc.development(1, "fort", (1, 0))
    sc.development(1, "camp", (-4, 0))          # not his last development
    sc.artillery(1, (3, -1))
    sc.unit(0, "soldier", (2, 0))               # next to the fort and the artillery
    state = sc.build()
    act(state, "seize", (1, 0))
    assert state.dev_owner[hx(state, (1, 0))] == 0 and state.dev_type[hx(state, (1, 0))] == FORT
    assert state.tokens == [2, 0]
    decline_retaliation(state)
    act(state, "seize", (3, -1))
    assert state.art_owner[hx(state, (3, -1))] == 0
    assert state.tokens == [2, 0]


def test_rescue_frees_prisoners_and_pays_tokens():
    """O4, F9: seizing a developed hex frees the seizer's prisoners held there (tokens = their
    value; they stand on the nearest hex with room and may act) and takes over other players'
    prisoners there."""
    sc = Scenario(make_map(3), phase="battle", silver=6)
    sc.development(1, "camp", (0, 0))
    sc.development(1, "camp", (-5, 0))
    cav = sc.prisoner(0, "cavalry", 1, (0, 0))
    sol = sc.prisoner(0, "soldier", 1, (0, 0))
    arc = sc.prisoner(2, "archer", 1, (0, 0))
    sc.unit(0, "soldier", (1, 0))
    state = sc.build()
    act(state, "seize", (0, 0))
    # Camp 1 + rescued cavalry 3 + rescued soldier 1.
    assert state.tokens == [5, 0, 0]
    for u in (cav, sol):
        assert state.u_where[u] == ON_BOARD and at(state, u) == (0, 0)
        assert state.u_holder[u] == -1
    assert state.occ[hx(state, (0, 0))] == 3     # camp + the two freed knights
    assert state.u_where[arc] == PRISONER and state.u_holder[arc] == 0
    assert at(state, arc) == (0, 0)
    decline_retaliation(state)
    # The freed cavalry "can now take actions".
    assert (0, 0) in hexes(state, "activate cavalry")
    act(state, "activate cavalry", (0, 0))
    assert state.active.unit == cav


@pytest.mark.parametrize("spot", [(-1, 1), (1, -1)])
def test_rescued_prisoners_overflow_to_nearest_free_hex(spot):
    """F9: freed units that do not fit on the seized hex stand on the nearest hex with room;
    among the equally near hexes with room, where is the rescuer's choice (v2), asked once the
    seizure is over ("place rescued"); the freed unit stands nowhere until then."""
    sc = Scenario(make_map(), phase="battle")
    sc.development(1, "camp", (0, 0))
    sc.development(1, "camp", (-4, 0))
    freed = [sc.prisoner(0, "soldier", 1, (0, 0)) for _ in range(3)]
    sc.unit(0, "soldier", (1, 0))
    state = sc.build()
    act(state, "seize", (0, 0))
    assert state.tokens == [1 + 3, 0]
    first, second, third = freed
    assert [at(state, u) for u in (first, second)] == [(0, 0), (0, 0)]   # camp 1 + 2 knights = 3
    assert state.u_where[first] == ON_BOARD and state.u_where[second] == ON_BOARD
    # The third: every hex next to the seized one has room (the seizer's own too).
    assert state.pending is not None and state.pending.kind == CHOOSE_RESCUE_SPOT
    assert state.current_player == 0 and state.pending.unit == third
    assert state.u_where[third] == PRISONER and state.u_holder[third] == -1
    assert verbs(state) == {"place rescued"}
    assert hexes(state, "place rescued") == {(1, 0), (1, -1), (0, -1), (-1, 0), (-1, 1), (0, 1)}
    act(state, "place rescued", spot)
    assert state.pending is None
    assert state.u_where[third] == ON_BOARD and at(state, third) == spot and state.u_holder[third] == -1
    assert distance(at(state, third), (0, 0)) == 1


# ----------------------------------------------------------------------------- F1, F5, F6
@pytest.mark.parametrize("guard, asked", [
    ((1, -1), True),    # next to both the camp and the seizing soldier: may defend
    ((0, 1), True),     # the other hex next to both
    ((-1, 0), False),   # next to the camp only
    ((2, -1), False),   # next to the soldier only
])
def test_defender_adjacent_to_both_may_defend_seizure(guard, asked):
    """F1 Defend: the owner's units on a hex adjacent to both the development and the seizing
    unit may defend it: the owner is asked, out of turn, to choose a defender or none."""
    sc = Scenario(make_map(), phase="battle")
    sc.development(1, "camp", (0, 0))
    sc.development(1, "camp", (-4, 0))
    sc.unit(1, "soldier", guard)
    sc.unit(0, "soldier", (1, 0))
    state = sc.build()
    assert (0, 0) in hexes(state, "seize")
    act(state, "seize", (0, 0))
    if asked:
        assert state.current_player == 1 and state.pending is not None
        assert verbs(state) == {"choose soldier", "no defence"}
        assert hexes(state, "choose soldier") == {guard}
        act(state, "no defence")                 # he lets it go
    assert state.dev_owner[hx(state, (0, 0))] == 0


def test_artillery_defended_only_by_knights():
    """F1: artillery is defended only by knights: a ship next to both is not asked to."""
    def artillery_with(kind, where):
        sc = Scenario(make_map(), phase="battle")
        sc.artillery(1, (4, -2))
        sc.development(1, "camp", (-4, 0))
        sc.unit(1, kind, where)
        sc.unit(0, "soldier", (4, -1))
        return sc.build()

    state = artillery_with("caravel", (5, -2))   # next to (4,-2) and (4,-1)
    act(state, "seize", (4, -2))
    assert state.pending is None and state.art_owner[hx(state, (4, -2))] == 0
    state = artillery_with("soldier", (3, -1))   # the other hex next to both
    act(state, "seize", (4, -2))
    assert state.current_player == 1 and hexes(state, "choose soldier") == {(3, -1)}


def test_seize_undefended_development():
    """F5: in the battle phase any own unit on a hex next to an undefended opponent development
    seizes it, without activation; not in the build phase, not through an opponent wall, not with
    a freighter, not from further away."""
    def camp_scenario(phase="battle", wall=None, seizer="soldier", at_=(3, -2)):
        sc = Scenario(make_map(), phase=phase, silver=6)
        sc.development(1, "camp", (4, -2))
        sc.development(1, "camp", (-4, 0))
        if wall is not None:
            sc.wall(wall, (4, -2), "E")
        s = sc.unit(0, seizer, at_)
        return sc.build(), s

    state, s = camp_scenario(at_=(3, -2))
    assert state.active is None
    act(state, "seize", (4, -2))
    assert state.dev_owner[hx(state, (4, -2))] == 0 and state.dev_type[hx(state, (4, -2))] == CAMP
    assert state.silver[0] == 6 and not state.u_flags[s]   # no activation spent

    state, _ = camp_scenario(phase="build", at_=(3, -2))
    assert "seize" not in verbs(state)
    refused(state, "seize", (4, -2))

    # An opponent wall on the edge between blocks; the seizer's own wall there does not.
    state, _ = camp_scenario(wall=1, seizer="caravel", at_=(5, -2))
    assert (4, -2) not in hexes(state, "seize")
    state, _ = camp_scenario(wall=0, seizer="caravel", at_=(5, -2))
    assert (4, -2) in hexes(state, "seize")

    state, _ = camp_scenario(seizer="freighter", at_=(5, -2))
    assert (4, -2) not in hexes(state, "seize")
    refused(state, "seize", (4, -2))

    state, _ = camp_scenario(at_=(2, -2))                     # 2 hexes away
    assert (4, -2) not in hexes(state, "seize")


def test_seize_undefended_artillery():
    """F5: lone opponent artillery next to an own unit is seized; a knight on it prevents that."""
    def artillery(with_knight):
        sc = Scenario(make_map(), phase="battle")
        sc.artillery(1, (0, 0))
        if with_knight:
            sc.unit(1, "soldier", (0, 0))
        sc.unit(0, "soldier", (1, 0))
        return sc.build()

    state = artillery(False)
    act(state, "seize", (0, 0))
    assert state.art_owner[hx(state, (0, 0))] == 0
    assert state.cell_player[hx(state, (0, 0))] == 0
    state = artillery(True)
    assert "seize" not in verbs(state)
    refused(state, "seize", (0, 0))


def test_defended_development_cannot_be_seized():
    """F6: "If the development is defended, the attacking player must first defeat all
    defenders": units on its hex must be beaten first (it cannot be seized while they stand);
    a defender the owner names from next to both (v2) rolls no dice and stops the seizure: the
    piece cannot be seized (nor taken by occupying) while that defender stands next to it; once
    an ordinary attack beats the defender, seizing is legal again."""
    sc = Scenario(make_map(), phase="battle")
    sc.development(0, "camp", (4, 0))
    sc.development(1, "camp", (0, 0))
    sc.development(1, "camp", (-4, 0))
    on = sc.unit(1, "soldier", (0, 0))
    beside = sc.unit(1, "soldier", (0, 1))   # next to the camp and to (1,0)
    cav = sc.unit(0, "cavalry", (1, 0))
    sc.unit(0, "soldier", (1, 1))            # next to (0,1), not to the camp
    state = sc.build()
    camp = hx(state, (0, 0))
    assert "seize" not in verbs(state)       # the soldier on the camp holds it
    refused(state, "seize", (0, 0))
    act(state, "activate cavalry", (1, 0))
    state.forced_dice[:] = [6, 6, 6, 1]
    act(state, "attack", (0, 0))             # (0,1) is no weaker: the soldier on it fights
    assert state.u_where[on] == PRISONER and state.tokens == [1, 0]
    assert (0, 0) in hexes(state, "seize")
    act(state, "seize", (0, 0))
    assert state.current_player == 1 and verbs(state) == {"choose soldier", "no defence"}
    assert hexes(state, "choose soldier") == {(0, 1)}

    # The owner names the defender: no dice are rolled, the seizure stops.
    fought = len(battles(state))
    state.forced_dice[:] = [6, 1]
    act(state, "choose soldier", (0, 1))
    assert state.forced_dice == [6, 1] and len(battles(state)) == fought
    assert state.u_where[beside] == ON_BOARD and at(state, beside) == (0, 1)
    assert state.defended == {camp: beside}
    assert state.dev_owner[camp] == 1 and state.tokens == [1, 0]
    assert state.pending is None and state.current_player == 0 and state.active.unit == cav
    # While the defender stands next to it, the camp can't be seized, nor taken by occupying.
    assert (0, 0) not in hexes(state, "seize") and (0, 0) not in hexes(state, "occupy")
    refused(state, "seize", (0, 0))
    state.forced_dice[:] = []
    act(state, "end activation")
    decline_retaliation(state)               # player 1 lost his soldier to the cavalry
    assert (0, 0) not in hexes(state, "seize")

    # Defeat the defender by a normal attack (soldier against soldier, one die each).
    act(state, "activate soldier", (1, 1))
    state.forced_dice[:] = [6, 1]
    act(state, "attack", (0, 1))
    b = battles(state)[-1]
    assert b["defender"] == beside and b["won"] and not b.get("seize") and state.forced_dice == []
    assert state.u_where[beside] == PRISONER and state.tokens == [2, 0]
    # Seizing is legal again (by the cavalry, spent but still next to the camp).
    assert (0, 0) in hexes(state, "seize")
    act(state, "seize", (0, 0))
    assert state.pending is None and state.dev_owner[camp] == 0
    assert state.tokens == [1 + 1 + 1, 0]    # two soldiers and the camp


def test_player_chooses_which_unit_seizes():
    """F5/F7: with several of his units able to seize, the player chooses which one (it is the
    one that may then occupy the hex)."""
    sc = Scenario(make_map(), phase="battle")
    sc.development(1, "camp", (0, 0))
    sc.development(1, "camp", (-4, 0))
    sc.unit(0, "soldier", (1, 0))
    c = sc.unit(0, "cavalry", (-1, 0))
    state = sc.build()
    act(state, "seize", (0, 0))
    assert state.current_player == 0
    assert verbs(state) == {"choose soldier", "choose cavalry"}
    assert hexes(state, "choose cavalry") == {(-1, 0)}
    act(state, "choose cavalry", (-1, 0))
    assert state.dev_owner[hx(state, (0, 0))] == 0
    decline_retaliation(state)
    act(state, "occupy", (0, 0))
    assert at(state, c) == (0, 0)


# ----------------------------------------------------------------------------- F7, F8, F10
def test_seize_then_occupy():
    """F7: the seized development becomes the seizer's (same kind), artillery on it changes
    owner too; the seizing unit may then move onto the hex if there is room."""
    # With a unit active: it may occupy at once.
    sc = Scenario(make_map(), phase="battle")
    sc.development(1, "fort", (0, 0))
    sc.development(1, "camp", (-4, 0))
    s = sc.unit(0, "soldier", (1, 0))
    state = sc.build()
    act(state, "activate soldier", (1, 0))
    act(state, "seize", (0, 0))
    assert state.dev_owner[hx(state, (0, 0))] == 0 and state.dev_type[hx(state, (0, 0))] == FORT
    assert hexes(state, "occupy") == {(0, 0)}
    act(state, "occupy", (0, 0))
    assert at(state, s) == (0, 0)
    assert state.active.move_left == 3          # occupying is no movement

    # Seizing with no unit active: the loser retaliates at once (R2); the seizer's chance to
    # occupy is his, never the retaliator's, and it is still there when the turn comes back.
    sc = Scenario(make_map(), phase="battle")
    sc.development(1, "camp", (0, 0))
    sc.development(1, "camp", (-4, 0))
    s = sc.unit(0, "soldier", (1, 0))
    state = sc.build()
    act(state, "seize", (0, 0))
    assert state.current_player == 1
    assert "occupy" not in verbs(state)
    refused(state, "occupy", (0, 0))
    decline_retaliation(state)
    assert hexes(state, "occupy") == {(0, 0)}
    act(state, "occupy", (0, 0))
    assert at(state, s) == (0, 0) and state.u_owner[s] == 0

    # A camp with artillery on it (occupancy 1 + 2 = 3): both change hands, no room to occupy.
    sc = Scenario(make_map(), phase="battle")
    sc.development(1, "camp", (0, 0))
    sc.artillery(1, (0, 0))
    sc.development(1, "camp", (-4, 0))
    s = sc.unit(0, "soldier", (1, 0))
    state = sc.build()
    act(state, "activate soldier", (1, 0))
    act(state, "seize", (0, 0))
    assert state.dev_owner[hx(state, (0, 0))] == 0 and state.art_owner[hx(state, (0, 0))] == 0
    assert "occupy" not in verbs(state)
    assert at(state, s) == (1, 0)


def test_last_development_bonus():
    """F8: seizing a player's last development pays 3 more tokens; he is not eliminated."""
    def seize_camp(other_camp):
        sc = Scenario(make_map(), phase="battle")
        sc.development(1, "camp", (0, 0))
        if other_camp:
            sc.development(1, "camp", (-4, 0))
        sc.unit(1, "soldier", (-3, 3))
        sc.unit(0, "soldier", (1, 0))
        state = sc.build()
        act(state, "seize", (0, 0))
        return state

    assert seize_camp(other_camp=True).tokens == [1, 0]
    state = seize_camp(other_camp=False)
    assert state.tokens == [1 + 3, 0]
    assert 1 not in state.dev_owner
    decline_retaliation(state)
    act(state, "end turn")
    # Player 1 still plays his turn with what he has left.
    assert state.current_player == 1 and not state.is_over
    assert (-3, 3) in hexes(state, "activate soldier")


def test_seized_walls_change_owner_unless_owner_adjacent():
    """F10: each wall on the seized hex changes owner unless the hex across it is held by the
    wall's owner."""
    sc = Scenario(make_map(), phase="battle")
    sc.development(1, "camp", (0, 0))
    sc.development(1, "camp", (0, -1))          # across the NW wall
    sc.unit(1, "soldier", (-1, 0))              # across the W wall
    for d in ("E", "NW", "W", "SW"):
        sc.wall(1, (0, 0), d)
    sc.unit(0, "soldier", (0, 1))               # seizes across the open SE edge
    state = sc.build()
    assert (0, 0) in hexes(state, "seize")
    act(state, "seize", (0, 0))
    assert state.dev_owner[hx(state, (0, 0))] == 0
    assert wall_owner(state, (0, 0), 0) == 0    # E: (1,0) is empty
    assert wall_owner(state, (0, 0), 4) == 0    # SW: (-1,1) is empty
    assert wall_owner(state, (0, 0), 2) == 1    # NW: his camp is there
    assert wall_owner(state, (0, 0), 3) == 1    # W: his soldier is there


# ----------------------------------------------------------------------------- F11
def test_discharge_and_recruit_once_per_turn():
    """F11: once a turn a land unit is discharged and a new one of its type recruited on or next
    to a developed hex: free, outside the build limits, upright; the recruit comes next."""
    sc = Scenario(make_map(), phase="build", gold=6, silver=6)
    sc.development(0, "camp", (0, 0))
    old = sc.unit(0, "cavalry", (3, -2))
    cav2 = sc.unit(0, "cavalry", (-3, 2))
    state = sc.build()
    act(state, "activate cavalry", (3, -2))
    act(state, "end activation")                 # spent this turn
    assert (3, -2) in hexes(state, "discharge cavalry")
    act(state, "discharge cavalry", (3, -2))
    assert state.u_where[old] == GONE
    # Nothing but the recruit is legal now, on or next to the developed hex.
    assert verbs(state) == {"recruit"}
    assert hexes(state, "recruit") == {(0, 0), (1, 0), (1, -1), (0, -1), (-1, 0), (-1, 1), (0, 1)}
    refused(state, "recruit", (3, -2))
    act(state, "recruit", (1, 0))
    new = len(state.u_type) - 1
    assert state.u_type[new] == CAVALRY and at(state, new) == (1, 0)
    assert state.u_where[new] == ON_BOARD and state.u_owner[new] == 0
    assert state.gold[0] == 6
    assert not any(v.startswith("discharge") for v in verbs(state))
    refused(state, "discharge cavalry", (-3, 2))
    assert (1, 0) in hexes(state, "activate cavalry")   # the recruit stands upright
    # Build limits untouched: two knights may still be built this turn.
    act(state, "build soldier", (0, 1))
    act(state, "build soldier", (-1, 1))
    assert state.gold[0] == 4
    assert state.u_where[cav2] == ON_BOARD


def test_no_discharge_during_movement():
    """F11: no discharge while a movement is in progress."""
    sc = Scenario(make_map(), phase="build")
    sc.development(0, "camp", (4, -2))
    sc.unit(0, "freighter", (5, -3))
    sc.unit(0, "soldier", (0, 0))
    state = sc.build()
    assert (0, 0) in hexes(state, "discharge soldier")
    act(state, "activate freighter", (5, -3))
    act(state, "move", (5, -2))                  # a freighter's movement in legs
    assert not any(v.startswith("discharge") for v in verbs(state))
    refused(state, "discharge soldier", (0, 0))
