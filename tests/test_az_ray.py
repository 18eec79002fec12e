"""The AlphaZero loop on Ray (training/az_ray/): game records, the version lag, a crashed actor's
games played again, resume, the gate's game count, playout caps and extra value targets, 3 and 4
players, and the command line's bad flags. A tiny network and short games (``max_steps``); the
Ray tests share one private local instance of 2 CPUs."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import numpy as np
import pytest
import torch as th

from agents.az import AZNet, save_az_model
from training.az import ReplayBuffer, load_checkpoint
from training.az_config import AZConfig
from training.az_ray.actors import SelfPlayPool, SelfPlayWorker, WeightStore
from training.az_ray.evaluator import gate_result, next_pairing, open_gate, BEST
from training.az_ray.learner import Learner, LoopProgress
from training.az_ray.loop import train_az_ray
from training.az_ray.records import GameRecord, margins
from training.az_ray.value_check import phase_agreement
from training.config import ConfigError, load_config
from vigtavl_env.observation import ChannelLayout

ROOT = Path(__file__).resolve().parent.parent
SIDE = {2: 11, 3: 13, 4: 15}
MAPS = {2: "duel", 3: "triad", 4: "quad"}


def tiny_net(tmp_path: Path, players: int = 2) -> Path:
    th.manual_seed(0)
    side = SIDE[players]
    net = AZNet((ChannelLayout(players).n_channels, side, side), players, channels=4, blocks=1, hidden=[8])
    path = tmp_path / f"tiny_{players}p.pt"
    save_az_model(net, path)
    return path


def tiny_cfg(tmp_path: Path, players: int = 2, *sets: str) -> AZConfig:
    base = [f"start_from={tiny_net(tmp_path, players)}", f"num_players={players}", f"map={MAPS[players]}",
            "search.simulations=2", "search.considered=2", "parallel_games=4", "batch_size=16", "max_steps=80",
            f"run_dir={tmp_path}", "run_name=r", "torch_threads=1", "device=cpu", "buffer_size=4000",
            "ray.actors=1", "ray.games_per_task=4", "ray.min_buffer=16", "ray.publish_every=2",
            "ray.evaluators=0", "ray.weights_poll_seconds=0", "ray.log_seconds=0.5"]
    return load_config("az", base + list(sets), cls=AZConfig)


def payload_of(path: Path) -> dict:
    return th.load(path, weights_only=True)


def play(cfg: AZConfig, seeds: list[int], store=None) -> list[GameRecord]:
    path = Path(cfg.start_from)
    worker = SelfPlayWorker(cfg, (0, payload_of(path)), store)
    return [GameRecord.unpack(p) for p in worker.play(seeds)["records"]]


# ------------------------------------------------------------------ records
def test_records_round_trip_and_fill_the_buffer(tmp_path):
    cfg = tiny_cfg(tmp_path)
    records = play(cfg, [1, 2])
    assert sorted(r.seed for r in records) == [1, 2]
    r = records[0]
    assert r.positions > 0 and r.obs.dtype == np.float16 and r.legal.shape == r.policy.shape
    assert np.allclose(r.policy.sum(1), 1.0, atol=1e-5) and (r.versions == 0).all()
    back = GameRecord.unpack(r.pack())
    for key, value in r.pack().items():
        assert np.array_equal(np.asarray(getattr(back, key)), value), key
    buf = ReplayBuffer(100, r.obs.shape[1:], 2, max_legal=int(r.legal.shape[1]))
    r.add_to(buf)
    assert buf.size == r.positions
    assert np.array_equal(buf.obs[: r.positions], r.obs) and np.array_equal(buf.legal[: r.positions], r.legal)
    with pytest.raises(ValueError, match="not a game record"):
        GameRecord.unpack({"seed": np.int64(1)})


def test_value_targets_are_the_results_seen_from_each_player_mixed_with_an_extra():
    n = 3
    rec = GameRecord(seed=0, obs=np.zeros((2, 1), np.float16), legal=np.zeros((2, 1), np.int32),
                     policy=np.ones((2, 1), np.float32), player=np.array([0, 2], np.int8),
                     phase=np.array([0, 2], np.int8), head_value=np.zeros((2, n), np.float32),
                     search_value=np.full((2, n), 0.5, np.float32), versions=np.zeros(2, np.int32),
                     results=np.array([1.0, -1.0, -1.0], np.float32), tokens=np.array([12, 7, 2]),
                     steps=2, truncated=False)
    plain = rec.value_targets()
    assert plain[0].tolist() == [1.0, -1.0, -1.0] and plain[1].tolist() == [-1.0, 1.0, -1.0]  # seat 2: then 0, 1
    assert margins(rec.tokens).tolist() == pytest.approx([0.5, -0.5, -1.0])
    assert rec.value_targets("margin", 0.5)[1].tolist() == pytest.approx([-1.0, 0.75, -0.75])
    assert rec.value_targets("search", 1.0).tolist() == [[0.5] * n] * 2


def test_playout_cap_keeps_only_the_full_searches():
    import tempfile
    tmp = Path(tempfile.mkdtemp())
    full = play(tiny_cfg(tmp, 2), [5])[0]
    few = play(tiny_cfg(tmp, 2, "ray.playout_fraction=0.25"), [5])[0]
    assert full.positions > 0
    assert 0 < few.positions < full.positions * 0.6  # about a quarter of the searched decisions
    with pytest.raises(ConfigError, match="playout_fraction"):
        tiny_cfg(tmp, 2, "ray.playout_fraction=0")


def test_value_agreement_counts_by_phase_and_skips_draws():
    table = phase_agreement([np.array([0, 0, 2]), np.array([1])], [np.array([0, 1, 0]), np.array([0])],
                            [np.array([[0.3, 0], [0.2, 0], [-0.1, 0]]), np.array([[0.9, 0]])],
                            [np.array([1.0, -1.0]), np.array([0.0, 0.0])])
    assert table == {"placement": (0.5, 2), "battle": (0.0, 1)}


# ------------------------------------------------------------------ versions and the lag
class PublishingStore(WeightStore):
    """A learner that publishes version 1 when an actor has asked twice."""

    def __init__(self, payload: dict) -> None:
        super().__init__()
        self.asked, self.payload = 0, payload

    def newer(self, version: int, actor: str = "", searched: int = 0):
        self.asked += 1
        if self.asked == 2:
            self.publish(1, self.payload)
        return super().newer(version, actor, searched)


def test_actors_take_new_weights_between_moves_and_games_record_the_lag(tmp_path):
    cfg = tiny_cfg(tmp_path)
    payload = payload_of(Path(cfg.start_from))
    store = PublishingStore(payload)
    rec = play(cfg, [3], store)[0]
    assert rec.positions - 1 <= store.searched_total() <= rec.positions  # said when it asks, before each move
    assert rec.versions[0] == 0 and rec.versions[-1] == 1 and (np.diff(rec.versions) >= 0).all()
    assert rec.version == 0
    net = AZNet(payload["obs_shape"], 2, **payload["net"])
    prog = LoopProgress(version=3)
    learner = Learner(cfg, net, th.optim.Adam(net.parameters()), ReplayBuffer(1000, net.obs_shape, 2, 384),
                      prog, th.device("cpu"), lambda v, p: None)
    learner.receive(rec)
    lag = learner.take_metrics()
    assert lag["lag/max_versions"] == 3.0 and 2.0 <= lag["lag/mean_versions"] < 3.0


def test_the_learner_keeps_to_its_samples_per_position(tmp_path):
    cfg = tiny_cfg(tmp_path, 2, "ray.samples_per_position=2", "batch_size=8", "ray.min_buffer=1")
    payload = payload_of(Path(cfg.start_from))
    net = AZNet(payload["obs_shape"], 2, **payload["net"])
    published = []
    learner = Learner(cfg, net, th.optim.Adam(net.parameters()), ReplayBuffer(1000, net.obs_shape, 2, 384),
                      LoopProgress(), th.device("cpu"), lambda v, p: published.append(v))
    assert learner.train(100) == 0  # nothing received
    rec = play(cfg, [4])[0]
    learner.receive(rec)
    done = learner.train(10_000)
    assert done == rec.positions * 2 // 8 and learner.train(10_000) == 0
    assert published == list(range(1, done // cfg.ray.publish_every + 1))


# ------------------------------------------------------------------ the gate
def test_the_gate_decides_only_on_its_game_count():
    cfg = AZConfig()
    assert cfg.ray.gate_games == 400  # the figure, the default
    prog = LoopProgress(version=5)
    assert open_gate(prog, 5) and prog.candidate == 5
    assert [next_pairing(LoopProgress(eval_chunks=k), ["a", "b"]) for k in range(3)] == ["a", "b", "a"]
    assert next_pairing(prog, ["greedy"]) == BEST
    for _ in range(19):
        assert gate_result(prog, cfg, 5, 20, 20.0) is None  # 380 games won: not yet
    assert prog.generation == 0
    assert gate_result(prog, cfg, 5, 20, 20.0) is True and prog.generation == 5 and prog.candidate == -1
    assert open_gate(prog, 9)
    for _ in range(19):
        assert gate_result(prog, cfg, 9, 20, 10.0) is None
    assert gate_result(prog, cfg, 9, 20, 10.0) is False and prog.generation == 5  # 50% < 0.55
    with pytest.raises(ConfigError, match="gate_games"):
        load_config("az", ["ray.gate_games=0"], cls=AZConfig)


# ------------------------------------------------------------------ the loop, in this process
@pytest.mark.parametrize("players", [2, 3, 4])
def test_the_loop_trains_and_resumes_with_its_optimiser_and_buffer(tmp_path, players):
    cfg = tiny_cfg(tmp_path, players, "ray.max_positions=150")
    run = train_az_ray(cfg, progress=False, remote=False)
    path = sorted((run / "checkpoints").glob("az_*"))[-1]
    net, opt, buf, prog = load_checkpoint(path, th.device("cpu"), lambda n: ReplayBuffer(cfg.buffer_size, n.obs_shape,
                                                                                           players, cfg.max_legal),
                                          LoopProgress)
    assert prog.positions >= 150 and prog.updates > 0 and buf.size == prog.positions and net.n_players == players
    assert opt["state"][0]["step"] == prog.updates
    # a resume with nothing left to do saves what it loaded: optimiser, buffer, counters
    train_az_ray(cfg, resume=run, progress=False, remote=False)
    again = sorted((run / "checkpoints").glob("az_*"))[-1]
    net2, opt2, buf2, prog2 = load_checkpoint(again, th.device("cpu"),
                                              lambda n: ReplayBuffer(cfg.buffer_size, n.obs_shape, players, cfg.max_legal),
                                              LoopProgress)
    assert prog2.updates == prog.updates and prog2.positions == prog.positions and prog2.next_seed == prog.next_seed
    assert th.equal(opt2["state"][0]["exp_avg"], opt["state"][0]["exp_avg"])
    assert np.array_equal(buf2.obs[: buf.size], buf.obs[: buf.size]) and buf2.size == buf.size
    # and one that goes on trains from there
    cfg.ray.max_positions = prog.positions + 60
    train_az_ray(cfg, resume=run, progress=False, remote=False)
    last = sorted((run / "checkpoints").glob("az_*"), key=lambda p: int(p.name[3:]))[-1]
    _, opt3, _, prog3 = load_checkpoint(last, th.device("cpu"),
                                        lambda n: ReplayBuffer(cfg.buffer_size, n.obs_shape, players, cfg.max_legal),
                                        LoopProgress)
    assert prog3.updates > prog.updates and opt3["state"][0]["step"] == prog3.updates


# ------------------------------------------------------------------ on Ray
@pytest.fixture(scope="module")
def ray_session():
    pytest.importorskip("ray")
    from training.raylocal import start_ray
    session = start_ray(None, num_cpus=2)
    yield session
    session.close()


def test_a_crashed_actor_is_restarted_and_its_games_played_again(ray_session, tmp_path):
    cfg = tiny_cfg(tmp_path, 2, "ray.max_restarts=1")
    mark = tmp_path / "crashed"
    store = WeightStore()
    pool = SelfPlayPool(cfg, (0, payload_of(Path(cfg.start_from))), store, remote=True, crash={0: (3, str(mark))})
    try:
        pool.submit(0, [10, 11])
        results, lost = [], []
        deadline = time.monotonic() + 120
        while not lost:
            results, lost = pool.finished(timeout=1.0)
            assert not results and time.monotonic() < deadline
        assert mark.exists() and sorted(lost) == [10, 11] and pool.restarts == 1
        assert pool.idle() == []  # no seeds for it until the restarted actor answers
        while not pool.idle():
            assert pool.finished(timeout=0.5) == ([], []) and time.monotonic() < deadline
        pool.submit(0, lost)  # the restarted actor
        while not results:
            results, lost = pool.finished(timeout=1.0)
            assert not lost and time.monotonic() < deadline
        assert sorted(GameRecord.unpack(p).seed for p in results[0]["records"]) == [10, 11]
    finally:
        pool.close()


def test_a_run_on_ray_logs_throughput_lag_and_evaluations(ray_session, tmp_path):
    cfg = tiny_cfg(tmp_path, 2, "ray.max_positions=200", "ray.evaluators=1", "ray.evaluator_cpus=0.5",
                   "ray.panel=[random]", "ray.eval_chunk=2", "ray.gate_games=2", "ray.actor_cpus=0.5",
                   "ray.actors=2")
    run = train_az_ray(cfg, progress=False)
    import csv
    rows = list(csv.DictReader((run / "progress.csv").open()))
    assert any(r.get("lag/mean_versions") not in (None, "") for r in rows)
    assert any(r.get("selfplay/searched_per_s") not in (None, "") for r in rows)
    assert (run / "eval.jsonl").is_file()


# ------------------------------------------------------------------ the command line
@pytest.mark.parametrize("args,says", [
    (["--num-cpus", "2"], "--num-cpus is for the Ray loop"),
    (["--ray-address", " "], "--ray-address needs an address"),
    (["--ray-address", "auto", "--num-cpus", "2"], "a cluster (--ray-address) has its own"),
    (["--ray", "--num-cpus", "1"], "reserve 2 CPUs"),
    (["--ray", "--set", "ray.actors=0"], "ray: actors must be >= 1"),
    (["--ray", "--set", "ray.value_extra=tokens"], "ray.value_extra must be one of"),
])
def test_bad_flags_are_one_line_errors(tmp_path, monkeypatch, capsys, args, says):
    from vigtavl.cli import main
    monkeypatch.chdir(tmp_path)
    assert main(["az", "train", "--config", "az", *args]) == 2
    err = capsys.readouterr().err
    assert says in err and len(err.strip().splitlines()) == 1, err
    assert not list(tmp_path.iterdir())  # nothing written


def test_bad_num_cpus_is_refused_by_the_parser(capsys):
    from vigtavl.cli import main
    with pytest.raises(SystemExit) as e:
        main(["az", "train", "--ray", "--num-cpus", "0"])
    assert e.value.code == 2 and "must be at least 1" in capsys.readouterr().err


def test_sigterm_stops_a_ray_run_with_a_checkpoint_of_the_games_under_way(tmp_path):
    pytest.importorskip("ray")
    tiny = tiny_net(tmp_path)
    sets = [f"start_from={tiny}", "search.simulations=2", "search.considered=2", "parallel_games=4", "batch_size=16",
            "max_steps=80", f"run_dir={tmp_path}", "run_name=r", "torch_threads=1", "device=cpu",
            "ray.actors=1", "ray.min_buffer=16", "ray.evaluators=0", "ray.log_seconds=1", "ray.games_per_task=8"]
    env = dict(os.environ, PYTHONPATH=str(ROOT), OMP_NUM_THREADS="1", PYTHONWARNINGS="ignore")
    cmd = [sys.executable, "-m", "vigtavl", "az", "train", "--ray", "--num-cpus", "2", "--no-progress", "--config", "az"]
    proc = subprocess.Popen(cmd + [x for s in sets for x in ("--set", s)], env=env, cwd=tmp_path,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    run = tmp_path / "r"
    deadline = time.monotonic() + 180
    while not (run / "progress.csv").exists():  # its first row: set up, actors under way
        assert proc.poll() is None and time.monotonic() < deadline, proc.communicate()
        time.sleep(0.5)
    proc.send_signal(signal.SIGTERM)
    out, err = proc.communicate(timeout=60)
    assert proc.returncode == 143, err
    assert "vigtavl az train --ray --resume" in err and "played again on resume" in err
    path = sorted((run / "checkpoints").glob("az_*"))[-1]
    _, _, _, prog = load_checkpoint(path, th.device("cpu"), lambda n: ReplayBuffer(100, n.obs_shape, 2, 384), LoopProgress)
    assert prog.pending_seeds  # the games under way, played first on resume


def test_the_value_command_tabulates_phases_and_refuses_a_missing_model(tmp_path, capsys):
    from vigtavl.cli import main
    assert main(["az", "value", "--model", str(tiny_net(tmp_path)), "--games", "2", "--max-steps", "60"]) == 0
    out = capsys.readouterr().out
    assert out.splitlines()[0].split() == ["phase", "positions", "agree"]
    assert main(["az", "value", "--model", str(tmp_path / "none.pt")]) == 2
    err = capsys.readouterr().err
    assert "does not exist" in err and len(err.strip().splitlines()) == 1
