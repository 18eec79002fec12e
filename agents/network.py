"""The PPO networks over Vigtavl's hex tensor and any other game's board, and trained models as agents.

The observation is a ``(C, H, W)`` float32 stack of planes over the axial square tensor (channel
0, ``board``, is 1 on the hexagon): hex ``(q, r)`` sits at row ``r + R``, column ``q + R``, so
its six neighbours are the same array offsets everywhere -- ``(0, ±1)``, ``(±1, 0)``,
``(-1, +1)`` and ``(+1, -1)`` in (row, column). A 3x3 convolution therefore sees hex
neighbourhoods consistently; :class:`HexConv2d` also zeroes the two kernel corners
``(-1, -1)`` and ``(+1, +1)``, which are two steps away, so each kernel is exactly a hex and its
six neighbours.

- :class:`HexConvExtractor`: a hex convolution, then residual blocks of two; after every layer the
  features off the hexagon are zeroed (multiplied by the board plane). Output: the trunk
  flattened, ``channels * H * W``.
- :class:`GridConvExtractor`: the same trunk with plain 3x3 convolutions for any other game's
  ``(C, H, W)`` board (``policy_spec(..., board="grid")``, policy ``mlp``: one logit per action
  of that game).
- ``policy: mlp`` -- sb3-contrib's ``MaskableActorCriticPolicy`` with that extractor: trunk,
  flatten, MLP, one logit per action.
- ``policy: cnn`` -- :class:`HexCnnPolicy`, fully convolutional: a 1x1 convolution turns the trunk
  into 55 planes, one per hex verb (``N_HEX_VERBS``), flattened plane by plane, which is exactly
  the env's layout ``index = verb * HW + tensor_cell`` (``codec.py``); the six logits of the
  global verbs (end activation, end turn, no defence, the three setup loads: ``N_GLOBAL_VERBS``)
  and the value come from the trunk pooled over the hexagon (mean and max).

Training builds these (``training.train``, ``training.rllib``); :mod:`agents.ppo` loads trained
models as agents.
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from typing import Any

import gymnasium
import numpy as np
import torch as th
from sb3_contrib.common.maskable.policies import MaskableActorCriticPolicy
from stable_baselines3.common.torch_layers import BaseFeaturesExtractor
from torch import nn
from torch.nn import functional as F

from vigtavl_env.engine.actions import N_GLOBAL_VERBS, N_HEX_VERBS

# The logit a masked action gets (log 0, as sb3-contrib's masking fills it): one constant for every
# learner, so a masked action has probability exactly 0 in float32 wherever it is masked.
MASKED_LOGIT = -1e8

BOARD_CHANNEL = 0


# ------------------------------------------------------------------ the trunk
class HexConv2d(nn.Conv2d):
    """A 3x3 convolution over the axial tensor whose kernel covers a hex and its six neighbours."""

    def __init__(self, in_channels: int, out_channels: int) -> None:
        super().__init__(in_channels, out_channels, kernel_size=3, padding=1)
        mask = th.ones(1, 1, 3, 3)
        mask[..., 0, 0] = 0.0  # (row, col) offset (-1, -1): axial (dq, dr) = (-1, -1), distance 2
        mask[..., 2, 2] = 0.0  # (+1, +1): distance 2
        self.register_buffer("kernel_mask", mask, persistent=False)

    def forward(self, x: th.Tensor) -> th.Tensor:
        return F.conv2d(x, self.weight * self.kernel_mask, self.bias, padding=1)


def grid_conv(in_channels: int, out_channels: int) -> nn.Conv2d:
    """A plain 3x3 convolution keeping the board's size (a square grid's neighbourhood)."""
    return nn.Conv2d(in_channels, out_channels, kernel_size=3, padding=1)


class ResidualBlock(nn.Module):
    """Two 3x3 convolutions (hex ones by default) and the skip; ``board`` zeroes the cells off it."""

    def __init__(self, channels: int, conv: Callable[[int, int], nn.Module] = HexConv2d) -> None:
        super().__init__()
        self.conv1 = conv(channels, channels)
        self.conv2 = conv(channels, channels)

    def forward(self, x: th.Tensor, board: th.Tensor | float = 1.0) -> th.Tensor:
        h = F.relu(self.conv1(x)) * board
        return F.relu(x + self.conv2(h)) * board


class HexConvExtractor(BaseFeaturesExtractor):
    """Hex convolution trunk; features: ``channels * H * W`` (zero off the hexagon)."""

    def __init__(self, observation_space: gymnasium.spaces.Box, channels: int = 64, blocks: int = 3) -> None:
        c, h, w = observation_space.shape
        super().__init__(observation_space, features_dim=channels * h * w)
        self.channels, self.height, self.width = channels, h, w
        self.stem = HexConv2d(c, channels)
        self.blocks = nn.ModuleList(ResidualBlock(channels) for _ in range(blocks))

    def forward(self, obs: th.Tensor) -> th.Tensor:
        board = obs[:, BOARD_CHANNEL:BOARD_CHANNEL + 1]
        x = F.relu(self.stem(obs)) * board
        for block in self.blocks:
            x = block(x, board)
        return x.flatten(1)


class GridConvExtractor(BaseFeaturesExtractor):
    """The trunk for any other game's ``(C, H, W)`` board: plain 3x3 convolutions (padded, so a
    1-row board works too) and residual blocks, every cell on the board; features
    ``channels * H * W``. The game's own actions come from the MLP head over them."""

    def __init__(self, observation_space: gymnasium.spaces.Box, channels: int = 32, blocks: int = 2) -> None:
        c, h, w = observation_space.shape
        super().__init__(observation_space, features_dim=channels * h * w)
        self.channels, self.height, self.width = channels, h, w
        self.stem = grid_conv(c, channels)
        self.blocks = nn.ModuleList(ResidualBlock(channels, grid_conv) for _ in range(blocks))

    def forward(self, obs: th.Tensor) -> th.Tensor:
        x = F.relu(self.stem(obs))
        for block in self.blocks:
            x = block(x)
        return x.flatten(1)


def hex_pool(x: th.Tensor) -> th.Tensor:
    """``(B, C, H, W)`` trunk features -> ``(B, 2C)``: mean over the hexagon's cells and max."""
    radius = (x.shape[-1] - 1) // 2
    n_cells = 3 * radius * (radius + 1) + 1  # hexes on a board of radius R (off-hexagon cells are 0)
    flat = x.flatten(2)
    return th.cat([flat.sum(-1) / n_cells, flat.amax(-1)], dim=1)


# ------------------------------------------------------------------ the fully convolutional head
class HexActionHead(nn.Module):
    """Trunk -> logits in the env's action order: 55 verb planes (verb * HW + cell), then globals."""

    def __init__(self, channels: int, height: int, width: int) -> None:
        super().__init__()
        self.channels, self.height, self.width = channels, height, width
        self.verbs = nn.Conv2d(channels, N_HEX_VERBS, kernel_size=1)
        self.globals = nn.Linear(2 * channels, N_GLOBAL_VERBS)

    def forward(self, latent: th.Tensor) -> th.Tensor:
        x = latent.view(-1, self.channels, self.height, self.width)
        hex_logits = self.verbs(x).flatten(1)  # (B, 55 * H * W): plane v, row, col -> v * HW + row * W + col
        return th.cat([hex_logits, self.globals(hex_pool(x))], dim=1)


class HexValueHead(nn.Module):
    """Trunk -> pooled over the hexagon -> MLP -> value (``outputs`` values: 1 for PPO's critic,
    one per player for :mod:`agents.az`'s value vector)."""

    def __init__(self, channels: int, height: int, width: int, hidden: list[int], outputs: int = 1) -> None:
        super().__init__()
        self.channels, self.height, self.width = channels, height, width
        layers: list[nn.Module] = []
        size = 2 * channels
        for h in hidden:
            layers += [nn.Linear(size, h), nn.ReLU()]
            size = h
        layers.append(nn.Linear(size, outputs))
        self.mlp = nn.Sequential(*layers)

    def forward(self, latent: th.Tensor) -> th.Tensor:
        return self.mlp(hex_pool(latent.view(-1, self.channels, self.height, self.width)))


class _SharedLatent(nn.Module):
    """Stands in for SB3's MlpExtractor: both heads read the trunk features as they are."""

    def __init__(self, dim: int) -> None:
        super().__init__()
        self.latent_dim_pi = self.latent_dim_vf = dim

    def forward(self, features: th.Tensor) -> tuple[th.Tensor, th.Tensor]:
        return features, features

    def forward_actor(self, features: th.Tensor) -> th.Tensor:
        return features

    def forward_critic(self, features: th.Tensor) -> th.Tensor:
        return features


class HexCnnPolicy(MaskableActorCriticPolicy):
    """Maskable actor-critic with the fully convolutional action head (see the module docstring).

    Needs ``features_extractor_class=HexConvExtractor``; ``value_hidden`` sizes the value MLP.
    """

    def __init__(self, *args: Any, value_hidden: list[int] | tuple[int, ...] = (256,), **kwargs: Any) -> None:
        self.value_hidden = list(value_hidden)
        super().__init__(*args, **kwargs)

    def _get_constructor_parameters(self) -> dict[str, Any]:
        data = super()._get_constructor_parameters()
        data["value_hidden"] = self.value_hidden
        return data

    def _build_mlp_extractor(self) -> None:
        self.mlp_extractor = _SharedLatent(self.features_dim)

    def _build(self, lr_schedule: Any) -> None:
        fe = self.features_extractor
        if not isinstance(fe, HexConvExtractor):
            raise ValueError("HexCnnPolicy needs features_extractor_class=HexConvExtractor")
        expected = N_HEX_VERBS * fe.height * fe.width + N_GLOBAL_VERBS
        if self.action_space.n != expected:
            raise ValueError(f"HexCnnPolicy: action space has {self.action_space.n} actions, the hex "
                             f"layout of a {fe.height}x{fe.width} tensor has {expected}")
        self._build_mlp_extractor()
        self.action_net = HexActionHead(fe.channels, fe.height, fe.width)
        self.value_net = HexValueHead(fe.channels, fe.height, fe.width, self.value_hidden)
        if self.ortho_init:  # SB3's gains: trunk sqrt(2), policy output 0.01, value 1
            for module, gain in ((fe, np.sqrt(2)), (self.action_net, 0.01), (self.value_net, 1.0)):
                module.apply(functools.partial(self.init_weights, gain=gain))
            for layer in self.value_net.mlp[:-1]:
                if isinstance(layer, nn.Linear):
                    self.init_weights(layer, gain=np.sqrt(2))
        self.optimizer = self.optimizer_class(self.parameters(), lr=lr_schedule(1), **self.optimizer_kwargs)


def policy_spec(policy: str, channels: int, blocks: int, hidden: list[int],
                board: str = "hex") -> tuple[type, dict[str, Any]]:
    """The SB3 policy class and ``policy_kwargs`` for ``policy`` ("cnn" or "mlp") on a ``board``:
    "hex" (Vigtavl's tensor) or "grid" (any other game's; "mlp" only, the head sized by the
    game's number of actions)."""
    if board not in ("hex", "grid"):
        raise ValueError(f"board must be 'hex' or 'grid', got {board!r}")
    extractor = dict(features_extractor_class=HexConvExtractor if board == "hex" else GridConvExtractor,
                     features_extractor_kwargs=dict(channels=channels, blocks=blocks))
    if policy == "cnn" and board == "grid":
        raise ValueError("policy 'cnn' (per-hex logits) is Vigtavl's; another game trains with policy 'mlp'")
    if policy == "cnn":
        return HexCnnPolicy, dict(extractor, value_hidden=list(hidden))
    if policy == "mlp":
        return MaskableActorCriticPolicy, dict(extractor, net_arch=dict(pi=list(hidden), vf=list(hidden)))
    raise ValueError(f"policy must be 'cnn' or 'mlp', got {policy!r}")


