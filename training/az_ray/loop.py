"""``vigtavl az train --ray``: the AlphaZero loop on Ray. Read :func:`train_az_ray` top to bottom.

The driver is the learner (:mod:`training.az_ray.learner`, on the GPU when there is one). It
hands game seeds to the self-play actors (:mod:`training.az_ray.actors`), takes their finished
games into the buffer, trains between their results as the cap allows, publishes weights, and
keeps one pairing in flight per evaluator (:mod:`training.az_ray.evaluator`). Ray is a private
local instance with ``--num-cpus`` CPUs (training/raylocal.py), or the cluster at
``--ray-address``.

The run folder is the generation loop's (training/runs.py, backend ``az``): config.yaml,
checkpoints/az_<positions>/ (state.pt: network, optimiser, :class:`LoopProgress`; buffer.npz),
progress.csv and tb/ (selfplay/*, loss/*, lag/*, value/agree_*, eval/*), eval.jsonl (every
evaluation chunk: version, opponent, games, wins), generations/gen_<v>.pt (version 0 and each
gate candidate), best.json (the best network so far, by the gate).

A checkpoint every ``checkpoint_minutes``, at the end (``ray.max_minutes``, ``ray.max_positions``)
and on Ctrl-C or SIGTERM (training/stopping.py: status 130 or 143). ``--resume`` restores the
network, the optimiser, the buffer and the counters; the seeds that were out (games under way)
are played first."""

from __future__ import annotations

import json
import time
from collections import deque
from pathlib import Path
from typing import Any

import torch as th

from agents.az import AZNet
from training.az import (
    COMMAND, EVAL_SEED_OFFSET, ReplayBuffer, generation_path, learning_state, resolve_device, save_checkpoint,
    save_generation,
)
from training.az_config import AZConfig
from training.az_ray.actors import Crash, SelfPlayPool, WeightStore, call
from training.az_ray.evaluator import BEST, EvalWorker, eval_seed, gate_result, next_pairing, open_gate
from training.az_ray.learner import Learner, LoopProgress
from training.az_ray.records import GameRecord
from training.az_ray.value_check import phase_agreement
from training.files import write_text
from training.logs import RunLogger, announce_run, metric_name, say
from training.runs import BEST_FILE, Run, open_run, plan_run
from training.schedule import Clock
from training.stopping import StopSignal, TrainingStopped

EVAL_LOG = "eval.jsonl"
RAY_COMMAND = COMMAND + " --ray"
UPDATES_PER_TURN = 4  # updates between two looks at the actors: results are taken in within a second


def train_az_ray(cfg: AZConfig, resume: str | Path | None = None, progress: bool = True, config_name: str = "az",
                 ray_address: str | None = None, num_cpus: int = 2, remote: bool = True,
                 crash: dict[int, Crash] | None = None) -> Path:
    """Run ``cfg`` on Ray (``remote=False``: every actor in this process, for tests); returns the
    run folder. Raises :class:`TrainingStopped` after a checkpoint on Ctrl-C or SIGTERM.
    ``crash``: tests: actor k's process dies once after so many moves (actors.SelfPlayWorker)."""
    if remote and ray_address is None:
        need = cfg.ray.actors * cfg.ray.actor_cpus + cfg.ray.evaluators * cfg.ray.evaluator_cpus
        if need > num_cpus:
            raise ValueError(f"the actors and evaluators reserve {need:g} CPUs (ray.actors x ray.actor_cpus + "
                             f"ray.evaluators x ray.evaluator_cpus) and the local Ray instance has {num_cpus} "
                             "(--num-cpus): they would wait for each other for ever")
    plan = plan_run(cfg, resume, config_name, backend="az")
    device = resolve_device(cfg.device)
    stop = StopSignal()
    stop.install()
    session = run = logger = pool = None
    queue: deque[int] = deque()  # seeds to play before new ones: those a stop or a crash left
    state: tuple[AZNet, th.optim.Optimizer, ReplayBuffer, LoopProgress] | None = None
    try:
        with stop.at_once():  # the set-up: dropped where it is on a signal
            net, optimizer, buffer, prog = learning_state(cfg, plan.checkpoint, device, LoopProgress)
            net.eval()
            if remote:
                from training.raylocal import start_ray
                session = start_ray(ray_address, num_cpus)
                stop.install()  # ray.init put a SIGTERM handler of its own in place
            run = open_run(plan, cfg)
            if progress:
                announce_run(run.dir)
            if plan.checkpoint is None:
                save_generation(run.dir, net, 0)
            logger = RunLogger(run.dir, prog.positions)
            store = _make(WeightStore, remote, 0)
            learner = Learner(cfg, net, optimizer, buffer, prog, device,
                              lambda v, payload: call(store, "publish", v, payload))
            weights = learner.weights()
            call(store, "publish", *weights)
            pool = SelfPlayPool(cfg, weights, store, remote, crash)
            evaluators = [_make(EvalWorker, remote, cfg.ray.evaluator_cpus, cfg,
                                restarts=cfg.ray.max_restarts) for _ in range(cfg.ray.evaluators)]
        state = (net, optimizer, buffer, prog)
        queue.extend(prog.pending_seeds)
        stop.guard(optimizer)
        _loop(cfg, run.dir, stop, logger, learner, pool, queue, evaluators, progress)
        save_checkpoint(run.dir, net, optimizer, buffer, _with_pending(prog, pool, queue))
    except KeyboardInterrupt:
        if not stop.requested:
            raise
        raise _stopped(stop, run, state, pool, queue) from None
    finally:
        stop.uninstall()
        if pool is not None:
            pool.close()
        if logger is not None:
            logger.close()
        if session is not None:
            session.close()
        if run is not None:
            run.close()
    return run.dir


def _make(cls: type, remote: bool, cpus: float, *args: Any, restarts: int = 0) -> Any:
    """``cls(*args)``: here, or as a Ray actor of ``cpus`` CPUs that Ray restarts ``restarts`` times."""
    if not remote:
        return cls(*args)
    import ray
    return ray.remote(num_cpus=cpus, max_restarts=restarts)(cls).remote(*args)


def _with_pending(prog: LoopProgress, pool: SelfPlayPool, queue: Any) -> LoopProgress:
    prog.pending_seeds = list(queue) + pool.seeds_out()
    return prog


class _Evaluations:
    """The evaluators' calls in flight: ref -> (evaluator, opponent label, version)."""

    def __init__(self, workers: list[Any], remote: bool) -> None:
        self.workers, self.remote = workers, remote
        self.in_flight: dict[Any, tuple[int, str, int]] = {}
        self.local: dict[Any, dict[str, Any]] = {}

    def submit(self, k: int, label: str, version: int, *args: Any) -> None:
        if self.remote:
            ref = self.workers[k].play.remote(*args)
        else:
            ref = object()
            self.local[ref] = self.workers[k].play(*args)
        self.in_flight[ref] = (k, label, version)

    def idle(self) -> list[int]:
        busy = {k for k, _, _ in self.in_flight.values()}
        return [k for k in range(len(self.workers)) if k not in busy]

    def finished(self) -> list[tuple[str, int, dict[str, Any]]]:
        if not self.in_flight:
            return []
        if self.remote:
            import ray
            from ray.exceptions import RayActorError, RayTaskError
            ready, _ = ray.wait(list(self.in_flight), num_returns=len(self.in_flight), timeout=0)
            results = {}
            for ref in ready:
                try:
                    results[ref] = ray.get(ref)
                except (RayActorError, RayTaskError) as e:  # a chunk lost: not counted, the next one played
                    self.in_flight.pop(ref)
                    say(f"warning: an evaluation chunk failed ({type(e).__name__}); it is not counted")
        else:
            results, self.local = self.local, {}
        out = []
        for ref, res in results.items():
            _, label, version = self.in_flight.pop(ref)
            out.append((label, version, res))
        return out


def _loop(cfg: AZConfig, run_dir: Path, stop: StopSignal, logger: RunLogger, learner: Learner, pool: SelfPlayPool,
          queue: deque[int], evaluator_workers: list[Any], progress: bool) -> None:
    """Until a bound: seeds out, games in, updates, evaluations, logs and checkpoints."""
    rc, prog = cfg.ray, learner.prog
    evals = _Evaluations(evaluator_workers, pool.remote)
    panel = rc.panel_for(cfg.num_players)
    clock, log_clock = Clock(cfg.checkpoint_minutes), time.monotonic()
    start, start_seconds = time.monotonic(), prog.seconds
    positions, searched_then = 0, call(pool.store, "searched_total")
    window: list[GameRecord] = []  # records since the last log row (the value head's agreement)
    weights_cache: dict[int, tuple[int, dict[str, Any]]] = {}

    def take_seeds() -> list[int]:
        seeds = []
        while len(seeds) < rc.games_per_task:
            if queue:
                seeds.append(queue.popleft())
            else:
                if prog.next_seed >= EVAL_SEED_OFFSET:
                    raise ValueError(f"self-play reached game {EVAL_SEED_OFFSET:,}, where the evaluation seeds start")
                seeds.append(cfg.seed + prog.next_seed)
                prog.next_seed += 1
        return seeds

    while True:
        stop.check()
        prog.seconds = start_seconds + time.monotonic() - start
        # the end: a last log row for what came in since the one before, then out
        ending = bool(rc.max_minutes and prog.seconds >= rc.max_minutes * 60) or \
            bool(rc.max_positions and prog.positions >= rc.max_positions)
        if not ending:
            for k in pool.idle():
                pool.submit(k, take_seeds())
            results, lost = pool.finished(timeout=0.0 if learner.due() else 0.2)
            queue.extendleft(reversed(lost))  # played again from their seeds
            for res in results:
                for packed in res["records"]:
                    record = GameRecord.unpack(packed)
                    learner.receive(record)
                    window.append(record)
                    positions += record.positions
            learner.train(UPDATES_PER_TURN)
            _evaluate(cfg, run_dir, prog, learner, evals, panel, logger, weights_cache, progress)
        if ending or time.monotonic() - log_clock >= rc.log_seconds:
            wall = max(time.monotonic() - log_clock, 1e-9)  # the last row may come right after one
            searched = call(pool.store, "searched_total")  # as the actors last said: games under way too
            row = {"time/total_timesteps": prog.positions, "selfplay/games": prog.games,
                   "selfplay/positions_per_s": positions / wall,
                   "selfplay/searched_per_s": (searched - searched_then) / wall,
                   "selfplay/buffer": learner.buffer.size, "selfplay/actor_restarts": pool.restarts,
                   "learner/updates": prog.updates, "learner/version": prog.version,
                   "learner/share": learner.busy / wall, "time/seconds": prog.seconds,
                   **learner.take_metrics(), **_agreement_row(window)}
            logger.write(row)
            if progress:
                say(f"{prog.seconds / 60:6.1f} min: {prog.games} games, {prog.positions:,} positions, "
                    f"{row['selfplay/searched_per_s']:.1f} searched/s, version {prog.version}, "
                    f"{prog.updates} updates, learner {100 * row['learner/share']:.0f}%, "
                    f"lag {row.get('lag/mean_versions', 0.0):.2f}, best {prog.generation}")
            positions, searched_then = 0, searched
            window, learner.busy, log_clock = [], 0.0, time.monotonic()
        if ending:
            break
        if clock.due():
            save_checkpoint(run_dir, learner.net, learner.optimizer, learner.buffer, _with_pending(prog, pool, queue))
            clock.restart()


def _agreement_row(window: list[GameRecord]) -> dict[str, float]:
    if not window:
        return {}
    table = phase_agreement([r.phase for r in window], [r.player for r in window],
                            [r.head_value for r in window], [r.results for r in window])
    return {f"value/agree_{name}": agree for name, (agree, n) in table.items() if n}


def _evaluate(cfg: AZConfig, run_dir: Path, prog: LoopProgress, learner: Learner, evals: _Evaluations,
              panel: list[str], logger: RunLogger, cache: dict[int, Any], progress: bool) -> None:
    """Take in finished evaluation chunks (the gate's counted) and start the next ones."""
    for label, version, res in evals.finished():
        with (run_dir / EVAL_LOG).open("a", encoding="utf-8") as f:
            f.write(json.dumps({"opponent": label, "best": prog.generation, "positions": prog.positions, **res}) + "\n")
        row = {"time/total_timesteps": prog.positions, "eval/version": version,
               f"eval/win_rate_{metric_name(label)}": res["wins"] / max(res["games"], 1)}
        if label == BEST:
            decided = gate_result(prog, cfg, version, res["games"], res["wins"])
            if decided is not None:
                row["eval/accepted"] = float(decided)
                if decided:
                    _record_best(run_dir, prog)
                if progress:
                    say(f"gate: version {version} {'becomes the best' if decided else 'turned down'} "
                        f"({cfg.ray.gate_games}+ games against the best)")
        logger.write(row)
    for k in evals.idle():
        if open_gate(prog, prog.version):
            save_generation(run_dir, learner.net, prog.candidate)  # the candidate: the newest weights
            cache[prog.candidate] = learner.weights()
        label = next_pairing(prog, panel)
        if label == BEST:
            if prog.candidate <= prog.generation:
                return  # no candidate and no panel: nothing to play
            me, opponent = _weights(run_dir, cache, prog.candidate), _weights(run_dir, cache, prog.generation)
        else:
            me, opponent = learner.weights(), label
        evals.submit(k, label, me[0], me, opponent, cfg.ray.eval_chunk, eval_seed(cfg, prog))
        prog.eval_chunks += 1


def _weights(run_dir: Path, cache: dict[int, Any], version: int) -> tuple[int, dict[str, Any]]:
    """A saved version's weights (generations/gen_<v>.pt), read once."""
    if version not in cache:
        cache[version] = (version, th.load(generation_path(run_dir, version), map_location="cpu", weights_only=True))
    return cache[version]


def _record_best(run_dir: Path, prog: LoopProgress) -> None:
    write_text(run_dir / BEST_FILE, json.dumps(
        {"version": prog.generation, "model": f"generations/gen_{prog.generation}.pt", "positions": prog.positions,
         "gate_games": prog.gate_games, "gate_wins": prog.gate_wins}, indent=1))


def _stopped(stop: StopSignal, run: Run | None, state: tuple | None, pool: SelfPlayPool | None,
             queue: deque[int]) -> TrainingStopped:
    """Save where a stopped run was and say so (the games under way are played again on resume)."""
    if run is None or state is None or pool is None:
        return stop.stopped("during set-up, before saving anything new", run.dir if run else None, RAY_COMMAND)
    net, optimizer, buffer, prog = state
    _with_pending(prog, pool, queue)
    path = save_checkpoint(run.dir, net, optimizer, buffer, prog)
    return stop.stopped(f"at {prog.positions:,} positions, version {prog.version}; the {len(prog.pending_seeds)} "
                        f"games under way are played again on resume; checkpoint {path}", run.dir, RAY_COMMAND)
