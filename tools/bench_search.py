"""Search bot speed: CPU seconds per game and per decision at its default budget, with a digest of
its decisions, beside peers measured in the same run.

    python -m tools.bench_search [--games K] [--seed S] [--agents search,greedy] [--expect DIGEST]
                                  [--no-peer]                               (also ``make bench``)

It plays ``K`` seeded games of ``search`` (the default budget) against ``greedy`` through the
project's match runner (``arena.vigtavl_match``: the games, seats and agent seeds of ``vigtavl match
--agents search,greedy --games K --seed S``), one game at a time in this process, and measures
CPU time (``time.process_time``): the whole game (environment, observations and both bots), and
each bot's ``act`` calls, per game and per decision; for the search bot also per searched
decision (one where it ran simulations; the others are answered by its policy at once) and per
simulation.

Peers in the same run, so that a busy machine shows in them too:

* the greedy bot's own CPU time in the same games (the policy the search bot's simulations run);
* OpenSpiel's MCTS (``open_spiel.python.algorithms.mcts``: UCT in pure Python with random
  rollouts over OpenSpiel's C++ connect four through ``pyspiel``), one fixed unit of work run
  between the timed bot's decisions (after every ``PEER_EVERY``-th, not counted in the bot's or
  the game's time): choosing the opening move with ``PEER_SIMULATIONS`` simulations, its random
  stream reseeded each time (``PEER_SEED``), so every unit does the same work. It is Python
  search over a compiled game that this project's code does not change, measured through the
  same seconds as the bot: the load of the moment falls on both, and the ratio (the bot's CPU-s
  per game over the peer's CPU-s per unit: a game's cost in MCTS moves) compares runs made on
  differently loaded machines. ``--no-peer`` leaves it out; without ``open-spiel`` installed it
  is skipped with one line saying how to install it.

Same decisions: the digest is the SHA-256 of the games' decision lists (engine codes, in game
order) and final-state digests. A faster core must print the digest recorded for the baseline
(``docs/benchmarks.md``); ``--expect DIGEST`` checks it and exits with status 1 when
it differs. The default command also prints a line against that baseline: the same decisions or
not, and how many times faster the search bot is per game, in CPU-s and in peer units.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import statistics
import sys
import time
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from arena.vigtavl_match import GameJob, agent_seed, make_env, make_player, match_jobs, parse_agents, run_game
from arena.records import GameRecord

DEFAULT_AGENTS = "search,greedy"
DEFAULT_GAMES = 4
PEER_GAME = "connect_four"
PEER_SIMULATIONS = 50  # MCTS simulations per peer unit (about 13 CPU-ms on the 2-core machine)
PEER_UCT_C = 2.0
PEER_SEED = 3
PEER_EVERY = 4  # a peer unit after every 4th decision of the timed bot
# Issue #15's BEFORE figures for the default command (commit fe0daf9, compiled core; docs/benchmarks.md):
# the decisions' digest, the search bot's CPU-s per game and its cost in peer units.
BASELINE_DIGEST = "5ac41cadec379e82c62184c35205c7def4e9b3bd7ae366d3832b384b4e48bca3"
BASELINE_CPU_PER_GAME = 4.5
BASELINE_PEER_UNITS = 350


class MCTSPeer:
    """The peer's unit of work: OpenSpiel MCTS choosing connect four's opening move, reseeded
    each time (the same simulations, the same work); its CPU seconds add up in ``cpu``."""

    def __init__(self) -> None:
        import pyspiel
        from open_spiel.python.algorithms import mcts
        game = pyspiel.load_game(PEER_GAME)
        self.rng = np.random.RandomState(PEER_SEED)
        evaluator = mcts.RandomRolloutEvaluator(n_rollouts=1, random_state=self.rng)
        self.bot = mcts.MCTSBot(game, PEER_UCT_C, PEER_SIMULATIONS, evaluator, random_state=self.rng, solve=True)
        self.state = game.new_initial_state()
        self.cpu = 0.0
        self.units = 0

    def unit(self) -> None:
        self.rng.seed(PEER_SEED)
        c0 = time.process_time()
        self.bot.step(self.state)
        self.cpu += time.process_time() - c0
        self.units += 1


def mcts_peer() -> MCTSPeer | None:
    """The MCTS peer, or None without ``open-spiel``."""
    try:
        return MCTSPeer()
    except ImportError:
        return None


class Timed:
    """A player whose decisions are counted and timed in CPU seconds; with a ``peer``, one
    peer unit runs after every ``PEER_EVERY``-th decision (outside the agent's time)."""

    def __init__(self, agent: Any, peer: MCTSPeer | None = None) -> None:
        self.agent = agent
        self.peer = peer
        self.cpu = 0.0
        self.decisions = 0
        self.searched = 0  # decisions where the agent ran simulations (search bots)

    def __call__(self, view: Any, legal: list[int]) -> int:
        c0 = time.process_time()
        action = self.agent(view, legal)
        self.cpu += time.process_time() - c0
        self.decisions += 1
        self.searched += getattr(getattr(self.agent, "agent", None), "last_simulations", 0) > 0  # a SeatPlayer's bot
        if self.peer is not None and self.decisions % PEER_EVERY == 0:
            self.peer.unit()
        return action


@dataclass
class TimedGame:
    """One game: its record, its CPU seconds (the peer's left out), per seat the bot's timing,
    and the peer's CPU seconds and units run during it."""

    record: GameRecord
    cpu: float
    seats: list[Timed]
    peer_cpu: float = 0.0
    peer_units: int = 0


def play_timed(env: Any, job: GameJob, peer: MCTSPeer | None = None, timed_seat_spec: str = "") -> TimedGame:
    """Play ``job`` as ``arena.vigtavl_match.play_game`` does (same resets, agents and seeds), timed;
    ``peer`` runs between the decisions of the seat(s) playing ``timed_seat_spec``."""
    peer_cpu0, peer_units0 = (peer.cpu, peer.units) if peer else (0.0, 0)
    c0 = time.process_time()
    env.reset(seed=job.seed)
    seeds = [agent_seed(job.seed, i) for i in range(len(job.seats))]
    players = [make_player(spec, seed=s) for spec, s in zip(job.seats, seeds)]
    timed = [Timed(a, peer if spec == timed_seat_spec else None) for a, spec in zip(players, job.seats)]
    record = run_game(env, timed, job, seeds)
    cpu = time.process_time() - c0
    if peer is None:
        return TimedGame(record, cpu, timed)
    peer_cpu = peer.cpu - peer_cpu0
    return TimedGame(record, cpu - peer_cpu, timed, peer_cpu, peer.units - peer_units0)


def decisions_digest(records: Sequence[GameRecord]) -> str:
    """SHA-256 over every game's decisions (engine codes) and final-state digest, in game order."""
    data = [[r.game, r.seed, r.seats, r.decisions, r.final_digest] for r in records]
    return hashlib.sha256(json.dumps(data).encode()).hexdigest()


def run(agents: list[str], games: int, seed: int, peer: bool) -> list[TimedGame]:
    """The timed games, one at a time, with the peer's units between the first agent's decisions."""
    jobs = match_jobs(agents, games, seed, num_players=len(agents))
    env = make_env(jobs[0])
    mcts = mcts_peer() if peer else None
    if peer and mcts is None:
        print("OpenSpiel MCTS peer skipped: open-spiel is not installed (pip install open-spiel, "
              "or pip install -e '.[bench]')")
    out = []
    for job in jobs:
        tg = play_timed(env, job, mcts, agents[0])
        out.append(tg)
        line = f"  game {job.game} (seed {job.seed}, {','.join(job.seats)}): {tg.record.n_decisions} decisions, "
        line += f"{tg.cpu:.2f} CPU-s"
        if tg.peer_units:
            line += f"; peer {1000 * tg.peer_cpu / tg.peer_units:.1f} ms per MCTS unit ({tg.peer_units} units)"
        print(line, flush=True)
    return out


def per_agent(played: list[TimedGame]) -> dict[str, dict[str, float]]:
    """Per agent spec: seats played, CPU seconds, decisions, searched decisions, simulations."""
    out: dict[str, dict[str, float]] = {}
    for tg in played:
        for spec, t in zip(tg.record.seats, tg.seats):
            d = out.setdefault(spec, dict.fromkeys(("games", "cpu", "decisions", "searched", "simulations"), 0.0))
            d["games"] += 1
            d["cpu"] += t.cpu
            d["decisions"] += t.decisions
            d["searched"] += t.searched
            d["simulations"] += getattr(getattr(t.agent, "agent", t.agent), "simulations", 0)  # a SeatPlayer's bot
    return out


def report(played: list[TimedGame], agents: list[str]) -> float | None:
    """Print the per-game and per-decision figures; the ratio to the peer (None without it)."""
    game_cpu = [tg.cpu for tg in played]
    length = statistics.fmean(tg.record.n_decisions for tg in played)
    print(f"\nper game (mean of {len(played)}): {statistics.fmean(game_cpu):.2f} CPU-s for the whole game "
          f"(median {statistics.median(game_cpu):.2f}), {length:.1f} decisions")
    for spec, d in per_agent(played).items():
        per_decision = 1000 * d["cpu"] / max(d["decisions"], 1)
        line = (f"  {spec:<10} {d['cpu'] / d['games']:7.2f} CPU-s per game, {per_decision:7.2f} ms per decision "
                f"({d['decisions'] / d['games']:.1f} a game)")
        if d["searched"] and d["simulations"]:
            line += (f"; {1000 * d['cpu'] / d['searched']:.1f} ms per searched decision "
                     f"({d['searched'] / d['games']:.1f} a game), {1000 * d['cpu'] / d['simulations']:.2f} ms per "
                     f"simulation ({d['simulations'] / d['searched']:.1f} per searched decision)")
        print(line)
    return report_peer(played, agents[0])


def report_peer(played: list[TimedGame], first: str) -> float | None:
    """Print the peer's CPU per unit and the timed bot's cost in peer units; that ratio (None
    without the peer)."""
    games = [tg for tg in played if tg.peer_units]
    if not games:
        return None
    mine = [tg.seats[tg.record.seats.index(first)].cpu for tg in games]
    unit_ms = [1000 * tg.peer_cpu / tg.peer_units for tg in games]
    unit_all = 1000 * sum(tg.peer_cpu for tg in games) / sum(tg.peer_units for tg in games)
    peer_ratio = 1000 * statistics.fmean(mine) / unit_all
    print(f"  peer: OpenSpiel MCTS, {PEER_GAME}'s opening move with {PEER_SIMULATIONS} simulations after every "
          f"{PEER_EVERY}th {first} decision: {unit_all:.1f} ms per unit (games: "
          + ", ".join(f"{u:.1f}" for u in unit_ms) + ")")
    print(f"  ratio {first} CPU-s per game / peer unit: {peer_ratio:.0f} MCTS units a game (games: "
          + ", ".join(f"{1000 * m / u:.0f}" for m, u in zip(mine, unit_ms)) + ")")
    return peer_ratio


def report_baseline(played: list[TimedGame], first: str, digest: str, peer_ratio: float | None) -> None:
    """The default command against the search bot's recorded baseline figures: same decisions? how much faster?"""
    same = "the same decisions" if digest == BASELINE_DIGEST else "DIFFERENT decisions"
    cpu = statistics.fmean(tg.seats[tg.record.seats.index(first)].cpu for tg in played)
    line = (f"against the recorded baseline (fe0daf9): {same}; {BASELINE_CPU_PER_GAME / cpu:.2f}x faster "
            f"per game in CPU-s")
    if peer_ratio is not None:
        line += f", {BASELINE_PEER_UNITS / peer_ratio:.2f}x in peer units"
    print(line + " (aim: >= 3x, the same decisions)")


def main(argv: list[str] | None = None) -> dict[str, Any]:
    ap = argparse.ArgumentParser(description="Search bot CPU time per game and decision, beside peers.")
    ap.add_argument("--games", type=int, default=DEFAULT_GAMES, help="seeded games (seeds S..S+K-1)")
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--agents", default=DEFAULT_AGENTS, help="one spec per seat, the timed bot first")
    ap.add_argument("--expect", metavar="DIGEST", help="exit 1 unless the decisions' digest is this")
    ap.add_argument("--no-peer", action="store_true", help="leave out the OpenSpiel MCTS peer")
    args = ap.parse_args(argv)
    if args.games < 1:
        ap.error("--games must be at least 1")
    try:
        agents = parse_agents(args.agents)
    except ValueError as e:
        ap.error(str(e))
    load_at_start = _load()
    print(f"{' vs '.join(agents)}: {args.games} games, seeds {args.seed}..{args.seed + args.games - 1}, "
          "one at a time in this process")
    played = run(agents, args.games, args.seed, peer=not args.no_peer)
    from vigtavl_env import compiled
    print(f"({compiled.core_summary()})")
    peer_ratio = report(played, agents)
    digest = decisions_digest([tg.record for tg in played])
    print(f"decisions digest: {digest}")
    if (args.agents, args.games, args.seed) == (DEFAULT_AGENTS, DEFAULT_GAMES, 0):
        report_baseline(played, agents[0], digest, peer_ratio)
    print(f"(load average {load_at_start} at the start, {_load()} at the end, on {os.cpu_count() or 1} cores)")
    if args.expect and args.expect != digest:
        print(f"different decisions: expected digest {args.expect}", file=sys.stderr)
        sys.exit(1)
    return {"games": played, "peer_ratio": peer_ratio, "digest": digest}


def _load() -> str:
    """The 1-minute load average, as text ("?" where the system has none)."""
    return f"{os.getloadavg()[0]:.1f}" if hasattr(os, "getloadavg") else "?"


if __name__ == "__main__":
    main()
