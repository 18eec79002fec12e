"""Behaviour cloning: before PPO, the policy learns to decide as a bot does (``pretrain`` in the config).

A policy learning from scratch against the heuristic bots starts from random play, and random
play loses every game to them: the win/loss reward says little until the policy already plays.
Cloning a teacher first (the supervised start of AlphaStar and AlphaGo, in miniature) gives PPO a
policy that plays the bot's game; PPO then improves on it against the league.

1. :func:`record_games`: the teacher plays ``pretrain.games`` games in the learner's seat of the
   very env PPO trains on (a :class:`~training.league.LeagueEnv` over the config's opponent pool),
   so each decision is recorded as PPO sees it: observation, action mask, the teacher's action,
   and the discounted return the seat went on to get (the value target).
2. :func:`clone`: ``pretrain.epochs`` passes of minibatch Adam updates of the whole policy:
   cross-entropy of the teacher's action under the masked policy, plus ``value_weight`` times
   the squared error of the value. Every tenth game is held out to report how often the policy's
   most likely action is the teacher's (``pretrain/accuracy``).
3. DAgger (``pretrain.dagger_rounds``, Ross et al. 2011): the cloned network plays new games, the
   teacher labels every position it reaches, and the network is cloned again on everything. A
   clone's small errors take it to positions the teacher's games never showed; these labels are
   for them. The rounds' value targets are the returns of the network's own games.

Observations are stored as float16 (every plane holds small multiples of 1/3: exact in float16)
and masks as packed bits, so 100,000 decisions on the duel map take about 2.5 GB.
"""

from __future__ import annotations

from dataclasses import dataclass
from multiprocessing import get_context
from typing import Any

import numpy as np
import torch as th
from torch.nn import functional as F
from tqdm import tqdm

from training.config import TrainConfig
from training.league import LeagueEnv, OpponentPool

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


def discounted_returns(rewards: list[float], gamma: float) -> np.ndarray:
    """``G_t = r_t + gamma * G_{t+1}``, with 0 after the last decision (PPO's value target)."""
    out = np.zeros(len(rewards), dtype=np.float32)
    g = 0.0
    for t in range(len(rewards) - 1, -1, -1):
        g = rewards[t] + gamma * g
        out[t] = g
    return out


def record_games(cfg: TrainConfig, progress: bool = True, student: Any = None, first_game: int = 0) -> Demonstrations:
    """The teacher (``cfg.pretrain.teacher``) plays ``cfg.pretrain.games`` games in the learner's
    seat, games ``first_game``, ``first_game + 1`` ...; with a ``student`` (a model), the student
    plays them and the teacher only labels each position (DAgger), in this process."""
    pt = cfg.pretrain
    games = list(range(first_game, first_game + pt.games))
    if pt.workers <= 1 or student is not None:
        return _record_chunk(cfg, games, progress, student)
    chunks = [games[i::pt.workers * 4] for i in range(pt.workers * 4)]
    parts = []
    with get_context("spawn").Pool(pt.workers) as pool:
        jobs = pool.imap_unordered(_record_star, [(cfg, c) for c in chunks if c])
        for part in tqdm(jobs, total=len(chunks), desc="record teacher", unit="chunk", disable=not progress):
            parts.append(part)
    return Demonstrations.concat(parts)


def _record_star(args: tuple[TrainConfig, list[int]]) -> Demonstrations:
    th.set_num_threads(1)
    return _record_chunk(*args, progress=False)


def _record_chunk(cfg: TrainConfig, games: list[int], progress: bool, student: Any = None) -> Demonstrations:
    from agents.match import make_agent
    pt = cfg.pretrain
    assert pt.teacher is not None
    env = LeagueEnv(OpponentPool.from_config(cfg), num_players=cfg.num_players, map=cfg.map,
                    reward=cfg.reward, max_steps=cfg.max_steps)
    teacher = make_agent(pt.teacher, seed=cfg.seed)
    obs_rows, mask_rows, actions, returns, game_ids, wins = [], [], [], [], [], []
    desc = "record teacher" if student is None else "label the student's games"
    for g in tqdm(games, desc=desc, unit="game", disable=not progress):
        obs, _ = env.reset(seed=cfg.seed + g)
        inner = env.unwrapped
        teacher.reset(inner.seat, cfg.seed + g)
        rewards: list[float] = []
        done, info = False, {}
        while not done:
            mask = env.action_masks()
            action = teacher.act(obs, mask, {"state": inner.aec.game_state})
            obs_rows.append(obs.astype(np.float16))
            mask_rows.append(np.packbits(mask))
            actions.append(action)
            if student is not None:  # the student's move is played; the teacher's is the label
                action = int(student.predict(obs, action_masks=mask, deterministic=True)[0])
            obs, reward, terminated, truncated, info = env.step(action)
            rewards.append(reward)
            done = terminated or truncated
        returns.append(discounted_returns(rewards, cfg.gamma))
        game_ids += [g] * len(rewards)
        wins.append(float(info["game"]["win"]))
    if not actions:
        raise RuntimeError("the teacher made no decisions (games end before the learner's seat moves?)")
    return Demonstrations(np.stack(obs_rows), np.stack(mask_rows), np.asarray(actions, dtype=np.int64),
                          np.concatenate(returns), np.asarray(game_ids, dtype=np.int32),
                          n_actions=int(env.action_space.n), wins=wins)


def clone(model: Any, demos: Demonstrations, cfg: TrainConfig, progress: bool = True) -> dict[str, float]:
    """Fit ``model.policy`` to the teacher's decisions and returns; logs and returns the metrics."""
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


def pretrain(model: Any, cfg: TrainConfig, progress: bool = True) -> dict[str, float]:
    """Record the teacher's games and clone them into ``model``; the metrics (also logged)."""
    demos = record_games(cfg, progress)
    teacher_wins = float(np.mean(demos.wins))
    metrics = clone(model, demos, cfg, progress)
    for k in range(1, cfg.pretrain.dagger_rounds + 1):
        labelled = record_games(cfg, progress, student=model, first_game=k * cfg.pretrain.games)
        student_wins = float(np.mean(labelled.wins))  # the network's own games, before this round's cloning
        demos = Demonstrations.concat([demos, labelled])
        metrics = clone(model, demos, cfg, progress)
        metrics["pretrain/dagger_rounds"] = float(k)
        metrics["pretrain/student_win_rate"] = student_wins
        if progress:
            tqdm.write(f"DAgger round {k}: the network won {student_wins:.3f} of its {len(labelled.wins)} games; "
                       f"held-out agreement after cloning {metrics['pretrain/accuracy']:.3f}")
    metrics["pretrain/teacher_win_rate"] = teacher_wins  # the teacher's own games (the rounds' are the network's)
    for key, value in metrics.items():
        model.logger.record(key, value)
    model.logger.record("time/total_timesteps", 0)
    model.logger.dump(0)
    return metrics
