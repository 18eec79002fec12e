"""What a stop (SIGTERM) leaves for the resume after it (issue 60): the evaluation it interrupted
is played again when the run resumes, and AlphaZero's self-play keeps the games it finished (the
games still under way are dropped, and the stop says so). In-process tiny runs, the signal sent
by the run to itself at a chosen point."""

from __future__ import annotations

import csv
import os
import signal
from pathlib import Path

import pytest
import torch as th

from training.config import load_config
from training.stopping import TrainingStopped
from vigtavl_env.observation import ChannelLayout

ROOT = Path(__file__).resolve().parent.parent
QUICK = str(ROOT / "configs" / "ppo_quick.yaml")
CHANNELS_2P = ChannelLayout(2).n_channels  # this environment's, 2 players


def _sigterm_on_call(n: int, real):
    """``real``, which sends this process SIGTERM as its ``n``-th call begins."""
    calls = [0]

    def wrapped(*args, **kwargs):
        calls[0] += 1
        if calls[0] == n:
            os.kill(os.getpid(), signal.SIGTERM)
        return real(*args, **kwargs)
    return wrapped


def _evaluated_at(csv_path: Path) -> list[int]:
    with open(csv_path, newline="") as f:
        return [int(float(r["time/total_timesteps"])) for r in csv.DictReader(f) if r.get("eval/mean_win_rate")]


@pytest.mark.parametrize("cut, resumed_evaluations", [(2, [128, 256]), (3, [256])])
def test_the_evaluation_a_stop_interrupted_is_played_again_on_resume(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                                     cut: int, resumed_evaluations: list[int]) -> None:
    """SB3: evaluations at 0, 128 and 256 steps; SIGTERM during the ``cut``-th. The resume from
    the checkpoint of its steps plays it first, then trains on (the one at 256 being the last:
    nothing more to train, the evaluation alone, then the final model)."""
    import training.evaluate
    from training.train import train
    sets = ["total_timesteps=256", "n_steps=64", "batch_size=64", "n_epochs=1", "n_envs=1", "vec_env=dummy",
            "net.channels=4", "net.blocks=1", "net.hidden=[8]", "eval_every=128", "eval_games=2",
            "eval_opponents=[random]", "checkpoint_every=128", "opponents=[random]", "pretrain.teacher=null",
            "torch_threads=1", f"run_dir={tmp_path}", "run_name=r"]
    cfg = load_config(QUICK, sets)
    real = training.evaluate.evaluate_model
    monkeypatch.setattr(training.evaluate, "evaluate_model", _sigterm_on_call(cut, real))
    with pytest.raises(TrainingStopped) as stopped:
        train(cfg, progress=False)
    steps = resumed_evaluations[0]
    assert stopped.value.status == 143 and f"at {steps} steps" in str(stopped.value)
    run = tmp_path / "r"
    assert _evaluated_at(run / "progress.csv") == [0, 128][: cut - 1]

    monkeypatch.setattr(training.evaluate, "evaluate_model", real)
    train(cfg, resume=run, progress=False)
    assert _evaluated_at(run / f"progress-resume-{steps}.csv") == resumed_evaluations
    assert (run / "final_model.zip").is_file() and not (run / "eval_under_way.json").exists()


def test_a_stop_during_self_play_keeps_the_finished_games(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """az: two games at a time, each cut at 20 decisions, four a generation. SIGTERM in the 30th
    round of searches: games 1 and 2 are finished (their positions in the checkpoint's buffer),
    games 3 and 4 are 10 decisions in (dropped, and the stop says so). The resume plays two more."""
    from agents.az import AZNet, save_az_model
    from agents.gumbel import BatchedSearch
    from training.az import load_checkpoint, train_az
    from training.az_config import AZConfig
    from training.runs import newest_checkpoint
    th.manual_seed(0)
    start = tmp_path / "gen.pt"
    save_az_model(AZNet((CHANNELS_2P, 11, 11), 2, channels=4, blocks=1, hidden=[8]), start)
    cfg = load_config("az", [f"start_from={start}", "generations=1", "games_per_generation=4", "parallel_games=2",
                             "max_steps=20", "search.simulations=2", "search.considered=2", "updates_per_generation=1",
                             "batch_size=8", "eval_games=0", "buffer_size=1000", "checkpoint_minutes=0",
                             "device=cpu", "torch_threads=1", f"run_dir={tmp_path}", "run_name=r"], cls=AZConfig)
    monkeypatch.setattr(BatchedSearch, "run", _sigterm_on_call(30, BatchedSearch.run))
    with pytest.raises(TrainingStopped) as stopped:
        train_az(cfg, progress=False)
    assert stopped.value.status == 143
    assert "2 games under way dropped" in str(stopped.value), stopped.value
    run = tmp_path / "r"
    _, _, buffer, prog = load_checkpoint(newest_checkpoint(run, "az"), th.device("cpu"),
                                         lambda net: train_az_buffer(cfg, net))
    assert prog.stage == "selfplay" and prog.games_in_generation == prog.games == 2
    assert buffer.size == prog.positions > 0  # the finished games' positions, and only theirs

    monkeypatch.undo()
    train_az(cfg, resume=run, progress=False)
    _, _, buffer, prog = load_checkpoint(newest_checkpoint(run, "az"), th.device("cpu"),
                                         lambda net: train_az_buffer(cfg, net))
    assert prog.generation == 1 and prog.games == 4 and buffer.size == prog.positions


def train_az_buffer(cfg, net):
    from training.az import ReplayBuffer
    return ReplayBuffer(cfg.buffer_size, net.obs_shape, cfg.num_players, cfg.max_legal)
