"""``vigtavl az improve`` (training/search_selfplay.py, issue 58 item 2): Thrones' shipped model
plays itself, its policy before the reveal and the Gumbel search after it; the positions' targets,
the fit, the run folder, determinism, stop and resume, and bad input in one line."""

from __future__ import annotations

import csv
import os
import shutil
import signal

import numpy as np
import pytest
import torch as th

import training.search_selfplay as S
from agents.game_ppo import PPOPlayer
from games.registry import load_game
from vigtavl.cli import main

TINY = {"games": 2, "simulations": 2, "max_decisions": 170, "eval_games": 0, "epochs": 1}


def _settings(**kw) -> S.ImproveSettings:
    return S.ImproveSettings("thrones", str(S.model_path("pretrained", "thrones")), **(TINY | kw)).check()


def test_the_policy_plays_while_hidden_and_the_search_after(monkeypatch) -> None:
    seen = []
    run = S.BatchedSearch.run

    def spy(self, states, deadline=None):
        seen.extend(s.hidden_information() for s in states)
        return run(self, states, deadline)
    monkeypatch.setattr(S.BatchedSearch, "run", spy)
    data, stats = S.self_play(S.load_start("pretrained", "thrones"), _settings(), 1)
    assert seen and not any(seen)  # nothing hidden is ever searched
    targeted = data.policy.sum(1) > 0
    assert 0 < targeted.sum() == stats["selfplay/searched"] < len(data.value)  # the setups teach the value only
    legal = data.legal >= 0
    np.testing.assert_allclose(data.policy[targeted].sum(1), 1.0, atol=1e-5)
    assert not data.policy[~legal].any()  # targets only over legal actions
    assert set(np.unique(data.value)) <= {-1.0, 0.0, 1.0}
    assert stats["selfplay/positions"] == len(data.value) and data.obs.shape[1:] == (47, 9, 9)


def test_value_targets_are_each_players_result() -> None:
    class Finished:
        def __init__(self, returns, terminal=True):
            self._returns, self._terminal = returns, terminal

        def is_terminal(self):
            return self._terminal

        def returns(self):
            return self._returns
    obs = np.zeros((47, 9, 9), np.float32)
    rows = [[(obs, [3, 5], None, 0), (obs, [1, 2, 4], np.array([0.2, 0.3, 0.5]), 1)],
            [(obs, [7], None, 1)], [(obs, [8, 9], np.array([0.5, 0.5]), 0)]]
    data = S._positions([Finished([1.0, -1.0]), Finished([-1.0, 1.0]), Finished([0.0, 0.0], False)], rows)
    assert data.value.tolist() == [1.0, -1.0, 1.0, 0.0]  # the player's result; a cut game's 0
    assert data.legal.tolist() == [[3, 5, -1], [1, 2, 4], [7, -1, -1], [8, 9, -1]]
    np.testing.assert_allclose(data.policy[1], [0.2, 0.3, 0.5])
    assert not data.policy[0].any() and not data.policy[2].any()


def test_the_same_seed_gives_the_same_positions() -> None:
    model = S.load_start("pretrained", "thrones")
    a, _ = S.self_play(model, _settings(seed=4), 1)
    b, _ = S.self_play(model, _settings(seed=4), 1)
    c, _ = S.self_play(model, _settings(seed=5), 1)
    assert all(np.array_equal(x, y) for x, y in zip((a.obs, a.legal, a.policy, a.value), (b.obs, b.legal, b.policy, b.value)))
    assert not np.array_equal(a.obs, c.obs) or not np.array_equal(a.legal, c.legal)


def test_the_fit_moves_the_policy_toward_the_search() -> None:
    model = S.load_start("pretrained", "thrones")
    data, _ = S.self_play(model, _settings(), 1)
    rows = np.flatnonzero(data.policy.sum(1) > 0)

    def cross_entropy() -> float:
        obs = th.as_tensor(data.obs[rows]).float()
        with th.no_grad():
            logits = S.policy_logits(model.policy, obs)
        total = 0.0
        for k, r in enumerate(rows):
            legal = data.legal[r][data.legal[r] >= 0]
            logp = th.log_softmax(logits[k, legal], 0).numpy()
            total -= float((data.policy[r][:len(legal)] * logp).sum())
        return total / len(rows)
    before = cross_entropy()
    S.fit(model, data, _settings(epochs=4, learning_rate=1e-3), 1)
    assert cross_entropy() < before


def test_a_run_saves_generations_that_play_and_resumes(tmp_path) -> None:
    run_dir, s = S.start_run("thrones", "pretrained", tmp_path / "run", **TINY)
    S.improve(run_dir, s, 1, progress=False)
    assert S.saved_generations(run_dir) == [0, 1]
    g0, g1 = (S.load_start(str(S.generation_path(run_dir, k)), "thrones") for k in (0, 1))
    assert any(not th.equal(a, b) for a, b in zip(g0.policy.state_dict().values(), g1.policy.state_dict().values()))
    state = load_game("thrones").new_state(2, 0)
    player = PPOPlayer(str(S.generation_path(run_dir, 1)), game="thrones")
    assert player(state.view_for(state.current_player()), state.legal_actions()) in state.legal_actions()
    again_dir, again = S.resume_run(run_dir)
    assert again == s
    S.improve(again_dir, again, 2, progress=False)
    with (run_dir / S.PROGRESS_FILE).open() as f:
        rows = list(csv.DictReader(f))
    assert [r["generation"] for r in rows] == ["1", "2"]
    assert float(rows[1]["time/total_timesteps"]) == sum(float(r["selfplay/searched"]) for r in rows)
    assert sorted(p.name for p in (run_dir / "positions").iterdir()) == ["gen_1.npz", "gen_2.npz"]  # window 2
    assert (run_dir / S.CURVE_PNG).is_file()


def test_a_generation_saved_without_its_row_is_played_again(tmp_path) -> None:
    """A stop during a generation's evaluation leaves its model without its progress row."""
    run_dir, s = S.start_run("thrones", "pretrained", tmp_path / "run", **TINY)
    S.improve(run_dir, s, 1, progress=False)
    shutil.copy(S.generation_path(run_dir, 1), S.generation_path(run_dir, 2))  # no row for it
    assert S.done_generations(run_dir) == 1
    S.improve(run_dir, s, 2, progress=False)
    with (run_dir / S.PROGRESS_FILE).open() as f:
        assert [r["generation"] for r in csv.DictReader(f)] == ["1", "2"]
    assert S.done_generations(run_dir) == 2


def test_a_stop_keeps_the_saved_generations_and_says_how_to_go_on(tmp_path, monkeypatch, capsys) -> None:
    run_dir = tmp_path / "run"
    assert main(["az", "improve", "--game", "thrones", "--generations", "1", "--games", "2", "--simulations", "2",
                 "--eval-games", "0", "--out", str(run_dir), "--no-progress"]) == 0
    fit = S.fit

    def killed(*args, **kwargs):
        os.kill(os.getpid(), signal.SIGTERM)
        return fit(*args, **kwargs)
    monkeypatch.setattr(S, "fit", killed)
    assert main(["az", "improve", "--game", "thrones", "--generations", "3", "--resume", str(run_dir),
                 "--no-progress"]) == 128 + signal.SIGTERM
    err = capsys.readouterr().err.strip().splitlines()[-1]
    assert err.startswith("vigtavl az improve: stopped by SIGTERM after generation 1")
    assert err.endswith(f"continue with: vigtavl az improve --game thrones --generations 3 --resume {run_dir}")
    assert S.saved_generations(run_dir) == [0, 1]
    with (run_dir / S.PROGRESS_FILE).open() as f:
        assert len(list(csv.DictReader(f))) == 1


@pytest.mark.parametrize("args, words", [
    (["--game", "vigtavl"], "another game's PPO model"),
    (["--game", "nogame"], "unknown game"),
    (["--game", "thrones", "--simulations", "5000"], "simulations takes a whole number in 1-1000"),
    (["--game", "thrones", "--eval-games", "-1"], "eval_games takes"),
    (["--game", "thrones", "--eval-opponent", "nobody"], "unknown agent 'nobody'"),
    (["--game", "thrones", "--model", "missing.zip"], "does not exist"),
    (["--game", "thrones", "--resume", "."], "not an improve run"),
])
def test_bad_input_is_one_line_before_any_folder(tmp_path, capsys, args, words) -> None:
    out = tmp_path / "run"
    given = args if "--resume" in args else [*args, "--out", str(out)]
    assert main(["az", "improve", "--generations", "1", "--no-progress", *given]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and words in err[0]
    assert not out.exists()


def test_a_model_that_is_no_model_is_one_line(tmp_path, capsys) -> None:
    bad = tmp_path / "bad.zip"
    bad.write_bytes(b"not a zip")
    assert main(["az", "improve", "--game", "thrones", "--generations", "1", "--model", str(bad),
                 "--out", str(tmp_path / "run")]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and "cannot be loaded" in err[0] and not (tmp_path / "run").exists()


def test_resume_takes_no_new_settings(tmp_path, capsys) -> None:
    run_dir, _ = S.start_run("thrones", "pretrained", tmp_path / "run", **TINY)
    assert main(["az", "improve", "--game", "thrones", "--generations", "2", "--resume", str(run_dir),
                 "--games", "4"]) == 2
    assert "no --games" in capsys.readouterr().err
    assert main(["az", "improve", "--game", "pig", "--generations", "2", "--resume", str(run_dir)]) == 2
    assert "a run of thrones, not pig" in capsys.readouterr().err
    assert S.saved_generations(run_dir) == [0]
