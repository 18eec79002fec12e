"""``vigtavl az bench``: self-play throughput with search, beside the project's search bot.

Both run in this process, one after the other, for the same wall time on the same games' seeds:

- **az self-play**: ``games`` games searched together by :class:`agents.gumbel.BatchedSearch`
  with ``simulations`` per decision (Gumbel noise on, as in training), the network on
  ``threads`` torch threads;
- **the search bot** (``search``, :mod:`agents.heuristic.search`, its default 8 simulations) playing both
  seats of one game after another.

The figure is decisions per second (every decision, forced ones included, as a game's length
counts them) and, for az, the positions searched (what the replay buffer gets) and the network
evaluations per second.
"""

from __future__ import annotations

import time
from dataclasses import dataclass

import torch as th

from agents.az import AZ_GAME, NetEvaluator, from_ppo, load_az_net
from agents.game_steps import steps_for
from agents.gumbel import BatchedSearch, SearchConfig
from agents.heuristic.search import DEFAULT_ITERATIONS, SearchAgent
from games import load_game

MAP = "duel"


@dataclass
class BenchRow:
    name: str
    seconds: float
    decisions: int
    searched: int
    evaluations: int

    def line(self) -> str:
        per = lambda x: x / max(self.seconds, 1e-9)  # noqa: E731
        return (f"{self.name:<34} {self.seconds:>6.1f} {self.decisions:>9} {per(self.decisions):>9.1f} "
                f"{per(self.searched):>9.1f} {per(self.evaluations):>9.0f}")


def _net(model: str):
    if model.startswith("ppo:"):
        from agents.ppo import load_model
        return from_ppo(load_model(model[4:])).eval()
    return load_az_net(model)


def bench(model: str, simulations: int, games: int, seconds: float, threads: int, seed: int = 0) -> list[BenchRow]:
    th.set_num_threads(threads)
    net = _net(model)
    game = load_game(AZ_GAME)
    steps = steps_for(game)
    new_game = steps.new_games(game, 2, seed, map=MAP)
    search = BatchedSearch(NetEvaluator(net), 2, SearchConfig(simulations=simulations), seed=seed, steps=steps)
    states = [new_game(seed + g) for g in range(games)]
    started = games
    decisions = searched = 0
    t0 = time.perf_counter()
    while time.perf_counter() - t0 < seconds:
        for k, (s, r) in enumerate(zip(states, search.run(states))):
            steps.apply(s, r.action, r.legal)
            decisions += 1
            searched += r.simulations > 0
            if steps.is_over(s):
                states[k] = new_game(seed + started)
                started += 1
    az = BenchRow(f"az self-play ({games} games, {simulations} sims)", time.perf_counter() - t0, decisions,
                  searched, search.evaluations)
    bot = SearchAgent(seed=seed)
    decisions = searched = 0
    s, g = new_game(seed), 1
    t0 = time.perf_counter()
    while time.perf_counter() - t0 < seconds:
        legal = steps.legal(s)
        steps.apply(s, bot.decide(s, legal), legal)
        decisions += 1
        searched += bot.last_simulations > 0
        if steps.is_over(s):
            s, g = new_game(seed + g), g + 1
    peer = BenchRow(f"search bot ({DEFAULT_ITERATIONS} sims, self-play)", time.perf_counter() - t0, decisions,
                    searched, 0)
    return [az, peer]


def bench_table(rows: list[BenchRow]) -> str:
    head = f"{'player':<34} {'s':>6} {'decisions':>9} {'dec/s':>9} {'srch/s':>9} {'evals/s':>9}"
    return "\n".join([head] + [r.line() for r in rows] + [
        "  dec/s: every decision (forced ones too); srch/s: decisions searched (az: positions for the "
        "buffer); evals/s: network positions evaluated; 2 players on duel, same process, one after the other"])
