"""A game model's decision cost: ``ppo:MODEL`` (one pass of the actor) beside SB3's ``predict``.

    python -m tools.bench_model_player [--game thrones] [--model pretrained] [--positions 300] [--rounds 5]

Positions come from seeded random games of the game (setups and moves, each as its player's
view). Each round times, on the same positions and one torch thread, the project's player
(:class:`agents.game_ppo.PPOPlayer`) and then the peer, SB3's ``MaskablePPO.predict`` with the
action mask, deterministic, the way the player decided before; the round's ratio is the peer's
time over the player's, so the machine's load falls on both. It prints the medians and how many
decisions differ (the same decisions is the point: 0).
"""

from __future__ import annotations

import argparse
import statistics
import time

import numpy as np
import torch as th

from agents.game_ppo import PPOPlayer
from games.registry import load_game


def positions(game: str, count: int, seed: int = 0) -> list[tuple[object, list[int]]]:
    """``count`` (view, legal) pairs from random games on seeds ``seed``, ``seed + 1``, ..."""
    g, out, rng = load_game(game), [], np.random.default_rng(seed)
    s = g.new_state(g.check_players(None), seed)
    while len(out) < count:
        if s.is_over():
            seed += 1
            s = g.new_state(g.check_players(None), seed)
        legal = s.legal_actions()
        out.append((s.view_for(s.current_player()), legal))
        s.apply_action(int(rng.choice(legal)))
    return out


def main(argv: list[str] | None = None) -> None:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--game", default="thrones")
    p.add_argument("--model", default="pretrained")
    p.add_argument("--positions", type=int, default=300)
    p.add_argument("--rounds", type=int, default=5)
    args = p.parse_args(argv)
    th.set_num_threads(1)
    player = PPOPlayer(args.model, game=args.game)
    model, n = player.model, int(player.model.action_space.n)
    pos = positions(args.game, args.positions)
    inputs = []
    for view, legal in pos:
        mask = np.zeros(n, dtype=bool)
        mask[legal] = True
        inputs.append((view.observation(view.current_player())[None], mask[None]))
    ours, peer, ratios, differ = [], [], [], 0
    for _ in range(args.rounds):
        t0 = time.process_time()
        mine = [player(view, legal) for view, legal in pos]
        t1 = time.process_time()
        theirs = [int(model.predict(obs, action_masks=mask, deterministic=True)[0][0]) for obs, mask in inputs]
        t2 = time.process_time()
        ours.append(1000 * (t1 - t0) / len(pos))
        peer.append(1000 * (t2 - t1) / len(pos))
        ratios.append((t2 - t1) / (t1 - t0))
        differ = sum(a != b for a, b in zip(mine, theirs))
    print(f"{args.game} {args.model}: {len(pos)} positions, {args.rounds} rounds, CPU ms per decision (median)")
    print(f"  ppo:{args.model} (one pass of the actor): {statistics.median(ours):.3f}")
    print(f"  SB3 predict (the peer):              {statistics.median(peer):.3f}")
    print(f"  ratio peer / ours: {statistics.median(ratios):.2f}x (rounds {min(ratios):.2f}-{max(ratios):.2f}); "
          f"decisions that differ: {differ}")


if __name__ == "__main__":
    main()
