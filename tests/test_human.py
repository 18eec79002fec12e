"""Human play driven through injected input: commands, wrong input and recovery, quitting, watching."""

from __future__ import annotations

from collections.abc import Iterable

import numpy as np
import pytest

from arena.human import HumanAgent, Menu, play, watch
from arena.replay import final_tokens, rebuild
from vigtavl_env import raw_env
from vigtavl.cli import main
from vigtavl_env.engine import apply_action, legal_actions, load_map, new_game
from vigtavl_env.engine.state import BUILD
from vigtavl_env.choices import normalize
from vigtavl_env.game import VigtavlGame, VigtavlState

GAME = VigtavlGame()


def legal_of(env) -> list[int]:
    return np.flatnonzero(env.action_mask()).tolist()


def menu_of(env) -> Menu:
    """The terminal's menu of a Vigtavl env's decision, through the game interface."""
    return Menu(GAME.wrap(env.game_state), legal_of(env))


def scripted(lines: Iterable[str], then: str | None = None):
    """An input function answering ``lines`` in turn, then ``then`` forever (or EOF)."""
    it = iter(lines)

    def answer(prompt: str) -> str:
        try:
            return next(it)
        except StopIteration:
            if then is None:
                raise EOFError from None
            return then
    return answer


LOADS = 2  # the duel's first decisions: each player loads his freighters


def _menu_at(decisions: int = LOADS, seed: int = 1) -> tuple[Menu, object]:
    """The menu of a duel after ``decisions`` first-legal decisions (default: the placement's first)."""
    env = raw_env(num_players=2)
    env.reset(seed=seed)
    for _ in range(decisions):
        env.step(int(np.flatnonzero(env.action_mask())[0]))
    return menu_of(env), env


@pytest.mark.parametrize("text, want", [
    ("Move (3, -1)", "move 3,-1"), ("move 3 -1", "move 3,-1"), ("  build   camp 0 , 2 ", "build camp 0,2"),
    ("build wall 2 1,-5", "build wall nw 1,-5"), ("END", "end"),
])
def test_normalize(text, want):
    assert normalize(text) == want


def test_menu_finds_commands_numbers_and_shortcuts():
    menu, _ = _menu_at()
    first = menu.choices[0]
    assert first.command == "place caravel 0,-5" and menu.by_number(1) is first
    assert menu.find("place caravel 0,-5")[0] is first
    assert menu.find("pl car (0, -5)")[0] is first  # words shortened
    assert menu.find("place 0,-5")[0] is None and len(menu.find("place 0,-5")[1]) == 3  # 3 ship types
    chosen, fits = menu.find("place galleon")
    assert chosen is None and {c.kind for c in fits} == {"place galleon"}
    assert menu.find("fly 0,0") == (None, [])
    # any word may be left out, not only the last ones: "caravel" lists the caravel placements
    chosen, fits = menu.find("caravel")
    assert chosen is None and fits and {c.kind for c in fits} == {"place caravel"}
    assert menu.find("car 0,-5")[0] is first
    assert menu.by_number(0) is None and menu.by_number(len(menu.choices) + 1) is None


def test_menu_overview_groups_hundreds_of_decisions_by_kind():
    menu, _ = _menu_at()
    lines = menu.overview()
    assert len(menu.choices) > 100 and len(lines) == 1 + len(menu.kinds)
    assert lines[1].split()[:2] == ["place", "caravel"]


def test_end_is_taken_when_one_end_is_legal():
    state = new_game(load_map("duel"), seed=3)
    while _end_turn_code(state) not in legal_actions(state):
        apply_action(state, legal_actions(state)[0])
    env = raw_env.from_state(state)
    menu = menu_of(env)
    ends = [c for c in menu.choices if c.kind.startswith("end")]
    chosen, fits = menu.find("end")
    assert fits == ends and chosen is (ends[0] if len(ends) == 1 else
                                       next(c for c in ends if c.command == "end activation"))


def _end_turn_code(state) -> int:
    from vigtavl_env.engine import encode_global
    return encode_global(1, state.gmap.board.n_cells)


def test_wrong_input_gets_a_message_and_the_game_goes_on():
    out: list[str] = []
    lines = ["?", "xyzzy", "0", "999", "load", "load 2", "place caravel", "", "map", "list place gal",
             "place caravel 0 -5", "coords", "quit"]
    record = play("random", seat=0, seed=5, input_fn=scripted(lines), print_fn=out.append, show_map=False)
    assert record.truncated and not record.winners and record.n_decisions >= 3  # the game so far
    text = "\n".join(out)
    assert "commands:" in text  # help
    assert any(line.startswith("r=-5 |") and " 0,-5 " in line for line in text.splitlines())  # coords
    assert "'xyzzy' fits no legal decision" in text
    assert "SETUP: load your two freighters" in text and "decisions fit 'load'" in text
    assert "you: load soldier+soldier+archer | soldier+archer+cavalry" in text
    assert "P1 loads his freighters" in text  # the opponent's load, narrated
    assert "there is no decision 0" in text and "there is no decision 999" in text
    assert "decisions fit 'place caravel'" in text
    assert "you: place caravel at (0, -5)" in text
    assert "P1 places" in text  # the opponent's decision, narrated
    assert out[-1] == "You left the game."


def test_closed_input_quits():
    out: list[str] = []
    record = play("random", seed=1, input_fn=scripted([]), print_fn=out.append, show_map=False)
    assert record.n_decisions == 0 and record.truncated  # nothing played yet, still a record
    assert out[-1] == "You left the game."


def test_quit_with_out_saves_the_game_so_far_and_it_replays(monkeypatch, tmp_path, capsys):
    """``vigtavl play --out F`` and ``quit``: F holds the game so far, which replays."""
    lines = iter(["load 2", "place caravel 0 -5", "quit"])
    monkeypatch.setattr("builtins.input", lambda prompt="": next(lines))
    out = tmp_path / "partial.json"
    assert main(["play", "--opponent", "random", "--seed", "5", "--no-map", "--out", str(out)]) == 0
    assert "saved the game so far" in capsys.readouterr().out
    assert main(["replay", str(out)]) == 0
    assert "replay check" in capsys.readouterr().out


def test_a_whole_game_by_number_and_command_replays():
    out: list[str] = []
    record = play("random", seat=1, seed=2, input_fn=scripted(["end", "2", "1"], then="1"),
                  print_fn=out.append)
    assert record is not None and record.seats == ["random", "human"]
    assert out[-1].startswith(("You win", "You lose", "You share"))
    assert "map duel  phase" in "\n".join(out)  # the ansi map was drawn
    assert final_tokens(rebuild(record)) == record.tokens


def test_which_unit_reads_choose_k_with_how_the_units_differ():
    """v2's "which of the unalike units" (here: which loaded freighter is placed first) is
    ``choose 1``, ``choose 2``, each described by what differs, not a "load" split."""
    env = raw_env(num_players=2)
    env.reset(seed=1)
    for _ in range(40):
        menu = menu_of(env)
        chosen = [c for c in menu.choices if c.kind == "choose" and c.hex is None]
        if chosen:
            break
        env.step(int(np.flatnonzero(env.action_mask())[0]))
    assert [c.command for c in chosen] == [f"choose {k + 1}" for k in range(len(chosen))] and len(chosen) >= 2
    assert all("carrying" in c.text for c in chosen)  # the freighters differ by their cargo
    assert menu.find("choose 2")[0] is chosen[1]


def test_human_agent_shows_retaliation_and_purse(monkeypatch):
    # The build phase begins after the 12 placements and, v2, each player's "which freighter"
    # (his two freighters' loads differ, so placing the first asks which: "choose variant k").
    menu, env = _menu_at(decisions=LOADS + 12 + 2)
    assert env.game_state.phase == BUILD and env.game_state.current_player == 0
    out: list[str] = []
    human = HumanAgent(scripted(["end turn"]), out.append, show_map=False)
    human.reset(0, 0)
    monkeypatch.setattr(VigtavlState, "interrupt", lambda self: "retaliation")  # the prompt says it
    action = human(GAME.wrap(env.game_state), legal_of(env))
    assert env.decode_action(action).endswith("end turn")
    assert any("gold 6, silver 6" in line for line in out)
    assert any(line.startswith("RETALIATION") for line in out)


def test_watch_narrates_a_game_between_agents():
    out: list[str] = []
    record = watch(["random", "random"], seed=7, print_fn=out.append)
    assert out[0].startswith("Vigtavl, game seed 7")
    assert any(line.startswith("=== turn 3:") for line in out)
    assert out[-1] == f"final tokens: {record.tokens}"
    assert final_tokens(rebuild(record)) == record.tokens


def test_cli_play_and_watch(monkeypatch, tmp_path, capsys):
    monkeypatch.setattr("builtins.input", scripted(["quit"]))
    assert main(["play", "--opponent", "random", "--seed", "1", "--no-map"]) == 0
    assert "You left the game." in capsys.readouterr().out
    out = tmp_path / "game.json"
    assert main(["play", "--watch", "--agents", "random,random", "--seed", "3", "--no-map",
                 "--out", str(out)]) == 0
    assert main(["replay", str(out), "--game", "0", "--no-maps"]) == 0
    assert "replay check" in capsys.readouterr().out


def _ring_battle():
    """A Scenario in the battle phase on a land board ringed by sea (radius 6)."""
    from vigtavl_env.engine.hexgrid import Board
    from vigtavl_env.engine.maps import GameMap
    from vigtavl_env.engine.scenario import Scenario
    board = Board(6)
    terrain = tuple(0 if max(abs(q), abs(r), abs(q + r)) == board.radius else 1 for q, r in board.coords)
    return Scenario(GameMap("ring", 2, terrain), phase="battle")


def test_human_defends_out_of_turn_with_the_attack_in_words():
    sc = _ring_battle()
    sc.development(0, "camp", (-4, 0))
    sc.unit(0, "cavalry", (0, 0))
    sc.unit(1, "soldier", (1, 0))
    sc.unit(1, "archer", (1, 0))
    env = raw_env.from_state(sc.build())
    env.step(env.encode_action("activate cavalry", (0, 0)))
    env.step(env.encode_action("attack", (1, 0)))
    out: list[str] = []
    human = HumanAgent(scripted(["end", "no defence", "ch sol 1,0"]), out.append, show_map=False)
    human.reset(1, 0)
    action = human(GAME.wrap(env.game_state), legal_of(env))
    assert env.decode_action(action) == "player_1: defend with soldier at (1, 0)"
    text = "\n".join(out)
    assert ("DEFEND (out of turn): P1 chooses who defends (1, 0) against P0's cavalry from (0, 0) "
            "(in close combat, 3 dice)") in text
    assert "P1 is asked who defends (1,0) against P0's cavalry from (0,0)" in text  # narrated news
    assert "'end' fits no legal decision" in text and "'no defence' fits no legal decision" in text
    assert "choose soldier 1,0   (defend with soldier at (1, 0))" in text


def test_one_fit_is_done_and_end_ends_the_activation_first():
    """A shortened command that fits one decision makes it (no "1 decisions fit" list); with a
    unit active, "end turn" and "end activation" are both legal and ``end`` ends the activation."""
    sc = _ring_battle()
    sc.development(0, "camp", (-4, 0))
    sc.unit(0, "soldier", (0, 0))
    sc.unit(1, "archer", (3, 0))
    env = raw_env.from_state(sc.build())
    out: list[str] = []
    human = HumanAgent(scripted(["act sol"]), out.append, show_map=False)
    human.reset(0, 0)
    action = human(GAME.wrap(env.game_state), legal_of(env))
    assert env.decode_action(action) == "player_0: activate soldier at (0, 0)"
    assert not any("fit" in line for line in out)
    env.step(action)
    menu = menu_of(env)
    ends = {c.command for c in menu.choices if c.kind.startswith("end")}
    assert ends == {"end activation", "end turn"}
    assert menu.find("end")[0].command == "end activation"
    assert menu.find("end t")[0].command == "end turn"
