"""``vigtavl az train``: search and learning in one loop (Gumbel AlphaZero, with dice, interrupts
and 2-4 players).

::

    vigtavl az train --config az [--set key=value ...]
    vigtavl az train --resume RUN_DIR

Read :func:`train_az` top to bottom. The network (:class:`agents.az.AZNet`) starts from a PPO
model's weights (``start_from``). Each generation:

1. **Self-play.** ``games_per_generation`` games, ``parallel_games`` at a time, every decision
   with a real choice made by :mod:`agents.gumbel`'s search (Gumbel noise at the root, so the
   move played samples the improved policy). Each searched position goes to the replay buffer
   with the search's improved policy over its legal actions and, when its game ends, the
   results seen from its player (a game cut at ``max_steps``: 0 for everyone).
2. **Training.** ``updates_per_generation`` minibatches from the buffer: cross-entropy of the
   improved policy against the network's policy normalised over the legal actions, plus
   ``value_weight`` times the MSE of the value vector.
3. **Evaluation.** The generation's network alone (``az:gen_<k>.pt``) against the previous
   generation's and against each of ``eval_opponents`` (``ppo:pretrained``), with the match
   runner, seats rotated, on seeds no self-play game uses; logged as ``eval/*``.

A run writes into ``runs/<run>/`` (:mod:`training.runs`)::

    config.yaml                 the resolved AZConfig
    generations/gen_<k>.pt      each generation's network (gen_0: the starting weights)
    checkpoints/az_<positions>/ state.pt (network, optimizer, counters) and buffer.npz: after each
                                generation, every checkpoint_minutes of self-play and on Ctrl-C or
                                SIGTERM (the newest two are kept)
    progress.csv, tb/           selfplay/*, loss/*, eval/* by positions (time/total_timesteps)
    best.json                   the generation with the best mean win rate against eval_opponents
                                (chosen on the evaluation seeds: measure it again on others)

``--resume`` continues from the newest good checkpoint where it stopped: the same generation,
its games finished so far (in the buffer), its updates done (the games under way when the run
stopped are dropped, and the stop says how many).
Ctrl-C or SIGTERM stops within seconds (training/stopping.py): the search checks between rounds
of simulations, an update stops between minibatches, an evaluation is dropped and played again
on resume; the status is 130 or 143.
"""

from __future__ import annotations

import copy
import json
import os
import random
import shutil
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np
import torch as th
from torch.nn import functional as F
from tqdm import tqdm

from agents.az import AZ_GAME, AZNet, NetEvaluator, from_ppo, load_az_net, model_payload, net_from_payload
from agents.game_steps import steps_for
from agents.gumbel import BatchedSearch, from_seats
from agents.network import MASKED_LOGIT
from arena.vigtavl_match import run_match
from games import load_game
from training.az_config import AZConfig
from training.damage import loading
from training.evaluate import best_so_far
from training.files import TMP_MARK, replacing, temporary_for, write_text
from training.logs import RunLogger, announce_run, metric_name, say
from training.runs import BEST_FILE, Run, checkpoint_path, checkpoints, open_run, plan_run
from training.schedule import Clock
from training.lifecycle import RunLifecycle
from training.stopping import StopSignal

COMMAND = "vigtavl az train"
GENERATIONS = "generations"
KEEP_CHECKPOINTS = 2
EVAL_SEED_OFFSET = 1_000_000  # evaluation games use seeds far from self-play's (seed + game index)
SELFPLAY, TRAIN, EVAL = "selfplay", "train", "eval"
TINY = np.finfo(np.float32).tiny  # a row whose policy sums to 0 (never saved) stays 0, not NaN


# ------------------------------------------------------------------ the replay buffer
class ReplayBuffer:
    """The newest ``capacity`` searched positions: planes (float16), the legal actions' env
    indices with the improved policy over them (``max_legal`` at most, -1 padded), and the
    results seen from the position's player."""

    def __init__(self, capacity: int, obs_shape: tuple[int, ...], n_players: int, max_legal: int) -> None:
        self.capacity, self.max_legal = capacity, max_legal
        self.obs = np.zeros((capacity,) + tuple(obs_shape), dtype=np.float16)
        self.legal = np.full((capacity, max_legal), -1, dtype=np.int32)
        self.policy = np.zeros((capacity, max_legal), dtype=np.float32)
        self.value = np.zeros((capacity, n_players), dtype=np.float32)
        self.size = self.next = 0
        self.clipped = 0  # positions whose legal actions were more than max_legal

    def add(self, obs: np.ndarray, legal: np.ndarray, policy: np.ndarray, value: np.ndarray) -> None:
        i = self.next
        if len(legal) > self.max_legal:
            legal, policy = likeliest(legal, policy, self.max_legal)
            self.clipped += 1
        self.obs[i] = obs
        self.legal[i] = -1
        self.legal[i, : len(legal)] = legal
        self.policy[i] = 0.0
        self.policy[i, : len(policy)] = policy
        self.value[i] = value
        self.next = (i + 1) % self.capacity
        self.size = min(self.size + 1, self.capacity)

    def sample(self, n: int, rng: np.random.Generator) -> tuple[np.ndarray, ...]:
        idx = rng.integers(0, self.size, size=min(n, self.size))
        return self.obs[idx], self.legal[idx], self.policy[idx], self.value[idx]

    def save(self, path: Path) -> None:
        np.savez_compressed(path, obs=self.obs[: self.size], legal=self.legal[: self.size],
                            policy=self.policy[: self.size], value=self.value[: self.size],
                            meta=np.array([self.size, self.next, self.clipped], dtype=np.int64))

    def load(self, path: Path) -> None:
        """The buffer saved at ``path``, into this one's sizes (a resume with new ones): a smaller
        capacity keeps the first rows; a smaller ``max_legal`` each row's likeliest actions, as
        :meth:`add` does, a larger one pads."""
        with np.load(path) as z:
            size, nxt, clipped = (int(x) for x in z["meta"])
            n = min(size, self.capacity)
            legal, policy = z["legal"][:n], z["policy"][:n]
            if legal.shape[1] > self.max_legal:
                legal, policy = likeliest(legal, policy, self.max_legal)
            width = legal.shape[1]
            self.obs[:n], self.value[:n] = z["obs"][:n], z["value"][:n]
            self.legal[:n, :width], self.policy[:n, :width] = legal, policy
        self.size, self.next, self.clipped = n, nxt % self.capacity, clipped


def likeliest(legal: np.ndarray, policy: np.ndarray, k: int) -> tuple[np.ndarray, np.ndarray]:
    """The ``k`` likeliest of the legal actions (of each row), the policy renormalised over them."""
    keep = np.argsort(-policy, axis=-1, kind="stable")[..., :k]
    policy = np.take_along_axis(policy, keep, -1)
    return np.take_along_axis(legal, keep, -1), policy / np.maximum(policy.sum(-1, keepdims=True), TINY)


# ------------------------------------------------------------------ self-play
@dataclass
class _Game:
    state: Any  # a position of the az game's steps (Vigtavl's: an engine state)
    steps: int = 0
    positions: list[tuple[np.ndarray, np.ndarray, np.ndarray, int]] = field(default_factory=list)


@dataclass
class SelfPlayStats:
    games: int = 0
    positions: int = 0
    decisions: int = 0
    truncated: int = 0
    lengths: list[int] = field(default_factory=list)
    seconds: float = 0.0


class SelfPlay:
    """Games whose moves the search chooses, ``parallel`` at a time, into the buffer. A game goes
    in when it ends; a stop drops the games under way (:attr:`under_way`: no result to learn from)."""

    def __init__(self, cfg: AZConfig, evaluator: NetEvaluator, buffer: ReplayBuffer, stop: StopSignal | None,
                 seed: int) -> None:
        game = load_game(AZ_GAME)
        self.steps = steps_for(game)
        self.new_game = self.steps.new_games(game, cfg.num_players, cfg.seed, map=cfg.map)
        self.cfg, self.evaluator, self.buffer = cfg, evaluator, buffer
        self.search = BatchedSearch(evaluator, cfg.num_players, cfg.search,
                                    seed=seed, stop=None if stop is None else stop.check, steps=self.steps)
        self.under_way: list[_Game] = []

    def play(self, games: int, first_game: int, on_game: Any = None) -> SelfPlayStats:
        """Play ``games`` games (game g's dice: seed + first_game + g); ``on_game(stats)`` after each."""
        stats, started, slots, steps = SelfPlayStats(), 0, self.under_way, self.steps
        t0 = time.perf_counter()
        while stats.games < games:
            while len(slots) < self.cfg.parallel_games and started < games:
                slots.append(_Game(self.new_game(self.cfg.seed + first_game + started)))
                started += 1
            results = self.search.run([g.state for g in slots])
            done = []
            for g, r in zip(slots, results):
                if r.simulations:
                    obs = self.evaluator.encode([g.state])[0].astype(np.float16)
                    legal = steps.indices(g.state, r.legal).astype(np.int32)
                    g.positions.append((obs, legal, r.policy.astype(np.float32), steps.player(g.state)))
                steps.apply(g.state, r.action, r.legal)
                g.steps += 1
                stats.decisions += 1
                if steps.is_over(g.state) or g.steps >= self.cfg.max_steps:
                    done.append(g)
            for g in done:
                slots.remove(g)
                self._finish(g, stats)
                if on_game is not None:
                    on_game(stats)
        stats.seconds = time.perf_counter() - t0
        return stats

    def _finish(self, g: _Game, stats: SelfPlayStats) -> None:
        over = self.steps.is_over(g.state)
        results = np.asarray(self.steps.returns(g.state) if over else [0.0] * self.cfg.num_players)
        for obs, legal, policy, player in g.positions:
            self.buffer.add(obs, legal, policy, from_seats(results, player))
        stats.games += 1
        stats.positions += len(g.positions)
        stats.truncated += not over
        stats.lengths.append(g.steps)


# ------------------------------------------------------------------ learning
def update(net: AZNet, optimizer: th.optim.Optimizer, batch: tuple[np.ndarray, ...], cfg: AZConfig,
           device: th.device) -> dict[str, float]:
    """One gradient step on a minibatch; the losses."""
    obs, legal, policy, value = (th.as_tensor(x, device=device) for x in batch)
    logits, values = net(obs.float())
    pad = legal < 0
    legal_logits = logits.gather(1, legal.clamp(min=0).long()).masked_fill(pad, MASKED_LOGIT)
    logp = F.log_softmax(legal_logits, dim=1)  # normalised over the legal actions only
    policy_loss = -(policy * logp.masked_fill(pad, 0.0)).sum(1).mean()
    value_loss = F.mse_loss(values, value)
    loss = policy_loss + cfg.value_weight * value_loss
    optimizer.zero_grad()
    loss.backward()
    th.nn.utils.clip_grad_norm_(net.parameters(), cfg.max_grad_norm)
    optimizer.step()
    with th.no_grad():
        target_entropy = -(policy * th.log(policy.clamp(min=1e-12))).sum(1).mean()
        agree = (legal_logits.argmax(1) == policy.argmax(1)).float().mean()
    return {"loss/policy": float(policy_loss.detach()), "loss/value": float(value_loss.detach()),
            "loss/target_entropy": float(target_entropy), "loss/top1_agreement": float(agree)}


# ------------------------------------------------------------------ the run's state
@dataclass
class Progress:
    """Where a run is: generations finished, the stage of the next, counts within it, totals."""

    generation: int = 0
    stage: str = SELFPLAY
    games_in_generation: int = 0
    updates_in_generation: int = 0
    positions: int = 0
    games: int = 0
    updates: int = 0


def save_checkpoint(run_dir: Path, net: AZNet, optimizer: th.optim.Optimizer, buffer: ReplayBuffer,
                    progress: Progress) -> Path:
    """``checkpoints/az_<positions>/``, written whole under a hidden temporary name
    (training/files.py's, cleared when the run folder is next opened), then renamed in; a
    folder of that name already there is set aside first. The newest two are kept."""
    path = checkpoint_path(run_dir, progress.positions, "az")
    tmp = temporary_for(path)
    shutil.rmtree(tmp, ignore_errors=True)
    tmp.mkdir(parents=True)
    try:
        th.save({"net": model_payload(net), "optimizer": optimizer.state_dict(), "progress": vars(progress)},
                tmp / "state.pt")
        buffer.save(tmp / "buffer.npz")
    except BaseException:
        shutil.rmtree(tmp, ignore_errors=True)
        raise
    if path.exists():
        aside = path.with_name(f".{path.name}{TMP_MARK}old-{os.getpid()}")
        path.rename(aside)
        tmp.rename(path)
        shutil.rmtree(aside, ignore_errors=True)
    else:
        tmp.rename(path)
    for old in checkpoints(run_dir, "az")[KEEP_CHECKPOINTS:]:
        shutil.rmtree(old, ignore_errors=True)
    return path


def load_checkpoint(path: Path, device: th.device, buffer_of: Any,
                    progress_type: Any = Progress) -> tuple[AZNet, dict, ReplayBuffer, Any]:
    """What a resume continues from (one line naming the checkpoint if it does not load);
    ``progress_type``: the loop's progress dataclass (the Ray loop's: training.az_ray.learner.LoopProgress)."""
    with loading(path):
        state = th.load(path / "state.pt", map_location="cpu", weights_only=True)
        net = net_from_payload(state["net"], f"checkpoint {path}").to(device)
        buffer = buffer_of(net)
        buffer.load(path / "buffer.npz")
        return net, state["optimizer"], buffer, progress_type(**state["progress"])


def learning_state(cfg: AZConfig, checkpoint: Path | None, device: th.device,
                   progress_type: Any = Progress) -> tuple[AZNet, th.optim.Optimizer, ReplayBuffer, Any]:
    """The seeded start of a run, or where ``checkpoint`` left one: network, optimiser, buffer and
    progress (``progress_type``'s)."""
    random.seed(cfg.seed)
    np.random.seed(cfg.seed)
    th.manual_seed(cfg.seed)
    if cfg.torch_threads:
        th.set_num_threads(cfg.torch_threads)

    def new_buffer(net: AZNet) -> ReplayBuffer:
        return ReplayBuffer(cfg.buffer_size, net.obs_shape, cfg.num_players, cfg.max_legal)

    if checkpoint is None:
        net = starting_net(cfg).to(device)
        optimizer_state, buffer, prog = None, new_buffer(net), progress_type()
    else:
        net, optimizer_state, buffer, prog = load_checkpoint(checkpoint, device, new_buffer, progress_type)
    optimizer = th.optim.Adam(net.parameters(), lr=cfg.learning_rate, weight_decay=cfg.weight_decay)
    if optimizer_state is not None:
        optimizer.load_state_dict(optimizer_state)
    return net, optimizer, buffer, prog


def resolve_device(device: str) -> th.device:
    """The config's device as torch's (resolved by :func:`training.config.learner_device`)."""
    from training.config import learner_device
    return th.device(learner_device(device))


def starting_net(cfg: AZConfig) -> AZNet:
    """The network the run starts from: an az model file (``.pt``: a generation of an earlier run,
    copied) or the PPO model ``start_from``, converted (agents.az.from_ppo)."""
    if cfg.start_from.endswith(".pt"):
        net = copy.deepcopy(load_az_net(cfg.start_from))  # the loader's copy is cached: train another
    else:
        from agents.ppo import load_model
        net = from_ppo(load_model(cfg.start_from))
    if net.n_players != cfg.num_players:
        raise ValueError(f"start_from {cfg.start_from} plays {net.n_players}-player games, the config {cfg.num_players}")
    return net


def generation_path(run_dir: Path, k: int) -> Path:
    return run_dir / GENERATIONS / f"gen_{k}.pt"


def save_generation(run_dir: Path, net: AZNet, k: int) -> Path:
    path = generation_path(run_dir, k)
    with replacing(path) as tmp:
        th.save(model_payload(net), tmp)
    return path


def evaluate_generation(cfg: AZConfig, run_dir: Path, k: int) -> dict[str, float]:
    """Generation k's network alone against generation k-1's and each eval opponent: win rates."""
    me = f"az:{generation_path(run_dir, k)}"
    opponents = [(f"az:{generation_path(run_dir, k - 1)}", "previous")] + [(o, o) for o in cfg.eval_opponents]
    metrics = {}
    for spec, label in opponents:
        match = run_match([me] + [spec] * (cfg.num_players - 1), cfg.eval_games, cfg.seed + EVAL_SEED_OFFSET,
                          workers=cfg.eval_workers, num_players=cfg.num_players, map=cfg.map, progress=False,
                          shielded=True)
        stats = {s.name: s for s in match.stats()}
        metrics[f"eval/win_rate_{metric_name(label)}"] = stats[me].win_rate
    return metrics


def gate_generation(cfg: AZConfig, run_dir: Path, net: AZNet, k: int, metrics: dict[str, float]) -> bool:
    """``gate``: whether generation k (``net``) won enough of its games against the network before
    it to replace it. If not, it is saved as ``gen_<k>_rejected.pt``, ``net`` takes the weights of
    ``gen_<k-1>.pt`` again and they are saved as ``gen_<k>.pt``, so self-play and the next
    comparison go on from the network kept."""
    if not cfg.gate or metrics["eval/win_rate_previous"] >= cfg.gate:
        return True
    with replacing(generation_path(run_dir, k).with_name(f"gen_{k}_rejected.pt")) as tmp:
        th.save(model_payload(net), tmp)
    net.load_state_dict(load_az_net(generation_path(run_dir, k - 1)).state_dict())
    save_generation(run_dir, net, k)
    return False


def record_best(cfg: AZConfig, run_dir: Path, k: int, positions: int, metrics: dict[str, float]) -> bool:
    """best.json names the generation with the best mean win rate against ``eval_opponents`` (the
    previous generation is not an opponent to choose by: it moves). Returns whether k is it."""
    rates = {o: metrics[f"eval/win_rate_{metric_name(o)}"] for o in cfg.eval_opponents}
    if not rates:
        return False
    mean = float(np.mean(list(rates.values())))
    if mean <= best_so_far(run_dir):
        return False
    write_text(run_dir / BEST_FILE, json.dumps(
        {"mean_win_rate": mean, "generation": k, "model": str(generation_path(run_dir, k).relative_to(run_dir)),
         "positions": positions, "win_rates": rates}, indent=1))
    return True


# ------------------------------------------------------------------ the loop
def train_az(cfg: AZConfig, resume: str | Path | None = None, progress: bool = True,
             config_name: str = "az") -> Path:
    """Run ``cfg`` (continuing ``resume``: a run folder or an az checkpoint); returns the run
    folder. Raises :class:`~training.stopping.TrainingStopped` after a checkpoint on Ctrl-C or SIGTERM."""
    plan = plan_run(cfg, resume, config_name, backend="az")
    device = resolve_device(cfg.device)
    selfplay: SelfPlay | None = None
    with RunLifecycle(COMMAND) as life:  # Ctrl-C, SIGTERM: a checkpoint, then TrainingStopped
        stop = life.stop
        with life.setting_up():  # the set-up: dropped where it is on a signal
            net, optimizer, buffer, prog = learning_state(cfg, plan.checkpoint, device)
            run = life.run = open_run(plan, cfg)
            if progress:
                announce_run(run.dir)
            if plan.checkpoint is None:
                save_generation(run.dir, net, 0)
            logger = life.own(RunLogger(run.dir, prog.positions))
        life.on_stop(lambda: _save_on_stop(run, (net, optimizer, buffer, prog), selfplay))
        stop.guard(optimizer)
        evaluator = NetEvaluator(net, device)
        np_rng = np.random.default_rng(cfg.seed + prog.updates)
        clock = Clock(cfg.checkpoint_minutes)

        while prog.generation < cfg.generations:
            k = prog.generation + 1
            if prog.stage == SELFPLAY:
                net.eval()
                selfplay = SelfPlay(cfg, evaluator, buffer, stop, seed=cfg.seed + prog.positions)
                bar = tqdm(total=cfg.games_per_generation, initial=prog.games_in_generation, unit="game",
                           desc=f"gen {k} self-play", disable=not progress, dynamic_ncols=True)
                counted = [0, 0]

                def on_game(stats: SelfPlayStats) -> None:
                    prog.games_in_generation += stats.games - counted[0]
                    prog.games += stats.games - counted[0]
                    prog.positions += stats.positions - counted[1]
                    counted[:] = [stats.games, stats.positions]
                    bar.update(1)
                    bar.set_postfix(positions=prog.positions, buffer=buffer.size)
                    if clock.due():
                        save_checkpoint(run.dir, net, optimizer, buffer, prog)
                        clock.restart()
                try:
                    stats = selfplay.play(cfg.games_per_generation - prog.games_in_generation,
                                          prog.games, on_game)
                finally:
                    bar.close()
                evals = selfplay.search.evaluations
                logger.write({"time/total_timesteps": prog.positions, "selfplay/generation": k,
                              "selfplay/games": stats.games, "selfplay/positions": stats.positions,
                              "selfplay/positions_per_s": stats.positions / max(stats.seconds, 1e-9),
                              "selfplay/decisions_per_s": stats.decisions / max(stats.seconds, 1e-9),
                              "selfplay/evaluations_per_s": evals / max(stats.seconds, 1e-9),
                              "selfplay/mean_length": float(np.mean(stats.lengths)) if stats.lengths else 0.0,
                              "selfplay/truncated": stats.truncated, "selfplay/buffer": buffer.size})
                prog.stage = TRAIN
            if prog.stage == TRAIN:
                net.train()
                sums: dict[str, float] = {}
                n = 0
                while prog.updates_in_generation < cfg.updates_per_generation and buffer.size:
                    stop.check()
                    m = update(net, optimizer, buffer.sample(cfg.batch_size, np_rng), cfg, device)
                    prog.updates_in_generation += 1
                    prog.updates += 1
                    n += 1
                    for key, v in m.items():
                        sums[key] = sums.get(key, 0.0) + v
                net.eval()
                row = {key: v / n for key, v in sums.items()} if n else {}
                logger.write({"time/total_timesteps": prog.positions, "loss/updates": prog.updates, **row})
                if progress and n:
                    say(f"gen {k}: {n} updates, " + ", ".join(f"{key[5:]} {v:.3f}" for key, v in row.items()))
                prog.stage = EVAL
            if prog.stage == EVAL:
                save_generation(run.dir, net, k)  # here, not after training: a resumed evaluation saves the candidate again
                if cfg.eval_games:
                    with stop.at_once():  # thrown away on a signal, played again on resume
                        metrics = evaluate_generation(cfg, run.dir, k)
                    accepted = gate_generation(cfg, run.dir, net, k, metrics)
                    if cfg.gate:
                        metrics["eval/accepted"] = float(accepted)
                    logger.write({"time/total_timesteps": prog.positions, "eval/generation": k, **metrics})
                    if accepted:
                        record_best(cfg, run.dir, k, prog.positions, metrics)
                    if progress:
                        say(f"gen {k}: " + ", ".join(f"{key[5:]} {v:.2f}" for key, v in metrics.items()))
                prog.generation, prog.stage = k, SELFPLAY
                prog.games_in_generation = prog.updates_in_generation = 0
                save_checkpoint(run.dir, net, optimizer, buffer, prog)
                clock.restart()
    return run.dir


def _save_on_stop(run: Run, state: tuple, selfplay: SelfPlay | None) -> str:
    """Save where a stopped run was (the games it finished are in the buffer) and say so, and say
    how many games under way were dropped."""
    net, optimizer, buffer, prog = state
    path = save_checkpoint(run.dir, net, optimizer, buffer, prog)
    games = selfplay.under_way if selfplay is not None else []
    dropped = (f"; {len(games)} games under way dropped ({sum(len(g.positions) for g in games):,} positions: "
               "a game unfinished has no result to learn from)" if games else "")
    return (f"in generation {prog.generation + 1} ({prog.stage}), {prog.positions:,} positions "
            f"of finished games{dropped}; checkpoint {path}")
