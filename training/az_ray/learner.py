"""The learner of ``vigtavl az train --ray``: it owns the network, its optimiser and the replay
buffer (a recency window: the newest ``buffer_size`` positions), takes finished games in, trains
while the cap allows, and publishes weights with a version number.

- **The cap.** Minibatch samples stay at most ``ray.samples_per_position`` per training position
  received (KataGo's 4): ``updates * batch_size <= positions * cap``. When self-play is slower
  than that, the learner waits for it instead of fitting the same positions again.
- **Versions.** Every ``ray.publish_every`` updates the weights become version ``v + 1`` and go to
  the store the actors read. A game's positions carry the version that searched them; the lag
  of a position is the learner's version when it arrives minus that one.
- The update itself is the generation loop's (:func:`training.az.update`)."""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import numpy as np
import torch as th

from agents.az import AZNet, model_payload
from training.az import ReplayBuffer, update
from training.az_config import AZConfig
from training.az_ray.records import GameRecord


@dataclass
class LoopProgress:
    """Where a Ray run is (saved in each checkpoint's state.pt)."""

    positions: int = 0
    games: int = 0
    updates: int = 0
    version: int = 0
    next_seed: int = 0
    pending_seeds: list[int] = field(default_factory=list)
    """Seeds handed out and not yet back (played first on resume)."""
    generation: int = 0
    """The version of the best network so far: generations/gen_<generation>.pt (the network a
    resume's checkpoint is checked to have beside it, as the generation loop's, training/damage.py)."""
    candidate: int = -1
    gate_games: int = 0
    gate_wins: float = 0.0
    eval_chunks: int = 0
    seconds: float = 0.0
    """Wall-clock seconds of the run so far, resumes added."""


class Learner:
    """See the module docstring. ``publish(version, payload)`` sends weights to the actors."""

    def __init__(self, cfg: AZConfig, net: AZNet, optimizer: th.optim.Optimizer, buffer: ReplayBuffer,
                 prog: LoopProgress, device: th.device, publish: Callable[[int, dict[str, Any]], None]) -> None:
        self.cfg, self.net, self.optimizer, self.buffer, self.prog = cfg, net, optimizer, buffer, prog
        self.device, self.publish_to = device, publish
        self.rng = np.random.default_rng(cfg.seed + prog.updates)
        self.published_at = prog.updates
        self.lags: list[int] = []
        self.busy = 0.0  # seconds spent in updates (the learner's share of the wall time)
        self.sums: dict[str, float] = {}
        self.n = 0

    def receive(self, record: GameRecord) -> None:
        rc = self.cfg.ray
        record.add_to(self.buffer, rc.value_extra, rc.value_extra_weight)
        self.prog.positions += record.positions
        self.prog.games += 1
        self.lags.extend((self.prog.version - record.versions).tolist())

    def due(self) -> int:
        """Updates the cap allows now."""
        if self.buffer.size < max(self.cfg.ray.min_buffer, 1):
            return 0
        allowed = int(self.prog.positions * self.cfg.ray.samples_per_position // self.cfg.batch_size)
        return max(0, allowed - self.prog.updates)

    def train(self, most: int) -> int:
        """Up to ``most`` updates (as many as the cap allows); publishes when due. Returns how many."""
        n = min(most, self.due())
        if not n:
            return 0
        t0 = time.perf_counter()
        self.net.train()
        for _ in range(n):
            batch = self.buffer.sample(self.cfg.batch_size, self.rng)
            m = update(self.net, self.optimizer, batch, self.cfg, self.device)
            self.prog.updates += 1
            self.n += 1
            for key, v in m.items():
                self.sums[key] = self.sums.get(key, 0.0) + v
            if self.prog.updates - self.published_at >= self.cfg.ray.publish_every:
                self.publish()
        self.net.eval()
        self.busy += time.perf_counter() - t0
        return n

    def publish(self) -> None:
        self.prog.version += 1
        self.published_at = self.prog.updates
        self.publish_to(self.prog.version, self.weights()[1])

    def weights(self) -> tuple[int, dict[str, Any]]:
        return self.prog.version, model_payload(self.net)

    def take_metrics(self) -> dict[str, float]:
        """The losses averaged since the last call, and the lag of the positions received since."""
        out = {k: v / self.n for k, v in self.sums.items()} if self.n else {}
        if self.lags:
            out |= {"lag/mean_versions": float(np.mean(self.lags)), "lag/max_versions": float(np.max(self.lags))}
        self.sums, self.n, self.lags = {}, 0, []
        return out
