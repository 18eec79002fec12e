"""``make demo``: the project's main job in a few minutes -- train, evaluate, draw the curve.

::

    python -m training.demo [--config ppo_quick] [--games 40] [--set key=value ...]

1. ``vigtavl train`` on the quick config (PPO from scratch against random and greedy, on the
   batched vector env) into ``runs/demo-<time>/``;
2. ``vigtavl evaluate`` of its final model against random and greedy, seats rotated;
3. ``vigtavl plot`` of the run's learning curves into ``runs/demo-<time>/learning_curve.png``.

Nothing here is special to the demo: each step is the command a user would type, called in turn.
"""

from __future__ import annotations

import argparse
import time
from collections.abc import Sequence

QUICK = "ppo_quick"  # a shipped config (training/config.py)
OPPONENTS = ["random", "greedy"]


def main(argv: Sequence[str] | None = None) -> int:
    p = argparse.ArgumentParser(prog="python -m training.demo", description=__doc__.split("\n")[0])
    p.add_argument("--config", default=QUICK, help="training config: a file or a shipped config's name "
                                                   "(default: ppo_quick)")
    p.add_argument("--games", type=int, default=40, help="evaluation games per opponent (default 40)")
    p.add_argument("--workers", type=int, default=2, help="evaluation worker processes (default 2)")
    p.add_argument("--set", action="append", default=[], metavar="KEY=VALUE", help="config override")
    args = p.parse_args(argv)

    from training.config import load_config
    from training.evaluate import evaluate_model, evaluation_table
    from training.plot import plot_run
    from training.train import train

    cfg = load_config(args.config, [f"run_name=demo-{time.strftime('%Y%m%d-%H%M%S')}", *args.set])
    print(f"1/3 training on {args.config} ({cfg.total_timesteps:,} steps"
          + (f", cloning {cfg.pretrain.teacher} first" if cfg.pretrain.teacher else "") + ")", flush=True)
    start = time.perf_counter()
    run = train(cfg, config_name="demo")
    print(f"    trained in {time.perf_counter() - start:.0f} s: {run}", flush=True)

    model = run / "final_model.zip"  # what the run ended with (its curve shows the way there)
    print(f"\n2/3 evaluating {model} against {', '.join(OPPONENTS)} ({args.games} games each)", flush=True)
    results = evaluate_model(model, OPPONENTS, args.games, seed=1_000_000, workers=args.workers,
                             map=cfg.map, max_steps=cfg.max_steps)
    print(evaluation_table(model, results))

    curve = plot_run(run, run / "learning_curve.png")
    print(f"\n3/3 learning curves: {curve}")
    print(f"\nplay against it:  vigtavl play --opponent ppo:{model}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
