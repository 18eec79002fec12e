"""The compiled core and plain Python play exactly the recorded games (tools/golden.py).

The recording (tests/golden/games.json) holds one digest per block of 100 seeded random games
per player count (legal lists, decisions, observations, events, final states) and the decisions
of a few bot games, the search bot's included. This build (compiled when the core is built) must
reproduce every recorded block (on CI; the first five by hand); plain Python, in a subprocess,
the first blocks and the bot games. ``python -m tools.golden`` checks all of it by hand.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path


from tools import golden
from vigtavl_env import compiled

ROOT = Path(__file__).resolve().parent.parent
# On CI every block (20 per player count: 2,000 games each, about 3 minutes); by hand the first
# five (`python -m tools.golden` checks them all).
BLOCKS_COMPILED = None if os.environ.get("CI") else 5
BLOCKS_PLAIN = 2  # 200 games per player count


def test_this_build_plays_the_recorded_random_games() -> None:
    built = compiled.compiled_modules()
    blocks = BLOCKS_COMPILED if built else BLOCKS_PLAIN
    assert golden.check(blocks=blocks, bots=False) == []


def test_plain_python_plays_the_recorded_games_and_bot_games() -> None:
    env = dict(os.environ, VIGTAVL_PURE_PYTHON="1")
    out = subprocess.run([sys.executable, "-W", "ignore", "-m", "tools.golden", "--blocks", str(BLOCKS_PLAIN)],
                         cwd=ROOT, env=env, capture_output=True, text=True, timeout=1200)
    assert out.returncode == 0, out.stdout + out.stderr
    assert "same games as the recording" in out.stdout


def test_a_game_that_differs_is_reported(tmp_path: Path) -> None:
    """The check can fail: a recording whose first block differs from this build is reported."""
    data = golden.load()
    data["random"] = {"2": [data["random"]["2"][0][::-1]]}  # one block, its digest altered
    path = tmp_path / "games.json"
    path.write_text(json.dumps(data))
    diffs = golden.check(bots=False, path=path)
    assert len(diffs) == 1 and diffs[0].startswith("2 players, games 0-99")
