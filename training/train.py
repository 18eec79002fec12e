"""``vigtavl train``: MaskablePPO on one learner seat against a league of bots and snapshots.

::

    vigtavl train --config configs/ppo_vs_bots.yaml [--set key=value ...]
    vigtavl train --resume RUN_DIR            (or a checkpoint .zip: continue a run)

Read :func:`train` top to bottom: the run folder and its resolved config, one seeding block, the
environments, the model (cloned from a bot first when ``pretrain.teacher`` is set:
:mod:`training.imitation`), the callbacks, ``learn``. A run writes into ``runs/<run>/``::

    config.yaml            the resolved TrainConfig (every field commented)
    progress.csv           SB3's log: rollout/*, train/*, game/*, eval/* by time/total_timesteps
                           (a resumed run adds progress-resume-<timesteps>.csv); TensorBoard
                           event files in tb/
    checkpoints/           model_<timesteps>_steps.zip every checkpoint_every timesteps, every
                           checkpoint_minutes of wall time, after cloning (model_0_steps) and
                           when the run is stopped (Ctrl-C, SIGTERM)
    snapshots/, league.json  the self-play snapshots in the opponent pool
    pretrained_model.zip   the policy after behaviour cloning (when pretrain.teacher is set)
    eval_model.zip, best_model.zip, best.json   the last evaluated and the best model
    final_model.zip

The learner plays a random seat (so it learns every seat) of a ``SingleSeatEnv`` whose opponents
a :class:`~training.league.LeagueEnv` draws per episode; actions are masked throughout.
Evaluation plays the current policy with the project's match runner (``ppo:eval_model.zip``
against each eval opponent, seats rotated, the same seeds each time) and logs
``eval/win_rate_<opponent>``; the best mean win rate is kept as ``best_model.zip``.
``--resume`` loads a checkpoint (weights, optimizer, timestep count; given a run folder, its
newest) and trains on to ``total_timesteps``; its network and PPO settings come from the
checkpoint. Ctrl-C or SIGTERM stops a run at the next step, saves a checkpoint and says how to
resume; nothing a run wrote is overwritten by its resumption (the log goes on in a new CSV).
"""

from __future__ import annotations

import importlib.util
import json
import re
import shutil
import signal
import sys
import time
import warnings
from collections import defaultdict, deque
from pathlib import Path
from typing import Any

import numpy as np
import torch as th
from sb3_contrib import MaskablePPO
from stable_baselines3.common.callbacks import BaseCallback, CallbackList, CheckpointCallback
from stable_baselines3.common.logger import CSVOutputFormat, Logger
from stable_baselines3.common.utils import set_random_seed
from stable_baselines3.common.vec_env import DummyVecEnv, SubprocVecEnv, VecEnv, VecMonitor
from tqdm import tqdm

from agents.match import ignore_stop_signals
from training.config import TrainConfig, save_config
from training.league import LeagueEnv, LeagueVectorEnv, OpponentPool
from agents.network import policy_spec
from agents.ppo import check_spaces, saved_module_names, saved_spaces

EVAL_SEED_OFFSET = 1_000_000  # evaluation games use seeds far from the training games'
GAME_STATS_WINDOW = 100  # finished training games averaged in game/*
CONFIG_FILE = "config.yaml"
LEAGUE_FILE = "league.json"
BEST_FILE = "best.json"


def train(cfg: TrainConfig, resume: str | Path | None = None, progress: bool = True,
          config_name: str = "run", ray_address: str | None = None) -> Path:
    """Train as ``cfg`` says (continuing ``resume``: a checkpoint, or a run folder's newest);
    returns the run folder. Raises :class:`TrainingStopped` after a checkpoint on Ctrl-C or
    SIGTERM. ``backend: rllib`` trains with Ray RLlib (``ray_address``: a cluster's)."""
    # --- what to continue, and the checks that need no folder (agents, model spaces, map)
    from agents.match import check_agents
    check_agents([o.name for o in cfg.opponents] + list(cfg.eval_opponents)
                 + ([cfg.pretrain.teacher] if cfg.pretrain.teacher else []))
    if cfg.backend == "rllib":
        return train_on_rllib(cfg, resume, progress, config_name, ray_address)
    if resume is not None:  # a model of another env version (v0): one clear line, nothing written
        resume = newest_checkpoint(resume)
        check_spaces(*saved_spaces(resume), name=f"model {resume}")

    # --- seeding: Python, NumPy, torch; the environments get seed + i below
    set_random_seed(cfg.seed)
    if cfg.torch_threads:
        th.set_num_threads(cfg.torch_threads)
    th.distributions.Distribution.set_default_validate_args(False)  # no argument checks per distribution

    # --- environments: n_envs league envs (one learner seat each), episode stats by VecMonitor;
    # building them checks the map, so a bad one fails before the run folder exists
    pool = OpponentPool.from_config(cfg)
    if resume is not None:
        run = find_run_dir(resume)
        if run is not None:
            pool.snapshots = OpponentPool.saved_snapshots(run / LEAGUE_FILE)[-pool.max_snapshots:]
    vec_env = make_vec_env(cfg, pool)

    # --- the run folder and its resolved config
    try:
        run_dir = run_folder(cfg, resume, config_name)
    except BaseException:
        vec_env.close()
        raise
    save_config(cfg, run_dir / CONFIG_FILE)
    if progress:
        announce_run(run_dir)

    # --- the model (MaskablePPO finds the masks through each env's action_masks())
    if resume is None:
        policy_class, policy_kwargs = policy_spec(cfg.policy, cfg.net.channels, cfg.net.blocks, cfg.net.hidden)
        model = MaskablePPO(policy_class, vec_env, learning_rate=cfg.learning_rate, n_steps=cfg.n_steps,
                            batch_size=cfg.batch_size, n_epochs=cfg.n_epochs, gamma=cfg.gamma,
                            gae_lambda=cfg.gae_lambda, clip_range=cfg.clip_range, ent_coef=cfg.ent_coef,
                            vf_coef=cfg.vf_coef, max_grad_norm=cfg.max_grad_norm,
                            policy_kwargs=policy_kwargs, seed=cfg.seed, device=cfg.device, verbose=0)
    else:
        with saved_module_names():
            model = MaskablePPO.load(resume, env=vec_env, device=cfg.device)
        vec_env.seed(cfg.seed + model.num_timesteps)  # a resumed run does not replay the same games
    model.set_logger(make_logger(run_dir, model.num_timesteps))

    # --- behaviour cloning of a bot first (a new run with pretrain.teacher set)
    if resume is None and cfg.pretrain.teacher:
        from training.imitation import pretrain
        pretrain(model, cfg, progress)
        model.save(run_dir / "pretrained_model.zip")
        model.save(checkpoint_path(run_dir, 0))  # a run stopped from here on resumes after cloning

    # --- callbacks: stop on a signal, training-game stats, checkpoints, league snapshots, evaluation, progress bar
    stop = StopOnSignal()
    callbacks: list[BaseCallback] = [stop, GameStatsCallback()]
    if cfg.checkpoint_every:
        callbacks.append(CheckpointCallback(max(cfg.checkpoint_every // cfg.n_envs, 1),
                                            str(run_dir / "checkpoints"), name_prefix="model"))
    if cfg.checkpoint_minutes:
        callbacks.append(MinuteCheckpoint(cfg.checkpoint_minutes, run_dir))
    if cfg.selfplay.snapshot_every:
        callbacks.append(LeagueCallback(pool, cfg.selfplay.snapshot_every, run_dir))
    if cfg.eval_every:
        callbacks.append(EvalCallback(cfg, run_dir))
    if progress:
        callbacks.append(ProgressBarCallback(cfg.total_timesteps))  # last: shows this rollout's numbers

    # --- learn up to total_timesteps (a resumed model keeps its count), then save
    remaining = cfg.total_timesteps - model.num_timesteps
    try:
        if remaining > 0:
            model.learn(remaining, callback=CallbackList(callbacks), reset_num_timesteps=resume is None)
        if stop.signal_name:
            path = checkpoint_path(run_dir, model.num_timesteps)
            model.save(path)
            raise TrainingStopped(f"stopped by {stop.signal_name} at {model.num_timesteps:,} steps; "
                                  f"checkpoint {path}; continue with: vigtavl train --resume {run_dir}")
        model.save(run_dir / "final_model.zip")
    finally:
        vec_env.close()
    return run_dir


def train_on_rllib(cfg: TrainConfig, resume: str | Path | None, progress: bool, config_name: str,
                   ray_address: str | None) -> Path:
    """The RLlib backend (training/rllib.py): the same checks first, the same run folder."""
    try:
        from training import rllib
    except ImportError as e:
        raise ValueError(str(e)) from None
    if cfg.policy != "cnn":
        raise ValueError("backend rllib trains the fully convolutional network (policy: cnn)")
    from vigtavl_env.env import raw_env
    raw_env(num_players=cfg.num_players, map=cfg.map, max_steps=cfg.max_steps)  # a bad map: no folder
    checkpoint = None
    if resume is not None:
        checkpoint = rllib.newest_rllib_checkpoint(resume)
        if checkpoint is None:
            raise FileNotFoundError(f"no RLlib checkpoint (checkpoints/rllib_<steps>) to resume in {resume}")
        run_dir = checkpoint.parent.parent
    else:
        run_dir = run_folder(cfg, None, config_name)
    save_config(cfg, run_dir / CONFIG_FILE)
    if progress:
        announce_run(run_dir)
    return rllib.train_rllib(cfg, run_dir, checkpoint, progress, ray_address)


def announce_run(run_dir: Path) -> None:
    """Where the run writes, and how to watch it live."""
    print(f"run folder {run_dir}; watch it live: tensorboard --logdir {run_dir / 'tb'}", file=sys.stderr)


def best_so_far(run_dir: Path) -> float:
    """The best mean evaluation win rate a run recorded (best.json), or -1 before any."""
    best = run_dir / BEST_FILE
    return json.loads(best.read_text())["mean_win_rate"] if best.is_file() else -1.0


class TrainingStopped(Exception):
    """A run stopped by Ctrl-C or SIGTERM after saving a checkpoint (the message says how to go on)."""


def checkpoint_path(run_dir: Path, timesteps: int) -> Path:
    """Where the checkpoint of ``timesteps`` goes (SB3's CheckpointCallback naming)."""
    return run_dir / "checkpoints" / f"model_{timesteps}_steps.zip"


def newest_checkpoint(path: str | Path) -> Path:
    """What ``--resume`` continues from: a checkpoint file as given, or the newest checkpoint
    (most timesteps) of a run folder or of its ``checkpoints`` folder."""
    path = Path(path)
    if path.is_file():
        return path
    if not path.is_dir():
        raise FileNotFoundError(f"nothing to resume at {path}: give a run folder or a checkpoint .zip")
    folder = path / "checkpoints" if (path / "checkpoints").is_dir() else path
    found = [(int(m.group(1)), p) for p in folder.glob("model_*_steps.zip")
             if (m := re.fullmatch(r"model_(\d+)_steps\.zip", p.name))]
    if not found:
        raise FileNotFoundError(f"no checkpoint to resume in {folder} (model_<steps>_steps.zip); the run "
                                f"stopped before its first one: start it again under another run_name")
    return max(found)[1]


# ------------------------------------------------------------------ run folder, envs, logger
def run_folder(cfg: TrainConfig, resume: str | Path | None, config_name: str) -> Path:
    """The resumed checkpoint's run folder, or a new ``run_dir/run_name`` (not an existing run)."""
    if resume is not None:
        found = find_run_dir(resume)
        if found is not None:
            return found
    name = cfg.run_name or f"{config_name}-{time.strftime('%Y%m%d-%H%M%S')}"
    run_dir = Path(cfg.run_dir) / name
    if resume is None and (run_dir / CONFIG_FILE).exists():
        raise ValueError(f"run folder {run_dir} already holds a run; choose another run_name "
                         f"(--set run_name=...) or continue it with --resume")
    run_dir.mkdir(parents=True, exist_ok=True)
    return run_dir


def find_run_dir(checkpoint: str | Path) -> Path | None:
    """The run folder a checkpoint belongs to (``<run>/x.zip`` or ``<run>/checkpoints/x.zip``;
    a run folder or its checkpoints folder: its newest checkpoint's)."""
    if (Path(checkpoint) / CONFIG_FILE).is_file():  # a run folder, of either backend
        return Path(checkpoint)
    path = newest_checkpoint(checkpoint)
    for folder in (path.parent, path.parent.parent):
        if (folder / CONFIG_FILE).is_file():
            return folder
    return None


def make_env(cfg: TrainConfig, pool: OpponentPool, in_subprocess: bool) -> Any:
    """A function building one league env (run inside a SubprocVecEnv worker when n_envs > 1)."""
    def build() -> LeagueEnv:
        if in_subprocess:
            th.set_num_threads(1)  # snapshot opponents act one position at a time
            ignore_stop_signals()  # Ctrl-C or a SIGTERM to the group stops the trainer, which closes us
        return LeagueEnv(pool, num_players=cfg.num_players, map=cfg.map, reward=cfg.reward,
                         max_steps=cfg.max_steps)
    return build


def make_vec_env(cfg: TrainConfig, pool: OpponentPool) -> VecEnv:
    """``n_envs`` league envs: SubprocVecEnv when more than one (unless ``vec_env: dummy``), else
    DummyVecEnv, or ``n_envs`` games of the batched vector env (``vec_env: vector``); VecMonitor
    on top."""
    if cfg.vec_env == "vector":
        return VecMonitor(LeagueVectorEnv(pool, cfg.n_envs, seed=cfg.seed, num_players=cfg.num_players,
                                            map=cfg.map, reward=cfg.reward, max_steps=cfg.max_steps))
    if cfg.n_envs > 1 and cfg.vec_env == "subproc":
        vec: VecEnv = SubprocVecEnv([make_env(cfg, pool, True) for _ in range(cfg.n_envs)])
    else:
        vec = DummyVecEnv([make_env(cfg, pool, False) for _ in range(cfg.n_envs)])
    return VecMonitor(vec)


def make_logger(run_dir: Path, timesteps: int) -> Logger:
    """CSV (what ``vigtavl plot`` reads), plus TensorBoard (a dependency; skipped with a warning
    when it is missing from the environment)."""
    name = "progress.csv" if timesteps == 0 else f"progress-resume-{timesteps}.csv"
    k = 1
    while (run_dir / name).exists():  # never overwrite a log (a second resume from the same checkpoint)
        k += 1
        name = f"progress-resume-{timesteps}-{k}.csv"
    formats: list[Any] = [CSVOutputFormat(str(run_dir / name))]
    if importlib.util.find_spec("tensorboard") is not None:
        from stable_baselines3.common.logger import TensorBoardOutputFormat
        formats.append(TensorBoardOutputFormat(str(run_dir / "tb")))
    else:
        warnings.warn("tensorboard is not installed (pip install tensorboard): this run logs to "
                      "its CSV only", stacklevel=2)
    return Logger(str(run_dir), formats)


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


def metric_name(spec: str) -> str:
    """An agent spec as a log key suffix: ``search:200`` -> ``search_200``."""
    return re.sub(r"[^A-Za-z0-9_.-]+", "_", spec)


# ------------------------------------------------------------------ callbacks
class ProgressBarCallback(BaseCallback):
    """A tqdm bar over the timesteps (stderr), showing the last evaluation's mean win rate."""

    def __init__(self, total: int) -> None:
        super().__init__()
        self.total = total
        self.bar: tqdm | None = None

    def _on_training_start(self) -> None:
        self.bar = tqdm(total=self.total, initial=self.model.num_timesteps, unit="step", desc="train",
                        dynamic_ncols=True)

    def _on_step(self) -> bool:
        assert self.bar is not None
        self.bar.update(self.model.num_timesteps - self.bar.n)
        return True

    def _on_rollout_end(self) -> None:
        values = self.logger.name_to_value
        shown = {"game/win_rate": "train_win", "eval/mean_win_rate": "eval_win"}
        post = {label: f"{values[k]:.2f}" for k, label in shown.items() if k in values}
        if post and self.bar is not None:
            self.bar.set_postfix(post)

    def _on_training_end(self) -> None:
        if self.bar is not None:
            self.bar.close()


class StopOnSignal(BaseCallback):
    """Ctrl-C (SIGINT) or SIGTERM during learning ends it at the next step, so the trainer can
    save a checkpoint; the previous handlers are back when learning ends."""

    def __init__(self) -> None:
        super().__init__()
        self.signal_name = ""
        self._previous: dict[int, Any] = {}

    def install(self) -> None:
        """Take over SIGINT and SIGTERM (also used outside SB3, by the RLlib trainer)."""
        for sig in (signal.SIGINT, signal.SIGTERM):
            try:
                self._previous[sig] = signal.signal(sig, self._stop)
            except ValueError:  # not the main thread: signals stay as they are
                pass

    def uninstall(self) -> None:
        for sig, handler in self._previous.items():
            signal.signal(sig, handler)
        self._previous.clear()

    def _on_training_start(self) -> None:
        self.install()

    def _stop(self, signum: int, frame: Any) -> None:
        self.signal_name = signal.Signals(signum).name

    def _on_step(self) -> bool:
        return not self.signal_name

    def _on_training_end(self) -> None:
        self.uninstall()


class MinuteCheckpoint(BaseCallback):
    """A checkpoint whenever ``minutes`` of wall time have passed since the last one (checked
    at the end of each rollout)."""

    def __init__(self, minutes: float, run_dir: Path) -> None:
        super().__init__()
        self.seconds, self.run_dir = minutes * 60.0, run_dir
        self.last = time.monotonic()

    def _on_step(self) -> bool:
        return True

    def _on_rollout_end(self) -> None:
        if time.monotonic() - self.last >= self.seconds:
            self.model.save(checkpoint_path(self.run_dir, self.model.num_timesteps))
            self.last = time.monotonic()


class GameStatsCallback(BaseCallback):
    """Logs the last finished training games: game/win_rate (and per opponent), tokens, length."""

    def __init__(self) -> None:
        super().__init__()
        self.games: deque[dict[str, Any]] = deque(maxlen=GAME_STATS_WINDOW)

    def _on_step(self) -> bool:
        for done, info in zip(self.locals["dones"], self.locals["infos"]):
            if done and "game" in info:
                self.games.append(info["game"])
        return True

    def _on_rollout_end(self) -> None:
        if not self.games:
            return
        g = list(self.games)
        for key in ("win", "tokens", "opp_tokens", "length", "truncated"):
            name = "win_rate" if key == "win" else key
            self.logger.record(f"game/{name}", float(np.mean([x[key] for x in g])))
        by_opponent: dict[str, list[float]] = defaultdict(list)
        for x in g:
            by_opponent[x["opponent"]].append(x["win"])
        for opp, wins in by_opponent.items():
            self.logger.record(f"game/win_rate_{metric_name(opp)}", float(np.mean(wins)))


class LeagueCallback(BaseCallback):
    """Every ``every`` timesteps: save the learner as a snapshot and send the pool to the workers."""

    def __init__(self, pool: OpponentPool, every: int, run_dir: Path) -> None:
        super().__init__()
        self.pool, self.every, self.run_dir = pool, every, run_dir
        self.next_at = 0

    def _on_training_start(self) -> None:
        self.next_at = (self.model.num_timesteps // self.every + 1) * self.every

    def _on_step(self) -> bool:
        return True

    def _on_rollout_end(self) -> None:
        if self.model.num_timesteps < self.next_at:
            return
        self.next_at = (self.model.num_timesteps // self.every + 1) * self.every
        path = self.run_dir / "snapshots" / f"snapshot_{self.model.num_timesteps}.zip"
        path.parent.mkdir(exist_ok=True)
        self.model.save(path)
        dropped = self.pool.add_snapshot(path)
        self.training_env.env_method("set_snapshots", self.pool.snapshots)
        self.pool.save(self.run_dir / LEAGUE_FILE)
        for old in set(dropped) - set(self.pool.snapshots):  # out of the league (checkpoints keep history)
            Path(old).unlink(missing_ok=True)
        self.logger.record("league/snapshots", len(self.pool.snapshots))


class EvalCallback(BaseCallback):
    """At the start of a new run, every ``eval_every`` timesteps and at the end: the match runner
    against each eval opponent (the best mean win rate is kept as best_model.zip)."""

    def __init__(self, cfg: TrainConfig, run_dir: Path) -> None:
        super().__init__()
        self.cfg, self.run_dir = cfg, run_dir
        self.next_at = 0
        self.last_eval = -1
        self.best = best_so_far(run_dir)

    def _on_training_start(self) -> None:
        self.next_at = (self.model.num_timesteps // self.cfg.eval_every + 1) * self.cfg.eval_every
        if self.model.num_timesteps == 0:  # where a new run starts from: the curve's first point
            self.evaluate()
            self.logger.record("time/total_timesteps", 0)
            self.logger.dump(0)

    def _on_step(self) -> bool:
        return True

    def _on_rollout_end(self) -> None:
        if self.model.num_timesteps >= self.next_at:
            self.next_at = (self.model.num_timesteps // self.cfg.eval_every + 1) * self.cfg.eval_every
            self.evaluate()

    def _on_training_end(self) -> None:
        if self.last_eval != self.model.num_timesteps:
            self.evaluate()
            self.logger.record("time/total_timesteps", self.model.num_timesteps)
            self.logger.dump(self.model.num_timesteps)

    def evaluate(self) -> None:
        t = self.model.num_timesteps
        path = self.run_dir / "eval_model.zip"
        self.model.save(path)
        metrics, self.best = record_evaluation(self.cfg, self.run_dir, path, t, self.best)
        for key, value in metrics.items():
            self.logger.record(key, value)
        self.last_eval = t


def record_evaluation(cfg: TrainConfig, run_dir: Path, path: Path, timesteps: int,
                      best: float) -> tuple[dict[str, float], float]:
    """The model at ``path`` against each eval opponent; a new best (mean win rate) is copied to
    best_model.zip with best.json. Returns the eval/* metrics and the best so far."""
    from training.evaluate import evaluate_model
    results = evaluate_model(path, cfg.eval_opponents, games=cfg.eval_games, players=cfg.num_players,
                             seed=cfg.seed + EVAL_SEED_OFFSET, workers=cfg.eval_workers, map=cfg.map,
                             max_steps=cfg.max_steps, progress=False, shielded=True, sample=cfg.eval_sample)
    metrics: dict[str, float] = {}
    for r in results:
        metrics[f"eval/win_rate_{metric_name(r.opponent)}"] = r.model.win_rate
        metrics[f"eval/tokens_{metric_name(r.opponent)}"] = r.model.mean_tokens
    mean = float(np.mean([r.model.win_rate for r in results]))
    metrics["eval/mean_win_rate"] = mean
    if mean > best:
        best = mean
        shutil.copyfile(path, run_dir / "best_model.zip")
        (run_dir / BEST_FILE).write_text(json.dumps(
            {"mean_win_rate": mean, "timesteps": timesteps,
             "win_rates": {r.opponent: r.model.win_rate for r in results}}, indent=1))
    return metrics, best
