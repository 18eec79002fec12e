"""Stopping a run cleanly on Ctrl-C (SIGINT) or SIGTERM, for both trainers.

A signal to the trainer (or to its whole process group: ``docker stop``, Kubernetes, Slurm,
``timeout``) ends the run within seconds, well inside the grace period before a SIGKILL (10 s
for docker, 30 s for Kubernetes):

- during a rollout the trainer checks the flag at every step (:meth:`StopSignal.check`);
- during work that is thrown away when stopped -- the set-up (envs, model, cloning the teacher,
  starting Ray), an evaluation, an RLlib iteration -- the handler raises at once
  (:meth:`StopSignal.at_once`);
- during a PPO update the learner's optimizer checks it around each step
  (:meth:`StopSignal.guard`): the update stops after the minibatch it is on, never inside an
  optimizer step, so the weights saved are whole (a big network's update takes far longer than
  a scheduler's grace period on a CPU: half a minute on 2 busy cores for configs/ppo_vs_bots.yaml).

The exception is :class:`StopRequested`, a ``KeyboardInterrupt`` so that no ``except
Exception`` on the way swallows it and the match runner stops its workers as on Ctrl-C. The
trainer then saves a checkpoint and raises :class:`TrainingStopped`, whose ``status`` is what a
shell reports for a process ended by the signal: 128 + its number (130 SIGINT, 143 SIGTERM).
Worker processes ignore both signals (``arena.vigtavl_match.ignore_stop_signals``): the trainer closes
them.
"""

from __future__ import annotations

import signal
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

STOP_SIGNALS = (signal.SIGINT, signal.SIGTERM)
SIGNAL_EXIT_BASE = 128  # a process ended by signal N exits with 128 + N (shell convention)


class StopRequested(KeyboardInterrupt):
    """A stop signal arrived: unwinds to the trainer, which saves a checkpoint. ``signum``: the
    signal (read by the match runner as it stops its workers)."""

    def __init__(self, signum: int) -> None:
        super().__init__(signal.Signals(signum).name)
        self.signum = signum


class TrainingStopped(Exception):
    """A run stopped by Ctrl-C or SIGTERM, after saving what it could (the message says how to go
    on); ``status``: the exit status for it (130 or 143); ``run_dir``: its folder, if it had one."""

    def __init__(self, message: str, status: int, run_dir: Path | None = None) -> None:
        super().__init__(message)
        self.status, self.run_dir = status, run_dir


class StopSignal:
    """Takes over SIGINT and SIGTERM while installed (main thread only; elsewhere signals stay
    as they are). A signal sets :attr:`signum`; inside :meth:`at_once` it also raises."""

    def __init__(self) -> None:
        self.signum = 0
        self._at_once = 0  # inside at_once: a signal raises
        self._in_step = 0  # inside an optimizer step: it never does
        self._previous: dict[int, Any] = {}

    @property
    def requested(self) -> bool:
        return bool(self.signum)

    @property
    def name(self) -> str:
        return signal.Signals(self.signum).name if self.signum else ""

    def install(self) -> None:
        """Take the signals (again: ``ray.init`` puts a SIGTERM handler of its own in place)."""
        for sig in STOP_SIGNALS:
            try:
                previous = signal.signal(sig, self._handle)
            except ValueError:  # not the main thread
                continue
            self._previous.setdefault(sig, previous)

    def uninstall(self) -> None:
        for sig, handler in self._previous.items():
            if handler is not None:  # None: a handler not set from Python, which cannot be put back
                signal.signal(sig, handler)
        self._previous.clear()

    def check(self) -> None:
        """Raise :class:`StopRequested` if a signal arrived."""
        if self.signum:
            raise StopRequested(self.signum)

    @contextmanager
    def at_once(self) -> Iterator[None]:
        """Inside, a signal raises :class:`StopRequested` where the program is (one that came
        before raises on entry): for work that is thrown away when the run stops."""
        self._at_once += 1
        try:
            self.check()
            yield
        finally:
            self._at_once -= 1

    def guard(self, optimizer: Any) -> None:
        """Stop a torch optimizer's user right before or right after a step, never inside one
        (its step hooks; with :meth:`at_once` around the update, the handler waits for the step)."""
        optimizer.register_step_pre_hook(self._before_step)
        optimizer.register_step_post_hook(self._after_step)

    def _before_step(self, optimizer: Any, args: Any, kwargs: Any) -> None:
        self.check()
        self._in_step += 1

    def _after_step(self, optimizer: Any, args: Any, kwargs: Any) -> None:
        self._in_step -= 1
        self.check()

    def stopped(self, what: str, run_dir: Path | None, command: str = "vigtavl train") -> TrainingStopped:
        """The exception that ends a stopped run: ``what`` was saved, and how to go on
        (``command``: the trainer's, ``vigtavl az train`` for the az loop)."""
        go_on = f"; continue with: {command} --resume {run_dir}" if run_dir is not None else ""
        return TrainingStopped(f"stopped by {self.name} {what}{go_on}", SIGNAL_EXIT_BASE + self.signum, run_dir)

    def _handle(self, signum: int, frame: Any) -> None:
        self.signum = signum
        if self._at_once and not self._in_step:
            raise StopRequested(signum)
