"""``vigtavl evaluate``: a trained model against bots, with the match runner's statistics.

::

    vigtavl evaluate --model runs/<run>/best_model.zip --opponents random,greedy,search:200 --games 200

For each opponent, :func:`arena.vigtavl_match.run_match` plays ``games`` games between ``ppo:<model>``
and the opponent in every other seat, or a lineup in them (``greedy+aggressor``: one of each in a
3-player game) (seats rotated fairly; game ``g`` has seed ``seed + g``,
the same for every opponent), and the model's win rate comes with its 95% Wilson interval. The
model plays greedily (the most likely legal action), so equal seeds give equal numbers. With
``--search N`` the agent is ``ppo-search:<model>:N``: the search bot's simulations judge the
model's favourite actions beside the greedy heuristic's (:class:`agents.heuristic.ppo_search.PPOSearchAgent`).

During training both trainers evaluate through :func:`record_evaluation`: the eval opponents on
the same seeds every time, the best mean win rate kept as ``best_model.zip`` with ``best.json``.
While an evaluation plays, ``eval_under_way.json`` names its timesteps; a run stopped (or
killed) before it ends resumes from the checkpoint of those timesteps by playing it again
(:func:`interrupted_evaluation`).
"""

from __future__ import annotations

import json
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

from arena.vigtavl_match import DEFAULT_MAX_STEPS, AgentStats, MatchResult, run_match
from agents.ppo import load_model, model_players, resolve_model_path
from training.config import TrainConfig, opponent_seats
from training.files import copy_file, write_text
from training.logs import metric_name
from training.runs import BEST_FILE

EVAL_SEED_OFFSET = 1_000_000  # evaluation games in training use seeds far from the training games'
EVAL_UNDER_WAY = "eval_under_way.json"  # in the run folder while an evaluation plays: its timesteps


@dataclass
class OpponentResult:
    """The model against one opponent: the model's and the opponent's totals, and the match."""

    opponent: str
    model: AgentStats
    other: AgentStats
    match: MatchResult

    def line(self, width: int) -> str:
        lo, hi = self.model.ci
        return (f"{self.opponent:<{width}} {self.model.games:>6} {self.model.wins:>7.1f} "
                f"{100 * self.model.win_rate:>6.1f}  [{100 * lo:5.1f}, {100 * hi:5.1f}] "
                f"{self.model.mean_tokens:>7.2f} {self.other.mean_tokens:>7.2f} {self.model.mean_length:>7.1f}")


def evaluate_model(model_path: str | Path, opponents: Sequence[str], games: int, players: int | None = None,
                   seed: int = 0, workers: int = 1, map: str | None = None,
                   max_steps: int = DEFAULT_MAX_STEPS, progress: bool = True,
                   search: int | None = None, shielded: bool = False, sample: bool = False) -> list[OpponentResult]:
    """The model (a path or ``"pretrained"``) against each opponent spec in turn; with ``search``,
    the model's proposals searched with that many simulations a decision (``ppo-search``)."""
    path = resolve_model_path(model_path)
    if search is not None and search < 1:
        raise ValueError(f"search needs at least 1 simulation per decision, got {search}")
    spec = f"ppo:{path}" if search is None else f"ppo-search:{path}:{search}"
    if sample and search is None:
        spec += ":sample"  # the policy's own distribution, as it acts while training
    trained_for = model_players(load_model(path))  # refuses a model of another env version
    if players is not None and players != trained_for:
        raise ValueError(f"model {model_path} plays {trained_for}-player games, not {players}")
    players = players or trained_for
    if not opponents:
        raise ValueError("give at least one opponent (e.g. random,greedy)")
    lineups = [opponent_seats(opp, players) for opp in opponents]  # every spec checked before any game
    results = []
    for opp, seats in zip(opponents, lineups):
        match = run_match([spec] + seats, games, seed, workers=workers, num_players=players,
                          map=map, progress=progress, max_steps=max_steps, shielded=shielded)
        stats = {s.name: s for s in match.stats()}
        results.append(OpponentResult(opp, stats[spec], stats[seats[0]], match))
    return results


def evaluation_table(model_path: str | Path, results: Sequence[OpponentResult]) -> str:
    """One line per opponent: the model's games, wins, win% with its 95% CI, tokens, length."""
    width = max([len("opponent")] + [len(r.opponent) for r in results])
    head = (f"{'opponent':<{width}} {'games':>6} {'wins':>7} {'win%':>6}  {'95% CI':^14} "
            f"{'tokens':>7} {'opp tok':>7} {'length':>7}")
    first = results[0].match if results else None
    notes = [f"model {model_path}: its win rate against each opponent (a shared win counts 1/w), "
             "95% Wilson interval; tokens: mean victory tokens (model, opponent); length: decisions per game"]
    if first is not None:
        notes.append(f"{first.num_players} players, seats rotated, seeds {first.seed}..{first.seed + len(first.records) - 1} "
                     f"for every opponent, {sum(r.match.seconds for r in results):.1f} s")
    truncated = sum(r.model.truncated for r in results)
    if truncated:
        notes.append(f"warning: {truncated} games truncated at max_steps (no winner)")
    return "\n".join([head] + [r.line(width) for r in results] + ["  " + n for n in notes])


def summary(results: Sequence[OpponentResult]) -> dict[str, Any]:
    """The table as a dict (for JSON output)."""
    return {r.opponent: {"games": r.model.games, "wins": r.model.wins, "win_rate": r.model.win_rate,
                         "ci95": list(r.model.ci), "tokens": r.model.mean_tokens,
                         "opp_tokens": r.other.mean_tokens, "length": r.model.mean_length}
            for r in results}


# ------------------------------------------------------------------ during training
def best_so_far(run_dir: Path) -> float:
    """The best mean evaluation win rate a run recorded (best.json), or -1 before any."""
    best = run_dir / BEST_FILE
    return json.loads(best.read_text())["mean_win_rate"] if best.is_file() else -1.0


EvalGames = Callable[[TrainConfig, Path], tuple[dict[str, float], dict[str, float]]]


def play_vigtavl_evaluation(cfg: TrainConfig, path: Path) -> tuple[dict[str, float], dict[str, float]]:
    """Vigtavl's evaluation games of the model at ``path``: its win rate by eval opponent, and the
    other eval/* metrics (its mean tokens)."""
    results = evaluate_model(path, cfg.eval_opponents, games=cfg.eval_games, players=cfg.num_players,
                             seed=cfg.seed + EVAL_SEED_OFFSET, workers=cfg.eval_workers, map=cfg.map,
                             max_steps=cfg.max_steps, progress=False, shielded=True, sample=cfg.eval_sample)
    return ({r.opponent: r.model.win_rate for r in results},
            {f"eval/tokens_{metric_name(r.opponent)}": r.model.mean_tokens for r in results})


def record_evaluation(cfg: TrainConfig, run_dir: Path, path: Path, timesteps: int, best: float,
                      play: EvalGames = play_vigtavl_evaluation) -> tuple[dict[str, float], float]:
    """The model at ``path`` against each eval opponent (``play``: the games, Vigtavl's by
    default); a new best (mean win rate) is copied to best_model.zip with best.json. Returns the
    eval/* metrics and the best so far."""
    under_way = run_dir / EVAL_UNDER_WAY
    write_text(under_way, json.dumps({"timesteps": timesteps}))
    win_rates, extra = play(cfg, path)
    metrics = {f"eval/win_rate_{metric_name(opp)}": rate for opp, rate in win_rates.items()} | extra
    mean = float(np.mean(list(win_rates.values())))
    metrics["eval/mean_win_rate"] = mean
    if mean > best:
        best = mean
        copy_file(path, run_dir / "best_model.zip")
        write_text(run_dir / BEST_FILE, json.dumps(
            {"mean_win_rate": mean, "timesteps": timesteps, "win_rates": win_rates}, indent=1))
    under_way.unlink()
    return metrics, best


def interrupted_evaluation(run_dir: Path, timesteps: int) -> bool:
    """Whether the run stopped during its evaluation at ``timesteps``: a resume from there plays
    it first (a resume from an earlier checkpoint reaches it again on its own)."""
    try:
        return json.loads((run_dir / EVAL_UNDER_WAY).read_text())["timesteps"] == timesteps
    except (OSError, ValueError, KeyError, TypeError):  # none under way (or a file no one could read)
        return False
