"""What the web page says, checked without a browser (issue 61): one count of turns everywhere,
each question's banner worded for the decision asked, "1 die", what a retreat gains, the front of
an attacked hex, the hints' agent and percentages; and the terminal's words around them: the
README's loop showing the winner, the last picture's panel, ``match`` counting "1 game".
"""

from __future__ import annotations

import re
from pathlib import Path

import numpy as np
import pytest
from conftest import make_map

from webapp.sessions import LiveGame
from vigtavl_env.engine import load_map, new_game
from vigtavl_env.engine.scenario import Scenario, act
from vigtavl_env.engine.state import BUILD, CHOOSE_PRISON, CHOOSE_VARIANT, PLACEMENT
from vigtavl_env.web_moves import event_words, outcomes
from vigtavl_env.web_view import game_turn, state_view

ROOT = Path(__file__).resolve().parent.parent
TURN = re.compile(r"turn (\d+)/(\d+)")


def finished(seats: list[str], seed: int) -> LiveGame:
    game = LiveGame(seats, seed=seed)
    while game.advance():
        pass
    return game


# ------------------------------------------------------------------ one count of turns
def test_the_status_line_and_the_move_list_count_turns_the_same_way():
    game = LiveGame(["greedy", "aggressor"], seed=2)
    said = []  # the status line's count at each decision
    while True:
        status = game.view()["status"]
        said.append(status["turn_words"])
        if not game.advance():
            break
    assert said[0] == "placement phase (before turn 1/8)" and said[-1] == "game over after turn 8/8"
    numbers = [int(TURN.search(words).group(1)) for words in said if "over" not in words]
    assert numbers == sorted(numbers) and set(numbers) == set(range(1, 9))
    assert "build phase · round 1/2 · turn 1/8" in said and "battle phase · round 2/2 · turn 8/8" in said
    turns = [e["text"] for m in game.view(0)["moves"] for e in m["events"] if e["event"] == "turn"]
    assert turns == [f"turn {t}/8: P{(t - 1) % 2}, {'build' if t <= 4 else 'battle'} phase, round {(t - 1) // 2 % 2 + 1}/2"
                     for t in range(1, 9)]


def test_the_replays_menu_of_turns_uses_the_move_lists_words():
    from webapp.replays import ReplayGame
    game = finished(["greedy", "random"], seed=5)
    labels = [t["label"] for t in ReplayGame(game.record()).turns]
    assert labels[0] == "placement" and [TURN.match(label).groups() for label in labels[1:]] == [
        (str(t), "8") for t in range(1, 9)]


def test_a_turn_is_numbered_over_the_game():
    assert game_turn(PLACEMENT, 0, 1, 2, 2) == 0
    assert [game_turn(BUILD, r, p, 3, 2) for r in (0, 1) for p in range(3)] == [1, 2, 3, 4, 5, 6]
    assert game_turn(BUILD + 1, 1, 2, 3, 2) == 12


# ------------------------------------------------------------------ each question in its own words
def test_which_unit_during_the_placement_names_the_freighter_and_its_empty_hex():
    state = new_game(load_map("duel"), seed=7)
    act(state, "load soldier+soldier+cavalry | soldier+archer+archer")
    act(state, "load soldier+soldier+cavalry | soldier+archer+archer")
    act(state, "place freighter", (-2, 5))  # two freighters with different loads: which one
    assert state.pending is not None and state.pending.kind == CHOOSE_VARIANT
    status = state_view(state, ["human", "greedy"])["status"]
    assert status["asked"] == "P0 chooses which of his freighters to place at (-2,5): their cargo differs"
    assert status["banner"]["text"].startswith("WHICH UNIT: P0 chooses which of his freighters to place")


def test_a_prison_chosen_inside_a_retaliation_is_named_prison():
    game = LiveGame(["aggressor", "aggressor"], seed=3)  # the retaliator captures, and chooses the prison
    while not (game.env.game_state.pending is not None and game.env.game_state.pending.kind == CHOOSE_PRISON
               and game.interrupt == "retaliation"):
        assert game.advance(), "the game ended before a prison was chosen in a retaliation"
    banner = game.view()["status"]["banner"]
    assert banner["kind"] == "interrupt" and banner["text"].startswith("PRISON (during the retaliation): P")
    assert "RETALIATION" not in banner["text"] and "which of his developments holds" in banner["text"]


def test_the_defence_question_says_one_die():
    sc = Scenario(make_map(), phase="battle")
    sc.development(0, "camp", (-4, 0))
    sc.unit(0, "soldier", (0, 0))
    sc.unit(1, "soldier", (1, 0))
    sc.unit(1, "archer", (1, 0))  # two unalike defenders: P1 is asked which
    state = sc.build()
    act(state, "activate soldier", (0, 0))
    act(state, "attack", (1, 0))
    asked = state_view(state, ["a", "b"])["status"]["asked"]
    assert "in close combat, 1 die)" in asked and "1 dice" not in asked


# ------------------------------------------------------------------ battles on the board
def test_a_battle_move_won_but_not_entered_stays_and_nobody_gains_by_a_retreat():
    state = new_game(load_map("duel"), seed=1)
    won = [{"event": "battle", "won": True, "cell": 3}, {"event": "retreat", "player": 1, "unit": 0, "to": 5}]
    lost = [{"event": "battle", "won": False, "cell": 3}, {"event": "retreat", "player": 1, "unit": 0, "to": 5}]
    assert [(o["what"], o["by"], o["of"]) for o in outcomes(won, state)] == [("stays", -1, -1)]
    assert [(o["what"], o["by"], o["of"]) for o in outcomes(lost, state)] == [("retreated", -1, -1)]


def test_the_front_of_an_attacked_hex_is_drawn_on_the_edge_its_first_attack_crossed():
    sc = Scenario(make_map(), phase="battle")
    sc.development(0, "camp", (-4, 0))
    sc.unit(0, "cavalry", (0, 0))
    sc.unit(1, "soldier", (1, 0))
    state = sc.build()
    assert state_view(state, [])["fronts"] == []
    act(state, "activate cavalry", (0, 0))
    state.forced_dice[:] = [6, 5, 2, 3]
    act(state, "attack", (1, 0))
    fronts = state_view(state, [])["fronts"]
    board = state.gmap.board
    assert [f["cell"] for f in fronts] == [board.index[(1, 0)]]
    from vigtavl_env.render import _Canvas
    cv = _Canvas(board)
    (x1, y1), (x2, y2) = cv.centre(board.index[(0, 0)]), cv.centre(board.index[(1, 0)])
    middle = ((fronts[0]["x1"] + fronts[0]["x2"]) / 2, (fronts[0]["y1"] + fronts[0]["y2"]) / 2)
    assert np.allclose(middle, ((x1 + x2) / 2, (y1 + y2) / 2), atol=1.0)  # the side facing the attacker


def test_a_turn_event_and_a_battle_say_the_page_words():
    state = new_game(load_map("duel"), seed=1)
    assert event_words({"event": "turn", "player": 1, "phase": "battle", "round": 1}, state) == \
        "turn 8/8: P1, battle phase, round 2/2"


# ------------------------------------------------------------------ hints
def test_hint_percentages_add_up_to_100_by_largest_remainder():
    from webapp.hints import percentages
    assert percentages(np.array([0.345, 0.345, 0.31])).tolist() == [35, 34, 31]  # rounded: 35 + 35 + 31
    assert percentages(np.full(3, 1 / 3)).tolist() == [34, 33, 33]
    for seed in range(20):
        p = np.random.default_rng(seed).dirichlet(np.ones(7))
        shares = percentages(p)
        assert shares.sum() == 100 and np.all(np.abs(shares - 100 * p) < 1)


def test_hints_come_from_the_strongest_shipped_agent_within_the_servers_limit():
    from webapp.hints import HINT_MS, hint_agent_spec
    from webapp.server import DEFAULT_THINK_MS
    assert hint_agent_spec(2).startswith("az-search:pretrained:") and HINT_MS <= DEFAULT_THINK_MS
    game = LiveGame(["human", "greedy"], seed=3, hints=True)
    game.decide(game.view()["decisions"][0]["action"])  # the loads
    while not game.human_to_act():
        game.advance()
    question = game.hint_question()
    answer = game.hint(question)
    legal = {d["action"] for d in question[3]}
    assert answer["agent"].startswith("az-search:pretrained") and 0 <= answer["win"] <= 1
    assert answer["choices"] and {c["action"] for c in answer["choices"]} <= legal
    assert sum(c["percent"] for c in answer["choices"]) <= 100


# ------------------------------------------------------------------ the terminal's words
def test_the_readmes_loop_shows_the_winner_and_its_last_frame_says_so(capsys):
    from vigtavl_env.engine.game import returns
    from vigtavl_env.render import panel_lines, status_lines
    readme = (ROOT / "README.md").read_text()
    loop = re.search(r"```python\n(import vigtavl_env\n.*?)```", readme, re.S).group(1)
    scope: dict = {}
    exec(compile(loop, "README.md", "exec"), scope)
    state = scope["env"].unwrapped.game_state
    assert state.is_over and scope["result"] == {f"player_{p}": r for p, r in enumerate(returns(state))}
    assert str(scope["result"]) in capsys.readouterr().out
    assert panel_lines(state)[1:] == ["game over", "winner" + ("s: " if len(set(state.tokens)) == 1 else ": ")
                                      + ", ".join(f"player_{p}" for p, t in enumerate(state.tokens) if t == max(state.tokens))]
    assert "round" not in status_lines(state)[0] and "game over" in status_lines(state)[0]


def test_a_match_of_one_game_says_one_game():
    from arena.vigtavl_match import run_match
    table = run_match(["random", "random"], games=1, seed=0, progress=False).table()
    assert "  1 game, 2 players" in table and "1 games" not in table
