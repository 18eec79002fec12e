"""Scenario tests for battles: close and ranged combat, defenders, results of an attack.

Rows O3, OC3, U2, U5, U17-U28 and F1 (Defend) of docs/rules.md. Dice are forced (``state.forced_dice``):
close combat rolls the attacker's dice, then the defender's, again on a tie; a ranged attack
rolls only the attacker's. Unless a test is about rule U28, the attacker owns a camp so that he
may capture knights.
"""

from __future__ import annotations

import pytest
from conftest import at, battles, hexes, hx, make_map, refused, verbs

from vigtavl_env.engine.scenario import Scenario, act
from vigtavl_env.engine.state import GONE, ON_BOARD, PRISONER


def decline_retaliation(state):
    """The loser of a battle declines his retaliation; the turn goes on."""
    assert state.retaliator == 1 and state.current_player == 1
    act(state, "end turn")
    assert state.current_player == 0


# ----------------------------------------------------------------------------- O3, OC3
def test_battle_tokens_equal_unit_cost():
    """O3: each unit defeated in battle pays its cost in tokens; cargo sunk with a freighter
    does not count."""
    # A won close combat against an archer (cost 2).
    sc = Scenario(make_map(), phase="battle")
    sc.development(0, "camp", (-4, 0))
    sc.unit(0, "cavalry", (0, 0))
    a = sc.unit(1, "archer", (1, 0))
    state = sc.build()
    act(state, "activate cavalry", (0, 0))
    state.forced_dice[:] = [6, 6, 6, 1, 1]
    act(state, "attack", (1, 0))
    assert state.u_where[a] == PRISONER
    assert state.tokens == [2, 0]

    # A galleon (cost 3) sinking a freighter (cost 2) with three soldiers aboard: 2 tokens.
    sc = Scenario(make_map(), phase="battle")
    sc.unit(0, "galleon", (5, -3))
    f = sc.unit(1, "freighter", (5, -1))
    cargo = [sc.unit(1, "soldier", None, aboard=f) for _ in range(3)]
    state = sc.build()
    act(state, "activate galleon", (5, -3))
    state.forced_dice[:] = [2, 6, 6]   # range 2: a 2 hits
    act(state, "shoot", (5, -1))
    assert state.u_where[f] == GONE and all(state.u_where[k] == GONE for k in cargo)
    assert state.tokens == [2, 0]
    assert battles(state)[-1]["dice"] == 3


def test_prisoners_do_not_count_for_occupancy():
    """OC3: prisoners held on a developed hex do not count towards its occupancy."""
    sc = Scenario(make_map(), phase="battle")
    sc.development(0, "camp", (-1, 0))
    sc.unit(0, "soldier", (-1, 0))
    sc.prisoner(1, "soldier", 0, (-1, 0))
    sc.prisoner(1, "cavalry", 0, (-1, 0))
    sc.unit(0, "cavalry", (1, 0))
    s2 = sc.unit(0, "soldier", (-3, 0))
    v = sc.unit(1, "soldier", (2, 0))
    state = sc.build()
    camp = hx(state, (-1, 0))
    assert state.occ[camp] == 2  # camp + soldier; the two prisoners are not counted
    act(state, "activate cavalry", (1, 0))
    state.forced_dice[:] = [6, 6, 6, 1]
    act(state, "attack", (2, 0))
    assert state.u_where[v] == PRISONER and state.u_cell[v] == camp
    assert state.occ[camp] == 2
    act(state, "end activation")
    decline_retaliation(state)
    # Three prisoners there, and still room for one more of his units.
    act(state, "activate soldier", (-3, 0))
    assert (-1, 0) in hexes(state, "move")
    act(state, "move", (-1, 0))
    assert at(state, s2) == (-1, 0) and state.occ[camp] == 3


# ----------------------------------------------------------------------------- U2, U5
def test_freighter_cannot_attack():
    """U2: a freighter never attacks: no attack, and no battle move into an enemy ship's hex."""
    sc = Scenario(make_map(), phase="battle")
    sc.development(0, "camp", (4, -2))
    sc.unit(0, "freighter", (5, -2))
    sc.unit(1, "caravel", (5, -1))
    state = sc.build()
    act(state, "activate freighter", (5, -2))
    assert hexes(state, "attack") == set()
    assert (5, -1) not in hexes(state, "move")
    refused(state, "attack", (5, -1))
    refused(state, "move", (5, -1))


def test_freighter_defends_only_itself():
    """U2: a freighter defends its hex only when no other ship is there, and never defends a
    development."""
    # Freighter and caravel together: the caravel defends.
    sc = Scenario(make_map(), phase="battle")
    sc.unit(0, "caravel", (5, -3))
    f = sc.unit(1, "freighter", (5, -2))
    c = sc.unit(1, "caravel", (5, -2))
    state = sc.build()
    act(state, "activate caravel", (5, -3))
    state.forced_dice[:] = [6, 1]      # 1 die each: only a caravel defends
    act(state, "attack", (5, -2))
    b = battles(state)[-1]
    assert b["defender"] == c and b["won"]
    assert state.u_where[c] == GONE and state.u_where[f] == ON_BOARD

    # The freighter alone defends itself "like a normal ship": 2 dice (its cost).
    sc = Scenario(make_map(), phase="battle")
    a = sc.unit(0, "caravel", (5, -3))
    f = sc.unit(1, "freighter", (5, -2))
    state = sc.build()
    act(state, "activate caravel", (5, -3))
    state.forced_dice[:] = [3, 5, 4]
    act(state, "attack", (5, -2))
    b = battles(state)[-1]
    assert b["defender"] == f and not b["won"]
    assert b["rolls"] == [[[3], [5, 4]]]
    assert state.u_where[f] == ON_BOARD and state.u_where[a] == ON_BOARD

    # A freighter next to both the seizing soldier and the camp does not defend the camp...
    def camp_with_ship(kind):
        sc = Scenario(make_map(), phase="battle")
        sc.development(1, "camp", (4, 0))
        sc.development(1, "camp", (-4, 0))
        sc.unit(1, kind, (5, -1))          # next to (4,0) and to (4,-1)
        sc.unit(0, "soldier", (4, -1))
        return sc.build()

    state = camp_with_ship("freighter")
    assert (4, 0) in hexes(state, "seize")
    act(state, "seize", (4, 0))
    assert state.pending is None                # nobody is asked to defend
    assert state.dev_owner[hx(state, (4, 0))] == 0
    # ...where a caravel in its place may: its owner is asked.
    state = camp_with_ship("caravel")
    act(state, "seize", (4, 0))
    assert state.current_player == 1 and hexes(state, "choose caravel") == {(5, -1)}
    assert "choose freighter" not in verbs(state)


def test_archer_fires_from_freighter():
    """U5: an archer aboard a freighter attacks coastal hexes and ships (close combat next to it,
    or a shot); other knights aboard do not attack (they may land, which can be a battle move)."""
    sc = Scenario(make_map(), phase="battle")
    sc.development(0, "camp", (-4, 0))
    f = sc.unit(0, "freighter", (5, -2))
    sc.unit(0, "archer", None, aboard=f)
    sc.unit(0, "soldier", None, aboard=f)
    v = sc.unit(1, "soldier", (4, -2))     # on the coast next to the freighter
    sc.unit(1, "caravel", (5, 0))          # 2 hexes down the coast
    sc.unit(1, "soldier", (4, -1))
    state = sc.build()
    act(state, "activate archer", (5, -2))
    assert {(4, -2), (5, 0), (4, -1)} <= hexes(state, "shoot")
    assert {(4, -2), (4, -1)} == hexes(state, "attack")
    state.forced_dice[:] = [3, 6]
    act(state, "shoot", (4, -2))
    b = battles(state)[-1]
    assert b["won"] and b["ranged"] == 1 and b["dice"] == 2
    assert state.u_where[v] == PRISONER
    act(state, "end activation")
    decline_retaliation(state)
    act(state, "activate soldier", (5, -2))
    assert hexes(state, "attack") == set()
    refused(state, "attack", (4, -1))
    assert (4, -1) in hexes(state, "move")   # storming ashore is a battle move


def test_archer_aboard_targets_only_coast_and_ships():
    """U5: "Archers loaded onto a freighter can attack coastal hexes or enemy ships": not a land
    hex away from the sea, though it lies on the archer's line within range."""
    sc = Scenario(make_map(), phase="battle")
    sc.development(0, "camp", (-4, 0))
    f = sc.unit(0, "freighter", (5, -2))
    sc.unit(0, "archer", None, aboard=f)
    sc.unit(1, "soldier", (3, -2))         # W, range 2, inland (no sea next to it)
    sc.unit(1, "soldier", (4, -1))         # SW, range 1, on the coast
    sc.unit(1, "caravel", (5, 0))          # SE, range 2, a ship
    state = sc.build()
    assert not state.gmap.coastal[hx(state, (3, -2))]
    act(state, "activate archer", (5, -2))
    assert hexes(state, "shoot") == {(4, -1), (5, 0)}
    refused(state, "shoot", (3, -2))
    # On land, an archer shoots an inland hex two away.
    sc = Scenario(make_map(), phase="battle")
    sc.development(0, "camp", (-4, 0))
    sc.unit(0, "archer", (4, -2))
    sc.unit(1, "soldier", (2, -2))         # W, range 2, inland
    state = sc.build()
    act(state, "activate archer", (4, -2))
    assert (2, -2) in hexes(state, "shoot")


# ----------------------------------------------------------------------------- U17, U18
def battle_move_scenario(defenders=1):
    sc = Scenario(make_map(), phase="battle")
    sc.development(0, "camp", (-4, 0))
    c = sc.unit(0, "cavalry", (0, 0))
    vs = [sc.unit(1, "soldier", (2, 0)) for _ in range(defenders)]
    return sc.build(), c, vs


def test_move_into_enemy_hex_is_battle():
    """U17: in the battle phase, moving into another player's hex is a battle that uses the
    move and the attack; the winner stands on the cleared hex, a loser stays where it began."""
    state, c, (v,) = battle_move_scenario()
    act(state, "activate cavalry", (0, 0))
    assert (2, 0) in hexes(state, "move")
    state.forced_dice[:] = [6, 6, 6, 1]
    act(state, "move", (2, 0))
    act(state, "attack from", (1, 0))        # the side it enters from (T2)
    b = battles(state)[-1]
    assert b["unit"] == c and b["defender"] == v and b["won"] and b["dice"] == 3
    assert at(state, c) == (2, 0) and state.u_where[v] == PRISONER
    # Move and attack are both spent: the activation is over and the loser retaliates (R2).
    assert state.active is None and state.retaliator == 1

    state, c, (v,) = battle_move_scenario()
    act(state, "activate cavalry", (0, 0))
    state.forced_dice[:] = [1, 1, 1, 6]
    act(state, "move", (2, 0))
    act(state, "attack from", (1, 0))
    assert not battles(state)[-1]["won"]
    assert at(state, c) == (0, 0) and at(state, v) == (2, 0)
    assert state.active is None and state.current_player == 0  # spent; nobody lost: no retaliation


def test_close_combat_highest_die_wins_ties_reroll():
    """U18: both roll their unit's cost in dice; only the highest dice compare; ties re-roll."""
    def duel(attacker, defender):
        sc = Scenario(make_map(), phase="battle")
        sc.development(0, "camp", (-4, 0))
        a = sc.unit(0, attacker, (0, 0))
        d = sc.unit(1, defender, (1, 0))
        sc.unit(1, "soldier", (2, 0))     # not adjacent: out of close combat
        state = sc.build()
        act(state, f"activate {attacker}", (0, 0))
        return state, a, d

    # A tie is re-rolled; then the higher die (the defender's) wins.
    state, a, d = duel("soldier", "soldier")
    assert hexes(state, "attack") == {(1, 0)}
    refused(state, "attack", (2, 0))
    state.forced_dice[:] = [5, 5, 3, 4]
    act(state, "attack", (1, 0))
    b = battles(state)[-1]
    assert b["rolls"] == [[[5], [5]], [[3], [4]]] and not b["won"]
    assert state.forced_dice == [] and at(state, d) == (1, 0) and at(state, a) == (0, 0)

    # The attacker rolls 3 dice (cavalry), the defender 1: 2+2+4 > 5 but 4 < 5 loses.
    state, a, d = duel("cavalry", "soldier")
    state.forced_dice[:] = [2, 2, 4, 5]
    act(state, "attack", (1, 0))
    b = battles(state)[-1]
    assert b["rolls"] == [[[2, 2, 4], [5]]] and not b["won"]
    assert state.u_where[d] == ON_BOARD

    # Highest 6 beats highest 5: the attacker wins.
    state, a, d = duel("cavalry", "archer")
    state.forced_dice[:] = [1, 1, 6, 5, 5]
    act(state, "attack", (1, 0))
    b = battles(state)[-1]
    assert b["rolls"] == [[[1, 1, 6], [5, 5]]] and b["won"]
    assert state.u_where[d] == PRISONER


def test_close_combat_across_the_coast():
    """U18: close combat may cross the coast (a knight against a ship next to it)."""
    sc = Scenario(make_map(), phase="battle")
    s = sc.unit(0, "soldier", (4, -2))
    c = sc.unit(1, "caravel", (5, -2))
    state = sc.build()
    act(state, "activate soldier", (4, -2))
    assert (5, -2) in hexes(state, "attack")
    state.forced_dice[:] = [6, 1]
    act(state, "attack", (5, -2))
    assert state.u_where[c] == GONE and state.sunk == [1, 0]
    assert at(state, s) == (4, -2)
    assert "occupy" not in verbs(state)  # a knight cannot stand at sea


# ----------------------------------------------------------------------------- U19-U21
def test_ranged_only_straight_lines():
    """U19: ranged attacks go along the six straight lines, range 1 to 3, over units in between;
    at range 1 too the attack is ranged (only the attacker rolls)."""
    sc = Scenario(make_map(), phase="battle")
    sc.development(0, "camp", (-4, 0))
    sc.unit(0, "archer", (0, 0))
    near = sc.unit(1, "soldier", (1, 0))     # E, range 1
    sc.unit(1, "soldier", (2, 0))            # E, range 2, behind another unit
    sc.unit(1, "soldier", (0, -3))           # NW, range 3
    sc.unit(0, "soldier", (-1, 1))
    sc.unit(1, "soldier", (-2, 2))           # SW, range 2, behind an own unit
    sc.unit(1, "soldier", (2, -1))           # 2 away, off every straight line
    sc.unit(1, "soldier", (0, 4))            # SE, range 4
    state = sc.build()
    act(state, "activate archer", (0, 0))
    assert hexes(state, "shoot") == {(1, 0), (2, 0), (0, -3), (-2, 2)}
    refused(state, "shoot", (2, -1))
    refused(state, "shoot", (0, 4))
    state.forced_dice[:] = [4, 4, 6, 6]
    act(state, "shoot", (1, 0))
    b = battles(state)[-1]
    assert b["ranged"] == 1 and b["rolls"] == [4, 4] and not b["won"]
    assert state.forced_dice == [6, 6]       # the target did not roll
    assert at(state, near) == (1, 0)


def test_ranged_blocked_by_mountain_and_wall():
    """U20: mountains and opponent walls on the way block a ranged attack; own walls do not."""
    sc = Scenario(make_map(mountains=[(1, 0)]), phase="battle")
    sc.development(0, "camp", (-4, 1))
    sc.unit(0, "archer", (0, 0))
    sc.unit(1, "soldier", (2, 0))            # behind the mountain
    sc.unit(1, "soldier", (1, -1))           # NE, range 1
    sc.unit(1, "soldier", (2, -2))           # NE, range 2, behind an opponent wall
    sc.wall(1, (1, -1), "NE")
    sc.unit(1, "soldier", (-2, 0))           # W, range 2, behind the archer's own wall
    sc.wall(0, (-1, 0), "W")
    sc.unit(1, "soldier", (0, 1))            # SE, behind an opponent wall on the archer's hex
    sc.wall(1, (0, 0), "SE")
    state = sc.build()
    act(state, "activate archer", (0, 0))
    assert hexes(state, "shoot") == {(1, -1), (-2, 0)}
    for blocked in ((2, 0), (2, -2), (0, 1)):
        refused(state, "shoot", blocked)


@pytest.mark.parametrize("reach, rolls, hit", [
    (1, [3, 6], True), (1, [4, 6], False),
    (2, [2, 6], True), (2, [3, 6], False),
    (3, [1, 6], True), (3, [2, 6], False),
])
def test_ranged_hit_thresholds_by_range(reach, rolls, hit):
    """U21: the attacker rolls his cost in dice; any 1-3 hits at range 1, 1-2 at range 2, 1 at
    range 3. A miss changes nothing and the target does not roll."""
    sc = Scenario(make_map(), phase="battle")
    sc.development(0, "camp", (-4, 0))
    sc.unit(0, "archer", (0, 0))
    v = sc.unit(1, "soldier", (reach, 0))
    state = sc.build()
    act(state, "activate archer", (0, 0))
    state.forced_dice[:] = rolls + [6, 6]
    act(state, "shoot", (reach, 0))
    b = battles(state)[-1]
    assert b["ranged"] == reach and b["dice"] == 2 and b["won"] is hit
    assert state.forced_dice == [6, 6]
    if hit:
        assert state.u_where[v] == PRISONER and state.tokens == [1, 0]
    else:
        assert at(state, v) == (reach, 0) and state.tokens == [0, 0]


@pytest.mark.parametrize("last, hit", [(1, True), (2, False)])
def test_galleon_rolls_three_dice_at_range(last, hit):
    """U21: a galleon rolls 3 dice (its cost); at range 3 only a 1 hits."""
    sc = Scenario(make_map(), phase="battle")
    sc.unit(0, "galleon", (5, -5))
    c = sc.unit(1, "caravel", (5, -2))       # 3 hexes down the upper-right side
    state = sc.build()
    act(state, "activate galleon", (5, -5))
    state.forced_dice[:] = [6, 6, last, 6]
    act(state, "shoot", (5, -2))
    b = battles(state)[-1]
    assert b["ranged"] == 3 and b["rolls"] == [6, 6, last] and b["won"] is hit
    assert (state.u_where[c] == GONE) is hit
    assert state.forced_dice == [6]


# ----------------------------------------------------------------------------- U22, F1, U23
def test_defender_chooses_which_unit_defends():
    """U22: when several units stand on the attacked hex, their owner chooses which defends (out
    of turn); the chosen unit rolls its dice and is the one captured."""
    sc = Scenario(make_map(), phase="battle")
    sc.development(0, "camp", (-4, 0))
    s = sc.unit(0, "soldier", (0, 0))
    sol, arc = sc.unit(1, "soldier", (1, 0)), sc.unit(1, "archer", (1, 0))
    cav = sc.unit(1, "cavalry", (1, 0))
    state = sc.build()
    act(state, "activate soldier", (0, 0))
    act(state, "attack", (1, 0))
    # Player 1 is asked, out of turn, with exactly his three units as the choices.
    assert state.current_player == 1 and state.turn_player == 0
    assert verbs(state) == {"choose soldier", "choose archer", "choose cavalry"}
    assert all(hexes(state, f"choose {k}") == {(1, 0)} for k in ("soldier", "archer", "cavalry"))
    refused(state, "end turn")
    state.forced_dice[:] = [6, 1]
    act(state, "choose soldier", (1, 0))
    b = battles(state)[-1]
    assert b["defender"] == sol and b["rolls"] == [[[6], [1]]] and b["won"]
    assert state.u_where[sol] == PRISONER and state.tokens == [1, 0]
    assert at(state, arc) == (1, 0) and at(state, cav) == (1, 0)
    assert at(state, s) == (0, 0) and state.current_player == 0
    assert "occupy" not in verbs(state)  # enemy units remain on the hex


def test_weaker_unit_next_to_both_defends():
    """F1 Defend: "Weaker units may defend stronger units ... if they are located on a hex
    adjacent to both the attacker and the unit they are defending": the owner may send a cheaper
    unit from a hex next to both; it fights and is captured in the target's place. Units that
    are not next to both, or not weaker, are not offered; with one possible defender nobody is
    asked."""
    def attacked(extra):
        sc = Scenario(make_map(), phase="battle")
        sc.development(0, "camp", (-4, 0))
        sc.unit(0, "soldier", (0, 0))
        cav = sc.unit(1, "cavalry", (1, 0))
        units = {h: sc.unit(1, k, h) for k, h in extra}
        state = sc.build()
        act(state, "activate soldier", (0, 0))
        return state, cav, units

    # (1,-1) and (0,1) are next to both (0,0) and (1,0); (2,-1) is next to the target only.
    state, cav, units = attacked([("soldier", (1, -1)), ("cavalry", (0, 1)), ("soldier", (2, -1))])
    act(state, "attack", (1, 0))
    assert state.current_player == 1
    assert hexes(state, "choose soldier") == {(1, -1)}
    assert hexes(state, "choose cavalry") == {(1, 0)}   # the cavalry at (0,1) is not weaker
    state.forced_dice[:] = [6, 1]
    act(state, "choose soldier", (1, -1))
    b = battles(state)[-1]
    assert b["defender"] == units[(1, -1)] and b["won"] and b["at"] == hx(state, (1, -1))
    assert state.u_where[units[(1, -1)]] == PRISONER and state.tokens == [1, 0]
    assert at(state, cav) == (1, 0) and state.u_where[cav] == ON_BOARD
    assert "occupy" not in verbs(state)

    # The target defends itself: 3 dice for the cavalry.
    state, cav, units = attacked([("soldier", (1, -1))])
    act(state, "attack", (1, 0))
    state.forced_dice[:] = [6, 1, 1, 1]
    act(state, "choose cavalry", (1, 0))
    assert battles(state)[-1]["rolls"] == [[[6], [1, 1, 1]]] and state.u_where[cav] == PRISONER

    # Nobody else may defend: the battle is fought at once.
    state, cav, units = attacked([("soldier", (2, -1))])
    state.forced_dice[:] = [1, 6, 1, 1]
    act(state, "attack", (1, 0))
    assert state.pending is None and battles(state)[-1]["defender"] == cav


def test_no_knight_steps_in_against_an_attacker_who_may_not_capture():
    """F1 Defend with the capture rule: "If a player has no developments on the map, he may not
    capture any opponent units". A knight next to both an attacking ship and the attacked ship
    may step in to defend it only against an attacker with a development, who could take it
    prisoner; against one without, the ship defends itself (found by the random-play property
    test: a soldier stepped in and was "captured" with no hex to be held on)."""
    def attacked(attacker_has_development):
        sc = Scenario(make_map(sea=[(0, 0), (1, 0)]), phase="battle")
        if attacker_has_development:
            sc.development(0, "camp", (-4, 0))
        sc.development(1, "camp", (4, -4))
        sc.unit(0, "galleon", (0, 0))
        ship = sc.unit(1, "galleon", (1, 0))
        soldier = sc.unit(1, "soldier", (1, -1))  # land next to both ships
        state = sc.build()
        act(state, "activate galleon", (0, 0))
        return state, ship, soldier

    state, ship, soldier = attacked(True)
    act(state, "attack", (1, 0))
    assert state.current_player == 1
    assert hexes(state, "choose soldier") == {(1, -1)} and hexes(state, "choose galleon") == {(1, 0)}

    state, ship, soldier = attacked(False)
    state.forced_dice[:] = [6, 6, 6, 1, 1, 1]
    act(state, "attack", (1, 0))
    assert state.pending is None and battles(state)[-1]["defender"] == ship  # nobody asked
    assert state.u_where[soldier] == ON_BOARD and state.u_where[ship] != ON_BOARD


def test_ranged_attack_defended_from_the_middle_hex():
    """F1 with a ranged attack at range 2: the hex between attacker and target is next to both;
    a cheaper unit there may take the shot."""
    sc = Scenario(make_map(), phase="battle")
    sc.development(0, "camp", (-4, 0))
    sc.unit(0, "archer", (0, 0))
    cav = sc.unit(1, "cavalry", (2, 0))
    guard = sc.unit(1, "soldier", (1, 0))
    state = sc.build()
    act(state, "activate archer", (0, 0))
    act(state, "shoot", (2, 0))
    assert state.current_player == 1
    assert hexes(state, "choose soldier") == {(1, 0)} and hexes(state, "choose cavalry") == {(2, 0)}
    state.forced_dice[:] = [2, 6]                  # range 2: a 2 hits
    act(state, "choose soldier", (1, 0))
    assert state.u_where[guard] == PRISONER and state.u_where[cav] == ON_BOARD


def test_ranged_units_may_fight_close_combat():
    """U18: "Units can attack opponents in the same or adjacent hexes": an archer or galleon
    next to its target chooses close combat (both roll, highest die wins) or a shot (only the
    attacker rolls, hits on 1-3)."""
    def archer_next_to_soldier():
        sc = Scenario(make_map(), phase="battle")
        sc.development(0, "camp", (-4, 0))
        sc.unit(0, "archer", (0, 0))
        v = sc.unit(1, "soldier", (1, 0))
        sc.unit(1, "soldier", (2, 0))              # 2 away: a shot only
        state = sc.build()
        act(state, "activate archer", (0, 0))
        return state, v

    state, v = archer_next_to_soldier()
    assert hexes(state, "attack") == {(1, 0)} and hexes(state, "shoot") == {(1, 0), (2, 0)}
    state.forced_dice[:] = [6, 6, 5]               # close combat: 6 beats the defender's 5
    act(state, "attack", (1, 0))
    b = battles(state)[-1]
    assert b["ranged"] == 0 and b["rolls"] == [[[6, 6], [5]]] and b["won"]
    assert state.u_where[v] == PRISONER

    state, v = archer_next_to_soldier()
    state.forced_dice[:] = [6, 6, 5]               # a shot: no 1-3 among the archer's dice
    act(state, "shoot", (1, 0))
    b = battles(state)[-1]
    assert b["ranged"] == 1 and b["rolls"] == [6, 6] and not b["won"]
    assert state.forced_dice == [5]                # the defender never rolled

    sc = Scenario(make_map(), phase="battle")
    sc.unit(0, "galleon", (5, -3))
    sc.unit(1, "caravel", (5, -2))
    state = sc.build()
    act(state, "activate galleon", (5, -3))
    assert (5, -2) in hexes(state, "attack") and (5, -2) in hexes(state, "shoot")


def test_artillery_fired_by_knight():
    """U23: artillery is fired by a knight on its hex, with 2 dice at range up to 3; it uses
    the knight's attack."""
    sc = Scenario(make_map(), phase="battle")
    sc.development(0, "camp", (-4, 0))
    sc.artillery(0, (0, 0))
    sc.unit(0, "soldier", (0, 0))
    sc.unit(0, "soldier", (-1, 0))
    far = sc.unit(1, "soldier", (3, 0))
    sc.unit(1, "soldier", (0, -1))
    state = sc.build()
    act(state, "activate soldier", (-1, 0))   # not on the artillery's hex
    assert hexes(state, "fire artillery") == set()
    refused(state, "fire artillery", (3, 0))
    act(state, "end activation")
    act(state, "activate soldier", (0, 0))
    assert {(3, 0), (0, -1)} <= hexes(state, "fire artillery")
    state.forced_dice[:] = [6, 1]
    act(state, "fire artillery", (3, 0))
    b = battles(state)[-1]
    assert b["artillery"] and b["dice"] == 2 and b["ranged"] == 3 and b["won"]
    assert state.u_where[far] == PRISONER
    assert "attack" not in verbs(state) and "fire artillery" not in verbs(state)
    refused(state, "attack", (0, -1))


# ----------------------------------------------------------------------------- U24-U27
def test_retreat_after_lost_battle_move():
    """U24: a unit that moved onto the battle hex and did not win it goes back to where its
    movement began; a unit that attacked from next door stays where it is."""
    state, c, _ = battle_move_scenario()
    act(state, "activate cavalry", (0, 0))
    state.forced_dice[:] = [1, 1, 1, 6]
    act(state, "move", (2, 0))
    act(state, "attack from", (1, 0))
    assert at(state, c) == (0, 0)
    assert any(e["event"] == "retreat" and e["unit"] == c for e in state.events)

    # Won, but a second defender remains: the hex is not cleared, so it goes back too.
    state, c, (v1, v2) = battle_move_scenario(defenders=2)
    act(state, "activate cavalry", (0, 0))
    state.forced_dice[:] = [6, 6, 6, 1]
    act(state, "move", (2, 0))
    act(state, "attack from", (1, 0))
    assert battles(state)[-1]["won"]
    assert at(state, c) == (0, 0)
    assert [state.u_where[v1], state.u_where[v2]].count(PRISONER) == 1

    # An attack from the adjacent hex that loses: the attacker stays put.
    sc = Scenario(make_map(), phase="battle")
    sc.development(0, "camp", (-4, 0))
    s = sc.unit(0, "soldier", (1, 0))
    sc.unit(1, "soldier", (2, 0))
    state = sc.build()
    act(state, "activate soldier", (1, 0))
    state.forced_dice[:] = [1, 6]
    act(state, "attack", (2, 0))
    assert at(state, s) == (1, 0) and state.u_where[s] == ON_BOARD


def test_capture_to_nearest_development():
    """U25: a defeated knight becomes a prisoner on the victor's developed hex nearest the
    battle (ties: lowest hex number)."""
    def capture(camps):
        sc = Scenario(make_map(), phase="battle")
        for c in camps:
            sc.development(0, "camp", c)
        sc.unit(0, "soldier", (0, 0))
        v = sc.unit(1, "soldier", (1, 0))
        state = sc.build()
        act(state, "activate soldier", (0, 0))
        state.forced_dice[:] = [6, 1]
        act(state, "attack", (1, 0))
        return state, v

    # (4,0) is 3 from the battle hex (1,0) and 4 from the attacker; (-3,0) the other way round.
    state, v = capture([(-3, 0), (4, 0)])
    assert state.u_where[v] == PRISONER and state.u_holder[v] == 0
    assert at(state, v) == (4, 0)
    assert state.occ[hx(state, (1, 0))] == 0

    # Both 3 from the battle: the lower hex number (rows top to bottom) holds him.
    state, v = capture([(1, 3), (1, -3)])
    assert hx(state, (1, -3)) < hx(state, (1, 3))
    assert at(state, v) == (1, -3)


def test_sea_victory_sinks_into_graveyard():
    """U26: the beaten ship is sunk into the victor's graveyard, with any knights aboard; a
    losing attacker is not sunk."""
    sc = Scenario(make_map(), phase="battle")
    sc.unit(0, "caravel", (5, -3))
    f = sc.unit(1, "freighter", (5, -2))
    cargo = [sc.unit(1, "soldier", None, aboard=f), sc.unit(1, "archer", None, aboard=f)]
    state = sc.build()
    act(state, "activate caravel", (5, -3))
    state.forced_dice[:] = [6, 1, 1]
    act(state, "attack", (5, -2))
    assert state.u_where[f] == GONE and state.sunk == [1, 0]
    assert all(state.u_where[k] == GONE for k in cargo)
    assert not any(w == PRISONER for w in state.u_where)
    assert any(e["event"] == "sunk" and e["unit"] == f for e in state.events)

    sc = Scenario(make_map(), phase="battle")
    a = sc.unit(0, "caravel", (5, -3))
    d = sc.unit(1, "caravel", (5, -2))
    state = sc.build()
    act(state, "activate caravel", (5, -3))
    state.forced_dice[:] = [1, 6]
    act(state, "attack", (5, -2))
    assert state.u_where[a] == ON_BOARD and state.u_where[d] == ON_BOARD
    assert state.sunk == [0, 0]


def test_occupation_after_victory():
    """U27: after a won attack that clears the hex, the next decision may be "occupy" (free: no
    movement spent); any other decision lets it pass; a ranged winner occupies only a hex next
    to it."""
    def won_close():
        sc = Scenario(make_map(), phase="battle")
        sc.development(0, "camp", (-4, 0))
        s = sc.unit(0, "soldier", (0, 0))
        sc.unit(1, "soldier", (1, 0))
        state = sc.build()
        act(state, "activate soldier", (0, 0))
        state.forced_dice[:] = [6, 1]
        act(state, "attack", (1, 0))
        return state, s

    state, s = won_close()
    assert hexes(state, "occupy") == {(1, 0)}
    act(state, "occupy", (1, 0))
    assert at(state, s) == (1, 0)
    assert state.active.move_left == 3 and "move" in verbs(state)
    assert "occupy" not in verbs(state)

    state, s = won_close()
    act(state, "end activation")
    decline_retaliation(state)
    assert "occupy" not in verbs(state)
    refused(state, "occupy", (1, 0))
    assert at(state, s) == (0, 0)

    # A ranged win next door: the archer may occupy; two hexes away: it may not.
    for reach in (1, 2):
        sc = Scenario(make_map(), phase="battle")
        sc.development(0, "camp", (-4, 0))
        a = sc.unit(0, "archer", (0, 0))
        sc.unit(1, "soldier", (reach, 0))
        state = sc.build()
        act(state, "activate archer", (0, 0))
        state.forced_dice[:] = [1, 6]
        act(state, "shoot", (reach, 0))
        assert battles(state)[-1]["won"]
        if reach == 1:
            assert hexes(state, "occupy") == {(1, 0)}
            act(state, "occupy", (1, 0))
            assert at(state, a) == (1, 0)
        else:
            assert "occupy" not in verbs(state)


def test_occupying_takes_the_development_and_artillery():
    """Artillery section: "If an opponent defeats all knights on the hex where an artillery is
    located, he may occupy the hex and use the artillery for himself": occupying a hex whose
    units are all beaten takes the development and artillery standing there, with the tokens of
    a seizure; a battle move that clears such a hex takes them too."""
    def beaten_on_camp():
        sc = Scenario(make_map(), phase="battle")
        sc.development(0, "camp", (-4, 0))
        sc.development(1, "fort", (1, 0))
        sc.development(1, "camp", (4, 0))
        s = sc.unit(0, "soldier", (0, 0))
        sc.unit(1, "soldier", (1, 0))
        return sc, s

    sc, s = beaten_on_camp()
    state = sc.build()
    act(state, "activate soldier", (0, 0))
    state.forced_dice[:] = [6, 1]
    act(state, "attack", (1, 0))
    assert hexes(state, "occupy") == {(1, 0)}     # the fort does not stop the occupation
    act(state, "occupy", (1, 0))
    fort = hx(state, (1, 0))
    assert state.dev_owner[fort] == 0 and at(state, s) == (1, 0)
    assert state.tokens == [1 + 2, 0]            # the battle (soldier) and Conquer (fort)
    assert any(e["event"] == "seized" and e["cell"] == fort for e in state.events)

    # Artillery: the knight on it beaten by a battle move, the mover stands there and owns it.
    sc = Scenario(make_map(), phase="battle")
    sc.development(0, "camp", (-4, 0))
    c = sc.unit(0, "cavalry", (0, 0))
    sc.artillery(1, (1, 0))
    sc.unit(1, "soldier", (1, 0))
    state = sc.build()
    act(state, "activate cavalry", (0, 0))
    state.forced_dice[:] = [6, 6, 6, 1]
    act(state, "move", (1, 0))
    act(state, "attack from", (0, 0))
    assert at(state, c) == (1, 0) and state.art_owner[hx(state, (1, 0))] == 0
    assert state.tokens == [1, 0]                # artillery is no development: no Conquer


def test_no_capture_without_development():
    """U28: a player with no development may not attack knights (close, ranged or battle move)
    and surrounded knights do not surrender to him; he may still sink ships."""
    sc = Scenario(make_map(), phase="battle")
    sc.unit(0, "caravel", (5, -3))
    c = sc.unit(1, "caravel", (5, -2))
    sc.unit(0, "archer", (-2, 0))
    sc.unit(0, "soldier", (0, 0))
    sc.unit(0, "soldier", (0, 1))
    sc.unit(1, "soldier", (1, 0))
    state = sc.build()

    act(state, "activate caravel", (5, -3))
    assert (5, -2) in hexes(state, "attack")
    state.forced_dice[:] = [6, 1]
    act(state, "attack", (5, -2))
    assert state.u_where[c] == GONE
    act(state, "end activation")
    decline_retaliation(state)

    act(state, "activate archer", (-2, 0))
    assert (1, 0) not in hexes(state, "attack")      # range 3 due east
    refused(state, "attack", (1, 0))
    act(state, "end activation")

    act(state, "activate soldier", (0, 0))
    assert (1, 0) not in hexes(state, "attack")
    assert (1, 0) not in hexes(state, "move")
    refused(state, "attack", (1, 0))
    refused(state, "move", (1, 0))
    act(state, "end activation")

    act(state, "build camp", (-3, 0))                # now he has a place for prisoners
    act(state, "activate soldier", (0, 1))
    assert (1, 0) in hexes(state, "attack") and (1, 0) in hexes(state, "move")


def test_no_surrender_without_development():
    """U28: surrounded knights do not surrender to a player who has no development."""
    sc = Scenario(make_map(), phase="battle")
    v = sc.unit(1, "soldier", (0, 0))
    for h in ((1, 0), (1, -1), (0, -1), (-1, 0), (-1, 1)):
        sc.unit(0, "soldier", h)
    sc.unit(0, "soldier", (0, 2))
    state = sc.build()
    act(state, "activate soldier", (0, 2))
    act(state, "move", (0, 1))                        # the ring is closed
    assert state.u_where[v] == ON_BOARD and at(state, v) == (0, 0)
    assert not any(e["event"] == "surrender" for e in state.events)
    assert state.tokens == [0, 0]
