"""Vigtavl's trained models as agents: ``ppo:MODEL`` (:mod:`agents.registry`), and their files.

:func:`load_ppo_agent` turns a saved model (``ppo:path.zip`` / ``ppo:pretrained``) into an
:class:`~vigtavl_env.agent.Agent` that plays greedily with the action mask;
:class:`agents.heuristic.ppo_search.PPOSearchAgent` puts the policy and its value head inside the
search bot. The networks themselves are :mod:`agents.network`. Vigtavl is read through the game
interface (``load_game("vigtavl")``: its version, its actions and channels by player count).
Every model loaded here is checked against this environment
(``vigtavl_v2``): a model trained on an earlier version (``OLD_VERSIONS``: ``vigtavl_v0``, 47 hex
verbs and 2 global verbs, 41 + 30 P channels; ``vigtavl_v1``, 55 and 6, 52 + 30 P), such as the
shipped ones kept in ``agents/pretrained/v0`` and ``v1``, is refused with one line
(:class:`ModelMismatchError`) naming both versions and saying to retrain. A file that is no readable model at all (empty,
not a zip, truncated, a folder, a zip without SB3's ``data``, parts that do not unpickle here) is
refused in one line too (:class:`ModelFileError`), never with a traceback.
"""

from __future__ import annotations

import base64
import contextlib
import functools
import json
import sys
import warnings
import zipfile
import zlib
from collections.abc import Iterator
from pathlib import Path
from typing import Any, NamedTuple

import gymnasium
import numpy as np
import torch as th

from agents.network import verb_counts
from games import load_game
from games.agent import Agent, AgentUnavailableError

PRETRAINED = "pretrained"
PRETRAINED_PATH = Path(__file__).resolve().parent / "pretrained" / "vigtavl_ppo.zip"
PRETRAINED_3P = "pretrained-3p"  # the shipped 3-player network (agents/pretrained/3p/)
PRETRAINED_3P_PATH = PRETRAINED_PATH.parent / "3p" / "vigtavl_ppo_3p.zip"
PRETRAINED_4P = "pretrained-4p"  # the shipped 4-player network (agents/pretrained/4p/)
PRETRAINED_4P_PATH = PRETRAINED_PATH.parent / "4p" / "vigtavl_ppo_4p.zip"
# Earlier rules' shipped networks, kept as a record and as starting weights (training/transfer.py):
# refused as agents of this environment (check_spaces), readable by ``init_from``.
RECORDS = {"v1/pretrained": PRETRAINED_PATH.parent / "v1" / "vigtavl_ppo.zip",
           "v1/pretrained-3p": PRETRAINED_PATH.parent / "v1" / "3p" / "vigtavl_ppo_3p.zip",
           "v0/pretrained": PRETRAINED_PATH.parent / "v0" / "vigtavl_ppo.zip"}
MODEL_CACHE_SIZE = 16
PLAYER_COUNTS = (2, 3, 4)
# Earlier environments: (hex verbs, global verbs, channels for P players), to name old models.
OLD_VERSIONS = {"vigtavl_v0": (47, 2, lambda p: 41 + 30 * p), "vigtavl_v1": (55, 6, lambda p: 52 + 30 * p)}
GAME = "vigtavl"  # the game whose networks these are
RETRAIN = "`vigtavl train --config ppo_v2`"
SPACE_KEYS = ("observation_space", "action_space")  # in a model's ``data``, as SB3 names them
ERROR_TEXT_CHARS = 160  # of an exception's message quoted in a one-line error


class EnvFacts(NamedTuple):
    """What a model must match: the environment's version, its actions on an H x W board (cell
    verbs, global verbs) and its observation channels by player count."""

    version: str
    cell_verbs: int
    global_verbs: int
    channels: dict[int, int]  # channels -> player count


@functools.cache
def env_facts(name: str = GAME) -> EnvFacts:
    """A game's :class:`EnvFacts` (Vigtavl's by default), read from a new game of each player count."""
    game = load_game(name)
    counts = range(game.min_players, game.max_players + 1)
    states = {p: game.new_state(p) for p in counts}
    channels = {game.observation_shape(s)[0]: p for p, s in states.items()}
    _, h, w = game.observation_shape(states[counts[0]])
    cell_verbs, global_verbs = verb_counts(game.num_actions(states[counts[0]]), h, w)
    return EnvFacts(game.version, cell_verbs, global_verbs, channels)


class ModelMismatchError(AgentUnavailableError):
    """A saved model whose spaces are not this environment's (another env version): the spec is
    well formed, but no agent can be made from that file here (a ValueError, one line)."""


class ModelFileError(AgentUnavailableError):
    """A model file that cannot be read as a Stable-Baselines3 model: empty, not a zip, truncated,
    a folder, a zip without SB3's ``data``, or parts that do not unpickle here (a ValueError, one line)."""


# ------------------------------------------------------------------ trained models as agents
def shipped_paths() -> dict[str, Path]:
    """The shipped networks' names -> their files, installed or not: ``pretrained`` (2 players),
    ``pretrained-3p`` and ``pretrained-4p`` (read when called, so a test may move a file)."""
    return {PRETRAINED: PRETRAINED_PATH, PRETRAINED_3P: PRETRAINED_3P_PATH, PRETRAINED_4P: PRETRAINED_4P_PATH}


def resolve_model_path(spec: str | Path) -> Path:
    """``"pretrained"`` -> the shipped model, ``"pretrained-3p"`` and ``"pretrained-4p"`` the
    shipped 3- and 4-player ones (a shipped name whose file is missing is refused, never looked
    for as a relative path); else the path, which must exist."""
    if str(spec) in RECORDS:
        return RECORDS[str(spec)]
    shipped = shipped_paths().get(str(spec))
    if shipped is not None:
        if not shipped.is_file():
            raise FileNotFoundError(
                f"the {spec} model {shipped} does not exist yet: train one with `vigtavl train "
                "--config configs/ppo_vs_bots.yaml` and copy its runs/<run>/best_model.zip there")
        return shipped
    path = Path(spec)
    if path.is_dir():  # a run folder given for its model: name the file to give instead
        inside = next((m for m in (path / "best_model.zip", path / "final_model.zip") if m.is_file()), None)
        raise ModelFileError(f"model {path} is a folder, not a model file: give "
                             + (f"the model in it, e.g. {inside}" if inside else "a model .zip"))
    if not path.is_file():
        raise FileNotFoundError(f"model {path} does not exist; train one with `vigtavl train --config "
                                "configs/ppo_vs_bots.yaml` (it saves runs/<run>/best_model.zip)")
    return path


@functools.lru_cache(maxsize=MODEL_CACHE_SIZE)
def _load_model(path: str, mtime_ns: int, size: int) -> Any:
    """One MaskablePPO per file version in this process: the match runner builds an agent per game,
    so without this cache every game would reload the model (a deliberate per-process cache).
    The saved spaces are checked first: a policy of another env version cannot even be rebuilt."""
    from sb3_contrib import MaskablePPO
    check_spaces(*saved_spaces(path), name=_model_label(path))
    # Unpickling a damaged file can raise anything, and SB3 warns (several lines) before it fails:
    # both become one line naming the file; a model that loads gets its warnings back.
    try:
        with saved_module_names(), warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            model = MaskablePPO.load(path, device="cpu")
    except Exception as e:
        why = "; ".join(one_line(x) for x in [e, *(w.message for w in caught[:1])])
        raise ModelFileError(f"{_model_label(path)} cannot be loaded ({why}): a damaged model, "
                             "or one saved by other library versions") from None
    for w in caught:
        warnings.warn(w.message, w.category, stacklevel=2)
    model.policy.set_training_mode(False)
    return model


def one_line(e: BaseException) -> str:
    """An exception (or a warning) as a short line: its type and the first line of its message."""
    text = (str(e).strip().splitlines() or [""])[0]
    return f"{type(e).__name__}: " + (text if len(text) <= ERROR_TEXT_CHARS else text[:ERROR_TEXT_CHARS] + "...")


# Models pickle their network classes by module name; the network once lived in training.policy.
OLD_NETWORK_MODULES = ("training.policy",)


@contextlib.contextmanager
def saved_module_names() -> Iterator[None]:
    """While a model is unpickled, the network's old module names find :mod:`agents.network`
    (models saved before it moved), without importing the training package."""
    from agents import network
    added = [name for name in OLD_NETWORK_MODULES if name not in sys.modules]
    for name in added:
        sys.modules[name] = network
    try:
        yield
    finally:
        for name in added:
            sys.modules.pop(name, None)


def load_model(spec: str | Path) -> Any:
    """The MaskablePPO saved at ``spec`` (or the pretrained one), cached until the file changes;
    :class:`ModelMismatchError` if it was trained for another environment version."""
    path = resolve_model_path(spec).resolve()
    st = path.stat()
    return _load_model(str(path), st.st_mtime_ns, st.st_size)


def saved_spaces(path: str | Path) -> tuple[gymnasium.spaces.Space, gymnasium.spaces.Space]:
    """(observation space, action space) of a model file, read without building its policy;
    :class:`ModelFileError` (one line) for a file that is not a readable SB3 model."""
    data = _saved_data(path)
    observation_space, action_space = (_saved_object(path, data, key) for key in SPACE_KEYS)
    return observation_space, action_space


def _saved_data(path: str | Path) -> dict[str, Any]:
    """The JSON ``data`` entry of an SB3 model zip (its settings, the spaces among them)."""
    label = _model_label(path)
    try:
        with zipfile.ZipFile(path) as z:
            raw = z.read("data")
    except KeyError:
        raise ModelFileError(f"{label} is a zip without the 'data' entry every Stable-Baselines3 model "
                             "has: not a model saved by `vigtavl train`") from None
    except (zipfile.BadZipFile, zlib.error, EOFError):  # EOFError, zlib: a zip cut inside an entry
        what = "an empty file" if Path(path).stat().st_size == 0 else "not a zip archive, or a truncated one"
        raise ModelFileError(f"{label} is {what}: not a model saved by `vigtavl train` "
                             "(a damaged or partly copied file?)") from None
    try:
        data = json.loads(raw.decode())
    except (UnicodeDecodeError, json.JSONDecodeError) as e:
        raise ModelFileError(f"{label}: its 'data' entry is not JSON ({one_line(e)}): not a "
                             "Stable-Baselines3 model, or a damaged one") from None
    if not isinstance(data, dict):
        raise ModelFileError(f"{label}: its 'data' entry is not a JSON object: not a Stable-Baselines3 model")
    return data


def _saved_object(path: str | Path, data: dict[str, Any], key: str) -> Any:
    """One pickled entry of a model's ``data``, decoded as SB3 saves it (base64 of a cloudpickle)."""
    import cloudpickle
    item = data.get(key)
    if not isinstance(item, dict) or not isinstance(item.get(":serialized:"), str):
        raise ModelFileError(f"{_model_label(path)} has no {key} in its 'data': not a Stable-Baselines3 "
                             "model, or a damaged one")
    try:  # a pickle can fail in any way (a damaged byte, a class this install lacks)
        return cloudpickle.loads(base64.b64decode(item[":serialized:"].encode()))
    except Exception as e:
        raise ModelFileError(f"{_model_label(path)}: its {key} cannot be unpickled here ({one_line(e)}): "
                             "a damaged model, or one saved by other library versions") from None


def _model_label(path: str | Path) -> str:
    if Path(path).resolve() == PRETRAINED_PATH.resolve():
        return f"the shipped model ppo:{PRETRAINED} ({PRETRAINED_PATH.relative_to(PRETRAINED_PATH.parents[2])})"
    return f"model {path}"


def check_spaces(observation_space: gymnasium.spaces.Space, action_space: gymnasium.spaces.Space,
                 name: str = "the model") -> None:
    """Raise :class:`ModelMismatchError` (one line) unless the spaces are this environment's
    (``vigtavl_v2``) for some player count; an earlier version's model is named as such."""
    shape = tuple(getattr(observation_space, "shape", None) or ())
    n = int(getattr(action_space, "n", -1))
    if len(shape) != 3:
        raise ModelMismatchError(f"{name} has observations {shape}, not (C, H, W) planes: not a vigtavl model")
    c, h, w = shape
    env = env_facts()
    actions = env.cell_verbs * h * w + env.global_verbs
    if c in env.channels and n == actions:
        return
    for old, (hex_verbs, global_verbs, channels) in OLD_VERSIONS.items():
        players = [p for p in PLAYER_COUNTS if channels(p) == c]
        if players and n == hex_verbs * h * w + global_verbs:
            raise ModelMismatchError(
                f"{name} was trained on {old} ({n} actions, {c} channels) and cannot play {env.version} "
                f"({actions} actions, {_channels_for(env, players[0])} channels); retrain for "
                f"{env.version} with {RETRAIN}")
    raise ModelMismatchError(f"{name} has {n} actions and {c} channels, not a {env.version} model "
                             f"({env.cell_verbs} * HW + {env.global_verbs} actions, {sorted(env.channels)} "
                             f"channels); retrain for {env.version} with {RETRAIN}")


def _channels_for(env: EnvFacts, players: int) -> int:
    return next(c for c, p in env.channels.items() if p == players)


def model_players(model: Any) -> int:
    """The player count a (checked) model was trained for, from its observation channels."""
    return env_facts().channels[int(model.observation_space.shape[0])]


class PPOAgent(Agent):
    """A trained policy as an agent: the most likely legal action (or sampled, ``deterministic=False``)."""

    name = "ppo"

    def __init__(self, model: Any, path: str = "", deterministic: bool = True, seed: int | None = None) -> None:
        self.model, self.path, self.deterministic = model, path, deterministic
        self.shape = tuple(model.observation_space.shape)
        self.n_actions = int(model.action_space.n)
        self.rng = np.random.default_rng(seed)
        self.seat = 0

    def reset(self, seat: int, seed: int | None = None) -> None:
        self.seat = seat
        self.rng = np.random.default_rng(seed)

    def act(self, observation: np.ndarray, action_mask: np.ndarray, info: dict[str, Any]) -> int:
        probs = self.action_probs(observation, action_mask)
        if self.deterministic:
            return int(np.argmax(probs))
        return int(self.rng.choice(len(probs), p=probs))

    def action_probs(self, observation: np.ndarray, action_mask: np.ndarray) -> np.ndarray:
        """The policy's masked action probabilities (float64, summing to 1)."""
        if observation.shape != self.shape or action_mask.shape != (self.n_actions,):
            raise ValueError(f"model {self.path or ''} was trained on observations {self.shape} and "
                             f"{self.n_actions} actions; this game has {observation.shape} and "
                             f"{action_mask.shape[0]} (another player count or board size)")
        policy = self.model.policy
        threads = th.get_num_threads()
        th.set_num_threads(1)  # one position: more threads only wait on each other (cheap to switch)
        try:
            with th.no_grad():
                obs = th.as_tensor(observation, dtype=th.float32, device=policy.device)[None]
                dist = policy.get_distribution(obs, action_masks=np.asarray(action_mask, dtype=bool)[None])
                probs = dist.distribution.probs[0].cpu().numpy().astype(np.float64)
        finally:
            th.set_num_threads(threads)
        probs *= action_mask != 0  # exact zeros off the mask
        return probs / probs.sum()


def load_ppo_agent(spec: str | Path, deterministic: bool = True, seed: int | None = None) -> PPOAgent:
    """An agent playing the model saved at ``spec`` (``"pretrained"``: the shipped model)."""
    path = resolve_model_path(spec)
    return PPOAgent(load_model(spec), str(path), deterministic=deterministic, seed=seed)
