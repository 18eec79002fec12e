"""Self-play on Ray: the actors that play, the store they take newer weights from, and the pool
the driver hands game seeds to.

- :class:`SelfPlayWorker` plays a list of game seeds, ``parallel_games`` at a time, every
  decision through :class:`agents.gumbel.BatchedSearch` (one network call per round of
  simulations for all its games; no Ray call inside a search). Playout-cap randomisation: a
  decision is searched with ``search.simulations`` with probability ``ray.playout_fraction``
  (drawn from the game's seed) and becomes a training position; the others get
  ``ray.fast_simulations`` and only choose the move. Between moves, at most every
  ``ray.weights_poll_seconds``, it asks the :class:`WeightStore` for a newer version; each
  position records the version that searched it. It returns finished games as packed
  :class:`training.az_ray.records.GameRecord` dicts.
- Workers hold nothing the driver needs: Ray restarts a failed one (``max_restarts``) from its
  constructor arguments, and :class:`SelfPlayPool` hands the seeds of the call it lost out
  again (the same dice; the search's noise differs).
- Without Ray (``remote=False``) the pool plays its calls in this process: the same code, for
  tests and for a run's logic without actors.
"""

from __future__ import annotations

import dataclasses
import os
import random
import time
from collections.abc import Sequence
from typing import Any

import numpy as np
import torch as th

from agents.az import AZ_GAME, NetEvaluator, net_from_payload
from agents.game_steps import steps_for
from agents.gumbel import BatchedSearch, from_seats
from games import load_game
from training.az_config import AZConfig
from training.az_ray.records import GameRecord, pad_rows

Weights = tuple[int, dict[str, Any]]  # (version, agents.az.model_payload)
Crash = tuple[int, str]  # tests: (moves, a file that marks the crash done)
PLAYOUT_SALT = 0x5EED  # the playout coin's stream per game: seed ^ this


def call(obj: Any, method: str, *args: Any) -> Any:
    """``obj.method(*args)``, through Ray when ``obj`` is an actor handle."""
    fn = getattr(obj, method)
    if hasattr(fn, "remote"):
        import ray
        return ray.get(fn.remote(*args))
    return fn(*args)


class WeightStore:
    """The newest published weights and their version (a Ray actor of no CPU in a run), and the
    searched positions each actor says it has done when it asks (throughput while games are
    still under way: a call's results come back only when all its games have ended)."""

    def __init__(self) -> None:
        self.weights: Weights | None = None
        self.searched: dict[str, int] = {}  # an actor's start -> positions it searched

    def publish(self, version: int, payload: dict[str, Any]) -> None:
        self.weights = (version, payload)

    def newer(self, version: int, actor: str = "", searched: int = 0) -> Weights | None:
        """The weights if newer than ``version``, else None (nothing sent)."""
        if actor:
            self.searched[actor] = searched
        return self.weights if self.weights is not None and self.weights[0] > version else None

    def searched_total(self) -> int:
        return sum(self.searched.values())


@dataclasses.dataclass
class _Game:
    seed: int
    state: Any
    coin: random.Random
    steps: int = 0
    rows: list[tuple] = dataclasses.field(default_factory=list)


class SelfPlayWorker:
    """Plays game seeds with the newest weights it has; see the module docstring."""

    def __init__(self, cfg: AZConfig, weights: Weights, store: Any = None, crash: Crash | None = None) -> None:
        th.set_num_threads(1)  # one core per actor: its games are batched already
        self.cfg, self.store = cfg, store
        self.version, payload = weights
        device = "cuda" if cfg.ray.actor_gpus > 0 and th.cuda.is_available() else "cpu"
        self.net = net_from_payload(payload, "the learner's weights").to(device)
        self.evaluator = NetEvaluator(self.net, device)
        game = load_game(AZ_GAME)
        self.steps = steps_for(game)
        self.new_game = self.steps.new_games(game, cfg.num_players, cfg.seed, map=cfg.map)
        self.polled = 0.0
        self.name, self.searched = f"{os.getpid()}-{random.getrandbits(32):08x}", 0
        self.crash = crash  # tests: (moves, mark): the process dies once after that many moves
        self.moves = 0

    def play(self, seeds: Sequence[int]) -> dict[str, Any]:
        """Play the games of ``seeds`` to their end: ``records`` (packed), and the counts of the
        call (``searched`` decisions, network ``evaluations``, ``seconds``)."""
        cfg, rc = self.cfg, self.cfg.ray
        fast_cfg = dataclasses.replace(cfg.search, simulations=rc.fast_simulations,
                                       considered=min(cfg.search.considered, rc.fast_simulations))
        base = int(seeds[0]) if len(seeds) else 0
        searches = {True: BatchedSearch(self.evaluator, cfg.num_players, cfg.search, seed=base, steps=self.steps),
                    False: BatchedSearch(self.evaluator, cfg.num_players, fast_cfg, seed=base + 1, steps=self.steps)}
        queue, slots, records = list(seeds), [], []
        searched, self.searched_before = 0, self.searched
        t0 = time.perf_counter()
        while queue or slots:
            while queue and len(slots) < cfg.parallel_games:
                seed = int(queue.pop(0))
                slots.append(_Game(seed, self.new_game(seed), random.Random(seed ^ PLAYOUT_SALT)))
            self._refresh()
            full = [g.coin.random() < rc.playout_fraction for g in slots]
            for kind in (True, False):
                group = [g for g, f in zip(slots, full) if f is kind]
                if group:
                    searched += self._move(group, searches[kind], keep=kind)
            self.searched = self.searched_before + searched
            for g in [g for g in slots if self.steps.is_over(g.state) or g.steps >= cfg.max_steps]:
                slots.remove(g)
                records.append(self._record(g).pack())
        return {"records": records, "searched": searched, "seconds": time.perf_counter() - t0,
                "evaluations": sum(s.evaluations for s in searches.values())}

    def _move(self, group: list[_Game], search: BatchedSearch, keep: bool) -> int:
        """One move in each game of ``group``; the searched positions kept when ``keep``."""
        results = search.run([g.state for g in group])
        roots = iter(search.last_roots)  # one per game with a choice, in order
        searched, steps = 0, self.steps
        for g, r in zip(group, results):
            if r.simulations:
                root = next(roots)
                searched += 1
                if keep:
                    player = steps.player(g.state)
                    obs = self.evaluator.encode([g.state])[0].astype(np.float16)
                    legal = steps.indices(g.state, r.legal).astype(np.int32)
                    q = root.totals.sum(0) / max(root.visits.sum(), 1.0)
                    g.rows.append((obs, legal, r.policy.astype(np.float32), player, steps.phase(g.state),
                                   from_seats(r.value, player), from_seats(q, player), self.version))
            steps.apply(g.state, r.action, r.legal)
            g.steps += 1
        self.moves += 1
        if self.crash is not None and self.moves >= self.crash[0] and not os.path.exists(self.crash[1]):
            open(self.crash[1], "w").close()  # once: the restarted actor plays on
            os._exit(1)  # the process ends as a killed one does
        return searched

    def _record(self, g: _Game) -> GameRecord:
        n, steps = self.cfg.num_players, self.steps
        over = steps.is_over(g.state)
        cols = list(zip(*g.rows)) if g.rows else [[]] * 8
        shape = self.evaluator.encode([g.state]).shape[1:]
        return GameRecord(
            seed=g.seed,
            obs=np.stack(cols[0]) if g.rows else np.zeros((0,) + shape, np.float16),
            legal=pad_rows(list(cols[1]), np.int32, -1), policy=pad_rows(list(cols[2]), np.float32, 0.0),
            player=np.asarray(cols[3], np.int8), phase=np.asarray(cols[4], np.int8),
            head_value=np.asarray(cols[5], np.float32).reshape(-1, n),
            search_value=np.asarray(cols[6], np.float32).reshape(-1, n),
            versions=np.asarray(cols[7], np.int32),
            results=np.asarray(steps.returns(g.state) if over else [0.0] * n, np.float32),
            tokens=np.asarray(steps.scores(g.state), np.int32), steps=g.steps, truncated=not over)

    def alive(self) -> bool:
        """A ping: the pool gives seeds to a restarted actor once it answers."""
        return True

    def _refresh(self) -> None:
        """Take newer weights, between moves, at most every weights_poll_seconds."""
        if self.store is None or time.monotonic() - self.polled < self.cfg.ray.weights_poll_seconds:
            return
        self.polled = time.monotonic()
        got = call(self.store, "newer", self.version, self.name, self.searched)
        if got is not None:
            self.version, payload = got
            self.net.load_state_dict(payload["state_dict"])


class SelfPlayPool:
    """The driver's side: one call in flight per actor, the seeds of each, and the seeds of a
    failed call handed back (:meth:`finished` returns them as ``lost``). An actor that failed is
    given no seeds until it answers a ping (Ray restarts it meanwhile); one Ray gave up on
    (``max_restarts`` spent), or whose calls raise ``max_restarts + 1`` times in a row, is dropped."""

    def __init__(self, cfg: AZConfig, weights: Weights, store: Any, remote: bool = True,
                 crash: dict[int, Crash] | None = None) -> None:
        self.remote, self.store = remote, store
        rc = cfg.ray
        crash = crash or {}
        if remote:
            import ray
            cls = ray.remote(num_cpus=rc.actor_cpus, num_gpus=rc.actor_gpus, max_restarts=rc.max_restarts,
                             max_task_retries=0)(SelfPlayWorker)
            # held here: Ray restarts an actor from its constructor's arguments, which must outlive the first start
            self.args = (ray.put(cfg), ray.put(weights))
            self.actors = [cls.remote(*self.args, store, crash.get(i)) for i in range(rc.actors)]
        else:
            self.actors = [SelfPlayWorker(cfg, weights, store, crash.get(i)) for i in range(rc.actors)]
        self.in_flight: dict[Any, tuple[int, list[int] | None]] = {}  # ref -> (actor, seeds; None: a ping)
        self.failures = [0] * rc.actors
        self.max_failures = rc.max_restarts + 1
        self.waiting: dict[int, float] = {}  # actor -> when to ping it next (it failed: restarting)
        self.restarts = 0

    def idle(self) -> list[int]:
        busy = {a for a, _ in self.in_flight.values()}
        return [i for i in range(len(self.actors))
                if i not in busy and i not in self.waiting and self.failures[i] < self.max_failures]

    def seeds_out(self) -> list[int]:
        return [s for _, seeds in self.in_flight.values() if seeds for s in seeds]

    def submit(self, actor: int, seeds: list[int]) -> None:
        ref = self.actors[actor].play.remote(seeds) if self.remote else object()
        self.in_flight[ref] = (actor, list(seeds))

    def finished(self, timeout: float) -> tuple[list[dict[str, Any]], list[int]]:
        """Calls done within ``timeout`` seconds: their results, and the seeds of those that failed."""
        if not self.remote:  # the first call in flight, played here
            if not self.in_flight:
                return [], []
            ref = next(iter(self.in_flight))
            actor, seeds = self.in_flight.pop(ref)
            return [self.actors[actor].play(seeds)], []
        import ray
        from ray.exceptions import ActorDiedError, RayActorError, RayTaskError
        pinging = {a for a, seeds in self.in_flight.values() if seeds is None}
        for actor, when in list(self.waiting.items()):
            if actor not in pinging and time.monotonic() >= when:
                self.in_flight[self.actors[actor].alive.remote()] = (actor, None)
        if not self.in_flight:
            time.sleep(timeout)
            return [], []
        ready, _ = ray.wait(list(self.in_flight), num_returns=len(self.in_flight), timeout=timeout)
        results, lost = [], []
        for ref in ready:
            actor, seeds = self.in_flight.pop(ref)
            try:
                out = ray.get(ref)
            except ActorDiedError:  # restarts spent
                self.failures[actor] = self.max_failures
                self.waiting.pop(actor, None)
            except (RayActorError, RayTaskError):
                if seeds is None:  # still restarting: ask again in a second
                    self.waiting[actor] = time.monotonic() + 1.0
                else:
                    self.failures[actor] += 1
                    self.restarts += 1
                    self.waiting[actor] = time.monotonic()
            else:
                if seeds is None:
                    self.waiting.pop(actor, None)
                else:
                    results.append(out)
                    self.failures[actor] = 0
                continue
            lost.extend(seeds or [])
        if all(f >= self.max_failures for f in self.failures):
            raise RuntimeError(f"every self-play actor failed {self.max_failures} times; "
                               "see the Ray logs (/tmp/ray/session_latest/logs)")
        return results, lost

    def close(self) -> None:
        if self.remote:
            import ray
            for a in self.actors:
                ray.kill(a, no_restart=True)
        self.in_flight.clear()
