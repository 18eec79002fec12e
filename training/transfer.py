"""Start a network from another one's weights, across a rules version (``init_from``).

Rules v2 added observation channels (the defended pieces, three pending kinds, the variants'
features) and actions (two hex verbs, six "choose variant" globals) to v1's, and changed none of
v1's. A v1 network therefore carries over: each v1 channel's input weights go to the v2 channel
of the same name, v1's verbs keep their output rows, and what is new starts at zero (a new input
is ignored until training finds a use for it; a new action's logit starts at 0, and the new
actions are legal only where they are the only ones, so that costs nothing). The weights of the
same environment are copied as they are.

A network of this environment for fewer players carries over the same way (``init_from`` of a
3-player model in a 4-player run): the network is convolutional, so its weights fit any map;
each channel of relative seat k goes to the channel of the same name, and the new seats' start at
zero.

Vigtavl is read through the game interface: its channels by name
(``load_game("vigtavl").channel_names``) and its actions and versions as :mod:`agents.ppo` knows
them (:func:`agents.ppo.env_facts`, ``OLD_VERSIONS``).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import torch as th

from agents.ppo import GAME, OLD_VERSIONS, env_facts, saved_module_names
from games import load_game

# What rules v2 added to v1's observation (channel names) and actions.
V2_NEW_CHANNELS = ("defended", "pending_variant", "pending_prison", "pending_rescue")
V2_NEW_CHANNEL_PREFIX = "variant_"
V1_HEX_VERBS, V1_GLOBAL_VERBS, _ = OLD_VERSIONS["vigtavl_v1"]  # v2's first 55 verbs and first 6 globals


class TransferError(ValueError):
    """The model cannot be carried over (one line)."""


def v1_channel_names(n_players: int) -> list[str]:
    """v1's observation channels, by name, in v1's order (v2's without what v2 added)."""
    return [n for n in channel_names(n_players)
            if n not in V2_NEW_CHANNELS and not n.startswith(V2_NEW_CHANNEL_PREFIX)]


def channel_names(n_players: int) -> list[str]:
    """This environment's observation channels for ``n_players``, by name, in order."""
    return load_game(GAME).channel_names(n_players)


def _read(path: Path) -> tuple[tuple[int, ...], int, dict[str, th.Tensor]]:
    from stable_baselines3.common.save_util import load_from_zip_file

    try:
        with saved_module_names():
            data, params, _ = load_from_zip_file(str(path), device="cpu")
    except Exception as e:  # noqa: BLE001 - any unreadable file is one line
        raise TransferError(f"init_from {path}: not a readable SB3 model ({type(e).__name__}: {e})") from None
    try:
        shape = tuple(data["observation_space"].shape)
        n = int(data["action_space"].n)
        return shape, n, params["policy"]
    except (KeyError, TypeError, AttributeError):
        raise TransferError(f"init_from {path}: the model has no observation/action spaces or policy") from None


def _fewer_players(shape: tuple[int, ...], n_actions: int, n_players: int) -> int:
    """The player count of a network of this environment for fewer players than ``n_players``
    (its observation and actions on its own map), or 0. Its relative seats (self, opp1, ...) are
    all among the wider game's, whose last seats start at zero."""
    env = env_facts()
    p = env.channels.get(shape[0], 0)
    fits = n_actions == env.cell_verbs * shape[1] * shape[2] + env.global_verbs
    return p if fits and p < n_players else 0


def load_weights_from(policy: Any, path: str | Path) -> str:
    """Copy the weights of the SB3 model at ``path`` into ``policy`` (same environment, or v1
    widened to v2); returns what was done, in a few words. Raises :class:`TransferError`."""
    path = Path(path)
    shape, n_old, old = _read(path)
    new = policy.state_dict()
    c_new, h, w = policy.observation_space.shape
    n_players = env_facts().channels[c_new]
    if len(shape) != 3:
        raise TransferError(f"init_from {path}: observations {shape} are not hex planes")
    fewer = _fewer_players(shape, n_old, n_players)
    if fewer:  # the network is convolutional: its weights fit any map; the players' channels go by name
        src_names, names = channel_names(fewer), channel_names(n_players)
        how, channel_map = f"the {fewer}-player network widened to {n_players} players", [names.index(x) for x in src_names]
    elif shape[1:] != (h, w):
        raise TransferError(f"init_from {path}: observations {shape} do not fit this map's {(c_new, h, w)}")
    elif shape[0] == c_new and n_old == policy.action_space.n:
        how, channel_map = "same environment", None
    elif shape[0] == len(v1_channel_names(n_players)) and n_old == V1_HEX_VERBS * h * w + V1_GLOBAL_VERBS:
        names = channel_names(n_players)
        channel_map = [names.index(x) for x in v1_channel_names(n_players)]
        how = "vigtavl_v1 widened to this environment"
    else:
        raise TransferError(f"init_from {path}: {shape[0]} channels and {n_old} actions are neither this "
                            f"environment's nor vigtavl_v1's for {n_players} players, nor this "
                            f"environment's for fewer players")
    out = {}
    for key, target in new.items():
        if key not in old:
            raise TransferError(f"init_from {path}: the network differs (no {key!r}); use the same net settings")
        src = old[key].to(target.device)  # read on the CPU; the learner may sit on a GPU
        if src.shape == target.shape:
            out[key] = src.clone()
        elif channel_map is not None:
            out[key] = _widen(key, src, target, channel_map, h * w)
        else:
            raise TransferError(f"init_from {path}: {key} is {tuple(src.shape)}, here {tuple(target.shape)}")
    policy.load_state_dict(out)
    return how


def _widen(key: str, src: th.Tensor, target: th.Tensor, channel_map: list[int], hw: int) -> th.Tensor:
    """One v1 tensor placed into its v2 shape, zeros for what is new."""
    out = th.zeros_like(target)
    env = env_facts()
    if src.dim() == 4 and src.shape[1] == len(channel_map):  # the first convolution: input channels
        out[:, channel_map] = src
    elif src.shape[0] == V1_HEX_VERBS and target.shape[0] == env.cell_verbs:  # the verbs' 1x1 convolution
        out[:V1_HEX_VERBS] = src
    elif src.shape[0] == V1_GLOBAL_VERBS and target.shape[0] == env.global_verbs:  # the globals' linear
        out[:V1_GLOBAL_VERBS] = src
    else:
        raise TransferError(f"cannot widen {key} from {tuple(src.shape)} to {tuple(target.shape)}")
    return out
