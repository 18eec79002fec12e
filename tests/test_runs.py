"""The run plumbing both trainers share, without training: schedules (training/schedule.py),
atomic saves (training/files.py), finding and checking checkpoints and reusing folders
(training/runs.py), stop signals (training/stopping.py), the device check and the Ray watchdog
(training/raylocal.py). The training runs that use them are in test_training.py."""

from __future__ import annotations

import os
import pickle
import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from agents.ppo import PRETRAINED_PATH
from training.config import learner_device, load_config, save_config
from training.files import TMP_MARK, remove_temporaries, save_model
from training.runs import (
    CONFIG_FILE, checkpoint_path, damage, newest_checkpoint, never_saved, open_run, plan_run,
)
from training.schedule import CheckpointSchedule, Every
from training.stopping import StopRequested, StopSignal

ROOT = Path(__file__).resolve().parent.parent


def _checkpoint(path: Path) -> Path:
    """A real SB3 checkpoint (the shipped model's file: every member loads)."""
    path.parent.mkdir(parents=True, exist_ok=True)
    shutil.copyfile(PRETRAINED_PATH, path)
    return path


# ------------------------------------------------------------------ schedules
def test_every_falls_due_at_multiples_counted_from_zero() -> None:
    every = Every(100, steps=130)  # a run resumed at 130: next at 200, as if it had never stopped
    assert [s for s in (150, 199, 200, 260, 512, 600, 601) if every.due(s)] == [200, 512, 600]
    assert not any(Every(0).due(s) for s in (0, 10**9))  # 0: never


def test_checkpoints_come_after_the_first_rollout_then_by_steps_and_minutes() -> None:
    schedule = CheckpointSchedule(every=1000, minutes=0.0, steps=0)
    assert [s for s in (64, 128, 999, 1000, 1064) if schedule.due(s)] == [64, 1000]
    clock = CheckpointSchedule(every=0, minutes=1e-6, steps=0)
    assert clock.due(64) and (time.sleep(0.01) or clock.due(65))
    never = CheckpointSchedule(every=0, minutes=0.0, steps=0)
    assert not any(never.due(s) for s in (64, 10**9))  # both off: saved only when stopped


# ------------------------------------------------------------------ atomic saves
class _DiesMidSave:
    """A model whose save writes half a zip, then the process 'dies' (an exception)."""

    def save(self, f: object) -> None:
        f.write(b"PK\x03\x04 half a zip")  # type: ignore[attr-defined]
        raise KeyboardInterrupt


def test_a_save_that_dies_midway_leaves_the_old_file_whole(tmp_path: Path) -> None:
    path = _checkpoint(tmp_path / "checkpoints" / "model_64_steps.zip")
    before = path.read_bytes()
    with pytest.raises(KeyboardInterrupt):
        save_model(_DiesMidSave(), path)
    assert path.read_bytes() == before and damage(path) is None
    assert not list(path.parent.glob(f"*{TMP_MARK}*"))  # its temporary went with it
    left = path.parent / f".model_128_steps.zip{TMP_MARK}999"  # what a kill -9 mid-save leaves
    left.write_bytes(b"PK")
    assert checkpoint_path(tmp_path, 64) == path and newest_checkpoint(tmp_path) == path
    remove_temporaries(tmp_path)
    assert not left.exists()


# ------------------------------------------------------------------ checkpoints
def test_a_damaged_newest_checkpoint_is_passed_over_with_one_line(tmp_path: Path,
                                                                  capsys: pytest.CaptureFixture[str]) -> None:
    for steps in (64, 128, 192):
        _checkpoint(tmp_path / "checkpoints" / f"model_{steps}_steps.zip")
    newest = tmp_path / "checkpoints" / "model_192_steps.zip"
    newest.write_bytes(newest.read_bytes()[:900])  # a save cut short (the kind os.replace prevents)
    assert newest_checkpoint(tmp_path).name == "model_128_steps.zip"
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and "model_192_steps.zip is damaged" in err[0] and "BadZipFile" in err[0]
    with pytest.raises(ValueError, match="damaged"):  # asked for by name: refused, in one line
        newest_checkpoint(newest)
    for steps in (64, 128):
        (tmp_path / "checkpoints" / f"model_{steps}_steps.zip").write_bytes(b"")
    with pytest.raises(ValueError, match="every checkpoint .* is damaged"):
        newest_checkpoint(tmp_path)


def test_rllib_checkpoints_are_folders_with_their_files(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    for steps in (64, 128):
        folder = tmp_path / "checkpoints" / f"rllib_{steps}"
        (folder / "learner_group").mkdir(parents=True)
        (folder / "rllib_checkpoint.json").write_text("{}")
        (folder / "class_and_ctor_args.pkl").write_bytes(pickle.dumps({}))
    (tmp_path / "checkpoints" / "rllib_128" / "rllib_checkpoint.json").unlink()
    assert newest_checkpoint(tmp_path, "rllib").name == "rllib_64"
    assert "rllib_128 is damaged (no rllib_checkpoint.json)" in capsys.readouterr().err


# ------------------------------------------------------------------ run folders
def test_a_folder_that_never_saved_is_started_again_and_one_in_use_is_refused(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    cfg = load_config(None, [f"run_dir={tmp_path}", "run_name=r"])
    run_dir = tmp_path / "r"
    save_config(cfg, run_dir / CONFIG_FILE)  # all a run killed during its set-up leaves
    (run_dir / "progress.csv").write_text("time/total_timesteps\n0\n")  # or a step-0 evaluation's log
    assert never_saved(run_dir)
    for plan in (plan_run(cfg, None, "x"), plan_run(cfg, run_dir, "x")):  # a new run, --resume
        assert plan.run_dir == run_dir and plan.checkpoint is None and plan.restart
    run = open_run(plan_run(cfg, None, "x"), cfg)
    assert "starting it again from scratch" in capsys.readouterr().err
    assert not (run_dir / "progress.csv").exists() and (run_dir / CONFIG_FILE).is_file()
    if sys.platform != "win32":
        with pytest.raises(ValueError, match="in use by another training process"):
            open_run(plan_run(cfg, run_dir, "x"), cfg)
    run.close()
    _checkpoint(checkpoint_path(run_dir, 64))
    with pytest.raises(ValueError, match="already holds a run"):
        plan_run(cfg, None, "x")
    assert plan_run(cfg, run_dir, "x").checkpoint == checkpoint_path(run_dir, 64)


# ------------------------------------------------------------------ stopping, the device
@pytest.mark.parametrize("sig, status", [(signal.SIGINT, 130), (signal.SIGTERM, 143)])
def test_a_stop_signal_raises_at_once_only_where_asked(sig: int, status: int) -> None:
    stop = StopSignal()
    stop.install()
    try:
        os.kill(os.getpid(), sig)  # outside at_once: only the flag
        time.sleep(0.05)
        assert stop.requested
        with pytest.raises(StopRequested):
            stop.check()
        stop.signum = 0
        with pytest.raises(StopRequested), stop.at_once():
            os.kill(os.getpid(), sig)
            time.sleep(5)  # never reached
    finally:
        stop.uninstall()
    stopped = stop.stopped("at 64 steps", Path("runs/x"))
    assert stopped.status == status and str(stopped).endswith("--resume runs/x")


def test_cuda_without_a_gpu_says_so_in_one_line(monkeypatch: pytest.MonkeyPatch,
                                                capsys: pytest.CaptureFixture[str]) -> None:
    import torch
    monkeypatch.setattr(torch.cuda, "is_available", lambda: False)
    assert learner_device("cuda") == "cpu" and learner_device("auto") == "cpu"
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and "no GPU" in err[0] and "training on the CPU" in err[0]  # auto says nothing
    monkeypatch.setattr(torch.cuda, "is_available", lambda: True)
    assert learner_device("auto") == learner_device("cuda") == "cuda" and learner_device("cpu") == "cpu"


# ------------------------------------------------------------------ the Ray watchdog
DRIVER = """
import os, subprocess, sys, time
from training.raylocal import children, start_watchdog
before = children(os.getpid())
head = subprocess.Popen([sys.executable, "-c", "import subprocess, time; subprocess.Popen(['sleep', '600']); time.sleep(600)"])
start_watchdog(children(os.getpid()) - before)
print(head.pid, flush=True)
time.sleep(600)
"""


@pytest.mark.skipif(not Path("/proc/self/stat").exists(), reason="the watchdog reads /proc (Linux)")
def test_the_watchdog_ends_what_a_driver_killed_by_sigkill_left() -> None:
    """As Ray's head processes and the agents under them: a child of the driver and its own
    child (the 'agent') outlive the driver's SIGKILL; the watchdog ends both."""
    from training.raylocal import alive, children, descendants
    driver = subprocess.Popen([sys.executable, "-c", DRIVER], cwd=ROOT, stdout=subprocess.PIPE, text=True)
    head_pid = int(driver.stdout.readline())  # type: ignore[union-attr]
    deadline = time.monotonic() + 20
    tree: set[tuple[int, int]] = set()
    while len(tree) < 2 and time.monotonic() < deadline:  # the head and its 'agent'
        tree = descendants({p for p in children(driver.pid) if p[0] == head_pid})
        time.sleep(0.1)
    assert len(tree) == 2
    time.sleep(1.5)  # the watchdog has seen the agent
    driver.kill()
    driver.wait()
    deadline = time.monotonic() + 10
    while any(alive(p) for p in tree) and time.monotonic() < deadline:
        time.sleep(0.1)
    assert not any(alive(p) for p in tree)
