"""Thrones: scenario tests of the rules of play, one or more per row of docs/thrones-rules.md,
on the 7x7 board of games.thrones.scenario with forced coin flips."""

from __future__ import annotations

import pytest

from games.thrones.config import PIECE_NAMES
from games.thrones.scenario import legal_texts, play, position

COLS = "abcdefg"


def pos(cells: dict[str, str], **kw):
    """Plains everywhere, the thrones at a7 (seat 1) and g1 (seat 0), then ``cells``."""
    grid = [["."] * 7 for _ in range(7)]
    for name, tok in {"a7": ".k", "g1": ".K", **cells}.items():
        grid[7 - int(name[1:])][COLS.index(name[0])] = tok
    return position([" ".join(r) for r in grid], **kw)


def at(st, name: str) -> str | None:
    """The piece on a cell as 'seat:type', or None."""
    q = st.occ[(7 - int(name[1:])) * 7 + COLS.index(name[0])]
    return None if q < 0 else f"{st.owner(q)}:{PIECE_NAMES[st.ptype[q]]}"


def verbs(st, verb: str) -> set[str]:
    return {t.split()[-1] for t in legal_texts(st) if t.startswith(verb + " ")}


def checks(st) -> list[bool]:
    return [e["passed"] for e in st.chance_events() if e["kind"] == "check"]


# --- movement ------------------------------------------------------------------------------
def test_move_one_tile_any_direction():
    st = play(pos({"d4": ".R"}), "select d4")
    assert verbs(st, "move") == {"c5", "d5", "e5", "c4", "e4", "c3", "d3", "e3"}


def test_lancer_rides_connected_plains_only_when_only_moving():
    st = play(pos({"d3": ".L", "c2": ".R", "d5": "^"}), "select d3")
    assert "d6" in verbs(st, "move")  # around the mountain, over the plains
    play(st, "switch c2")
    assert "c6" not in verbs(st, "move") and "c3" in verbs(st, "move")
    src = play(pos({"d3": ".L", "c2": ".R"}, only_moving=False), "select d3", "switch c2")
    assert "c6" in verbs(src, "move")


def test_long_move_is_the_whole_turn():
    st = play(pos({"d3": ".L", "c2": ".R"}), "select d3", "move d6")
    assert st.turn == 1 and at(st, "d6") == "0:lancer"


def test_spearman_crosses_connected_water():
    st = play(pos({"b3": "~S", "b4": "~", "b5": "~", "c6": "~"}), "select b3")
    assert {"b5", "c6"} <= verbs(st, "move")
    st = play(pos({"b3": "~S", "b4": "f", "b5": "~"}), "select b3")
    assert "b5" not in verbs(st, "move")


def test_switch_with_adjacent_ally_of_another_type():
    st = play(pos({"d3": ".R", "d4": ".R", "c3": ".S"}), "select d3")
    assert verbs(st, "switch") == {"c3"}


def test_move_and_switch_end_the_turn():
    st = play(pos({"d3": ".R", "c2": ".S"}), "select d3", "move c3")
    assert st.turn == 0 and "end turn" in legal_texts(st)
    play(st, "switch c2")
    assert st.turn == 1 and at(st, "c3") == "0:spearman"


# --- survival checks ------------------------------------------------------------------------
def test_check_when_moving_from_water_failure_ends_the_turn():
    st = pos({"c2": "~X"})
    st.force_checks([False])
    play(st, "select c2", "move c3")
    assert at(st, "c2") == "0:crossbowman" and st.turn == 1 and checks(st) == [False]


def test_only_moving_onto_mountain_needs_no_check():
    st = play(pos({"c2": ".X", "c3": "^"}), "select c2", "move c3")
    assert at(st, "c3") == "0:crossbowman" and checks(st) == []


def test_ranger_passes_mountain_checks_spearman_water_checks():
    st = play(pos({"c2": "^R", "e2": "~S"}), "select c2", "move c3")
    assert checks(st) == [] and at(st, "c3") == "0:ranger"
    st = play(pos({"e2": "~S"}), "select e2", "move e3")
    assert checks(st) == []


def test_ranger_lends_its_mountain_pass_to_the_piece_it_switches_with():
    st = play(pos({"c2": ".R", "c3": "^X"}), "select c2", "switch c3")
    assert checks(st) == []
    st = pos({"c2": ".R", "c3": "^X"}, check_tiles="source")
    st.force_checks([True])
    play(st, "select c2", "switch c3")
    assert checks(st) == [True]


def test_failed_attack_removes_the_attacker():
    st = pos({"d3": "~X", "d4": ".s"})
    st.force_checks([False])
    play(st, "select d3", "attack d4")
    assert at(st, "d3") is None and at(st, "d4") == "1:spearman" and st.turn == 1


def test_attack_check_looks_onto_the_target_tile_on_the_page_only():
    st = pos({"d3": ".X", "d4": "~s"})
    st.force_checks([True])
    play(st, "select d3", "attack d4")
    assert checks(st) == [True] and at(st, "d4") == "0:crossbowman"
    src = play(pos({"d3": ".X", "d4": "~s"}, check_tiles="source"), "select d3", "attack d4")
    assert checks(src) == [] and at(src, "d4") == "0:crossbowman"


def test_fire_check_looks_at_the_shooters_tile_on_the_page_only():
    st = pos({"d3": "^X", "d4": ".s"})
    st.force_checks([True])
    play(st, "select d3", "fire d4")
    assert checks(st) == [True] and at(st, "d4") is None
    src = play(pos({"d3": "^X", "d4": ".s"}, check_tiles="source"), "select d3", "fire d4")
    assert checks(src) == [] and at(src, "d4") is None


def test_throne_attack_never_checks():
    st = play(pos({"d3": "~K", "g1": ".", "d4": "~s"}), "select d3", "attack d4")
    assert checks(st) == [] and at(st, "d4") == "0:throne"


@pytest.mark.parametrize("mode,removed,turn", [("disable", False, 0), ("kill", True, 0), ("finish", False, 1)])
def test_survival_modes_of_the_source(mode, removed, turn):
    st = pos({"c2": "~X", "e2": ".R"}, survival_mode=mode)
    st.force_checks([False])
    play(st, "select c2", "move c3")
    assert (at(st, "c2") is None) == removed and st.turn == turn
    if mode == "disable":
        assert "select c2" not in legal_texts(st) and "select e2" in legal_texts(st)


# --- firing and engaging ---------------------------------------------------------------------
def test_firing_ranges_and_forest():
    st = play(pos({"d3": ".X", "d4": "fs", "c4": ".r"}), "select d3")
    assert verbs(st, "fire") == {"c4"}
    st = play(pos({"d2": ".C", "d3": ".s", "d4": ".r"}), "select d2")
    assert verbs(st, "fire") == {"d4"}
    st = play(pos({"d1": ".T", "d4": "fs"}), "select d1")
    assert verbs(st, "fire") == {"d4"}


def test_ranger_on_mountain_cannot_be_fired_upon():
    st = play(pos({"d1": ".T", "d4": "^r"}), "select d1")
    assert verbs(st, "fire") == set()
    st = play(pos({"d3": ".R", "d4": "^r"}), "select d3")
    assert "d4" in verbs(st, "attack")


def test_elephant_on_plains_engaged_only_by_dragon_or_throne():
    assert verbs(play(pos({"d3": ".R", "d4": ".e"}), "select d3"), "attack") == set()
    assert verbs(play(pos({"d3": ".D", "d4": ".e"}), "select d3"), "attack") == {"d4"}
    assert verbs(play(pos({"d3": ".K", "g1": ".", "d4": ".e"}), "select d3"), "attack") == {"d4"}
    assert verbs(play(pos({"d3": ".R", "d4": "fe"}), "select d3"), "attack") == {"d4"}


@pytest.mark.parametrize("guard,fire_ok", [("page", True), ("source", False)])
def test_warhorse_that_removed_a_piece_cannot_be_attacked(guard, fire_ok):
    st = play(pos({"d3": ".W", "d4": ".s", "e5": ".r", "c5": ".x"}, warhorse_guard=guard),
              "select d3", "attack d4")
    assert st.turn == 1 and at(st, "d4") == "0:warhorse"
    assert "d4" not in verbs(play(st.clone(), "select e5"), "attack")
    assert ("d4" in verbs(play(st, "select c5"), "fire")) == fire_ok


def test_warhorse_switches_with_enemies_any_number_but_not_an_enemy_warhorse():
    st = play(pos({"d3": ".W", "d4": ".s", "c4": ".w", "e3": ".R"}), "select d3")
    assert "d4" in verbs(st, "switch") and "c4" not in verbs(st, "switch")
    play(st, "switch d4", "switch e3")
    assert st.turn == 0 and at(st, "e3") == "0:warhorse" and at(st, "d4") == "0:ranger"
    assert at(st, "d3") == "1:spearman"


def test_first_player_cannot_attack_or_fire_on_the_first_turn():
    st = play(pos({"d3": ".X", "d4": ".s"}, first_turn=True), "select d3")
    assert verbs(st, "attack") == set() and verbs(st, "fire") == set()


# --- the dragon ----------------------------------------------------------------------------
def test_dragon_flies_over_pieces_but_not_enemy_firing_pieces():
    st = play(pos({"d1": ".D", "d2": ".s"}), "select d1")
    assert "d5" in verbs(st, "move") and "e2" in verbs(st, "move")
    st = play(pos({"d1": ".D", "d2": ".x"}), "select d1")
    assert "d5" not in verbs(st, "move")


def test_dragon_attacks_down_a_line_but_not_forest():
    st = play(pos({"d1": ".D", "d4": ".s", "b1": "fr"}), "select d1")
    assert verbs(st, "attack") == {"d4"}
    src = play(pos({"d1": ".D", "d4": ".s"}, dragon_attack="adjacent"), "select d1")
    assert verbs(src, "attack") == set()


def test_dragon_from_reserve_on_a_mountain_uses_the_turn():
    st = play(pos({"b2": "^"}), "dragon b2")
    assert at(st, "b2") == "0:dragon" and st.turn == 1
    src = play(pos({"b2": "^"}, dragon_uses_turn=False), "dragon b2")
    assert src.turn == 0


def test_dragon_on_the_fortress_removes_its_occupant_and_restarts_the_turn():
    st = play(pos({"c2": "#s", "d3": ".R"}), "select d3", "move d4", "dragon c2")
    assert at(st, "c2") == "0:dragon" and st.turn == 0 and not st.moved
    assert "move d5" in legal_texts(play(st, "select d4"))


# --- fortresses ------------------------------------------------------------------------------
def test_attack_breaches_the_fortress_then_the_occupant_falls():
    st = pos({"d3": ".R", "d4": "#s"})
    st.force_checks([True])
    play(st, "select d3", "attack d4")
    assert checks(st) == [True] and at(st, "d4") == "1:spearman" and st.breached[3 * 7 + 3]
    play(st, "select a7", "move a6", "end turn", "select d3", "attack d4")
    assert at(st, "d4") == "0:ranger"


def test_throne_breaches_and_removes_in_one_move():
    st = play(pos({"d3": ".K", "g1": ".", "d4": "#s"}), "select d3", "attack d4")
    assert at(st, "d4") == "0:throne" and st.breached[3 * 7 + 3] and checks(st) == []


@pytest.mark.parametrize("restore,during", [("turn_end", True), ("vacated", False)])
def test_fortress_restored_when_unoccupied(restore, during):
    st = play(pos({"d4": "%R"}, fortress_restore=restore), "select d4", "move d3")
    assert st.breached[3 * 7 + 3] == during
    play(st, "end turn")
    assert not st.breached[3 * 7 + 3]


# --- favors ----------------------------------------------------------------------------------
def test_throne_gains_a_favor_on_a_new_fortress_only():
    st = play(pos({"d3": ".K", "g1": ".", "d4": "#"}), "select d3", "move d4", "end turn",
              "select a7", "move a6", "end turn", "select d4", "move d3", "end turn",
              "select a6", "move a7", "end turn", "select d3", "move d4")
    assert st.fav == [1, 0]


def test_cunning_passes_the_check_and_counts_against_the_limit():
    st = pos({"c2": "~X"})
    st.fav[0] = 1
    play(st, "select c2", "move c3")
    assert st.interrupt() == "check" and legal_texts(st) == ["cunning", "flip"]
    play(st, "cunning")
    assert at(st, "c3") == "0:crossbowman" and checks(st) == [] and st.fav == [0, 0]
    assert st.fav_total[0] == 3


def test_haste_adds_one_step_and_one_favor_a_turn():
    st = pos({"d3": ".R", "c2": "~X"})
    st.fav[0] = 2
    play(st, "select d3", "move d4", "haste d5")
    assert at(st, "d5") == "0:ranger" and st.turn == 0
    assert not any(t.startswith(("haste", "deceive")) for t in legal_texts(st))


def test_ambush_switches_two_allied_pieces_on_forests():
    st = pos({"b2": "fR", "f2": "fS"})
    st.fav[0] = 1
    play(st, "select b2", "ambush f2")
    assert at(st, "b2") == "0:spearman" and at(st, "f2") == "0:ranger"


@pytest.mark.parametrize("mode,ok", [("any", True), ("allied", False)])
def test_deception_switches_any_two_adjacent_pieces(mode, ok):
    st = pos({"d5": ".s", "e5": ".x"}, deception=mode)
    st.fav[0] = 1
    assert ("deceive d5" in legal_texts(st)) == ok
    if ok:
        play(st, "deceive d5", "deceive e5")
        assert at(st, "d5") == "1:crossbowman" and checks(st) == []


# --- winning and the end ---------------------------------------------------------------------
def test_removing_the_enemy_throne_wins():
    st = play(pos({"a7": ".", "d4": ".k", "d3": ".R"}), "select d3", "attack d4")
    assert st.is_terminal() and st.returns() == [1.0, -1.0] and st.current_player() == -1


def test_throne_on_the_enemy_home_fortress_wins():
    st = play(pos({"d5": ".K", "g1": ".", "d6": "#"}), "select d5", "move d6")
    assert st.winner == 0


def test_no_draw_rule_the_move_limit_truncates():
    st = play(pos({}, max_moves=2), "select g1", "move g2", "end turn", "select a7", "move a6", "end turn")
    assert st.is_truncated() and not st.is_terminal() and st.returns() == [0.0, 0.0]


def test_endless_switches_are_cut_by_the_decision_limit():
    """A Warhorse switches with "any number of" pieces: with the same one back and forth the turn
    never ends, so the decision limit cuts the game (G12), as the move limit does (G11)."""
    st = play(pos({"d3": ".W", "d4": ".s"}, max_decisions=9), "select d3")
    where = "d3"
    for _ in range(50):  # bounded: without the limit this turn would never end
        if st.is_over():
            break
        where = "d4" if where == "d3" else "d3"
        play(st, f"switch {where}")
        assert st.turn == 0 or st.is_over()  # still the first player's one turn
    assert st.is_truncated() and not st.is_terminal() and st.returns() == [0.0, 0.0]
    assert len(st.history) == 9 and st.legal_actions() == []


def test_dragon_passes_every_survival_check():
    st = play(pos({"c2": "~D"}), "select c2", "move c3")
    assert checks(st) == [] and at(st, "c3") == "0:dragon"


def test_the_pages_fifteen_pieces_and_the_sources_thirteen():
    from games.thrones.config import SOURCE_PIECES
    from games.thrones.game import ThronesGame
    assert ThronesGame().new_state().per == 15
    assert ThronesGame().new_state(piece_amounts=SOURCE_PIECES).per == 13
