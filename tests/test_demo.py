"""``make demo`` (training/demo.py) bounded by the clock, not by steps: cut to seconds here.

- a run with far more steps than the clock allows stops at its deadline, says how many steps it
  managed and why, and goes on: the evaluation, the curve against random in numbers, one game of
  the trained agent replayed in the terminal;
- SIGTERM (a scheduler, ``docker stop``) ends it in one line with status 143, no traceback.
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
TINY = ["total_timesteps=1000000000", "n_envs=2", "n_steps=32", "batch_size=32", "n_epochs=1",
        "net.channels=4", "net.blocks=1", "net.hidden=[8]", "eval_every=64", "eval_games=2",
        "checkpoint_every=0", "opponents=[random]"]
BUDGET_S = 8.0
STOP_GRACE_S = 60.0  # the run's stop, the evaluation and the replay after the deadline, on a busy machine


def _sets(items: list[str]) -> list[str]:
    return [arg for item in items for arg in ("--set", item)]


def test_the_demo_stops_at_its_deadline_and_shows_what_was_learned(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    from training.demo import main as demo_main
    started = time.perf_counter()
    args = ["--minutes", str(BUDGET_S / 60), "--games", "2", "--workers", "1"] + _sets(TINY + [f"run_dir={tmp_path}"])
    assert demo_main(args) == 0
    assert time.perf_counter() - started < BUDGET_S + STOP_GRACE_S
    out = capsys.readouterr().out
    trained = next(line for line in out.splitlines() if line.strip().startswith("trained "))
    steps = int(trained.split()[1].replace(",", ""))
    assert 0 < steps < 1_000_000_000 and "stopped by the clock after 0:" in trained
    assert "win rate against random (sampling its actions), by steps trained: " in out and " at 0" in out
    assert "game 0: seed 2000000" in out and "final tokens: " in out  # the replayed game
    run = next(tmp_path.glob("demo-*"))
    assert (run / "final_model.zip").is_file() and (run / "learning_curve.png").is_file()


def test_the_demo_stopped_by_sigterm_ends_in_one_line(tmp_path: Path) -> None:
    command = [sys.executable, "-m", "training.demo", "--minutes", "5", "--games", "2", "--workers", "1",
               *_sets(TINY + [f"run_dir={tmp_path}"])]
    env = {**os.environ, "OMP_NUM_THREADS": "1"}
    proc = subprocess.Popen(command, cwd=ROOT, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        assert proc.stdout.readline().startswith("1/4 training")  # the demo runs: stop it now
        time.sleep(2.0)
        proc.send_signal(signal.SIGTERM)
        _, err = proc.communicate(timeout=STOP_GRACE_S)
    finally:
        proc.kill()
    last = [line for line in err.splitlines() if line.strip()][-1]
    assert proc.returncode == 128 + signal.SIGTERM and "Traceback" not in err
    assert last.startswith("make demo: stopped by SIGTERM"), err[-500:]
