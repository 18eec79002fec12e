"""Random-playout speed of the Thrones engine: ``python -m games.thrones.bench`` prints decisions
per second (legal list + apply, no invariant checks) over a few seeded games."""

from __future__ import annotations

import argparse
import sys
import time

from .soak import play_random


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=int, default=20)
    ap.add_argument("--seed", type=int, default=1000)
    args = ap.parse_args(argv)
    t0, decisions = time.perf_counter(), 0
    for i in range(args.games):
        decisions += len(play_random(args.seed + i, check=False).history)
    dt = time.perf_counter() - t0
    print(f"thrones engine: {decisions / dt:,.0f} decisions/s ({decisions} decisions, "
          f"{args.games} random games, {args.games / dt:.2f} games/s)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
