"""Thrones' benchmark command runs (tools/bench_thrones.py): a tiny run, and bad arguments.
Nothing here asserts on a timing; the peers (go_v5, Catanatron, OpenSpiel) are optional."""

from __future__ import annotations

import pytest

from tools import bench, bench_thrones


def test_thrones_bench_tiny_run(capsys: pytest.CaptureFixture[str]) -> None:
    got = bench_thrones.main(["--rounds", "1", "--steps", "40", "--seconds", "0"])
    out = capsys.readouterr().out
    assert "thrones AEC loop" in out and "Thrones decisions" in out
    assert len(got["aec"]["thrones"]) == len(got["aec"]["thrones cpu"]) == 1
    assert ("ratio thrones / go" in out) == bool(got["aec"]["go"])
    for name in bench.PEERS:
        assert (f"ratio Thrones / {name}" in out) != (f"{name} not installed" in out)


@pytest.mark.parametrize("argv", [["--rounds", "0"], ["--steps", "0"], ["--seconds", "-1"]])
def test_thrones_bench_rejects_bad_arguments(argv: list[str]) -> None:
    with pytest.raises(SystemExit):
        bench_thrones.main(argv)
