"""docs/thrones.md against the engine and its pictures: the observation table lists every
channel in order, every picture it shows is one tools/thrones_pictures.py writes (and small),
its links name the rules table and the benchmarks; the pictures show nothing of a hidden setup."""

from __future__ import annotations

import random
import re
from pathlib import Path

import pytest

from games.thrones.game import ThronesGame
from games.thrones.views import CHANNELS
from tools import thrones_pictures

ROOT = Path(__file__).resolve().parent.parent
PAGE = ROOT / "docs" / "thrones.md"
MAX_PICTURE_BYTES = 150_000
ROW = re.compile(r"^\| (\d+)(?:-(\d+))? \| ([^|]+) \|", re.M)


def test_the_channel_table_lists_every_channel_in_order() -> None:
    listed = []
    for first, last, name in ROW.findall(PAGE.read_text()):
        first, last = int(first), int(last or first)
        assert first == len(listed), f"channel {first} out of order"
        if first == last:
            assert name.strip() == CHANNELS[first]
        else:  # "own ranger ... own throne": the first and last names of the range
            lo, _, hi = name.strip().partition(" ... ")
            assert (lo, hi) == (CHANNELS[first], CHANNELS[last])
        listed += range(first, last + 1)
    assert listed == list(range(len(CHANNELS)))


def test_the_pictures_shown_are_the_commands_and_small() -> None:
    text = PAGE.read_text()
    shown = set(re.findall(r"\]\(img/(thrones-[a-z]+\.png)\)", text))
    assert shown == {f"thrones-{name}.png" for name in ("legend", "setup", "reveal", "turn", "end")}
    for name in shown:
        path = ROOT / "docs" / "img" / name
        assert path.is_file() and path.stat().st_size < MAX_PICTURE_BYTES, name
    assert "](thrones-rules.md)" in text and "](benchmarks.md#thrones)" in text


def test_a_picture_before_the_reveal_shows_nothing_of_the_other_setup() -> None:
    """Two games alike but for seat 1's setup decisions draw the same picture for seat 0."""
    images = []
    for pick_seed in (1, 2):
        st, rng = ThronesGame().new_state(seed=5), random.Random(0)
        while st.current_player() == 0:
            st.apply_action(rng.choice(st.legal_actions()))
        other = random.Random(pick_seed)
        for _ in range(st.steps - 1):  # all but seat 1's last setup decision: not revealed yet
            st.apply_action(other.choice(st.legal_actions()))
        assert not st.revealed
        images.append(thrones_pictures.board_image(st, 0).tobytes())
    assert images[0] == images[1]


def test_the_pictures_command_refuses_a_missing_folder(tmp_path: Path, capsys: pytest.CaptureFixture) -> None:
    assert thrones_pictures.main(["--out", str(tmp_path / "nope")]) == 2
    err = capsys.readouterr().err
    assert "is not a folder" in err and err.count("\n") == 1
