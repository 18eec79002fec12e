"""tools/bench_thrones_observation: a tiny run prints its figures; bad input is one line."""

from __future__ import annotations

import pytest

from tools.bench_thrones_observation import main


def test_a_tiny_run_prints_the_cost(capsys) -> None:
    assert main(["--games", "1"]) == 0
    assert "positions after the reveal: observation" in capsys.readouterr().out


@pytest.mark.parametrize("bad", ["0", "101", "x", "-3"])
def test_bad_games_are_one_line(bad, capsys) -> None:
    with pytest.raises(SystemExit) as e:
        main(["--games", bad])
    assert e.value.code == 2 and len(capsys.readouterr().err.strip().splitlines()[-1]) < 200
