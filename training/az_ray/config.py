"""The ``ray:`` group of an az config: what ``vigtavl az train --ray`` adds to the generation
loop's settings (training/az_config.py). The generation loop ignores it; the Ray loop ignores
the generation loop's ``generations``, ``games_per_generation``, ``updates_per_generation``,
``eval_games``, ``gate`` and ``eval_opponents`` (its own are below)."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Literal

VALUE_EXTRAS = ("none", "search", "margin")
# The panel when none is given: the shipped PPO network for the player count and the bots the
# issue's figures name (the best network so far always joins it).
DEFAULT_PANELS = {2: ["ppo:pretrained", "search", "greedy"],
                  3: ["ppo:pretrained-3p", "greedy", "aggressor"],
                  4: ["ppo:pretrained-4p", "greedy", "aggressor", "builder"]}


@dataclass
class RayLoopConfig:
    """Self-play actors, a learner and evaluators on Ray (training/az_ray/)."""

    actors: int = 2
    """Self-play actors (Ray actors; each searches parallel_games games together)."""
    actor_cpus: float = 0.75
    """CPUs Ray reserves for each self-play actor (2 x 0.75 + an evaluator's 0.5: the default 2 CPUs)."""
    actor_gpus: float = 0.0
    """GPUs Ray reserves for each self-play actor (a share, e.g. 0.25); above 0 its network runs there."""
    games_per_task: int = 16
    """Game seeds handed to an actor per call (it plays parallel_games of them at a time)."""
    max_restarts: int = 3
    """Times Ray restarts a failed actor; its games are played again from their seeds."""
    weights_poll_seconds: float = 2.0
    """An actor asks for newer weights between moves at most this often."""
    samples_per_position: float = 4.0
    """The learner's cap: minibatch samples per new position (KataGo: 4); it waits for self-play past it."""
    min_buffer: int = 512
    """Positions in the buffer before the first update."""
    publish_every: int = 20
    """Updates between published weights (each a new version number)."""
    playout_fraction: float = 1.0
    """Playout-cap randomisation: the share of decisions searched with search.simulations; only
    they become training positions. The rest get fast_simulations (1.0: every decision full)."""
    fast_simulations: int = 4
    """Simulations of the other decisions (they choose the move, and teach nothing)."""
    value_extra: Literal["none", "search", "margin"] = "none"
    """An extra value target mixed into the game's result: the search's root value, or the final
    token margin (own tokens minus the best other's, / 10, clipped to [-1, 1])."""
    value_extra_weight: float = 0.0
    """The extra target's weight: value target = (1 - w) * result + w * extra."""
    evaluators: int = 1
    """Evaluator actors (0: no evaluation, no gate)."""
    evaluator_cpus: float = 0.5
    """CPUs Ray reserves for each evaluator."""
    panel: list[str] = field(default_factory=list)
    """Agent specs the newest network plays besides the best network so far (empty: the
    player count's default, DEFAULT_PANELS)."""
    eval_chunk: int = 20
    """Games per evaluation call (seats rotated); pairings take turns, every other one the gate's."""
    gate_games: int = 400
    """Games a candidate plays against the best network so far before it may replace it."""
    gate: float = 0.55
    """The win share over those games a candidate needs to become the best."""
    max_minutes: float = 0.0
    """Wall-clock minutes after which the run saves and ends (0: no bound)."""
    max_positions: int = 0
    """Training positions after which the run saves and ends (0: no bound)."""
    log_seconds: float = 30.0
    """Seconds between rows of progress.csv (throughput, lag, losses)."""

    def __post_init__(self) -> None:
        for name in ("actors", "games_per_task", "publish_every", "fast_simulations", "eval_chunk", "gate_games"):
            if getattr(self, name) < 1:
                raise ValueError(f"{name} must be >= 1, got {getattr(self, name)!r}")
        for name in ("actor_cpus", "actor_gpus", "max_restarts", "weights_poll_seconds", "min_buffer", "evaluators",
                     "evaluator_cpus", "max_minutes", "max_positions"):
            if getattr(self, name) < 0:
                raise ValueError(f"{name} must be >= 0, got {getattr(self, name)!r}")
        if not self.samples_per_position > 0:
            raise ValueError(f"samples_per_position must be > 0, got {self.samples_per_position!r}")
        if not 0.0 < self.playout_fraction <= 1.0:
            raise ValueError(f"playout_fraction must be in (0, 1], got {self.playout_fraction!r}")
        for name in ("value_extra_weight", "gate"):
            if not 0.0 <= getattr(self, name) <= 1.0:
                raise ValueError(f"{name} must be in 0..1, got {getattr(self, name)!r}")
        if self.value_extra_weight and self.value_extra == "none":
            raise ValueError("value_extra_weight needs value_extra: search or margin")
        if self.log_seconds <= 0:
            raise ValueError(f"log_seconds must be > 0, got {self.log_seconds!r}")

    def panel_for(self, num_players: int) -> list[str]:
        return list(self.panel) or list(DEFAULT_PANELS[num_players])
