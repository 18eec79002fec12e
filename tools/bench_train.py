"""Training throughput: MaskablePPO agent steps per second on Vigtavl and on connect four.

::

    python -m tools.bench_train [--steps 8192] [--n-envs 2] [--n-steps 256] [--config configs/ppo_quick.yaml]

Runs the same trainer (MaskablePPO, rollouts of ``n_steps`` x ``n_envs`` steps, the config's
batch_size / n_epochs and network, ``n_envs`` environments in SubprocVecEnv workers or in the
learner process (DummyVecEnv), one torch thread in the learner unless a row says two) on

- Vigtavl (2 players, the config's network) against a random opponent, and against greedy
  (the heuristic bot's thinking counts as env time);
- Vigtavl on the batched vector env (``vigtavl_env.vector``, ``--vector-envs`` games in the
  learner process, n_steps scaled to the same rollout size) against random and greedy, and
  against random with two torch threads (the games run between the updates, so a
  ``vec_env: vector`` config gives the learner both cores);
- PettingZoo's ``connect_four_v3`` as a single-agent env (one learner seat, random opponent,
  the final reward handed to the learner) with an MLP over its flat 84-float observation,

and reports agent steps/s, the share of wall time the learner waits on the vector env (the env's
share of training time as the trainer feels it, IPC included), the share the workers spend
inside ``env.step``/``reset`` (the env code itself), and the rollout / update split.
Absolute numbers drift on shared machines: compare the rows of one run.
"""

from __future__ import annotations

import argparse
import time
from typing import Any

import gymnasium
import numpy as np
import torch as th
from gymnasium import spaces
from sb3_contrib import MaskablePPO
from sb3_contrib.common.maskable.policies import MaskableActorCriticPolicy
from stable_baselines3.common.callbacks import BaseCallback
from stable_baselines3.common.vec_env import DummyVecEnv, SubprocVecEnv, VecEnv, VecEnvWrapper

from training.config import load_config
from training.league import LeagueEnv, OpponentPool
from agents.network import policy_spec


class StepTimer(gymnasium.Wrapper):
    """Accumulates the seconds spent in the wrapped env's step and reset (read with get_attr)."""

    def __init__(self, env: gymnasium.Env) -> None:
        super().__init__(env)
        self.env_seconds = 0.0

    def step(self, action: Any) -> Any:
        t = time.perf_counter()
        out = self.env.step(action)
        self.env_seconds += time.perf_counter() - t
        return out

    def reset(self, **kwargs: Any) -> Any:
        t = time.perf_counter()
        out = self.env.reset(**kwargs)
        self.env_seconds += time.perf_counter() - t
        return out

    def action_masks(self) -> np.ndarray:
        return self.env.action_masks()


class TimedVecEnv(VecEnvWrapper):
    """Seconds the learner process spends waiting for the vector env (step and reset)."""

    def __init__(self, venv: Any) -> None:
        super().__init__(venv)
        self.seconds = 0.0

    def reset(self) -> Any:
        t = time.perf_counter()
        out = self.venv.reset()
        self.seconds += time.perf_counter() - t
        return out

    def step_async(self, actions: np.ndarray) -> None:
        t = time.perf_counter()
        self.venv.step_async(actions)
        self.seconds += time.perf_counter() - t

    def step_wait(self) -> Any:
        t = time.perf_counter()
        out = self.venv.step_wait()
        self.seconds += time.perf_counter() - t
        return out

    def env_method(self, method_name: str, *args: Any, indices: Any = None, **kwargs: Any) -> Any:
        t = time.perf_counter()  # MaskablePPO fetches the masks this way, once per step
        out = self.venv.env_method(method_name, *args, indices=indices, **kwargs)
        self.seconds += time.perf_counter() - t
        return out


class RolloutTimer(BaseCallback):
    def __init__(self) -> None:
        super().__init__()
        self.rollout_seconds, self._t = 0.0, 0.0

    def _on_rollout_start(self) -> None:
        self._t = time.perf_counter()

    def _on_rollout_end(self) -> None:
        self.rollout_seconds += time.perf_counter() - self._t

    def _on_step(self) -> bool:
        return True


class ConnectFourSeat(gymnasium.Env):
    """connect_four_v3 for one learner seat (drawn per game) against a uniform random opponent."""

    def __init__(self) -> None:
        from pettingzoo.classic import connect_four_v3
        self.aec = connect_four_v3.env()
        self.observation_space = spaces.Box(0.0, 1.0, (84,), dtype=np.float32)
        self.action_space = spaces.Discrete(7)
        self.me = "player_0"

    def reset(self, *, seed: int | None = None, options: dict | None = None) -> tuple[np.ndarray, dict]:
        super().reset(seed=seed)
        self.aec.reset(seed=seed)
        self.me = self.aec.possible_agents[int(self.np_random.integers(2))]
        self._opponent()
        return self._obs(), {}

    def step(self, action: Any) -> tuple[np.ndarray, float, bool, bool, dict]:
        self.aec.step(int(action))
        self._opponent()
        done = self._over()
        reward = float(self.aec._cumulative_rewards.get(self.me, 0.0)) if done else 0.0
        return self._obs(), reward, done, False, {}

    def action_masks(self) -> np.ndarray:
        if self._over():
            return np.ones(7, dtype=bool)
        return self.aec.observe(self.me)["action_mask"].astype(bool)

    def _over(self) -> bool:
        return any(self.aec.terminations.values()) or any(self.aec.truncations.values())

    def _opponent(self) -> None:
        while not self._over() and self.aec.agent_selection != self.me:
            mask = self.aec.observe(self.aec.agent_selection)["action_mask"]
            self.aec.step(int(self.np_random.choice(np.flatnonzero(mask))))

    def _obs(self) -> np.ndarray:
        return self.aec.observe(self.me)["observation"].astype(np.float32).ravel()


def _vigtavl_env(opponent: str) -> Any:
    def build() -> gymnasium.Env:
        th.set_num_threads(1)
        return StepTimer(LeagueEnv(OpponentPool([(opponent, 1.0)]), num_players=2))
    return build


def _vector(opponent: str, n: int) -> VecEnv:
    from vigtavl_env.vector import VigtavlVectorEnv
    return VigtavlVectorEnv(num_envs=n, opponents=[opponent], seed=0)


def _connect_four_env() -> gymnasium.Env:
    return StepTimer(ConnectFourSeat())


def bench(name: str, env_fns: list[Any], policy_class: Any, policy_kwargs: dict, steps: int, cfg: Any,
          vec_class: Any = SubprocVecEnv, n_steps: int | None = None, threads: int = 1) -> dict:
    """Train ``steps`` timesteps and time it; returns the row of figures. ``vec_class`` may
    also be a ready vector env (the batched one), whose own time is its env code. ``threads``:
    torch threads of the learner for this run."""
    vec = TimedVecEnv(vec_class if isinstance(vec_class, VecEnv) else vec_class(env_fns))
    model = MaskablePPO(policy_class, vec, n_steps=n_steps or cfg.n_steps, batch_size=cfg.batch_size,
                        n_epochs=cfg.n_epochs, policy_kwargs=policy_kwargs, seed=0, verbose=0, device="cpu")
    timer = RolloutTimer()
    th.set_num_threads(threads)
    start = time.perf_counter()
    model.learn(steps, callback=timer)
    wall = time.perf_counter() - start
    th.set_num_threads(1)
    if isinstance(vec_class, VecEnv):
        worker = vec.seconds  # one process, no IPC: all of its time is env code
    else:
        per_env = vec.get_attr("env_seconds")  # in parallel workers: the mean; in one process: the sum
        worker = float(np.mean(per_env) if vec_class is SubprocVecEnv else np.sum(per_env))
    vec.close()
    return {"name": name, "steps": model.num_timesteps, "wall_s": wall, "steps_per_s": model.num_timesteps / wall,
            "env_wait_share": vec.seconds / wall, "env_code_share": worker / wall,
            "rollout_share": timer.rollout_seconds / wall}


def main(argv: list[str] | None = None) -> None:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--steps", type=int, default=8192, help="timesteps per benchmark")
    p.add_argument("--n-envs", type=int, default=2)
    p.add_argument("--config", default="configs/ppo_quick.yaml", help="batch, epochs and network")
    p.add_argument("--n-steps", type=int, default=256, help="steps per env and rollout with --n-envs envs "
                   "(256 x 2: the rollouts of issue #15's baseline)")
    p.add_argument("--vector-envs", type=int, default=16, help="games in the batched vector env runs "
                   "(n_steps scaled so a rollout holds as many steps as the others')")
    p.add_argument("--only", default=None, help="comma list of runs (default all): vigtavl-random, "
                   "vigtavl-random-dummy, vigtavl-greedy-dummy, vigtavl-vector, vigtavl-vector-2threads, "
                   "vigtavl-vector-greedy, "
                   "connect4, connect4-dummy")
    args = p.parse_args(argv)
    cfg = load_config(args.config, [f"n_steps={args.n_steps}"])
    th.set_num_threads(1)
    th.distributions.Distribution.set_default_validate_args(False)  # as training.train does
    cls, kwargs = policy_spec(cfg.policy, cfg.net.channels, cfg.net.blocks, cfg.net.hidden)
    mlp = dict(net_arch=dict(pi=list(cfg.net.hidden), vf=list(cfg.net.hidden)))
    vec_steps = max(1, cfg.n_steps * args.n_envs // args.vector_envs)
    runs = {
        "vigtavl-random": lambda: bench("vigtavl vs random", [_vigtavl_env("random")] * args.n_envs, cls, kwargs,
                                        args.steps, cfg),
        "vigtavl-greedy-dummy": lambda: bench("vigtavl vs greedy, Dummy", [_vigtavl_env("greedy")] * args.n_envs,
                                              cls, kwargs, args.steps, cfg, DummyVecEnv),
        "vigtavl-random-dummy": lambda: bench("vigtavl vs random, Dummy", [_vigtavl_env("random")] * args.n_envs,
                                              cls, kwargs, args.steps, cfg, DummyVecEnv),
        "vigtavl-vector": lambda: bench(f"vigtavl vs random, vector {args.vector_envs}", [], cls, kwargs,
                                        args.steps, cfg, _vector("random", args.vector_envs), vec_steps),
        "vigtavl-vector-2threads": lambda: bench(f"vigtavl vs random, vector {args.vector_envs}, 2 threads", [],
                                                 cls, kwargs, args.steps, cfg, _vector("random", args.vector_envs),
                                                 vec_steps, threads=2),
        "vigtavl-vector-greedy": lambda: bench(f"vigtavl vs greedy, vector {args.vector_envs}", [], cls, kwargs,
                                               args.steps, cfg, _vector("greedy", args.vector_envs), vec_steps),
        "connect4-dummy": lambda: bench("connect4 vs random, Dummy", [_connect_four_env] * args.n_envs,
                                        MaskableActorCriticPolicy, mlp, args.steps, cfg, DummyVecEnv),
        "connect4": lambda: bench("connect4 vs random (MLP)", [_connect_four_env] * args.n_envs,
                                  MaskableActorCriticPolicy, mlp, args.steps, cfg),
    }
    chosen = args.only.split(",") if args.only else list(runs)
    print(f"MaskablePPO, {args.n_envs} envs, n_steps {cfg.n_steps}, batch {cfg.batch_size}, "
          f"epochs {cfg.n_epochs}, Vigtavl net: {cfg.policy} {cfg.net.channels}ch x {cfg.net.blocks} blocks, "
          f"hidden {cfg.net.hidden}; torch threads 1 unless the row says 2")
    print(f"{'run':<36} {'steps':>6} {'wall s':>7} {'steps/s':>8} {'env wait':>9} {'env code':>9} {'rollout':>8}")
    for key in chosen:
        r = runs[key]()
        print(f"{r['name']:<36} {r['steps']:>6} {r['wall_s']:>7.1f} {r['steps_per_s']:>8.0f} "
              f"{100 * r['env_wait_share']:>8.1f}% {100 * r['env_code_share']:>8.1f}% {100 * r['rollout_share']:>7.1f}%",
              flush=True)
    print("env wait: learner blocked on the vec env (IPC included); env code: time inside env.step/reset "
          "(per worker for SubprocVecEnv, all envs for DummyVecEnv); rollout: collecting (env + policy "
          "forward), the rest is the PPO update")


if __name__ == "__main__":
    main()
