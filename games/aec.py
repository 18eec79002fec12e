"""Any registered game as a PettingZoo AEC environment, through the game interface alone.

    from games.aec import game_env
    env = game_env("pig", num_players=3, seed=7)
    env.reset()
    for agent in env.agent_iter():
        obs, reward, terminated, truncated, info = env.last()
        action = None if terminated or truncated else env.action_space(agent).sample(obs["action_mask"])
        env.step(action)

Agents are ``player_0 .. player_{n-1}``; each step selects the seat the game asks, out of turn
included (``info["interrupt"]`` names the kind). Observations are
``{"observation": float32 (C, H, W) as that seat sees it, "action_mask": int8}``; a seat's mask
is all zeros unless it must act. Rewards are the game's returns, given once at the end; a game
cut at its move limit is truncated with zero rewards. ``info`` carries only what the seat may
know (:meth:`games.interface.GameState.seat_info`).
"""

from __future__ import annotations

from functools import lru_cache
from typing import Any

import gymnasium
import numpy as np
from gymnasium import spaces
from pettingzoo import AECEnv
from pettingzoo.utils import wrappers

from .interface import GameState, IllegalAction
from .registry import load_game

OBS_BOUND = 1e6


class GameAEC(AECEnv):
    """A game of the registry as an AEC env (see the module docstring)."""

    metadata = {"render_modes": ["ansi", "rgb_array"], "is_parallelizable": False, "render_fps": 2}

    def __init__(self, game: str = "vigtavl", num_players: int | None = None, seed: int | None = None,
                 render_mode: str | None = None, **options: Any) -> None:
        super().__init__()
        if render_mode is not None and render_mode not in self.metadata["render_modes"]:
            raise ValueError(f"render_mode must be one of {self.metadata['render_modes']}, got {render_mode!r}")
        self.game = load_game(game)
        self.metadata = dict(self.metadata, name=f"{self.game.name}_{self.game.version}")
        self.render_mode, self.options = render_mode, options
        self.num_players = self.game.check_players(num_players)
        probe = self.game.new_state(self.num_players, 0, **options)  # the options checked here
        self.n_actions = self.game.num_actions(probe)
        shape = self.game.observation_shape(probe)
        self.possible_agents = [f"player_{i}" for i in range(self.num_players)]
        self.agents = self.possible_agents[:]
        self._seed = seed
        self._games = 0
        self.game_state: GameState | None = None
        self._obs_space = spaces.Dict({
            "observation": spaces.Box(-OBS_BOUND, OBS_BOUND, shape, dtype=np.float32),
            "action_mask": spaces.Box(0, 1, (self.n_actions,), dtype=np.int8),
        })
        self._act_space = spaces.Discrete(self.n_actions)

    @lru_cache(maxsize=None)  # noqa: B019 - the same object on every call, as PettingZoo asks
    def observation_space(self, agent: str) -> spaces.Space:
        return self._obs_space

    @lru_cache(maxsize=None)  # noqa: B019
    def action_space(self, agent: str) -> spaces.Space:
        return self._act_space

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        if seed is not None:
            self._seed, self._games = seed, 0
        base = 0 if self._seed is None else int(self._seed)
        self.game_state = self.game.new_state(self.num_players, base + self._games, **self.options)
        self._games += 1
        self.agents = self.possible_agents[:]
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self._cumulative_rewards = dict.fromkeys(self.agents, 0.0)
        self.terminations = dict.fromkeys(self.agents, False)
        self.truncations = dict.fromkeys(self.agents, False)
        self._select()

    def _select(self) -> None:
        s = self.game_state
        seat = s.current_player()
        if seat >= 0:
            self.agent_selection = self.possible_agents[seat]
        kind = s.interrupt() or ""
        self.infos = {a: dict(s.seat_info(i), interrupt=kind if a == self.agent_selection else "")
                      for i, a in enumerate(self.agents)}

    def observe(self, agent: str) -> dict[str, np.ndarray]:
        seat = self.possible_agents.index(agent)
        mask = np.zeros(self.n_actions, dtype=np.int8)
        if agent == self.agent_selection and not self.game_state.is_over():
            mask[self.game_state.legal_actions()] = 1
        return {"observation": self.game_state.observation(seat), "action_mask": mask}

    def step(self, action: Any) -> None:
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        if isinstance(action, (bool, np.bool_)):
            raise IllegalAction(f"{agent} chose {action!r}: an action is an int, not a bool")
        self.game_state.apply_action(int(action))
        self._cumulative_rewards[agent] = 0.0
        s = self.game_state
        if s.is_over():
            r = s.returns() if s.is_terminal() else [0.0] * self.num_players
            for i, a in enumerate(self.agents):
                self.rewards[a] = float(r[i])
                self.terminations[a] = bool(s.is_terminal())
                self.truncations[a] = bool(s.is_truncated())
        self._select()
        self._accumulate_rewards()

    def render(self) -> Any:
        if self.render_mode is None:
            gymnasium.logger.warn("You are calling render without a render_mode; pass render_mode=...")
            return None
        return self.game_state.render(self.render_mode)

    def close(self) -> None:
        pass


def raw_game_env(game: str = "vigtavl", **kwargs: Any) -> GameAEC:
    return GameAEC(game, **kwargs)


def game_env(game: str = "vigtavl", **kwargs: Any) -> AECEnv:
    """The AEC env in PettingZoo's standard wrappers (illegal actions raise, order enforced)."""
    return wrappers.OrderEnforcingWrapper(wrappers.AssertOutOfBoundsWrapper(GameAEC(game, **kwargs)))
