"""A run's folder and its checkpoints, for both trainers: where a run starts, and where its
checkpoints are found.

::

    runs/<run>/
        config.yaml      the resolved config; it makes a folder a run folder
        checkpoints/     model_<steps>_steps.zip (SB3), rllib_<steps>/ (RLlib) or az_<positions>/
                         (vigtavl az: network, optimizer, counters and replay buffer), saved atomically
        final_model.zip  the trained policy (both backends save SB3's format)
        .lock            held by the process that trains in the folder (one at a time)

Starting (:func:`plan_run`, which writes nothing, then :func:`open_run`):

- a new run takes ``run_dir/run_name`` (a timestamped name by default). A folder that already
  holds a run is refused, unless that run never saved anything (no checkpoint, no final model:
  it was stopped or killed during its set-up): it is started again in place, with one line.
- ``--resume RUN_DIR`` continues from the run's newest checkpoint. A damaged one (a truncated
  zip, a whole zip holding a cut member, an RLlib checkpoint missing its files: each member is
  read as its loader reads it, :mod:`training.damage`) is passed over with a one-line warning
  naming it, for the one before it. A run that never saved starts again from scratch, with one line.
- ``--resume CHECKPOINT`` continues from that checkpoint (refused in one line if damaged); a
  checkpoint outside a run folder starts a new folder.
"""

from __future__ import annotations

import os
import re
import shutil
import time
from dataclasses import dataclass
from pathlib import Path
from typing import IO, Any

from training.config import TrainConfig, save_config
from training.damage import damage
from training.files import remove_temporaries
from training.logs import say, warn

CONFIG_FILE = "config.yaml"
LEAGUE_FILE = "league.json"
BEST_FILE = "best.json"
FINAL_MODEL = "final_model.zip"
CHECKPOINTS = "checkpoints"
LOCK_FILE = ".lock"
CHECKPOINT_NAMES = {"sb3": "model_{}_steps.zip", "rllib": "rllib_{}", "az": "az_{}"}  # by backend
CHECKPOINT_PATTERNS = {"sb3": re.compile(r"model_(\d+)_steps\.zip"), "rllib": re.compile(r"rllib_(\d+)"),
                       "az": re.compile(r"az_(\d+)")}
FOLDER_BACKENDS = ("rllib", "az")  # whose checkpoints are folders
# What a start that saved nothing may have written, cleared before the folder is used again
UNSAVED_LEFTOVERS = ("progress*.csv", "tb", "eval_model.zip", "eval_under_way.json", "best_model.zip", BEST_FILE,
                     LEAGUE_FILE, "snapshots", "rllib_state.json", "pretrained_model.zip")


# ------------------------------------------------------------------ checkpoints
def checkpoint_path(run_dir: Path, timesteps: int, backend: str = "sb3") -> Path:
    """Where the checkpoint of ``timesteps`` goes (SB3's: CheckpointCallback's naming)."""
    return run_dir / CHECKPOINTS / CHECKPOINT_NAMES[backend].format(timesteps)


def is_checkpoint(path: Path, backend: str = "sb3") -> bool:
    """Whether ``path`` is named as a checkpoint of ``backend`` (a file for SB3, a folder for RLlib)."""
    return bool(CHECKPOINT_PATTERNS[backend].fullmatch(path.name)) and (
        path.is_dir() if backend in FOLDER_BACKENDS else path.is_file())


def checkpoints(folder: Path, backend: str = "sb3") -> list[Path]:
    """The checkpoints of ``backend`` in ``folder`` (or its ``checkpoints`` folder), newest first."""
    folder = folder / CHECKPOINTS if (folder / CHECKPOINTS).is_dir() else folder
    found = [(int(m.group(1)), p) for p in folder.glob("*")
             if (m := CHECKPOINT_PATTERNS[backend].fullmatch(p.name)) and is_checkpoint(p, backend)]
    return [p for _, p in sorted(found, reverse=True)]


def newest_checkpoint(path: str | Path, backend: str = "sb3") -> Path:
    """What ``--resume`` continues from: the checkpoint given, or the newest undamaged
    checkpoint of a run folder (or of its ``checkpoints`` folder), a damaged newer one passed
    over with a warning."""
    path = Path(path)
    if path.is_file() if backend == "sb3" else is_checkpoint(path, backend):  # one checkpoint (SB3: any model .zip)
        why = damage(path, backend)
        if why:
            raise ValueError(f"checkpoint {path} is damaged ({why}); resume its run folder to take "
                             "the newest good one")
        return path
    if not path.is_dir():
        raise FileNotFoundError(f"nothing to resume at {path}: give a run folder or a checkpoint "
                                + (f"folder ({CHECKPOINT_NAMES[backend].format('<steps>')})"
                                   if backend in FOLDER_BACKENDS else ".zip"))
    found = checkpoints(path, backend)
    if not found:
        name = CHECKPOINT_NAMES[backend].format("<steps>")
        raise FileNotFoundError(f"no checkpoint to resume in {path} ({name}); the run stopped "
                                f"before its first one: start it again under another run_name")
    for checkpoint in found:
        why = damage(checkpoint, backend)
        if why is None:
            return checkpoint
        warn(f"checkpoint {checkpoint} is damaged ({why}): passed over for the one before it")
    raise ValueError(f"every checkpoint in {path} is damaged; nothing to resume")


# ------------------------------------------------------------------ run folders
def find_run_dir(path: str | Path) -> Path | None:
    """The run folder of ``path``: a run folder itself, its ``checkpoints`` folder, or a
    checkpoint or model in either (None: not inside a run folder)."""
    path = Path(path)
    candidates = [path]
    if path.is_file() or path.name == CHECKPOINTS or any(is_checkpoint(path, b) for b in FOLDER_BACKENDS):
        candidates += [path.parent, path.parent.parent]
    return next((c for c in candidates if (c / CONFIG_FILE).is_file()), None)


def never_saved(run_dir: Path) -> bool:
    """A run folder whose run saved no checkpoint and no final model (stopped during set-up)."""
    return ((run_dir / CONFIG_FILE).is_file() and not (run_dir / FINAL_MODEL).exists()
            and not any(checkpoints(run_dir, backend) for backend in CHECKPOINT_NAMES))


@dataclass
class RunPlan:
    """Where a run starts: its folder, the checkpoint it continues (None: from scratch), and
    whether the folder holds a start that saved nothing (cleared, then used again)."""

    run_dir: Path
    checkpoint: Path | None = None
    restart: bool = False


def plan_run(cfg: TrainConfig | Any, resume: str | Path | None, config_name: str, backend: str = "sb3") -> RunPlan:
    """Decide where a run starts (see the module docstring); writes nothing, so the checks
    after it (model spaces, the map) fail before any folder exists."""
    if resume is None:
        name = cfg.run_name or f"{config_name}-{time.strftime('%Y%m%d-%H%M%S')}"
        run_dir = Path(cfg.run_dir) / name
        return RunPlan(run_dir, restart=_check_reusable(run_dir))
    run_dir = find_run_dir(resume)
    if run_dir is not None and Path(resume).is_dir() and never_saved(run_dir):
        return RunPlan(run_dir, restart=True)
    checkpoint = newest_checkpoint(resume, backend)
    if run_dir is None:
        run_dir = find_run_dir(checkpoint)
    if run_dir is None:  # a checkpoint from elsewhere: a new folder continues it
        return RunPlan(plan_run(cfg, None, config_name).run_dir, checkpoint)
    return RunPlan(run_dir, checkpoint)


def _check_reusable(run_dir: Path) -> bool:
    """Whether a new run's folder holds a start that saved nothing; refuses one holding a run."""
    if not (run_dir / CONFIG_FILE).exists():
        return False
    if not never_saved(run_dir):
        raise ValueError(f"run folder {run_dir} already holds a run; choose another run_name "
                         f"(--set run_name=...) or continue it with --resume")
    return True


class Run:
    """An open run folder: held by this process until :meth:`close` (a lock on Unix)."""

    def __init__(self, run_dir: Path, lock: IO[Any] | None) -> None:
        self.dir, self._lock = run_dir, lock

    def close(self) -> None:
        if self._lock is not None:
            self._lock.close()  # releases the lock
            self._lock = None


def open_run(plan: RunPlan, cfg: TrainConfig | Any) -> Run:
    """Make or take the planned folder: lock it, clear what a start that saved nothing left,
    write the resolved config. Refuses a folder another process trains in."""
    run_dir = plan.run_dir
    run_dir.mkdir(parents=True, exist_ok=True)
    run = Run(run_dir, lock_run_dir(run_dir))
    try:
        restart = plan.restart
        if plan.checkpoint is None and not restart:
            restart = _check_reusable(run_dir)  # again, now that no one else can start here
        if restart:
            if not never_saved(run_dir):  # it saved in the meantime
                raise ValueError(f"run folder {run_dir} holds a run with checkpoints now: resume it")
            say(f"run folder {run_dir} holds a run stopped before it saved anything: "
                "starting it again from scratch")
            _clear_unsaved(run_dir)
        remove_temporaries(run_dir)
        save_config(cfg, run_dir / CONFIG_FILE)
    except BaseException:
        run.close()
        raise
    return run


def lock_run_dir(run_dir: Path) -> IO[Any] | None:
    """Hold ``run_dir/.lock`` (flock: released by the kernel when this process ends, even by
    kill -9). Refuses in one line when another process holds it. None where flock does not exist."""
    try:
        import fcntl
    except ImportError:
        return None
    f = open(run_dir / LOCK_FILE, "a+")
    try:
        fcntl.flock(f, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except OSError:
        f.seek(0)
        holder = f.read().strip()
        f.close()
        raise ValueError(f"run folder {run_dir} is in use by another training process"
                         + (f" (pid {holder})" if holder else "") + "; wait for it or stop it") from None
    f.seek(0)
    f.truncate()
    f.write(str(os.getpid()))
    f.flush()
    return f


def _clear_unsaved(run_dir: Path) -> None:
    """Remove what a start that saved nothing wrote (its logs, its evaluations), config aside."""
    for pattern in UNSAVED_LEFTOVERS:
        for path in run_dir.glob(pattern):
            if path.is_dir():
                shutil.rmtree(path)
            else:
                path.unlink()
