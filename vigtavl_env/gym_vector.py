"""The batched vector env under gymnasium 1.x's vector API, for CleanRL-style loops.

::

    from vigtavl_env.gym_vector import VigtavlGymVectorEnv
    envs = VigtavlGymVectorEnv(num_envs=8, opponents=["random", "greedy"], seed=0)
    obs, infos = envs.reset(seed=0)                         # (N, C, H, W); infos["action_mask"] (N, A)
    obs, rewards, terminations, truncations, infos = envs.step(actions)

A ``gymnasium.vector.VectorEnv`` over :class:`~vigtavl_env.vector.VigtavlVectorEnv` (the SB3
``VecEnv`` that steps N games in one call): the same games, the same speed. Its autoreset mode
is ``SAME_STEP`` (``metadata["autoreset_mode"]``): the step that ends a game returns the next
game's first observation and mask, and the finished game's last observation in
``infos["final_obs"]`` (masked by ``infos["_final_obs"]``) and its info batched in
``infos["final_info"]`` (``["game"]["tokens"][i]``, masked by ``["_game"]``), as gymnasium's own
vector envs write them in that mode, and as :class:`games.vector.GameVectorEnv` does. A game cut off at ``max_steps`` is
truncated, not terminated. ``infos["action_mask"]`` (int8) and ``action_masks()`` (bool) give
the legal actions of every row; ``infos["game"]`` the finished games' summaries.
"""

from __future__ import annotations

from typing import Any

import numpy as np
from gymnasium.vector import AutoresetMode, VectorEnv
from gymnasium.vector.utils import batch_space

from .vector import VigtavlVectorEnv


class VigtavlGymVectorEnv(VectorEnv):
    """N games in one process as a gymnasium ``VectorEnv`` (``SAME_STEP`` autoreset); keywords
    are :class:`VigtavlVectorEnv`'s."""

    metadata = {"autoreset_mode": AutoresetMode.SAME_STEP, "render_modes": []}

    def __init__(self, num_envs: int = 8, **kwargs: Any) -> None:
        self.venv = VigtavlVectorEnv(num_envs=num_envs, **kwargs)
        self.num_envs = num_envs
        self.single_observation_space = self.venv.observation_space
        self.single_action_space = self.venv.action_space
        self.observation_space = batch_space(self.single_observation_space, num_envs)
        self.action_space = batch_space(self.single_action_space, num_envs)
        self.render_mode = None

    def reset(self, *, seed: int | None = None, options: dict[str, Any] | None = None) -> tuple[np.ndarray, dict[str, Any]]:
        if seed is not None:
            self.venv.seed(seed)
        if options:
            raise ValueError(f"reset takes no options, got {sorted(options)}")
        obs = self.venv.reset()
        return obs, {"action_mask": self.venv.action_masks().astype(np.int8)}

    def step(self, actions: Any) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray, dict[str, Any]]:
        actions = np.asarray(actions)
        if actions.shape != (self.num_envs,):
            raise ValueError(f"step takes one action per game: shape ({self.num_envs},), got {actions.shape}")
        obs, rewards, dones, step_infos = self.venv.step(actions)
        terminated, truncated = self.venv.terminated.copy(), self.venv.truncated.copy()
        infos: dict[str, Any] = {"action_mask": self.venv.action_masks().astype(np.int8)}
        if dones.any():
            final_obs = np.empty(self.num_envs, dtype=object)
            final_info: dict[str, Any] = {}
            games = np.empty(self.num_envs, dtype=object)
            for i in np.flatnonzero(dones):  # final_info batched as gymnasium's own envs batch it
                info = dict(step_infos[i])
                final_obs[i] = info.pop("terminal_observation", None)
                final_info = self._add_info(final_info, info, i)
                games[i] = info.get("game")
            infos.update(final_obs=final_obs, _final_obs=dones.copy(), final_info=final_info,
                         _final_info=dones.copy(), game=games, _game=dones.copy())
        return obs, rewards.astype(np.float32), terminated, truncated, infos

    def action_masks(self) -> np.ndarray:
        """``(N, n_actions)`` bool: every row's legal actions now."""
        return self.venv.action_masks()

    def close_extras(self, **kwargs: Any) -> None:
        self.venv.close()

    @property
    def unwrapped(self) -> "VigtavlGymVectorEnv":
        return self
