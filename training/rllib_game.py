"""Any registered game as an RLlib ``MultiAgentEnv``, through the game interface alone.

Agent ids are roles, not seats, as in Vigtavl's :class:`training.rllib.VigtavlMultiAgentEnv`:
``learner`` sits in a random seat each game, and each other seat is either exposed to RLlib as
``opponent_k`` (self-play: the spec ``"self"``) or played inside the env by an agent of that game
(any spec of :mod:`agents.kinds`, handed the seat's ``view_for``, never the true state). Only the
seat to decide gets an observation, out of turn included, so a game with decisions out of turn
selects that seat's role. Observations are the seat's own ``observation(seat)`` and its action
mask; a role's reward is its return, given at the end of the game (zero before).

    env = GameMultiAgentEnv({"game": "thrones", "opponents": {"greedy": 1.0}, "seed": 0})

``vigtavl train --config rllib_thrones`` (``backend: rllib`` with another game) trains RLlib's PPO on
it through :func:`train_game_rllib` (:func:`training.rllib.train_rllib`), the same run, resume and
SIGTERM as Vigtavl's: :data:`GAME_TRAINEE` gives it the env, :class:`GameRLModule` (the SB3 game trainer's own network,
so the run's ``best_model.zip`` and ``final_model.zip`` play as ``ppo:PATH``) and the game
trainer's evaluation games.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import numpy as np
import torch as th
from gymnasium import spaces
from ray.rllib.core.columns import Columns
from ray.rllib.core.rl_module.apis import ValueFunctionAPI
from ray.rllib.core.rl_module.torch import TorchRLModule
from ray.rllib.env.multi_agent_env import MultiAgentEnv

from agents.kinds import make_player
from agents.network import MASKED_LOGIT, policy_spec
from games import IllegalAction, load_game
from training.config import TrainConfig
from training.evaluate import EVAL_SEED_OFFSET
from training.rllib import SB3Exporter, Trainee, _cpu_tensor, train_rllib

LEARNER = "learner"
SELF = "self"
SEED_RANGE = 2 ** 62


class GameMultiAgentEnv(MultiAgentEnv):
    """The game ``config["game"]`` as RLlib's multi-agent env (module docstring). ``config``:
    ``game`` (default vigtavl), ``num_players`` (default the game's default),
    ``opponents`` ``{spec: weight}`` (default self-play), ``seed``, and ``illegal_action``:
    ``"penalty"`` (the default, as the single-seat envs: the game ends there, -1 to the role that
    chose it, 0 to the others) or ``"raise"`` (:class:`games.IllegalAction`)."""

    def __init__(self, config: dict[str, Any] | None = None) -> None:
        super().__init__()
        config = dict(config or {})
        self.game_name = str(config.pop("game", "vigtavl"))
        self.game = load_game(self.game_name)
        self.n_players = self.game.check_players(config.pop("num_players", None))
        weights = dict(config.pop("opponents", None) or {SELF: 1.0})
        seed = config.pop("seed", None)
        self.illegal_action = config.pop("illegal_action", "penalty")
        if self.illegal_action not in ("penalty", "raise"):
            raise ValueError(f"illegal_action must be 'penalty' or 'raise', got {self.illegal_action!r}")
        if config:
            raise ValueError(f"unknown option(s) {sorted(config)}; "
                             "known: game, num_players, opponents, seed, illegal_action")
        if not weights or any(not isinstance(w, (int, float)) or w < 0 for w in weights.values()) \
                or sum(weights.values()) <= 0:
            raise ValueError(f"opponents: weights must be >= 0 with a positive total, got {weights}")
        for spec in weights:
            if spec != SELF:
                make_player(self.game_name, spec, 0)  # a bad spec: one line, now
        self._specs = list(weights)
        self._p = np.array([weights[s] for s in self._specs], dtype=float) / sum(weights.values())
        self._rng = np.random.default_rng(seed)
        probe = self.game.new_state(self.n_players, 0)
        n_actions = self.game.num_actions(probe)
        box = spaces.Box(-np.inf, np.inf, self.game.observation_shape(probe), dtype=np.float32)
        space = spaces.Dict({"observations": box,
                             "action_mask": spaces.Box(0.0, 1.0, (n_actions,), dtype=np.float32)})
        self.possible_agents = [LEARNER] + [f"opponent_{k}" for k in range(1, self.n_players)]
        self.agents: list[str] = []
        self.observation_spaces = dict.fromkeys(self.possible_agents, space)
        self.action_spaces = dict.fromkeys(self.possible_agents, spaces.Discrete(n_actions))
        self.state: Any = None
        self._role: dict[int, str] = {}  # seat -> role, for the seats RLlib plays
        self._players: dict[int, Any] = {}  # seat -> the agent playing it inside the env

    def reset(self, *, seed: int | None = None, options: dict | None = None) -> tuple[dict, dict]:
        if seed is not None:
            self._rng = np.random.default_rng(seed)
        self.state = self.game.new_state(self.n_players, int(self._rng.integers(SEED_RANGE)))
        learner = int(self._rng.integers(self.n_players))
        self._role, self._players = {learner: LEARNER}, {}
        for k in range(1, self.n_players):
            seat = (learner + k) % self.n_players
            spec = self._specs[int(self._rng.choice(len(self._specs), p=self._p))]
            if spec == SELF:
                self._role[seat] = f"opponent_{k}"
            else:
                self._players[seat] = make_player(self.game_name, spec, int(self._rng.integers(2 ** 31)))
        self.agents = [self._role[s] for s in sorted(self._role)]
        seat = self._play_other_seats()
        if seat is None:  # the agents inside ended it before any role decided: another game
            return self.reset(options=options)
        return {self._role[seat]: self._obs(seat)}, {}

    def step(self, action_dict: dict[str, Any]) -> tuple[dict, dict, dict, dict, dict]:
        role = self._role[self.state.current_player()]
        try:
            self.state.apply_action(int(action_dict[role]))
        except IllegalAction:
            if self.illegal_action == "raise":
                raise
            obs = {r: self._obs(s) for s, r in self._role.items()}
            rewards = {r: -1.0 if r == role else 0.0 for r in self._role.values()}
            done = dict.fromkeys(self.agents, True) | {"__all__": True}
            return obs, rewards, done, dict.fromkeys(self.agents, False) | {"__all__": False}, {role: {"illegal": True}}
        seat = self._play_other_seats()
        if seat is None:  # over or cut: every role sees the end and its return
            over = self.state.is_terminal()
            returns = self.state.returns()
            obs = {r: self._obs(s) for s, r in self._role.items()}
            rewards = {r: float(returns[s]) if over else 0.0 for s, r in self._role.items()}
            done = dict.fromkeys(self.agents, over) | {"__all__": over}
            cut = dict.fromkeys(self.agents, not over) | {"__all__": not over}
            return obs, rewards, done, cut, {}
        role = self._role[seat]
        return {role: self._obs(seat)}, {role: 0.0}, {"__all__": False}, {"__all__": False}, {}

    def _play_other_seats(self) -> int | None:
        """Let the agents inside play until a role's seat decides (that seat) or the game is over."""
        while not self.state.is_over():
            seat = self.state.current_player()
            if seat in self._role:
                return seat
            self.state.apply_action(self._players[seat](self.state.view_for(seat), self.state.legal_actions()))
        return None

    def _obs(self, seat: int) -> dict[str, np.ndarray]:
        mask = np.zeros(self.action_spaces[LEARNER].n, dtype=np.float32)
        if not self.state.is_over():
            mask[self.state.legal_actions()] = 1.0
        return {"observations": self.state.observation(seat).astype(np.float32, copy=False), "action_mask": mask}


# ------------------------------------------------------------------ training (training.rllib.train_rllib)
POLICY = "policy"  # the SB3 policy's name inside GameRLModule: its weights are policy.<SB3 name>


class GameRLModule(TorchRLModule, ValueFunctionAPI):
    """The game trainer's network (:func:`agents.network.policy_spec`, ``mlp`` on the ``grid``
    board) as an RLlib RLModule: the SB3 policy itself, held as ``policy``, with the action mask
    added to its logits, so its weights are the SB3 model's one-to-one (:class:`GameExporter`).
    ``model_config``: ``channels``, ``blocks``, ``hidden``, as ``net:`` in the YAML config."""

    def setup(self) -> None:
        mc = dict(self.model_config or {})
        policy_class, kwargs = policy_spec("mlp", int(mc.get("channels", 32)), int(mc.get("blocks", 2)),
                                           list(mc.get("hidden", [256])), board="grid")
        self.policy = policy_class(self.observation_space["observations"], self.action_space, lambda _: 0.0, **kwargs)

    def _heads(self, batch: dict[str, Any]) -> tuple[th.Tensor, th.Tensor]:
        """The value branch's latent and the masked logits."""
        obs = batch[Columns.OBS]
        features = self.policy.extract_features(obs["observations"], self.policy.features_extractor)
        latent_pi, latent_vf = self.policy.mlp_extractor(features)
        mask = th.clamp(th.log(obs["action_mask"]), min=MASKED_LOGIT)
        return latent_vf, self.policy.action_net(latent_pi) + mask

    def _forward(self, batch: dict[str, Any], **kwargs: Any) -> dict[str, Any]:
        return {Columns.ACTION_DIST_INPUTS: self._heads(batch)[1]}

    def _forward_train(self, batch: dict[str, Any], **kwargs: Any) -> dict[str, Any]:
        latent_vf, logits = self._heads(batch)
        return {Columns.ACTION_DIST_INPUTS: logits, Columns.EMBEDDINGS: latent_vf}

    def compute_values(self, batch: dict[str, Any], embeddings: Any = None) -> th.Tensor:
        if embeddings is None:
            embeddings = self._heads(batch)[0]
        return self.policy.value_net(embeddings).squeeze(-1)


class GameExporter(SB3Exporter):
    """Saves a :class:`GameRLModule`'s weights as the MaskablePPO .zip ``ppo:PATH`` of the game plays."""

    def __init__(self, cfg: TrainConfig) -> None:
        from sb3_contrib import MaskablePPO

        from training.vec import GameVecEnv
        venv = GameVecEnv(cfg.game, 1, num_players=cfg.num_players, seed=cfg.seed)
        policy_class, policy_kwargs = policy_spec(cfg.policy, cfg.net.channels, cfg.net.blocks, cfg.net.hidden,
                                                  board="grid")
        self.model = MaskablePPO(policy_class, venv, policy_kwargs=policy_kwargs, n_steps=64, batch_size=64,
                                 learning_rate=cfg.learning_rate, gamma=cfg.gamma, seed=cfg.seed, device="cpu")
        self.keys = list(self.model.policy.state_dict())

    def state_dict(self, module_state: dict[str, Any]) -> dict[str, th.Tensor]:
        return {k: _cpu_tensor(module_state[f"{POLICY}.{k}"]) for k in self.keys}


def game_env_config(cfg: TrainConfig) -> dict[str, Any]:
    """The env's config from the YAML config: the game, its agents by weight, self-play roles."""
    weights = {o.name: float(o.weight) for o in cfg.opponents if o.weight > 0}
    if cfg.selfplay.weight > 0:
        weights[SELF] = float(cfg.selfplay.weight)
    return {"game": cfg.game, "num_players": cfg.num_players, "opponents": weights, "seed": cfg.seed}


def check_game(cfg: TrainConfig) -> None:
    """Another game on RLlib: its agents (training's and evaluation's) in one line, before any
    folder; pretraining is Vigtavl's there."""
    if cfg.pretrain.teacher:
        raise ValueError(f"pretrain.teacher: backend rllib clones a teacher for vigtavl only, not {cfg.game}")
    GameMultiAgentEnv(game_env_config(cfg))
    for spec in cfg.eval_opponents:
        make_player(cfg.game, spec, 0)


def play_game_evaluation(cfg: TrainConfig, path: Path) -> tuple[dict[str, float], dict[str, float]]:
    """The game trainer's evaluation games (:func:`training.game_train.evaluate_game_model`)."""
    from training.game_train import evaluate_game_model
    results = [evaluate_game_model(cfg.game, path, opp, cfg.eval_games, cfg.seed + EVAL_SEED_OFFSET,
                                   cfg.num_players, sample=cfg.eval_sample) for opp in cfg.eval_opponents]
    return {r.opponent: r.win_rate for r in results}, {}


GAME_TRAINEE = Trainee(check_game, GameMultiAgentEnv, game_env_config, GameRLModule, GameExporter,
                       play_game_evaluation)


def train_game_rllib(cfg: TrainConfig, resume: str | Path | None = None, progress: bool = True,
                     config_name: str = "run", ray_address: str | None = None) -> Path:
    """RLlib's PPO on ``cfg.game`` (not Vigtavl): :func:`training.rllib.train_rllib` on its
    MultiAgentEnv; returns the run folder."""
    return train_rllib(cfg, resume, progress, config_name, ray_address, GAME_TRAINEE)
