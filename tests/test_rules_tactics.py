"""Scenario tests for tactics: flanking, the feint, attrition, surrender and overwhelm.

Rows T1-T5 of docs/rules.md. The number of attack dice is read from the "battle" event. The
target hex is (0,0) unless said otherwise; its neighbours are E (1,0), NE (1,-1), NW (0,-1),
W (-1,0), SW (-1,1) and SE (0,1). Attackers that must lose roll 1s against 6s.
"""

from __future__ import annotations

from conftest import at, battles, hexes, hx, make_map, refused, verbs

from vigtavl_env.engine.scenario import Scenario, act
from vigtavl_env.engine.state import BATTLE, GONE, ON_BOARD, PRISONER


def losing_attack(state, kind, frm, expect, target=(0, 0)):
    """Activate the unit, attack ``target`` with ``expect`` dice that all lose (1s against the
    defending cavalry's 6s; 6s for a ranged shot), end the activation; return the dice used."""
    act(state, f"activate {kind}", frm)
    ranged = kind == "archer"
    state.forced_dice[:] = [6] * expect if ranged else [1] * expect + [6, 6, 6]
    n_before = len(battles(state))
    act(state, "shoot" if ranged else "attack", target)
    b = battles(state)[-1]
    assert len(battles(state)) == n_before + 1 and not b["won"]
    assert state.forced_dice == []          # exactly the dice expected were rolled
    act(state, "end activation")
    return b["dice"]


def test_flanking_dice():
    """T1: after the front is set, attacks add 1 die from a flank (60 degrees), 2 from a rear
    flank (120) and 3 from the rear (180); a ranged attack's side is its line's direction."""
    sc = Scenario(make_map(), phase="battle")
    sc.development(0, "camp", (-4, 0))
    sc.unit(1, "cavalry", (0, 0))
    for h in ((1, 0), (1, -1), (0, -1), (-1, 0)):
        sc.unit(0, "soldier", h)
    sc.unit(0, "archer", (0, 3))                       # SE line, range 3
    state = sc.build()
    # Front E; NE is a flank, NW a rear flank, W the rear. Soldiers roll 1 die.
    for h, bonus in (((1, 0), 0), ((1, -1), 1), ((0, -1), 2), ((-1, 0), 3)):
        assert losing_attack(state, "soldier", h, 1 + bonus) == 1 + bonus
    # The archer (2 dice) shoots from the SE: a flank of the E front.
    assert losing_attack(state, "archer", (0, 3), 2 + 1) == 2 + 1
    assert state.front == {state.gmap.board.index[(0, 0)]: 0}


def test_feint_sets_front():
    """T2: the first attack on a hex sets its front (per hex); fronts reset every turn."""
    sc = Scenario(make_map(), phase="battle")
    sc.development(0, "camp", (-4, 0))
    sc.unit(1, "cavalry", (0, 0))
    sc.unit(1, "cavalry", (2, 0))
    sc.unit(0, "soldier", (-1, 0))
    sc.unit(0, "soldier", (1, 0))
    sc.unit(0, "soldier", (3, 0))
    state = sc.build()
    # The feint from the W makes the E attack a rear attack.
    assert losing_attack(state, "soldier", (-1, 0), 1) == 1
    assert losing_attack(state, "soldier", (1, 0), 1 + 3) == 1 + 3
    # (2,0) has its own front: its first attack, from the E, gets nothing.
    assert losing_attack(state, "soldier", (3, 0), 1, target=(2, 0)) == 1
    act(state, "end turn")
    act(state, "end turn")
    assert state.turn_player == 0 and state.phase == BATTLE and state.front == {}
    # A new turn: the E attack is now the first on (0,0) and sets a fresh front.
    assert losing_attack(state, "soldier", (1, 0), 1) == 1


def test_attrition_third_attack():
    """T3: the third (and any later) attack on a hex from one direction in a turn adds 2 dice."""
    sc = Scenario(make_map(), phase="battle")
    sc.development(0, "camp", (-4, 0))
    sc.unit(1, "cavalry", (0, 0))
    for _ in range(3):
        sc.unit(0, "soldier", (1, 0))
    sc.unit(0, "archer", (3, 0))                        # same E direction, range 3
    sc.unit(0, "soldier", (-1, 0))
    state = sc.build()
    assert losing_attack(state, "soldier", (1, 0), 1) == 1
    assert losing_attack(state, "soldier", (1, 0), 1) == 1
    assert losing_attack(state, "soldier", (1, 0), 1 + 2) == 1 + 2
    assert losing_attack(state, "archer", (3, 0), 2 + 2) == 2 + 2      # the fourth: still +2
    # The W soldier's first attack from its side: the rear (+3) but no attrition.
    assert losing_attack(state, "soldier", (-1, 0), 1 + 3) == 1 + 3


def ring_scenario(p1_units, camp=True, open_side=False):
    """Player 1's units on (0,0); player 0 holds five neighbours and closes the ring by moving
    a soldier from (0,2) to (0,1)."""
    sc = Scenario(make_map(), phase="battle")
    if camp:
        sc.development(0, "camp", (-4, 0))
    vs = [sc.unit(1, k, (0, 0)) for k in p1_units]
    ring = ((1, 0), (1, -1), (0, -1), (-1, 0)) + (() if open_side else ((-1, 1),))
    for h in ring:
        sc.unit(0, "soldier", h)
    sc.unit(0, "soldier", (0, 2))
    return sc.build(), vs


def test_surrounded_units_surrender():
    """T4: units surrounded on every land and sea side, unable to move anywhere, surrender and
    are all captured (O3: they count as defeated); ships surrender by sinking."""
    state, vs = ring_scenario(["soldier", "archer"])
    act(state, "activate soldier", (0, 2))
    act(state, "move", (0, 1))
    assert all(state.u_where[v] == PRISONER and at(state, v) == (-4, 0) for v in vs)
    assert all(state.u_holder[v] == 0 for v in vs)
    assert state.tokens == [1 + 2, 0]
    assert any(e["event"] == "surrender" for e in state.events)
    assert battles(state) == []                          # no dice were rolled

    # His own full hex blocks the way out when nothing lies beyond it (mountains here).
    sc = Scenario(make_map(mountains=[(2, 0), (2, -1), (1, 1), (0, -1), (-1, 0)]),
                  phase="battle")
    sc.development(0, "camp", (-4, 0))
    t = sc.unit(1, "soldier", (0, 0))
    full = [sc.unit(1, "soldier", (1, 0)) for _ in range(3)]
    sc.unit(0, "soldier", (1, -1))
    sc.unit(0, "soldier", (-1, 1))
    sc.unit(0, "soldier", (0, 2))
    state = sc.build()
    act(state, "activate soldier", (0, 2))
    act(state, "move", (0, 1))
    assert state.u_where[t] == PRISONER
    # The full hex's soldiers could still step onto (0,0): they do not surrender.
    assert all(state.u_where[u] == ON_BOARD for u in full)

    # A ship in a landlocked lake, ringed by his enemy: sunk.
    sc = Scenario(make_map(sea=[(0, 0)]), phase="battle")
    c = sc.unit(1, "caravel", (0, 0))
    for h in ((1, 0), (1, -1), (0, -1), (-1, 0), (-1, 1)):
        sc.unit(0, "soldier", h)
    sc.unit(0, "soldier", (0, 2))
    state = sc.build()
    act(state, "activate soldier", (0, 2))
    act(state, "move", (0, 1))
    assert state.u_where[c] == GONE and state.sunk == [1, 0] and state.tokens == [1, 0]


def test_units_with_escape_do_not_surrender():
    """T4: units with a free neighbour, or a way out through their own full hex, do not
    surrender."""
    state, vs = ring_scenario(["soldier"], open_side=True)   # (-1,1) stays empty
    act(state, "activate soldier", (0, 2))
    act(state, "move", (0, 1))
    assert state.u_where[vs[0]] == ON_BOARD
    assert not any(e["event"] == "surrender" for e in state.events)

    # (1,0) is his own full hex, but the hexes beyond it are free: he can pass through.
    sc = Scenario(make_map(), phase="battle")
    sc.development(0, "camp", (-4, 0))
    t = sc.unit(1, "soldier", (0, 0))
    for _ in range(3):
        sc.unit(1, "soldier", (1, 0))
    for h in ((1, -1), (0, -1), (-1, 0), (-1, 1)):
        sc.unit(0, "soldier", h)
    sc.unit(0, "soldier", (-1, 2))
    state = sc.build()
    act(state, "activate soldier", (-1, 2))
    act(state, "move", (0, 1))
    assert state.u_where[t] == ON_BOARD and at(state, t) == (0, 0)
    assert not any(e["event"] == "surrender" for e in state.events)


def test_overwhelm_at_six_dice():
    """T5: with 6 or more attack dice the defender surrenders before the battle: no roll."""
    sc = Scenario(make_map(), phase="battle")
    sc.development(0, "camp", (-4, 0))
    v = sc.unit(1, "cavalry", (0, 0))
    sc.unit(0, "soldier", (1, 0))
    sc.unit(0, "archer", (-2, 0))
    c = sc.unit(0, "cavalry", (-1, 0))
    state = sc.build()
    assert losing_attack(state, "soldier", (1, 0), 1) == 1       # front E
    # The archer from the rear: 2 + 3 = 5 dice, still a roll (a miss here).
    assert losing_attack(state, "archer", (-2, 0), 5) == 5
    assert state.u_where[v] == ON_BOARD
    # The cavalry from the rear: 3 + 3 = 6 dice: overwhelmed.
    act(state, "activate cavalry", (-1, 0))
    state.forced_dice[:] = [1, 1, 1, 1, 1, 1, 6, 6, 6]
    act(state, "attack", (0, 0))
    b = battles(state)[-1]
    assert b["dice"] == 6 and b.get("overwhelm") and b["won"] and "rolls" not in b
    assert state.forced_dice == [1, 1, 1, 1, 1, 1, 6, 6, 6]      # nothing rolled
    assert state.u_where[v] == PRISONER and state.tokens == [3, 0]
    assert hexes(state, "occupy") == {(0, 0)}
    act(state, "occupy", (0, 0))
    assert at(state, c) == (0, 0)


def test_battle_move_side_is_the_movers_choice():
    """U17/T1/T2 Feint: "The 'front' of a hex is determined by the direction of the first
    attack": a battle move that could enter the enemy hex from several sides asks its player
    which; the side sets the front or earns the flanking dice (here the rear: 3 + 3 = 6, an
    overwhelm; the rear flank: 5 dice and a roll)."""
    def setup():
        sc = Scenario(make_map(), phase="battle")
        sc.development(0, "camp", (-4, 1))
        v = sc.unit(1, "cavalry", (0, 0))
        sc.unit(0, "soldier", (1, 0))
        c = sc.unit(0, "cavalry", (-3, 0))
        state = sc.build()
        assert losing_attack(state, "soldier", (1, 0), 1) == 1       # front E
        act(state, "activate cavalry", (-3, 0))
        act(state, "move", (0, 0))
        return state, v, c

    state, v, c = setup()
    assert state.pending is not None and state.current_player == 0
    assert verbs(state) == {"attack from"}
    sides = hexes(state, "attack from")
    assert {(-1, 0), (-1, 1), (0, -1)} <= sides        # reachable with a movement point to spare
    assert (1, 0) not in sides                          # 4 steps round: no point left to attack
    refused(state, "attack from", (2, 0))               # not next to the target
    state.forced_dice[:] = [1, 1, 1, 6, 6, 6]
    act(state, "attack from", (-1, 0))                  # the rear
    b = battles(state)[-1]
    assert b["dice"] == 6 and b.get("overwhelm")
    assert state.u_where[v] == PRISONER and at(state, c) == (0, 0)

    state, v, c = setup()
    state.forced_dice[:] = [1, 1, 1, 1, 1, 6, 6, 6]
    act(state, "attack from", (-1, 1))                  # SW: a rear flank of the E front
    b = battles(state)[-1]
    assert b["dice"] == 5 and not b["won"] and at(state, c) == (-3, 0)

    # On a hex not attacked yet, the side chosen becomes its front.
    sc = Scenario(make_map(), phase="battle")
    sc.development(0, "camp", (-4, 1))
    sc.unit(1, "soldier", (0, 0))
    sc.unit(0, "cavalry", (-3, 0))
    state = sc.build()
    act(state, "activate cavalry", (-3, 0))
    act(state, "move", (0, 0))
    state.forced_dice[:] = [1, 1, 1, 6]
    act(state, "attack from", (0, -1))                  # NW
    assert state.front == {hx(state, (0, 0)): 2}
