"""Ctrl-C and SIGTERM stop a match or a tournament at once: the games finished by then are written
to --out marked partial (whole or not at all), the status is 128 + the signal, and replay reads
the file and says it is partial. The command runs as a real process, signalled mid-run."""

from __future__ import annotations

import contextlib
import json
import os
import re
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest

import arena.vigtavl_match as M
from arena.vigtavl_match import GameJob, MatchResult, RunInterrupted, play_chunk, run_match
from arena.replay import ReplayError, load_record
from vigtavl.cli import main as cli_main

ROOT = Path(__file__).resolve().parents[1]
STOP_WITHIN_S = 2.0
GAMES = 400  # far more than finish before the signal: a few seconds' run at most
PROGRESS = re.compile(r"\| *([0-9]+)/[0-9]+ ")  # the progress bar's "16/400"


def _default_sigint() -> None:
    signal.signal(signal.SIGINT, signal.SIG_DFL)


def _stopped_run(tmp_path: Path, argv: list[str], sig: int) -> tuple[int, float, str, Path]:
    """Run ``python -m vigtavl ARGV --out F``, send ``sig`` once games are done (the progress bar
    on stderr counts some), and return (status, seconds from the signal to the exit, stderr, F)."""
    out = tmp_path / "results.json"
    # its own process group, so that cleaning up also ends any worker it leaves behind; Ctrl-C's
    # default handling, as at a terminal (a shell's background job, such as a test run started
    # with `&`, starts its children with SIGINT ignored, and Python then installs no handler)
    proc = subprocess.Popen([sys.executable, "-m", "vigtavl", *argv, "--out", str(out)], cwd=ROOT,
                            stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, start_new_session=True,
                            preexec_fn=_default_sigint)
    err: list[str] = []
    games_done = threading.Event()

    def read_stderr() -> None:
        for byte in iter(lambda: proc.stderr.read(1), b""):  # bytes: tqdm's \r kept
            err.append(byte.decode("latin-1"))
            if byte == b"\r" and any(int(n) > 0 for n in PROGRESS.findall("".join(err[-300:]))):
                games_done.set()
    reader = threading.Thread(target=read_stderr, daemon=True)
    reader.start()
    try:
        assert games_done.wait(120), "no game finished: " + "".join(err)[-2000:]
        proc.send_signal(sig)
        start = time.monotonic()
        proc.wait(30)
        seconds = time.monotonic() - start
    finally:
        with contextlib.suppress(ProcessLookupError):  # the group is gone when all of it has ended
            os.killpg(proc.pid, signal.SIGKILL)
        proc.wait()
    reader.join(5)
    return proc.returncode, seconds, "".join(err).encode("latin-1").decode(), out


def _check_partial(out: Path, planned: int, stderr: str, capsys: pytest.CaptureFixture[str]) -> dict:
    """The file holds the finished games, marked partial, and replays."""
    assert "Traceback" not in stderr, stderr
    assert "marked partial" in stderr.strip().splitlines()[-1], stderr[-1000:]
    d = json.loads(out.read_text())
    games = [g["game"] for g in d["games"]]
    assert d["partial"] is True and d["games_planned"] == planned
    assert 0 < d["games_played"] == len(games) == len(set(games)) < planned
    assert list(out.parent.iterdir()) == [out]  # no temporary file left beside it
    capsys.readouterr()
    assert cli_main(["replay", str(out), "--game", str(games[-1]), "--no-maps"]) == 0
    captured = capsys.readouterr()
    assert captured.err.strip() == f"vigtavl replay: {out} is partial: the run was interrupted after " \
                                   f"{len(games)} of {planned} games"
    assert "replay check: tokens" in captured.out
    return d


@pytest.mark.parametrize("workers, sig", [(2, signal.SIGINT), (1, signal.SIGINT), (2, signal.SIGTERM)])
def test_a_stopped_match_keeps_its_finished_games(tmp_path, capsys, workers, sig):
    argv = ["match", "--agents", "random,random", "--games", str(GAMES), "--workers", str(workers)]
    status, seconds, stderr, out = _stopped_run(tmp_path, argv, sig)
    assert seconds < STOP_WITHIN_S and status == 128 + sig, (seconds, status, stderr[-1000:])
    d = _check_partial(out, GAMES, stderr, capsys)
    assert MatchResult.from_dict(d).planned == GAMES


def test_a_stopped_tournament_keeps_its_finished_games(tmp_path, capsys):
    argv = ["tournament", "--agents", "random,greedy", "--games", str(GAMES), "--workers", "2"]
    status, seconds, stderr, out = _stopped_run(tmp_path, argv, signal.SIGINT)
    assert seconds < STOP_WITHIN_S and status == 130, (seconds, status, stderr[-1000:])
    d = _check_partial(out, GAMES, stderr, capsys)
    assert d["kind"] == "tournament" and d["pairings"] == [["random", "greedy"]]


# ------------------------------------------------------------------ in one process
def test_an_interrupted_match_raises_with_the_games_finished(monkeypatch):
    play = M.play_game

    def interrupt_game_3(env, job, stop=None):
        if job.game == 3:
            raise KeyboardInterrupt
        return play(env, job, stop)
    monkeypatch.setattr(M, "play_game", interrupt_game_3)
    with pytest.raises(RunInterrupted) as info:
        run_match(["random", "random"], games=10, seed=5, progress=False)
    result = info.value.result
    assert [r.game for r in result.records] == [0, 1, 2] and result.planned == 10
    assert result.to_dict() | {"partial": True, "games_planned": 10, "games_played": 3} == result.to_dict()
    assert "3 of 10 games (interrupted)" in result.table()


def test_a_worker_told_to_stop_gives_up_its_game_and_returns_the_finished_ones(monkeypatch):
    class StopAfter:
        """A stop event that turns on after ``n`` questions (one per decision, one per game)."""

        def __init__(self, n: int) -> None:
            self.asked, self.n = 0, n

        def is_set(self) -> bool:
            self.asked += 1
            return self.asked > self.n

    jobs = [GameJob(g, 40 + g, ("random", "random"), 2) for g in range(3)]
    whole = play_chunk(jobs)  # no run to stop: every game
    first = whole[0].n_decisions
    monkeypatch.setattr(M, "_run_stop", StopAfter(first + 2 + 5))  # mid-way through the second game
    assert play_chunk(jobs) == whole[:1]


def test_a_worker_busy_past_the_grace_is_killed_without_noise(capfd):
    import multiprocessing
    from concurrent.futures import ProcessPoolExecutor
    ctx = multiprocessing.get_context(M.MP_CONTEXT)
    stop = ctx.Event()
    pool = ProcessPoolExecutor(max_workers=1, mp_context=ctx, initializer=M._start_worker, initargs=(stop,))
    busy = pool.submit(time.sleep, 60)
    while not busy.running():
        time.sleep(0.05)
    time.sleep(0.5)  # the worker has taken it
    start = time.monotonic()
    M._stop_workers(pool, stop, [busy], {})
    assert time.monotonic() - start < M.STOP_GRACE_S + 1.5
    with pytest.raises(Exception, match="terminated abruptly"):
        busy.result(timeout=5)
    assert "Traceback" not in capfd.readouterr().err


def test_replay_of_a_partial_file_names_the_games_it_has(tmp_path):
    result = run_match(["random", "random"], games=2, seed=9, progress=False)
    result.planned = 50
    path = tmp_path / "partial.json"
    result.save(path)
    assert load_record(path, 1) == result.records[1]
    with pytest.raises(ReplayError, match=r"no game 7 \(games 0..1\); partial: .* after 2 of 50 games"):
        load_record(path, 7)


def _children(pid: int) -> set[int]:
    kids: set[int] = set()
    for task in Path(f"/proc/{pid}/task").glob("*"):
        with contextlib.suppress(OSError):
            kids |= {int(c) for c in (task / "children").read_text().split()}
    return kids


def _alive(pid: int) -> bool:
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except OSError:
        return False
    return state != "Z"


@pytest.mark.skipif(not Path("/proc/self/task").is_dir(), reason="needs /proc")
def test_workers_end_with_a_parent_killed_outright(tmp_path):
    """The workers ignore Ctrl-C and SIGTERM (their parent stops them); when the parent dies
    without doing so (kill -9), each ends itself at once instead of waiting for work for good,
    also a worker still starting when its parent died."""
    script = "from arena.vigtavl_match import run_match; run_match(['random', 'random'], 4000, 0, workers=2, progress=False)"
    parent = subprocess.Popen([sys.executable, "-W", "ignore", "-c", script], cwd=tmp_path,
                              stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    workers: set[int] = set()
    try:
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline and len(workers) < 2:
            workers = {c for c in _children(parent.pid) if "spawn_main" in Path(f"/proc/{c}/cmdline").read_text()}
            time.sleep(0.2)
        assert len(workers) >= 2, "the match started no workers"
        parent.kill()
        parent.wait(timeout=10)
        deadline = time.monotonic() + 5
        while time.monotonic() < deadline and any(_alive(w) for w in workers):
            time.sleep(0.1)
        left = [w for w in workers if _alive(w)]
        assert not left, f"workers {left} outlived their parent"
    finally:
        for pid in workers | _children(parent.pid) | {parent.pid}:
            with contextlib.suppress(OSError):
                os.kill(pid, signal.SIGKILL)


def test_signals_during_the_pool_loop_raise_only_where_it_checks():
    """The workers' loop holds Ctrl-C and SIGTERM until its check, which runs the handler they
    had (a raise inside the pool's locking could leave a lock held and hang the process)."""
    calls = []

    def raising(signum, frame):
        calls.append(signum)
        raise M.StopSignal(signum)

    before = signal.signal(signal.SIGTERM, raising)
    try:
        with M._signals_deferred() as check:
            os.kill(os.getpid(), signal.SIGTERM)
            time.sleep(0.05)  # the handler runs between bytecodes here: it must only note it
            assert calls == []
            with pytest.raises(M.StopSignal) as info:
                check()
            assert calls == [signal.SIGTERM] and info.value.signum == signal.SIGTERM
            check()  # nothing left held
        assert signal.getsignal(signal.SIGTERM) is raising  # put back
        signal.signal(signal.SIGTERM, signal.SIG_IGN)
        with M._signals_deferred() as check:
            os.kill(os.getpid(), signal.SIGTERM)
            time.sleep(0.05)
            check()  # an ignored signal stays ignored
    finally:
        signal.signal(signal.SIGTERM, before)


def _signal_the_parent_and_die(jobs):
    """A worker's chunk that acts out a group's SIGTERM reaching a worker still starting (before
    it leaves the signal to its parent): the parent is signalled and the worker dies at once."""
    os.kill(os.getppid(), signal.SIGTERM)
    os.kill(os.getpid(), signal.SIGKILL)


def test_a_worker_killed_by_the_groups_stop_signal_stops_the_run_not_breaks_it(monkeypatch):
    """SIGTERM to a whole process group can kill a worker before its initializer has made it
    deaf to the signal: the pool breaks at the moment the parent gets the signal. The stop wins
    (RunInterrupted, as a trainer needs it to save and exit 143), not BrokenProcessPool."""
    from tqdm import tqdm

    monkeypatch.setattr(M, "play_chunk", _signal_the_parent_and_die)
    with M.sigterm_as_interrupt(), tqdm(disable=True) as bar:
        with pytest.raises(RunInterrupted) as info:
            M._play_in_workers(list(range(4)), 2, bar)
    assert info.value.signum == signal.SIGTERM
