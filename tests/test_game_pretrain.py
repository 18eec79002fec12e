"""Behaviour cloning and the league for any game (``pretrain`` and ``selfplay`` of
``vigtavl train --game``): the teacher's decisions are recorded through the batch core as PPO
sees them, cloning them makes the network pick the teacher's action far more often than chance,
DAgger plays the student's moves with the teacher's labels, and a pig run clones, saves its
snapshots and plays them as opponents."""

from __future__ import annotations

import numpy as np
import pandas as pd
from sb3_contrib import MaskablePPO

from agents.network import policy_spec
from training.cloning import clone, evaluate_clone, record_games
from training.config import load_config
from training.game_imitation import record_chunk
from training.vec import GameVecEnv
from vigtavl.cli import main

THRONES = ["game=thrones", "policy=mlp", "pretrain.teacher=greedy", "pretrain.games=3", "opponents=[random]",
           "net.channels=8", "net.blocks=1", "net.hidden=[64]", "gamma=0.9"]


def _model(game: str) -> MaskablePPO:
    cls, kwargs = policy_spec("mlp", 8, 1, [64], board="grid")
    return MaskablePPO(cls, GameVecEnv(game, 1, opponents=["random"]), policy_kwargs=kwargs, n_steps=16,
                       batch_size=16, seed=0)


def test_cloning_thrones_greedy_beats_chance_by_far() -> None:
    cfg = load_config(None, THRONES + ["pretrain.epochs=40", "pretrain.learning_rate=3e-3", "pretrain.batch_size=128"])
    demos = record_games(cfg, record_chunk, progress=False)
    assert len(demos) == len(demos.obs) == len(demos.returns) > 100
    assert set(np.unique(demos.games)) == {0, 1, 2} and len(demos.wins) == 3
    masks = demos.mask_rows(np.arange(len(demos)))
    assert masks[np.arange(len(demos)), demos.actions].all()  # every recorded action was legal there
    assert np.abs(demos.returns).max() <= 1.0 + 1e-6
    chance = float(np.mean(1.0 / masks.sum(axis=1)))  # a uniform pick among the legal actions
    model = _model("thrones")
    rows = np.arange(len(demos))
    before = evaluate_clone(model.policy, demos, rows, 256)["pretrain/accuracy"]
    metrics = clone(model, demos, cfg, progress=False)
    after = evaluate_clone(model.policy, demos, rows, 256)["pretrain/accuracy"]
    assert after > max(before, chance) + 0.3, (chance, before, after)
    assert metrics["pretrain/decisions"] == len(demos) and metrics["pretrain/teacher_win_rate"] == np.mean(demos.wins)


class _LowestLegal:
    """A stand-in student: the lowest legal action; counts the positions it was shown."""

    def __init__(self) -> None:
        self.seen = 0

    def predict(self, obs: np.ndarray, action_masks: np.ndarray, deterministic: bool = True) -> tuple[np.ndarray, None]:
        self.seen += 1
        return np.array([int(np.flatnonzero(action_masks[0])[0])]), None


def test_dagger_plays_the_students_moves_and_records_the_teachers_labels() -> None:
    cfg = load_config(None, THRONES[:-3] + ["pretrain.games=1"])
    student = _LowestLegal()
    demos = record_games(cfg, record_chunk, progress=False, student=student, first_game=7)
    assert len(demos) == student.seen > 20 and set(np.unique(demos.games)) == {7}
    masks = demos.mask_rows(np.arange(len(demos)))
    assert masks[np.arange(len(demos)), demos.actions].all()
    assert (demos.actions != masks.argmax(axis=1)).mean() > 0.2  # greedy's labels, not the moves played


def test_a_pig_run_clones_its_teacher_and_plays_its_snapshots(tmp_path) -> None:
    sets = [f"run_dir={tmp_path}", "run_name=pig", "game=pig", "policy=mlp", "total_timesteps=512", "n_envs=2",
            "n_steps=64", "batch_size=64", "n_epochs=1", "net.channels=8", "net.blocks=1", "net.hidden=[32]",
            "torch_threads=1", "checkpoint_minutes=0", "eval_every=0", "pretrain.teacher=rollout:4",
            "pretrain.games=4", "pretrain.epochs=2", "selfplay.snapshot_every=128", "selfplay.weight=4",
            "selfplay.max_snapshots=2", "opponents=[random]", "eval_opponents=[random]"]
    assert main(["train", "--no-progress", *[a for s in sets for a in ("--set", s)]]) == 0
    run = tmp_path / "pig"
    assert (run / "pretrained_model.zip").is_file() and (run / "final_model.zip").is_file()
    assert len(list((run / "snapshots").glob("*.zip"))) == 2  # the older ones dropped from the league
    progress = pd.read_csv(run / "progress.csv")
    assert progress["pretrain/accuracy"].dropna().between(0, 1).all()
    assert progress["game/win_rate_snapshot"].notna().any()  # snapshots were drawn as opponents


def test_a_bad_teacher_is_one_line_before_any_folder(tmp_path, capsys) -> None:
    sets = [f"run_dir={tmp_path}", "game=pig", "policy=mlp", "opponents=[random]", "eval_opponents=[random]", "pretrain.teacher=nobody"]
    assert main(["train", "--no-progress", *[a for s in sets for a in ("--set", s)]]) == 2
    err = capsys.readouterr().err
    assert "unknown agent 'nobody'" in err and "Traceback" not in err and not list(tmp_path.iterdir())


def test_dagger_in_workers_labels_the_same_games_as_in_one_process() -> None:
    """A student in spawned workers is a copy loaded from a file: the same moves and labels."""
    sets = ["game=pig", "policy=mlp", "pretrain.teacher=rollout:4", "pretrain.games=4", "opponents=[random]",
            "net.channels=8", "net.blocks=1", "net.hidden=[64]"]
    student = _model("pig")
    one = record_games(load_config(None, sets), record_chunk, progress=False, student=student, first_game=3)
    two = record_games(load_config(None, sets + ["pretrain.workers=2"]), record_chunk, progress=False,
                       student=student, first_game=3)
    assert set(np.unique(one.games)) == set(np.unique(two.games)) == {3, 4, 5, 6}
    for g in range(3, 7):
        assert one.actions[one.games == g].tolist() == two.actions[two.games == g].tolist()
        assert one.obs[one.games == g].tobytes() == two.obs[two.games == g].tobytes()


def _pig_sets(tmp_path, *more: str) -> list[str]:
    sets = [f"run_dir={tmp_path}", "game=pig", "policy=mlp", "total_timesteps=64", "n_envs=1", "n_steps=64",
            "batch_size=64", "n_epochs=1", "net.channels=8", "net.blocks=1", "net.hidden=[64]", "torch_threads=1",
            "checkpoint_minutes=0", "eval_every=0", "opponents=[random]", "eval_opponents=[random]", *more]
    return [a for s in sets for a in ("--set", s)]


def test_init_from_starts_the_network_from_the_models_weights(tmp_path) -> None:
    source = _model("pig")
    source.save(tmp_path / "source.zip")
    from training.game_train import start_from
    fresh = _model("pig")
    fresh.policy.load_state_dict({k: v * 0 for k, v in fresh.policy.state_dict().items()})
    start_from(fresh.policy, str(tmp_path / "source.zip"), "pig")
    for key, value in source.policy.state_dict().items():
        assert (fresh.policy.state_dict()[key] == value).all(), key


def test_dagger_rounds_go_on_from_init_from_without_the_teachers_own_games(tmp_path) -> None:
    """teacher_first=false: the rounds alone, the first labelling the given network's games."""
    source = _model("pig")
    source.save(tmp_path / "source.zip")
    sets = _pig_sets(tmp_path, "run_name=more", f"init_from={tmp_path / 'source.zip'}", "pretrain.teacher=rollout:4",
                     "pretrain.games=4", "pretrain.epochs=1", "pretrain.teacher_first=false", "pretrain.dagger_rounds=1")
    assert main(["train", "--no-progress", *sets]) == 0
    progress = pd.read_csv(tmp_path / "more" / "progress.csv")
    row = progress.dropna(subset=["pretrain/dagger_rounds"]).iloc[0]
    assert row["pretrain/dagger_rounds"] == 1 and 0 <= row["pretrain/student_win_rate"] <= 1
    assert "pretrain/teacher_win_rate" not in progress or progress["pretrain/teacher_win_rate"].isna().all()
    # the rounds' games are the given network's: the labels make it a different network after them
    cloned = MaskablePPO.load(tmp_path / "more" / "pretrained_model.zip", device="cpu").policy.state_dict()
    assert any((cloned[k] != v).any() for k, v in source.policy.state_dict().items())


def test_init_from_that_does_not_fit_is_one_line_before_any_folder(tmp_path, capsys) -> None:
    other = _model("pig")  # 64 hidden units; the run asks for 32
    other.save(tmp_path / "other.zip")
    runs = tmp_path / "runs"
    for bad, says in [(f"init_from={tmp_path / 'other.zip'}", "its network is not this config's"),
                      (f"init_from={tmp_path / 'none.zip'}", "does not exist"),
                      ("init_from=pretrained", "no pretrained model of pig is shipped")]:
        sets = _pig_sets(runs, "net.hidden=[32]", bad)
        assert main(["train", "--no-progress", *sets]) == 2
        err = capsys.readouterr().err
        assert says in err and "Traceback" not in err and len(err.strip().splitlines()) == 1, err
        assert not runs.exists() or not list(runs.iterdir())


def test_teacher_first_false_needs_init_from_and_a_round(tmp_path, capsys) -> None:
    for more in [["pretrain.dagger_rounds=1"], [f"init_from={tmp_path / 'x.zip'}", "pretrain.dagger_rounds=0"]]:
        sets = _pig_sets(tmp_path / "runs", "pretrain.teacher=random", "pretrain.teacher_first=false", *more)
        assert main(["train", "--no-progress", *sets]) == 2
        err = capsys.readouterr().err
        assert "teacher_first=false" in err and "Traceback" not in err


def test_value_warmup_moves_the_critic_only(tmp_path) -> None:
    """value_warmup past the run's end: PPO's updates change the value head, not the policy."""
    source = _model("pig")
    source.save(tmp_path / "source.zip")
    sets = _pig_sets(tmp_path, "run_name=warm", f"init_from={tmp_path / 'source.zip'}", "value_warmup=100000",
                     "total_timesteps=128")
    assert main(["train", "--no-progress", *sets]) == 0
    after = MaskablePPO.load(tmp_path / "warm" / "final_model.zip", device="cpu").policy.state_dict()
    before = source.policy.state_dict()
    moved = {k for k in before if (after[k] != before[k]).any()}
    assert moved and all(k.startswith(("value_net", "mlp_extractor.value_net")) for k in moved), moved
