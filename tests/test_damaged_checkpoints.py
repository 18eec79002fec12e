"""Damaged members inside whole archives (issue 60): a checkpoint whose zip is whole (its CRCs
pass) but one of whose members was cut before it was zipped. For each trainer's checkpoint the
folder resume passes over it with one line naming it, for the one before; given by name it is
refused in one line (status 2); and a refused resume leaves the run folder as it was.

The checkpoints here are real ones of tiny networks, made without training."""

from __future__ import annotations

import pickle
import zipfile
from pathlib import Path

import numpy as np
import pytest
import torch as th
from sb3_contrib import MaskablePPO

from agents.az import AZNet
from agents.network import policy_spec
from training.runs import checkpoint_path, find_run_dir, newest_checkpoint
from vigtavl.cli import main as cli_main
from vigtavl_env.observation import ChannelLayout
from vigtavl_env.wrappers import SingleSeatEnv

ROOT = Path(__file__).resolve().parent.parent
QUICK = str(ROOT / "configs" / "ppo_quick.yaml")
CHANNELS_2P = ChannelLayout(2).n_channels  # this environment's, 2 players


def _cut(path: Path, member: str) -> None:
    """``path``'s zip written again with ``member`` cut to half its bytes: a whole zip (its CRCs
    are the cut bytes') holding a cut member."""
    with zipfile.ZipFile(path) as z:
        members = {name: z.read(name) for name in z.namelist()}
    assert member in members, sorted(members)
    with zipfile.ZipFile(path, "w") as z:
        for name, data in members.items():
            z.writestr(name, data[: len(data) // 2] if name == member else data)


def _one_warning(capsys: pytest.CaptureFixture[str], *words: str) -> str:
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and "Traceback" not in err[0], err
    assert all(w in err[0] for w in words), err
    return err[0]


# ------------------------------------------------------------------ SB3
def _sb3_checkpoints(run: Path) -> list[Path]:
    """Two real checkpoints of a tiny network (64 and 128 steps), the newest last."""
    cls, kwargs = policy_spec("cnn", 4, 1, [8])
    model = MaskablePPO(cls, SingleSeatEnv(), policy_kwargs=kwargs, n_steps=16, batch_size=32, n_epochs=1, seed=0)
    paths = []
    for steps in (64, 128):
        model.num_timesteps = steps
        paths.append(checkpoint_path(run, steps))
        paths[-1].parent.mkdir(parents=True, exist_ok=True)
        model.save(paths[-1])
    return paths


@pytest.mark.parametrize("member", ["policy.pth", "data", "policy.optimizer.pth", "pytorch_variables.pth"])
def test_an_sb3_checkpoint_with_a_cut_member_is_passed_over(tmp_path: Path, member: str,
                                                            capsys: pytest.CaptureFixture[str]) -> None:
    older, newest = _sb3_checkpoints(tmp_path)
    _cut(newest, member)
    assert zipfile.ZipFile(newest).testzip() is None  # whole, as a zip
    assert newest_checkpoint(tmp_path) == older
    _one_warning(capsys, f"{newest} is damaged", member, "passed over")
    with pytest.raises(ValueError, match=f"checkpoint {newest} is damaged .*{member}") as e:
        newest_checkpoint(newest)
    assert "\n" not in str(e.value)


# ------------------------------------------------------------------ az
def _az_checkpoints(run: Path, generations: tuple[int, int] = (1, 1), networks: bool = False) -> list[Path]:
    """Two real az checkpoints of a tiny network (5 and 10 positions in the buffer), going on
    from ``generations`` (its one generation done, by default); with ``networks``, those
    generations' networks saved in the run folder as the trainer saves them."""
    from training.az import Progress, ReplayBuffer, save_checkpoint, save_generation
    th.manual_seed(0)
    net = AZNet((CHANNELS_2P, 11, 11), 2, channels=4, blocks=1, hidden=[8])
    opt = th.optim.Adam(net.parameters(), lr=1e-3)
    buf = ReplayBuffer(16, net.obs_shape, 2, max_legal=4)
    rng = np.random.default_rng(0)
    paths = []
    for positions, generation in zip((5, 10), generations):
        while buf.size < positions:
            buf.add(rng.random(net.obs_shape).astype(np.float16), np.arange(4), np.full(4, 0.25),
                    np.array([1.0, -1.0]))
        if networks:
            save_generation(run, net, generation)
        paths.append(save_checkpoint(run, net, opt, buf, Progress(generation=generation, positions=positions)))
    return paths


def _storage_member(path: Path) -> str:
    """The largest tensor storage inside a torch file (its zip's ``.../data/<n>`` members)."""
    with zipfile.ZipFile(path) as z:
        storages = [i for i in z.infolist() if "/data/" in i.filename]
    return max(storages, key=lambda i: i.file_size).filename


AZ_CUTS = {  # (file, member) -> the member's name inside the file
    "buffer obs": ("buffer.npz", lambda p: "obs.npy"),
    "buffer meta": ("buffer.npz", lambda p: "meta.npy"),
    "state pickle": ("state.pt", lambda p: next(n for n in zipfile.ZipFile(p).namelist() if n.endswith("data.pkl"))),
    "state storage": ("state.pt", _storage_member),
}


@pytest.mark.parametrize("cut", list(AZ_CUTS))
def test_an_az_checkpoint_with_a_cut_array_or_tensor_is_passed_over(tmp_path: Path, cut: str,
                                                                    capsys: pytest.CaptureFixture[str]) -> None:
    older, newest = _az_checkpoints(tmp_path)
    file, member_of = AZ_CUTS[cut]
    _cut(newest / file, member_of(newest / file))
    assert newest_checkpoint(tmp_path, "az") == older
    _one_warning(capsys, f"{newest} is damaged", file, "passed over")
    with pytest.raises(ValueError, match=f"checkpoint {newest} is damaged") as e:
        newest_checkpoint(newest, "az")
    assert "\n" not in str(e.value) and file in str(e.value)


@pytest.mark.parametrize("how", ["cut", "missing"])
def test_an_az_checkpoint_whose_generations_network_is_damaged_is_passed_over(tmp_path: Path, how: str,
                                                                             capsys: pytest.CaptureFixture[str]) -> None:
    """The network of the generation a checkpoint goes on from (``generations/gen_<k>.pt``, which
    the next evaluation plays against) is read on resume too: cut inside or missing, the
    checkpoint is passed over with one line naming it, for the one before (generation 0's; its
    run saves gen_1.pt again); with generation 0's damaged too, nothing is resumed, in one line."""
    older, newest = _az_checkpoints(tmp_path, generations=(0, 1), networks=True)
    assert newest_checkpoint(tmp_path, "az") == newest
    gen = tmp_path / "generations"
    if how == "cut":
        _cut(gen / "gen_1.pt", _storage_member(gen / "gen_1.pt"))
    else:
        (gen / "gen_1.pt").unlink()
    assert newest_checkpoint(tmp_path, "az") == older
    _one_warning(capsys, f"{newest} is damaged", "generations/gen_1.pt", "passed over")
    _cut(gen / "gen_0.pt", _storage_member(gen / "gen_0.pt"))
    with pytest.raises(ValueError, match="every checkpoint .* is damaged") as e:
        newest_checkpoint(tmp_path, "az")
    assert "\n" not in str(e.value)


def test_an_az_checkpoint_folder_belongs_to_its_run(tmp_path: Path) -> None:
    """``--resume runs/r/checkpoints/az_10`` continues run r (its config, its folder)."""
    (tmp_path / "config.yaml").write_text("num_players: 2\n")
    _, newest = _az_checkpoints(tmp_path)
    assert find_run_dir(newest) == tmp_path


# ------------------------------------------------------------------ RLlib
def _rllib_checkpoint(folder: Path) -> Path:
    """A folder with the files an RLlib checkpoint has, a pickle and a torch file among them."""
    (folder / "learner_group" / "learner").mkdir(parents=True)
    (folder / "rllib_checkpoint.json").write_text('{"type": "Algorithm", "checkpoint_version": "2.1"}')
    (folder / "class_and_ctor_args.pkl").write_bytes(pickle.dumps({"class": "PPO", "ctor_args": [1, 2, 3] * 50}))
    (folder / "learner_group" / "learner" / "state.pkl").write_bytes(pickle.dumps({"w": list(range(500))}))
    th.save({"w": th.arange(500.0)}, folder / "learner_group" / "learner" / "module_state.pt")
    return folder


@pytest.mark.parametrize("file", ["class_and_ctor_args.pkl", "learner_group/learner/state.pkl",
                                  "learner_group/learner/module_state.pt", "rllib_checkpoint.json"])
def test_an_rllib_checkpoint_with_a_cut_file_is_passed_over(tmp_path: Path, file: str,
                                                            capsys: pytest.CaptureFixture[str]) -> None:
    older = _rllib_checkpoint(tmp_path / "checkpoints" / "rllib_64")
    newest = _rllib_checkpoint(tmp_path / "checkpoints" / "rllib_128")
    assert newest_checkpoint(tmp_path, "rllib") == newest  # whole: taken
    damaged = newest / file
    damaged.write_bytes(damaged.read_bytes()[: damaged.stat().st_size // 2])
    assert newest_checkpoint(tmp_path, "rllib") == older
    _one_warning(capsys, f"{newest} is damaged", Path(file).name, "passed over")


# ------------------------------------------------------------------ the command line
def _files(run: Path) -> dict[str, bytes]:
    return {str(p.relative_to(run)): p.read_bytes() for p in sorted(run.rglob("*")) if p.is_file()}


def test_a_damaged_sb3_checkpoint_through_the_command_line(tmp_path: Path,
                                                           capsys: pytest.CaptureFixture[str]) -> None:
    """A run folder with checkpoints at 64 and 128 steps, the newest cut inside: given by name,
    one line and status 2, and the run folder exactly as it was (no empty progress CSV, no
    config rewritten); given the folder, one warning and the run goes on from 64 steps."""
    from training.config import load_config, save_config
    run = tmp_path / "cut"
    sets = ["total_timesteps=128", "n_envs=2", "vec_env=dummy", "eval_every=0", "opponents=[random]",
            "torch_threads=1", "pretrain.teacher=null", f"run_dir={tmp_path}", "run_name=cut"]
    save_config(load_config(QUICK, sets), run / "config.yaml")
    _, newest = _sb3_checkpoints(run)
    _cut(newest, "policy.pth")
    before = _files(run)
    capsys.readouterr()
    assert cli_main(["train", "--resume", str(newest), "--no-progress", "--set", "total_timesteps=160"]) == 2
    _one_warning(capsys, "vigtavl train: error:", f"{newest} is damaged", "policy.pth")
    assert _files(run) == before

    assert cli_main(["train", "--resume", str(run), "--no-progress"]) == 0
    warned = [ln for ln in capsys.readouterr().err.splitlines() if "damaged" in ln]
    assert len(warned) == 1 and str(newest) in warned[0] and "policy.pth" in warned[0]
    assert (run / "progress-resume-64.csv").stat().st_size > 0
    assert MaskablePPO.load(run / "final_model.zip").num_timesteps == 128


def test_a_damaged_az_checkpoint_through_the_command_line(tmp_path: Path,
                                                          capsys: pytest.CaptureFixture[str]) -> None:
    """An az run folder whose newest checkpoint holds a cut array: given by name, one line and
    status 2, the folder as it was; given the folder, one warning naming the file, and the run
    goes on from the checkpoint before (a finished run: it ends at once, and leaves no empty log)."""
    from training.az_config import AZConfig
    from training.config import save_config
    run = tmp_path / "r"
    save_config(AZConfig(generations=1, max_legal=4, run_dir=str(tmp_path), run_name="r"), run / "config.yaml")
    older, newest = _az_checkpoints(run)
    _cut(newest / "buffer.npz", "obs.npy")
    before = _files(run)
    capsys.readouterr()
    assert cli_main(["az", "train", "--resume", str(newest), "--no-progress"]) == 2
    _one_warning(capsys, "vigtavl az: error:", f"{newest} is damaged", "buffer.npz")
    assert _files(run) == before

    assert cli_main(["az", "train", "--resume", str(run), "--no-progress"]) == 0
    warned = [ln for ln in capsys.readouterr().err.splitlines() if "damaged" in ln]
    assert len(warned) == 1 and str(newest) in warned[0] and "buffer.npz" in warned[0]
    assert not list(run.glob("progress*.csv")) and not (run / "tb").exists()  # nothing to log: no empty log

