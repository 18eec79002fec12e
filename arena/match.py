"""Matches between agents for any registered game: seats rotated, win rates with 95% Wilson
intervals, Elo and Weng-Lin ratings, and a results file whose games replay exactly.

    python -m arena.match --game pig --agents rollout,random --games 200
"""

from __future__ import annotations

import argparse
import json
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from tqdm import tqdm

from agents.kinds import make_player
from arena.ratings import ratings, rating_table
from arena.stats import wilson_interval
from games import load_game
from games.outfiles import check_out_path, write_file  # noqa: F401  (check_out_path re-exported)

from .play import GameRecord, play_game, replay_record

RESULTS_KIND = "arena-match"
AGENT_SEED_STRIDE = 16
MAX_GAMES = 100_000


@dataclass
class Standing:
    """One agent's totals over the games it sat in (each seat it held)."""

    name: str
    games: int = 0
    wins: float = 0.0

    @property
    def win_rate(self) -> float:
        return self.wins / self.games if self.games else 0.0

    @property
    def interval(self) -> tuple[float, float]:
        return wilson_interval(self.wins, self.games)


def lineup(agents: list[str], number: int) -> list[str]:
    """Game ``number``'s seats: the agents rotated by the game number, so each sits in each
    seat equally often over ``len(agents)`` games."""
    k = number % len(agents)
    return agents[k:] + agents[:k]


def run_match(game: str, agents: list[str], games: int, seed: int = 0, progress: bool = False,
              **options: Any) -> list[GameRecord]:
    """Play ``games`` games (game g with seed ``seed + g``); agent specs are checked first."""
    load_game(game).check_players(len(agents))
    for spec in agents:
        make_player(game, spec)  # a bad spec fails here, in one line, before any game
    if isinstance(games, bool) or not isinstance(games, int) or not 1 <= games <= MAX_GAMES:
        raise ValueError(f"games must be 1-{MAX_GAMES}, got {games!r}")
    out = []
    for g in tqdm(range(games), desc=f"{game} games", unit="game", disable=not progress):
        seats = lineup(agents, g)
        seeds = [(seed + g) * AGENT_SEED_STRIDE + i for i in range(len(seats))]
        players = [make_player(game, s, sd) for s, sd in zip(seats, seeds)]
        out.append(play_game(game, players, seed + g, g, seats, seeds, **options))
    return out


def standings(records: list[GameRecord]) -> dict[str, Standing]:
    """Per agent: games and wins (a win shared by w seats counts 1/w; truncated: no winner)."""
    table: dict[str, Standing] = {}
    for r in records:
        w = r.winners
        share = 1.0 / len(w) if w and len(w) < r.num_players else 0.0
        for seat, name in enumerate(r.seats):
            st = table.setdefault(name, Standing(name))
            st.games += 1
            st.wins += share if seat in w else 0.0
    return table


def report(records: list[GameRecord]) -> str:
    rows = [f"{'agent':<16}{'games':>7}{'wins':>9}{'win%':>7}   95% CI"]
    for st in standings(records).values():
        lo, hi = st.interval
        rows.append(f"{st.name:<16}{st.games:>7}{st.wins:>9.1f}{100 * st.win_rate:>7.1f}   "
                    f"[{100 * lo:5.1f}, {100 * hi:5.1f}]")
    table = standings(records)
    rated = rating_table(ratings(records, list(table)), {n: st.games for n, st in table.items()})
    return "\n".join(rows) + "\n\n" + rated


def save_results(records: list[GameRecord], path: str | Path) -> None:
    """The results file, written whole or not at all (a temporary file renamed)."""
    write_file(path, json.dumps({"kind": RESULTS_KIND, "games": [r.to_dict() for r in records]}) + "\n")


def load_results(path: str | Path) -> list[GameRecord]:
    """The records of a results file; ValueError (one line) for anything else."""
    p = Path(path).resolve()
    if not p.is_file():
        raise ValueError(f"{path}: not a regular file")
    try:
        data = json.loads(p.read_text(encoding="utf-8"))
        if data.get("kind") != RESULTS_KIND:
            raise ValueError("not an arena results file")
        return [GameRecord(**g) for g in data["games"]]
    except (OSError, UnicodeDecodeError, json.JSONDecodeError, AttributeError, KeyError, TypeError) as e:
        raise ValueError(f"{path}: not an arena results file ({type(e).__name__})") from None


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="python -m arena.match", description=__doc__.split("\n\n")[0])
    ap.add_argument("--game", default="vigtavl")
    ap.add_argument("--agents", required=True, help="comma-separated agent specs, one per seat")
    ap.add_argument("--games", type=int, default=100)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--out", help="write the results file here")
    ap.add_argument("--replay", help="replay every game of this results file and check it")
    ap.add_argument("--no-progress", action="store_true")
    args = ap.parse_args(argv)
    try:
        if args.replay:
            recs = load_results(args.replay)
            for r in recs:
                replay_record(r)
            print(f"{len(recs)} game{'s' if len(recs) != 1 else ''} replayed: the same games")
            return 0
        recs = run_match(args.game, args.agents.split(","), args.games, args.seed, progress=not args.no_progress)
        print(report(recs))
        if args.out:
            save_results(recs, args.out)
    except ValueError as e:
        print(f"error: {e}", file=sys.stderr)
        return 2
    return 0


if __name__ == "__main__":
    sys.exit(main())
