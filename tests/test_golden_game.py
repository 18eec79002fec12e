"""Thrones plays exactly the recorded games (tools/golden_game.py, tests/golden/thrones.json):
per seeded random game its legal lists, observations, decisions, chance events and final state.
Thrones has no compiled core: the plain engine is the only build. ``python -m tools.golden_game``
checks all 200 by hand."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tools import golden_game

CHECKED = 20  # of the 200 recorded games (about 1.5 s)


def test_thrones_plays_the_recorded_games() -> None:
    assert golden_game.check("thrones", games=CHECKED) == []


def test_a_game_that_differs_is_reported(tmp_path: Path) -> None:
    data = golden_game.load("thrones")
    data["games"] = data["games"][:2]
    data["games"][1]["final"] = data["games"][1]["final"][::-1]
    path = tmp_path / "thrones.json"
    path.write_text(json.dumps(data))
    diffs = golden_game.check("thrones", path=path)
    assert len(diffs) == 1 and diffs[0].startswith("game seed 1:")


@pytest.mark.parametrize("text,match", [("{", "cannot read"), ('{"format": 1, "game": "pig", "games": []}', "not a format"),
                                        ('{"format": 1, "game": "thrones", "version": "thrones-0", "games": []}', "this engine is")])
def test_a_bad_recording_answers_in_one_line(tmp_path: Path, text: str, match: str) -> None:
    path = tmp_path / "thrones.json"
    path.write_text(text)
    with pytest.raises(ValueError, match=match) as err:
        golden_game.load("thrones", path)
    assert "\n" not in str(err.value)


@pytest.mark.parametrize("argv,match", [(["--game", "nope"], "unknown game"), (["--games", "0"], "at least 1")])
def test_bad_options_answer_in_one_line(argv: list[str], match: str, capsys: pytest.CaptureFixture) -> None:
    assert golden_game.main(argv) == 2
    err = capsys.readouterr().err
    assert match in err and err.count("\n") == 1
