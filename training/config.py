"""The training configuration: one dataclass, loaded from YAML, checked, saved with the run.

::

    cfg = load_config("configs/ppo_quick.yaml", ["n_envs=1", "net.channels=16"])
    save_config(cfg, "runs/x/config.yaml")

Defaults come from :class:`TrainConfig`, then the YAML file, then the ``--set key=value``
overrides (dotted keys reach nested fields: ``net.channels=32``, ``selfplay.weight=0.5``); an
override's value is read as a YAML scalar (``3``, ``1e-4``, ``null``, ``[random, greedy]``). Every
layer is validated the same way: an unknown key raises :class:`ConfigError` naming it and the
allowed keys; a wrong type or value raises naming the field. Each field's docstring (the string
under it) is its documentation and is written as a comment into the saved ``config.yaml``.
"""

from __future__ import annotations

import ast
import dataclasses
import inspect
import types
import typing
from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Literal

import yaml

from games import load_game
from training.files import write_text
from training.logs import warn

POLICIES = ("cnn", "mlp")
DEVICES = ("cpu", "auto", "cuda")


class ConfigError(ValueError):
    """A bad configuration: unknown key, wrong type or value (the message names the field)."""


@dataclass
class OpponentConfig:
    """One bot in the opponent pool."""

    name: str = "random"
    """Agent spec from ``agents.registry``: random, greedy, aggressor, builder, search:N."""
    weight: float = 1.0
    """Relative probability that an opponent seat plays this bot in an episode."""


@dataclass
class SelfPlayConfig:
    """Frozen snapshots of the learner added to the opponent pool (a growing league)."""

    snapshot_every: int = 0
    """Save a snapshot of the learner every this many timesteps into the pool (0: no self-play)."""
    max_snapshots: int = 5
    """Snapshots kept in the pool; the oldest is dropped past this."""
    weight: float = 0.0
    """Total sampling weight of all snapshots together (shared equally), beside the bots' weights."""


@dataclass
class PretrainConfig:
    """Behaviour cloning before PPO (``training.imitation``): the policy first imitates a bot."""

    teacher: str | None = None
    """Agent spec imitated (greedy, search:N, ...); null: no pretraining, PPO starts from scratch."""
    games: int = 300
    """Teacher games recorded, against opponents drawn from the training pool (``opponents``)."""
    epochs: int = 8
    """Passes over the recorded decisions."""
    batch_size: int = 256
    """Minibatch size of the cloning updates."""
    learning_rate: float = 1e-3
    """Adam learning rate of the cloning updates."""
    value_weight: float = 0.5
    """Weight of the value loss (the discounted return the teacher's seat got) beside the
    cross-entropy of the teacher's decisions."""
    workers: int = 1
    """Processes recording teacher games."""
    dagger_rounds: int = 0
    """After cloning the teacher's own games, rounds of DAgger: in each, the network plays the
    learner's seat (its most likely action) for ``games`` new games and the teacher labels every
    position it reaches; those join the recorded set and the network is cloned on all of it again.
    A clone errs where the teacher never went, and its errors take it there; these are the
    positions it needs labels for. 0: plain cloning. Recorded in this process (the network is here)."""
    teacher_first: bool = True
    """Record and clone the teacher's own games before the DAgger rounds. false: the network is a
    clone already (init_from's), so the rounds start from it at once, each labelling the games the
    network plays (with a new ``seed``, games it has not played before); dagger_rounds >= 1."""


@dataclass
class NetConfig:
    """Network sizes (``agents.network``)."""

    channels: int = 64
    """Channels of the hex convolution trunk."""
    blocks: int = 3
    """Residual blocks (two hex 3x3 convolutions each) after the first convolution."""
    hidden: list[int] = field(default_factory=lambda: [256])
    """Hidden layer sizes of the MLP heads (policy and value for 'mlp'; the value head for 'cnn')."""


@dataclass
class TrainConfig:
    """Everything a training run depends on; saved as ``runs/<run>/config.yaml``."""

    game: str = "vigtavl"
    """The game (``vigtavl.games``): vigtavl, or another registered game (pig, thrones) trained
    through the game interface by training/game_train.py (policy mlp; opponents and
    eval_opponents and pretrain.teacher are that game's agents; map, reward, max_steps unused)."""
    num_players: int = 2
    """Players per game: 2, 3 or 4 (a model plays only the player count it was trained for)."""
    map: str | None = None
    """Map preset (duel, triad, quad), 'random' (a fresh fair map per game) or a .txt file; null: the preset."""
    max_steps: int = field(default_factory=lambda: load_game("vigtavl").default_max_steps)
    """Decisions after which a game is cut off (truncated); default Vigtavl's own limit."""
    reward: Literal["win_loss", "tokens", "margin"] = "win_loss"
    """Reward: win_loss (+1/-1 at the end), tokens (tokens gained per step) or margin (end, / 10)."""
    seed: int = 0
    """Seeds Python, NumPy, torch and the environments (env i gets seed + i)."""
    total_timesteps: int = 1_000_000
    """Learner decisions to train for (all environments together)."""
    n_envs: int = 4
    """Parallel environments (SubprocVecEnv when > 1, DummyVecEnv for 1)."""
    vec_env: Literal["subproc", "dummy", "vector"] = "subproc"
    """How n_envs > 1 run: 'subproc' (a process each), 'dummy' (in the learner process: faster when
    cores are few, as the env is cheap next to the network) or 'vector' (the batched
    VigtavlVectorEnv: n_envs games stepped by one call, snapshot opponents batched; the fastest
    on few cores; see tools/bench_train.py)."""
    n_steps: int = 512
    """Steps per environment per rollout (the buffer keeps n_steps * n_envs masks of ~6,700 floats)."""
    batch_size: int = 256
    """Minibatch size of the PPO update."""
    n_epochs: int = 4
    """Passes over each rollout in the PPO update."""
    learning_rate: float = 3e-4
    """Adam learning rate."""
    gamma: float = 0.995
    """Discount factor."""
    gae_lambda: float = 0.95
    """GAE lambda."""
    clip_range: float = 0.2
    """PPO clipping range."""
    ent_coef: float = 0.01
    """Entropy bonus coefficient."""
    vf_coef: float = 0.5
    """Value loss coefficient."""
    max_grad_norm: float = 0.5
    """Gradient clipping norm."""
    policy: Literal["cnn", "mlp"] = "cnn"
    """'cnn': fully convolutional per-hex logits; 'mlp': conv trunk, flatten, MLP over all actions."""
    net: NetConfig = field(default_factory=NetConfig)
    """Network sizes."""
    opponents: list[OpponentConfig] = field(default_factory=lambda: [OpponentConfig("random", 1.0)])
    """Opponent bots with weights; each episode draws one per opponent seat by weight."""
    selfplay: SelfPlayConfig = field(default_factory=SelfPlayConfig)
    """Self-play snapshots in the opponent pool."""
    pretrain: PretrainConfig = field(default_factory=PretrainConfig)
    """Behaviour cloning of a bot before PPO (off unless pretrain.teacher is set)."""
    value_warmup: int = 0
    """Timesteps at the start of a run during which only the value head learns (the trunk and the
    policy head frozen). A network carried from another setting (init_from: more players, v1)
    brings a critic of the old game; PPO's first updates would follow its wrong advantages."""
    init_from: str | None = None
    """Start from this model's weights (a .zip path, or a shipped name such as "v1/pretrained"): one
    of this environment, or one widened from vigtavl_v1 or from fewer players (training/transfer.py).
    With pretrain.teacher set as well, the cloning starts from these weights, then PPO. Another
    game (``--game``): a model of that game with the same policy and net ("pretrained": its
    shipped one)."""
    eval_every: int = 50_000
    """Evaluate against each eval opponent every this many timesteps (0: never)."""
    eval_games: int = 40
    """Games per eval opponent (seats rotated; the same seeds every evaluation)."""
    eval_opponents: list[str] = field(default_factory=lambda: ["random", "greedy"])
    """Agent specs evaluated against, each in every other seat, or a lineup such as greedy+aggressor
    (its specs fill the other seats in turn); the best model is the best mean win rate over them."""
    eval_workers: int = 1
    """Worker processes for evaluation games."""
    eval_sample: bool = False
    """Evaluate the policy as it trains, sampling its actions (seeded), instead of its most likely
    action: an untrained network then plays like random, so the curve shows what was learned."""
    checkpoint_every: int = 100_000
    """Save a checkpoint every this many timesteps into runs/<run>/checkpoints (0: never)."""
    checkpoint_minutes: float = 5.0
    """Also save one when this many minutes of wall time have passed since the last (0: never); a
    run stopped by Ctrl-C or SIGTERM saves one too, so --resume RUN_DIR loses little."""
    run_dir: str = "runs"
    """Folder holding the runs."""
    run_name: str | None = None
    """The run's folder name; null: the config file's name and a timestamp."""
    device: Literal["cpu", "auto", "cuda"] = "cpu"
    """Torch device for the learner ('auto': CUDA when available)."""
    torch_threads: int = 1
    """Torch CPU threads in the learner process (0: torch's default, one per core; on a shared or
    busy machine more than 1 can be many times slower)."""
    backend: Literal["sb3", "rllib"] = "sb3"
    """The trainer: 'sb3' (sb3-contrib's MaskablePPO in this process) or 'rllib' (Ray RLlib's PPO
    with env runners on this machine or a Ray cluster: pip install -e '.[rllib]'; training/rllib.py)."""
    env_runners: int = 2
    """rllib: env runner processes sampling games (0: in the learner's process); n_envs is split
    between them."""


# ------------------------------------------------------------------ value checks
def opponent_seats(opponent: str, players: int) -> list[str]:
    """The other seats of a game against ``opponent``: one spec in every seat, or a lineup such as
    ``greedy+aggressor`` (3 players: one of each), its specs filling the seats in turn."""
    seats = [s.strip() for s in opponent.split("+")]
    if not all(seats):
        raise ValueError(f"opponent {opponent!r}: an empty spec in the lineup (write e.g. greedy+aggressor)")
    if len(seats) > players - 1:
        raise ValueError(f"opponent {opponent!r}: a lineup of {len(seats)} seats, but a {players}-player game "
                         f"has {players - 1} other seats")
    return [seats[i % len(seats)] for i in range(players - 1)]


def _check_values(cfg: TrainConfig) -> None:
    """Range checks that types alone do not catch; raise ConfigError naming the field."""
    positive = ["max_steps", "total_timesteps", "n_envs", "n_steps", "batch_size", "n_epochs",
                "eval_games", "eval_workers", "learning_rate", "clip_range"]
    for name in positive:
        if getattr(cfg, name) <= 0:
            raise ConfigError(f"{name} must be > 0, got {getattr(cfg, name)!r}")
    for name in ["eval_every", "checkpoint_every", "checkpoint_minutes", "ent_coef", "vf_coef", "max_grad_norm",
                 "torch_threads", "env_runners"]:
        if getattr(cfg, name) < 0:
            raise ConfigError(f"{name} must be >= 0, got {getattr(cfg, name)!r}")
    _check_game(cfg)
    if cfg.num_players not in (2, 3, 4):
        raise ConfigError(f"num_players must be 2, 3 or 4, got {cfg.num_players!r}")
    if not 0 < cfg.gamma <= 1 or not 0 <= cfg.gae_lambda <= 1:
        raise ConfigError(f"gamma must be in (0, 1] and gae_lambda in [0, 1], got {cfg.gamma}, {cfg.gae_lambda}")
    if cfg.batch_size > cfg.n_steps * cfg.n_envs:
        raise ConfigError(f"batch_size ({cfg.batch_size}) must be at most n_steps * n_envs "
                          f"({cfg.n_steps * cfg.n_envs})")
    if cfg.net.channels < 1 or cfg.net.blocks < 0 or any(h < 1 for h in cfg.net.hidden):
        raise ConfigError(f"net: channels >= 1, blocks >= 0 and hidden sizes >= 1, got {cfg.net}")
    if not cfg.opponents:
        raise ConfigError("opponents must list at least one bot")
    if any(o.weight < 0 for o in cfg.opponents) or sum(o.weight for o in cfg.opponents) <= 0:
        raise ConfigError("opponents: weights must be >= 0 with a positive total, got "
                          f"{[(o.name, o.weight) for o in cfg.opponents]}")
    sp = cfg.selfplay
    if sp.snapshot_every < 0 or sp.max_snapshots < 1 or sp.weight < 0:
        raise ConfigError(f"selfplay: snapshot_every >= 0, max_snapshots >= 1 and weight >= 0, got {sp}")
    pt = cfg.pretrain
    if pt.teacher is not None and (pt.games < 1 or pt.epochs < 1 or pt.batch_size < 1 or pt.workers < 1
                                   or pt.learning_rate <= 0 or pt.value_weight < 0 or not pt.teacher.strip()
                                   or pt.dagger_rounds < 0):
        raise ConfigError(f"pretrain: a non-empty teacher, games, epochs, batch_size, workers >= 1, "
                          f"learning_rate > 0, value_weight >= 0 and dagger_rounds >= 0; got {pt}")
    if pt.teacher is not None and not pt.teacher_first and (pt.dagger_rounds < 1 or not cfg.init_from):
        raise ConfigError("pretrain.teacher_first=false starts the DAgger rounds from init_from's network: "
                          f"set init_from and dagger_rounds >= 1 (got init_from={cfg.init_from!r}, "
                          f"dagger_rounds={pt.dagger_rounds})")
    if cfg.init_from is not None and not cfg.init_from.strip():
        raise ConfigError(f"init_from: a model path or a shipped name; got init_from={cfg.init_from!r}")
    if cfg.eval_every and not cfg.eval_opponents:
        raise ConfigError("eval_opponents must list at least one agent when eval_every > 0")
    if any(not s.strip() for s in cfg.eval_opponents) or any(not o.name.strip() for o in cfg.opponents):
        raise ConfigError("agent specs in opponents and eval_opponents must be non-empty")
    for spec in cfg.eval_opponents:
        try:
            opponent_seats(spec, cfg.num_players)
        except ValueError as e:
            raise ConfigError(f"eval_opponents: {e}") from None


def _check_game(cfg: TrainConfig) -> None:
    """A registered game, with its own player counts (but Vigtavl's); the 'cnn' head only for a
    game whose actions are verb planes over its board (``Game.planar_actions``)."""
    from games.registry import load_game
    try:
        game = load_game(cfg.game)
        if cfg.game != "vigtavl":
            game.check_players(cfg.num_players)
    except ValueError as e:
        raise ConfigError(f"game: {e}") from None
    if cfg.policy == "cnn" and not game.planar_actions:
        raise ConfigError(f"policy 'cnn' needs actions laid out as verb planes over the board; "
                          f"game {cfg.game}'s are not: train it with policy mlp")


# ------------------------------------------------------------------ dict -> dataclass, typed
def from_dict(cls: type, data: Any, where: str = "") -> Any:
    """Build dataclass ``cls`` from a mapping, checking keys and types field by field."""
    if not isinstance(data, dict):
        raise ConfigError(f"{where or 'the config'} must be a mapping of keys to values, got {data!r}")
    hints = typing.get_type_hints(cls)
    names = [f.name for f in dataclasses.fields(cls)]
    for key in data:
        if key not in names:
            raise ConfigError(f"unknown key {where + str(key)!r}; allowed keys{' in ' + where[:-1] if where else ''}: "
                              f"{', '.join(names)}")
    values = {k: _convert(hints[k], v, where + k) for k, v in data.items()}
    try:
        return cls(**values)
    except ConfigError:
        raise
    except ValueError as e:  # a group that checks itself (agents.gumbel.SearchConfig): name the group
        raise ConfigError(f"{where[:-1] or 'the config'}: {e}") from None


def _convert(hint: Any, value: Any, name: str) -> Any:
    """``value`` checked (and lightly coerced: int -> float, 'a,b' -> [a, b]) against ``hint``."""
    origin, args = typing.get_origin(hint), typing.get_args(hint)
    if dataclasses.is_dataclass(hint):
        if isinstance(value, hint):
            return value
        return from_dict(hint, value, name + ".")
    if origin is Literal:
        if value not in args:
            raise ConfigError(f"{name} must be one of {', '.join(map(str, args))}; got {value!r}")
        return value
    if origin in (typing.Union, types.UnionType):
        if value is None and type(None) in args:
            return None
        inner = [a for a in args if a is not type(None)]
        return _convert(inner[0], value, name)
    if origin is list:
        item = args[0]
        if isinstance(value, str):
            value = [s.strip() for s in value.split(",") if s.strip()]
        if not isinstance(value, (list, tuple)):
            raise ConfigError(f"{name} must be a list, got {value!r}")
        if dataclasses.is_dataclass(item):  # a bare string is the first field (a name)
            value = [{"name": v} if isinstance(v, str) else v for v in value]
        return [_convert(item, v, f"{name}[{i}]") for i, v in enumerate(value)]
    if hint in (int, float) and isinstance(value, str):
        value = _number(value, name, hint)  # PyYAML reads 1e5 (no dot) as a string
    if hint is float:
        if isinstance(value, bool) or not isinstance(value, (int, float)):
            raise ConfigError(f"{name} must be a number, got {value!r}")
        return float(value)
    if hint is int:
        if isinstance(value, bool) or not isinstance(value, int):
            if isinstance(value, float) and value.is_integer():
                return int(value)  # 1e6 in YAML
            raise ConfigError(f"{name} must be an integer, got {value!r}")
        return value
    if hint is str:
        if not isinstance(value, str):
            raise ConfigError(f"{name} must be a string, got {value!r}")
        return value
    if hint is bool:
        if not isinstance(value, bool):
            raise ConfigError(f"{name} must be true or false, got {value!r}")
        return value
    raise ConfigError(f"{name}: unsupported field type {hint!r}")  # a bug in this module


def _number(text: str, name: str, hint: type) -> float | int:
    try:
        x = float(text)
    except ValueError:
        kind = "an integer" if hint is int else "a number"
        raise ConfigError(f"{name} must be {kind}, got {text!r}") from None
    return int(x) if x.is_integer() and "." not in text and "e" not in text.lower() else x


# ------------------------------------------------------------------ overrides
def apply_overrides(data: dict[str, Any], overrides: Iterable[str]) -> dict[str, Any]:
    """``["net.channels=32", "seed=3"]`` applied to a raw config dict (a new dict is returned)."""
    data = _deepcopy(data)
    for item in overrides:
        key, sep, text = item.partition("=")
        key = key.strip()
        if not sep or not key:
            raise ConfigError(f"--set expects key=value (dotted keys for nested fields), got {item!r}")
        try:
            value = yaml.safe_load(text) if text.strip() else None
        except yaml.YAMLError as e:
            raise ConfigError(f"--set {key}: cannot read {text!r} as a YAML value: {e}") from None
        node, parts = data, key.split(".")
        for i, part in enumerate(parts[:-1]):
            child = node.setdefault(part, {})
            if not isinstance(child, dict):
                raise ConfigError(f"--set {key}: {'.'.join(parts[:i + 1])!r} is not a group of fields")
            node = child
        node[parts[-1]] = value
    return data


def _deepcopy(d: Any) -> Any:
    if isinstance(d, dict):
        return {k: _deepcopy(v) for k, v in d.items()}
    if isinstance(d, list):
        return [_deepcopy(v) for v in d]
    return d


# ------------------------------------------------------------------ load / save
# The shipped configs: the checkout's configs/ (training/configs links to it), installed with the
# package, so `vigtavl train --config ppo_quick` works from any folder.
CONFIG_DIR = Path(__file__).resolve().parent / "configs"


def shipped_configs() -> list[str]:
    """The names of the shipped configs (``ppo_quick``, ``ppo_vs_bots`` ...)."""
    return sorted(p.stem for p in CONFIG_DIR.glob("*.yaml"))


def config_path(name: str | Path) -> Path:
    """A config file: the path itself when it exists, else a shipped config by name
    (``ppo_quick`` or ``ppo_quick.yaml``); FileNotFoundError (one line) naming them otherwise."""
    path = Path(name)
    if path.is_file():
        return path
    shipped = CONFIG_DIR / Path(name).with_suffix(".yaml").name
    if path.parent == Path(".") and shipped.is_file():
        return shipped
    raise FileNotFoundError(f"config file {path} does not exist; shipped configs: {', '.join(shipped_configs())}")


def load_config(path: str | Path | None = None, overrides: Iterable[str] = (), cls: type | None = None) -> Any:
    """Defaults, then the YAML file (if any: a path, or a shipped config by name), then
    ``key=value`` overrides; validated. ``cls``: the config's dataclass (:class:`TrainConfig`,
    or ``training.az_config.AZConfig`` for ``vigtavl az``)."""
    data: dict[str, Any] = {}
    if path is not None:
        path = config_path(path)
        try:
            data = yaml.safe_load(path.read_text(encoding="utf-8")) or {}
        except yaml.YAMLError as e:
            raise ConfigError(f"{path} is not valid YAML: {e}") from None
        if not isinstance(data, dict):
            raise ConfigError(f"{path} must be a mapping of config keys, got {type(data).__name__}")
    return config_from_dict(apply_overrides(data, overrides), cls or TrainConfig)


def config_from_dict(data: dict[str, Any], cls: type | None = None) -> Any:
    """A validated :class:`TrainConfig` (or ``cls``, whose ``check()`` validates it) from a
    (partial) dict."""
    cfg = from_dict(cls or TrainConfig, data)
    if isinstance(cfg, TrainConfig):
        _check_values(cfg)
    else:
        cfg.check()
    return cfg


def to_dict(cfg: Any) -> dict[str, Any]:
    return dataclasses.asdict(cfg)


def save_config(cfg: Any, path: str | Path) -> None:
    """Write the resolved config (a TrainConfig or another config dataclass) as YAML, each
    top-level key under its docstring as a comment."""
    docs = field_docs(type(cfg))
    lines = ["# Resolved training config (training/config.py documents every field).", ""]
    for key, value in to_dict(cfg).items():
        lines.append(f"# {docs.get(key, '')}")
        lines.append(yaml.safe_dump({key: value}, sort_keys=False, default_flow_style=False).rstrip())
    write_text(path, "\n".join(lines) + "\n")  # atomic: a kill never leaves half a config


def learner_device(device: str) -> str:
    """The one resolver of a config's ``device`` for every trainer: 'auto' is 'cuda' when torch
    finds a GPU, else 'cpu'; 'cuda' without a GPU warns in one line and gives 'cpu' (SB3 would
    fall back to the CPU without a word; RLlib would ask Ray for a GPU that is not there)."""
    import torch as th
    if device == "auto":
        return "cuda" if th.cuda.is_available() else "cpu"
    if device == "cuda" and not th.cuda.is_available():
        warn("device cuda was asked for, but torch finds no GPU here (torch.cuda.is_available() "
             "is False): training on the CPU")
        return "cpu"
    return device


def field_docs(cls: type) -> dict[str, str]:
    """The docstring under each field of a dataclass (read from its source)."""
    tree = ast.parse(inspect.getsource(cls))
    body = tree.body[0].body  # type: ignore[attr-defined]
    docs = {}
    for node, nxt in zip(body, body[1:]):
        if isinstance(node, ast.AnnAssign) and isinstance(node.target, ast.Name) \
                and isinstance(nxt, ast.Expr) and isinstance(getattr(nxt, "value", None), ast.Constant):
            docs[node.target.id] = " ".join(str(nxt.value.value).split())
    return docs
