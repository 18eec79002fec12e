"""Scenario tests for rules v2: the choices the v2 engine hands to the players.

Rows V1, V2, F1, F6, F9, U25, R7, T6 and O10 of docs/rules.md, and the version checks (saved
states, shipped models) that come with the new action space. Every choice is checked three
ways: it is asked of the right player, it applies as chosen, and it is not asked when there is
no real choice (alike units, a single option).
"""

from __future__ import annotations

import random
from pathlib import Path

import pytest
from conftest import at, battles, hexes, hx, make_map, refused, verbs

from vigtavl_env.engine import actions as A
from vigtavl_env.engine.config import RulesConfig
from vigtavl_env.engine.game import apply_action, legal_actions, new_game
from vigtavl_env.engine.legal import variant_options
from vigtavl_env.engine.maps import load_map
from vigtavl_env.engine.scenario import Scenario, act
from vigtavl_env.engine.serialize import from_dict, from_json, to_dict, to_json
from vigtavl_env.engine.state import (
    BREACHED, CHOOSE_DEFENDER, CHOOSE_GUARD, CHOOSE_PRISON, CHOOSE_RESCUE_SPOT, CHOOSE_SEIZER, CHOOSE_VARIANT,
    GONE, LOADED, ON_BOARD, PLACEMENT, PRISONER, RESERVE, SPENT,
)
from vigtavl_env.engine.stats import FREIGHTER, FREIGHTER_SPLITS, SOLDIER
from vigtavl_env.engine.tokens import TOKEN_SOURCES, token_sheet


def variant(k: int) -> str:
    """The global verb "choose variant k" as ``act`` names it."""
    return A.GLOBAL_NAMES[A.VARIANT + k]


def asked_variant(state, player: int, n: int) -> list[list[int]]:
    """A CHOOSE_VARIANT is pending for ``player`` with ``n`` classes: exactly those globals are
    legal (and nothing else). Returns the classes, in the order of the "choose variant" verbs."""
    assert state.pending is not None and state.pending.kind == CHOOSE_VARIANT
    assert state.current_player == player and state.pending.player == player
    assert verbs(state) == {variant(k) for k in range(n)}
    classes = variant_options(state)
    assert len(classes) == n
    return classes


def spend(state, u: int) -> None:
    """Lay unit ``u`` on its side: it has completed its actions this turn."""
    state.u_flags[u] |= SPENT
    state.touch()  # a table written by hand: recorded, as the engine's own writers do


def decline_retaliation(state, loser: int) -> None:
    assert state.retaliator == loser and state.current_player == loser
    act(state, "end turn")


def sheet_total(sheet: dict[str, int]) -> int:
    return sum(sheet.values())


# ----------------------------------------------------------------------------- V1: discharge
def discharge_position(spent_first: bool = True, spent: bool = True):
    """Player 0: two soldiers at (0,0) next to his camp at (0,1); the lower-numbered one spent
    (so the canonical order, upright first, differs from unit order)."""
    sc = Scenario(make_map(), phase="battle")
    sc.development(0, "camp", (0, 1))
    a = sc.unit(0, "soldier", (0, 0))
    b = sc.unit(0, "soldier", (0, 0))
    state = sc.build()
    if spent:
        spend(state, a if spent_first else b)
    return state, a, b


def test_discharge_asks_which_of_unalike_soldiers():
    """V1: "Once per turn a player may discharge any land unit": *any* unit, so when an upright
    and a spent soldier share the hex, which one goes is the player's choice (choose variant
    0 = upright, 1 = spent); the other one stays."""
    state, spent_one, upright = discharge_position()
    act(state, "discharge soldier", (0, 0))
    classes = asked_variant(state, 0, 2)
    assert classes == [[upright], [spent_one]]          # upright first, whatever the numbers
    assert state.pending.extra == A.DISCHARGE and state.pending.cell == hx(state, (0, 0))
    assert state.u_where[spent_one] == ON_BOARD and not state.discharged   # nothing happened yet
    act(state, variant(1))
    assert state.u_where[spent_one] == GONE
    assert state.u_where[upright] == ON_BOARD and at(state, upright) == (0, 0)
    assert state.discharged and state.recruit_type == SOLDIER and verbs(state) == {"recruit"}

    # Choosing the upright class removes the upright one.
    state, spent_one, upright = discharge_position()
    act(state, "discharge soldier", (0, 0))
    act(state, variant(0))
    assert state.u_where[upright] == GONE and state.u_where[spent_one] == ON_BOARD


def test_discharge_of_alike_soldiers_asks_nothing():
    """V1: units of one type on one hex that are alike (both upright) are one choice: nobody is
    asked, and the lowest-numbered goes."""
    state, a, b = discharge_position(spent=False)
    act(state, "discharge soldier", (0, 0))
    assert state.pending is None
    assert state.u_where[a] == GONE and state.u_where[b] == ON_BOARD
    assert verbs(state) == {"recruit"}
    # Both spent: alike again.
    state, a, b = discharge_position()
    spend(state, b)
    act(state, "discharge soldier", (0, 0))
    assert state.pending is None and state.u_where[a] == GONE and state.u_where[b] == ON_BOARD


# ----------------------------------------------------------------------------- V1: defend
def defend_position(spent_defender: bool = True):
    """Player 0's cavalry at (0,0) attacks (1,0), where player 1 has two soldiers, the
    lower-numbered one spent (laid on its side by a retaliation, say)."""
    sc = Scenario(make_map(), phase="battle")
    sc.development(0, "camp", (-4, 0))
    sc.development(1, "camp", (4, 0))
    cav = sc.unit(0, "cavalry", (0, 0))
    s1 = sc.unit(1, "soldier", (1, 0))
    s2 = sc.unit(1, "soldier", (1, 0))
    state = sc.build()
    if spent_defender:
        spend(state, s1)
    act(state, "activate cavalry", (0, 0))
    return state, cav, s1, s2


def test_defender_chooses_which_unalike_soldier_defends():
    """V1 (with U22): the defending player chooses the defender; of an upright and a spent
    soldier on the attacked hex, which one defends is his choice too (asked of him out of turn,
    after "choose soldier"). The chosen one fights and is the one captured."""
    state, cav, spent_one, upright = defend_position()
    state.forced_dice[:] = [6, 1, 1, 1]             # cavalry 3 dice, soldier 1: the attack wins
    act(state, "attack", (1, 0))
    assert state.pending.kind == CHOOSE_DEFENDER and state.current_player == 1 and state.turn_player == 0
    assert verbs(state) == {"choose soldier"} and hexes(state, "choose soldier") == {(1, 0)}
    act(state, "choose soldier", (1, 0))
    classes = asked_variant(state, 1, 2)
    assert classes == [[upright], [spent_one]]
    assert state.pending.parent is not None and state.pending.parent.kind == CHOOSE_DEFENDER
    assert state.forced_dice == [6, 1, 1, 1]        # no battle yet
    act(state, variant(1))
    b = battles(state)[-1]
    assert b["defender"] == spent_one and b["won"] and state.forced_dice == []
    assert state.u_where[spent_one] == PRISONER and state.u_holder[spent_one] == 0
    assert state.u_where[upright] == ON_BOARD and at(state, upright) == (1, 0)
    assert state.tokens == [1, 0] and state.current_player == 0


def test_alike_defenders_are_not_asked():
    """V1: two upright soldiers on the attacked hex are alike: no question at all, the battle is
    fought at once against the lowest-numbered."""
    state, cav, s1, s2 = defend_position(spent_defender=False)
    state.forced_dice[:] = [6, 1, 1, 1]
    act(state, "attack", (1, 0))
    assert state.pending is None and state.current_player == 0
    assert battles(state)[-1]["defender"] == s1
    assert state.u_where[s1] == PRISONER and state.u_where[s2] == ON_BOARD


# ----------------------------------------------------------------------------- V1: seize, breach
def seize_position(spent: bool = True):
    """Player 0's two soldiers at (1,0), the lower-numbered one spent, next to player 1's camp
    at (0,0)."""
    sc = Scenario(make_map(), phase="battle")
    sc.development(1, "camp", (0, 0))
    sc.development(1, "camp", (-4, 0))
    a = sc.unit(0, "soldier", (1, 0))
    b = sc.unit(0, "soldier", (1, 0))
    state = sc.build()
    if spent:
        spend(state, a)
    return state, a, b


@pytest.mark.parametrize("k", [0, 1])
def test_seizer_is_the_players_choice_among_unalike(k):
    """V1 (with F5): "The seizing player chooses which of his units seizes": of an upright and a
    spent soldier, the one chosen seizes (it is the one that may then occupy the hex)."""
    state, spent_one, upright = seize_position()
    act(state, "seize", (0, 0))
    assert state.pending.kind == CHOOSE_SEIZER and state.current_player == 0
    assert verbs(state) == {"choose soldier"} and hexes(state, "choose soldier") == {(1, 0)}
    act(state, "choose soldier", (1, 0))
    classes = asked_variant(state, 0, 2)
    assert classes == [[upright], [spent_one]]
    assert state.dev_owner[hx(state, (0, 0))] == 1       # not seized yet
    act(state, variant(k))
    chosen = (upright, spent_one)[k]
    assert state.dev_owner[hx(state, (0, 0))] == 0 and state.tokens == [1, 0]
    assert state.occupy_unit == chosen and state.occupy_cell == hx(state, (0, 0))


def test_alike_seizers_are_not_asked():
    """V1: two upright soldiers are one choice: the seizure happens at once, the lowest-numbered
    seizing."""
    state, a, b = seize_position(spent=False)
    act(state, "seize", (0, 0))
    assert state.pending is None and state.retaliator == 1      # seized at once, retaliation next
    assert state.dev_owner[hx(state, (0, 0))] == 0 and state.occupy_unit == a


def breach_position():
    """Player 0's two upright soldiers at (0,0) next to player 1's wall on its east edge (towards
    player 1's camp at (1,0)); one of them is then activated."""
    sc = Scenario(make_map(), phase="battle")
    sc.development(1, "camp", (1, 0))
    sc.wall(1, (1, 0), "W")
    a = sc.unit(0, "soldier", (0, 0))
    b = sc.unit(0, "soldier", (0, 0))
    state = sc.build()
    return state, a, b


@pytest.mark.parametrize("k", [0, 1])
def test_breacher_is_the_players_choice_active_or_upright(k):
    """V1 (with WL4): which unit breaches is the player's choice: a unit that "has not exhausted
    its actions" may, the active one (in an activation) or an upright one; they differ, so he is
    asked which (0 = upright, 1 = in an activation). The chosen one rolls and is marked."""
    state, a, b = breach_position()
    act(state, "activate soldier", (0, 0))         # alike: the lowest-numbered, unit a
    assert state.pending is None and state.active.unit == a
    d = 0                                          # east of (0,0): the wall's edge
    assert state.walls[state.gmap.board.edge[hx(state, (0, 0))][d]] == 1
    assert (0, 0) in hexes(state, f"breach wall {d}")
    act(state, f"breach wall {d}", (0, 0))
    assert state.pending.kind != CHOOSE_VARIANT and verbs(state) == {"choose soldier"}
    act(state, "choose soldier", (0, 0))
    classes = asked_variant(state, 0, 2)
    assert classes == [[b], [a]]                   # upright first, then the one acting
    state.forced_dice[:] = [2]                     # a soldier rolls 1 die: 1-3 breaches
    act(state, variant(k))
    chosen, other = ((b, a), (a, b))[k]
    e = [x for x in state.events if x["event"] == "breach"][-1]
    assert e["unit"] == chosen and e["success"] and state.forced_dice == []
    assert state.u_flags[chosen] & BREACHED and not state.u_flags[other] & BREACHED
    assert state.walls[state.gmap.board.edge[hx(state, (0, 0))][d]] == -1


def test_alike_breachers_are_not_asked():
    """V1: two upright soldiers (no unit active) are alike: the lowest-numbered breaches unasked."""
    state, a, b = breach_position()
    state.forced_dice[:] = [5]                     # 4-6 fails: the wall stands
    act(state, "breach wall 0", (0, 0))
    assert state.pending is None and state.forced_dice == []
    e = [x for x in state.events if x["event"] == "breach"][-1]
    assert e["unit"] == a and not e["success"]
    assert state.u_flags[a] & BREACHED and not state.u_flags[b] & BREACHED
    assert state.walls[state.gmap.board.edge[hx(state, (0, 0))][0]] == 1


# ----------------------------------------------------------------------------- V1: freighters
def freighter_position(cargo_a=("soldier",), cargo_b=("archer",), phase="battle", knight=("cavalry", (0, 0))):
    """Two freighters of player 0 on the sea hex (1,0) (a lake), with the cargo given; a knight
    of his on land next to it, and his camp at (0,1) next to both."""
    sc = Scenario(make_map(sea=[(1, 0)]), phase=phase)
    sc.development(0, "camp", (0, 1))
    fa = sc.unit(0, "freighter", (1, 0))
    fb = sc.unit(0, "freighter", (1, 0))
    loads = {fa: [sc.unit(0, k, None, aboard=fa) for k in cargo_a],
             fb: [sc.unit(0, k, None, aboard=fb) for k in cargo_b]}
    kn = sc.unit(0, knight[0], knight[1]) if knight else -1
    return sc.build(), fa, fb, kn, loads


@pytest.mark.parametrize("k", [0, 1])
def test_knight_moving_to_sea_chooses_its_freighter(k):
    """V1: "a knight aboard a freighter rides with that freighter's cargo": two freighters that
    carry different cargo differ, so the knight stepping onto their hex asks which it boards
    (the soldier's freighter sorts first); it ends aboard the chosen one."""
    state, fa, fb, cav, _ = freighter_position()
    act(state, "activate cavalry", (0, 0))
    act(state, "move", (1, 0))
    classes = asked_variant(state, 0, 2)
    assert classes == [[fa], [fb]]
    assert state.u_where[cav] == ON_BOARD and at(state, cav) == (0, 0)  # not moved yet
    act(state, variant(k))
    chosen, other = ((fa, fb), (fb, fa))[k]
    assert state.u_where[cav] == LOADED and state.u_carrier[cav] == chosen
    assert cav in state.cargo(chosen) and cav not in state.cargo(other)


def test_knight_boarding_alike_freighters_is_not_asked():
    """V1: freighters with the same cargo (here both empty) are alike: no question, the knight
    boards the lowest-numbered."""
    state, fa, fb, cav, _ = freighter_position(cargo_a=(), cargo_b=())
    act(state, "activate cavalry", (0, 0))
    act(state, "move", (1, 0))
    assert state.pending is None
    assert state.u_where[cav] == LOADED and state.u_carrier[cav] == fa


@pytest.mark.parametrize("k", [0, 1])
def test_knight_built_at_sea_chooses_its_freighter(k):
    """V1: a knight built onto a sea hex goes aboard one of the player's freighters there; which,
    when they carry different cargo, is his choice. Paid once, built once."""
    state, fa, fb, _, _ = freighter_position(phase="build", knight=None)
    assert (1, 0) in hexes(state, "build soldier")
    n = state.n_units
    act(state, "build soldier", (1, 0))
    assert asked_variant(state, 0, 2) == [[fa], [fb]]
    assert state.gold[0] == 6 and state.n_units == n
    act(state, variant(k))
    chosen = (fa, fb)[k]
    assert state.n_units == n + 1 and state.gold[0] == 5 and state.built_units == 1
    new = n
    assert state.u_type[new] == SOLDIER and state.u_where[new] == LOADED and state.u_carrier[new] == chosen


def test_knight_built_onto_alike_freighters_is_not_asked():
    """V1: freighters carrying the same cargo are alike: the knight built at sea boards the
    lowest-numbered unasked."""
    state, fa, fb, _, _ = freighter_position(cargo_a=("archer",), cargo_b=("archer",), phase="build", knight=None)
    n = state.n_units
    act(state, "build soldier", (1, 0))
    assert state.pending is None and state.u_carrier[n] == fa and state.gold[0] == 5


@pytest.mark.parametrize("k", [0, 1])
def test_recruit_at_sea_chooses_its_freighter(k):
    """V1: the recruit after a discharge, placed on a sea hex, goes aboard the freighter the
    player chooses when his freighters there differ."""
    state, fa, fb, sol, _ = freighter_position(knight=("soldier", (0, 0)))
    act(state, "discharge soldier", (0, 0))
    assert state.pending is None and state.u_where[sol] == GONE
    assert (1, 0) in hexes(state, "recruit")
    n = state.n_units
    act(state, "recruit", (1, 0))
    assert asked_variant(state, 0, 2) == [[fa], [fb]]
    assert state.recruit_type == SOLDIER
    act(state, variant(k))
    assert state.u_where[n] == LOADED and state.u_carrier[n] == (fa, fb)[k] and state.recruit_type == -1


@pytest.mark.parametrize("k", [0, 1])
def test_activating_a_loaded_soldier_chooses_by_its_freighter(k):
    """V1: two soldiers aboard two freighters on one hex, the freighters carrying different other
    cargo (an archer, a cavalry): the soldiers differ by what they ride with, so activating "the
    soldier" there asks which."""
    state, fa, fb, _, loads = freighter_position(cargo_a=("soldier", "archer"), cargo_b=("soldier", "cavalry"),
                                                 knight=None)
    sa, sb = loads[fa][0], loads[fb][0]
    act(state, "activate soldier", (1, 0))
    assert asked_variant(state, 0, 2) == [[sa], [sb]]
    assert state.silver[0] == 6 and state.active is None
    act(state, variant(k))
    chosen, other = ((sa, sb), (sb, sa))[k]
    assert state.active.unit == chosen and state.silver[0] == 5
    assert state.u_flags[chosen] & SPENT and not state.u_flags[other] & SPENT


def test_activating_alike_loaded_soldiers_is_not_asked():
    """V1: soldiers aboard freighters with the same cargo are alike: the lowest-numbered acts."""
    state, fa, fb, _, loads = freighter_position(cargo_a=("soldier", "archer"), cargo_b=("soldier", "archer"),
                                                 knight=None)
    act(state, "activate soldier", (1, 0))
    assert state.pending is None and state.active.unit == loads[fa][0]


# ----------------------------------------------------------------------------- V2: setup
@pytest.mark.parametrize("k", [0, 1])
def test_setup_placement_chooses_which_freighter(k):
    """V2: "Each player must load his 2 freighters with 3 land units each"; once loaded
    differently, the freighters differ, and "places one of any of his ships": which freighter
    goes first is his choice. The placed freighter carries the chosen load; the second
    freighter, alone of its kind, is placed without a question, and so are the alike caravels."""
    split_index = next(i for i, s in enumerate(FREIGHTER_SPLITS) if sorted(s[0]) != sorted(s[1]))
    state = new_game(load_map("duel"), RulesConfig(), seed=5)
    assert state.phase == PLACEMENT and state.to_load == [0, 1]
    for p in (0, 1):
        assert state.current_player == p
        act(state, A.GLOBAL_NAMES[A.LOAD + split_index])
    assert state.current_player == 0
    spot = sorted(hexes(state, "place freighter"))[0]
    act(state, "place freighter", spot)
    classes = asked_variant(state, 0, 2)
    loads = [sorted(state.u_type[v] for v in state.cargo(c[0])) for c in classes]
    assert loads[0] != loads[1]
    assert sorted(loads) == sorted(sorted(x) for x in FREIGHTER_SPLITS[split_index])
    mine = [u for u in range(state.n_units) if state.u_owner[u] == 0 and state.u_type[u] == FREIGHTER]
    assert all(state.u_where[u] == RESERVE for u in mine)
    act(state, variant(k))
    chosen = classes[k][0]
    assert state.u_where[chosen] == ON_BOARD and at(state, chosen) == spot
    assert sorted(state.u_type[v] for v in state.cargo(chosen)) == loads[k]
    assert all(state.u_cell[v] == hx(state, spot) for v in state.cargo(chosen))
    assert [u for u in mine if state.u_where[u] == RESERVE] == [u for u in mine if u != chosen]
    # Player 1: caravels are alike, no question.
    assert state.current_player == 1
    act(state, "place caravel", sorted(hexes(state, "place caravel"))[0])
    assert state.pending is None and state.current_player == 0
    # Player 0's last freighter: one left, no question.
    other = next(u for u in mine if u != chosen)
    spot2 = sorted(hexes(state, "place freighter"))[-1]
    act(state, "place freighter", spot2)
    assert state.pending is None and state.u_where[other] == ON_BOARD and at(state, other) == spot2


# ----------------------------------------------------------------------------- F1: cross-coast
def coast_position(guard: str):
    """Player 0's soldier at (0,0) may attack player 1's archer at (1,0) on the coast of the
    sea hex (1,-1), which is next to both; player 1's ``guard`` ship is there."""
    sc = Scenario(make_map(sea=[(1, -1)]), phase="battle")
    sc.development(0, "camp", (-4, 0))
    sc.development(1, "camp", (4, 0))
    sc.unit(0, "soldier", (0, 0))
    arc = sc.unit(1, "archer", (1, 0))
    ship = sc.unit(1, guard, (1, -1))
    state = sc.build()
    act(state, "activate soldier", (0, 0))
    return state, arc, ship


def test_caravel_defends_coastal_archer():
    """F1: "Weaker units may defend stronger units ... if they are located on a hex adjacent to
    both the attacker and the unit they are defending": a caravel (cost 1) on the sea hex next to
    both may defend the coastal archer (cost 2) across the coast; it fights and is sunk."""
    state, arc, car = coast_position("caravel")
    act(state, "attack", (1, 0))
    assert state.pending.kind == CHOOSE_DEFENDER and state.current_player == 1
    assert hexes(state, "choose caravel") == {(1, -1)} and hexes(state, "choose archer") == {(1, 0)}
    assert verbs(state) == {"choose caravel", "choose archer"}
    state.forced_dice[:] = [6, 1]                    # soldier 1 die, caravel 1 die
    act(state, "choose caravel", (1, -1))
    b = battles(state)[-1]
    assert b["defender"] == car and b["won"] and b["at"] == hx(state, (1, -1))
    assert state.u_where[car] == GONE and state.sunk == [1, 0] and state.tokens == [1, 0]
    assert state.u_where[arc] == ON_BOARD and at(state, arc) == (1, 0)


def test_freighter_is_not_offered_as_coastal_defender():
    """F1: freighters "can not ... defend other ships or coastal buildings": a freighter next to
    both is not offered, so the archer is the only defender and nobody is asked."""
    state, arc, fr = coast_position("freighter")
    state.forced_dice[:] = [1, 6, 1]                 # soldier [1] against archer [6, 1]: lost
    act(state, "attack", (1, 0))
    assert state.pending is None and state.current_player == 0
    b = battles(state)[-1]
    assert b["defender"] == arc and not b["won"]
    assert state.u_where[fr] == ON_BOARD and state.u_where[arc] == ON_BOARD


# ----------------------------------------------------------------------------- F6: defended seizure
def guarded_camp():
    """Player 1's camp at (0,0) (not his last) with his soldier at (1,-1), next to both the camp
    and player 0's soldier at (1,0); player 0 has a second soldier at (-1,1), next to the camp
    but not to the guard."""
    sc = Scenario(make_map(), phase="battle")
    sc.development(1, "camp", (0, 0))
    sc.development(1, "camp", (-4, 2))
    sc.development(0, "camp", (4, -2))
    seizer = sc.unit(0, "soldier", (1, 0))
    other = sc.unit(0, "soldier", (-1, 1))
    guard = sc.unit(1, "soldier", (1, -1))
    return sc.build(), seizer, other, guard


def seize_from_east(state) -> None:
    """Declare the seizure of (0,0) and pick the soldier at (1,0) (two seizers on two hexes: the
    player is asked which); the guard's owner is asked next."""
    act(state, "seize", (0, 0))
    assert state.pending.kind == CHOOSE_SEIZER and state.current_player == 0
    assert hexes(state, "choose soldier") == {(1, 0), (-1, 1)}
    act(state, "choose soldier", (1, 0))


def test_defended_seizure_stops_until_the_defender_falls():
    """F6: "If the development is defended, the attacking player must first defeat all
    defenders" (v2): defending rolls no dice; the piece stays the owner's and cannot be seized,
    from any of the seizer's units, while its defender stands next to it; once the defender is
    beaten by an attack, the seizure is open again."""
    state, seizer, other, guard = guarded_camp()
    camp = hx(state, (0, 0))
    assert (0, 0) in hexes(state, "seize")
    seize_from_east(state)
    assert state.pending.kind == CHOOSE_GUARD and state.current_player == 1
    assert verbs(state) == {"choose soldier", "no defence"} and hexes(state, "choose soldier") == {(1, -1)}
    state.forced_dice[:] = [6, 1]
    act(state, "choose soldier", (1, -1))
    assert state.forced_dice == [6, 1] and battles(state) == []     # no dice rolled
    assert state.dev_owner[camp] == 1 and state.tokens == [0, 0]
    assert state.defended == {camp: guard}
    assert state.pending is None and state.current_player == 0
    assert state.u_where[guard] == ON_BOARD and at(state, guard) == (1, -1)
    assert (0, 0) not in hexes(state, "seize")
    refused(state, "seize", (0, 0))
    # The other soldier, whom the guard is not next to, may not seize it either.
    assert state.gmap.board.dist[hx(state, (-1, 1))][hx(state, (1, -1))] == 2
    act(state, "activate soldier", (-1, 1))
    refused(state, "seize", (0, 0))
    act(state, "end activation")
    # Defeat the defender by an ordinary attack.
    act(state, "activate soldier", (1, 0))
    state.forced_dice[:] = [6, 1]
    act(state, "attack", (1, -1))
    assert battles(state)[-1]["defender"] == guard and state.u_where[guard] == PRISONER
    assert state.forced_dice == []
    assert (0, 0) in hexes(state, "seize")


def test_no_defence_lets_the_seizure_happen():
    """F6 with F1: the owner may let the development go ("no defence"): it is seized at once."""
    state, seizer, other, guard = guarded_camp()
    seize_from_east(state)
    state.forced_dice[:] = [6, 1]
    act(state, "no defence")
    assert state.dev_owner[hx(state, (0, 0))] == 0 and state.tokens == [1, 0]
    assert state.defended == {} and state.forced_dice == [6, 1]
    assert state.u_where[guard] == ON_BOARD


# ----------------------------------------------------------------------------- F9: rescue spot
def rescue_position(mountains, prisoners: int = 3):
    """Player 1's camp at (0,0) holds ``prisoners`` soldiers of player 0; player 0's soldier at
    (1,0) seizes it. The camp and two freed soldiers fill (0,0)."""
    sc = Scenario(make_map(mountains=mountains), phase="battle")
    sc.development(1, "camp", (0, 0))
    sc.development(1, "camp", (-4, 2))
    seizer = sc.unit(0, "soldier", (1, 0))
    held = [sc.prisoner(0, "soldier", 1, (0, 0)) for _ in range(prisoners)]
    return sc.build(), seizer, held


@pytest.mark.parametrize("spot", [(1, 0), (0, 1)])
def test_rescuer_chooses_where_the_overflow_stands(spot):
    """F9: freed prisoners "are immediately freed and can now take actions": they stand on the
    seized hex while it has room, else on the nearest hexes with room; among equally near ones
    (here (0,1) and the seizer's own hex (1,0)) where is the rescuer's choice."""
    state, seizer, held = rescue_position([(1, -1), (0, -1), (-1, 0), (-1, 1)])
    act(state, "seize", (0, 0))
    assert state.dev_owner[hx(state, (0, 0))] == 0
    assert state.tokens == [1 + 3, 0]
    first, second, third = held
    assert at(state, first) == (0, 0) and at(state, second) == (0, 0)
    assert state.u_where[first] == ON_BOARD and state.u_where[second] == ON_BOARD
    assert state.pending.kind == CHOOSE_RESCUE_SPOT and state.current_player == 0 and state.pending.player == 0
    assert state.pending.unit == third
    assert state.u_where[third] == PRISONER and state.u_holder[third] == -1     # free, standing nowhere
    assert verbs(state) == {"place rescued"} and hexes(state, "place rescued") == {(1, 0), (0, 1)}
    act(state, "place rescued", spot)
    assert state.u_where[third] == ON_BOARD and at(state, third) == spot and state.u_holder[third] == -1
    assert state.pending is None
    decline_retaliation(state, 1)                     # the seizure is over: player 1 may retaliate


def test_rescue_with_one_spot_asks_nothing():
    """F9: with one nearest hex with room (the seizer's) the freed unit stands there unasked."""
    state, seizer, held = rescue_position([(1, -1), (0, -1), (-1, 0), (-1, 1), (0, 1)])
    act(state, "seize", (0, 0))
    assert state.pending is None
    assert at(state, held[2]) == (1, 0) and state.u_where[held[2]] == ON_BOARD
    assert state.retaliator == 1                     # straight on to the retaliation


# ----------------------------------------------------------------------------- U25: prison
def prison_position(camps):
    """Player 0's soldier at (0,0) attacks player 1's soldier at (1,0); player 0's camps at
    ``camps``."""
    sc = Scenario(make_map(), phase="battle")
    for c in camps:
        sc.development(0, "camp", c)
    sc.unit(0, "soldier", (0, 0))
    victim = sc.unit(1, "soldier", (1, 0))
    state = sc.build()
    act(state, "activate soldier", (0, 0))
    state.forced_dice[:] = [6, 1]
    act(state, "attack", (1, 0))
    return state, victim


@pytest.mark.parametrize("choice", [(3, 0), (-1, 0)])
def test_victor_chooses_which_equally_near_prison(choice):
    """U25: "Place the piece on the victor's nearest developed hex"; with two equally near (both
    2 hexes from the battle), which one holds the prisoner is the victor's choice (v2)."""
    state, victim = prison_position([(3, 0), (-1, 0)])
    assert state.u_where[victim] == PRISONER and state.u_holder[victim] == 0
    assert state.pending.kind == CHOOSE_PRISON and state.pending.player == 0 and state.current_player == 0
    assert state.pending.unit == victim
    assert verbs(state) == {"hold prisoner"} and hexes(state, "hold prisoner") == {(3, 0), (-1, 0)}
    act(state, "hold prisoner", choice)
    assert state.pending is None
    assert at(state, victim) == choice and state.u_where[victim] == PRISONER and state.u_holder[victim] == 0


def test_one_nearest_prison_asks_nothing():
    """U25: with one nearest development the prisoner goes there unasked."""
    state, victim = prison_position([(3, 0), (-2, 0)])      # 2 and 3 hexes away
    assert state.pending is None and "hold prisoner" not in verbs(state)
    assert at(state, victim) == (3, 0) and state.u_where[victim] == PRISONER


# ----------------------------------------------------------------------------- R7: retaliation order
@pytest.mark.parametrize("order_option", ["turn_order", "losses"])
@pytest.mark.parametrize("active, first_loser, second_loser", [(0, 2, 1), (1, 0, 2)])
def test_retaliation_in_turn_order_after_the_active_player(active, first_loser, second_loser, order_option):
    """R7 (v2; the document is silent on the order): players owed a retaliation retaliate in turn
    order starting with the player after the active one, not in the order they lost (option
    ``retaliation_order="losses"``: in the order they lost). The active player's cavalry beats
    ``first_loser``'s soldier, then his soldier seizes ``second_loser``'s camp, in one
    activation."""
    sc = Scenario(make_map(3), phase="battle", turn_player=active,
                  config=RulesConfig(retaliation_order=order_option))
    sc.development(active, "camp", (-5, 0))
    sc.unit(active, "cavalry", (0, 0))
    victim = sc.unit(first_loser, "soldier", (1, 0))
    sc.development(second_loser, "camp", (0, 2))
    sc.development(second_loser, "camp", (5, -3))
    sc.unit(active, "soldier", (0, 3))
    sc.development(first_loser, "camp", (-3, 5))
    state = sc.build()
    act(state, "activate cavalry", (0, 0))
    state.forced_dice[:] = [6, 1, 1, 1]
    act(state, "attack", (1, 0))
    assert state.u_where[victim] == PRISONER
    act(state, "seize", (0, 2))
    assert state.dev_owner[hx(state, (0, 2))] == active
    assert state.stack and state.stack[0].losers == [first_loser, second_loser]
    act(state, "end activation")
    order = [(active + k) % 3 for k in (1, 2)] if order_option == "turn_order" else [first_loser, second_loser]
    assert state.retaliator == order[0] and state.current_player == order[0]
    assert state.silver[order[0]] == 1
    act(state, "end turn")
    assert state.retaliator == order[1] and state.current_player == order[1]
    act(state, "end turn")
    assert state.retaliator == -1 and state.current_player == active


# ----------------------------------------------------------------------------- T6: self-ring
def self_ring_position(num_players: int = 2, owner: int = 0, around=None, beyond: int = 1):
    """``owner``'s soldiers t and m at (0,0); his full hex (1,0) (3 soldiers) and (0,1) (2 soldiers)
    beside it; ``around`` maps the other hexes next to (0,0) to the opponent holding each (None:
    a mountain); ``beyond`` holds (0,2), past (0,1); everything else near is mountain. Moving m
    from (0,0) to (0,1) fills (0,1) and closes t's last way out. Each player has a camp."""
    around = around or {(1, -1): 1, (0, -1): 1, (-1, 0): 1}
    mountains = [(-1, 1), (2, 0), (2, -1), (1, 1), (-1, 2)] + [h for h, p in around.items() if p is None]
    sc = Scenario(make_map(num_players, mountains=mountains), phase="battle", turn_player=owner)
    t = sc.unit(owner, "soldier", (0, 0))
    m = sc.unit(owner, "soldier", (0, 0))
    full = [sc.unit(owner, "soldier", (1, 0)) for _ in range(3)]
    pair = [sc.unit(owner, "soldier", (0, 1)) for _ in range(2)]
    for h, p in around.items():
        if p is not None:
            sc.unit(p, "soldier", h)
    sc.unit(beyond, "soldier", (0, 2))
    for p in range(num_players):
        sc.development(p, "camp", CAMPS[p])
    return sc.build(), t, m, full, pair


CAMPS = {0: (-4, 0), 1: (-4, 4), 2: (4, -4)}


def move_the_second_soldier(state, t, m) -> None:
    """Activate m (t, the lower-numbered of the alike pair, first: activated and laid down) and
    move it from (0,0) onto (0,1)."""
    act(state, "activate soldier", (0, 0))
    assert state.active.unit == t                  # alike: the lowest-numbered
    act(state, "end activation")
    act(state, "activate soldier", (0, 0))         # now only m stands upright
    assert state.active.unit == m
    act(state, "move", (0, 1))
    assert at(state, m) == (0, 1) and state.u_where[m] == ON_BOARD


def test_self_ring_surrenders_to_the_ring_holder():
    """T6 (v2): "If a player is able to surround enemy units, and cut off all escape routes,
    then the defender must immediately surrender and all units are captured ... Thus it is
    possible for a player's own units to block escape routes": units whose last way out their
    own player closes surrender at once to the opponent around them holding the most adjacent
    hexes (Battle tokens to him; the prisoner to his nearest development)."""
    state, t, m, full, pair = self_ring_position()
    move_the_second_soldier(state, t, m)
    assert state.u_where[t] == PRISONER and state.u_holder[t] == 1
    assert at(state, t) == CAMPS[1]
    assert state.tokens == [0, 1] and token_sheet(state)[1]["battle"] == 1
    ev = [e for e in state.events if e["event"] == "surrender"]
    assert ev and ev[-1]["player"] == 1 and ev[-1]["units"] == [t]
    assert all(state.u_where[u] == ON_BOARD for u in full + pair + [m])
    assert battles(state) == []


def test_self_ring_goes_to_the_opponent_with_most_adjacent_hexes():
    """T6 (v2): with two opponents around, the one holding more of the adjacent hexes (player 2,
    two hexes, against player 1's one) takes the units, not the first in turn order."""
    state, t, m, full, pair = self_ring_position(3, around={(1, -1): 1, (0, -1): 2, (-1, 0): 2})
    move_the_second_soldier(state, t, m)
    assert state.u_where[t] == PRISONER and state.u_holder[t] == 2 and at(state, t) == CAMPS[2]
    assert state.tokens == [0, 0, 1]


def test_self_ring_tie_goes_first_in_turn_order_after_the_owner():
    """T6 (v2): opponents holding equally many adjacent hexes: the first in turn order after the
    ringed player takes the units (player 1 ringed, players 0 and 2 one hex each: player 2)."""
    state, t, m, full, pair = self_ring_position(3, owner=1, around={(1, -1): 0, (0, -1): 2, (-1, 0): None},
                                                 beyond=0)
    move_the_second_soldier(state, t, m)
    assert state.u_where[t] == PRISONER and state.u_holder[t] == 2
    assert state.tokens == [0, 0, 1]


def test_own_units_with_a_way_out_do_not_surrender():
    """T6: while (0,1) still has room nothing surrenders (an activation begun and ended)."""
    state, t, m, full, pair = self_ring_position()
    act(state, "activate soldier", (0, 0))
    act(state, "end activation")
    assert state.u_where[t] == ON_BOARD and not any(e["event"] == "surrender" for e in state.events)


POSITIONS = Path(__file__).resolve().parent / "positions"


def test_a_freighter_lost_while_its_knight_acts_ends_its_activation():
    """T6 (v2): a knight steps ashore from its active freighter (the freighter exception) and
    so leaves the freighter ringed: it surrenders at once (sinks), and its activation ends with
    the knight's, for it has nothing left to do. Before, the sunk freighter stayed active and was
    offered moves from nowhere (its hex -1 read as the board's last hex), back onto the board.
    The position: a random duel game (seed 1135) saved before the knight's move."""
    state = from_json((POSITIONS / "knight_leaves_its_freighter_to_surrender.json").read_text())
    freighter, knight = state.stack[0].unit, state.stack[1].unit
    assert state.u_type[freighter] == FREIGHTER and state.u_carrier[knight] == freighter
    act(state, "move", (-3, 2))
    assert state.u_where[freighter] == GONE and state.u_where[knight] == ON_BOARD
    assert [e["event"] for e in state.events[-2:]] == ["surrender", "sunk"]
    assert "move" not in verbs(state)  # the knight has moved; the freighter is gone
    act(state, "end activation")
    assert state.stack == [] and state.active is None
    assert [e["unit"] for e in state.events if e["event"] == "end_activation"] == [knight, freighter]
    assert "move" not in verbs(state) and state.u_where[freighter] == GONE


@pytest.mark.parametrize("map_name,seeds", [("duel", range(1100, 1200)), ("quad", range(600, 700))])
def test_no_unit_acts_once_it_is_off_the_board(map_name, seeds):
    """Property, over random games (these seeds met the case above twice): after every
    decision, the acting unit (the top of the activation stack) is on the board or aboard."""
    gm = load_map(map_name)
    for seed in seeds:
        state, rng = new_game(gm, seed=seed), random.Random(seed)
        state.record_events = False
        while not state.is_over:
            legal = legal_actions(state)
            apply_action(state, rng.choice(legal), legal)
            assert state.active is None or state.u_where[state.active.unit] in (ON_BOARD, LOADED), \
                (seed, state.decisions)

def test_self_ring_closed_two_hexes_away_surrenders():
    """T6 (v2): "an adjacent hex occupied by the same player's units at maximum occupancy is not
    eligible to move into, unless there are available hexes beyond the occupied hex ... Thus it is
    possible for a player's own units to block escape routes" and then they "must immediately
    surrender". Player 0's soldier t at (0,0) can leave only through his full hex (1,0) onto
    (2,0), past it; his soldier m leaves t's hex, walks through (1,0) and fills (2,0): t can no
    longer move anywhere and surrenders to player 1, who holds the other hexes around it."""
    mountains = [(-1, 1), (0, 1), (2, -1), (1, 1), (3, 0), (2, 1)]
    sc = Scenario(make_map(mountains=mountains), phase="battle")
    t = sc.unit(0, "soldier", (0, 0))
    m = sc.unit(0, "soldier", (0, 0))
    full = [sc.unit(0, "soldier", (1, 0)) for _ in range(3)]
    pair = [sc.unit(0, "soldier", (2, 0)) for _ in range(2)]
    for h in ((1, -1), (0, -1), (-1, 0), (3, -1)):
        sc.unit(1, "soldier", h)
    sc.development(0, "camp", CAMPS[0])
    sc.development(1, "camp", CAMPS[1])
    state = sc.build()
    act(state, "activate soldier", (0, 0))
    act(state, "end activation")
    act(state, "activate soldier", (0, 0))
    assert state.active.unit == m and (2, 0) in hexes(state, "move")
    act(state, "move", (2, 0))
    assert at(state, m) == (2, 0) and state.occ[hx(state, (2, 0))] == 3
    assert all(state.u_where[u] == ON_BOARD for u in full + pair + [m])
    assert state.u_where[t] == PRISONER and state.u_holder[t] == 1
    assert state.tokens == [0, 1]


def test_enemy_ring_closed_two_hexes_away_surrenders():
    """T4 (the same gap for an ordinary ring): player 1's soldier t at (0,0) can leave only
    through his full hex (1,0) onto (2,0); player 0 moves onto (2,0) and so "cut[s] off all
    escape routes": t "must immediately surrender" to him."""
    mountains = [(-1, 1), (0, 1), (2, -1), (1, 1), (3, 0), (2, 1)]
    sc = Scenario(make_map(mountains=mountains), phase="battle")
    t = sc.unit(1, "soldier", (0, 0))
    full = [sc.unit(1, "soldier", (1, 0)) for _ in range(3)]
    for h in ((1, -1), (0, -1), (-1, 0)):
        sc.unit(0, "soldier", h)
    mover = sc.unit(0, "soldier", (3, -1))
    sc.development(0, "camp", CAMPS[0])
    sc.development(1, "camp", CAMPS[1])
    state = sc.build()
    act(state, "activate soldier", (3, -1))
    assert state.active.unit == mover
    act(state, "move", (2, 0))
    assert at(state, mover) == (2, 0)
    assert all(state.u_where[u] == ON_BOARD for u in full)
    assert state.u_where[t] == PRISONER and state.u_holder[t] == 0
    assert state.tokens == [1, 0]


# ----------------------------------------------------------------------------- O10: score sheet
def test_token_sheet_names_each_source():
    """O10: the score sheet splits each player's victory tokens by source (conquer, battle,
    rescue ...); each sheet sums to his tokens."""
    sc = Scenario(make_map(), phase="battle")
    sc.development(1, "fort", (0, 0))
    sc.development(1, "camp", (-4, 2))
    sc.development(0, "camp", (4, -2))
    sc.prisoner(0, "cavalry", 1, (0, 0))
    sc.unit(0, "soldier", (1, 0))
    sc.unit(0, "soldier", (2, -2))
    victim = sc.unit(1, "archer", (3, -2))
    state = sc.build()
    act(state, "seize", (0, 0))                     # fort 2 + rescued cavalry 3
    decline_retaliation(state, 1)
    act(state, "activate soldier", (2, -2))
    state.forced_dice[:] = [6, 1, 1]
    act(state, "attack", (3, -2))                   # archer captured: 2
    assert state.u_where[victim] == PRISONER
    sheets = token_sheet(state)
    assert list(sheets[0]) == list(TOKEN_SOURCES)
    assert sheets[0] == {**{s: 0 for s in TOKEN_SOURCES}, "conquer": 2, "rescue": 3, "battle": 2}
    assert sheets[1] == {s: 0 for s in TOKEN_SOURCES}
    assert [sheet_total(s) for s in sheets] == state.tokens == [7, 0]


@pytest.mark.parametrize("seed", [1, 2])
def test_random_game_sheets_sum_to_tokens(seed):
    """O10: over a whole random game (end awards included) each sheet sums to the tokens."""
    state = new_game(load_map("duel"), RulesConfig(), seed=seed)
    rng = random.Random(seed)
    while not state.is_over:
        apply_action(state, rng.choice(legal_actions(state)))
        if rng.random() < 0.05:
            assert [sheet_total(s) for s in token_sheet(state)] == state.tokens
    sheets = token_sheet(state)
    assert [sheet_total(s) for s in sheets] == state.tokens and sum(state.tokens) > 0


# ----------------------------------------------------------------------------- version
def test_v1_state_is_refused_naming_both_versions():
    """Saved states of rules v1 are refused (other rules, other codes), the message naming
    vigtavl_v1 and vigtavl_v2."""
    state, *_ = discharge_position()
    data = to_dict(state)
    assert data["version"] == "vigtavl_v2"
    data["version"] = "vigtavl_v1"
    with pytest.raises(ValueError) as err:
        from_dict(data)
    msg = str(err.value)
    assert "vigtavl_v1" in msg and "vigtavl_v2" in msg and "\n" not in msg


def test_v1_model_is_refused_naming_both_versions():
    """The shipped v1 model cannot play v2: make_agent refuses it with a one-line ValueError
    naming vigtavl_v1 and vigtavl_v2."""
    pytest.importorskip("sb3_contrib")
    from agents.registry import make_agent

    with pytest.raises(ValueError) as err:
        make_agent("ppo:agents/pretrained/v1/vigtavl_ppo.zip")
    msg = str(err.value)
    assert "vigtavl_v1" in msg and "vigtavl_v2" in msg and "\n" not in msg.strip()


# ----------------------------------------------------------------------------- serialization
def round_trip(state):
    again = from_json(to_json(state))
    assert legal_actions(again) == legal_actions(state)
    assert to_json(again) == to_json(state)
    return again


def test_round_trip_mid_variant_choice_with_parent():
    """A CHOOSE_VARIANT pending with its parent (who defends: which soldier) survives a save."""
    state, cav, spent_one, upright = defend_position()
    act(state, "attack", (1, 0))
    act(state, "choose soldier", (1, 0))
    again = round_trip(state)
    assert again.pending.kind == CHOOSE_VARIANT and again.pending.parent.kind == CHOOSE_DEFENDER
    assert again.current_player == 1
    again.forced_dice[:] = [6, 1, 1, 1]
    act(again, variant(1))
    assert again.u_where[spent_one] == PRISONER and again.u_where[upright] == ON_BOARD


def test_round_trip_mid_rescue_with_asks_left():
    """Questions left for the end of a decision (``asks``) survive a save: two freed soldiers
    overflow, the first is being placed and the second is still to be asked."""
    state, seizer, held = rescue_position([(1, -1), (0, -1), (-1, 0), (-1, 1)], prisoners=4)
    act(state, "seize", (0, 0))
    assert state.pending.kind == CHOOSE_RESCUE_SPOT and state.pending.unit == held[2]
    assert state.asks == [[CHOOSE_RESCUE_SPOT, 0, held[3], hx(state, (0, 0))]]
    again = round_trip(state)
    assert again.asks == state.asks
    act(again, "place rescued", (0, 1))
    assert again.pending.kind == CHOOSE_RESCUE_SPOT and again.pending.unit == held[3]
    round_trip(again)
    act(again, "place rescued", (1, 0))
    assert at(again, held[2]) == (0, 1) and at(again, held[3]) == (1, 0)
    assert again.retaliator == 1


def test_round_trip_keeps_the_defended_piece():
    """The pieces defended this turn (``defended``) survive a save: the seizure stays refused."""
    state, seizer, other, guard = guarded_camp()
    seize_from_east(state)
    act(state, "choose soldier", (1, -1))
    again = round_trip(state)
    assert again.defended == {hx(state, (0, 0)): guard}
    assert (0, 0) not in hexes(again, "seize")
    refused(again, "seize", (0, 0))
