"""Vigtavl's round robin: every combination of ``num_players`` distinct agents plays
``games_per_pairing`` games with seats rotated (``arena.vigtavl_match.seat_orders``). Game ``g`` of
every pairing has seed ``seed + g``, so all pairings see the same game seeds. Stopped by Ctrl-C
or SIGTERM, it raises ``arena.vigtavl_match.RunInterrupted`` whose ``result`` is the tournament of the
games finished by then, marked partial. The ratings are :mod:`arena.ratings`'.
"""

from __future__ import annotations

import itertools
import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from arena.vigtavl_match import (
    DEFAULT_MAX_STEPS, SCORING, RunInterrupted, agent_stats, check_agents, make_env, match_jobs, play_jobs, stats_table,
)
from arena.ratings import Rating, h2h_table, head_to_head, rating_table, ratings
from arena.records import GameRecord, partial_fields, results_file, save_results


@dataclass
class TournamentResult:
    """A round robin: its settings and every game's record (grouped by pairing)."""

    agents: list[str]
    num_players: int
    games_per_pairing: int
    seed: int
    map: str | None
    pairings: list[list[str]] = field(default_factory=list)
    records: list[GameRecord] = field(default_factory=list)
    seconds: float = 0.0
    planned: int | None = None  # an interrupted tournament: the games it was to play (None: complete)

    def ratings(self) -> list[Rating]:
        return ratings(self.records, self.agents)

    def table(self) -> str:
        n = len(self.pairings)
        played = f" (interrupted: {len(self.records)} of {self.planned} games played)" if self.planned else ""
        return "\n".join([
            f"round robin: {n} pairing{'s' if n != 1 else ''} x {self.games_per_pairing} games, "
            f"{self.num_players} players, seeds {self.seed}..{self.seed + self.games_per_pairing - 1} "
            f"per pairing, {self.seconds:.1f} s{played}",
            "", "ratings (Elo: Bradley-Terry fit, ±95%; mu/sigma: Weng-Lin Plackett-Luce):",
            rating_table(self.ratings(), {s.name: s.games for s in agent_stats(self.records)}),
            "", "head to head (row's % of pairwise token contests against column, ties half):",
            h2h_table(head_to_head(self.records, self.agents)),
            "", "per agent (" + SCORING + "):",
            stats_table(agent_stats(self.records, self.agents)),
        ])

    def to_dict(self) -> dict[str, Any]:
        return results_file("tournament", self.records, agents=self.agents, num_players=self.num_players,
                            games_per_pairing=self.games_per_pairing, seed=self.seed, map=self.map,
                            scoring=SCORING, seconds=self.seconds, pairings=self.pairings,
                            ratings=[vars(r) | {"ordinal": r.ordinal} for r in self.ratings()],
                            **partial_fields(len(self.records), self.planned))

    def save(self, path: str | Path) -> None:
        save_results(self.to_dict(), path)


def run_tournament(agents: Sequence[str], games_per_pairing: int, seed: int, workers: int = 1,
                   num_players: int = 2, map: str | None = None, progress: bool = True,
                   max_steps: int = DEFAULT_MAX_STEPS, rules: dict[str, Any] | None = None) -> TournamentResult:
    """Round robin over every combination of ``num_players`` distinct agents (module doc)."""
    agents = list(dict.fromkeys(agents))
    if len(agents) < num_players:
        raise ValueError(f"a {num_players}-player tournament needs at least {num_players} distinct "
                         f"agents, got {len(agents)} ({', '.join(agents)})")
    check_agents(agents)
    pairings = [list(c) for c in itertools.combinations(agents, num_players)]
    jobs = []
    for p, lineup in enumerate(pairings):
        jobs += match_jobs(lineup, games_per_pairing, seed, num_players, map, max_steps, rules,
                           first_game=p * games_per_pairing)
    start = time.perf_counter()
    if jobs:
        make_env(jobs[0])  # the map and the options, checked before any game is played
    try:
        records = play_jobs(jobs, workers, progress)
    except RunInterrupted as stop:  # the games finished so far, for the caller to keep
        stop.result = TournamentResult(agents, num_players, games_per_pairing, seed, map, pairings, stop.records,
                                       time.perf_counter() - start, planned=len(jobs))
        raise
    return TournamentResult(agents, num_players, games_per_pairing, seed, map, pairings, records,
                            time.perf_counter() - start)
