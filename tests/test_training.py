"""The training package: a real (tiny) training run, config validation, the league, the
fully convolutional head's action layout, evaluation, resume and plotting.

The smoke run is the real ``vigtavl train`` entry point with a budget of a few hundred steps and
a tiny network, shared by the tests that need a trained model.
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import numpy as np
import pytest
import torch as th
from sb3_contrib import MaskablePPO
from stable_baselines3.common.logger import configure
from stable_baselines3.common.vec_env import DummyVecEnv

from training.config import ConfigError, load_config, save_config
from training.evaluate import evaluate_model
from training.league import SNAPSHOT, LeagueEnv, OpponentPool
from agents.network import ActionPlanesHead, HexCnnPolicy, HexConv2d, HexConvExtractor, policy_spec
from agents.ppo import PPOAgent, load_model, load_ppo_agent
from vigtavl_env import raw_env
from vigtavl.cli import main as cli_main
from vigtavl_env.engine.actions import GLOBAL_NAMES, N_GLOBAL_VERBS, N_HEX_VERBS, VERB_NAMES
from vigtavl_env.wrappers import SingleSeatEnv

ROOT = Path(__file__).resolve().parent.parent
QUICK = str(ROOT / "configs" / "ppo_quick.yaml")
TINY = ["total_timesteps=256", "n_steps=64", "batch_size=64", "n_epochs=1", "net.channels=4",
        "net.blocks=1", "net.hidden=[8]", "eval_every=128", "eval_games=2", "eval_opponents=[random]",
        "checkpoint_every=128", "opponents=[random]", "pretrain.games=2", "pretrain.epochs=1",
        "pretrain.workers=1"]


STOP_DEADLINE_S = 10.0  # docker stop's grace period before SIGKILL (Kubernetes gives 30 s)


def _sets(items: list[str]) -> list[str]:
    return [arg for item in items for arg in ("--set", item)]


# ------------------------------------------------------------------ the smoke run
def test_train_evaluate_plot_resume_end_to_end(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """``vigtavl train`` on the quick config cut to 256 steps (2 SubprocVecEnv workers, self-play
    on), then everything that uses its run, in order (one test: one training, also under xdist)."""
    runs = tmp_path / "runs"
    args = ["train", "--config", QUICK, "--no-progress"] + _sets(
        TINY + [f"run_dir={runs}", "run_name=smoke", "n_envs=2", "vec_env=subproc", "pretrain.teacher=greedy",
                "selfplay.snapshot_every=128", "selfplay.weight=1", "selfplay.max_snapshots=1"])
    assert cli_main(args) == 0
    run = runs / "smoke"
    _check_run_folder(run)
    _check_reload_and_play(run)
    _check_evaluation_is_reproducible(run, capsys)
    _check_plot(run, tmp_path / "curve.png")
    _check_existing_run_is_refused(run)
    _check_resume(run)  # last: it adds to the run


def _check_run_folder(run: Path) -> None:
    for name in ("config.yaml", "progress.csv", "best_model.zip", "final_model.zip", "eval_model.zip",
                 "best.json", "league.json", "checkpoints/model_128_steps.zip", "checkpoints/model_256_steps.zip",
                 "pretrained_model.zip"):
        assert (run / name).is_file(), name
    header = (run / "progress.csv").read_text().splitlines()[0].split(",")
    for key in ("eval/win_rate_random", "eval/mean_win_rate", "rollout/ep_rew_mean", "game/length",
                "game/tokens", "time/total_timesteps"):
        assert key in header, key
    # the league kept one snapshot (max_snapshots=1); the dropped one was deleted
    assert [p.name for p in (run / "snapshots").iterdir()] == ["snapshot_256.zip"]
    assert OpponentPool.saved_snapshots(run / "league.json")[0].endswith("snapshot_256.zip")
    assert load_config(run / "config.yaml").selfplay.max_snapshots == 1  # the resolved config
    # TensorBoard is a dependency: every run logs its curves there too
    assert list((run / "tb").rglob("events.out.tfevents.*")), "no TensorBoard event file"


def _check_reload_and_play(run: Path) -> None:
    agent = load_ppo_agent(run / "best_model.zip")
    assert isinstance(agent, PPOAgent)
    assert load_ppo_agent(run / "best_model.zip").model is agent.model  # cached per process
    env = raw_env(num_players=2)
    env.reset(seed=3)
    obs = env.observe(env.agent_selection)
    action = agent.act(obs["observation"], obs["action_mask"], {})
    assert obs["action_mask"][action] == 1
    (r,) = evaluate_model(run / "best_model.zip", ["random"], games=2, seed=5, progress=False)
    assert r.model.games == 2 and r.other.games == 2
    assert r.model.wins + r.other.wins <= 2


def _check_evaluation_is_reproducible(run: Path, capsys: pytest.CaptureFixture[str]) -> None:
    model = str(run / "final_model.zip")
    a = evaluate_model(model, ["random"], games=2, seed=11, progress=False)[0]
    b = evaluate_model(model, ["random"], games=2, seed=11, progress=False)[0]
    assert (a.model.wins, a.model.tokens, a.model.length) == (b.model.wins, b.model.tokens, b.model.length)
    assert [g.decisions for g in a.match.records] == [g.decisions for g in b.match.records]
    capsys.readouterr()
    assert cli_main(["evaluate", "--model", model, "--opponents", "random", "--games", "2",
                     "--seed", "11", "--no-progress"]) == 0
    line = next(ln for ln in capsys.readouterr().out.splitlines() if ln.startswith("random"))
    assert f"{100 * a.model.win_rate:.1f}" in line


def _check_plot(run: Path, out: Path) -> None:
    from PIL import Image
    assert cli_main(["plot", str(run), "--out", str(out)]) == 0
    with Image.open(out) as img:
        assert img.format == "PNG" and img.size[0] > 500


def _check_existing_run_is_refused(run: Path) -> None:
    from training.train import train
    cfg = load_config(QUICK, TINY + [f"run_dir={run.parent}", "run_name=smoke"])
    with pytest.raises(ValueError, match="already holds a run"):
        train(cfg, progress=False)


def _check_resume(run: Path) -> None:
    checkpoint = run / "checkpoints" / "model_128_steps.zip"
    assert MaskablePPO.load(checkpoint).num_timesteps == 128
    args = ["train", "--resume", str(checkpoint), "--no-progress", "--set", "total_timesteps=384",
            "--set", "vec_env=dummy", "--set", "eval_every=0"]
    assert cli_main(args) == 0
    assert MaskablePPO.load(run / "final_model.zip").num_timesteps == 384
    resumed = (run / "progress-resume-128.csv").read_text().splitlines()
    header = resumed[0].split(",")
    steps = [int(float(row.split(",")[header.index("time/total_timesteps")])) for row in resumed[1:]]
    assert steps == [256, 384]
    assert load_config(run / "config.yaml").total_timesteps == 384


# ------------------------------------------------------------------ configuration
def test_config_unknown_keys_are_named_with_the_allowed_ones(tmp_path: Path) -> None:
    bad = tmp_path / "bad.yaml"
    bad.write_text("seed: 1\nlearning_rat: 0.1\n")
    with pytest.raises(ConfigError, match=r"unknown key 'learning_rat'.*allowed keys.*learning_rate"):
        load_config(bad)
    with pytest.raises(ConfigError, match=r"unknown key 'net.chanels'.*channels, blocks, hidden"):
        load_config(None, ["net.chanels=8"])
    with pytest.raises(ConfigError, match=r"opponents\[0\].wieght"):
        load_config(None, ["opponents=[{name: greedy, wieght: 2}]"])


def test_config_types_and_values_are_checked() -> None:
    cases = {"seed=abc": "seed", "n_envs=2.5": "n_envs", "policy=rnn": "policy", "device=tpu": "device",
             "map=3": "map", "net.hidden=[0]": "net", "gamma=1.5": "gamma", "batch_size=99999": "batch_size",
             "opponents=[]": "opponents", "selfplay.weight=-1": "selfplay", "total_timesteps=0": "total_timesteps"}
    for item, field_name in cases.items():
        with pytest.raises(ConfigError, match=field_name):
            load_config(QUICK, [item])
    with pytest.raises(ConfigError, match="key=value"):
        load_config(None, ["seed"])
    with pytest.raises(FileNotFoundError):
        load_config("no/such/config.yaml")


def test_config_overrides_and_the_saved_config(tmp_path: Path) -> None:
    cfg = load_config(QUICK, ["net.channels=8", "total_timesteps=1e4", "learning_rate=1e-3",
                              "eval_opponents=random,greedy", "opponents=[greedy, {name: random, weight: 2}]",
                              "map=null", "selfplay.snapshot_every=500"])
    assert cfg.net.channels == 8 and cfg.net.blocks == 1  # the rest of net from the YAML
    assert cfg.total_timesteps == 10_000 and cfg.learning_rate == 1e-3
    assert cfg.eval_opponents == ["random", "greedy"]
    assert [(o.name, o.weight) for o in cfg.opponents] == [("greedy", 1.0), ("random", 2.0)]
    assert cfg.selfplay.snapshot_every == 500 and cfg.map is None
    save_config(cfg, tmp_path / "config.yaml")
    text = (tmp_path / "config.yaml").read_text()
    assert "# Players per game" in text  # field docs as comments
    assert load_config(tmp_path / "config.yaml") == cfg


def test_every_shipped_config_loads() -> None:
    for path in sorted((ROOT / "configs").glob("ppo_*.yaml")):
        cfg = load_config(path)
        assert cfg.n_steps * cfg.n_envs >= cfg.batch_size, path.name
    assert {p.stem for p in (ROOT / "configs").glob("ppo_*.yaml")} >= {
        "ppo_quick", "ppo_vs_bots", "ppo_selfplay", "ppo_3p", "ppo_4p"}


# ------------------------------------------------------------------ the league
def test_pool_adds_caps_and_samples_by_weight() -> None:
    pool = OpponentPool([("random", 1.0), ("greedy", 3.0)], snapshot_weight=4.0, max_snapshots=2)
    rng = np.random.default_rng(0)
    assert pool.probabilities() == {"random": 0.25, "greedy": 0.75}  # no snapshot yet: bots only
    assert pool.add_snapshot("a.zip") == []
    assert pool.add_snapshot("b.zip") == []
    assert pool.add_snapshot("c.zip") == ["a.zip"]  # the oldest goes
    assert pool.snapshots == ["b.zip", "c.zip"]
    assert pool.add_snapshot("b.zip") == [] and pool.snapshots == ["c.zip", "b.zip"]  # re-saved: newest
    assert pool.probabilities() == pytest.approx({"random": 0.125, "greedy": 0.375, "b.zip": 0.25, "c.zip": 0.25})
    draws = pool.sample(rng, 20_000)
    for spec, p in pool.probabilities().items():
        assert abs(draws.count(spec) / len(draws) - p) < 0.015, spec
    with pytest.raises(ValueError):
        OpponentPool([("random", 0.0)])


def _tiny_model(path: Path) -> Path:
    cls, kwargs = policy_spec("cnn", 4, 1, [8])
    model = MaskablePPO(cls, SingleSeatEnv(), policy_kwargs=kwargs, n_steps=16, batch_size=16, seed=0)
    model.save(path)
    return path.with_suffix(".zip") if path.suffix != ".zip" else path


def test_cloning_starts_from_init_from_weights(tmp_path: Path) -> None:
    """``init_from`` with ``pretrain.teacher``: the network loads the model's weights, then clones
    the teacher from them. With a vanishing cloning step the cloned network is the loaded one; with
    a real step it moves away from it."""
    from stable_baselines3.common.save_util import load_from_zip_file

    from training.train import train
    start = _tiny_model(tmp_path / "start.zip")
    _, want, _ = load_from_zip_file(str(start), device="cpu")
    moved = {}
    for lr in (1e-12, 1e-2):
        cfg = load_config(QUICK, TINY + [f"run_dir={tmp_path / 'runs'}", f"run_name=lr{lr}", f"init_from={start}",
                                         "pretrain.teacher=greedy", "pretrain.games=1", f"pretrain.learning_rate={lr}",
                                         "total_timesteps=64", "eval_every=0", "vec_env=dummy", "n_envs=1"])
        train(cfg, progress=False)
        _, got, _ = load_from_zip_file(str(tmp_path / "runs" / f"lr{lr}" / "pretrained_model.zip"), device="cpu")
        moved[lr] = max(float((got["policy"][k] - w).abs().max()) for k, w in want["policy"].items())
    assert moved[1e-12] < 1e-6 < 1e-3 < moved[1e-2], moved


@pytest.mark.parametrize("policy", ["cnn", "mlp"])
def test_value_warmup_trains_the_critic_alone(tmp_path: Path, policy: str) -> None:
    """``value_warmup``: while it lasts only the value head's weights move; past it, the trunk and
    the policy head learn too."""
    from stable_baselines3.common.save_util import load_from_zip_file

    from training.train import train
    moved = {}
    for warmup in (10_000, 64):
        cls, kwargs = policy_spec(policy, 4, 1, [8])
        start = tmp_path / f"start{warmup}.zip"
        MaskablePPO(cls, SingleSeatEnv(), policy_kwargs=kwargs, n_steps=16, batch_size=16, seed=0).save(start)
        _, want, _ = load_from_zip_file(str(start), device="cpu")
        cfg = load_config(QUICK, TINY + [f"run_dir={tmp_path / 'runs'}", f"run_name=w{warmup}", f"init_from={start}",
                                         f"policy={policy}", f"value_warmup={warmup}", "total_timesteps=128",
                                         "eval_every=0", "vec_env=dummy", "n_envs=1", "learning_rate=0.01"])
        train(cfg, progress=False)
        _, got, _ = load_from_zip_file(str(tmp_path / "runs" / f"w{warmup}" / "final_model.zip"), device="cpu")
        moved[warmup] = {k: float((got["policy"][k] - w).abs().max()) for k, w in want["policy"].items()}
    critic = {k for k in moved[64] if "value_net" in k}
    assert critic and all(moved[10_000][k] > 0 for k in critic), moved[10_000]
    assert all(v == 0.0 for k, v in moved[10_000].items() if k not in critic), moved[10_000]
    assert any(v > 0 for k, v in moved[64].items() if k not in critic), moved[64]


def _named_checkpoint(path: Path) -> Path:
    """A checkpoint by name holding a real model (the shipped one's file: every member loads)."""
    import shutil

    from agents.ppo import PRETRAINED_PATH
    path.parent.mkdir(parents=True, exist_ok=True)
    shutil.copyfile(PRETRAINED_PATH, path)
    return path


def test_snapshots_play_as_frozen_opponents(tmp_path: Path) -> None:
    snap = str(_tiny_model(tmp_path / "snap.zip"))
    pool = OpponentPool([("random", 1e-9)], snapshot_weight=1.0, max_snapshots=3)
    vec = DummyVecEnv([lambda: LeagueEnv(pool, num_players=2)])
    vec.env_method("set_snapshots", [snap])  # how the trainer reaches SubprocVecEnv workers
    env = vec.envs[0]
    before = {k: v.clone() for k, v in load_model(snap).policy.state_dict().items()}
    obs, info = env.reset(seed=4)
    assert isinstance(env._agents[snap], PPOAgent) and not env._agents[snap].deterministic
    assert env._agents[snap].model.policy.training is False
    done, steps = False, 0
    while not done:
        legal = np.flatnonzero(env.action_masks())
        obs, reward, terminated, truncated, info = env.step(int(legal[0]))
        done, steps = terminated or truncated, steps + 1
    assert info["game"]["opponent"] == SNAPSHOT and info["game"]["length"] > steps
    after = load_model(snap).policy.state_dict()
    assert all(th.equal(before[k], after[k]) for k in before)  # frozen: playing changes nothing
    vec.env_method("set_snapshots", [])
    assert snap not in env._agents


# ------------------------------------------------------------------ the networks
@pytest.mark.parametrize("players", [2, 3])
def test_convolutional_head_lands_on_the_env_action_index(players: int) -> None:
    env = raw_env(num_players=players)
    env.reset(seed=0)
    space = SingleSeatEnv(num_players=players).observation_space
    c, h, w = space.shape
    channels = 3
    head = ActionPlanesHead(channels, h, w, N_HEX_VERBS * h * w + N_GLOBAL_VERBS)
    radius = (w - 1) // 2
    with th.no_grad():
        for p in head.parameters():
            p.zero_()
        for verb, (q, r) in [(0, (0, 0)), (37, (3, -1)), (N_HEX_VERBS - 1, (-radius, radius))]:
            head.verbs.weight[:] = 0
            head.verbs.weight[verb, 1] = 1.0  # plane `verb` reads trunk channel 1
            latent = th.zeros(1, channels, h, w)
            latent[0, 1, r + radius, q + radius] = 5.0  # row r + R, column q + R
            logits = head(latent.flatten(1))
            assert logits.shape == (1, N_HEX_VERBS * h * w + N_GLOBAL_VERBS)
            assert int(logits.argmax()) == env.encode_action(VERB_NAMES[verb], (q, r))
        head.verbs.weight[:] = 0
        for g in range(N_GLOBAL_VERBS):  # end activation, end turn, no defence, the three loads
            head.globals.bias[:] = 0.0
            head.globals.bias[g] = 9.0
            assert int(head(th.zeros(1, channels * h * w)).argmax()) == env.encode_action(GLOBAL_NAMES[g])


def test_hex_convolution_sees_a_hex_and_its_six_neighbours() -> None:
    conv = HexConv2d(1, 1)
    with th.no_grad():
        conv.weight.fill_(1.0)
        conv.bias.zero_()
        x = th.zeros(1, 1, 5, 5)
        x[0, 0, 2, 2] = 1.0  # axial (0, 0) at the centre of a radius-2 tensor
        out = conv(x)[0, 0]
    seen = {(col - 2, row - 2) for row, col in zip(*np.nonzero(out.numpy()))}  # as (dq, dr)
    assert seen == {(0, 0), (1, 0), (-1, 0), (0, 1), (0, -1), (1, -1), (-1, 1)}


@pytest.mark.parametrize("kind", ["cnn", "mlp"])
def test_policies_build_and_mask(kind: str) -> None:
    env = SingleSeatEnv()
    cls, kwargs = policy_spec(kind, 4, 1, [8])
    model = MaskablePPO(cls, env, policy_kwargs=kwargs, n_steps=16, batch_size=16, seed=0)
    assert isinstance(model.policy.features_extractor, HexConvExtractor)
    assert (cls is HexCnnPolicy) == (kind == "cnn")
    obs, _ = env.reset(seed=1)
    mask = env.action_masks()
    for _ in range(5):
        action, _ = model.predict(obs, action_masks=mask, deterministic=False)
        assert mask[int(action)]


def test_missing_models_say_how_to_train_one(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from agents.registry import make_agent
    from agents import ppo
    monkeypatch.setattr(ppo, "PRETRAINED_PATH", tmp_path / "gone.zip")
    with pytest.raises(FileNotFoundError, match="vigtavl train"):
        load_ppo_agent("pretrained")
    with pytest.raises(FileNotFoundError, match="vigtavl train"):
        make_agent(f"ppo:{tmp_path / 'none.zip'}")
    model = _tiny_model(tmp_path / "m.zip")
    assert isinstance(make_agent(f"ppo:{model}"), PPOAgent)


def test_cli_help_renders(capsys: pytest.CaptureFixture[str]) -> None:
    for argv in (["--help"], ["train", "--help"], ["evaluate", "--help"], ["plot", "--help"]):
        with pytest.raises(SystemExit) as exit_info:
            cli_main(argv)
        assert exit_info.value.code == 0
    assert "--resume" in capsys.readouterr().out


# ------------------------------------------------------------------ behaviour cloning
def test_discounted_returns_match_the_definition() -> None:
    from training.imitation import discounted_returns
    got = discounted_returns([0.0, 0.5, 0.0, 1.0], 0.9)
    want = [0.5 * 0.9 + 1.0 * 0.9**3, 0.5 + 1.0 * 0.9**2, 1.0 * 0.9, 1.0]
    assert got == pytest.approx(want)


def test_cloning_records_the_teacher_and_learns_its_decisions() -> None:
    """Greedy's recorded decisions are its own (replayed through the env) and cloning them makes
    the policy pick greedy's action far more often than the untrained policy does."""
    from training.imitation import clone, evaluate_clone, record_games
    cfg = load_config(QUICK, ["pretrain.teacher=greedy", "pretrain.games=3", "pretrain.epochs=60",
                              "pretrain.learning_rate=3e-3", "net.channels=8", "net.blocks=1",
                              "opponents=[random]", "gamma=0.9"])
    demos = record_games(cfg, progress=False)
    assert len(demos) == len(demos.obs) == len(demos.masks) == len(demos.returns) > 50
    assert set(np.unique(demos.games)) == {0, 1, 2} and len(demos.wins) == 3
    masks = demos.mask_rows(np.arange(len(demos)))
    assert masks[np.arange(len(demos)), demos.actions].all()  # every recorded action was legal
    assert np.abs(demos.returns).max() <= 1.0 + 1e-6  # win_loss reward, discounted
    cls, kwargs = policy_spec("cnn", 8, 1, [8])
    model = MaskablePPO(cls, SingleSeatEnv(), policy_kwargs=kwargs, n_steps=16, batch_size=16, seed=0)
    rows = np.arange(len(demos))
    before = evaluate_clone(model.policy, demos, rows, 256)["pretrain/accuracy"]
    metrics = clone(model, demos, cfg, progress=False)
    after = evaluate_clone(model.policy, demos, rows, 256)["pretrain/accuracy"]
    assert after > before + 0.25, (before, after)  # a tiny net with a short sight: far from 1
    assert metrics["pretrain/decisions"] == len(demos)


class _LowestLegal:
    """A stand-in student: the lowest legal action; remembers the positions it was shown."""

    def __init__(self) -> None:
        self.seen: list[np.ndarray] = []

    def predict(self, obs: np.ndarray, action_masks: np.ndarray, deterministic: bool = True) -> tuple[np.ndarray, None]:
        self.seen.append(obs.astype(np.float16))
        return np.array(int(np.flatnonzero(action_masks)[0])), None


def test_dagger_plays_the_students_moves_and_records_the_teachers_labels() -> None:
    """In a DAgger round the student's action is played and the teacher's is recorded, at every
    position the student met (the rows are the student's positions, in order)."""
    from training.imitation import record_games
    cfg = load_config(QUICK, ["pretrain.teacher=greedy", "pretrain.games=2", "opponents=[random]"])
    student = _LowestLegal()
    demos = record_games(cfg, progress=False, student=student, first_game=10)
    assert len(demos) == len(student.seen) > 20
    assert all((row == seen).all() for row, seen in zip(demos.obs, student.seen))
    assert set(np.unique(demos.games)) == {10, 11}
    masks = demos.mask_rows(np.arange(len(demos)))
    assert masks[np.arange(len(demos)), demos.actions].all()  # the labels are legal there
    lowest = masks.argmax(axis=1)
    assert (demos.actions != lowest).mean() > 0.2  # greedy's labels, not the moves played
    teacher_games = record_games(cfg, progress=False, first_game=10)  # same seeds, the teacher playing
    assert len(teacher_games) != len(demos) or (teacher_games.obs != demos.obs).any()


def test_pretrain_runs_dagger_rounds_on_the_networks_own_games() -> None:
    from training.imitation import pretrain
    cfg = load_config(QUICK, ["pretrain.teacher=greedy", "pretrain.games=2", "pretrain.epochs=1",
                              "pretrain.dagger_rounds=2", "net.channels=4", "net.blocks=1", "opponents=[random]"])
    cls, kwargs = policy_spec("cnn", 4, 1, [8])
    model = MaskablePPO(cls, SingleSeatEnv(), policy_kwargs=kwargs, n_steps=16, batch_size=16, seed=0)
    model.set_logger(configure(None, []))
    metrics = pretrain(model, cfg, progress=False)
    assert metrics["pretrain/dagger_rounds"] == 2.0 and 0.0 <= metrics["pretrain/student_win_rate"] <= 1.0
    assert metrics["pretrain/decisions"] > 3 * 20  # the teacher's 2 games and the network's 2 + 2
    with pytest.raises(ConfigError, match="dagger_rounds"):
        load_config(QUICK, ["pretrain.teacher=greedy", "pretrain.dagger_rounds=-1"])


def test_pretrain_config_is_checked() -> None:
    cfg = load_config(QUICK, ["pretrain.teacher=greedy", "pretrain.games=5"])
    assert cfg.pretrain.teacher == "greedy" and cfg.pretrain.games == 5
    assert load_config(None).pretrain.teacher is None  # off by default
    for item in ("pretrain.games=0", "pretrain.teacher=' '", "pretrain.learning_rate=0"):
        with pytest.raises(ConfigError, match="pretrain"):
            load_config(QUICK, ["pretrain.teacher=greedy", item])
    with pytest.raises(ConfigError, match="allowed keys"):
        load_config(QUICK, ["pretrain.teachr=greedy"])


def test_demo_trains_evaluates_and_draws(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """``make demo``'s job, cut to a tiny budget: a run folder, the evaluation table, the curve."""
    from training.demo import main as demo_main
    sets = TINY + [f"run_dir={tmp_path}", "eval_every=0", "checkpoint_every=0", "n_envs=2", "n_steps=32"]
    assert demo_main(["--games", "2", "--workers", "1"] + _sets(sets)) == 0
    out = capsys.readouterr().out
    run = next(tmp_path.glob("demo-*"))
    assert (run / "final_model.zip").is_file() and (run / "learning_curve.png").is_file()
    assert "random" in out and "greedy" in out and "95% CI" in out


@pytest.mark.parametrize("version, actions", [("v0", 47 * 121 + 2), ("v1", 55 * 121 + 6)])
def test_the_older_records_are_refused_in_one_line(version: str, actions: int,
                                                   capsys: pytest.CaptureFixture[str]) -> None:
    """``agents/pretrained/v0`` and ``v1`` keep the networks of earlier rules (47 * HW + 2 and 55 *
    HW + 6 actions): every way of loading one against the v2 environment stops with one line
    naming both versions and saying to retrain."""
    from arena.vigtavl_match import make_agent as match_agent
    from agents.registry import make_agent
    from agents.ppo import PRETRAINED_PATH, ModelMismatchError, saved_spaces
    old = PRETRAINED_PATH.parent / version / "vigtavl_ppo.zip"
    assert saved_spaces(old)[1].n == actions
    assert f"vigtavl_{version}" in (old.parent / "README.md").read_text()
    words = rf"was trained on vigtavl_{version} \({actions} actions.*cannot play vigtavl_v2.*retrain for vigtavl_v2"
    for load in (lambda: make_agent(f"ppo:{old}"), lambda: make_agent(f"ppo-search:{old}:4"),
                 lambda: match_agent(f"ppo:{old}"), lambda: load_ppo_agent(old),
                 lambda: evaluate_model(old, ["random"], games=1, progress=False)):
        with pytest.raises(ModelMismatchError, match=words) as info:
            load()
        assert isinstance(info.value, ValueError) and "\n" not in str(info.value)
    capsys.readouterr()
    assert cli_main(["match", "--agents", f"ppo:{old},random", "--games", "1", "--no-progress"]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and f"was trained on vigtavl_{version}" in err[0] and "Traceback" not in err[0]


def test_a_v1_network_widened_to_v2_keeps_its_weights() -> None:
    """``init_from`` (training/transfer.py): the v1 network's weights land on v2's channels and
    actions of the same names, and what v2 added starts at zero."""
    from stable_baselines3.common.save_util import load_from_zip_file

    from agents.ppo import RECORDS, saved_module_names
    from training.transfer import V1_GLOBAL_VERBS, V1_HEX_VERBS, load_weights_from, v1_channel_names
    from vigtavl_env.observation import ChannelLayout
    with saved_module_names():
        _, params, _ = load_from_zip_file(str(RECORDS["v1/pretrained"]), device="cpu")
    old = params["policy"]
    env = raw_env(num_players=2)
    cls, kwargs = policy_spec("cnn", 32, 3, [128])
    new = cls(env.observation_space("player_0")["observation"], env.action_space("player_0"), lambda _: 1e-4, **kwargs)
    assert load_weights_from(new, RECORDS["v1/pretrained"]) == "vigtavl_v1 widened to this environment"
    wide = new.state_dict()
    names = ChannelLayout(2).names
    kept = [names.index(n) for n in v1_channel_names(2)]
    added = sorted(set(range(len(names))) - set(kept))
    stem = "features_extractor.stem.weight"
    assert len(kept) == old[stem].shape[1] == 112 and len(added) == 34
    assert th.equal(wide[stem][:, kept], old[stem]) and th.count_nonzero(wide[stem][:, added]) == 0
    for key in ("action_net.verbs.weight", "action_net.verbs.bias"):
        assert th.equal(wide[key][:V1_HEX_VERBS], old[key]) and th.count_nonzero(wide[key][V1_HEX_VERBS:]) == 0
    for key in ("action_net.globals.weight", "action_net.globals.bias"):
        assert th.equal(wide[key][:V1_GLOBAL_VERBS], old[key]) and th.count_nonzero(wide[key][V1_GLOBAL_VERBS:]) == 0
    same = [k for k in wide if k in old and wide[k].shape == old[k].shape]
    assert len(same) > 10 and all(th.equal(wide[k], old[k]) for k in same)


def test_the_shipped_agent_plays_v2_by_name() -> None:
    """``ppo:pretrained`` is a vigtavl_v2 network for 2 players: it loads by name and its
    decisions are legal, whole games through the match runner included."""
    from arena.vigtavl_match import run_match
    from agents.registry import make_agent
    from agents.ppo import PRETRAINED_PATH, model_players
    assert model_players(load_model("pretrained")) == 2
    assert (PRETRAINED_PATH.parent / "config.yaml").is_file() and (PRETRAINED_PATH.parent / "README.md").is_file()
    agent = make_agent("ppo:pretrained")
    env = raw_env(num_players=2)
    env.reset(seed=7)
    obs = env.observe(env.agent_selection)
    assert obs["action_mask"][agent.act(obs["observation"], obs["action_mask"], {})] == 1
    match = run_match(["ppo:pretrained", "random"], 2, seed=3, progress=False)
    assert len(match.records) == 2 and all(r.n_decisions > 0 for r in match.records)


def test_ppo_search_proposes_the_networks_favourites(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """``ppo-search:MODEL`` (a fresh v1 network): the network's most likely legal actions reach the
    search as proposals (as engine codes), and whole games through the match runner stay legal."""
    from vigtavl_env.agent import agent_info
    from agents.registry import make_agent
    from agents.heuristic.ppo_search import PPOSearchAgent
    model = _tiny_model(tmp_path / "net.zip")
    bot = make_agent(f"ppo-search:{model}:4", seed=1)
    assert isinstance(bot, PPOSearchAgent) and bot.iterations == 4
    assert make_agent(f"ppo-search:{model}:30ms").ms == 30
    for bad in ("ppo-search", "ppo-search::4"):
        with pytest.raises(ValueError, match="needs a model"):
            make_agent(bad)
    seen: list[tuple[list[int], list[int]]] = []
    real_choose = PPOSearchAgent.choose

    def spy(self, state, legal, proposed=()):
        seen.append((list(proposed), legal))
        return real_choose(self, state, legal, proposed)
    monkeypatch.setattr(PPOSearchAgent, "choose", spy)
    env = raw_env(num_players=2, seed=3)
    env.reset(seed=3)
    network = load_ppo_agent(model)
    for _ in range(60):
        agent = env.agent_selection
        obs = env.observe(agent)
        before = len(seen)
        action = bot.act(obs["observation"], obs["action_mask"], agent_info(env, agent))
        assert obs["action_mask"][action]
        if len(seen) > before:
            proposed, legal = seen[-1]
            favourite = env.unwrapped.codec.to_engine(network.act(obs["observation"], obs["action_mask"], {}))
            assert proposed[0] == favourite and set(proposed) <= set(legal)
        env.step(action)
    assert len(seen) > 10
    (r,) = evaluate_model(model, ["greedy"], games=1, seed=5, progress=False, search=2)  # --search 2
    assert r.match.agents[0].startswith("ppo-search:") and r.model.games == 1 and not r.model.truncated
    with pytest.raises(ValueError, match="at least 1 simulation"):
        evaluate_model(model, ["greedy"], games=1, search=0)


# ------------------------------------------------------------------ the league on the vector env
def test_training_runs_on_the_vector_env_with_snapshots(tmp_path: Path) -> None:
    """``vec_env: vector``: the league's bots and snapshots as the batched env's opponents, the
    training-game statistics in the progress CSV."""
    runs = tmp_path / "runs"
    args = ["train", "--config", QUICK, "--no-progress"] + _sets(
        TINY + [f"run_dir={runs}", "run_name=vec", "n_envs=4", "vec_env=vector", "n_steps=32",
                "eval_every=0", "pretrain.teacher=null", "selfplay.snapshot_every=128",
                "selfplay.weight=1", "selfplay.max_snapshots=1"])
    assert cli_main(args) == 0
    run = runs / "vec"
    assert MaskablePPO.load(run / "final_model.zip").num_timesteps == 256
    header = (run / "progress.csv").read_text().splitlines()[0].split(",")
    assert "game/win_rate" in header and "game/length" in header
    assert [p.name for p in (run / "snapshots").iterdir()] == ["snapshot_256.zip"]


def test_league_vector_env_draws_snapshots_as_batched_policies(tmp_path: Path) -> None:
    from training.league import LeagueVectorEnv
    snap = str(_tiny_model(tmp_path / "snap.zip"))
    pool = OpponentPool([("random", 1e-9)], snapshot_weight=1.0, max_snapshots=3)
    env = LeagueVectorEnv(pool, 3, seed=2, num_players=2)
    assert env.opponent_names == ["random"]
    env.env_method("set_snapshots", [snap])  # what the trainer's LeagueCallback calls
    assert env.opponent_names == ["random", SNAPSHOT] and env.opponent_weights == [1e-9, 1.0]
    env.reset()
    games: list[dict] = []
    rng = np.random.default_rng(0)
    while len(games) < 3:
        masks = env.action_masks()
        actions = np.array([rng.choice(np.flatnonzero(m)) for m in masks])
        _, _, dones, infos = env.step(actions)
        games += [info["game"] for done, info in zip(dones, infos) if done]
    assert all(g["opponent"] == SNAPSHOT for g in games)
    assert all(g["length"] > 0 and g["win"] in (0.0, 0.5, 1.0) for g in games)
    env.env_method("set_snapshots", [])
    assert env.opponent_names == ["random"] and not env._snapshot_models


# ------------------------------------------------------------------ runs that survive
def _start_training(sets: list[str], own_group: bool = False) -> "subprocess.Popen[str]":
    """``python -m vigtavl train`` on the quick config with ``sets``, in a process group of its
    own when ``own_group`` (as a scheduler starts a job, so that killpg reaches its workers)."""
    cmd = [sys.executable, "-m", "vigtavl", "train", "--config", QUICK, "--no-progress"] + _sets(sets)
    return subprocess.Popen(cmd, cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                            env={**os.environ, "PYTHONWARNINGS": "ignore"}, start_new_session=own_group)


def _wait_for(proc: "subprocess.Popen[str]", ready: Any, seconds: float = 120) -> None:
    """Wait until ``ready()`` while the run runs (a run that ended says why)."""
    deadline = time.monotonic() + seconds
    while not ready():
        assert proc.poll() is None, proc.communicate()[1]
        assert time.monotonic() < deadline, f"not ready after {seconds} s"
        time.sleep(0.2)


def _stop(proc: "subprocess.Popen[str]", to_group: bool, sig: int = signal.SIGTERM) -> tuple[float, str]:
    """Send ``sig`` to the run (or to its whole group); the seconds it took to exit, its stderr."""
    sent = time.monotonic()
    if to_group:
        os.killpg(proc.pid, sig)
    else:
        proc.send_signal(sig)
    try:
        _, err = proc.communicate(timeout=60)
    except subprocess.TimeoutExpired:
        proc.kill()
        raise AssertionError(f"still running 60 s after {signal.Signals(sig).name}") from None
    return time.monotonic() - sent, err


@pytest.mark.parametrize("vec_env, to_group", [("vector", False), ("subproc", True)])
def test_a_run_stopped_by_sigterm_resumes_from_its_folder(tmp_path: Path, vec_env: str, to_group: bool) -> None:
    """SIGTERM in the middle of learning: a checkpoint of where it was, one line on stderr,
    status 143 (128 + SIGTERM, as a shell reports it) within 10 s; ``--resume RUN_DIR`` takes
    the newest checkpoint and trains on, leaving what the first part wrote as it was. Also when
    the signal goes to the whole process group (``timeout``, a scheduler), the env workers
    included: they leave it to the trainer."""
    from training.runs import newest_checkpoint
    runs = tmp_path / "runs"
    sets = TINY + [f"run_dir={runs}", "run_name=stop", "total_timesteps=10000000", "eval_every=0",
                   "checkpoint_every=0", "checkpoint_minutes=0.001", "pretrain.teacher=null",
                   f"vec_env={vec_env}", "n_envs=2" if vec_env == "subproc" else "n_envs=4", "n_steps=32"]
    proc = _start_training(sets, own_group=to_group)
    run = runs / "stop"
    _wait_for(proc, lambda: list((run / "checkpoints").glob("model_*_steps.zip")))
    time.sleep(1.0)  # somewhere in the middle of a rollout or an update
    seconds, err = _stop(proc, to_group)
    assert seconds < STOP_DEADLINE_S, err
    assert proc.returncode == 143, err
    last = err.strip().splitlines()[-1]
    assert "stopped by SIGTERM" in last and f"--resume {run}" in last and "Traceback" not in err
    checkpoint = newest_checkpoint(run)
    stopped_at = MaskablePPO.load(checkpoint).num_timesteps
    assert stopped_at > 0 and checkpoint.name == f"model_{stopped_at}_steps.zip"
    assert not (run / "final_model.zip").exists()
    first_log = (run / "progress.csv").read_bytes()

    args = ["train", "--resume", str(run), "--no-progress", "--set", f"total_timesteps={stopped_at + 64}"]
    assert cli_main(args) == 0
    assert MaskablePPO.load(run / "final_model.zip").num_timesteps >= stopped_at + 64
    assert (run / "progress.csv").read_bytes() == first_log  # nothing written is overwritten
    assert (run / f"progress-resume-{stopped_at}.csv").is_file()


def test_sigterm_to_the_group_mid_evaluation_saves_and_exits_within_seconds(tmp_path: Path) -> None:
    """A scheduler's SIGTERM to the whole group while the run plays its evaluation games (in 2
    worker processes, which leave the signal to the trainer): the evaluation is dropped, a
    checkpoint saved, status 143, well within docker's 10 s."""
    run = tmp_path / "runs" / "eval"
    proc = _start_training(TINY + [f"run_dir={run.parent}", "run_name=eval", "eval_games=400",
                                   "eval_opponents=[greedy]", "eval_workers=2", "pretrain.teacher=null"],
                           own_group=True)
    _wait_for(proc, lambda: (run / "eval_model.zip").is_file())  # the evaluation at step 0 has begun
    time.sleep(2.0)  # its workers are playing
    seconds, err = _stop(proc, to_group=True)
    assert seconds < STOP_DEADLINE_S and proc.returncode == 143, err
    assert "stopped by SIGTERM at 0 steps" in err.strip().splitlines()[-1] and "Traceback" not in err
    assert MaskablePPO.load(run / "checkpoints" / "model_0_steps.zip").num_timesteps == 0
    assert not (run / "best_model.zip").exists()  # the evaluation never finished


def test_a_run_killed_after_its_first_rollout_resumes_from_it(tmp_path: Path) -> None:
    """``kill -9`` leaves no time to save: the checkpoint after the first rollout (whatever
    checkpoint_every says) is what a run killed in its first minutes resumes from."""
    run = tmp_path / "runs" / "killed"
    proc = _start_training(TINY + [f"run_dir={run.parent}", "run_name=killed", "total_timesteps=10000000",
                                   "checkpoint_every=1000000", "eval_every=0", "pretrain.teacher=null",
                                   "n_envs=2", "n_steps=32"])
    _wait_for(proc, lambda: list((run / "checkpoints").glob("model_*_steps.zip")), seconds=60)
    proc.kill()
    proc.communicate()
    first = MaskablePPO.load(run / "checkpoints" / "model_64_steps.zip")  # n_steps 32 x 2 envs
    assert first.num_timesteps == 64
    assert cli_main(["train", "--resume", str(run), "--no-progress", "--set", "total_timesteps=192"]) == 0
    assert MaskablePPO.load(run / "final_model.zip").num_timesteps == 192
    assert (run / "progress-resume-64.csv").is_file()


def test_resume_passes_over_a_damaged_newest_checkpoint(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                        capsys: pytest.CaptureFixture[str]) -> None:
    """A truncated newest checkpoint (a save cut short: what os.replace now prevents) is passed
    over with one warning; the run resumes from the one before it, given by a relative path."""
    monkeypatch.chdir(tmp_path)
    sets = TINY + ["run_dir=runs", "run_name=cut", "total_timesteps=192", "n_steps=32", "n_envs=2",
                   "vec_env=dummy", "checkpoint_every=64", "eval_every=0", "pretrain.teacher=null"]
    assert cli_main(["train", "--config", QUICK, "--no-progress"] + _sets(sets)) == 0
    newest = Path("runs/cut/checkpoints/model_192_steps.zip")
    newest.write_bytes(newest.read_bytes()[: newest.stat().st_size // 2])
    capsys.readouterr()
    assert cli_main(["train", "--resume", "runs/cut", "--no-progress", "--set", "total_timesteps=256"]) == 0
    warnings = [ln for ln in capsys.readouterr().err.splitlines() if "damaged" in ln]
    assert len(warnings) == 1 and "model_192_steps.zip" in warnings[0] and "Traceback" not in warnings[0]
    assert Path("runs/cut/progress-resume-128.csv").is_file()
    assert MaskablePPO.load("runs/cut/final_model.zip").num_timesteps == 256


def test_a_run_stopped_during_set_up_starts_again_in_its_folder(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                                capsys: pytest.CaptureFixture[str]) -> None:
    """A folder holding only config.yaml (a run killed during its set-up): ``--resume`` starts
    it from scratch, and a new run may take its name; one line says so each time."""
    monkeypatch.chdir(tmp_path)
    sets = TINY + ["run_dir=runs", "total_timesteps=64", "n_envs=1", "eval_every=0", "pretrain.teacher=null"]
    for name in ("resumed", "reused"):
        save_config(load_config(QUICK, sets + [f"run_name={name}"]), Path("runs", name, "config.yaml"))
    Path("runs/reused/progress.csv").write_text("time/total_timesteps\n0\n")  # its step-0 evaluation's log
    capsys.readouterr()
    assert cli_main(["train", "--resume", "runs/resumed", "--no-progress"]) == 0
    assert cli_main(["train", "--config", QUICK, "--no-progress"] + _sets(sets + ["run_name=reused"])) == 0
    said = [ln for ln in capsys.readouterr().err.splitlines() if "starting it again from scratch" in ln]
    assert len(said) == 2 and "runs/resumed" in said[0] and "runs/reused" in said[1]
    for name in ("resumed", "reused"):
        assert MaskablePPO.load(Path("runs", name, "final_model.zip")).num_timesteps == 64
    assert sorted(p.name for p in Path("runs/reused").glob("progress*.csv")) == ["progress.csv"]
    assert "time/iterations" in Path("runs/reused/progress.csv").read_text()  # the new run's log


def test_device_cuda_without_a_gpu_warns_and_trains_on_the_cpu(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                               capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.setattr(th.cuda, "is_available", lambda: False)
    sets = TINY + [f"run_dir={tmp_path}", "run_name=gpu", "total_timesteps=64", "n_envs=1", "eval_every=0",
                   "pretrain.teacher=null", "device=cuda"]
    assert cli_main(["train", "--config", QUICK, "--no-progress"] + _sets(sets)) == 0
    warned = [ln for ln in capsys.readouterr().err.splitlines() if "no GPU" in ln]
    assert len(warned) == 1 and "device cuda" in warned[0] and "training on the CPU" in warned[0]


def test_resume_names_what_is_missing(tmp_path: Path) -> None:
    from training.runs import newest_checkpoint
    (tmp_path / "run" / "checkpoints").mkdir(parents=True)
    with pytest.raises(FileNotFoundError, match="no checkpoint to resume"):
        newest_checkpoint(tmp_path / "run")
    with pytest.raises(FileNotFoundError, match="nothing to resume"):
        newest_checkpoint(tmp_path / "gone")
    for steps in (128, 1024, 256):
        _named_checkpoint(tmp_path / "run" / "checkpoints" / f"model_{steps}_steps.zip")
    assert newest_checkpoint(tmp_path / "run").name == "model_1024_steps.zip"
    assert newest_checkpoint(tmp_path / "run" / "checkpoints").name == "model_1024_steps.zip"


def test_a_bad_map_leaves_no_run_folder(tmp_path: Path) -> None:
    from training.train import train
    cfg = load_config(QUICK, TINY + [f"run_dir={tmp_path}", "run_name=bad", "map=nowhere"])
    with pytest.raises(ValueError):
        train(cfg, progress=False)
    assert not (tmp_path / "bad").exists()


def test_a_log_is_never_overwritten(tmp_path: Path) -> None:
    """Resuming twice from the same checkpoint (or from pretrained_model.zip, at step 0) writes a
    new CSV each time; ``vigtavl plot`` reads them all."""
    from training.logs import make_logger
    names = []
    for _ in range(3):
        logger = make_logger(tmp_path, 0)
        logger.record("time/total_timesteps", 0)
        logger.dump(0)
        logger.close()
        names = sorted(p.name for p in tmp_path.glob("progress*.csv"))
    assert names == ["progress-resume-0-2.csv", "progress-resume-0-3.csv", "progress.csv"]


def test_the_shipped_three_player_agent_plays_by_name() -> None:
    """``ppo:pretrained-3p`` (agents/pretrained/3p/) is a 3-player vigtavl_v2 network that plays."""
    from arena.vigtavl_match import run_match
    from agents.ppo import PRETRAINED_3P_PATH, load_model, model_players
    assert model_players(load_model("pretrained-3p")) == 3
    assert (PRETRAINED_3P_PATH.parent / "README.md").is_file() and (PRETRAINED_3P_PATH.parent / "config.yaml").is_file()
    result = run_match(["ppo:pretrained-3p", "random", "random"], games=1, seed=0, num_players=3, progress=False)
    assert result.records[0].n_decisions > 0


def test_the_shipped_four_player_agent_plays_by_name() -> None:
    """``ppo:pretrained-4p`` (agents/pretrained/4p/) is a 4-player vigtavl_v2 network that plays,
    shipped with its config, README and best.json, and without the training env's last
    observations (a policy file, not a run's state)."""
    import json
    import zipfile

    from arena.vigtavl_match import run_match
    from agents.ppo import PRETRAINED_4P_PATH, load_model, model_players
    assert model_players(load_model("pretrained-4p")) == 4
    for name in ("README.md", "config.yaml", "best.json"):
        assert (PRETRAINED_4P_PATH.parent / name).is_file(), name
    assert json.loads(zipfile.ZipFile(PRETRAINED_4P_PATH).read("data"))["_last_obs"] is None
    result = run_match(["ppo:pretrained-4p", "random", "random", "random"], games=1, seed=0, num_players=4,
                       progress=False)
    assert result.records[0].n_decisions > 0


def test_a_sampling_ppo_agent_by_spec_is_seeded() -> None:
    """``ppo:MODEL:sample`` draws from the policy (``eval_sample``'s agent), the same way for a seed."""
    from agents.registry import make_agent
    from vigtavl_env import raw_env
    greedy, sampler = make_agent("ppo:pretrained"), make_agent("ppo:pretrained:sample", seed=4)
    assert greedy.deterministic and not sampler.deterministic
    e = raw_env(seed=1)
    e.reset(seed=1)
    for _ in range(6):  # the setup's loads, then placements: a real choice each time
        obs = e.observe(e.agent_selection)
        e.step(greedy.act(obs["observation"], obs["action_mask"], {}))
    obs = e.observe(e.agent_selection)
    draws = [make_agent("ppo:pretrained:sample", seed=4).act(obs["observation"], obs["action_mask"], {})
             for _ in range(3)]
    assert len(set(draws)) == 1 and obs["action_mask"][draws[0]]  # seeded: the same legal draw
    many = {sampler.act(obs["observation"], obs["action_mask"], {}) for _ in range(40)}
    assert all(obs["action_mask"][a] for a in many)


def test_a_lineup_fills_the_other_seats_in_turn() -> None:
    """``greedy+aggressor`` against a 3-player model: one of each in every game (the 3-player
    bar's lineup), checked before any game; an empty spec or one seat too many is one line."""
    from training.evaluate import opponent_seats
    assert opponent_seats("greedy+aggressor", 3) == ["greedy", "aggressor"]
    assert opponent_seats("greedy+aggressor", 4) == ["greedy", "aggressor", "greedy"]
    assert opponent_seats("greedy", 3) == ["greedy", "greedy"]
    for bad, players in (("greedy+", 3), ("+", 3), ("greedy+aggressor", 2), ("a+b+c", 3)):
        with pytest.raises(ValueError, match="lineup|seats"):
            opponent_seats(bad, players)
    (r,) = evaluate_model("pretrained-3p", ["greedy+aggressor"], games=1, seed=3, progress=False)
    names = {s.name for s in r.match.stats()}
    assert {"greedy", "aggressor"} <= names and r.opponent == "greedy+aggressor"
    with pytest.raises(ConfigError, match="lineup"):
        load_config(None, ["num_players=3", "eval_opponents=[greedy+aggressor+builder]"])


def test_a_three_player_network_widens_to_four_players() -> None:
    """``init_from`` a 3-player model in a 4-player run: the network is convolutional, so its
    weights fit the larger map; each relative seat's channels land on the same names, the fourth
    seat's start at zero, and every other weight is copied."""
    from agents.ppo import resolve_model_path
    from stable_baselines3.common.save_util import load_from_zip_file

    from agents.ppo import saved_module_names
    from training.transfer import load_weights_from
    from vigtavl_env.observation import ChannelLayout
    with saved_module_names():
        _, params, _ = load_from_zip_file(str(resolve_model_path("pretrained-3p")), device="cpu")
    old = params["policy"]
    env = raw_env(num_players=4)
    cls, kwargs = policy_spec("cnn", 32, 3, [128])
    new = cls(env.observation_space("player_0")["observation"], env.action_space("player_0"), lambda _: 1e-4, **kwargs)
    assert load_weights_from(new, resolve_model_path("pretrained-3p")) == "the 3-player network widened to 4 players"
    wide, names = new.state_dict(), ChannelLayout(4).names
    kept = [names.index(n) for n in ChannelLayout(3).names]
    added = sorted(set(range(len(names))) - set(kept))
    assert added and all(names[c].endswith("_opp3") for c in added)
    stems = [k for k in wide if k.endswith("stem.weight")]  # the shared, policy and value extractors'
    for stem in stems:
        assert th.equal(wide[stem][:, kept], old[stem]) and th.count_nonzero(wide[stem][:, added]) == 0
    assert len(stems) >= 1 and all(th.equal(wide[k], old[k]) for k in wide if k not in stems)


def test_the_convolutional_head_serves_thrones_grid_by_its_codec() -> None:
    """One network module for both games: on Thrones' 9x9 grid the head has 24 cell-verb planes
    and 4 globals (from the board's shape and the number of actions), in the codec's order."""
    from games.thrones.codec import N_CELL_VERBS, N_GLOBAL, cell_code, global_code, num_actions
    from agents.network import GridConvExtractor, grid_pool, verb_counts

    h = w = 9
    n = num_actions(h * w)
    assert verb_counts(n, h, w) == (N_CELL_VERBS, N_GLOBAL)
    head = ActionPlanesHead(3, h, w, n, grid_pool)
    with th.no_grad():
        for p in head.parameters():
            p.zero_()
        for verb, (row, col) in [(0, (0, 0)), (16, (2, 8)), (N_CELL_VERBS - 1, (8, 8))]:
            head.verbs.weight[:] = 0
            head.verbs.weight[verb, 1] = 1.0
            latent = th.zeros(1, 3, h, w)
            latent[0, 1, row, col] = 5.0
            assert int(head(latent.flatten(1)).argmax()) == cell_code(verb, row * w + col, h * w)
        head.verbs.weight[:] = 0
        for g in range(N_GLOBAL):
            head.globals.bias[:] = 0.0
            head.globals.bias[g] = 9.0
            assert int(head(th.zeros(1, 3 * h * w)).argmax()) == global_code(g, h * w)
    with pytest.raises(ValueError, match="fewer than one verb"):
        verb_counts(40, h, w)
    cls, kwargs = policy_spec("cnn", channels=4, blocks=1, hidden=[16], board="grid")
    assert cls is HexCnnPolicy and kwargs["features_extractor_class"] is GridConvExtractor


def test_a_grid_cnn_policy_plays_legal_thrones_moves() -> None:
    from games.single_seat import GameSingleSeatEnv

    env = GameSingleSeatEnv("thrones", opponent="random", seed=0)
    cls, kwargs = policy_spec("cnn", channels=4, blocks=1, hidden=[16], board="grid")
    model = MaskablePPO(cls, env, policy_kwargs=kwargs, n_steps=16, batch_size=16, seed=0, device="cpu")
    obs, _ = env.reset(seed=3)
    for _ in range(20):
        mask = env.action_masks()
        action, _ = model.predict(obs, action_masks=mask, deterministic=True)
        assert mask[int(action)]
        obs, _, done, cut, _ = env.step(int(action))
        if done or cut:
            obs, _ = env.reset()
