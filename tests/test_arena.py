"""The arena for any game (issue 56 item 2, issue 57 item 6): agent specs parsed once against
a game's table of kinds, tournaments, terminal play and replay, through the game interface
alone. Proved with the test game ``pig``."""

from __future__ import annotations

import subprocess
import sys

import pytest

from agents.kinds import AgentSpec, kinds_for, known, make_player, menu
from arena.match import load_results, save_results
from arena.play import GameStopped, replay_record
from arena.terminal import TerminalPlayer, _choose, narrate_record, play, watch
from arena.tournament import run_tournament
from vigtavl.cli import main


def test_a_spec_is_parsed_once_against_its_games_table():
    spec = AgentSpec.parse(" Rollout:3 ", "pig")
    assert (spec.game, spec.kind, spec.argument, str(spec)) == ("pig", "rollout", "3", "rollout:3")
    assert spec.info.argument and not kinds_for("pig")["random"].argument
    assert {row["kind"] for row in menu("pig")} >= {"random", "rollout"}
    assert "rollout:N" in known("pig")


@pytest.mark.parametrize("bad", ["", "  ", None, 7, "nobody", "random:3", "rollout:0", "rollout:x",
                                 "x" * 400, "greedy"])
def test_bad_specs_are_refused_in_one_line(bad):
    with pytest.raises(ValueError) as e:
        make_player("pig", bad, 0)
    assert "\n" not in str(e.value)


def test_an_unknown_game_is_refused_in_one_line():
    with pytest.raises(ValueError, match="unknown game"):
        AgentSpec.parse("random", "chess")


def test_importing_the_arena_loads_no_games_engine():
    """Transitively too: no engine module of any game is loaded by importing the arena, the
    generic agents and the kinds table (a game is loaded only when it is played)."""
    code = ("import sys, arena.match, arena.terminal, arena.tournament, agents.kinds, agents.generic;"
            "print([m for m in sys.modules if m.startswith(('vigtavl_env', 'games.thrones', 'games.pig'))])")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert out.strip() == "[]"


def test_a_tournament_plays_every_pairing_on_its_own_seeds():
    records = run_tournament("pig", ["random", "rollout:2", "rollout:4", "random"], games=2, seed=10)
    assert len(records) == 3 * 2
    assert len({r.seed for r in records}) == 6
    assert {frozenset(r.seats) for r in records} == {frozenset(p) for p in
                                                     [("random", "rollout:2"), ("random", "rollout:4"),
                                                      ("rollout:2", "rollout:4")]}
    with pytest.raises(ValueError):
        run_tournament("pig", ["random", "random"], games=2)


def test_the_person_chooses_by_number_by_words_and_by_a_unique_start():
    words = ["roll", "bank", "veto yes", "veto no"]
    assert _choose("1", words) == 1 and _choose("bank", words) == 1 and _choose("r", words) == 0
    assert isinstance(_choose("veto", words), str) and "several" in _choose("veto", words)
    assert isinstance(_choose("9", words), str) and isinstance(_choose("fly", words), str)


def scripted(lines):
    it = iter(lines)
    return lambda prompt: next(it)


def test_a_person_plays_a_whole_game_and_the_record_replays(tmp_path):
    out: list[str] = []
    # "nonsense" gets a message and the game goes on; then "roll"/"0" until the game ends
    record = play("pig", ["random"], seat=1, seed=5, input_fn=scripted(["nonsense", "list"] + ["0"] * 5000),
                  print_fn=out.append)
    assert record.returns and not record.truncated and len(record.actions) > 2
    assert any("no decision starts with" in line for line in out)
    assert any(line.startswith("chance:") for line in out)
    path = tmp_path / "one.json"
    save_results([record], path)
    replay_record(load_results(path)[0])
    told: list[str] = []
    narrate_record(record, print_fn=told.append, show_board=False)
    assert sum(1 for line in told if ": " in line and line.strip()[0].isdigit()) == len(record.actions)


def test_a_person_who_quits_keeps_the_game_so_far():
    out: list[str] = []
    record = play("pig", ["random"], seat=0, seed=2, input_fn=scripted(["0", "quit"]), print_fn=out.append)
    assert record.truncated and not record.winners and len(record.actions) >= 1
    assert out[-1] == "You left the game."
    replay_record(record)


def test_the_person_never_sees_the_other_seats_secret_card():
    """The board shown at the person's decisions is his seat's view: the other card is '?'."""
    seen: list[str] = []
    player = TerminalPlayer(scripted(["quit"]), seen.append)
    from games import load_game
    state = load_game("pig").new_state(2, 3)
    with pytest.raises(GameStopped):
        player(state.view_for(0), state.legal_actions())
    board = "\n".join(seen)
    assert "card ?" in board and f"card {state.to_dict()['cards'][1]}" not in board.split("P1:")[1].split("\n")[0]


def test_watching_narrates_every_decision():
    told: list[str] = []
    record = watch("pig", ["random", "rollout:2"], seed=4, print_fn=told.append, show_board=False)
    assert sum(1 for line in told if line.strip()[:1].isdigit()) == len(record.actions)
    assert told[-1].startswith(("won by", "stopped"))


def test_the_commands_take_another_game(capsys, tmp_path):
    out = tmp_path / "t.json"
    assert main(["tournament", "--game", "pig", "--agents", "random,rollout:2", "--games", "2",
                 "--no-progress", "--out", str(out)]) == 0
    assert "head to head" in capsys.readouterr().out
    assert main(["replay", str(out), "--game", "1", "--no-maps"]) == 0
    assert "won by" in capsys.readouterr().out
    assert main(["play", "--game", "pig", "--watch", "--agents", "random,random", "--seed", "1", "--no-map"]) == 0


@pytest.mark.parametrize("argv", [
    ["match", "--game", "pig", "--agents", "random,random", "--map", "duel"],
    ["match", "--game", "pig", "--agents", "random,random", "--workers", "2"],
    ["tournament", "--game", "pig", "--agents", "random,nobody"],
    ["tournament", "--game", "nogame", "--agents", "random,random"],
    ["play", "--game", "pig", "--opponent", "nobody"],
    ["play", "--game", "pig", "--seat", "7"],
    ["replay", "/nonexistent/x.json"],
])
def test_bad_arena_commands_answer_one_line(argv, capsys, tmp_path):
    assert main([*argv, "--no-progress"] if argv[0] != "play" and argv[0] != "replay" else argv) == 2
    err = capsys.readouterr().err.strip()
    assert err.count("\n") == 0 and "error" in err


def test_a_replay_of_a_game_number_not_in_the_file_is_refused(tmp_path, capsys):
    out = tmp_path / "m.json"
    assert main(["match", "--game", "pig", "--agents", "random,random", "--games", "1", "--no-progress",
                 "--out", str(out)]) == 0
    assert main(["replay", str(out), "--game", "3"]) == 2
    assert "holds games 0-0" in capsys.readouterr().err


@pytest.mark.parametrize("lineup", [("greedy", "random"), ("search:8", "builder")])
def test_vigtavls_bots_play_the_same_game_through_the_interface(lineup):
    """Vigtavl's own bots, in the kinds table as players of the interface, make exactly the
    decisions they make in Vigtavl's environment (arena.vigtavl_match), seed for seed."""
    import arena.vigtavl_match as M
    from arena.play import play_game
    from games import load_game
    seed = 31
    seeds = [M.agent_seed(seed, i) for i in range(2)]
    job = M.GameJob(0, seed, lineup, 2)
    env_record = M.play_game(M.make_env(job), job)
    players = [make_player("vigtavl", spec, s) for spec, s in zip(lineup, seeds)]
    record = play_game("vigtavl", players, seed, 0, list(lineup), seeds)
    codec = load_game("vigtavl").new_state(2, seed)._tools.codec
    assert [codec.to_engine(a) for a in record.actions] == env_record.decisions
    assert record.scores["tokens"] == [float(t) for t in env_record.tokens]
