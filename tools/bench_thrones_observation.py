"""What Thrones' observation costs after the reveal, and the strike planes' share of it.

    python -m tools.bench_thrones_observation --games 5

Plays ``--games`` seeded random games and times, at every decision after the reveal, the whole
observation of the seat to move and the two sides' strike lists (``games.thrones.rules.strikes``,
channels 43-46). Prints microseconds of wall time per position.
"""

from __future__ import annotations

import argparse
import random
import time

from games import load_game
from games.thrones import rules


def games_arg(text: str) -> int:
    if not (text.isascii() and text.isdigit()) or not 1 <= int(text) <= 100:
        raise argparse.ArgumentTypeError(f"takes 1-100, got {text[:20]!r}")
    return int(text)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--games", type=games_arg, default=5, help="random games played (1-100, default 5)")
    args = ap.parse_args(argv)
    game = load_game("thrones")
    obs_s = strike_s = 0.0
    n = 0
    for seed in range(args.games):
        st, rng = game.new_state(seed=seed), random.Random(seed)
        for _ in range(1500):
            if st.is_over():
                break
            if st.revealed:
                t0 = time.perf_counter()
                st.observation(st.current_player())
                t1 = time.perf_counter()
                rules.strikes(st, 0), rules.strikes(st, 1)
                obs_s, strike_s, n = obs_s + t1 - t0, strike_s + time.perf_counter() - t1, n + 1
            st.apply_action(rng.choice(st.legal_actions()))
    print(f"{n} positions after the reveal: observation {obs_s / n * 1e6:.1f} us, "
          f"of which the strike lists about {strike_s / n * 1e6:.1f} us")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
