"""``vigtavl az train``'s configuration: one dataclass, loaded, overridden and saved as
:mod:`training.config` does for PPO (``load_config(path, overrides, cls=AZConfig)``)."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Literal

from agents.gumbel import SearchConfig
from training.az_ray.config import RayLoopConfig
from training.config import ConfigError

DEVICES = ("cpu", "auto", "cuda")


@dataclass
class AZConfig:
    """Everything an az run depends on; saved as ``runs/<run>/config.yaml``."""

    num_players: int = 2
    """Players per game (2, 3 or 4); the starting PPO model must be of that count."""
    map: str | None = None
    """Map preset, 'random' or a .txt file; null: the preset for the player count."""
    max_steps: int = 1500
    """Decisions after which a self-play game is cut off (its positions learn a draw: 0 for all)."""
    seed: int = 0
    """Seeds Python, NumPy, torch, the self-play games (game g: seed + g) and the search."""
    start_from: str = "pretrained"
    """The weights the network starts from: a PPO model (ppo:MODEL's MODEL: 'pretrained' or a .zip),
    or an az model file (a .pt: runs/<run>/generations/gen_<k>.pt of an earlier run)."""
    generations: int = 20
    """Generations to run: self-play, then training, then evaluation, each."""
    games_per_generation: int = 32
    """Self-play games per generation."""
    parallel_games: int = 16
    """Self-play games searched together (one network call per round of simulations for all)."""
    search: SearchConfig = field(default_factory=SearchConfig)
    """The search's settings in self-play (:class:`agents.gumbel.SearchConfig`, which checks them)."""
    buffer_size: int = 20_000
    """Positions the replay buffer keeps (the oldest go first); ~27 KB each (float16 planes)."""
    max_legal: int = 384
    """Legal actions kept per position's policy target (the most likely, renormalised, past this)."""
    batch_size: int = 256
    """Minibatch size of the network's updates."""
    updates_per_generation: int = 100
    """Gradient steps after each generation's self-play."""
    learning_rate: float = 3e-4
    """Adam learning rate."""
    weight_decay: float = 1e-4
    """Adam weight decay (L2)."""
    value_weight: float = 1.0
    """Weight of the value loss (MSE of the value vector against the game's results) beside the
    policy loss (cross-entropy against the search's improved policy)."""
    max_grad_norm: float = 1.0
    """Gradient clipping norm."""
    eval_games: int = 40
    """Games per evaluation pairing (seats rotated): each generation's network alone against the
    previous generation's and against each of eval_opponents (0: no evaluation)."""
    gate: float = 0.0
    """A generation replaces the network that plays self-play only when it wins at least this
    share of its eval_games against that network (0: every generation does; AlphaGo Zero's gate
    was 0.55). A rejected one is kept as gen_<k>_rejected.pt, and gen_<k>.pt is the network kept."""
    eval_opponents: list[str] = field(default_factory=lambda: ["ppo:pretrained"])
    """Agent specs each generation plays besides the previous generation."""
    eval_workers: int = 1
    """Worker processes for evaluation games."""
    checkpoint_minutes: float = 10.0
    """A checkpoint (network, optimizer, buffer) every this many minutes of self-play too, besides
    the one after every generation and on Ctrl-C / SIGTERM (0: not by time)."""
    run_dir: str = "runs"
    """Folder holding the runs."""
    run_name: str | None = None
    """The run's folder name; null: the config's name and a timestamp."""
    device: Literal["cpu", "auto", "cuda"] = "auto"
    """Torch device for the network ('auto': CUDA when there is one)."""
    torch_threads: int = 2
    """Torch CPU threads (the project's machine has 2 cores; 0: torch's default)."""
    ray: RayLoopConfig = field(default_factory=RayLoopConfig)
    """``vigtavl az train --ray``'s settings (training/az_ray/config.py); the generation loop ignores them."""

    def check(self) -> None:
        """Range checks types cannot make; ConfigError naming the field."""
        for name in ("max_steps", "generations", "games_per_generation", "parallel_games", "buffer_size",
                     "max_legal", "batch_size", "learning_rate"):
            if getattr(self, name) <= 0:
                raise ConfigError(f"{name} must be > 0, got {getattr(self, name)!r}")
        for name in ("updates_per_generation", "weight_decay", "value_weight", "max_grad_norm", "eval_games",
                     "checkpoint_minutes", "torch_threads"):
            if getattr(self, name) < 0:
                raise ConfigError(f"{name} must be >= 0, got {getattr(self, name)!r}")
        if not 0.0 <= self.gate <= 1.0:
            raise ConfigError(f"gate must be a win share in 0..1, got {self.gate!r}")
        if self.gate and not self.eval_games:
            raise ConfigError("gate needs eval_games > 0: a generation is judged by its games against the one before")
        if self.eval_workers < 1:
            raise ConfigError(f"eval_workers must be >= 1, got {self.eval_workers}")
        if self.num_players not in (2, 3, 4):
            raise ConfigError(f"num_players must be 2, 3 or 4, got {self.num_players!r}")
        if not self.start_from.strip():
            raise ConfigError("start_from must name a PPO model ('pretrained' or a .zip) or an az model (.pt)")
