"""Recorded games of any registered game, played through the game interface alone: the digests
that say a faster engine still plays exactly the same games (``tools/golden.py`` does this for
Vigtavl, with its compiled core; Thrones and pig are plain Python, with no compiled core).

    python -m tools.golden_game --game thrones             # check this engine against the recording
    python -m tools.golden_game --game thrones --record    # write tests/golden/thrones.json anew

Each recorded game is seeded (game seed ``i``, decisions uniform from ``random.Random(i)``); per
game the recording keeps its number of decisions, a digest of its play (every legal list, each
observation of the seat to decide, every decision, the chance events) and a digest of its final
state (``to_dict``). A change to the rules, the legal lists' order, the coin or the observation
changes a digest; a change of speed alone never does. Re-record only when the rules or the
observation change on purpose, and say so in the commit.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import random
import sys
from pathlib import Path
from typing import Any

import numpy as np

from games import load_game

GOLDEN_DIR = Path(__file__).resolve().parent.parent / "tests" / "golden"
GAMES = 200  # recorded games per game
FORMAT = 1


def recording_path(game: str) -> Path:
    return GOLDEN_DIR / f"{game}.json"


def play_digests(game: str, seed: int) -> dict[str, Any]:
    """One seeded random game: its seed, decisions, play digest and final state digest."""
    state = load_game(game).new_state(seed=seed)
    rng, h, decisions = random.Random(seed), hashlib.sha256(), 0
    while not state.is_over():
        legal = state.legal_actions()
        h.update(np.asarray(legal, dtype=np.int32).tobytes())
        h.update((state.observation(state.current_player()) + np.float32(0.0)).tobytes())  # -0.0 as 0.0
        action = rng.choice(legal)
        h.update(action.to_bytes(4, "little"))
        state.apply_action(action)
        decisions += 1
    h.update(json.dumps(state.chance_events(), sort_keys=True).encode())
    final = hashlib.sha256(json.dumps(state.to_dict(), sort_keys=True).encode()).hexdigest()[:24]
    return {"seed": seed, "decisions": decisions, "play": h.hexdigest()[:24], "final": final}


def record(game: str, games: int = GAMES, path: Path | None = None) -> dict[str, Any]:
    """Play ``games`` seeded games and write their digests (atomically)."""
    g = load_game(game)
    data = {"format": FORMAT, "game": g.name, "version": g.version,
            "games": [play_digests(game, seed) for seed in range(games)]}
    path = path or recording_path(game)
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_suffix(".tmp")
    tmp.write_text(json.dumps(data, indent=1) + "\n")
    tmp.replace(path)
    return data


def load(game: str, path: Path | None = None) -> dict[str, Any]:
    """The recording for ``game`` (ValueError, one line, when missing, damaged or of another version)."""
    g = load_game(game)  # an unknown game said first
    path = path or recording_path(game)
    try:
        data = json.loads(path.read_text())
    except (OSError, ValueError) as err:
        raise ValueError(f"cannot read the recording {path}: {str(err)[:80]}") from None
    if not isinstance(data, dict) or data.get("format") != FORMAT or data.get("game") != g.name \
            or not isinstance(data.get("games"), list):
        raise ValueError(f"{path} is not a format-{FORMAT} recording of {g.name}")
    if data.get("version") != g.version:
        raise ValueError(f"{path} records {g.name} {str(data.get('version'))[:20]}; this engine is {g.version}")
    return data


def check(game: str, games: int | None = None, path: Path | None = None) -> list[str]:
    """The differences between this engine and the recording's first ``games`` games (all when None)."""
    diffs = []
    for want in load(game, path)["games"][:games]:
        got = play_digests(game, want["seed"])
        if got != want:
            diffs.append(f"game seed {want['seed']}: got {got}, recorded {want}")
    return diffs


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="python -m tools.golden_game", description=__doc__.split("\n\n")[0])
    ap.add_argument("--game", default="thrones", help="a registered game (default thrones)")
    ap.add_argument("--record", action="store_true", help="write the recording anew")
    ap.add_argument("--games", type=int, default=None, help="check (or record) only the first N games")
    args = ap.parse_args(argv)
    try:
        if args.games is not None and args.games < 1:
            raise ValueError(f"--games must be at least 1, got {args.games}")
        if args.record:
            data = record(args.game, args.games or GAMES)
            print(f"wrote {recording_path(args.game)}: {len(data['games'])} games")
            return 0
        diffs = check(args.game, args.games)
    except ValueError as err:
        print(f"error: {err}", file=sys.stderr)
        return 2
    for d in diffs:
        print(d)
    print("same games as the recording" if not diffs else f"{len(diffs)} games differ")
    return 1 if diffs else 0


if __name__ == "__main__":
    sys.exit(main())
