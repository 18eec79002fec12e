"""The opponent pool (a small league) and the training env that plays against it.

:class:`OpponentPool` holds named bots with weights (agent specs from ``agents.registry``) and
frozen snapshots of the learner, saved model files: every ``snapshot_every`` timesteps the
trainer saves one and adds it (:meth:`OpponentPool.add_snapshot`); past ``max_snapshots`` the
oldest is dropped, so the league follows the learner as it improves. The snapshots share the
self-play weight equally; before the first snapshot only the bots are drawn.

:class:`LeagueEnv` wraps the game's single-seat env (:meth:`games.interface.Game.single_seat_env`;
Vigtavl's is its ``SingleSeatEnv``, with its reward shaping): at each reset it draws the
learner's seat and, independently for each other seat, an opponent from the pool by weight.
Bots are built once per spec and reset per game with a seed from the env's own generator;
snapshots are :class:`~agents.ppo.PPOAgent` s that sample from the frozen policy (a
stochastic opponent gives varied games), loaded lazily from their path the first time they are
drawn -- so the pool works inside ``SubprocVecEnv`` workers: the trainer sends the new list of
snapshot paths with ``vec_env.env_method("set_snapshots", paths)``. At the end of an episode
``info["game"]`` reports the result, as the env's ``game_summary`` gives it (Vigtavl's: win share,
tokens, game length in decisions, opponents).

:class:`LeagueVectorEnv` is the same league on the game's batched vector env
(:meth:`games.interface.Game.vector_env`, a Stable-Baselines3 ``VecEnv`` for Vigtavl;
``vec_env: vector``), which it wraps: the pool's bots and snapshots become its weighted
opponents, each snapshot one frozen policy whose decisions are batched over every game waiting
on it.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import gymnasium
import numpy as np
from stable_baselines3.common.vec_env import VecEnvWrapper

from agents.ppo import saved_module_names
from games import load_game
from training.files import write_text

SNAPSHOT = "snapshot"  # the name snapshots go by in statistics
SEED_RANGE = 2**31
LEAGUE_GAME = "vigtavl"  # the game a league plays unless told (training.game_train has any game's)


@dataclass
class OpponentPool:
    """Bots ``(spec, weight)`` plus learner snapshots (model paths, oldest first)."""

    bots: list[tuple[str, float]]
    snapshot_weight: float = 0.0
    max_snapshots: int = 5
    snapshots: list[str] = field(default_factory=list)

    def __post_init__(self) -> None:
        if not self.bots or any(w < 0 for _, w in self.bots) or sum(w for _, w in self.bots) <= 0:
            raise ValueError(f"the pool needs bots with weights >= 0 and a positive total, got {self.bots}")
        if self.max_snapshots < 1 or self.snapshot_weight < 0:
            raise ValueError("max_snapshots must be >= 1 and snapshot_weight >= 0")
        self.snapshots = list(self.snapshots)[-self.max_snapshots:]

    @classmethod
    def from_config(cls, cfg: Any) -> "OpponentPool":
        """The pool of a :class:`training.config.TrainConfig`."""
        return cls([(o.name, o.weight) for o in cfg.opponents], cfg.selfplay.weight, cfg.selfplay.max_snapshots)

    def add_snapshot(self, path: str | Path) -> list[str]:
        """Add a snapshot (newest); returns the paths dropped to stay within ``max_snapshots``."""
        self.snapshots = [p for p in self.snapshots if p != str(path)] + [str(path)]  # re-saved: moves up
        dropped = self.snapshots[:-self.max_snapshots]
        self.snapshots = self.snapshots[-self.max_snapshots:]
        return dropped

    def entries(self) -> list[tuple[str, float]]:
        """``(spec, weight)`` for everything that can be drawn; snapshots as ``(path, w / n)``."""
        out = [(name, w) for name, w in self.bots if w > 0]
        if self.snapshots and self.snapshot_weight > 0:
            share = self.snapshot_weight / len(self.snapshots)
            out += [(path, share) for path in self.snapshots]
        return out

    def probabilities(self) -> dict[str, float]:
        entries = self.entries()
        total = sum(w for _, w in entries)
        probs: dict[str, float] = {}
        for spec, w in entries:
            probs[spec] = probs.get(spec, 0.0) + w / total
        return probs

    def sample(self, rng: np.random.Generator, k: int) -> list[str]:
        """``k`` draws (one per opponent seat), independent, by weight."""
        entries = self.entries()
        p = np.array([w for _, w in entries], dtype=np.float64)
        idx = rng.choice(len(entries), size=k, p=p / p.sum())
        return [entries[i][0] for i in idx]

    def is_snapshot(self, spec: str) -> bool:
        return spec in self.snapshots

    # ------------------------------------------------------------------ persistence (resume)
    def to_dict(self) -> dict[str, Any]:
        return {"bots": [list(b) for b in self.bots], "snapshot_weight": self.snapshot_weight,
                "max_snapshots": self.max_snapshots, "snapshots": self.snapshots}

    def save(self, path: str | Path) -> None:
        write_text(path, json.dumps(self.to_dict(), indent=1))  # atomic: --resume reads it

    @staticmethod
    def saved_snapshots(path: str | Path) -> list[str]:
        """The snapshot paths a saved pool lists (those whose file still exists)."""
        p = Path(path)
        if not p.is_file():
            return []
        return [s for s in json.loads(p.read_text(encoding="utf-8")).get("snapshots", []) if Path(s).is_file()]


class LeagueEnv(gymnasium.Wrapper):
    """The game's single-seat env whose opponents are drawn from an :class:`OpponentPool` per
    episode (``env_kwargs``: the env's, e.g. Vigtavl's num_players, map, reward, max_steps)."""

    def __init__(self, pool: OpponentPool, game: str = LEAGUE_GAME, **env_kwargs: Any) -> None:
        super().__init__(_own(load_game(game).single_seat_env(**env_kwargs), game, "single-seat env"))
        self.pool = pool
        self.n_players = self.env.unwrapped.n_players
        self._rng = np.random.default_rng()
        self._agents: dict[str, Any] = {}
        self._lineup: list[str] = []

    # ------------------------------------------------------------------ the league
    def set_snapshots(self, paths: Sequence[str]) -> None:
        """Replace the pool's snapshots (called by the trainer through ``env_method``)."""
        self.pool.snapshots = list(paths)[-self.pool.max_snapshots:]
        for spec in [s for s in self._agents if s not in self.pool.snapshots and not self._is_bot(s)]:
            del self._agents[spec]

    def _is_bot(self, spec: str) -> bool:
        return any(spec == name for name, _ in self.pool.bots)

    def _agent(self, spec: str) -> Any:
        if spec not in self._agents:
            if self.pool.is_snapshot(spec):
                from agents.ppo import load_ppo_agent
                self._agents[spec] = load_ppo_agent(spec, deterministic=False)
            else:
                from arena.vigtavl_match import make_agent
                self._agents[spec] = make_agent(spec, seed=0)
        return self._agents[spec]

    def opponent_name(self, spec: str) -> str:
        return SNAPSHOT if self.pool.is_snapshot(spec) else spec

    # ------------------------------------------------------------------ gymnasium API
    def reset(self, *, seed: int | None = None, options: dict[str, Any] | None = None) -> tuple[np.ndarray, dict]:
        if seed is not None:
            self._rng = np.random.default_rng(seed)
        inner = self.env.unwrapped
        inner.seat = int(self._rng.integers(self.n_players))  # a fixed-seat SingleSeatEnv keeps it at reset
        self._lineup = self.pool.sample(self._rng, self.n_players - 1)
        opponents = []
        for k, spec in enumerate(self._lineup):  # k: relative seat after the learner's
            agent = self._agent(spec)
            agent.reset((inner.seat + 1 + k) % self.n_players, int(self._rng.integers(SEED_RANGE)))
            opponents.append(agent)
        inner.opponents = opponents
        return self.env.reset(seed=seed, options=options)

    def step(self, action: Any) -> tuple[np.ndarray, float, bool, bool, dict]:
        obs, reward, terminated, truncated, info = self.env.step(action)
        if terminated or truncated:
            inner = self.env.unwrapped
            info["game"] = inner.game_summary([self.opponent_name(spec) for spec in self._lineup])
        return obs, reward, terminated, truncated, info

    def action_masks(self) -> np.ndarray:
        return self.env.unwrapped.action_masks()


class LeagueVectorEnv(VecEnvWrapper):
    """``n_envs`` games on the game's batched vector env against an :class:`OpponentPool`
    (``env_kwargs``: the env's, e.g. Vigtavl's num_players, map, reward, max_steps as for
    LeagueEnv). Snapshots sample from their policy, as LeagueEnv's do."""

    def __init__(self, pool: OpponentPool, n_envs: int, seed: int | None = None, game: str = LEAGUE_GAME,
                 **env_kwargs: Any) -> None:
        self.pool = pool
        self._snapshot_models: dict[str, Any] = {}
        opponents, weights = self._pool_opponents()
        super().__init__(_own(load_game(game).vector_env(n_envs, opponents=opponents, opponent_weights=weights,
                                                         seed=seed, deterministic_policies=False, **env_kwargs),
                              game, "vector env"))

    def reset(self) -> np.ndarray:
        return self.venv.reset()

    def step_wait(self) -> tuple[np.ndarray, np.ndarray, np.ndarray, list[dict[str, Any]]]:
        return self.venv.step_wait()

    def env_method(self, method_name: str, *method_args: Any, indices: Any = None, **method_kwargs: Any) -> list[Any]:
        """``set_snapshots`` is the league's (once for all games); the rest the vector env's."""
        if method_name == "set_snapshots":
            self.set_snapshots(*method_args, **method_kwargs)
            return [None] * len(self._get_indices(indices))
        return self.venv.env_method(method_name, *method_args, indices=indices, **method_kwargs)

    def set_snapshots(self, paths: Sequence[str]) -> None:
        """Replace the pool's snapshots; games that start from now on draw from the new pool."""
        self.pool.snapshots = list(paths)[-self.pool.max_snapshots:]
        self.venv.set_opponents(*self._pool_opponents())

    def _pool_opponents(self) -> tuple[list[Any], list[float]]:
        """The pool as (opponents, weights): bots by name, each snapshot a model loaded once."""
        from sb3_contrib import MaskablePPO

        models = self._snapshot_models
        for path in [p for p in models if p not in self.pool.snapshots]:
            del models[path]
        opponents: list[Any] = []
        weights: list[float] = []
        for spec, w in self.pool.entries():
            if self.pool.is_snapshot(spec):
                if spec not in models:
                    with saved_module_names():
                        models[spec] = MaskablePPO.load(spec, device="cpu")
                    models[spec].name = SNAPSHOT  # its name in the training statistics
                opponents.append(models[spec])
            else:
                opponents.append(spec)
            weights.append(w)
        return opponents, weights


def _own(env: Any, game: str, what: str) -> Any:
    """The env a game gave (:meth:`games.interface.Game.single_seat_env`, ``vector_env``); a game
    that gives none has no league here (ValueError, one line)."""
    if env is None:
        raise ValueError(f"game {game} has no {what} of its own for this league: training.game_train trains it")
    return env
