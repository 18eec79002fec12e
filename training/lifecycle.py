"""One run's life, the same for every trainer (PPO on SB3, PPO on RLlib, AlphaZero, any game):
the stop signals, the run folder, the logger and what else the run holds, and the checkpoint
saved when a signal stops it.

    with RunLifecycle("vigtavl train") as life:
        with life.setting_up():              # a signal here drops the set-up where it is
            env = life.own(make_env())       # closed at the end, whatever happens
            life.run = open_run(plan, cfg)
        life.on_stop(lambda: f"at {n:,} steps; checkpoint {save()}")
        ...                                  # learn; life.stop.check() between steps

On Ctrl-C or SIGTERM (:mod:`training.stopping`) the saver runs and the run ends with
:class:`~training.stopping.TrainingStopped`, saying what was saved and how to resume; before a
saver is set, nothing new is saved. Whatever ends the run, the signals are given back and what
it owns is closed, the last taken first.
"""

from __future__ import annotations

from collections.abc import Callable
from contextlib import ExitStack
from types import TracebackType
from typing import Any, TypeVar

from training.stopping import StopSignal

T = TypeVar("T")
NOTHING_SAVED = "during set-up, before saving anything new"


class RunLifecycle:
    """The context a trainer runs in (module docstring); ``command`` is the trainer's, named in
    the line that says how to resume."""

    def __init__(self, command: str = "vigtavl train") -> None:
        self.command = command
        self.stop = StopSignal()
        self.run: Any = None  # the run folder (training.runs.Run), closed last of all
        self._saver: Callable[[], str] | None = None
        self._parts = ExitStack()

    def __enter__(self) -> "RunLifecycle":
        self.stop.install()
        return self

    def setting_up(self) -> Any:
        """Work that is thrown away when the run stops (the set-up, an evaluation)."""
        return self.stop.at_once()

    def own(self, part: T) -> T:
        """``part`` (anything with ``close()``) is closed when the run ends."""
        if part is not None:
            self._parts.callback(part.close)  # type: ignore[attr-defined]
        return part

    def at_end(self, fn: Callable[[], Any]) -> None:
        """Call ``fn`` when the run ends (a cleanup that needs more than ``close()``)."""
        self._parts.callback(fn)

    def on_stop(self, saver: Callable[[], str]) -> None:
        """From now on a stop runs ``saver``, which saves and says what (``"at 1,024 steps;
        checkpoint runs/x/checkpoints/model_1024.zip"``)."""
        self._saver = saver

    def __exit__(self, kind: type[BaseException] | None, error: BaseException | None,
                 tb: TracebackType | None) -> bool:
        try:
            if kind is not None and issubclass(kind, KeyboardInterrupt) and self.stop.requested:
                what = self._saver() if self._saver is not None else NOTHING_SAVED
                raise self.stop.stopped(what, self.run.dir if self.run is not None else None,
                                        self.command) from None
        finally:
            self.stop.uninstall()
            try:
                self._parts.close()
            finally:
                if self.run is not None:
                    self.run.close()
        return False
