"""``make demo``: the project's main job in a few minutes -- train, evaluate, see it improve.

::

    python -m training.demo [--config ppo_quick] [--minutes 4] [--games 20] [--set key=value ...]

1. ``vigtavl train`` on the quick config (PPO from scratch against random and greedy, on the
   batched vector env) into ``runs/demo-<time>/``, bounded by the clock, not by steps: after
   ``--minutes`` of training (:data:`TRAINING_MINUTES`; the set-up of ``.venv`` is not counted)
   the run is stopped as a Ctrl-C stops it (a checkpoint saved), and the demo says how many steps
   it managed and why it stopped; the network of that moment is the run's ``final_model.zip``.
   It evaluates itself against random every :data:`EVAL_EVERY` steps (:data:`EVAL_GAMES` games,
   sampling its actions), so a short run still draws a curve;
2. ``vigtavl evaluate`` of that model against random and greedy, seats rotated;
3. its curve against random, as numbers (and ``vigtavl plot``'s picture in the run folder);
4. one game of the trained agent against random, replayed in the terminal (``vigtavl replay``'s
   narration, without the maps), and how to play against it.

Stopped by Ctrl-C or SIGTERM, the demo ends in one line, as ``vigtavl train`` does, with the
status a shell gives the signal (130, 143).
"""

from __future__ import annotations

import argparse
import os
import re
import shutil
import signal
import sys
import threading
import time
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

QUICK = "ppo_quick"  # a shipped config (training/config.py)
OPPONENTS = ["random", "greedy"]
TRAINING_MINUTES = 4.0  # the clock's budget for training: the demo's whole run stays within minutes
EVAL_EVERY = 4096  # steps between the run's own evaluations: a point of the curve every minute or so
EVAL_GAMES = 12  # games against random per point of the curve
SECONDS_PER_MINUTE = 60
STEPS_IN_NAME = re.compile(r"model_(\d+)_steps\.zip")


class Clock:
    """Stops a run at its deadline as Ctrl-C would (the trainer saves a checkpoint and raises
    :class:`~training.stopping.TrainingStopped`); :attr:`rang` tells the clock's stop from a
    person's. ``interrupt`` sends the stop (tests give their own)."""

    def __init__(self, seconds: float, interrupt: Callable[[], None] | None = None) -> None:
        self.seconds = seconds
        self.rang = False
        self._interrupt = interrupt or (lambda: os.kill(os.getpid(), signal.SIGINT))
        self._lock = threading.Lock()
        self._running = False
        self._timer = threading.Timer(seconds, self._ring)
        self._timer.daemon = True
        self.started = 0.0

    def _ring(self) -> None:
        with self._lock:
            if self._running:
                self.rang = True
                self._interrupt()

    def __enter__(self) -> "Clock":
        self.started = time.perf_counter()
        self._running = True
        self._timer.start()
        return self

    def __exit__(self, *exc: Any) -> None:
        with self._lock:
            self._running = False
        self._timer.cancel()

    @property
    def elapsed(self) -> float:
        return time.perf_counter() - self.started


def minutes_seconds(seconds: float) -> str:
    return f"{int(seconds) // SECONDS_PER_MINUTE}:{int(seconds) % SECONDS_PER_MINUTE:02d}"


def train_on_the_clock(cfg: Any, seconds: float, interrupt: Callable[[], None] | None = None) -> tuple[Path, str]:
    """Train ``cfg`` for at most ``seconds`` of wall clock; the run folder (its ``final_model.zip``
    the network at the end) and a line saying how many steps it managed and why it stopped.
    Raises :class:`~training.stopping.TrainingStopped` when a person stopped it, or when the clock
    rang before anything was saved."""
    from training.stopping import TrainingStopped
    from training.train import train
    with Clock(seconds, interrupt) as clock:
        try:
            run = train(cfg, config_name="demo")
        except TrainingStopped as e:
            if not clock.rang:
                raise
            if "checkpoint " not in str(e):
                raise TrainingStopped(f"the clock ({minutes_seconds(seconds)}) ran out during the set-up, before "
                                      "any training: give it more --minutes", 1) from None
            run = run_folder_of(str(e))
        took = clock.elapsed
    if clock.rang:
        checkpoint = newest_model(run)
        shutil.copyfile(checkpoint, run / "final_model.zip")
        steps = int(STEPS_IN_NAME.fullmatch(checkpoint.name).group(1))
        why = f"stopped by the clock after {minutes_seconds(took)} (the budget: --minutes)"
    else:
        steps = cfg.total_timesteps
        why = f"finished its {cfg.total_timesteps:,} steps in {minutes_seconds(took)}, before the clock"
    return run, f"trained {steps:,} steps: {why}"


def run_folder_of(message: str) -> Path:
    """The run folder a stopped run names ("... continue with: vigtavl train --resume RUN")."""
    return Path(message.rsplit("--resume ", 1)[1].strip())


def newest_model(run: Path) -> Path:
    found = sorted((int(m.group(1)), p) for p in (run / "checkpoints").glob("model_*_steps.zip")
                   if (m := STEPS_IN_NAME.fullmatch(p.name)))
    return found[-1][1]


def curve_words(run: Path) -> str:
    """The run's win rate against random at each of its evaluations, as one line."""
    from training.plot import column, read_logs
    steps, rates = column(read_logs(run), "eval/win_rate_random")
    points = " -> ".join(f"{rate:.2f} at {int(step):,}" for step, rate in zip(steps, rates))
    return f"win rate against random (sampling its actions), by steps trained: {points or 'no evaluation'}"


def replay_one_game(model: Path, seed: int, map: str | None, max_steps: int) -> None:
    """One game of the trained agent (player_0) against random, narrated in the terminal."""
    from arena.vigtavl_match import run_match
    from arena.replay import print_replay
    record = run_match([f"ppo:{model}", "random"], games=1, seed=seed, map=map, progress=False,
                       max_steps=max_steps).records[0]
    print_replay(record, maps=False)


def main(argv: Sequence[str] | None = None) -> int:
    p = argparse.ArgumentParser(prog="python -m training.demo", description=__doc__.split("\n")[0])
    p.add_argument("--config", default=QUICK, help="training config: a file or a shipped config's name "
                                                   "(default: ppo_quick)")
    p.add_argument("--minutes", type=float, default=TRAINING_MINUTES,
                   help=f"minutes of training on the clock (default {TRAINING_MINUTES:g})")
    p.add_argument("--games", type=int, default=20, help="evaluation games per opponent (default 20)")
    p.add_argument("--workers", type=int, default=2, help="evaluation worker processes (default 2)")
    p.add_argument("--set", action="append", default=[], metavar="KEY=VALUE", help="config override")
    args = p.parse_args(argv)
    from arena.vigtavl_match import sigterm_as_interrupt
    from training.stopping import SIGNAL_EXIT_BASE
    try:
        with sigterm_as_interrupt():  # outside the training too, SIGTERM stops as Ctrl-C does
            return demo(args)
    except KeyboardInterrupt as e:  # a stop after the training (evaluation, replay): one line too
        signum = int(getattr(e, "signum", signal.SIGINT))
        print(f"make demo: stopped by {signal.Signals(signum).name} after the training", file=sys.stderr)
        return SIGNAL_EXIT_BASE + signum


def demo(args: argparse.Namespace) -> int:
    from training.config import load_config
    from training.evaluate import evaluate_model, evaluation_table
    from training.plot import plot_run
    from training.stopping import TrainingStopped

    cfg = load_config(args.config, [f"run_name=demo-{time.strftime('%Y%m%d-%H%M%S')}", f"eval_every={EVAL_EVERY}",
                                    f"eval_games={EVAL_GAMES}", "eval_opponents=[random]", *args.set])
    print(f"1/4 training on {args.config} for at most {args.minutes:g} minutes "
          f"(or {cfg.total_timesteps:,} steps, whichever comes first)", flush=True)
    try:
        run, said = train_on_the_clock(cfg, args.minutes * SECONDS_PER_MINUTE)
    except TrainingStopped as e:  # a person's Ctrl-C or SIGTERM: one line, as vigtavl train says it
        print(f"make demo: {e}", file=sys.stderr)
        return e.status
    print(f"    {said}; {run}", flush=True)

    model = run / "final_model.zip"
    print(f"\n2/4 evaluating {model} against {', '.join(OPPONENTS)} ({args.games} games each)", flush=True)
    results = evaluate_model(model, OPPONENTS, args.games, seed=1_000_000, workers=args.workers,
                             map=cfg.map, max_steps=cfg.max_steps)
    print(evaluation_table(model, results))

    curve = plot_run(run, run / "learning_curve.png")
    print(f"\n3/4 {curve_words(run)}\n    the picture: {curve}")
    print("\n4/4 one game of the trained agent (player_0) against random:", flush=True)
    replay_one_game(model, seed=2_000_000, map=cfg.map, max_steps=cfg.max_steps)
    print(f"\nplay against it:  vigtavl play --opponent ppo:{model}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
