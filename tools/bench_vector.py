"""Vector environment speed: learner steps/s of 64 games in one process, beside a peer.

    python -m tools.bench_vector [--envs 64] [--seconds 2] [--rounds 3]

Random masked learner actions (one call per step for all games, a pick per row by Python's
``random``, as on the peer's side: a numpy ``Generator`` call costs about 2 us a pick) against
a random opponent, then against the greedy bot; between them, in alternating rounds so that the
machine's load hits all alike, PettingZoo's connect_four_v3 AEC loop with random masked actions
(the peer of ``shared/notes/performance-targets.md``). Medians of the rounds are printed.
"""

from __future__ import annotations

import argparse
import os
import random
import statistics
import time

import numpy as np
from tqdm import tqdm

from vigtavl_env import compiled
from vigtavl_env.codec import mask_indices
from vigtavl_env.vector import VigtavlVectorEnv

AIM_PEER_RATIO = 1.0  # issue 30's aims: 64 games vs random >= 1.0x the peer; greedy >= 0.5x random
AIM_GREEDY_RATIO = 0.5


def vector_rate(venv: VigtavlVectorEnv, seconds: float, rng: random.Random) -> float:
    """Learner steps/s (all rows of one step count) for about ``seconds``."""
    n, steps = venv.num_envs, 0
    t0 = time.process_time()
    while time.process_time() - t0 < seconds:
        masks = venv.action_masks()
        actions = np.empty(n, dtype=np.int64)
        for i in range(n):  # a uniform legal action per row
            legal = mask_indices(masks[i])
            actions[i] = legal[rng.randrange(legal.size)]
        venv.step(actions)
        steps += n
    return steps / (time.process_time() - t0)


def connect_four_rate(seconds: float, rng: random.Random) -> float | None:
    """PettingZoo connect_four_v3, random masked play through the AEC loop: steps/s (None when
    PettingZoo's classic games are not installed: they need pygame, the ``bench`` extra)."""
    try:
        from pettingzoo.classic import connect_four_v3
    except ImportError:
        return None

    env, steps = connect_four_v3.env(), 0
    t0 = time.process_time()
    while time.process_time() - t0 < seconds:
        env.reset(seed=rng.getrandbits(30))
        for agent in env.agent_iter():
            obs, _, term, trunc, _ = env.last()
            if term or trunc:
                env.step(None)
                continue
            legal = mask_indices(obs["action_mask"])
            env.step(int(legal[rng.randrange(len(legal))]))
            steps += 1
    return steps / (time.process_time() - t0)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="python -m tools.bench_vector", description=__doc__.split("\n\n")[0])
    ap.add_argument("--envs", type=int, default=64, help="games in the vector env (default 64)")
    ap.add_argument("--seconds", type=float, default=2.0, help="CPU-seconds per measurement (default 2)")
    ap.add_argument("--rounds", type=int, default=3, help="alternating rounds (default 3)")
    args = ap.parse_args(argv)
    if args.envs < 1 or args.seconds <= 0 or args.rounds < 1:
        ap.error("--envs, --seconds and --rounds must be positive")
    rng = random.Random(0)
    venvs = {name: VigtavlVectorEnv(num_envs=args.envs, opponents=[name], seed=0) for name in ("random", "greedy")}
    for v in venvs.values():
        v.reset()
    rates: dict[str, list[float]] = {"random": [], "greedy": [], "connect_four_v3": []}
    load0 = os.getloadavg()[0]
    with tqdm(total=args.rounds * 3, desc="rounds", unit="run", leave=False) as bar:
        for _ in range(args.rounds):
            for name, venv in venvs.items():
                rates[name].append(vector_rate(venv, args.seconds, rng))
                bar.update()
            peer = connect_four_rate(args.seconds, rng)
            if peer is not None:
                rates["connect_four_v3"].append(peer)
            bar.update()
    med = {k: statistics.median(v) for k, v in rates.items() if v}
    print(f"vector env, {args.envs} games in one process ({compiled.core_summary()}); per CPU-s, "
          f"median of {args.rounds} alternating rounds")
    print(f"  vs random opponent   {med['random']:>10,.0f} learner steps/s")
    ratio = med["greedy"] / med["random"]
    print(f"  vs greedy bot        {med['greedy']:>10,.0f} learner steps/s   greedy / random {ratio:.2f}x "
          f"(aim >= {AIM_GREEDY_RATIO}x: {_verdict(ratio >= AIM_GREEDY_RATIO)})")
    if "connect_four_v3" in med:
        peer = med["random"] / med["connect_four_v3"]
        print(f"  peer: connect_four_v3 AEC loop {med['connect_four_v3']:>10,.0f} steps/s "
              f"(vector env vs random / peer: {peer:.2f}x; aim >= {AIM_PEER_RATIO}x: {_verdict(peer >= AIM_PEER_RATIO)})")
    else:
        print("  peer: connect_four_v3 not installed, skipped: pip install -e '.[bench]' (it needs pygame)")
    print(f"  (load average {load0:.1f} at the start, {os.getloadavg()[0]:.1f} at the end, on {os.cpu_count()} cores)")
    return 0


def _verdict(ok: bool) -> str:
    return "ok" if ok else "missed"


if __name__ == "__main__":
    raise SystemExit(main())
