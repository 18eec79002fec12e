"""Thrones' speed beside its peers, in one run of alternating rounds (the shared machine's load
falls on every loop alike; read the ratios):

    python -m tools.bench_thrones [--rounds R] [--steps N] [--seconds T] [--seed S] [--profile]

1. **The AEC loop**: ``games.thrones.env.env()`` (PettingZoo's wrappers on, as users get it)
   beside PettingZoo's ``go_v5`` at 9x9, both through ``tools.bench_env.aec_loop`` (the loop
   Vigtavl's figure uses: ``env.last()``, a random legal action from the mask, ``env.step``),
   ``N / R`` decisions each per round, per wall and per CPU second. Aim: >= 3x go_v5 (issue 57),
   best round over best round and the median of the per-round ratios.
2. **The engine**: whole seeded games of random legal play through the game interface
   (``new_state``, ``legal_actions``, a pick with ``random.Random``, ``apply_action``) beside
   Catanatron and OpenSpiel chess through ``tools.bench``'s loops and rounds, ``T`` seconds per
   engine per round; decisions per CPU second, medians, and the ratios per round.

A peer that is not installed is skipped with one line saying how to install it.
``--profile`` adds a cProfile of the Thrones AEC loop (top functions by own time).
"""

from __future__ import annotations

import argparse
import cProfile
import io
import pstats
import random
import statistics
import time
from typing import Any

from games import load_game
from games.thrones.env import env as thrones_env
from tools.bench import PEERS, PlayOne, alternate, catanatron_game, pyspiel_chess, report_peers
from tools.bench_env import aec_loop, go_env

TARGET_VS_GO = 3.0


def thrones_game(seed: int) -> PlayOne:
    """Uniform random legal play of game ``g`` through the interface (seeds ``seed + g``)."""
    game = load_game("thrones")

    def play(g: int) -> int:
        rng = random.Random(seed + g)
        state = game.new_state(seed=seed + g)
        n = 0
        while not state.is_over():
            state.apply_action(rng.choice(state.legal_actions()))
            n += 1
        return n
    return play


def aec_rounds(steps: int, rounds: int, seed: int) -> dict[str, list[float]]:
    """Steps per wall second and per CPU second of the Thrones and go_v5 AEC loops, alternating
    rounds (the CPU figure is the steadier one on a shared machine)."""
    thr, go = thrones_env(seed=seed), go_env()
    per_round = max(steps // rounds, 1)
    rates: dict[str, list[float]] = {"thrones": [], "go": [], "thrones cpu": [], "go cpu": []}
    for r in range(rounds):
        for name, env in (("thrones", thr), ("go", go)):
            if env is None:
                continue
            c0 = time.process_time()
            secs, _ = aec_loop(env, per_round, seed + r)
            rates[name].append(per_round / secs)
            rates[f"{name} cpu"].append(per_round / (time.process_time() - c0))
    return rates


def report_aec(rates: dict[str, list[float]], rounds: int, steps: int) -> None:
    print(f"AEC loop, {rounds} alternating rounds, {steps // rounds} decisions each (best round; steps/s):")
    print(f"  {'':<20}{'per wall s':>12}{'per CPU s':>12}")
    for name in ("thrones", "go"):
        if rates[name]:
            print(f"  {name + ' AEC loop':<20}{max(rates[name]):>12,.0f}{max(rates[name + ' cpu']):>12,.0f}")
    if rates["go"]:
        for unit in ("", " cpu"):
            per_round = sorted(t / g for t, g in zip(rates["thrones" + unit], rates["go" + unit]))
            print(f"  ratio thrones / go{' per CPU s' if unit else ' per wall s'}: "
                  f"{max(rates['thrones' + unit]) / max(rates['go' + unit]):.2f}x best/best, "
                  f"{statistics.median(per_round):.2f}x median per round (target >= {TARGET_VS_GO:g}x)")


def engine_rounds(rounds: int, seconds: float, seed: int) -> None:
    engines: dict[str, tuple[str, PlayOne]] = {"Thrones": ("decisions", thrones_game(seed))}
    missing = []
    for name, make in (("Catanatron", catanatron_game), ("pyspiel chess", pyspiel_chess)):
        play = make(seed)
        if play is None:
            missing.append(name)
        else:
            engines[name] = (PEERS[name][0], play)
    rates = alternate(engines, rounds, seconds)
    report_peers(rates, missing, rounds, seconds, main="Thrones")


def profile_loop(steps: int, seed: int) -> None:
    prof = cProfile.Profile()
    prof.runcall(aec_loop, thrones_env(seed=seed), steps, seed)
    out = io.StringIO()
    pstats.Stats(prof, stream=out).sort_stats("tottime").print_stats(25)
    print(out.getvalue())


def main(argv: list[str] | None = None) -> dict[str, Any]:
    ap = argparse.ArgumentParser(prog="python -m tools.bench_thrones", description=__doc__.splitlines()[0])
    ap.add_argument("--rounds", type=int, default=5, help="alternating measurement rounds")
    ap.add_argument("--steps", type=int, default=20000, help="AEC decisions per loop, over all rounds")
    ap.add_argument("--seconds", type=float, default=1.5, help="engine seconds per engine and round")
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--profile", action="store_true", help="cProfile the Thrones AEC loop")
    args = ap.parse_args(argv)
    if args.rounds < 1 or args.steps < 1 or args.seconds < 0:
        ap.error("--rounds and --steps must be at least 1, --seconds at least 0")
    aec = aec_rounds(args.steps, args.rounds, args.seed)
    report_aec(aec, args.rounds, args.steps)
    engine_rounds(args.rounds, args.seconds, args.seed)
    if args.profile:
        profile_loop(args.steps // args.rounds, args.seed)
    return {"aec": aec}


if __name__ == "__main__":
    main()
