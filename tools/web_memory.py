"""What ``vigtavl serve``'s games hold in memory, beside the estimates its bounds count with.

    python -m tools.web_memory [--seeds 1 2] [--every 25] [SEATS ...]

Each SEATS (comma-separated specs, 2 to 4: ``greedy,aggressor``) plays games to the end, one per
seed, as the server's live game does (:class:`webapp.sessions.LiveGame`, an agent decision
at a time, the view kept); what the game holds is measured with tracemalloc every ``--every``
decisions and at the end, then its record is rebuilt as the replay page does
(:class:`webapp.replays.ReplayGame`) and measured too. Each line says the bytes held, the
estimate (:func:`webapp.store.live_game_bytes`, :func:`~webapp.store.replay_game_bytes`)
and their ratio, the smallest along the game for the live one: below 1, the estimate is low.
A game of the same seats is played first, so the tables every game shares (the map's, the
networks) are not counted. A measurement, not a test: a search bot's figures depend on how many
simulations its time allows.
"""

from __future__ import annotations

import argparse
import gc
import time
import tracemalloc
from collections.abc import Callable
from typing import Any

DEFAULT_SEATS = ["random,random", "random,random,random", "random,random,random,random", "greedy,aggressor",
                 "greedy,aggressor,builder", "greedy,aggressor,builder,greedy", "search,greedy"]
WARM_UP_DECISIONS = 30


def held(make: Callable[[], Any]) -> tuple[Any, int]:
    """What ``make()`` returns and the bytes it holds once made (tracemalloc, after collecting)."""
    gc.collect()
    tracemalloc.start()
    try:
        thing = make()
        gc.collect()
        return thing, tracemalloc.get_traced_memory()[0]
    finally:
        tracemalloc.stop()


def measure(seats: list[str], seed: int, every: int) -> str:
    """One game of ``seats`` to the end, and its replay rebuilt: a line of figures."""
    from webapp.replays import ReplayGame
    from webapp.sessions import LiveGame
    from webapp.store import live_game_bytes, replay_game_bytes
    lowest = [float("inf")]

    def played() -> LiveGame:
        game = LiveGame(seats, seed=seed)
        while game.advance():
            if len(game.decisions) % every == 0:
                game.view(0)
                gc.collect()
                lowest[0] = min(lowest[0], live_game_bytes(game) / tracemalloc.get_traced_memory()[0])
        game.view(0)
        return game
    start = time.perf_counter()
    game, size = held(played)
    estimate = live_game_bytes(game)
    record = game.record()
    replay, replay_size = held(lambda: ReplayGame(record))
    replay_estimate = replay_game_bytes(replay)
    return (f"{','.join(seats)} seed {seed}: {len(game.decisions)} decisions; live {size / 1e6:.2f} MB, "
            f"estimate {estimate / 1e6:.2f} MB ({estimate / size:.2f}x, lowest along the game "
            f"{min(lowest[0], estimate / size):.2f}x); replay {replay_size / 1e6:.2f} MB, estimate "
            f"{replay_estimate / 1e6:.2f} MB ({replay_estimate / replay_size:.2f}x); {time.perf_counter() - start:.0f} s")


def main(argv: list[str] | None = None) -> None:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("seats", nargs="*", default=DEFAULT_SEATS, help="comma-separated agent specs, 2 to 4")
    p.add_argument("--seeds", type=int, nargs="+", default=[1, 2], help="one game per seed")
    p.add_argument("--every", type=int, default=25, help="decisions between two measures along a game")
    args = p.parse_args(argv)
    if args.every < 1:
        p.error("--every must be at least 1")
    from webapp.guards import WebError
    from webapp.sessions import LiveGame
    for text in args.seats:
        seats = text.split(",")
        try:
            warm = LiveGame(seats, seed=0)
        except WebError as e:
            p.error(f"seats {text!r}: {e}")
        for _ in range(WARM_UP_DECISIONS):
            warm.advance()
        del warm
        for seed in args.seeds:
            print(measure(seats, seed, args.every), flush=True)


if __name__ == "__main__":
    main()
