"""The self-taught network and its agents: ``az:MODEL`` and ``az-search:MODEL[:N][:Mms]`` (:mod:`agents.registry`).

:class:`AZNet` is the PPO network's trunk and action head (:mod:`agents.network`, the same
modules, so PPO weights load as they are) with a value head of one output per player: the
game's result for each player, seen from the player to move (entry k: the player k seats after).

A model file (``.pt``, written by ``vigtavl az train``: ``runs/<run>/generations/gen_<k>.pt``) is a
plain dict of tensors and numbers, loaded with ``torch.load(weights_only=True)`` (no pickled
code runs): :data:`FORMAT`, the environment's name, the observation shape, the action count,
the player count, the network sizes and the weights. A file for another environment version,
or no such file at all, is refused in one line.

- ``az:MODEL``: :class:`AZAgent`, the network alone, one forward pass per decision: its most
  likely legal action.
- ``az-search:MODEL[:N][:Mms]``: :class:`AZSearchAgent`, :mod:`agents.gumbel`'s search with N
  simulations (default :data:`AZ_SEARCH_SIMULATIONS`), no Gumbel noise: deterministic for a seed
  unless a time limit of M milliseconds per decision cuts it short (``vigtavl serve`` sets one).

``MODEL`` is a path, or ``pretrained`` for the shipped one (``agents/pretrained/az/``: its README
says how it was trained and how strong it is).
"""

from __future__ import annotations

import contextlib
import functools
import math
import time
from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import IO, Any

import gymnasium
import numpy as np
import torch as th
from torch import nn

from agents.game_steps import GameSteps, steps_for
from agents.gumbel import BatchedSearch, SearchConfig
from agents.kinds import AZ_SEARCH_SIMULATIONS
from agents.network import ActionPlanesHead, HexConvExtractor, PooledValueHead
from agents.ppo import env_facts
from games import load_game
from games.agent import Agent, AgentUnavailableError

AZ_GAME = "vigtavl"
"""The game the az networks play (``vigtavl az`` trains, benches and checks it), read through
the registry and its steps (:func:`agents.game_steps.steps_for`)."""
FORMAT = "vigtavl-az/1"
# az-search's defaults (docs/changelog.md, "`ppo:pretrained-4p` shipped, `az-search` batched"): a Sequential Halving pass goes to
# the network in one call, so 24 simulations over 8 actions cost about the search bot's CPU per
# decision; sigma(q) as gentle as in training (c_scale 0.03): at 0.1 the dice-noisy q values
# overrode a better prior (56.2% against 64.0% for the network alone, same seeds).
AZ_SEARCH_CONSIDERED = 8
AZ_SEARCH_C_SCALE = 0.03
# The phase from which az-search searches (before it, the network's prior decides alone): the
# first phase (Vigtavl's placement), so every phase. Searching from the battle phase only, where the value head starts to
# predict the result, was measured on 600 games and did no better (docs/changelog.md, "`az-search`
# over 600 games; searching from the battle phase tried"); the option stays for experiments.
AZ_SEARCH_FROM_PHASE = 0
PRETRAINED = "pretrained"
PRETRAINED_PATH = Path(__file__).resolve().parent / "pretrained" / "az" / "vigtavl_az.pt"
TRAIN_ONE = "`vigtavl az train --config az`"
MODEL_CACHE_SIZE = 16


class AZModelError(AgentUnavailableError):
    """A file that is not an az model of this environment (one line, a ValueError)."""


# ------------------------------------------------------------------ the network
class AZNet(nn.Module):
    """Trunk -> (logits in the env's action order, one value per player seen from the observer)."""

    def __init__(self, obs_shape: Sequence[int], n_players: int, channels: int = 32, blocks: int = 3,
                 hidden: Sequence[int] = (128,)) -> None:
        super().__init__()
        c, h, w = (int(x) for x in obs_shape)
        self.obs_shape, self.n_players = (c, h, w), int(n_players)
        self.sizes = {"channels": int(channels), "blocks": int(blocks), "hidden": [int(x) for x in hidden]}
        space = gymnasium.spaces.Box(-np.inf, np.inf, (c, h, w), dtype=np.float32)
        self.trunk = HexConvExtractor(space, channels=channels, blocks=blocks)
        facts = env_facts(AZ_GAME)  # the game's verbs: its codec is verb * HW + cell, then the globals
        self.n_actions = facts.cell_verbs * h * w + facts.global_verbs
        self.policy = ActionPlanesHead(channels, h, w, self.n_actions)
        self.value = PooledValueHead(channels, h, w, list(hidden), outputs=n_players)

    def forward(self, obs: th.Tensor) -> tuple[th.Tensor, th.Tensor]:
        latent = self.trunk(obs)
        return self.policy(latent), self.value(latent)


def from_ppo(model: Any) -> AZNet:
    """An :class:`AZNet` with a trained PPO model's weights (a ``policy: cnn`` MaskablePPO): the
    trunk and action head as they are; the value head's hidden layers as they are and its output
    turned into one per player: the PPO value for the observer, and minus it shared among the
    others (exact for 2 players, whose results sum to zero)."""
    policy = model.policy
    fe = policy.features_extractor
    if not isinstance(fe, HexConvExtractor) or not isinstance(policy.action_net, ActionPlanesHead):
        raise ValueError("only a `policy: cnn` PPO model (agents.network.HexCnnPolicy) converts to an az network")
    from agents.ppo import model_players
    n = model_players(model)
    hidden = [m.out_features for m in policy.value_net.mlp[:-1] if isinstance(m, nn.Linear)]
    net = AZNet(model.observation_space.shape, n, fe.channels, len(fe.blocks), hidden)
    net.trunk.load_state_dict(fe.state_dict())
    net.policy.load_state_dict(policy.action_net.state_dict())
    src, dst = policy.value_net.mlp, net.value.mlp
    for a, b in zip(src[:-1], dst[:-1]):
        b.load_state_dict(a.state_dict())
    with th.no_grad():
        w, bias = src[-1].weight[0], src[-1].bias[0]
        dst[-1].weight[0], dst[-1].bias[0] = w, bias
        for k in range(1, n):
            dst[-1].weight[k], dst[-1].bias[k] = -w / (n - 1), -bias / (n - 1)
    return net


# ------------------------------------------------------------------ model files
def az_steps() -> GameSteps:
    """The az game's step functions (Vigtavl's engine-bound ones)."""
    return steps_for(load_game(AZ_GAME))


def model_payload(net: AZNet) -> dict[str, Any]:
    return {"format": FORMAT, "env": load_game(AZ_GAME).version, "obs_shape": list(net.obs_shape), "n_actions": net.n_actions,
            "n_players": net.n_players, "net": dict(net.sizes),
            "state_dict": {k: v.detach().cpu() for k, v in net.state_dict().items()}}


def save_az_model(net: AZNet, f: str | Path | IO[bytes]) -> None:
    """Write ``net`` as a model file (into a path or an open binary file: training writes
    through training/files.py for atomic saves)."""
    th.save(model_payload(net), f)


def net_from_payload(payload: Any, name: str) -> AZNet:
    """The network a model file's dict describes; :class:`AZModelError` in one line otherwise."""
    if not isinstance(payload, dict) or payload.get("format") != FORMAT:
        raise AZModelError(f"{name} is not an az model file (format {FORMAT}): train one with {TRAIN_ONE}")
    version = load_game(AZ_GAME).version
    if payload.get("env") != version:
        raise AZModelError(f"{name} was trained on {payload.get('env')} and cannot play {version}; "
                           f"retrain with {TRAIN_ONE}")
    try:
        net = AZNet(payload["obs_shape"], payload["n_players"], **payload["net"])
        net.load_state_dict(payload["state_dict"])
    except (KeyError, TypeError, RuntimeError) as e:
        first = (str(e).strip().splitlines() or [""])[0][:160]
        raise AZModelError(f"{name} is a damaged az model file ({type(e).__name__}: {first})") from None
    net.eval()
    return net


def resolve_az_path(spec: str | Path) -> Path:
    """``pretrained`` -> the shipped model; else the path, which must be a file."""
    if str(spec) == PRETRAINED:
        if not PRETRAINED_PATH.is_file():
            raise FileNotFoundError(f"az:{PRETRAINED} is not shipped yet ({PRETRAINED_PATH.name}): train one "
                                    f"with {TRAIN_ONE} and give its runs/<run>/generations/gen_<k>.pt")
        return PRETRAINED_PATH
    path = Path(spec)
    if not path.is_file():
        raise FileNotFoundError(f"az model {path} does not exist (a model file is "
                                "runs/<run>/generations/gen_<k>.pt, written by `vigtavl az train`)")
    return path


@functools.lru_cache(maxsize=MODEL_CACHE_SIZE)
def _load(path: str, mtime_ns: int, size: int) -> AZNet:
    try:
        payload = th.load(path, map_location="cpu", weights_only=True)
    except Exception as e:  # not a torch file, truncated, a pickle with code in it
        first = (str(e).strip().splitlines() or [""])[0][:160]
        raise AZModelError(f"az model {path} cannot be read ({type(e).__name__}: {first}): not a model "
                           f"written by `vigtavl az train`, or a damaged one") from None
    return net_from_payload(payload, f"az model {path}")


def load_az_net(spec: str | Path) -> AZNet:
    """The network of a model file (or ``pretrained``), cached per file version in this process."""
    path = resolve_az_path(spec).resolve()
    st = path.stat()
    return _load(str(path), st.st_mtime_ns, st.st_size)


# ------------------------------------------------------------------ the network as the search's evaluator
class NetEvaluator:
    """:class:`agents.gumbel.Evaluator` over an :class:`AZNet`: encodes the positions (the
    ``steps``' observations, default :func:`az_steps`), one forward pass for all of them, the
    logits of each position's legal codes (at the steps' indices) and its value vector."""

    def __init__(self, net: AZNet, device: str | th.device = "cpu", steps: GameSteps | None = None) -> None:
        self.net, self.device = net, th.device(device)
        self.steps = az_steps() if steps is None else steps

    def encode(self, states: Sequence[Any]) -> np.ndarray:
        return self.steps.encode(states)

    def __call__(self, states: Sequence[Any], legal: Sequence[list[int]]) -> tuple[list[np.ndarray], np.ndarray]:
        obs = self.encode(states)
        if obs.shape[1:] != self.net.obs_shape:
            raise ValueError(f"the az network was trained on observations {self.net.obs_shape}; this game "
                             f"has {obs.shape[1:]} (another player count or board size)")
        with th.no_grad():
            logits, values = self.net(th.as_tensor(obs, device=self.device))
        logits_np, values_np = logits.float().cpu().numpy(), values.float().cpu().numpy().astype(np.float64)
        out = [logits_np[k, self.steps.indices(s, codes)].astype(np.float64)
               for k, (s, codes) in enumerate(zip(states, legal))]
        return out, values_np


@contextlib.contextmanager
def _one_thread() -> Iterator[None]:
    """One torch thread while an agent decides (one position: more threads only wait)."""
    threads = th.get_num_threads()
    th.set_num_threads(1)
    try:
        yield
    finally:
        th.set_num_threads(threads)


# ------------------------------------------------------------------ agents
def prior_choice(net: AZNet, observation: np.ndarray, action_mask: np.ndarray, path: str = "") -> int:
    """The network's most likely legal action (env index): one forward pass."""
    if tuple(observation.shape) != net.obs_shape or action_mask.shape != (net.n_actions,):
        raise ValueError(f"az model {path} was trained on observations {net.obs_shape} and "
                         f"{net.n_actions} actions; this game has {tuple(observation.shape)} and "
                         f"{action_mask.shape[0]} (another player count or board size)")
    with _one_thread(), th.no_grad():
        logits, _ = net(th.as_tensor(observation, dtype=th.float32)[None])
    scores = logits[0].numpy().astype(np.float64)
    scores[np.asarray(action_mask) == 0] = -np.inf
    return int(np.argmax(scores))


class AZAgent(Agent):
    """The network alone: its most likely legal action, one forward pass per decision."""

    name = "az"

    def __init__(self, net: AZNet, path: str = "", seed: int | None = None) -> None:
        self.net, self.path = net, path
        self.seat = 0

    def act(self, observation: np.ndarray, action_mask: np.ndarray, info: dict[str, Any]) -> int:
        return prior_choice(self.net, observation, action_mask, self.path)


class AZSearchAgent(Agent):
    """The network inside :mod:`agents.gumbel`'s search, ``simulations`` per decision, from phase
    ``search_from`` on (before it, the network alone; default :data:`AZ_SEARCH_FROM_PHASE`, every
    phase), within ``ms`` milliseconds of wall time per decision when given (the simulations
    done by then decide); needs ``info["state"]`` (the engine state, as the search bot does)."""

    name = "az-search"

    def __init__(self, net: AZNet, path: str = "", simulations: int = AZ_SEARCH_SIMULATIONS,
                 seed: int | None = None, considered: int = AZ_SEARCH_CONSIDERED,
                 c_scale: float = AZ_SEARCH_C_SCALE, search_from: int = AZ_SEARCH_FROM_PHASE,
                 ms: float | None = None) -> None:
        steps = az_steps()
        phases = steps.phase_names[:-1]  # the last is the game's end
        if isinstance(search_from, bool) or search_from not in range(len(phases)):
            raise ValueError(f"search_from must be a phase number 0..{len(phases) - 1} "
                             f"({', '.join(phases)}), not {search_from!r}")
        if ms is not None and (isinstance(ms, bool) or not ms > 0 or not math.isfinite(ms)):
            raise ValueError(f"ms must be a positive number of milliseconds per decision, not {ms!r}")
        self.net, self.path, self.search_from, self.ms = net, path, search_from, ms
        # a pass of Sequential Halving (one leaf per root action in it) goes to the network at once
        self.cfg = SearchConfig(simulations=simulations, considered=considered, c_scale=c_scale, gumbel_scale=0.0,
                                leaves_per_round=considered)
        self.steps, self.evaluator = steps, NetEvaluator(net, steps=steps)
        self.search = BatchedSearch(self.evaluator, net.n_players, self.cfg, seed=seed, steps=steps)
        self.seat = 0

    def reset(self, seat: int, seed: int | None = None) -> None:
        self.seat = seat
        self.search.rng.seed(seed)

    def act(self, observation: np.ndarray, action_mask: np.ndarray, info: dict[str, Any]) -> int:
        state, steps = info.get("state"), self.steps
        if state is None:
            raise ValueError(f"{self.name} needs info['state'], the engine state (see vigtavl_env.agent.agent_info)")
        if steps.phase(state) < self.search_from:
            return prior_choice(self.net, observation, action_mask, self.path)
        legal = steps.legal(state)
        if len(legal) == 1:
            return int(steps.indices(state, legal)[0])
        deadline = None if self.ms is None else time.perf_counter() + self.ms / 1000.0
        with _one_thread():
            result = self.search.run([state], deadline=deadline)[0]
        return int(steps.indices(state, [result.action])[0])


def load_az_agent(spec: str | Path, seed: int | None = None) -> AZAgent:
    path = resolve_az_path(spec)
    return AZAgent(load_az_net(spec), str(path), seed=seed)


def load_az_search_agent(spec: str | Path, simulations: int = AZ_SEARCH_SIMULATIONS,
                         seed: int | None = None, ms: float | None = None) -> AZSearchAgent:
    path = resolve_az_path(spec)
    return AZSearchAgent(load_az_net(spec), str(path), simulations=simulations, seed=seed, ms=ms)
