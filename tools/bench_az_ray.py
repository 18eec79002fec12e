"""The AlphaZero loop on Ray: searched positions per second, the learner's share, the policy lag.

::

    nice -n 15 python -m tools.bench_az_ray --actors 1 --seconds 300
    nice -n 15 python -m tools.bench_az_ray --actors 2 --seconds 300

Runs the real loop (``training.az_ray.loop.train_az_ray``: a private local Ray instance of
``max(2, actors)`` CPUs, the learner in this process, no evaluators) for ``--seconds`` from
``configs/az.yaml`` with the network of ``--model`` (default: ``ppo:pretrained`` converted), in
a temporary run folder, and reads its progress.csv: searched positions per second (what the
actors say they searched, games under way included; the rows before the first search left out:
Ray and the actors starting), the share of wall time the learner spent in updates, and the mean
policy lag of the positions that came in (learner version at arrival minus the version that
searched them; none when no game ended). It prints the machine's load (``os.getloadavg``)
before and after: the machine may be shared, and the figures are only comparable between runs
made back to back.
"""

from __future__ import annotations

import argparse
import csv
import os
import tempfile
from pathlib import Path

from training.az_config import AZConfig
from training.config import load_config


def mean(rows: list[dict[str, str]], key: str) -> float | None:
    vals = [float(r[key]) for r in rows if r.get(key) not in (None, "")]
    return sum(vals) / len(vals) if vals else None


def bench(actors: int, seconds: float, model: str, simulations: int, parallel: int, extra: list[str]) -> dict:
    from training.az_ray.loop import train_az_ray
    folder = Path(tempfile.mkdtemp(prefix="bench-az-ray-"))
    cfg = load_config("az", [f"start_from={model}", f"search.simulations={simulations}", f"parallel_games={parallel}",
                             f"ray.actors={actors}", "ray.evaluators=0", f"ray.max_minutes={seconds / 60}",
                             "ray.log_seconds=15", f"run_dir={folder}", "run_name=bench", "torch_threads=1",
                             "checkpoint_minutes=0", *extra], cls=AZConfig)
    before = os.getloadavg()
    run = train_az_ray(cfg, progress=False, num_cpus=max(2, actors))
    after = os.getloadavg()
    rows = [r for r in csv.DictReader((run / "progress.csv").open()) if r.get("selfplay/searched_per_s")]
    first = next((i for i, r in enumerate(rows) if float(r["selfplay/searched_per_s"]) > 0), len(rows))
    steady = rows[first + 1:]  # the row with the first searches covers the start-up too
    last = rows[-1] if rows else {}
    return {"actors": actors, "searched_per_s": mean(steady, "selfplay/searched_per_s"),
            "learner_share": mean(steady, "learner/share"), "lag": mean(steady, "lag/mean_versions"),
            "games": last.get("selfplay/games"), "updates": last.get("learner/updates"),
            "version": last.get("learner/version"), "rows": len(steady), "load_before": before, "load_after": after,
            "run": str(run)}


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--actors", type=int, default=1)
    p.add_argument("--seconds", type=float, default=300.0)
    p.add_argument("--model", default="pretrained", help="start_from: a PPO model name or .zip, or an az .pt")
    p.add_argument("--simulations", type=int, default=16)
    p.add_argument("--parallel", type=int, default=16, help="games each actor searches together")
    p.add_argument("--set", action="append", default=[], help="another config override (KEY=VALUE)")
    args = p.parse_args()
    if args.actors < 1 or args.seconds <= 0:
        p.error("--actors must be >= 1 and --seconds > 0")
    r = bench(args.actors, args.seconds, args.model, args.simulations, args.parallel, args.set)
    fmt = lambda x, f: "-" if x is None else format(x, f)  # noqa: E731
    print(f"actors {r['actors']}: {fmt(r['searched_per_s'], '.1f')} searched positions/s over {r['rows']} rows of 15 s; "
          f"learner {fmt(r['learner_share'] and 100 * r['learner_share'], '.1f')}% of wall time; "
          f"policy lag {fmt(r['lag'], '.2f')} versions; {r['games']} games, {r['updates']} updates, version {r['version']}; "
          f"load average before {r['load_before'][0]:.2f}, after {r['load_after'][0]:.2f}; run {r['run']}")


if __name__ == "__main__":
    main()
