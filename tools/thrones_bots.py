"""The Thrones bots' figures (issue 57): win rates with 95% Wilson intervals and CPU per decision.

    python -m tools.thrones_bots --games 200 [--seed 500000] [--pairing greedy,random ...] [--workers 2]

Each pairing ``A,B`` plays ``--games`` games, A in seat 0 of the even games and seat 1 of the
odd ones; pairing k's game g has the game seed ``seed + 100000 * k + g`` (the figures' seeds,
500000 and up, lie apart from those the bots were tuned on: 0-2000). A truncated game (the move
limit) is no win. CPU per decision is the process time of the bot's calls, over its decisions
after the reveal (the setup's are cheap) and over all of them. Defaults: greedy,random and
search,greedy, the figures issue 57 asks for (>= 90% and >= 65%).
"""

from __future__ import annotations

import argparse
import sys
import time
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass, field
from typing import Any

from tqdm import tqdm

from agents.generic import Player
from agents.kinds import make_player
from arena.stats import wilson_interval
from arena.play import play_game

GAME = "thrones"
DEFAULT_PAIRINGS = ("greedy,random", "search,greedy")
DEFAULT_SEED = 500_000
PAIRING_STRIDE = 100_000  # the seeds of one pairing's games, apart from the next one's
AGENT_SEED_STRIDE = 16
MAX_GAMES = 10_000
MAX_WORKERS = 64


class Timed:
    """A player whose calls are timed (process time), play decisions apart."""

    def __init__(self, player: Player) -> None:
        self.player = player
        self.cpu = self.play_cpu = 0.0
        self.calls = self.play_calls = 0

    def __call__(self, view: Any, legal: list[int]) -> int:
        t = time.process_time()
        action = self.player(view, legal)
        spent = time.process_time() - t
        self.cpu, self.calls = self.cpu + spent, self.calls + 1
        if view.revealed:
            self.play_cpu, self.play_calls = self.play_cpu + spent, self.play_calls + 1
        return action


@dataclass
class Tally:
    """One pairing's results, for its first agent."""

    pairing: tuple[str, str]
    games: int = 0
    wins: int = 0
    losses: int = 0
    truncated: int = 0
    cpu: list[float] = field(default_factory=lambda: [0.0, 0.0])  # seconds, per agent
    calls: list[int] = field(default_factory=lambda: [0, 0])
    play_cpu: list[float] = field(default_factory=lambda: [0.0, 0.0])
    play_calls: list[int] = field(default_factory=lambda: [0, 0])

    def add(self, won: int, lost: int, cut: int, timings: list[tuple[float, int, float, int]]) -> None:
        self.games, self.wins, self.losses, self.truncated = (
            self.games + 1, self.wins + won, self.losses + lost, self.truncated + cut)
        for i, (cpu, calls, play_cpu, play_calls) in enumerate(timings):
            self.cpu[i] += cpu
            self.calls[i] += calls
            self.play_cpu[i] += play_cpu
            self.play_calls[i] += play_calls

    def report(self) -> str:
        lo, hi = wilson_interval(self.wins, self.games)
        a, b = self.pairing
        rows = [f"{a} vs {b}: {self.games} games, {a} won {self.wins}, lost {self.losses}, "
                f"{self.truncated} cut by the move limit; win {100 * self.wins / max(self.games, 1):.1f}% "
                f"[95% CI {100 * lo:.1f}, {100 * hi:.1f}]"]
        for i, name in enumerate(self.pairing):
            ms = 1000 * self.play_cpu[i] / max(self.play_calls[i], 1)
            ms_all = 1000 * self.cpu[i] / max(self.calls[i], 1)
            rows.append(f"  {name}: {ms:.1f} ms CPU per decision after the reveal "
                        f"({self.play_calls[i]} decisions), {ms_all:.1f} ms over all {self.calls[i]}")
        return "\n".join(rows)


def one_game(pairing: tuple[str, str], game_seed: int,
             first_seat: int) -> tuple[int, int, int, list[tuple[float, int, float, int]]]:
    """(won, lost, truncated) for the pairing's first agent, and both agents' timings."""
    timers = [Timed(make_player(GAME, spec, game_seed * AGENT_SEED_STRIDE + i)) for i, spec in enumerate(pairing)]
    players = [timers[0], timers[1]] if first_seat == 0 else [timers[1], timers[0]]
    rec = play_game("thrones", players, game_seed)
    won = int(not rec.truncated and rec.winners == [first_seat])
    lost = int(not rec.truncated and rec.winners == [1 - first_seat])
    return won, lost, int(rec.truncated), [(t.cpu, t.calls, t.play_cpu, t.play_calls) for t in timers]


def run(pairings: list[tuple[str, str]], games: int, seed: int, workers: int) -> list[Tally]:
    """Play every pairing's games; each pairing's report is printed as soon as it is done."""
    tallies = [Tally(p) for p in pairings]
    jobs = [(k, p, seed + PAIRING_STRIDE * k + g, g % 2) for k, p in enumerate(pairings) for g in range(games)]

    def tally(k: int, result: tuple) -> None:
        tallies[k].add(*result)
        if tallies[k].games == games:
            tqdm.write(tallies[k].report())

    if workers == 1:
        for k, p, s, seat in tqdm(jobs, desc="thrones games", unit="game"):
            tally(k, one_game(p, s, seat))
        return tallies
    with ProcessPoolExecutor(workers) as pool:
        futures = [(k, pool.submit(one_game, p, s, seat)) for k, p, s, seat in jobs]
        for k, fut in tqdm(futures, desc="thrones games", unit="game"):
            tally(k, fut.result())
    return tallies


def parse_pairing(text: str) -> tuple[str, str]:
    specs = text.split(",")
    if len(specs) != 2:
        raise ValueError(f"a pairing is two agent specs A,B, got {text[:40]!r}")
    for spec in specs:
        make_player(GAME, spec, 0)  # a bad spec fails here, before any game
    return specs[0], specs[1]


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="python -m tools.thrones_bots", description=__doc__.split("\n\n")[0])
    ap.add_argument("--games", type=int, default=200, help="games per pairing")
    ap.add_argument("--seed", type=int, default=DEFAULT_SEED, help="the first game seed")
    ap.add_argument("--pairing", action="append", help="A,B (repeatable); default: " + " and ".join(DEFAULT_PAIRINGS))
    ap.add_argument("--workers", type=int, default=1, help="processes playing games at once")
    args = ap.parse_args(argv)
    try:
        if not 1 <= args.games <= MAX_GAMES:
            raise ValueError(f"--games must be 1-{MAX_GAMES}, got {args.games}")
        if not 1 <= args.workers <= MAX_WORKERS:
            raise ValueError(f"--workers must be 1-{MAX_WORKERS}, got {args.workers}")
        pairings = [parse_pairing(p) for p in (args.pairing or DEFAULT_PAIRINGS)]
    except ValueError as e:
        print(f"error: {e}", file=sys.stderr)
        return 2
    run(pairings, args.games, args.seed, args.workers)
    return 0


if __name__ == "__main__":
    sys.exit(main())
