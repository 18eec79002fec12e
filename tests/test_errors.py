"""Bad input gets one clear line, never a traceback, and nothing half-done (issue #16, item 6):
one test per class of bad input, through the command line and the public constructors."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

import vigtavl_env
from arena.vigtavl_match import run_match
from vigtavl_env.aec_wrappers import ActionOutOfBoundsError
from vigtavl.cli import main as cli_main
from vigtavl_env.engine import IllegalActionError


@pytest.fixture(scope="module")
def results_file(tmp_path_factory: pytest.TempPathFactory) -> Path:
    path = tmp_path_factory.mktemp("results") / "two.json"
    run_match(["random", "random"], games=2, seed=1, progress=False).save(path)
    return path


def _one_line_error(capsys: pytest.CaptureFixture[str], argv: list[str], *needles: str) -> str:
    assert cli_main(argv) == 2
    err = capsys.readouterr().err.strip()
    assert len(err.splitlines()) == 1 and "Traceback" not in err, err
    for needle in needles:
        assert needle in err, err
    return err


# ------------------------------------------------------------------ results files
@pytest.mark.parametrize("damage, needle", [
    (lambda d: d["games"][0].pop("seed"), "missing seed"),
    (lambda d: d["games"][0].update(colour="red"), "unknown colour"),
    (lambda d: d.pop("games"), "no list of games"),
    (lambda d: d.update(games=[3]), "no list of games"),
    (lambda d: d["games"][0].update(game="zero"), "game is str"),
    (lambda d: d["games"][0].update(seats=3), "seats is not a list of str"),
    (lambda d: d["games"][0].update(truncated="no"), "truncated is str"),
])
def test_a_damaged_results_file_is_named_in_one_line(results_file, tmp_path, capsys, damage, needle):
    d = json.loads(results_file.read_text())
    damage(d)
    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps(d))
    _one_line_error(capsys, ["replay", str(bad)], str(bad), needle)


def test_a_truncated_results_file_is_named(results_file, tmp_path, capsys):
    cut = tmp_path / "cut.json"
    cut.write_text(results_file.read_text()[:-40])
    _one_line_error(capsys, ["replay", str(cut)], str(cut), "not valid JSON")


def test_a_folder_or_a_missing_file_as_results(tmp_path, capsys):
    _one_line_error(capsys, ["replay", str(tmp_path)], str(tmp_path))
    _one_line_error(capsys, ["replay", str(tmp_path / "none.json")], "none.json")


# ------------------------------------------------------------------ outputs
def test_out_pointing_at_a_folder_is_refused_before_any_game(tmp_path, capsys):
    err = _one_line_error(capsys, ["match", "--agents", "search:1000,search:1000", "--games", "50",
                                   "--out", str(tmp_path), "--no-progress"], "is a folder")
    assert "results.json" in err  # says what to give instead
    assert list(tmp_path.iterdir()) == []


def test_results_are_written_whole_or_not_at_all(results_file, tmp_path):
    out = tmp_path / "r.json"
    out.write_text("old")
    d = json.loads(results_file.read_text())
    d["unserialisable"] = object()
    from arena.records import save_results
    with pytest.raises(TypeError):
        save_results(d, out)
    assert out.read_text() == "old" and [p.name for p in tmp_path.iterdir()] == ["r.json"]


# ------------------------------------------------------------------ numbers on the command line
@pytest.mark.parametrize("argv", [
    ["match", "--agents", "random,random", "--workers", "0"],
    ["match", "--agents", "random,random", "--games", "-3"],
    ["evaluate", "--model", "pretrained", "--games", "0"],
    ["tournament", "--agents", "random,greedy", "--workers", "two"],
])
def test_counts_below_one_are_refused(argv, capsys):
    with pytest.raises(SystemExit) as stop:
        cli_main(argv)
    assert stop.value.code == 2
    err = capsys.readouterr().err
    assert "Traceback" not in err and ("at least 1" in err or "whole number" in err)


# ------------------------------------------------------------------ actions
@pytest.mark.parametrize("action", [True, 10**9, -1, 1.5, "x", None])
def test_an_action_outside_the_space_is_one_line(action):
    e = vigtavl_env.env(seed=0)
    e.reset(seed=0)
    with pytest.raises(ActionOutOfBoundsError, match=r"chose .*: an action is an int in 0\.\.6908") as err:
        e.step(action)
    assert "\n" not in str(err.value) and isinstance(err.value, (ValueError, AssertionError))
    assert e.unwrapped.game_state.decisions == 0  # nothing changed


def test_raw_env_refuses_a_bool_action():
    e = vigtavl_env.raw_env(seed=0)
    e.reset(seed=0)
    with pytest.raises(IllegalActionError, match="not a bool"):
        e.step(True)


# ------------------------------------------------------------------ constructors
@pytest.mark.parametrize("kwargs, needle", [
    ({"num_players": 5}, "num_players"),
    ({"reward": "gold"}, "reward"),
    ({"max_steps": 0}, "max_steps"),
    ({"max_cycles": 5, "max_steps": 6}, "not both"),
    ({"mask_in_info": "yes"}, "mask_in_info"),
    ({"map": "atlantis"}, "atlantis"),
])
def test_bad_env_options_are_one_line_value_errors(kwargs, needle):
    with pytest.raises(ValueError, match=needle) as err:
        vigtavl_env.raw_env(**kwargs)
    assert "\n" not in str(err.value)


# ------------------------------------------------------------------ matches: checked before the first game
@pytest.mark.parametrize("argv, needle", [
    (["match", "--agents", "greedy,greedy", "--map", "atlantis"], "unknown map 'atlantis'"),
    (["tournament", "--agents", "greedy,random", "--map", "atlantis"], "unknown map 'atlantis'"),
    (["match", "--agents", "greedy"], "2, 3 or 4 players"),
    (["tournament", "--agents", "greedy,nosuch"], "unknown agent 'nosuch'"),
])
def test_match_inputs_are_checked_before_any_game(argv, needle, capsys, monkeypatch):
    import arena.vigtavl_match as match
    monkeypatch.setattr(match, "play_game", lambda *a: pytest.fail("a game was played"))
    err = _one_line_error(capsys, argv + ["--games", "1", "--no-progress"], needle)
    assert err.lower().count("known agents") <= 1
