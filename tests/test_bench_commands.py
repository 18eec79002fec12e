"""The benchmark commands run: tiny runs of ``tools.bench`` and ``tools.bench_search``.

Benchmarks are commands, never timed tests: nothing here asserts on a timing. The peers
(Catanatron, OpenSpiel) are optional; without them the commands skip them and say so.
"""

from __future__ import annotations

import importlib.util

import pytest

from tools import bench_search
from arena.vigtavl_match import run_match
from tools import bench


def test_engine_bench_tiny_run(capsys: pytest.CaptureFixture[str]) -> None:
    got = bench.main(["--rounds", "1", "--seconds", "0", "--games", "1"])
    out = capsys.readouterr().out
    for line in ("Beside the peers", "Every preset map", "decisions/s", "observation encode us"):
        assert line in out
    assert [r.rounds[0][1] for r in got["per_map"]] == [1, 1, 1]  # exactly one game per map
    for name in bench.PEERS:
        assert (name in got["rates"]) != (name in got["missing"])
    for name in got["missing"]:
        assert f"{name} not installed, skipped: {bench.PEERS[name][1]}" in out
    if importlib.util.find_spec("catanatron") is not None:
        assert "ratio Vigtavl / Catanatron" in out


@pytest.mark.parametrize("argv", [["--rounds", "0"], ["--games", "0"], ["--seconds", "-1"]])
def test_engine_bench_rejects_bad_arguments(argv: list[str]) -> None:
    with pytest.raises(SystemExit):
        bench.main(argv)


def test_search_bench_plays_the_match_runners_games(capsys: pytest.CaptureFixture[str]) -> None:
    got = bench_search.main(["--games", "2", "--agents", "greedy,random", "--no-peer"])
    ref = run_match(["greedy", "random"], 2, seed=0, progress=False)
    assert [tg.record.decisions for tg in got["games"]] == [r.decisions for r in ref.records]
    assert got["digest"] == bench_search.decisions_digest(ref.records)
    assert f"decisions digest: {got['digest']}" in capsys.readouterr().out


def test_search_bench_expect_checks_the_digest(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as exc:
        bench_search.main(["--games", "1", "--agents", "greedy,random", "--no-peer", "--expect", "0" * 64])
    assert exc.value.code == 1
    assert "different decisions" in capsys.readouterr().err


def test_search_bench_peer_runs_when_installed(capsys: pytest.CaptureFixture[str]) -> None:
    pytest.importorskip("pyspiel")
    got = bench_search.main(["--games", "1", "--agents", "random,random"])
    assert got["games"][0].peer_units > 0 and got["peer_ratio"] is not None
    assert "peer: OpenSpiel MCTS" in capsys.readouterr().out


@pytest.mark.parametrize("argv", [["--games", "0"], ["--agents", "greedy,,random"]])
def test_search_bench_rejects_bad_arguments(argv: list[str]) -> None:
    with pytest.raises(SystemExit):
        bench_search.main(argv)


def test_vector_bench_tiny_run(capsys: pytest.CaptureFixture[str]) -> None:
    from tools import bench_vector
    assert bench_vector.main(["--envs", "2", "--seconds", "0.05", "--rounds", "1"]) == 0
    out = capsys.readouterr().out
    for line in ("2 games in one process", "vs random opponent", "vs greedy bot", "peer: connect_four_v3"):
        assert line in out
    assert ("not installed, skipped" in out) == (importlib.util.find_spec("pygame") is None)


@pytest.mark.parametrize("argv", [["--envs", "0"], ["--seconds", "0"], ["--rounds", "0"]])
def test_vector_bench_rejects_bad_arguments(argv: list[str]) -> None:
    from tools import bench_vector
    with pytest.raises(SystemExit):
        bench_vector.main(argv)
