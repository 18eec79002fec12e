"""Engine speed: random legal play with the rules engine alone, beside the project's targets.

    python -m vigtavl_env.bench [--games N] [--seed S]      (also ``make bench``)

For each preset map (2, 3 and 4 players) it plays ``N`` seeded games of uniform random legal play
(``legal_actions``, a random pick, ``apply_action`` with the legal list, as an environment would)
and reports decisions/s, games/s and decisions per game. On the 2-player map it then times the
single operations over states sampled from random play: ``clone()``, ``legal_actions`` and
``apply_action`` (each on a prepared clone, so the copy is not counted).

There is no peer engine installed to run beside it, so the table prints the targets of
``shared/notes/performance-targets.md`` instead; compare ratios, not absolute numbers, across
machines (the environment benchmark, ``vigtavl_env.bench_env``, runs PettingZoo go_v5 beside it).
"""

from __future__ import annotations

import argparse
import os
import random
import sys
import time
from dataclasses import dataclass

from tqdm import tqdm

from . import compiled
from .engine import apply_action, legal_actions, new_game
from .engine.maps import DEFAULT_PRESET, load_map
from .engine.state import GameState

# Targets for the 2-player map (shared/notes/performance-targets.md).
TARGET_DECISIONS_PER_S = 60_000
TARGET_GAMES_PER_S = 50
TARGET_CLONE_US = 20
TARGET_LEGAL_US = 25
SAMPLE_EVERY = 5  # decisions between sampled states for the micro-benchmarks
MICRO_REPEATS = 5  # passes over the sampled states per micro-benchmark


@dataclass
class PlayResult:
    players: int
    games: int
    decisions: int
    seconds: float
    cpu_seconds: float

    @property
    def decisions_per_s(self) -> float:
        return self.decisions / self.seconds

    @property
    def games_per_s(self) -> float:
        return self.games / self.seconds


def play_random(gmap, games: int, seed: int, progress: tqdm | None = None) -> PlayResult:
    """Uniform random legal play, timed end to end (setup included)."""
    rng = random.Random(seed)
    decisions = 0
    t0, c0 = time.perf_counter(), time.process_time()
    for g in range(games):
        state = new_game(gmap, seed=seed + g)
        while state.phase != 3:
            legal = legal_actions(state)
            apply_action(state, rng.choice(legal), legal)
            decisions += 1
        if progress is not None:
            progress.update(1)
    return PlayResult(gmap.num_players, games, decisions, time.perf_counter() - t0, time.process_time() - c0)


def sample_states(gmap, games: int, seed: int) -> list[GameState]:
    """States met in random play, every SAMPLE_EVERY decisions (game over excluded)."""
    rng = random.Random(seed)
    out = []
    for g in range(games):
        state = new_game(gmap, seed=seed + g)
        k = 0
        while state.phase != 3:
            legal = legal_actions(state)
            if k % SAMPLE_EVERY == 0:
                out.append(state.clone())
            apply_action(state, rng.choice(legal), legal)
            k += 1
    return out


def _timed(fn, count: int) -> tuple[float, float]:
    """(wall, CPU) microseconds per call of ``fn`` run once, which does ``count`` calls."""
    t0, c0 = time.perf_counter(), time.process_time()
    fn()
    return (time.perf_counter() - t0) / count * 1e6, (time.process_time() - c0) / count * 1e6


def time_micro(states: list[GameState], seed: int) -> dict[str, tuple[float, float]]:
    """Mean (wall, CPU) microseconds per clone(), legal_actions() and apply_action()."""
    rng = random.Random(seed)
    n = len(states) * MICRO_REPEATS
    passes = range(MICRO_REPEATS)

    def clones() -> None:
        for _ in passes:
            for s in states:
                s.clone()

    def legals() -> None:
        for _ in passes:
            for s in states:
                legal_actions(s)

    work = []
    for _ in passes:
        for s in states:
            codes = legal_actions(s)
            work.append((s.clone(), rng.choice(codes), codes))

    def applies() -> None:
        for s, a, codes in work:
            apply_action(s, a, codes)

    clone, legal, apply = _timed(clones, n), _timed(legals, n), _timed(applies, len(work))
    return {"clone": clone, "legal": legal, "apply": apply}


def _row(name: str, wall: float, cpu: float, fmt: str, target: str = "", ok: bool | None = None) -> str:
    mark = "" if ok is None else ("ok" if ok else "misses target")
    return f"  {name:<22}{format(wall, fmt):>12}{format(cpu, fmt):>12}   {target:<12}{mark}"


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description="Engine speed under random legal play.")
    ap.add_argument("--games", type=int, default=100, help="games per player count")
    ap.add_argument("--seed", type=int, default=0)
    args = ap.parse_args(argv)
    maps = {p: load_map(DEFAULT_PRESET[p], p) for p in (2, 3, 4)}
    print(f"engine under random play ({compiled.describe()})")
    quiet = not sys.stderr.isatty()
    with tqdm(total=3 * args.games, desc="random games", file=sys.stderr, leave=False, disable=quiet) as bar:
        results = [play_random(maps[p], args.games, args.seed, bar) for p in (2, 3, 4)]
    states = sample_states(maps[2], max(4, args.games // 4), args.seed + 1)
    n_states = len(states)
    micro = time_micro(states, args.seed)

    print(f"Vigtavl engine, random legal play ({args.games} games per map, seed {args.seed})")
    print(f"  {'map':<10}{'players':>8}{'decisions/s':>14}{'games/s':>10}{'decisions/game':>16}"
          f"{'(per CPU-s)':>14}")
    for r in results:
        print(f"  {DEFAULT_PRESET[r.players]:<10}{r.players:>8}{r.decisions_per_s:>14,.0f}"
              f"{r.games_per_s:>10.1f}{r.decisions / r.games:>16.1f}{r.decisions / r.cpu_seconds:>14,.0f}")
    duel, m = results[0], micro
    dps_cpu, gps_cpu = duel.decisions / duel.cpu_seconds, duel.games / duel.cpu_seconds
    print(f"\n2-player map ({DEFAULT_PRESET[2]}) against the targets of performance-targets.md"
          " (verdict on the CPU figure)")
    print(f"  {'':<22}{'wall':>12}{'CPU':>12}   {'target':<12}")
    print(_row("decisions/s", duel.decisions_per_s, dps_cpu, ",.0f", f">= {TARGET_DECISIONS_PER_S:,}",
               dps_cpu >= TARGET_DECISIONS_PER_S))
    print(_row("random games/s", duel.games_per_s, gps_cpu, ".1f", f">= {TARGET_GAMES_PER_S}",
               gps_cpu >= TARGET_GAMES_PER_S))
    print(_row("clone() us", *m["clone"], ".1f", f"<= {TARGET_CLONE_US}", m["clone"][1] <= TARGET_CLONE_US))
    print(_row("legal_actions() us", *m["legal"], ".1f", f"<= {TARGET_LEGAL_US}", m["legal"][1] <= TARGET_LEGAL_US))
    print(_row("apply_action() us", *m["apply"], ".1f"))
    print(f"  (micro-benchmarks: mean over {n_states} states sampled from random play, x{MICRO_REPEATS}; "
          "no peer engine is installed to run beside this one)")
    if hasattr(os, "getloadavg"):
        cores = os.cpu_count() or 1
        print(f"  (load average {os.getloadavg()[0]:.1f} on {cores} cores during the run: wall-clock "
              "figures fall when other work shares the machine; the CPU-s column does not)")


if __name__ == "__main__":
    main()
