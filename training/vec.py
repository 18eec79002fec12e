"""Any registered game's batch as a Stable-Baselines3 ``VecEnv`` (a thin adapter of :mod:`games.batch`).

::

    from training.vec import GameVecEnv
    venv = GameVecEnv("thrones", num_envs=8, opponents=["random"], seed=0)
    model = MaskablePPO("MlpPolicy", venv)       # masks through env_method("action_masks")

SB3's conventions: ``step`` returns ``(obs, rewards, dones, infos)``; a finished game restarts
at once, its last observation in ``infos[i]["terminal_observation"]``,
``infos[i]["TimeLimit.truncated"]`` when it was cut at its move limit, and its summary in
``infos[i]["game"]`` (return, win, length, seat, opponent), which the trainer logs.
"""

from __future__ import annotations

import functools
from typing import Any

import numpy as np
from gymnasium import spaces
from stable_baselines3.common.vec_env import VecEnv

from agents.kinds import make_player
from games.aec import OBS_BOUND
from games.batch import GameBatch, PlayerFactory


def player_factory(game: str) -> PlayerFactory:
    """The game's agents by spec (:func:`agents.kinds.make_player`: the generic kinds, random,
    rollout:N, ppo:PATH, and the game's own bots)."""
    return functools.partial(make_player, game)


class GameVecEnv(VecEnv):
    """N games of one registered game as an SB3 ``VecEnv``; keywords are
    :class:`~games.batch.GameBatch`'s (``make_player`` by default :func:`player_factory`'s)."""

    def __init__(self, game: str = "pig", num_envs: int = 8, **kwargs: Any) -> None:
        kwargs.setdefault("make_player", player_factory(game))
        self.batch = GameBatch(game, num_envs, **kwargs)
        self.num_envs, self.render_mode = num_envs, None  # read by VecEnv.__init__
        obs_space = spaces.Box(-OBS_BOUND, OBS_BOUND, self.batch.observation_shape, dtype=np.float32)
        super().__init__(num_envs, obs_space, spaces.Discrete(self.batch.num_actions))
        self.masks = np.ones((num_envs, self.batch.num_actions), dtype=bool)
        self._actions: np.ndarray | None = None

    def reset(self) -> np.ndarray:
        if self._seeds[0] is not None:  # VecEnv.seed() keeps them for the next reset
            self.batch.seed(int(self._seeds[0]))
            self._reset_seeds()
        obs, self.masks = self.batch.reset()
        return obs

    def step_async(self, actions: np.ndarray) -> None:
        self._actions = np.asarray(actions)

    def step_wait(self) -> tuple[np.ndarray, np.ndarray, np.ndarray, list[dict[str, Any]]]:
        assert self._actions is not None, "step_async first"
        st = self.batch.step(self._actions)
        self.masks = st.masks
        infos: list[dict[str, Any]] = [{} for _ in range(self.num_envs)]
        for i, final in st.final_obs.items():
            infos[i] = {"terminal_observation": final, "TimeLimit.truncated": bool(st.truncated[i]),
                        "game": st.games[i]}
        return st.obs, st.rewards, st.dones, infos

    def action_masks(self) -> np.ndarray:
        """``(N, n_actions)`` bool: every row's legal actions now."""
        return self.masks

    def set_opponents(self, opponents: list[str], weights: list[float] | None = None) -> None:
        self.batch.set_opponents(opponents, weights)

    def close(self) -> None:
        pass

    def get_attr(self, attr_name: str, indices: Any = None) -> list[Any]:
        return [getattr(self, attr_name)] * len(self._rows(indices))

    def set_attr(self, attr_name: str, value: Any, indices: Any = None) -> None:
        if sorted(set(self._rows(indices))) != list(range(self.num_envs)):
            raise ValueError(f"the games of a GameVecEnv share their attributes: set_attr({attr_name!r}) "
                             "applies to all of them (indices=None)")
        setattr(self, attr_name, value)

    def env_method(self, method_name: str, *method_args: Any, indices: Any = None, **method_kwargs: Any) -> list[Any]:
        rows = self._rows(indices)
        if method_name == "action_masks":  # each row its own, as N separate envs would answer
            return list(self.masks[rows])
        return [getattr(self, method_name)(*method_args, **method_kwargs)] * len(rows)

    def env_is_wrapped(self, wrapper_class: type, indices: Any = None) -> list[bool]:
        return [False] * len(self._rows(indices))

    def _rows(self, indices: Any) -> list[int]:
        return list(self._get_indices(indices))
