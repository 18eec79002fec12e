"""MaskablePPO on another game than Vigtavl (training/game_train.py): ``vigtavl train --game pig``
for a few hundred steps writes a run whose model plays as the agent ``ppo:PATH`` of that game;
the network's grid trunk takes any board; bad input is one line."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest
import torch as th
from gymnasium import spaces

from agents.game_ppo import PPOPlayer
from agents.generic import make_generic
from agents.network import GridConvExtractor, policy_spec
from arena.match import run_match
from arena.play import play_game
from training.config import ConfigError, load_config
from training.game_train import evaluate_game_model
from vigtavl.cli import main

FAST = ["n_envs=2", "n_steps=64", "batch_size=64", "n_epochs=1", "net.channels=8", "net.blocks=1",
        "net.hidden=[32]", "torch_threads=1", "checkpoint_minutes=0"]


def _train(tmp_path, game: str, steps: int, *extra: str) -> int:
    sets = [f"total_timesteps={steps}", f"run_dir={tmp_path}", f"run_name={game}", *FAST, *extra]
    return main(["train", "--game", game, "--no-progress", *[a for s in sets for a in ("--set", s)]])


@pytest.fixture(scope="module")
def pig_run(tmp_path_factory):
    tmp = tmp_path_factory.mktemp("pig")
    assert _train(tmp, "pig", 256, "eval_every=128", "eval_games=6") == 0
    return tmp / "pig"


def test_vigtavl_train_game_pig_writes_a_run(pig_run) -> None:
    for name in ("config.yaml", "final_model.zip", "best_model.zip", "best.json", "progress.csv"):
        assert (pig_run / name).is_file(), name
    log = pd.read_csv(pig_run / "progress.csv")
    assert log["time/total_timesteps"].max() == 256
    assert log["eval/win_rate_random"].dropna().size >= 2  # at 0 and after training
    assert log["game/win_rate"].dropna().between(0, 1).all()
    assert "game: pig" in (pig_run / "config.yaml").read_text()


def test_the_saved_model_plays_pig_as_an_agent_spec(pig_run) -> None:
    model = pig_run / "final_model.zip"
    players = [make_generic(f"ppo:{model}", 0), make_generic("random", 1)]
    rec = play_game("pig", players, seed=3, seats=[f"ppo:{model}", "random"])
    assert rec.returns and not rec.truncated
    three = [make_generic(f"ppo:{model}", 0), make_generic("random", 1), make_generic("random", 2)]
    assert play_game("pig", three, seed=4).returns  # pig's board keeps its shape for 2-4 players
    assert len(run_match("pig", [f"ppo:{model}", "random"], games=2)) == 2  # the arena's spec, agents.kinds
    result = evaluate_game_model("pig", model, "random", games=4, seed=10, sample=True)
    assert result.games == 4 and 0 <= result.wins <= 4


def test_evaluation_in_workers_plays_the_same_games(pig_run, capsys) -> None:
    model = pig_run / "final_model.zip"
    for seed in (10, 11):
        one = evaluate_game_model("pig", model, "random", games=13, seed=seed, sample=True)
        two = evaluate_game_model("pig", model, "random", games=13, seed=seed, sample=True, workers=2)
        assert (two.games, two.wins, two.truncated) == (one.games, one.wins, one.truncated)
    assert main(["evaluate", "--game", "pig", "--model", str(model), "--opponents", "random", "--games", "6",
                 "--workers", "2", "--no-progress"]) == 0
    assert "random" in capsys.readouterr().out
    with pytest.raises(SystemExit) as bad:
        main(["evaluate", "--game", "pig", "--model", str(model), "--workers", "0", "--no-progress"])
    assert bad.value.code == 2 and "must be at least 1" in capsys.readouterr().err


def test_sampling_is_seeded_and_legal(pig_run) -> None:
    from games.registry import load_game
    state = load_game("pig").new_state(2, seed=1)
    state.apply_action(0)
    picks = [[PPOPlayer(str(pig_run / "final_model.zip"), seed, sample=True)(state, [0, 1]) for _ in range(20)]
             for seed in (5, 5)]
    assert picks[0] == picks[1] and set(picks[0]) <= {0, 1}


def test_a_model_of_another_game_or_no_model_is_one_line(pig_run) -> None:
    from games.registry import load_game
    thrones = load_game("thrones").new_state(2, seed=0)
    player = make_generic(f"ppo:{pig_run / 'final_model.zip'}")
    with pytest.raises(ValueError, match="trained for boards") as e:
        player(thrones, thrones.legal_actions())
    assert "\n" not in str(e.value)
    for spec in ("ppo", f"ppo:{pig_run / 'nothing.zip'}", f"ppo:{pig_run / 'config.yaml'}"):
        with pytest.raises(ValueError) as e:
            make_generic(spec)
        assert "\n" not in str(e.value)


def test_thrones_trains_through_the_same_trainer(tmp_path) -> None:
    assert _train(tmp_path, "thrones", 128, "eval_every=0") == 0


def test_thrones_trains_the_convolutional_policy_too(tmp_path) -> None:
    """Thrones' actions are verb planes over its board (planar_actions), so policy cnn is taken;
    pig's are not, and it is refused in one line (test_bad_game_configs_are_one_line)."""
    assert load_config(None, ["game=thrones", "policy=cnn"]).policy == "cnn"
    assert _train(tmp_path, "thrones", 64, "eval_every=0", "policy=cnn") == 0
    state = __import__("games.registry", fromlist=["load_game"]).load_game("thrones").new_state(2, seed=4)
    model = tmp_path / "thrones" / "final_model.zip"
    assert PPOPlayer(str(model))(state.view_for(0), state.legal_actions()) in state.legal_actions()
    model = tmp_path / "thrones" / "final_model.zip"
    state = __import__("games.registry", fromlist=["load_game"]).load_game("thrones").new_state(2, seed=2)
    assert PPOPlayer(str(model))(state.view_for(0), state.legal_actions()) in state.legal_actions()


def test_the_grid_trunk_takes_any_board() -> None:
    for shape in [(6, 1, 4), (47, 9, 9)]:
        fe = GridConvExtractor(spaces.Box(-1, 1, shape, dtype=np.float32), channels=4, blocks=2)
        assert fe(th.zeros(3, *shape)).shape == (3, 4 * shape[1] * shape[2])
    cls, kwargs = policy_spec("cnn", 8, 1, [16], board="grid")  # Thrones' head (tests/test_training.py)
    assert kwargs["features_extractor_class"] is GridConvExtractor
    with pytest.raises(ValueError, match="board"):
        policy_spec("mlp", 8, 1, [16], board="square")


@pytest.mark.parametrize("sets,words", [
    (["game=nosuch"], "unknown game"), (["game=pig"], "policy mlp"),
    (["game=pig", "policy=mlp", "num_players=5"], "num_players|players"),
])
def test_bad_game_configs_are_one_line(sets: list[str], words: str) -> None:
    with pytest.raises(ConfigError, match=words) as e:
        load_config(None, sets)
    assert "\n" not in str(e.value)


def test_the_cli_refuses_a_bad_game_or_spec_in_one_line(tmp_path, capsys) -> None:
    assert main(["train", "--game", "nosuch", "--no-progress"]) == 2
    assert _train(tmp_path, "pig", 64, "opponents=[{name: nobody}]") == 2
    err = capsys.readouterr().err
    assert "unknown game 'nosuch'" in err and "unknown agent 'nobody'" in err
    assert "Traceback" not in err and not list(tmp_path.iterdir())  # refused before any folder


def test_a_pig_run_resumes_from_its_folder(tmp_path) -> None:
    assert _train(tmp_path, "pig", 128, "eval_every=0") == 0
    run = tmp_path / "pig"
    assert main(["train", "--resume", str(run), "--set", "total_timesteps=256", "--no-progress"]) == 0
    resumed = pd.read_csv(run / "progress-resume-128.csv")
    assert resumed["time/total_timesteps"].max() == 256


@pytest.mark.parametrize("during", ["learning", "evaluation"])
def test_sigterm_saves_a_checkpoint_and_says_how_to_resume(tmp_path, during: str) -> None:
    """Also in the middle of an evaluation (the first, at step 0, of 100,000 games): it is
    dropped at once, as Vigtavl's trainer drops one."""
    import os
    import signal
    import subprocess
    import sys
    import time
    from pathlib import Path
    evals = ["eval_every=0"] if during == "learning" else ["eval_every=64", "eval_games=100000"]
    sets = [*FAST, f"run_dir={tmp_path}", "run_name=stop", "total_timesteps=100000000", *evals,
            "checkpoint_every=0", "checkpoint_minutes=0.001"]
    cmd = [sys.executable, "-m", "vigtavl", "train", "--game", "pig", "--no-progress", *[a for s in sets for a in ("--set", s)]]
    proc = subprocess.Popen(cmd, cwd=Path(__file__).resolve().parent.parent, stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True, env={**os.environ, "PYTHONWARNINGS": "ignore"})
    run, deadline = tmp_path / "stop", time.monotonic() + 120
    while not (list((run / "checkpoints").glob("model_*_steps.zip")) if during == "learning"
               else (run / "eval_model.zip").exists()):
        assert proc.poll() is None and time.monotonic() < deadline, proc.communicate()[1] if proc.poll() else "slow"
        time.sleep(0.2)
    time.sleep(0.5)
    proc.send_signal(signal.SIGTERM)
    try:
        _, err = proc.communicate(timeout=30)
    except subprocess.TimeoutExpired:
        proc.kill()  # never left running
        raise AssertionError("still running 30 s after SIGTERM") from None
    assert proc.returncode == 143, err
    last = err.strip().splitlines()[-1]
    assert "stopped by SIGTERM" in last and f"--resume {run}" in last and "Traceback" not in err


def test_an_evaluation_game_past_its_decision_cap_is_cut(pig_run) -> None:
    capped = evaluate_game_model("pig", pig_run / "final_model.zip", "random", games=2, seed=0, max_decisions=3)
    assert capped.truncated == 2 and capped.wins == 0
    assert evaluate_game_model("pig", pig_run / "final_model.zip", "random", games=2, seed=0).truncated == 0
