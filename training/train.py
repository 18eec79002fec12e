"""``vigtavl train``: MaskablePPO on one learner seat against a league of bots and snapshots.

::

    vigtavl train --config configs/ppo_vs_bots.yaml [--set key=value ...]
    vigtavl train --resume RUN_DIR            (or a checkpoint .zip: continue a run)

Read :func:`train` top to bottom: where the run starts (:mod:`training.runs`), one seeding
block, the environments, the run folder, the model (cloned from a bot first when
``pretrain.teacher`` is set: :mod:`training.imitation`), the callbacks, ``learn``. A run writes
into ``runs/<run>/``::

    config.yaml            the resolved TrainConfig (every field commented)
    progress.csv           SB3's log: rollout/*, train/*, game/*, eval/* by time/total_timesteps
                           (a resumed run adds progress-resume-<timesteps>.csv); TensorBoard
                           event files in tb/
    checkpoints/           model_<timesteps>_steps.zip after the first rollout, then every
                           checkpoint_every timesteps and every checkpoint_minutes of wall time
                           (training/schedule.py), after cloning (model_0_steps) and when the run
                           is stopped (Ctrl-C, SIGTERM)
    snapshots/, league.json  the self-play snapshots in the opponent pool
    pretrained_model.zip   the policy after behaviour cloning (when pretrain.teacher is set)
    eval_model.zip, best_model.zip, best.json   the last evaluated and the best model
    eval_under_way.json    while an evaluation plays (a run stopped in one plays it again on resume)
    final_model.zip

Every file is saved atomically (training/files.py): a run killed at any moment, even by
``kill -9``, leaves whole files. The learner plays a random seat (so it learns every seat) of a
``SingleSeatEnv`` whose opponents a :class:`~training.league.LeagueEnv` draws per episode;
actions are masked throughout. Evaluation plays the current policy with the project's match
runner (``ppo:eval_model.zip`` against each eval opponent, seats rotated, the same seeds each
time) and logs ``eval/win_rate_<opponent>``; the best mean win rate is kept as
``best_model.zip``. ``--resume`` loads a checkpoint (weights, optimizer, timestep count; given a
run folder, its newest good one) and trains on to ``total_timesteps``; its network and PPO
settings come from the checkpoint. Ctrl-C or SIGTERM stops a run within seconds, even
mid-evaluation (played again first on resume), saves a checkpoint and says how to resume
(training/stopping.py); nothing a run wrote is overwritten by its resumption (the log goes on
in a new CSV), and a resume refused (a damaged checkpoint: training/damage.py) writes nothing.
"""

from __future__ import annotations

import sys
from collections import defaultdict, deque
from pathlib import Path
from typing import Any

import numpy as np
import torch as th
from sb3_contrib import MaskablePPO
from stable_baselines3.common.callbacks import BaseCallback, CallbackList
from stable_baselines3.common.logger import Logger
from stable_baselines3.common.utils import set_random_seed
from stable_baselines3.common.vec_env import DummyVecEnv, SubprocVecEnv, VecEnv, VecMonitor
from tqdm import tqdm

from arena.vigtavl_match import check_agents, ignore_stop_signals
from agents.network import policy_spec
from agents.ppo import check_spaces, saved_module_names, saved_spaces
from training.config import TrainConfig, learner_device, opponent_seats
from training.damage import loading
from training.evaluate import best_so_far, interrupted_evaluation, record_evaluation
from training.files import save_model
from training.league import LeagueEnv, LeagueVectorEnv, OpponentPool
from training.logs import announce_run, make_logger, metric_name
from training.runs import FINAL_MODEL, LEAGUE_FILE, Run, checkpoint_path, open_run, plan_run
from training.schedule import CheckpointSchedule, Every
from training.lifecycle import RunLifecycle
from training.stopping import StopSignal

GAME_STATS_WINDOW = 100  # finished training games averaged in game/*


def train(cfg: TrainConfig, resume: str | Path | None = None, progress: bool = True,
          config_name: str = "run", ray_address: str | None = None) -> Path:
    """Train as ``cfg`` says (continuing ``resume``: a checkpoint, or a run folder's newest);
    returns the run folder. Raises :class:`~training.stopping.TrainingStopped` after a
    checkpoint on Ctrl-C or SIGTERM. ``backend: rllib`` trains with Ray RLlib (``ray_address``:
    a cluster's)."""
    if cfg.game != "vigtavl":  # training.game_train imports this module's callbacks: no import back
        raise ValueError(f"game {cfg.game} trains with training.game_train.train_game (vigtavl train --game)")
    # --- the checks that need no folder: the agents, where the run starts, the model's spaces
    check_agents([o.name for o in cfg.opponents] + [s for opp in cfg.eval_opponents for s in opponent_seats(opp, cfg.num_players)]
                 + ([cfg.pretrain.teacher] if cfg.pretrain.teacher else []))
    if cfg.backend == "rllib":
        return train_on_rllib(cfg, resume, progress, config_name, ray_address)
    plan = plan_run(cfg, resume, config_name)  # a damaged newest checkpoint is passed over here
    if plan.checkpoint is not None:  # a model of another env version (v0): one clear line, nothing written
        check_spaces(*saved_spaces(plan.checkpoint), name=f"model {plan.checkpoint}")
    device = learner_device(cfg.device)

    bar = ProgressBarCallback(cfg.total_timesteps) if progress else None
    with RunLifecycle() as life:  # Ctrl-C, SIGTERM: a checkpoint, then TrainingStopped
        stop = life.stop
        life.own(bar)
        with life.setting_up():  # the set-up: a signal ends it where it is (nothing new to save)
            # --- seeding: Python, NumPy, torch; the environments get seed + i below
            set_random_seed(cfg.seed)
            if cfg.torch_threads:
                th.set_num_threads(cfg.torch_threads)
            th.distributions.Distribution.set_default_validate_args(False)  # no argument checks per distribution

            # --- environments: n_envs league envs (one learner seat each), episode stats by
            # VecMonitor; building them checks the map, so a bad one fails before the run folder exists
            pool = OpponentPool.from_config(cfg)
            if plan.checkpoint is not None:
                pool.snapshots = OpponentPool.saved_snapshots(plan.run_dir / LEAGUE_FILE)[-pool.max_snapshots:]
            vec_env = life.own(make_vec_env(cfg, pool))
            model: MaskablePPO | None = None
            if plan.checkpoint is not None:  # loaded before the folder is touched: a refusal changes nothing
                model = load_checkpoint(plan.checkpoint, vec_env, device)
                vec_env.seed(cfg.seed + model.num_timesteps)  # a resumed run does not replay the same games

            # --- the run folder (held by this process) and its resolved config
            run = life.run = open_run(plan, cfg)
            if progress:
                announce_run(run.dir)

            # --- a new model (MaskablePPO finds the masks through each env's action_masks())
            if plan.checkpoint is None:
                policy_class, policy_kwargs = policy_spec(cfg.policy, cfg.net.channels, cfg.net.blocks, cfg.net.hidden)
                model = MaskablePPO(policy_class, vec_env, learning_rate=cfg.learning_rate, n_steps=cfg.n_steps,
                                    batch_size=cfg.batch_size, n_epochs=cfg.n_epochs, gamma=cfg.gamma,
                                    gae_lambda=cfg.gae_lambda, clip_range=cfg.clip_range, ent_coef=cfg.ent_coef,
                                    vf_coef=cfg.vf_coef, max_grad_norm=cfg.max_grad_norm,
                                    policy_kwargs=policy_kwargs, seed=cfg.seed, device=device, verbose=0)
                if cfg.init_from:
                    from agents.ppo import resolve_model_path
                    from training.transfer import load_weights_from
                    how = load_weights_from(model.policy, resolve_model_path(cfg.init_from))
                    if progress:
                        print(f"starting from {cfg.init_from} ({how})", file=sys.stderr)
            logger = life.own(make_logger(run.dir, model.num_timesteps))
            model.set_logger(logger)

            # --- behaviour cloning of a bot first (a new run with pretrain.teacher set)
            if plan.checkpoint is None and cfg.pretrain.teacher:
                from training.imitation import pretrain
                pretrain(model, cfg, progress)
                save_model(model, run.dir / "pretrained_model.zip")
                save_model(model, checkpoint_path(run.dir, 0))  # a run stopped from here on resumes after cloning
        life.on_stop(lambda: save_on_stop(model, run))  # from now on a stop saves the model
        stop.guard(model.policy.optimizer)  # an update stops between minibatches

        # --- callbacks: stop on a signal, training-game stats, checkpoints, league snapshots,
        # evaluation, progress bar
        callbacks: list[BaseCallback] = [StopOnSignal(stop), GameStatsCallback(), CheckpointCallback(cfg, run.dir)]
        if cfg.value_warmup:
            callbacks.append(ValueWarmup(cfg.value_warmup))
        if cfg.selfplay.snapshot_every:
            callbacks.append(LeagueCallback(pool, cfg.selfplay.snapshot_every, run.dir))
        if cfg.eval_every:
            callbacks.append(EvalCallback(cfg, run.dir, stop))
        if bar is not None:
            callbacks.append(bar)  # last: shows this rollout's numbers

        # --- learn up to total_timesteps (a resumed model keeps its count), then save
        remaining = cfg.total_timesteps - model.num_timesteps
        if remaining > 0 or (cfg.eval_every and interrupted_evaluation(run.dir, model.num_timesteps)):
            model.learn(max(remaining, 0), callback=CallbackList(callbacks), reset_num_timesteps=plan.checkpoint is None)
        stop.check()  # a signal during the last update
        save_model(model, run.dir / FINAL_MODEL)
    return run.dir


def save_on_stop(model: MaskablePPO, run: Run) -> str:
    """A stopped run's checkpoint, and the words that say where it is."""
    path = save_model(model, checkpoint_path(run.dir, model.num_timesteps))
    return f"at {model.num_timesteps:,} steps; checkpoint {path}"


def load_checkpoint(path: Path, vec_env: VecEnv, device: str) -> MaskablePPO:
    """The model a resume continues (one line naming the file if it does not load)."""
    with loading(path), saved_module_names():
        return MaskablePPO.load(path, env=vec_env, device=device)


def train_on_rllib(cfg: TrainConfig, resume: str | Path | None, progress: bool, config_name: str,
                   ray_address: str | None) -> Path:
    """The RLlib backend (training/rllib.py), when its extra is installed."""
    try:
        from training.rllib import train_rllib
    except ImportError as e:
        raise ValueError(str(e)) from None
    return train_rllib(cfg, resume, progress, config_name, ray_address)


# ------------------------------------------------------------------ environments
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
        self.close()

    def close(self) -> None:
        """Also when learning ends by a stop (SB3 then calls no ``_on_training_end``)."""
        if self.bar is not None:
            self.bar.close()
            self.bar = None


class StopOnSignal(BaseCallback):
    """Ends a rollout at the next step once Ctrl-C or SIGTERM came (raises StopRequested out of
    ``learn``; the trainer saves the checkpoint)."""

    def __init__(self, stop: StopSignal) -> None:
        super().__init__()
        self.stop = stop

    def _on_step(self) -> bool:
        self.stop.check()
        return True


class CheckpointCallback(BaseCallback):
    """``checkpoints/model_<steps>_steps.zip`` at the end of a rollout when the run's
    :class:`~training.schedule.CheckpointSchedule` says so."""

    def __init__(self, cfg: TrainConfig, run_dir: Path) -> None:
        super().__init__()
        self.cfg, self.run_dir = cfg, run_dir
        self.schedule: CheckpointSchedule | None = None

    def _on_training_start(self) -> None:
        self.schedule = CheckpointSchedule(self.cfg.checkpoint_every, self.cfg.checkpoint_minutes,
                                           self.model.num_timesteps)

    def _on_step(self) -> bool:
        return True

    def _on_rollout_end(self) -> None:
        assert self.schedule is not None
        if self.schedule.due(self.model.num_timesteps):
            save_model(self.model, checkpoint_path(self.run_dir, self.model.num_timesteps))


class ValueWarmup(BaseCallback):
    """Freezes every parameter but the value head's until ``steps`` timesteps (``value_warmup``):
    the critic learns the new game's returns before the policy moves on its advantages. Checked
    at each rollout's end, so the first update after the threshold trains everything."""

    def __init__(self, steps: int) -> None:
        super().__init__()
        self.steps = steps

    def _on_training_start(self) -> None:
        self._set()

    def _on_step(self) -> bool:
        return True

    def _on_rollout_end(self) -> None:
        self._set()

    def _set(self) -> None:
        warming = self.model.num_timesteps < self.steps
        policy = self.model.policy
        critic = [policy.value_net, getattr(policy.mlp_extractor, "value_net", None)]  # 'mlp' has its own layers
        value = {id(p) for part in critic if part is not None for p in part.parameters()}
        for p in self.model.policy.parameters():
            if id(p) not in value:
                p.requires_grad_(not warming)


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
        self.schedule = Every(every)

    def _on_training_start(self) -> None:
        self.schedule = Every(self.every, self.model.num_timesteps)

    def _on_step(self) -> bool:
        return True

    def _on_rollout_end(self) -> None:
        if not self.schedule.due(self.model.num_timesteps):
            return
        path = save_model(self.model, self.run_dir / "snapshots" / f"snapshot_{self.model.num_timesteps}.zip")
        dropped = self.pool.add_snapshot(path)
        self.training_env.env_method("set_snapshots", self.pool.snapshots)
        self.pool.save(self.run_dir / LEAGUE_FILE)
        for old in set(dropped) - set(self.pool.snapshots):  # out of the league (checkpoints keep history)
            Path(old).unlink(missing_ok=True)
        self.logger.record("league/snapshots", len(self.pool.snapshots))


class EvalCallback(BaseCallback):
    """At the start of a new run, every ``eval_every`` timesteps and at the end: the match runner
    against each eval opponent (the best mean win rate is kept as best_model.zip). A stop signal
    ends an evaluation at once; the resume from there plays it first."""

    def __init__(self, cfg: TrainConfig, run_dir: Path, stop: StopSignal) -> None:
        super().__init__()
        self.cfg, self.run_dir, self.stop = cfg, run_dir, stop
        self.schedule = Every(cfg.eval_every)
        self.last_eval = -1
        self.best = best_so_far(run_dir)

    def _on_training_start(self) -> None:
        t = self.model.num_timesteps
        self.schedule = Every(self.cfg.eval_every, t)
        if t == 0 or interrupted_evaluation(self.run_dir, t):  # a new run's first point; one a stop cut short
            self.evaluate()
            self.logger.record("time/total_timesteps", t)
            self.logger.dump(t)

    def _on_step(self) -> bool:
        return True

    def _on_rollout_end(self) -> None:
        if self.schedule.due(self.model.num_timesteps):
            self.evaluate()

    def _on_training_end(self) -> None:
        if self.last_eval != self.model.num_timesteps:
            self.evaluate()
            self.logger.record("time/total_timesteps", self.model.num_timesteps)
            self.logger.dump(self.model.num_timesteps)

    def evaluate(self) -> None:
        t = self.model.num_timesteps
        with self.stop.at_once():  # thrown away when the run stops: no need to finish it
            path = save_model(self.model, self.run_dir / "eval_model.zip")
            metrics, self.best = record_evaluation(self.cfg, self.run_dir, path, t, self.best)
        for key, value in metrics.items():
            self.logger.record(key, value)
        self.last_eval = t
