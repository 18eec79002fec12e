"""Behaviour cloning's recorder for any registered game (``pretrain`` of ``vigtavl train --game``).

:func:`record_chunk` is a :data:`training.cloning.Recorder`: each game is one row of the batch
core (:class:`games.batch.GameBatch`) over the config's opponents, the very seat loop PPO trains
on, with the teacher (an agent spec of the game, ``cfg.pretrain.teacher``) deciding in the
learner's seat from that seat's view. Each decision is recorded as PPO sees it: the batch's
observation and action mask, the teacher's action, and the discounted return. With a
``student`` (DAgger) the student's most likely action is played and the teacher's is the label.
A game whose learner has made :data:`MAX_RECORDED_DECISIONS` decisions is cut there (reward 0,
no win): a deterministic student can repeat a free move forever (Thrones' switches).
"""

from __future__ import annotations

from typing import Any

import numpy as np
from tqdm import tqdm

from games.batch import GameBatch
from training.cloning import Demonstrations, Recording
from training.config import TrainConfig
from training.vec import player_factory

MAX_RECORDED_DECISIONS = 1000
PRETRAIN_SEED_OFFSET = 5_000_000  # the teacher's games: far from PPO's (seed, row) games and the evaluation's


def record_chunk(cfg: TrainConfig, games: list[int], progress: bool, student: Any = None) -> Demonstrations:
    """Games ``games`` (numbers; game ``g`` from seed ``cfg.seed + PRETRAIN_SEED_OFFSET + g``)."""
    assert cfg.pretrain.teacher is not None
    make = player_factory(cfg.game)
    rec = Recording(cfg.gamma)
    n_actions = 0
    desc = "record teacher" if student is None else "label the student's games"
    for g in tqdm(games, desc=desc, unit="game", disable=not progress):
        seed = cfg.seed + PRETRAIN_SEED_OFFSET + g
        batch = GameBatch(cfg.game, 1, opponents=[o.name for o in cfg.opponents],
                          weights=[o.weight for o in cfg.opponents], num_players=cfg.num_players,
                          seed=seed, make_player=make)
        n_actions = batch.num_actions
        rewards, win = _record_game(batch, make(cfg.pretrain.teacher, seed), rec, student)
        rec.end_game(g, rewards, win)
    return rec.demonstrations(n_actions)


def _record_game(batch: GameBatch, teacher: Any, rec: Recording, student: Any) -> tuple[list[float], float]:
    """One game of ``batch``'s row 0: its rewards (one per learner decision) and the win share."""
    obs, masks = batch.reset()
    rewards: list[float] = []
    while len(rewards) < MAX_RECORDED_DECISIONS:
        state, seat = batch.states[0], int(batch.seats[0])
        action = int(teacher(state.view_for(seat), np.flatnonzero(masks[0]).tolist()))
        rec.decision(obs[0], masks[0], action)
        if student is not None:  # the student's move is played; the teacher's is the label
            action = int(np.ravel(student.predict(obs, action_masks=masks, deterministic=True)[0])[0])
        step = batch.step(np.array([action]))
        rewards.append(float(step.rewards[0]))
        if step.dones[0]:
            return rewards, float(step.games[0]["win"])
        obs, masks = step.obs, step.masks
    return rewards, 0.0
