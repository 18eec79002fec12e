"""Behaviour cloning for any game: record a teacher's decisions, clone them, DAgger rounds.

The game-neutral half of ``pretrain`` (the config's ``pretrain`` section). What a game brings
is a *recorder*, ``recorder(cfg, games, progress, student) -> Demonstrations``: it plays the
listed games with the teacher (``cfg.pretrain.teacher``) in the learner's seat against the
config's opponents, recording each decision as PPO sees it (observation, action mask, the
teacher's action, the discounted return the seat went on to get); with a ``student`` (the
model) the student's move is played and the teacher only labels the position (DAgger).
Vigtavl's recorder is :mod:`training.imitation`'s (its league env); any other game's is
:mod:`training.game_imitation`'s (the batch core over the game interface).

1. :func:`record_games`: ``cfg.pretrain.games`` games through the recorder, in ``workers``
   spawned processes when asked (a student is saved to a temporary file each worker loads);
2. :func:`clone`: ``pretrain.epochs`` passes of minibatch Adam updates of the whole policy:
   cross-entropy of the teacher's action under the masked policy plus ``value_weight`` times the
   squared error of the value; every tenth game is held out to report how often the policy's
   most likely action is the teacher's (``pretrain/accuracy``);
3. :func:`pretrain`: both, then ``pretrain.dagger_rounds`` rounds of DAgger (Ross et al. 2011);
   with ``pretrain.teacher_first`` false, the rounds alone, from the network as it is (a clone
   given by ``init_from``).

Observations are stored as float16 and masks as packed bits (:class:`Demonstrations`).
"""

from __future__ import annotations

import tempfile
from collections.abc import Callable
from dataclasses import dataclass, field
from multiprocessing import get_context
from pathlib import Path
from typing import Any

import numpy as np
import torch as th
from torch.nn import functional as F
from tqdm import tqdm

from training.config import TrainConfig

HELD_OUT_EVERY = 10  # game g is held out when g % 10 == 9


@dataclass
class Demonstrations:
    """The teacher's recorded decisions, one row each."""

    obs: np.ndarray        # (N, C, H, W) float16
    masks: np.ndarray      # (N, ceil(A / 8)) uint8: the action masks, packed bits
    actions: np.ndarray    # (N,) int64
    returns: np.ndarray    # (N,) float32: discounted return from this decision on
    games: np.ndarray      # (N,) int32: the game each decision comes from
    n_actions: int
    wins: list[float]      # per game: the teacher's win share

    def __len__(self) -> int:
        return len(self.actions)

    def mask_rows(self, idx: np.ndarray) -> np.ndarray:
        return np.unpackbits(self.masks[idx], axis=1, count=self.n_actions).astype(bool)

    @staticmethod
    def concat(parts: list["Demonstrations"]) -> "Demonstrations":
        return Demonstrations(*(np.concatenate([getattr(p, k) for p in parts])
                                for k in ("obs", "masks", "actions", "returns", "games")),
                              n_actions=parts[0].n_actions, wins=[w for p in parts for w in p.wins])


Recorder = Callable[[TrainConfig, list[int], bool, Any], Demonstrations]  # (cfg, games, progress, student)


@dataclass
class Recording:
    """A recorder's rows as they come: :meth:`decision` per decision, :meth:`end_game` per game."""

    gamma: float
    obs: list[np.ndarray] = field(default_factory=list)
    masks: list[np.ndarray] = field(default_factory=list)
    actions: list[int] = field(default_factory=list)
    returns: list[np.ndarray] = field(default_factory=list)
    games: list[int] = field(default_factory=list)
    wins: list[float] = field(default_factory=list)

    def decision(self, obs: np.ndarray, mask: np.ndarray, action: int) -> None:
        self.obs.append(obs.astype(np.float16))
        self.masks.append(np.packbits(mask))
        self.actions.append(int(action))

    def end_game(self, game: int, rewards: list[float], win: float) -> None:
        """The game's rewards, one per recorded decision of it, and the learner's win share."""
        self.returns.append(discounted_returns(rewards, self.gamma))
        self.games += [game] * len(rewards)
        self.wins.append(float(win))

    def demonstrations(self, n_actions: int) -> Demonstrations:
        if not self.actions:
            raise RuntimeError("the teacher made no decisions (games end before the learner's seat moves?)")
        return Demonstrations(np.stack(self.obs), np.stack(self.masks), np.asarray(self.actions, dtype=np.int64),
                              np.concatenate(self.returns), np.asarray(self.games, dtype=np.int32),
                              n_actions=n_actions, wins=self.wins)


def discounted_returns(rewards: list[float], gamma: float) -> np.ndarray:
    """``G_t = r_t + gamma * G_{t+1}``, with 0 after the last decision (PPO's value target)."""
    out = np.zeros(len(rewards), dtype=np.float32)
    g = 0.0
    for t in range(len(rewards) - 1, -1, -1):
        g = rewards[t] + gamma * g
        out[t] = g
    return out


def record_games(cfg: TrainConfig, recorder: Recorder, progress: bool = True, student: Any = None,
                 first_game: int = 0) -> Demonstrations:
    """Games ``first_game`` ... ``first_game + cfg.pretrain.games - 1`` through ``recorder``: the
    teacher's own, or with a ``student`` (a model) the student's, labelled by the teacher."""
    pt = cfg.pretrain
    games = list(range(first_game, first_game + pt.games))
    if pt.workers <= 1:
        return recorder(cfg, games, progress, student)
    chunks = [games[i::pt.workers * 4] for i in range(pt.workers * 4)]
    parts = []
    desc = "record teacher" if student is None else "label the student's games"
    with tempfile.TemporaryDirectory() as tmp, get_context("spawn").Pool(pt.workers) as pool:
        saved = None
        if student is not None:  # each worker plays a copy of the student, loaded from a file
            saved = (type(student), str(Path(tmp) / "student.zip"))
            student.save(saved[1])
        jobs = pool.imap_unordered(_record_star, [(recorder, cfg, c, saved) for c in chunks if c])
        for part in tqdm(jobs, total=len(chunks), desc=desc, unit="chunk", disable=not progress):
            parts.append(part)
    return Demonstrations.concat(parts)


def _record_star(args: tuple[Recorder, TrainConfig, list[int], tuple[type, str] | None]) -> Demonstrations:
    th.set_num_threads(1)
    recorder, cfg, games, saved = args
    student = None if saved is None else saved[0].load(saved[1], device="cpu")
    return recorder(cfg, games, False, student)


def clone(model: Any, demos: Demonstrations, cfg: TrainConfig, progress: bool = True) -> dict[str, float]:
    """Fit ``model.policy`` to the teacher's decisions and returns; returns the metrics."""
    pt = cfg.pretrain
    policy = model.policy
    device = policy.device
    optimizer = th.optim.Adam(policy.parameters(), lr=pt.learning_rate)
    held = demos.games % HELD_OUT_EVERY == HELD_OUT_EVERY - 1
    train_idx, test_idx = np.flatnonzero(~held), np.flatnonzero(held)
    if len(test_idx) == 0:  # too few games to hold any out: report on the training rows
        test_idx = train_idx
    rng = np.random.default_rng(cfg.seed)
    steps = pt.epochs * -(-len(train_idx) // pt.batch_size)
    bar = tqdm(total=steps, desc="clone teacher", unit="batch", disable=not progress)
    metrics: dict[str, float] = {}
    for epoch in range(pt.epochs):
        policy.set_training_mode(True)
        losses = []
        order = rng.permutation(train_idx)
        for start in range(0, len(order), pt.batch_size):
            idx = np.sort(order[start:start + pt.batch_size])  # sorted: faster gathers
            obs, masks, actions, returns = _batch(demos, idx, device)
            values, log_prob, _ = policy.evaluate_actions(obs, actions, action_masks=masks)
            loss = -log_prob.mean() + pt.value_weight * F.mse_loss(values.flatten(), returns)
            optimizer.zero_grad()
            loss.backward()
            th.nn.utils.clip_grad_norm_(policy.parameters(), cfg.max_grad_norm * 10)
            optimizer.step()
            losses.append(loss.item())
            bar.update(1)
        metrics = {"pretrain/loss": float(np.mean(losses)), **evaluate_clone(policy, demos, test_idx, pt.batch_size)}
        bar.set_postfix(epoch=epoch + 1, loss=f"{metrics['pretrain/loss']:.3f}",
                        acc=f"{metrics['pretrain/accuracy']:.3f}")
    bar.close()
    policy.set_training_mode(False)
    metrics["pretrain/decisions"] = float(len(demos))
    metrics["pretrain/teacher_win_rate"] = float(np.mean(demos.wins))
    return metrics


def _batch(demos: Demonstrations, idx: np.ndarray, device: Any) -> tuple[th.Tensor, np.ndarray, th.Tensor, th.Tensor]:
    obs = th.as_tensor(demos.obs[idx], device=device).float()
    actions = th.as_tensor(demos.actions[idx], device=device)
    returns = th.as_tensor(demos.returns[idx], device=device)
    return obs, demos.mask_rows(idx), actions, returns


def evaluate_clone(policy: Any, demos: Demonstrations, idx: np.ndarray, batch_size: int) -> dict[str, float]:
    """On rows ``idx``: how often the policy's most likely action is the teacher's; the value error."""
    policy.set_training_mode(False)
    hits, sq_err = 0, 0.0
    with th.no_grad():
        for start in range(0, len(idx), batch_size):
            rows = idx[start:start + batch_size]
            obs, masks, actions, returns = _batch(demos, rows, policy.device)
            dist = policy.get_distribution(obs, action_masks=masks)
            hits += int((dist.mode() == actions).sum())
            values = policy.predict_values(obs).flatten()
            sq_err += float(((values - returns) ** 2).sum())
    return {"pretrain/accuracy": hits / len(idx), "pretrain/value_mse": sq_err / len(idx)}


def pretrain(model: Any, cfg: TrainConfig, recorder: Recorder, progress: bool = True) -> dict[str, float]:
    """Record the teacher's games and clone them into ``model``, then the DAgger rounds; the
    metrics (also logged at step 0)."""
    pt = cfg.pretrain
    demos: Demonstrations | None = None
    metrics: dict[str, float] = {}
    teacher_wins = None
    if pt.teacher_first:
        demos = record_games(cfg, recorder, progress)
        teacher_wins = float(np.mean(demos.wins))
        metrics = clone(model, demos, cfg, progress)
    for k in range(1, pt.dagger_rounds + 1):
        labelled = record_games(cfg, recorder, progress, student=model, first_game=k * pt.games)
        student_wins = float(np.mean(labelled.wins))  # the network's own games, before this round's cloning
        demos = labelled if demos is None else Demonstrations.concat([demos, labelled])
        metrics = clone(model, demos, cfg, progress)
        metrics["pretrain/dagger_rounds"] = float(k)
        metrics["pretrain/student_win_rate"] = student_wins
        if progress:
            tqdm.write(f"DAgger round {k}: the network won {student_wins:.3f} of its {len(labelled.wins)} games; "
                       f"held-out agreement after cloning {metrics['pretrain/accuracy']:.3f}")
    if teacher_wins is not None:
        metrics["pretrain/teacher_win_rate"] = teacher_wins  # the teacher's own games (the rounds' are the network's)
    else:  # no games of the teacher's own: the rounds' labels only
        metrics.pop("pretrain/teacher_win_rate", None)
    for key, value in metrics.items():
        model.logger.record(key, value)
    model.logger.record("time/total_timesteps", 0)
    model.logger.dump(0)
    return metrics
