"""Trained models as agents: ``ppo:MODEL`` and ``ppo-search:MODEL`` (:mod:`agents.registry`).

:func:`load_ppo_agent` turns a saved model (``ppo:path.zip`` / ``ppo:pretrained``) into an
:class:`~vigtavl_env.agent.Agent` that plays greedily with the action mask; :class:`PPOSearchAgent`
puts the policy and its value head inside the search bot. The networks themselves are
:mod:`agents.network`. Every model loaded here is checked against this environment
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
from typing import Any

import gymnasium
import numpy as np
import torch as th

from agents.heuristic.search import PPO_SEARCH_ITERATIONS, SearchAgent
from vigtavl_env.agent import Agent, AgentUnavailableError
from vigtavl_env.engine import GameState
from vigtavl_env.engine.actions import N_GLOBAL_VERBS, N_HEX_VERBS
from vigtavl_env.engine.version import ENV_NAME
from vigtavl_env.observation import ChannelLayout, ObservationEncoder

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
CHANNELS = {ChannelLayout(p).n_channels: p for p in PLAYER_COUNTS}  # this env's, by player count
RETRAIN = "`vigtavl train --config ppo_v2`"
SPACE_KEYS = ("observation_space", "action_space")  # in a model's ``data``, as SB3 names them
ERROR_TEXT_CHARS = 160  # of an exception's message quoted in a one-line error


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
    actions = N_HEX_VERBS * h * w + N_GLOBAL_VERBS
    if c in CHANNELS and n == actions:
        return
    for old, (hex_verbs, global_verbs, channels) in OLD_VERSIONS.items():
        players = [p for p in PLAYER_COUNTS if channels(p) == c]
        if players and n == hex_verbs * h * w + global_verbs:
            raise ModelMismatchError(
                f"{name} was trained on {old} ({n} actions, {c} channels) and cannot play {ENV_NAME} "
                f"({actions} actions, {ChannelLayout(players[0]).n_channels} channels); retrain for "
                f"{ENV_NAME} with {RETRAIN}")
    raise ModelMismatchError(f"{name} has {n} actions and {c} channels, not a {ENV_NAME} model "
                             f"({N_HEX_VERBS} * HW + {N_GLOBAL_VERBS} actions, {sorted(CHANNELS)} "
                             f"channels); retrain for {ENV_NAME} with {RETRAIN}")


def model_players(model: Any) -> int:
    """The player count a (checked) model was trained for, from its observation channels."""
    return CHANNELS[int(model.observation_space.shape[0])]


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


class PPOSearchAgent(SearchAgent):
    """A trained policy and its value head inside the search bot (``ppo-search:``).

    At each decision the network proposes its ``propose`` most likely legal actions (those of
    probability at least ``min_prob``); they join the search bot's candidates (the greedy
    heuristic's best few), and :class:`agents.heuristic.search.SearchAgent` simulates each in the same
    futures and plays the best. Each simulation's end position is scored by the search bot's
    tactical evaluation plus ``value_weight`` times the network's value of it for the player
    searching (its estimate of the game's outcome, -1 to 1, in victory tokens at that weight).
    Decision-time planning on top of the learned policy and value, as AlphaZero does: the
    policy chooses what to search, the value judges where the searches end.
    """

    name = "ppo-search"
    reads_observation = True  # the network proposes from the observation

    def __init__(self, model: Any, path: str = "", propose: int = 2, min_prob: float = 0.05,
                 value_weight: float = 0.0, iterations: int = PPO_SEARCH_ITERATIONS,
                 ms: float | None = None, seed: int | None = None, **search: Any) -> None:
        super().__init__(iterations=iterations, ms=ms, seed=seed, **search)
        if propose < 1:
            raise ValueError(f"ppo-search proposes at least 1 action, got {propose}")
        self.network = PPOAgent(model, path)
        self.propose, self.min_prob, self.value_weight = propose, min_prob, value_weight
        self._encoders: dict[int, ObservationEncoder] = {}

    def act(self, observation: np.ndarray, action_mask: np.ndarray, info: dict[str, Any]) -> int:
        state, legal = self.state_and_legal(info)
        if len(legal) == 1:
            return self.codec(state).to_env(legal[0])
        probs = self.network.action_probs(observation, action_mask)
        best = np.argsort(-probs, kind="stable")[: self.propose]
        codec = self.codec(state)
        proposed = [codec.to_engine(int(i)) for i in best if probs[i] >= self.min_prob] or \
            [codec.to_engine(int(best[0]))]
        return codec.to_env(self.choose(state, legal, proposed))

    def leaf_value(self, s: GameState, me: int, info: Any) -> float:
        value = super().leaf_value(s, me, info)
        if self.value_weight:
            value += self.value_weight * self.network_value(s, me)
        return value

    def network_value(self, state: GameState, seat: int) -> float:
        """The value head's estimate of ``state`` for ``seat`` (about -1 lost to 1 won)."""
        board = state.gmap.board
        encoder = self._encoders.get(id(board))
        if encoder is None:
            encoder = self._encoders[id(board)] = ObservationEncoder(state.gmap, state.config.rounds_per_phase)
        policy = self.network.model.policy
        threads = th.get_num_threads()
        th.set_num_threads(1)
        try:
            with th.no_grad():
                obs = th.as_tensor(encoder.encode(state, seat), device=policy.device)[None]
                return float(policy.predict_values(obs)[0, 0])
        finally:
            th.set_num_threads(threads)


def load_ppo_search_agent(spec: str | Path, iterations: int = PPO_SEARCH_ITERATIONS, ms: float | None = None,
                          seed: int | None = None, value_weight: float = 0.0) -> PPOSearchAgent:
    """The model saved at ``spec`` (``"pretrained"``: the shipped one) with the search bot on top."""
    path = resolve_model_path(spec)
    return PPOSearchAgent(load_model(spec), str(path), iterations=iterations, ms=ms, seed=seed,
                          value_weight=value_weight)
