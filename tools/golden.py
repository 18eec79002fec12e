"""Recorded games: the digests that say a faster core still plays exactly the same games.

    python -m tools.golden                 # check this build against the recording
    python -m tools.golden --record        # write tests/golden/games.json anew

A recording holds, per player count, one digest per block of :data:`BLOCK` seeded random games
played through the engine's API: every legal list (its order too), every decision, every
observation of the player to move, the event log and the final state. It also holds the
decisions and final state of a few bot games (heuristics and the search bot at its default
budget). Any change to the rules, the legal lists' order, the dice or the observation changes
a digest; a change of speed alone never does. ``tests/test_golden.py`` checks a prefix of the
blocks in the plain build and every block in the compiled build; re-record only when the rules
or the observation change on purpose, and say so in the commit.
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
from tqdm import tqdm

from arena.vigtavl_match import match_jobs, play_jobs

from vigtavl_env.engine import apply_action, legal_actions, new_game, to_dict
from vigtavl_env.engine.maps import DEFAULT_PRESET, load_map
from vigtavl_env.observation import ObservationEncoder

RECORDING = Path(__file__).resolve().parent.parent / "tests" / "golden" / "games.json"
BLOCK = 100  # games per digest
BLOCKS = {2: 20, 3: 20, 4: 20}  # blocks recorded per player count
# Bot games: (seats, games). Seeds from BOT_SEED; the search bot at its default budget.
BOT_GAMES = ((("greedy", "aggressor"), 2), (("builder", "random"), 2), (("search", "greedy"), 2))
BOT_SEED = 11
VERSION = 1


def random_games_digest(num_players: int, first: int, count: int) -> str:
    """One sha256 over ``count`` random games (game seeds ``first ..``): legal lists, decisions,
    observations of the player to move, event logs and final states."""
    gmap = load_map(DEFAULT_PRESET[num_players], num_players)
    encoder = ObservationEncoder(gmap, new_game(gmap).config.rounds_per_phase)
    h = hashlib.sha256()
    for seed in range(first, first + count):
        rng = random.Random(seed)
        state = new_game(gmap, seed=seed)
        while not state.is_over:
            legal = legal_actions(state)
            h.update(np.asarray(legal, dtype=np.int32).tobytes())
            obs = encoder.encode(state, state.current_player) + np.float32(0.0)  # -0.0 counts as 0.0
            h.update(obs.tobytes())
            apply_action(state, rng.choice(legal), legal)
        h.update(json.dumps(to_dict(state), sort_keys=True).encode())
    return h.hexdigest()[:24]


def bot_games_digests() -> list[dict[str, Any]]:
    """Decisions digest and final state digest of each recorded bot game."""
    out = []
    for seats, games in BOT_GAMES:
        for r in play_jobs(match_jobs(list(seats), games, seed=BOT_SEED, num_players=len(seats)), progress=False):
            out.append({"seats": list(r.seats),
                        "decisions": hashlib.sha256(json.dumps(r.decisions).encode()).hexdigest()[:24],
                        "final": r.final_digest})
    return out


def record(path: Path = RECORDING) -> dict[str, Any]:
    """Play every recorded game and write the digests (atomically) to ``path``."""
    data: dict[str, Any] = {"version": VERSION, "block": BLOCK, "random": {}}
    total = sum(BLOCKS.values())
    with tqdm(total=total, desc="recording blocks", unit="block") as bar:
        for n, blocks in BLOCKS.items():
            data["random"][str(n)] = []
            for b in range(blocks):
                data["random"][str(n)].append(random_games_digest(n, b * BLOCK, BLOCK))
                bar.update()
    data["bots"] = bot_games_digests()
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_suffix(".tmp")
    tmp.write_text(json.dumps(data, indent=1) + "\n")
    tmp.replace(path)
    return data


def load(path: Path = RECORDING) -> dict[str, Any]:
    data = json.loads(path.read_text())
    if data.get("version") != VERSION:
        raise ValueError(f"{path} is a version {data.get('version')} recording; this build reads version {VERSION}")
    return data


def check(blocks: int | None = None, bots: bool = True, path: Path = RECORDING) -> list[str]:
    """The differences between this build and the recording (empty: the same games). Checks the
    first ``blocks`` blocks per player count (all when None)."""
    data, diffs = load(path), []
    todo = [(n, b, d) for n, ds in data["random"].items() for b, d in enumerate(ds[:blocks])]
    for n, b, want in tqdm(todo, desc="checking blocks", unit="block", leave=False):
        got = random_games_digest(int(n), b * data["block"], data["block"])
        if got != want:
            diffs.append(f"{n} players, games {b * data['block']}-{(b + 1) * data['block'] - 1}: "
                         f"digest {got}, recorded {want}")
    if bots:
        for got, want in zip(bot_games_digests(), data["bots"]):
            if got != want:
                diffs.append(f"bot game {want['seats']}: got {got}, recorded {want}")
    return diffs


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="python -m tools.golden", description=__doc__.split("\n\n")[0])
    ap.add_argument("--record", action="store_true", help="write the recording anew")
    ap.add_argument("--blocks", type=int, default=None, help="check only the first N blocks per player count")
    ap.add_argument("--no-bots", action="store_true", help="skip the bot games")
    args = ap.parse_args(argv)
    if args.record:
        record()
        print(f"wrote {RECORDING}")
        return 0
    diffs = check(args.blocks, bots=not args.no_bots)
    for d in diffs:
        print(d)
    print("same games as the recording" if not diffs else f"{len(diffs)} digests differ")
    return 1 if diffs else 0


if __name__ == "__main__":
    sys.exit(main())
