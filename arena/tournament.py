"""A round robin for any registered game: every combination of ``players`` distinct agents plays
``games`` games (seats rotated), then one table of standings, a head-to-head matrix and ratings.

    python -m arena.tournament --game thrones --agents random,greedy,search --games 20
"""

from __future__ import annotations

import argparse
import itertools
import sys
from typing import Any

from arena.ratings import h2h_table, head_to_head

from .match import MAX_GAMES, report, run_match, save_results
from .play import GameRecord

MAX_AGENTS = 16


def run_tournament(game: str, agents: list[str], games: int, seed: int = 0, players: int = 2,
                   progress: bool = False, **options: Any) -> list[GameRecord]:
    """Every ``players``-combination of the distinct ``agents`` plays ``games`` games; the
    pairings take consecutive seed blocks, so no two games share a seed."""
    distinct = list(dict.fromkeys(agents))
    if len(distinct) < players:
        raise ValueError(f"a tournament needs at least {players} distinct agents, got {len(distinct)}")
    if len(distinct) > MAX_AGENTS:
        raise ValueError(f"a tournament takes at most {MAX_AGENTS} agents, got {len(distinct)}")
    pairings = list(itertools.combinations(distinct, players))
    if isinstance(games, bool) or not isinstance(games, int) or not 1 <= games * len(pairings) <= MAX_GAMES:
        raise ValueError(f"games per pairing times {len(pairings)} pairings must be 1-{MAX_GAMES}")
    records: list[GameRecord] = []
    for k, lineup in enumerate(pairings):
        records += run_match(game, list(lineup), games, seed + k * games, progress=progress, **options)
    return records


def head_to_head_table(records: list[GameRecord]) -> str:
    """Row agent's share of the pairwise contests against column agent (ties half)."""
    names = list(dict.fromkeys(n for r in records for n in r.seats))
    return "head to head (row's % of pairwise contests against column, ties half):\n" + \
        h2h_table(head_to_head(records, names))


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="python -m arena.tournament", description=__doc__.split("\n\n")[0])
    ap.add_argument("--game", default="vigtavl")
    ap.add_argument("--agents", required=True, help="comma-separated agent specs")
    ap.add_argument("--games", type=int, default=20, help="games per pairing")
    ap.add_argument("--players", type=int, default=2)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--out", help="write the results file here")
    ap.add_argument("--no-progress", action="store_true")
    args = ap.parse_args(argv)
    try:
        recs = run_tournament(args.game, args.agents.split(","), args.games, args.seed, args.players,
                              progress=not args.no_progress)
    except ValueError as e:
        print(f"error: {e}", file=sys.stderr)
        return 2
    print(report(recs) + "\n\n" + head_to_head_table(recs))
    if args.out:
        save_results(recs, args.out)
    return 0


if __name__ == "__main__":
    sys.exit(main())
