"""Evaluators of ``vigtavl az train --ray``: the newest network against a fixed panel, and the
gate that names the best network so far.

- :class:`EvalWorker` (a Ray actor in a run) plays one pairing of ``ray.eval_chunk`` games with
  the match runner, seats rotated, on seeds apart from self-play's (``EVAL_SEED_OFFSET`` and on),
  the networks sent as payloads and written to its own temporary folder (a cluster's nodes
  share no disk).
- :func:`next_pairing` takes turns: every other call plays the gate's candidate against the best
  network so far, the others the newest network against the panel members in turn
  (``ray.panel``: ``ppo:pretrained``, the search bot, greedy by default).
- :func:`gate_result` counts a candidate's games against the best; it decides only once the
  candidate has ``ray.gate_games`` of them (400 by default): at ``ray.gate`` or more of the wins
  it becomes the best (generations/gen_<v>.pt, best.json)."""

from __future__ import annotations

import tempfile
from pathlib import Path
from typing import Any

import torch as th

from arena.vigtavl_match import run_match
from training.az import EVAL_SEED_OFFSET
from training.az_config import AZConfig
from training.az_ray.learner import LoopProgress

BEST = "best"


class EvalWorker:
    """Plays pairings for the driver (see the module docstring)."""

    def __init__(self, cfg: AZConfig) -> None:
        th.set_num_threads(1)
        self.cfg = cfg
        self.dir = Path(tempfile.mkdtemp(prefix="vigtavl-az-eval-"))

    def _spec(self, weights: tuple[int, dict[str, Any]]) -> str:
        version, payload = weights
        path = self.dir / f"v{version}.pt"
        if not path.exists():
            th.save(payload, path)
        return f"az:{path}"

    def play(self, me: tuple[int, dict[str, Any]], opponent: str | tuple[int, dict[str, Any]], games: int,
             seed: int) -> dict[str, Any]:
        """``me`` against ``opponent`` (a spec, or another network's weights) in every other seat:
        its wins (a shared win counts its share) out of ``games``."""
        cfg = self.cfg
        mine = self._spec(me)
        theirs = opponent if isinstance(opponent, str) else self._spec(opponent)
        match = run_match([mine] + [theirs] * (cfg.num_players - 1), games, seed, workers=1,
                          num_players=cfg.num_players, map=cfg.map, progress=False, max_steps=cfg.max_steps)
        stats = {s.name: s for s in match.stats()}
        return {"version": me[0], "games": stats[mine].games, "wins": stats[mine].wins}


def next_pairing(prog: LoopProgress, panel: list[str]) -> str:
    """The opponent of the next chunk: :data:`BEST` (the gate's: candidate against the best) on
    every other chunk while there is a candidate, else the panel in turn."""
    k = prog.eval_chunks
    gating = prog.candidate > prog.generation
    if gating and k % 2 == 0:
        return BEST
    return panel[(k // 2 if gating else k) % len(panel)] if panel else BEST


def open_gate(prog: LoopProgress, newest: int) -> bool:
    """The newest version becomes the gate's candidate when there is none; whether it did."""
    if prog.candidate <= prog.generation and newest > prog.generation:
        prog.candidate, prog.gate_games, prog.gate_wins = newest, 0, 0.0
        return True
    return False


def gate_result(prog: LoopProgress, cfg: AZConfig, version: int, games: int, wins: float) -> bool | None:
    """Count a chunk of the candidate against the best: None while undecided (fewer than
    ``ray.gate_games`` games); else True when it became the best, False when it was turned down
    (either way the gate is free for the next candidate)."""
    if version != prog.candidate:
        return None  # a chunk of a candidate already decided (a resume)
    prog.gate_games += games
    prog.gate_wins += wins
    if prog.gate_games < cfg.ray.gate_games:
        return None
    won = prog.gate_wins / prog.gate_games >= cfg.ray.gate
    if won:
        prog.generation = prog.candidate
    prog.candidate = -1
    return won


def eval_seed(cfg: AZConfig, prog: LoopProgress) -> int:
    """The next chunk's first game seed: past every self-play seed (those count from cfg.seed up)."""
    return cfg.seed + EVAL_SEED_OFFSET + prog.eval_chunks * cfg.ray.eval_chunk
