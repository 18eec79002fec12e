"""Any registered game's batch under gymnasium 1.x's vector API (a thin adapter of :mod:`games.batch`).

::

    from agents.generic import make_generic
    from games.vector import GameVectorEnv
    envs = GameVectorEnv("pig", num_envs=8, opponents=["random"], make_player=make_generic)
    obs, infos = envs.reset(seed=0)              # (N, C, H, W); infos["action_mask"] (N, A) int8
    obs, rewards, terminations, truncations, infos = envs.step(actions)

Autoreset mode ``SAME_STEP`` (``metadata["autoreset_mode"]``): the step that ends a game returns
the next game's first observation and mask, the finished game's last observation in
``infos["final_obs"]`` (masked by ``infos["_final_obs"]``) and its summary batched in
``infos["final_info"]["game"]`` as gymnasium's own vector envs batch infos (``["return"][i]``,
masks ``["_return"]``, ``["_game"]``; Vigtavl's ``VigtavlGymVectorEnv`` keeps an array of
dicts there instead). A game cut at its move limit is truncated, not terminated.
"""

from __future__ import annotations

from typing import Any

import numpy as np
from gymnasium import spaces
from gymnasium.vector import AutoresetMode, VectorEnv
from gymnasium.vector.utils import batch_space

from games.aec import OBS_BOUND
from games.batch import GameBatch


class GameVectorEnv(VectorEnv):
    """N games of one registered game as a gymnasium ``VectorEnv``; keywords are
    :class:`~games.batch.GameBatch`'s."""

    metadata = {"autoreset_mode": AutoresetMode.SAME_STEP, "render_modes": []}

    def __init__(self, game: str = "pig", num_envs: int = 8, **kwargs: Any) -> None:
        self.batch = GameBatch(game, num_envs, **kwargs)
        self.num_envs = num_envs
        self.single_observation_space = spaces.Box(-OBS_BOUND, OBS_BOUND, self.batch.observation_shape,
                                                   dtype=np.float32)
        self.single_action_space = spaces.Discrete(self.batch.num_actions)
        self.observation_space = batch_space(self.single_observation_space, num_envs)
        self.action_space = batch_space(self.single_action_space, num_envs)
        self.render_mode = None

    def reset(self, *, seed: int | None = None, options: dict[str, Any] | None = None) -> tuple[np.ndarray, dict[str, Any]]:
        if seed is not None:
            self.batch.seed(seed)
        if options:
            raise ValueError(f"reset takes no options, got {sorted(options)}")
        obs, masks = self.batch.reset()
        return obs, {"action_mask": masks.astype(np.int8)}

    def step(self, actions: Any) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray, dict[str, Any]]:
        st = self.batch.step(actions)
        infos: dict[str, Any] = {"action_mask": st.masks.astype(np.int8)}
        if st.final_obs:
            done = st.dones
            final_obs = np.empty(self.num_envs, dtype=object)
            final_info: dict[str, Any] = {}
            for i, o in st.final_obs.items():  # final_info batched as gymnasium's own envs batch it
                final_obs[i] = o
                final_info = self._add_info(final_info, {"game": st.games[i]}, i)
            infos.update(final_obs=final_obs, _final_obs=done.copy(), final_info=final_info,
                         _final_info=done.copy())
        return st.obs, st.rewards, st.terminated, st.truncated, infos

    def action_masks(self) -> np.ndarray:
        """``(N, n_actions)`` bool: every row's legal actions now."""
        return self.batch.action_masks()
