"""Training on Ray RLlib (``backend: rllib``): past one machine, the same network and run folder.

An optional extra: ``pip install -e '.[rllib]' 'torch==2.13.0'`` (``make setup`` installs it).
``vigtavl train --config configs/ppo_vs_bots.yaml --set backend=rllib`` trains with RLlib's PPO on
its new API stack (RLModule, Learner, EnvRunner), ``--ray-address auto`` (or ``ray://host:10001``)
on a running Ray cluster; with ``device: cuda`` the learner takes a GPU.

- :class:`VigtavlMultiAgentEnv`: the game's seat table (:meth:`games.interface.Game.seat_table`,
  Vigtavl's over its AEC env) as RLlib's ``MultiAgentEnv``, turn by turn (each
  step returns the observation of the one agent that decides next, an out-of-turn defender or
  retaliator included). Agent ids are roles, not seats: ``learner`` (a random seat each game) and
  ``opponent_1`` ... in turn order after it. An opponent seat is played by a heuristic bot
  inside the env (drawn from the config's ``opponents`` by weight: a bot reads the engine state,
  which an RLModule never sees) or, with ``selfplay.weight``, exposed to RLlib and mapped to a
  frozen snapshot of the learner (or to the learner itself before ``snapshot_every`` is set).
  Observations follow RLlib's masking convention: ``{"observations": (C, H, W),
  "action_mask": float32}``.
- :class:`VigtavlRLModule`: the network of ``agents/network.py`` (``HexConvExtractor``,
  ``ActionPlanesHead``, ``PooledValueHead``: the same classes, not copies) as a torch RLModule with the
  mask added to the logits (log 0 = -inf, clamped). Its weights load into the SB3 policy
  one-to-one (:func:`export_sb3`), so ``vigtavl evaluate``, ``plot``, ``match`` and ``ppo:`` specs
  work on an RLlib run: the run folder holds the same ``progress.csv``, ``tb/``, ``config.yaml``,
  ``best_model.zip`` and ``final_model.zip`` as an SB3 run, plus RLlib checkpoints in
  ``checkpoints/rllib_<steps>/`` (``--resume RUN_DIR`` takes the newest).
- another game than Vigtavl (``game: thrones``, ``configs/rllib_thrones.yaml``) trains the same way
  on :class:`training.rllib_game.GameMultiAgentEnv` with the game trainer's network
  (:class:`Trainee`: the env, the module, the SB3 export and the evaluation games of a game).
- :func:`train_rllib`: the run, read top to bottom as the SB3 trainer's, on the same plumbing:
  where it starts and where its checkpoints are (:mod:`training.runs`), what runs every so often
  (:mod:`training.schedule`), the log (:mod:`training.logs`), stopping on a signal
  (:mod:`training.stopping`), Ray itself (:mod:`training.raylocal`: a private local instance
  unless ``--ray-address``, cleaned up after a driver killed by SIGKILL).
"""

from __future__ import annotations

import json
import re
import time
import zlib
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np
import torch as th
from gymnasium import spaces
from tqdm import tqdm

from agents.network import MASKED_LOGIT, ActionPlanesHead, HexConvExtractor, PooledValueHead, policy_spec
from games import load_game
from training.config import TrainConfig, learner_device
from training.damage import loading
from training.evaluate import (EvalGames, best_so_far, interrupted_evaluation, play_vigtavl_evaluation,
                               record_evaluation)
from training.files import replacing, save_model, write_text
from training.logs import RunLogger, announce_run
from training.raylocal import RaySession, start_ray
from training.runs import CHECKPOINT_PATTERNS, FINAL_MODEL, checkpoint_path, open_run, plan_run
from training.schedule import CheckpointSchedule, Every
from training.lifecycle import RunLifecycle
from training.stopping import StopSignal

try:
    import ray
    from ray.rllib.algorithms.algorithm import Algorithm
    from ray.rllib.algorithms.ppo import PPOConfig
    from ray.rllib.core.columns import Columns
    from ray.rllib.core.rl_module.apis import ValueFunctionAPI
    from ray.rllib.core.rl_module.multi_rl_module import MultiRLModuleSpec
    from ray.rllib.core.rl_module.rl_module import RLModuleSpec
    from ray.rllib.core.rl_module.torch import TorchRLModule
    from ray.rllib.env.multi_agent_env import MultiAgentEnv
except ImportError as e:  # the extra is not installed: say how to get it, in one line
    raise ImportError("backend 'rllib' needs Ray RLlib: pip install -e '.[rllib]' 'torch==2.13.0' "
                      f"(or make setup); {e}") from None

LEARNER = "learner"  # the learner's agent id (a random seat each game) and the module it trains
SELF = "self"  # an opponent seat exposed to RLlib (a snapshot of the learner plays it)
RLLIB = "rllib"  # the checkpoint kind (training/runs.py)
PROGRESS_FILE = "vigtavl_state.json"  # in each checkpoint: its timesteps and snapshots taken
RLLIB_GAME = "vigtavl"  # the game of this module's env (training.rllib_game runs any game's)


# ------------------------------------------------------------------ the environment
class VigtavlMultiAgentEnv(MultiAgentEnv):
    """The game as an RLlib ``MultiAgentEnv`` (see the module docstring), on the game's own seat
    table (:meth:`games.interface.Game.seat_table`; Vigtavl's plays its bots inside and pays
    its reward shaping).

    ``config``: the table's keywords (Vigtavl's: num_players, map, max_steps, reward, rules)
    plus ``opponents``: ``{spec: weight}`` for the opponent seats (``"self"``: exposed to RLlib,
    every other spec a bot played inside the env) and ``seed``.
    """

    def __init__(self, config: dict[str, Any] | None = None) -> None:
        super().__init__()
        config = dict(config or {})
        weights = dict(config.pop("opponents", None) or {SELF: 1.0})
        seed = config.pop("seed", None)
        self.table = seat_table(RLLIB_GAME, **config)
        n = self.table.n_players
        self.n_players = n
        self.possible_agents = [LEARNER] + [f"opponent_{k}" for k in range(1, n)]
        self.agents: list[str] = []
        n_actions = self.table.n_actions
        space = spaces.Dict({"observations": self.table.observation_space,
                             "action_mask": spaces.Box(0.0, 1.0, (n_actions,), dtype=np.float32)})
        self.observation_spaces = dict.fromkeys(self.possible_agents, space)
        self.action_spaces = dict.fromkeys(self.possible_agents, spaces.Discrete(n_actions))
        self._specs = list(weights)
        total = float(sum(weights.values()))
        if total <= 0 or any(w < 0 for w in weights.values()):
            raise ValueError(f"opponents: weights must be >= 0 with a positive total, got {weights}")
        self._p = np.array([weights[s] for s in self._specs], dtype=float) / total
        from agents.registry import make_agent
        self._bots = {s: [make_agent(s) for _ in range(n - 1)] for s in self._specs if s != SELF}
        self._rng = np.random.default_rng(seed)
        self._role: dict[int, str] = {}  # seat -> role, for the seats RLlib plays

    # --- gymnasium-style API of MultiAgentEnv
    def reset(self, *, seed: int | None = None, options: dict | None = None) -> tuple[dict, dict]:
        if seed is not None:
            self._rng = np.random.default_rng(seed)
        game_seed = int(self._rng.integers(2**62))
        n, learner = self.n_players, int(self._rng.integers(self.n_players))
        self._role, bots = {learner: LEARNER}, {}
        for k in range(1, n):
            seat = (learner + k) % n
            spec = self._specs[int(self._rng.choice(len(self._specs), p=self._p))]
            if spec == SELF:
                self._role[seat] = f"opponent_{k}"
            else:
                bots[seat] = self._bots[spec][k - 1]
                bots[seat].reset(seat, int(self._rng.integers(2**31)))
        self.agents = [self._role[s] for s in sorted(self._role)]
        seat = self.table.reset(game_seed, bots)
        if seat is None:  # a bot-only end before the learner's first decision (never in practice)
            return self.reset(seed=None, options=options)
        return {self._role[seat]: self._obs(seat)}, {}

    def step(self, action_dict: dict[str, Any]) -> tuple[dict, dict, dict, dict, dict]:
        seat = self.table.step(int(action_dict[self._role[self.table.seat_to_decide()]]))
        if seat is None:  # over or cut: every role sees the end
            terminated = self.table.terminated()
            obs = {r: self._obs(s) for s, r in self._role.items()}
            rewards = {self._role[s]: self.table.reward(s) for s in sorted(self._role)}
            done = dict.fromkeys(self.agents, terminated) | {"__all__": terminated}
            cut = dict.fromkeys(self.agents, not terminated) | {"__all__": not terminated}
            return obs, rewards, done, cut, {}
        role = self._role[seat]
        return {role: self._obs(seat)}, {role: self.table.reward(seat)}, {"__all__": False}, {"__all__": False}, {}

    # --- helpers
    def _obs(self, seat: int) -> dict[str, np.ndarray]:
        observation, mask = self.table.observe(seat)
        return {"observations": observation, "action_mask": mask.astype(np.float32)}


def seat_table(game: str, **options: Any) -> Any:
    """The game's own seat table (:meth:`games.interface.Game.seat_table`); a game that has none
    trains through training.rllib_game (ValueError, one line)."""
    table = load_game(game).seat_table(**options)
    if table is None:
        raise ValueError(f"game {game} has no seat table of its own: training.rllib_game trains it on RLlib")
    return table


# ------------------------------------------------------------------ the network
class VigtavlRLModule(TorchRLModule, ValueFunctionAPI):
    """The project's policy network (agents/network.py's modules) as an RLlib RLModule.

    ``model_config``: ``channels``, ``blocks``, ``hidden`` (the value MLP), as ``net:`` in the
    YAML config. Submodule names match the SB3 policy's, so weights move between the two.
    """

    def setup(self) -> None:
        box = self.observation_space["observations"]
        mc = dict(self.model_config or {})
        channels, blocks, hidden = int(mc.get("channels", 32)), int(mc.get("blocks", 3)), list(mc.get("hidden", [128]))
        _, h, w = box.shape
        self.features_extractor = HexConvExtractor(box, channels=channels, blocks=blocks)
        self.action_net = ActionPlanesHead(channels, h, w, int(self.action_space.n))
        self.value_net = PooledValueHead(channels, h, w, hidden)

    def _logits(self, batch: dict[str, Any]) -> tuple[th.Tensor, th.Tensor]:
        obs = batch[Columns.OBS]
        features = self.features_extractor(obs["observations"])
        mask = th.clamp(th.log(obs["action_mask"]), min=MASKED_LOGIT)
        return features, self.action_net(features) + mask

    def _forward(self, batch: dict[str, Any], **kwargs: Any) -> dict[str, Any]:
        _, logits = self._logits(batch)
        return {Columns.ACTION_DIST_INPUTS: logits}

    def _forward_train(self, batch: dict[str, Any], **kwargs: Any) -> dict[str, Any]:
        features, logits = self._logits(batch)
        return {Columns.ACTION_DIST_INPUTS: logits, Columns.EMBEDDINGS: features}

    def compute_values(self, batch: dict[str, Any], embeddings: Any = None) -> th.Tensor:
        if embeddings is None:
            embeddings = self.features_extractor(batch[Columns.OBS]["observations"])
        return self.value_net(embeddings).squeeze(-1)


# ------------------------------------------------------------------ weights to SB3
def sb3_state_dict(module_state: dict[str, Any], sb3_keys: list[str]) -> dict[str, th.Tensor]:
    """The RLModule's weights under the SB3 policy's names (its pi_/vf_ extractors are the shared
    one: ``share_features_extractor``)."""
    out = {}
    for key in sb3_keys:
        src = re.sub(r"^(pi_|vf_)features_extractor\.", "features_extractor.", key)
        if src not in module_state:
            raise KeyError(f"the RLModule has no weight {src!r} for the SB3 policy's {key!r}")
        out[key] = _cpu_tensor(module_state[src])
    return out


def _cpu_tensor(value: Any) -> th.Tensor:
    """A weight as a CPU tensor (RLlib hands out tensors or numpy arrays)."""
    return value.detach().cpu() if isinstance(value, th.Tensor) else th.as_tensor(np.asarray(value))


class SB3Exporter:
    """Saves the learning module's weights as a MaskablePPO .zip that ``ppo:PATH`` plays."""

    def __init__(self, cfg: TrainConfig) -> None:
        from sb3_contrib import MaskablePPO

        env = load_game(RLLIB_GAME).single_seat_env(num_players=cfg.num_players, map=cfg.map, max_steps=cfg.max_steps)
        policy_class, policy_kwargs = policy_spec("cnn", cfg.net.channels, cfg.net.blocks, cfg.net.hidden)
        self.model = MaskablePPO(policy_class, env, policy_kwargs=policy_kwargs, n_steps=64, batch_size=64,
                                 learning_rate=cfg.learning_rate, gamma=cfg.gamma, seed=cfg.seed, device="cpu")
        self.keys = list(self.model.policy.state_dict())

    def state_dict(self, module_state: dict[str, Any]) -> dict[str, th.Tensor]:
        """The RLModule's weights under the SB3 policy's names."""
        return sb3_state_dict(module_state, self.keys)

    def save(self, module_state: dict[str, Any], path: Path, timesteps: int) -> Path:
        self.model.policy.load_state_dict(self.state_dict(module_state))
        self.model.num_timesteps = timesteps
        return save_model(self.model, path)


# ------------------------------------------------------------------ the algorithm
@dataclass(frozen=True)
class Trainee:
    """What :func:`train_rllib` trains on: Vigtavl (:data:`VIGTAVL`), or any other game through
    the game interface (:data:`training.rllib_game.GAME_TRAINEE`, which imports this module)."""

    check: Callable[[TrainConfig], None]
    """The checks that need no folder (one line)."""
    env: type
    env_config: Callable[[TrainConfig], dict[str, Any]]
    module: type
    """The RLModule, built from ``net``'s channels, blocks and hidden."""
    exporter: Callable[[TrainConfig], Any]
    """Its ``save(module_state, path, timesteps)`` writes the MaskablePPO .zip ``ppo:PATH`` plays."""
    play: EvalGames
    """The evaluation games (:func:`training.evaluate.record_evaluation`)."""


def check_vigtavl(cfg: TrainConfig) -> None:
    """Vigtavl on RLlib: the fully convolutional network on a map that loads."""
    if cfg.game != "vigtavl":
        raise ValueError(f"game {cfg.game} trains on RLlib through training.rllib_game.train_game_rllib")
    if cfg.policy != "cnn":
        raise ValueError("backend rllib trains the fully convolutional network (policy: cnn)")
    seat_table(cfg.game, num_players=cfg.num_players, map=cfg.map, max_steps=cfg.max_steps)  # a bad map: no folder


def env_config(cfg: TrainConfig) -> dict[str, Any]:
    """The env's config from the YAML config: the bots by weight, exposed seats for self-play."""
    weights = {o.name: float(o.weight) for o in cfg.opponents if o.weight > 0}
    if cfg.selfplay.weight > 0:
        weights[SELF] = float(cfg.selfplay.weight)
    return {"num_players": cfg.num_players, "map": cfg.map, "max_steps": cfg.max_steps,
            "reward": cfg.reward, "opponents": weights, "seed": cfg.seed}


def snapshot_ids(cfg: TrainConfig) -> list[str]:
    """The frozen snapshot modules (filled every selfplay.snapshot_every steps, oldest replaced)."""
    return [f"snapshot_{i}" for i in range(cfg.selfplay.max_snapshots)] if cfg.selfplay.snapshot_every else []


def make_mapping_fn(snapshots: list[str]) -> Any:
    """The learner to its own module; an exposed opponent to a snapshot (by the episode's hash),
    or to the learner's module itself when there are none (plain self-play)."""
    def agent_to_module(agent_id: str, episode: Any, **kwargs: Any) -> str:
        if agent_id == LEARNER or not snapshots:
            return LEARNER
        return snapshots[zlib.crc32(f"{episode.id_}/{agent_id}".encode()) % len(snapshots)]
    return agent_to_module


def algorithm_config(cfg: TrainConfig, gpu: bool | None = None, trainee: Trainee | None = None) -> Any:
    """RLlib's PPOConfig from the YAML config (the fields that apply; docs/integrations.md);
    ``gpu``: the learner on a GPU (default: as ``device`` says, when torch finds one);
    ``trainee``: the game's env and module (default: Vigtavl's)."""
    trainee = trainee or VIGTAVL
    model_config = {"channels": cfg.net.channels, "blocks": cfg.net.blocks, "hidden": list(cfg.net.hidden)}
    snapshots = snapshot_ids(cfg)
    module = RLModuleSpec(module_class=trainee.module, model_config=model_config)
    runners = cfg.env_runners
    if gpu is None:
        gpu = learner_gpu(cfg.device)
    return (
        PPOConfig()
        .environment(trainee.env, env_config=trainee.env_config(cfg), disable_env_checking=True)
        .framework("torch")
        .env_runners(num_env_runners=runners, num_envs_per_env_runner=max(1, cfg.n_envs // max(1, runners)),
                     rollout_fragment_length="auto", num_cpus_per_env_runner=1)
        .multi_agent(policies={LEARNER, *snapshots}, policy_mapping_fn=make_mapping_fn(snapshots),
                     policies_to_train=[LEARNER])
        .rl_module(rl_module_spec=MultiRLModuleSpec(rl_module_specs={m: module for m in (LEARNER, *snapshots)}))
        .training(lr=cfg.learning_rate, gamma=cfg.gamma, lambda_=cfg.gae_lambda, clip_param=cfg.clip_range,
                  entropy_coeff=cfg.ent_coef, vf_loss_coeff=cfg.vf_coef, grad_clip=cfg.max_grad_norm,
                  train_batch_size_per_learner=cfg.n_steps * cfg.n_envs, minibatch_size=cfg.batch_size,
                  num_epochs=cfg.n_epochs)
        .learners(num_learners=0, num_gpus_per_learner=1 if gpu else 0)
        .debugging(seed=cfg.seed)
    )


VIGTAVL = Trainee(check_vigtavl, VigtavlMultiAgentEnv, env_config, VigtavlRLModule, SB3Exporter,
                  play_vigtavl_evaluation)


def learner_gpu(device: str) -> bool:
    """Whether the learner takes a GPU (:func:`training.config.learner_device` says which)."""
    return learner_device(device) == "cuda"


# ------------------------------------------------------------------ training
def train_rllib(cfg: TrainConfig, resume: str | Path | None = None, progress: bool = True,
                config_name: str = "run", ray_address: str | None = None, trainee: Trainee | None = None) -> Path:
    """Train with RLlib as ``cfg`` says (continuing ``resume``: a run folder's newest checkpoint,
    or an ``rllib_<steps>`` checkpoint) on ``trainee`` (default Vigtavl); returns the run folder.
    Stops with a checkpoint on SIGINT/SIGTERM (:class:`~training.stopping.TrainingStopped`)."""
    # --- the checks that need no folder: the network, the map or game, where the run starts, the device
    trainee = trainee or VIGTAVL
    trainee.check(cfg)
    plan = plan_run(cfg, resume, config_name, backend=RLLIB)  # a damaged newest checkpoint is passed over
    gpu = learner_gpu(cfg.device)

    steps, n_snap = 0, 0
    with RunLifecycle() as life:  # Ctrl-C, SIGTERM: a checkpoint, then TrainingStopped
        stop = life.stop
        with life.setting_up():  # the set-up: a signal ends it where it is (nothing new to save)
            # --- Ray (a private local instance unless --ray-address), the algorithm, then the run
            # folder: a checkpoint that fails to load leaves the folder as it was (its config too)
            session = life.own(start_ray(ray_address, num_cpus=max(2, cfg.env_runners + 1)))
            stop.install()  # ray.init put a SIGTERM handler of its own in place
            if plan.checkpoint is None:
                algo = algorithm_config(cfg, gpu, trainee).build_algo()
            else:
                algo = load_algorithm(plan.checkpoint)
                steps, n_snap = saved_progress(plan.checkpoint)
            life.at_end(lambda: stop_algorithm(algo, stop, session))
            run = life.run = open_run(plan, cfg)
            if progress:
                announce_run(run.dir)
            if algo.learner_group.is_local:  # the learner in this process: its steps stay whole
                algo.learner_group.foreach_learner(
                    lambda learner: [stop.guard(opt) for _, opt in learner.get_optimizers_for_module(LEARNER)])
            exporter = trainee.exporter(cfg)
            snapshots = snapshot_ids(cfg)

            # --- behaviour cloning, on the SB3 twin of the network (a new run with pretrain.teacher set)
            if plan.checkpoint is None and cfg.pretrain.teacher:
                from training.imitation import pretrain
                pretrain(exporter.model, cfg, progress)
                save_model(exporter.model, run.dir / "pretrained_model.zip")
                cloned = {k: v for k, v in exporter.model.policy.state_dict().items()
                          if k.split(".")[0] in ("features_extractor", "action_net", "value_net")}
                algo.set_weights({m: cloned for m in (LEARNER, *snapshots)})

        # --- what runs every so often (training/schedule.py), the log, the evaluation
        evaluations = Every(cfg.eval_every, steps)
        checkpoints = CheckpointSchedule(cfg.checkpoint_every, cfg.checkpoint_minutes, steps)
        league = Every(cfg.selfplay.snapshot_every if snapshots else 0, steps)
        logger = life.own(RunLogger(run.dir, steps))
        life.on_stop(lambda: f"at {steps:,} steps; checkpoint {save_checkpoint(algo, run.dir, steps, n_snap)}")
        best = best_so_far(run.dir)

        def main_state() -> dict[str, Any]:  # the learner's weights (the env runners' may lag an update)
            return {k: _cpu_tensor(v) for k, v in algo.learner_group.get_weights(module_ids=[LEARNER])[LEARNER].items()}

        def evaluate() -> dict[str, float]:
            nonlocal best
            with stop.at_once():  # thrown away when the run stops: no need to finish it
                path = exporter.save(main_state(), run.dir / "eval_model.zip", steps)
                metrics, best = record_evaluation(cfg, run.dir, path, steps, best, trainee.play)
            return metrics

        # --- train: one RLlib iteration (sample n_steps * n_envs, update) at a time
        bar = tqdm(total=cfg.total_timesteps, initial=steps, desc="train (rllib)", unit="step", disable=not progress)
        if cfg.eval_every and (steps == 0 or interrupted_evaluation(run.dir, steps)):  # first point; one cut short
            logger.write({"time/total_timesteps": steps, **evaluate()})
        start = time.monotonic()
        while steps < cfg.total_timesteps:
            t0 = time.monotonic()
            with stop.at_once():  # a stopped iteration is thrown away: the checkpoint holds the last whole one
                result = algo.train()
            row, steps = iteration_row(result, steps, time.monotonic() - t0, time.monotonic() - start)
            bar.update(steps - bar.n)
            if league.due(steps):
                algo.set_weights({snapshots[n_snap % len(snapshots)]: main_state()})
                n_snap += 1
            if evaluations.due(steps) or (cfg.eval_every and steps >= cfg.total_timesteps):
                row.update(evaluate())
            logger.write(row)
            if checkpoints.due(steps):
                save_checkpoint(algo, run.dir, steps, n_snap)
            stop.check()
        bar.close()
        save_checkpoint(algo, run.dir, steps, n_snap)
        exporter.save(main_state(), run.dir / FINAL_MODEL, steps)
    return run.dir


def stop_algorithm(algo: Any, stop: StopSignal, session: RaySession) -> None:
    """The algorithm's end: it waits for the env runners' current sampling, so a stopped run of a
    Ray started here leaves them to ray.shutdown instead."""
    if not (stop.requested and session.initialized_here):
        algo.stop()


def iteration_row(result: dict[str, Any], steps: int, seconds: float, elapsed: float) -> tuple[dict[str, Any], int]:
    """The log row of one iteration's result (SB3's key names), and the timestep count after it."""
    runners = result.get("env_runners", {})
    new_steps = int(runners.get("num_env_steps_sampled_lifetime", steps))
    learner = result.get("learners", {}).get(LEARNER, {})
    row = {"time/total_timesteps": new_steps,
           "time/fps": (new_steps - steps) / max(seconds, 1e-9),
           "time/time_elapsed": elapsed,
           "rollout/ep_rew_mean": runners.get("agent_episode_returns_mean", {}).get(LEARNER),
           "rollout/ep_len_mean": runners.get("episode_len_mean"),
           "train/policy_gradient_loss": learner.get("policy_loss"),
           "train/value_loss": learner.get("vf_loss"),
           "train/entropy_loss": None if learner.get("entropy") is None else -float(learner["entropy"]),
           "train/approx_kl": learner.get("mean_kl_loss"),
           **_throughput(result.get("timers", {}), new_steps - steps)}
    return {k: v for k, v in row.items() if v is not None}, new_steps


def load_algorithm(checkpoint: Path) -> Any:
    """The algorithm a resume continues (one line naming the checkpoint if it does not load). Ray
    reads a checkpoint by URI: an absolute path (a relative one has no scheme)."""
    with loading(checkpoint):
        return Algorithm.from_checkpoint(str(checkpoint.resolve()))


def save_checkpoint(algo: Any, run_dir: Path, steps: int, n_snap: int) -> Path:
    """``checkpoints/rllib_<steps>``, written whole under a temporary name then renamed, with
    the run's progress in it (``vigtavl_state.json``). One already there holds these very steps."""
    path = checkpoint_path(run_dir, steps, RLLIB)
    if path.is_dir():
        return path
    progress = json.dumps({"timesteps": steps, "snapshots_taken": n_snap})
    with replacing(path) as tmp:
        algo.save_to_path(str(tmp.resolve()))
        (tmp / PROGRESS_FILE).write_text(progress)
    write_text(run_dir / "rllib_state.json", progress)  # the newest checkpoint's, for a person reading the folder
    return path


def saved_progress(checkpoint: Path) -> tuple[int, int]:
    """The timesteps and snapshots taken at ``checkpoint`` (its own file; older runs kept the
    newest checkpoint's in the run folder's rllib_state.json)."""
    own, old = checkpoint / PROGRESS_FILE, checkpoint.parent.parent / "rllib_state.json"
    state = json.loads(own.read_text()) if own.is_file() else json.loads(old.read_text()) if old.is_file() else {}
    steps = int(CHECKPOINT_PATTERNS[RLLIB].fullmatch(checkpoint.name).group(1))  # type: ignore[union-attr]
    return steps, int(state.get("snapshots_taken", 0))


def _throughput(timers: dict[str, Any], new_steps: int) -> dict[str, float]:
    """Env steps per second of sampling, and per second of the learner's update, this iteration."""
    out = {}
    for key, name in (("env_runner_sampling_timer", "time/sample_steps_per_s"),
                      ("learner_update_timer", "time/learner_steps_per_s")):
        seconds = timers.get(key)
        if isinstance(seconds, (int, float)) and seconds > 0 and new_steps > 0:
            out[name] = new_steps / seconds
    return out
