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

This module is Vigtavl's recorder (:func:`record_chunk`, its league env); the cloning, the
recording in worker processes and the DAgger rounds are :mod:`training.cloning`'s, shared with
every game (:mod:`training.game_imitation` records the others through the game interface).
"""

from __future__ import annotations

from typing import Any

from training import cloning
from training.cloning import Demonstrations, Recording, clone, discounted_returns, evaluate_clone
from training.config import TrainConfig
from training.league import LeagueEnv, OpponentPool

__all__ = ["Demonstrations", "clone", "discounted_returns", "evaluate_clone", "pretrain", "record_games"]


def record_games(cfg: TrainConfig, progress: bool = True, student: Any = None, first_game: int = 0) -> Demonstrations:
    """The teacher (``cfg.pretrain.teacher``) plays ``cfg.pretrain.games`` games in the learner's
    seat, games ``first_game``, ``first_game + 1`` ...; with a ``student`` (a model), the student
    plays them and the teacher only labels each position (DAgger), in this process."""
    return cloning.record_games(cfg, record_chunk, progress, student, first_game)


def pretrain(model: Any, cfg: TrainConfig, progress: bool = True) -> dict[str, float]:
    """Record the teacher's games and clone them into ``model``; the metrics (also logged)."""
    return cloning.pretrain(model, cfg, record_chunk, progress)


def record_chunk(cfg: TrainConfig, games: list[int], progress: bool, student: Any = None) -> Demonstrations:
    """Vigtavl's recorder (:data:`training.cloning.Recorder`): the games on a league env."""
    from tqdm import tqdm

    from arena.vigtavl_match import make_agent
    pt = cfg.pretrain
    assert pt.teacher is not None
    env = LeagueEnv(OpponentPool.from_config(cfg), num_players=cfg.num_players, map=cfg.map,
                    reward=cfg.reward, max_steps=cfg.max_steps)
    teacher = make_agent(pt.teacher, seed=cfg.seed)
    rec = Recording(cfg.gamma)
    desc = "record teacher" if student is None else "label the student's games"
    for g in tqdm(games, desc=desc, unit="game", disable=not progress):
        obs, _ = env.reset(seed=cfg.seed + g)
        inner = env.unwrapped
        teacher.reset(inner.seat, cfg.seed + g)
        rewards: list[float] = []
        done, info = False, {}
        while not done:
            mask = env.action_masks()
            action = teacher.act(obs, mask, inner.agent_info())
            rec.decision(obs, mask, action)
            if student is not None:  # the student's move is played; the teacher's is the label
                action = int(student.predict(obs, action_masks=mask, deterministic=True)[0])
            obs, reward, terminated, truncated, info = env.step(action)
            rewards.append(reward)
            done = terminated or truncated
        rec.end_game(g, rewards, info["game"]["win"])
    return rec.demonstrations(int(env.action_space.n))
