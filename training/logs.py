"""What a run says and what it logs, for both trainers.

- One-line notices on stderr (:func:`say`, :func:`warn`): where the run writes, a damaged
  checkpoint passed over, a folder started again, a GPU asked for and not found. Never a
  traceback: what a person must act on fits in a line.
- The metrics log (:func:`make_logger`, :class:`RunLogger`): SB3's logger writing the run's CSV
  (``progress.csv``, or ``progress-resume-<timesteps>.csv`` for a resumed run: a log is never
  overwritten) and TensorBoard event files in ``tb/``. The RLlib trainer writes the same files
  through :class:`RunLogger`, so ``vigtavl plot`` reads either. Each file is made when the
  first row is written: a run that ends before it logs anything (a resume refused, a run
  stopped during its set-up, one resumed with nothing left to do) leaves no empty log behind.
"""

from __future__ import annotations

import importlib.util
import re
import sys
import warnings
from collections.abc import Callable
from pathlib import Path
from typing import Any

from stable_baselines3.common.logger import KVWriter


def say(message: str) -> None:
    """One line on stderr (stdout is for results)."""
    print(message, file=sys.stderr, flush=True)


def warn(message: str) -> None:
    say(f"warning: {message}")


def announce_run(run_dir: Path) -> None:
    """Where the run writes, and how to watch it live."""
    say(f"run folder {run_dir}; watch it live: tensorboard --logdir {run_dir / 'tb'}")


def metric_name(spec: str) -> str:
    """An agent spec as a log key suffix: ``search:200`` -> ``search_200``."""
    return re.sub(r"[^A-Za-z0-9_.-]+", "_", spec)


def make_logger(run_dir: Path, timesteps: int) -> Any:
    """SB3's logger: CSV (what ``vigtavl plot`` reads), plus TensorBoard (a dependency; skipped
    with a warning when it is missing from the environment)."""
    from stable_baselines3.common.logger import CSVOutputFormat, Logger
    name = "progress.csv" if timesteps == 0 else f"progress-resume-{timesteps}.csv"
    k = 1
    while (run_dir / name).exists():  # never overwrite a log (a second resume from the same checkpoint)
        k += 1
        name = f"progress-resume-{timesteps}-{k}.csv"
    formats: list[Any] = [OnFirstRow(lambda: CSVOutputFormat(str(run_dir / name)))]
    if importlib.util.find_spec("tensorboard") is not None:
        from stable_baselines3.common.logger import TensorBoardOutputFormat
        formats.append(OnFirstRow(lambda: TensorBoardOutputFormat(str(run_dir / "tb"))))
    else:
        warnings.warn("tensorboard is not installed (pip install tensorboard): this run logs to "
                      "its CSV only", stacklevel=2)
    return Logger(str(run_dir), formats)


class OnFirstRow(KVWriter):
    """An SB3 output format made when the first row comes (its file with it), not before."""

    def __init__(self, make: Callable[[], KVWriter]) -> None:
        self._make, self._out = make, None

    def write(self, key_values: dict[str, Any], key_excluded: dict[str, Any], step: int = 0) -> None:
        if self._out is None:
            self._out = self._make()
        self._out.write(key_values, key_excluded, step)

    def close(self) -> None:
        if self._out is not None:
            self._out.close()


class RunLogger:
    """Rows of metrics into the run's CSV and TensorBoard (SB3's logger), for trainers outside SB3."""

    def __init__(self, run_dir: Path, timesteps: int) -> None:
        self.logger = make_logger(run_dir, timesteps)

    def write(self, row: dict[str, Any]) -> None:
        for key, value in row.items():
            self.logger.record(key, value)
        self.logger.dump(int(row.get("time/total_timesteps", 0)))

    def close(self) -> None:
        self.logger.close()
