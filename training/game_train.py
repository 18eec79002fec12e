"""``vigtavl train --game NAME``: MaskablePPO on any registered game other than Vigtavl.

::

    vigtavl train --game pig --set total_timesteps=20000
    vigtavl train --config configs/ppo_thrones.yaml

The same :class:`~training.config.TrainConfig` and run folder as Vigtavl's trainer
(:mod:`training.train`): ``config.yaml``, ``progress.csv`` (rollout/*, train/*, game/*, eval/*),
``checkpoints/``, ``eval_model.zip``, ``best_model.zip`` with ``best.json``, ``final_model.zip``;
Ctrl-C or SIGTERM saves a checkpoint and ``--resume`` continues one. What differs:

- the games are stepped by :class:`training.vec.GameVecEnv` (the batch core over the game
  interface: ``n_envs`` games in this process, one learner seat drawn per game, the other seats
  played by the game's agents drawn per game from ``opponents`` by weight);
- the network is :func:`agents.network.policy_spec` with ``board="grid"``: plain convolutions
  over the game's ``(C, H, W)`` board, an MLP head with one logit per action of the game;
- evaluation plays ``ppo:eval_model.zip`` against each eval opponent in the other seats, the
  learner's seat rotated, on seeds far from the training games' (:func:`evaluate_game_model`);
- the league: with ``selfplay.snapshot_every``, a snapshot of the learner is saved to
  ``snapshots/`` that often and joins the opponents (``selfplay.weight`` shared by the last
  ``max_snapshots``; each plays by sampling its policy, seeded), as in Vigtavl's league
  (:class:`~training.league.OpponentPool`, ``league.json`` for ``--resume``);
- pretraining (``pretrain.teacher``: an agent spec of the game) records the teacher through the
  batch core (:mod:`training.game_imitation`) and clones it with :mod:`training.cloning`, the
  same cloning and DAgger rounds as Vigtavl's; the clone is saved as ``pretrained_model.zip``;
- ``init_from`` starts the network from a model of the same game, policy and net (a path, or
  ``pretrained``: the game's shipped one), before any cloning; with ``pretrain.teacher_first``
  false its DAgger rounds go on from it without the teacher's own games; ``value_warmup``
  trains the value head alone for that many steps first, as Vigtavl's trainer does;
- ``map``, ``reward`` and ``max_steps`` are Vigtavl's and unused here (the game's own move
  limit truncates).

The saved model plays as the agent spec ``ppo:PATH`` of that game (:mod:`agents.game_ppo`).
"""

from __future__ import annotations

import json
import os
import signal
import sys
from collections import defaultdict, deque
from collections.abc import Sequence
from dataclasses import dataclass
from multiprocessing import get_context
from pathlib import Path
from typing import Any

import numpy as np
import torch as th
from sb3_contrib import MaskablePPO
from stable_baselines3.common.callbacks import BaseCallback, CallbackList
from stable_baselines3.common.utils import set_random_seed
from stable_baselines3.common.vec_env import VecMonitor

from agents.game_ppo import PPOPlayer, load_model_file, model_path
from agents.network import policy_spec
from arena.stats import wilson_interval
from arena.play import GameStopped, play_game
from games.batch import PlayerFactory
from games.registry import load_game
from training.config import TrainConfig, learner_device
from training.evaluate import EVAL_SEED_OFFSET
from training.cloning import pretrain
from training.files import copy_file, save_model, write_text
from training.game_imitation import record_chunk
from training.logs import announce_run, make_logger, metric_name
from training.league import SNAPSHOT, OpponentPool
from training.runs import BEST_FILE, FINAL_MODEL, LEAGUE_FILE, checkpoint_path, open_run, plan_run
from training.lifecycle import RunLifecycle
from training.stopping import StopSignal
from training.train import (CheckpointCallback, LeagueCallback, ProgressBarCallback, StopOnSignal, ValueWarmup,
                            load_checkpoint, save_on_stop)
from training.vec import GameVecEnv, player_factory

GAME_STATS_WINDOW = 100
MAX_EVAL_DECISIONS = 2000
AGENT_SEED_STRIDE = 16


@dataclass
class EvalResult:
    """The model's games against one opponent: wins (a shared win counts 1/w) of ``games``."""

    opponent: str
    games: int
    wins: float
    truncated: int

    @property
    def win_rate(self) -> float:
        return self.wins / self.games

    @property
    def interval(self) -> tuple[float, float]:
        return wilson_interval(self.wins, self.games)


def evaluate_game_model(game: str, model: str | Path, opponent: str, games: int, seed: int,
                        num_players: int = 2, make: PlayerFactory | None = None,
                        sample: bool = False, max_decisions: int = MAX_EVAL_DECISIONS,
                        search: int | None = None, workers: int = 1) -> EvalResult:
    """``ppo:model`` against ``opponent`` in every other seat, its own seat rotated by game;
    game ``g`` has seed ``seed + g``; ``sample``: the model draws its actions (seeded); ``search``:
    the model plays as ``ppo-search:model:search`` instead. A game past ``max_decisions`` is cut:
    a deterministic policy can repeat a free move forever where a game's move limit does not
    count it (Thrones' switches). ``workers`` > 1: the games split between that many spawned
    processes (at most one per core) of one torch thread each, whole seat rotations apiece: the
    same games as in one process."""
    if workers > 1 and make is None and games > num_players:
        return _evaluate_in_workers(game, model, opponent, games, seed, num_players, sample, max_decisions,
                                    search, workers)
    make = make or player_factory(game)
    wins, cut = 0.0, 0
    own = f"ppo-search:{model}:{search}" if search else f"ppo:{model}"
    for g in range(games):
        seat = g % num_players
        specs = [own if k == seat else opponent for k in range(num_players)]
        players = [_model_player(game, str(model), (seed + g) * AGENT_SEED_STRIDE + k, sample, search) if k == seat
                   else make(s, (seed + g) * AGENT_SEED_STRIDE + k) for k, s in enumerate(specs)]
        try:
            rec = play_game(game, _capped(players, max_decisions), seed + g, g, specs)
        except GameStopped as stop:  # past the cap: cut, no win
            rec = stop.record
        w = rec.winners
        wins += 1.0 / len(w) if seat in w and len(w) < num_players else 0.0
        cut += rec.truncated
    return EvalResult(opponent, games, wins, cut)


def _evaluate_in_workers(game: str, model: str | Path, opponent: str, games: int, seed: int, num_players: int,
                         sample: bool, max_decisions: int, search: int | None, workers: int) -> EvalResult:
    per = -(-games // workers)
    per = -(-per // num_players) * num_players  # whole rotations: each game keeps its seat and seed
    jobs = [(game, str(model), opponent, min(per, games - start), seed + start, num_players, sample,
             max_decisions, search) for start in range(0, games, per)]
    processes = min(workers, len(jobs), os.cpu_count() or 1)  # no more processes than cores
    with get_context("spawn").Pool(processes, initializer=_quiet_worker) as pool:
        parts = pool.map(_evaluate_star, jobs)
    return EvalResult(opponent, sum(p.games for p in parts), sum(p.wins for p in parts),
                      sum(p.truncated for p in parts))


def _quiet_worker() -> None:
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # Ctrl-C is the parent's: it ends the pool in one line


def _evaluate_star(job: tuple[Any, ...]) -> EvalResult:
    th.set_num_threads(1)  # a worker per core: two threads each would thrash
    game, model, opponent, games, seed, num_players, sample, max_decisions, search = job
    return evaluate_game_model(game, model, opponent, games, seed, num_players, sample=sample,
                               max_decisions=max_decisions, search=search)


def _model_player(game: str, model: str, seed: int, sample: bool, search: int | None) -> Any:
    if not search:
        return PPOPlayer(model, seed, sample)
    from agents.game_ppo_search import PPOSearchPlayer
    return PPOSearchPlayer(model, search, seed=seed, game=game)


def _capped(players: list[Any], cap: int) -> list[Any]:
    """The players of one game, stopping it (GameStopped) past ``cap`` decisions in all."""
    count = [0]

    def wrap(player: Any) -> Any:
        def play(view: Any, legal: list[int]) -> int:
            count[0] += 1
            if count[0] > cap:
                raise GameStopped(f"past {cap} decisions")
            return player(view, legal)
        return play
    return [wrap(p) for p in players]


def train_game(cfg: TrainConfig, resume: str | Path | None = None, progress: bool = True,
               config_name: str = "run") -> Path:
    """Train on ``cfg.game`` as the module docstring says; returns the run folder."""
    load_game(cfg.game)
    make = player_factory(cfg.game)
    for spec in [o.name for o in cfg.opponents] + list(cfg.eval_opponents) + [cfg.pretrain.teacher or "random"]:
        make(spec, 0)  # a bad spec: one line, before any folder
    plan = plan_run(cfg, resume, config_name)
    device = learner_device(cfg.device)
    bar = ProgressBarCallback(cfg.total_timesteps) if progress else None
    with RunLifecycle() as life:  # Ctrl-C, SIGTERM: a checkpoint, then TrainingStopped
        stop = life.stop
        life.own(bar)
        with life.setting_up():
            set_random_seed(cfg.seed)
            if cfg.torch_threads:
                th.set_num_threads(cfg.torch_threads)
            pool = OpponentPool.from_config(cfg)
            if plan.checkpoint is not None:
                pool.snapshots = OpponentPool.saved_snapshots(plan.run_dir / LEAGUE_FILE)[-pool.max_snapshots:]
            venv = life.own(VecMonitor(LeagueGameVecEnv(pool, cfg.game, cfg.n_envs, num_players=cfg.num_players,
                                                        seed=cfg.seed, make_player=make)))
            if plan.checkpoint is not None:
                model = load_checkpoint(plan.checkpoint, venv, device)
                venv.seed(cfg.seed + model.num_timesteps)  # a resumed run does not replay the same games
            else:
                policy_class, policy_kwargs = policy_spec(cfg.policy, cfg.net.channels, cfg.net.blocks,
                                                          cfg.net.hidden, board="grid")
                model = MaskablePPO(policy_class, venv, learning_rate=cfg.learning_rate, n_steps=cfg.n_steps,
                                    batch_size=cfg.batch_size, n_epochs=cfg.n_epochs, gamma=cfg.gamma,
                                    gae_lambda=cfg.gae_lambda, clip_range=cfg.clip_range, ent_coef=cfg.ent_coef,
                                    vf_coef=cfg.vf_coef, max_grad_norm=cfg.max_grad_norm,
                                    policy_kwargs=policy_kwargs, seed=cfg.seed, device=device, verbose=0)
                if cfg.init_from:  # before the folder: a network that does not fit is one line, no run
                    start_from(model.policy, cfg.init_from, cfg.game)
            run = life.run = open_run(plan, cfg)
            if progress:
                announce_run(run.dir)
                if plan.checkpoint is None and cfg.init_from:
                    print(f"starting from {cfg.init_from}", file=sys.stderr)
            model.set_logger(life.own(make_logger(run.dir, model.num_timesteps)))
            if plan.checkpoint is None and cfg.pretrain.teacher:
                pretrain(model, cfg, record_chunk, progress)
                save_model(model, run.dir / "pretrained_model.zip")
                save_model(model, checkpoint_path(run.dir, 0))  # a run stopped from here on resumes after cloning
        life.on_stop(lambda: save_on_stop(model, run))
        stop.guard(model.policy.optimizer)
        callbacks: list[BaseCallback] = [StopOnSignal(stop), GameStats(), CheckpointCallback(cfg, run.dir)]
        if cfg.value_warmup:  # a clone's critic learns this learner's returns before the policy moves
            callbacks.append(ValueWarmup(cfg.value_warmup))
        if cfg.selfplay.snapshot_every:
            callbacks.append(LeagueCallback(pool, cfg.selfplay.snapshot_every, run.dir))
        if cfg.eval_every:
            callbacks.append(GameEval(cfg, run.dir, make, stop))
        if bar is not None:
            callbacks.append(bar)
        remaining = cfg.total_timesteps - model.num_timesteps
        if remaining > 0:
            model.learn(remaining, callback=CallbackList(callbacks), reset_num_timesteps=plan.checkpoint is None)
        stop.check()
        save_model(model, run.dir / FINAL_MODEL)
    return run.dir


def start_from(policy: Any, spec: str, game: str) -> None:
    """Copy into ``policy`` the weights of the model ``spec`` names (a path, or ``pretrained``:
    ``game``'s shipped network); ValueError in one line when it is no model or its network is
    another (a different game, policy or net)."""
    source = load_model_file(model_path(spec, game)).policy.state_dict()
    own = policy.state_dict()
    differs = next((k for k in own if k not in source or source[k].shape != own[k].shape), None)
    if differs is not None or len(source) != len(own):
        raise ValueError(f"init_from {spec[:80]!r}: its network is not this config's ("
                         f"{differs or 'more weights'}); give a model of {game} with the same policy and net")
    policy.load_state_dict(source)


class LeagueGameVecEnv(GameVecEnv):
    """A :class:`GameVecEnv` whose opponents are an :class:`OpponentPool`'s: its bots by spec and
    its snapshots (model paths) as players sampling their policy; :meth:`set_snapshots` is what
    :class:`~training.train.LeagueCallback` calls. Games report a snapshot as ``snapshot``."""

    def __init__(self, pool: OpponentPool, game: str, num_envs: int, *, make_player: PlayerFactory,
                 **kwargs: Any) -> None:
        self.pool, self.make_bot = pool, make_player
        self.bots = {name for name, _ in pool.bots}
        specs, weights = zip(*pool.entries())
        super().__init__(game, num_envs, opponents=list(specs), weights=list(weights),
                         make_player=self._make_player, **kwargs)

    def _make_player(self, spec: str, seed: int) -> Any:
        return PPOPlayer(spec, seed, sample=True) if self.pool.is_snapshot(spec) else self.make_bot(spec, seed)

    def set_snapshots(self, paths: Sequence[str]) -> None:
        """Replace the pool's snapshots; games that start from now on draw from the new pool."""
        self.pool.snapshots = list(paths)[-self.pool.max_snapshots:]
        specs, weights = zip(*self.pool.entries())
        self.set_opponents(list(specs), list(weights))

    def step_wait(self) -> tuple[np.ndarray, np.ndarray, np.ndarray, list[dict[str, Any]]]:
        obs, rewards, dones, infos = super().step_wait()
        for info in infos:
            if "game" in info and info["game"]["opponent"] not in self.bots:  # a snapshot, maybe dropped since
                info["game"]["opponent"] = SNAPSHOT
        return obs, rewards, dones, infos


class GameStats(BaseCallback):
    """game/win_rate, game/return, game/length (and win rate per opponent) of the last games."""

    def __init__(self) -> None:
        super().__init__()
        self.games: deque[dict[str, Any]] = deque(maxlen=GAME_STATS_WINDOW)

    def _on_step(self) -> bool:
        self.games.extend(info["game"] for info in self.locals["infos"] if "game" in info)
        return True

    def _on_rollout_end(self) -> None:
        for key in ("win", "return", "length", "truncated"):
            if self.games:
                self.logger.record(f"game/{'win_rate' if key == 'win' else key}",
                                   float(np.mean([g[key] for g in self.games])))
        per: dict[str, list[float]] = defaultdict(list)
        for g in self.games:
            per[g["opponent"]].append(g["win"])
        for opp, wins in per.items():
            self.logger.record(f"game/win_rate_{metric_name(opp)}", float(np.mean(wins)))


class GameEval(BaseCallback):
    """Every ``eval_every`` timesteps (and at the start and the end): ``eval/win_rate_<opp>``
    for each eval opponent on the same seeds each time; the best mean kept as best_model.zip."""

    def __init__(self, cfg: TrainConfig, run_dir: Path, make: PlayerFactory, stop: StopSignal) -> None:
        super().__init__()
        self.cfg, self.run_dir, self.make, self.stop = cfg, run_dir, make, stop
        best = run_dir / BEST_FILE
        self.best = json.loads(best.read_text())["mean_win_rate"] if best.is_file() else -1.0
        self.next_at, self.last = 0, -1

    def _on_training_start(self) -> None:
        self.next_at = self.model.num_timesteps
        self._on_rollout_end()

    def _on_step(self) -> bool:
        return True

    def _on_rollout_end(self) -> None:
        if self.model.num_timesteps >= self.next_at:
            self.evaluate()
            self.next_at = self.model.num_timesteps + self.cfg.eval_every

    def _on_training_end(self) -> None:
        if self.last != self.model.num_timesteps:
            self.evaluate()

    def evaluate(self) -> None:
        t, cfg = self.model.num_timesteps, self.cfg
        with self.stop.at_once():  # a stop ends it where it is (thrown away; the checkpoint is saved)
            path = save_model(self.model, self.run_dir / "eval_model.zip")
            results = [evaluate_game_model(cfg.game, path, opp, cfg.eval_games, cfg.seed + EVAL_SEED_OFFSET,
                                           cfg.num_players, self.make, cfg.eval_sample) for opp in cfg.eval_opponents]
        for r in results:
            self.logger.record(f"eval/win_rate_{metric_name(r.opponent)}", r.win_rate)
        mean = float(np.mean([r.win_rate for r in results]))
        self.logger.record("eval/mean_win_rate", mean)
        if mean > self.best:
            self.best = mean
            copy_file(path, self.run_dir / "best_model.zip")
            write_text(self.run_dir / BEST_FILE, json.dumps(
                {"mean_win_rate": mean, "timesteps": t, "win_rates": {r.opponent: r.win_rate for r in results}},
                indent=1))
        self.logger.record("time/total_timesteps", t)
        self.logger.dump(t)
        self.last = t


def eval_table(results: Sequence[EvalResult]) -> str:
    """One line per opponent: games, win rate and its 95% Wilson interval, games cut."""
    lines = [f"{'opponent':<14} {'games':>5} {'win %':>6}  95% interval   cut"]
    for r in results:
        lo, hi = r.interval
        lines.append(f"{r.opponent:<14} {r.games:>5} {100 * r.win_rate:>6.1f}  "
                     f"[{100 * lo:5.1f}, {100 * hi:5.1f}]  {r.truncated:>3}")
    return "\n".join(lines)
