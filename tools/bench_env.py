"""Speed of the environment: random legal play through the full AEC loop, against PettingZoo's go.

Run ``python -m tools.bench_env [--steps N] [--rounds K] [--seed S] [--profile]``. It
measures, in one process, in K alternating rounds so that a shared machine's changing load falls
on every loop alike (absolute figures drift between runs; compare ratios), and reports the best
round of each:

1. Vigtavl, 2 players, its preset map, ``vigtavl_env.env()`` (wrapped as users get it): the loop
   ``env.last()`` -> observation + mask, a random legal action from the mask drawn with a seeded
   ``numpy`` Generator, ``env.step``; games restart until ``--steps`` decisions were made.
2. The same loop on PettingZoo's ``go_v5`` at 9x9 (it needs ``pygame-ce``, PettingZoo's
   ``classic`` extra; without it this part is skipped and said so).
3. The engine alone: ``new_game`` + random legal play through ``legal_actions`` /
   ``apply_action`` only, for decisions/s, games/s and the env's overhead per decision.
4. A breakdown on states recorded from engine play: microseconds per call of the engine's
   ``legal_actions`` and ``apply_action``, the observation encoder and the mask fill.

Targets: the AEC loop >= 1.5x go_v5 9x9 in the same run (``shared/notes/performance-targets.md``);
issue 30 aims at 3x.
``--profile`` adds a cProfile of the Vigtavl loop (top functions by total time).
"""

from __future__ import annotations

import argparse
import cProfile
import io
import pstats
import random
import time
from collections.abc import Callable
from typing import Any


from vigtavl_env import compiled
from vigtavl_env.codec import ActionCodec, mask_indices
from vigtavl_env.engine import apply_action, legal_actions, load_map, new_game
from vigtavl_env.env import env as aec_env
from vigtavl_env.observation import ObservationEncoder

GO_BOARD = 9
PRESET_2P = "duel"
BREAKDOWN_STATES = 300
BREAKDOWN_REPEATS = 5


def aec_loop(env: Any, steps: int, seed: int) -> tuple[float, int]:
    """Random legal play through an AEC env for ``steps`` decisions; (seconds, games started).
    The pick is Python's ``random`` (as ``engine_loop``'s): a numpy ``Generator`` call costs about
    2 us, the same on both sides, which is the harness's work, not the environment's."""
    rng = random.Random(seed)
    done, games, game_seed = 0, 0, seed
    t0 = time.perf_counter()
    while done < steps:
        env.reset(seed=game_seed)
        games += 1
        game_seed += 1
        for agent in env.agent_iter():
            obs, _, terminated, truncated, _ = env.last()
            if terminated or truncated:
                env.step(None)
                continue
            legal = mask_indices(obs["action_mask"])
            env.step(int(legal[rng.randrange(len(legal))]))
            done += 1
            if done >= steps:
                break
    return time.perf_counter() - t0, games


def engine_loop(steps: int, seed: int) -> tuple[float, int, int]:
    """Random legal play through engine calls only; (seconds, decisions, finished games)."""
    gmap = load_map(PRESET_2P)
    rng = random.Random(seed)
    done, games, game_seed = 0, 0, seed
    t0 = time.perf_counter()
    while done < steps:
        state = new_game(gmap, seed=game_seed)
        state.record_events = False
        game_seed += 1
        while not state.is_over and done < steps:
            legal = legal_actions(state)
            apply_action(state, legal[rng.randrange(len(legal))])
            done += 1
        games += state.is_over
    return time.perf_counter() - t0, done, games


def recorded_states(n: int, seed: int) -> list[Any]:
    """States met in random engine play (clones), for the per-call breakdown."""
    gmap, rng, out, game_seed = load_map(PRESET_2P), random.Random(seed), [], seed
    while len(out) < n:
        state = new_game(gmap, seed=game_seed)
        game_seed += 1
        while not state.is_over and len(out) < n:
            out.append(state.clone(keep_events=False))
            legal = legal_actions(state)
            apply_action(state, legal[rng.randrange(len(legal))])
    return out


def per_call_us(fn: Callable[[Any], Any], items: list[Any], repeats: int = BREAKDOWN_REPEATS) -> float:
    t0 = time.perf_counter()
    for _ in range(repeats):
        for x in items:
            fn(x)
    return (time.perf_counter() - t0) / (repeats * len(items)) * 1e6


def breakdown(seed: int) -> dict[str, float]:
    """Microseconds per call of the pieces that make one env decision."""
    states = recorded_states(BREAKDOWN_STATES, seed)
    gmap = states[0].gmap
    enc, codec = ObservationEncoder(gmap, states[0].config.rounds_per_phase), ActionCodec(gmap.board)
    legal = [legal_actions(s) for s in states]
    rng = random.Random(seed)
    picks = [(s, lg[rng.randrange(len(lg))]) for s, lg in zip(states, legal)]
    return {
        "engine legal_actions": per_call_us(legal_actions, states),
        "engine clone": per_call_us(lambda s: s.clone(keep_events=False), states),
        "engine clone + apply_action": per_call_us(lambda p: apply_action(p[0].clone(keep_events=False), p[1]), picks),
        "observation encode": per_call_us(lambda s: enc.encode(s, s.current_player if s.current_player >= 0 else 0), states),
        "mask fill": per_call_us(codec.new_mask, legal),
    }


def go_env() -> Any | None:
    try:
        from pettingzoo.classic import go_v5
    except ImportError as err:
        print(f"go_v5 skipped: {err} (install pygame-ce, PettingZoo's 'classic' extra)")
        return None
    return go_v5.env(board_size=GO_BOARD)


def interleaved_rates(steps: int, rounds: int, seed: int) -> dict[str, list[float]]:
    """Steps/s of each loop, measured in alternating rounds so that a shared machine's load
    falls on all of them alike."""
    vig, go = aec_env(num_players=2, seed=seed), go_env()
    per_round = max(steps // rounds, 1)
    rates: dict[str, list[float]] = {"vigtavl": [], "go": [], "engine": [], "engine_games": []}
    for r in range(rounds):
        secs, _ = aec_loop(vig, per_round, seed + r)
        rates["vigtavl"].append(per_round / secs)
        if go is not None:
            secs, _ = aec_loop(go, per_round, seed + r)
            rates["go"].append(per_round / secs)
        secs, done, games = engine_loop(per_round, seed + r)
        rates["engine"].append(done / secs)
        rates["engine_games"].append(games / secs)
    return rates


def main(argv: list[str] | None = None) -> dict[str, Any]:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--steps", type=int, default=20000, help="decisions per loop, over all rounds")
    ap.add_argument("--rounds", type=int, default=5, help="alternating measurement rounds")
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--profile", action="store_true", help="cProfile the Vigtavl AEC loop")
    args = ap.parse_args(argv)
    rates = interleaved_rates(args.steps, args.rounds, args.seed)
    best = {k: max(v) for k, v in rates.items() if v}
    print(f"best of {args.rounds} alternating rounds, {args.steps // args.rounds} decisions each "
          f"({compiled.core_summary()}):")
    print(f"vigtavl_v2 2p AEC loop: {best['vigtavl']:8.0f} steps/s")
    if "go" in best:
        ratios = sorted(v / g for v, g in zip(rates["vigtavl"], rates["go"]))
        print(f"go_v5 9x9 AEC loop:     {best['go']:8.0f} steps/s")
        print(f"ratio vigtavl / go:     {best['vigtavl'] / best['go']:8.2f}x best/best, "
              f"{ratios[len(ratios) // 2]:.2f}x median per round (target >= 1.5x; issue 30 aims at 3x)")
    print(f"engine alone:           {best['engine']:8.0f} decisions/s, {best['engine_games']:.1f} games/s")
    print(f"env overhead:           {(1 / best['vigtavl'] - 1 / best['engine']) * 1e6:8.1f} us per decision "
          f"({(1 - best['vigtavl'] / best['engine']) * 100:.0f}% of the loop)")
    parts = breakdown(args.seed)
    for name, us in parts.items():
        print(f"  {name:28s} {us:8.1f} us")
    if args.profile:
        profile_loop(args.steps, args.seed)
    return {"rates": rates, "best": best, "breakdown": parts}


def profile_loop(steps: int, seed: int) -> None:
    prof = cProfile.Profile()
    env = aec_env(num_players=2, seed=seed)
    prof.runcall(aec_loop, env, steps, seed)
    out = io.StringIO()
    pstats.Stats(prof, stream=out).sort_stats("tottime").print_stats(25)
    print(out.getvalue())


if __name__ == "__main__":
    main()
