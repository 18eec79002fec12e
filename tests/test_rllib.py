"""Ray RLlib (issue #16): the multi-agent env, the RLModule and its SB3 twin, and one training
iteration through ``vigtavl train --backend rllib`` (CI installs the extra: ``make setup``)."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

pytest.importorskip("ray.rllib", reason="the rllib extra is not installed (pip install -e '.[rllib]')")

import torch as th  # noqa: E402

from training.config import TrainConfig  # noqa: E402
from training.rllib import (  # noqa: E402
    LEARNER, RLLIB, SB3Exporter, VigtavlMultiAgentEnv, VigtavlRLModule, algorithm_config, sb3_state_dict,
)
from training.runs import newest_checkpoint  # noqa: E402
from vigtavl.cli import main as cli_main  # noqa: E402

QUICK = Path(__file__).resolve().parent.parent / "configs" / "ppo_quick.yaml"


def _play(env: VigtavlMultiAgentEnv, seed: int) -> tuple[set[str], dict[str, float], int]:
    obs, _ = env.reset(seed=seed)
    rng = np.random.default_rng(seed)
    seen, returns, steps = set(), {}, 0
    while True:
        (agent, o), = obs.items()  # turn-based: one agent decides at a time
        seen.add(agent)
        assert o["action_mask"].dtype == np.float32 and o["action_mask"].any()
        assert o["observations"].shape == env.observation_spaces[agent]["observations"].shape
        obs, rewards, terminated, truncated, _ = env.step({agent: int(rng.choice(np.flatnonzero(o["action_mask"])))})
        for a, r in rewards.items():
            returns[a] = returns.get(a, 0.0) + r
        steps += 1
        if terminated["__all__"] or truncated["__all__"]:
            assert set(obs) == set(env.agents)  # every agent RLlib plays sees the end
            return seen, returns, steps


def test_self_play_exposes_every_seat_and_pays_the_result():
    env = VigtavlMultiAgentEnv({"num_players": 2, "opponents": {"self": 1.0}})
    seen, returns, _ = _play(env, seed=3)
    assert seen == {LEARNER, "opponent_1"}
    assert sorted(returns.values()) in ([-1.0, 1.0], [0.0, 0.0])  # win_loss: one wins, or a tie


def test_bots_play_inside_the_env_and_only_the_learner_is_exposed():
    env = VigtavlMultiAgentEnv({"num_players": 3, "opponents": {"greedy": 1.0, "random": 1.0}})
    seen, returns, steps = _play(env, seed=5)
    assert seen == {LEARNER} and set(returns) == {LEARNER} and steps > 10
    aec = env.table.aec  # Vigtavl's seat table (Game.seat_table) over its AEC env
    assert aec.game_state.is_over or any(aec.truncations.values())


def test_the_rl_module_is_the_sb3_policy_under_other_names():
    cfg = TrainConfig()
    env = VigtavlMultiAgentEnv({"num_players": 2})
    space = env.observation_spaces[LEARNER]
    module = VigtavlRLModule(observation_space=space, action_space=env.action_spaces[LEARNER],
                             model_config={"channels": cfg.net.channels, "blocks": cfg.net.blocks,
                                           "hidden": cfg.net.hidden})
    exporter = SB3Exporter(cfg)
    exporter.model.policy.load_state_dict(sb3_state_dict(module.state_dict(), exporter.keys))
    obs, _ = env.reset(seed=1)
    (_, o), = obs.items()
    batch = {"obs": {k: th.as_tensor(v)[None] for k, v in o.items()}}
    with th.no_grad():
        logits = module.forward_inference(batch)["action_dist_inputs"][0]
        value = module.compute_values(batch)[0]
        policy = exporter.model.policy
        x = th.as_tensor(o["observations"])[None]
        dist = policy.get_distribution(x, action_masks=o["action_mask"][None] > 0)
        sb3_value = policy.predict_values(x)[0, 0]
    legal = o["action_mask"] > 0
    assert th.allclose(th.softmax(logits, -1)[legal], dist.distribution.probs[0][legal], atol=1e-5)
    assert float(value) == pytest.approx(float(sb3_value), abs=1e-5)


def newest_rllib_checkpoint(run: Path) -> Path:
    return newest_checkpoint(run, RLLIB)


def test_one_iteration_trains_writes_the_run_folder_and_resumes(tmp_path: Path, monkeypatch: pytest.MonkeyPatch):
    """Also beside another Ray cluster (here named by RAY_ADDRESS, as ``ray start`` or a job
    scheduler would): the run starts a private local instance; and ``--resume runs/r``, the
    relative path the run prints, reaches Ray as an absolute one."""
    monkeypatch.setenv("RAY_ADDRESS", "127.0.0.1:1")  # a cluster that is not there: never asked
    monkeypatch.chdir(tmp_path)
    runs = tmp_path / "runs"
    common = ["--backend", "rllib", "--no-progress"]
    sets = ["env_runners=0", "n_envs=1", "n_steps=64", "batch_size=32", "n_epochs=1", "total_timesteps=64",
            "eval_every=0", f"run_dir={runs}", "run_name=r", "net.channels=8", "net.blocks=1", "net.hidden=[16]",
            "opponents=[{name: random, weight: 1}]", "selfplay.weight=1", "selfplay.snapshot_every=32",
            "selfplay.max_snapshots=1", "checkpoint_minutes=0"]
    argv = ["train", "--config", str(QUICK), *common] + [a for s in sets for a in ("--set", s)]
    assert cli_main(argv) == 0
    run = runs / "r"
    first = newest_rllib_checkpoint(run)
    assert first is not None and (run / "final_model.zip").is_file() and (run / "config.yaml").is_file()
    log = (run / "progress.csv").read_bytes()
    assert b"time/total_timesteps" in log and list((run / "tb").rglob("events.out.tfevents.*"))
    # the exported model plays as any ppo: agent
    assert cli_main(["evaluate", "--model", str(run / "final_model.zip"), "--opponents", "random",
                     "--games", "2", "--no-progress"]) == 0
    # --resume RUN_DIR continues from the newest checkpoint, in a new CSV, the first one untouched
    assert cli_main(["train", "--resume", "runs/r", "--set", "total_timesteps=128", *common]) == 0
    assert newest_rllib_checkpoint(run) != first and (run / "progress.csv").read_bytes() == log
    assert list(run.glob("progress-resume-*.csv"))
    assert (run / "rllib_state.json").read_text().count(LEARNER) == 0  # steps and snapshots only


def test_device_cuda_without_a_gpu_warns_and_asks_ray_for_no_gpu(monkeypatch: pytest.MonkeyPatch,
                                                                 capsys: pytest.CaptureFixture[str]):
    monkeypatch.setattr(th.cuda, "is_available", lambda: False)
    config = algorithm_config(TrainConfig(device="cuda", env_runners=0))
    assert config.num_gpus_per_learner == 0
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and "no GPU" in err[0] and "training on the CPU" in err[0]


def sigterm_after_the_first_checkpoint(argv: list[str], run: Path) -> tuple[int, str, float, list[int]]:
    """``python -m vigtavl ARGV`` in a session of its own, SIGTERM to its whole group once its
    first RLlib checkpoint is in ``run``: its status, its stderr, the seconds it took to exit after
    the signal, and the processes it had started by then."""
    import os
    import signal
    import subprocess
    import sys
    import time

    from training.raylocal import children, descendants
    proc = subprocess.Popen([sys.executable, "-m", "vigtavl", *argv], stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True, start_new_session=True)
    deadline = time.monotonic() + 180
    while not list(run.glob("checkpoints/rllib_*")):  # the first iteration's checkpoint
        assert proc.poll() is None, proc.communicate()[1][-3000:]
        assert time.monotonic() < deadline, "no checkpoint after 180 s"
        time.sleep(0.2)
    started = descendants(children(proc.pid))  # Ray's head processes, the env runner, the watchdog
    time.sleep(1.0)  # into the next iteration
    sent = time.monotonic()
    os.killpg(proc.pid, signal.SIGTERM)
    _, err = proc.communicate(timeout=60)
    return proc.returncode, err, time.monotonic() - sent, started


def test_sigterm_to_the_group_saves_a_checkpoint_and_leaves_no_ray_behind(tmp_path: Path):
    """A scheduler's SIGTERM to the run's whole process group: Ray's own processes (a private
    instance, an env runner actor) must not take it, or Ray would end the driver before it
    saves. The run saves, exits 143 within 10 s and ends every process it started."""
    import time

    from training.raylocal import alive
    run = tmp_path / "r"
    sets = ["env_runners=1", "n_envs=1", "n_steps=32", "batch_size=32", "n_epochs=1", "total_timesteps=10000000",
            "eval_every=0", f"run_dir={tmp_path}", "run_name=r", "net.channels=4", "net.blocks=1", "net.hidden=[8]",
            "opponents=[random]", "pretrain.teacher=null"]
    argv = ["train", "--config", str(QUICK), "--backend", "rllib", "--no-progress"]
    argv += [a for s in sets for a in ("--set", s)]
    status, err, seconds, started = sigterm_after_the_first_checkpoint(argv, run)
    assert seconds < 10 and status == 143, err[-3000:]
    assert "stopped by SIGTERM" in err.strip().splitlines()[-1]
    assert newest_rllib_checkpoint(run).name.startswith("rllib_")
    deadline = time.monotonic() + 10  # the watchdog ends what ray.shutdown leaves, if anything
    while any(alive(p) for p in started) and time.monotonic() < deadline:
        time.sleep(0.2)
    assert not [p for p in started if alive(p)]


def test_a_checkpoint_that_fails_to_load_leaves_the_run_folder_as_it_was(tmp_path: Path,
                                                                        monkeypatch: pytest.MonkeyPatch,
                                                                        capsys: pytest.CaptureFixture[str]):
    """A checkpoint whole to training.damage's checks that Ray still fails to load, once Ray has
    started: one line naming it, status 2, and the run folder's files as they were (no config.yaml
    rewritten with this command's settings, no lock left). Ray is not started here: its start
    and the failure are acted, so the test takes a second."""
    import training.rllib as rllib
    from test_damaged_checkpoints import _files, _rllib_checkpoint
    from training.config import load_config, save_config
    run = tmp_path / "r"
    save_config(load_config(QUICK, ["backend=rllib", f"run_dir={tmp_path}", "run_name=r"]), run / "config.yaml")
    checkpoint = _rllib_checkpoint(run / "checkpoints" / "rllib_64")
    before = _files(run)
    started = []

    def start_ray(address: str | None, num_cpus: int) -> rllib.RaySession:
        started.append(num_cpus)
        return rllib.RaySession(initialized_here=False, private=False)

    def from_checkpoint(cls: type, path: str, *args: object, **kwargs: object) -> None:
        raise RuntimeError("Ray cannot restore this learner\n(a second line of Ray's)")
    monkeypatch.setattr(rllib, "start_ray", start_ray)
    monkeypatch.setattr(rllib.Algorithm, "from_checkpoint", classmethod(from_checkpoint))
    capsys.readouterr()
    argv = ["train", "--backend", "rllib", "--resume", str(run), "--no-progress", "--set", "total_timesteps=128"]
    assert cli_main(argv) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert started and len(err) == 1 and "Traceback" not in err[0], err
    assert f"checkpoint {checkpoint} cannot be loaded" in err[0] and "Ray cannot restore" in err[0]
    assert _files(run) == before
