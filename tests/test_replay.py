"""Replays: a recorded game rebuilds exactly, is checked, prints turn by turn, draws pictures;
games of the rules-v0 and rules-v1 engines are refused."""

from __future__ import annotations

import dataclasses
import json

import pytest

from arena.vigtavl_match import GameJob, make_env, play_game, run_match
from arena.records import GameRecord
from arena.replay import ReplayError, final_tokens, load_record, print_replay, rebuild
from vigtavl.cli import main


@pytest.fixture(scope="module")
def match(tmp_path_factory):
    result = run_match(["random", "random"], games=3, seed=11, progress=False)
    path = tmp_path_factory.mktemp("replay") / "results.json"
    result.save(path)
    return result, path


def test_replay_reproduces_tokens_and_the_whole_final_state():
    job = GameJob(0, 21, ("random", "random"), 2)
    env = make_env(job)
    record = play_game(env, job)
    state = rebuild(record)
    assert final_tokens(state) == record.tokens == env.game_state.scores()["tokens"]
    assert state.to_dict()["state"] == env.game_state.to_dict()["state"]  # events and dice included


@pytest.mark.parametrize("n", [3, 4])
def test_multiplayer_games_replay(n):
    record = run_match(["random"] * n, games=1, seed=2, num_players=n, progress=False).records[0]
    assert final_tokens(rebuild(record)) == record.tokens


def test_random_map_games_replay_from_the_recorded_map():
    record = run_match(["random", "random"], games=1, seed=4, map="random", progress=False).records[0]
    assert record.map_text and record.map.startswith("random")
    assert final_tokens(rebuild(record)) == record.tokens


def test_load_record_from_results_json(match):
    result, path = match
    assert load_record(path, 2) == result.records[2]
    with pytest.raises(ReplayError, match=r"no game 7 \(games 0..2\)"):
        load_record(path, 7)


def test_a_tampered_record_does_not_replay(match):
    record = match[0].records[0]
    with pytest.raises(ReplayError, match="tokens"):
        rebuild(dataclasses.replace(record, tokens=[99, 99]))
    with pytest.raises(ReplayError, match="illegal in the replay"):
        rebuild(dataclasses.replace(record, decisions=[record.decisions[0]] * 3 + record.decisions[3:]))


def test_truncated_games_replay():
    record = run_match(["random", "random"], games=1, seed=0, max_steps=30, progress=False).records[0]
    assert record.truncated
    state = rebuild(record)
    assert len(record.decisions) == 30 and state.is_truncated() and not state.is_terminal()


def test_print_replay_goes_turn_by_turn(match):
    lines: list[str] = []
    print_replay(match[0].records[1], print_fn=lines.append)
    text = "\n".join(lines)
    assert "=== turn 0: placement phase ===" in text
    assert "=== turn 1: P" in text and "=== turn 2: P" in text
    assert "map duel" in text  # the ansi map's status panel
    assert "   1. P" in text  # numbered decisions, narrated
    assert lines[-1].startswith("replay check: tokens")


def test_png_writes_one_picture_per_turn(tmp_path):
    record = run_match(["random", "random"], games=1, seed=0, max_steps=40, progress=False).records[0]
    lines: list[str] = []
    print_replay(record, print_fn=lines.append, png_dir=tmp_path / "frames", maps=False)
    pictures = sorted((tmp_path / "frames").glob("turn_*.png"))
    turns = sum(line.startswith("=== turn") for line in lines)
    assert len(pictures) == turns >= 2
    assert pictures[0].read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


def test_cli_replay(match, tmp_path, capsys):
    status = main(["replay", str(match[1]), "--game", "1", "--no-maps", "--png", str(tmp_path / "p")])
    out = capsys.readouterr().out
    assert status == 0 and "replay check" in out and "wrote" in out
    assert main(["replay", str(match[1]), "--game", "9"]) == 2
    assert "no game 9" in capsys.readouterr().err


def test_results_of_the_v0_engine_are_refused_in_one_line(match, tmp_path, capsys):
    """A results file written by the rules-v0 engine (results version 1, records without
    ``state_version``) is refused before any decision is applied: other rules, other codes."""
    old = json.loads(match[1].read_text())
    old["version"] = 1
    for g in old["games"]:
        del g["state_version"]
    path = tmp_path / "v0.json"
    path.write_text(json.dumps(old))
    with pytest.raises(ReplayError, match=r"is of version vigtavl_v0; this engine reads version vigtavl_v2 only"):
        load_record(path, 0)
    assert main(["replay", str(path), "--game", "0", "--no-maps"]) == 2
    err = capsys.readouterr().err
    assert "vigtavl_v0" in err and len(err.strip().splitlines()) == 1
    record = GameRecord.from_dict(old["games"][0])  # a v0 record met on its own
    assert record.state_version == "vigtavl_v0"
    with pytest.raises(ReplayError, match=r"played under vigtavl_v0.*cannot replay it"):
        rebuild(record)


def test_records_name_their_engine(match):
    result, path = match
    saved = json.loads(path.read_text())
    assert saved["version"] == "vigtavl_v2" and all(g["state_version"] == "vigtavl_v2" for g in saved["games"])
    assert all(r.state_version == "vigtavl_v2" for r in result.records)


@pytest.mark.parametrize("version", [2, "vigtavl_v1"])
def test_results_of_the_v1_engine_are_refused_in_one_line(match, tmp_path, capsys, version):
    """A results file of the rules-v1 engine (the integer 2 before the version was spelled, then
    ``"vigtavl_v1"``) is refused before any decision is applied, in one line naming both
    versions; a v1 record met on its own does not replay either."""
    old = json.loads(match[1].read_text())
    old["version"] = version
    for g in old["games"]:
        g["state_version"] = version
    path = tmp_path / "v1.json"
    path.write_text(json.dumps(old))
    with pytest.raises(ReplayError, match=r"is of version vigtavl_v1; this engine reads version vigtavl_v2 only"):
        load_record(path, 0)
    assert main(["replay", str(path), "--game", "0", "--no-maps"]) == 2
    err = capsys.readouterr().err
    assert "vigtavl_v1" in err and "vigtavl_v2" in err and len(err.strip().splitlines()) == 1
    record = GameRecord.from_dict(old["games"][0])
    assert record.state_version == "vigtavl_v1"
    with pytest.raises(ReplayError, match=r"played under vigtavl_v1.*\(vigtavl_v2\) cannot replay it"):
        rebuild(record)


def test_results_files_of_this_version_replay(match, tmp_path):
    """A ``vigtavl_v2`` results file, read back from disk, gives the very records."""
    saved = json.loads(match[1].read_text())
    assert saved["version"] == "vigtavl_v2"
    path = tmp_path / "v2.json"
    path.write_text(json.dumps(saved))
    assert load_record(path, 0) == match[0].records[0]
    assert final_tokens(rebuild(load_record(path, 0))) == match[0].records[0].tokens
