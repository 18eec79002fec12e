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
- ``policy: cnn`` -- :class:`HexCnnPolicy`, fully convolutional, for any game whose action codec
  is laid out ``code = verb * HW + cell`` then the global verbs (Vigtavl's ``codec.py``, Thrones'
  ``codec.py``): a 1x1 convolution turns the trunk into one plane per cell verb, flattened plane
  by plane, which is exactly that layout; the global verbs' logits and the value come from the
  trunk pooled over the board (mean and max). The counts come from the board's shape and the
  game's number of actions (:func:`verb_counts`): 55 cell verbs and 6 global ones for Vigtavl,
  24 and 4 for Thrones; the trunk is the hex one on a hex board, the plain one on a grid.

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


def grid_pool(x: th.Tensor) -> th.Tensor:
    """``(B, C, H, W)`` trunk features -> ``(B, 2C)``: mean over every cell of a grid and max."""
    flat = x.flatten(2)
    return th.cat([flat.mean(-1), flat.amax(-1)], dim=1)


def board_pool(extractor: nn.Module) -> Callable[[th.Tensor], th.Tensor]:
    """The pooling over the board that ``extractor``'s trunk lies on: the hexagon's or the grid's."""
    return hex_pool if isinstance(extractor, HexConvExtractor) else grid_pool


def verb_counts(n_actions: int, height: int, width: int) -> tuple[int, int]:
    """``(cell verbs, global verbs)`` of a codec laid out ``verb * HW + cell``, then the globals
    (fewer than the board's cells): what the fully convolutional head needs to know of a game."""
    cell_verbs, global_verbs = divmod(int(n_actions), height * width)
    if cell_verbs < 1:
        raise ValueError(f"{n_actions} actions are fewer than one verb on each of a {height}x{width} "
                         f"board's cells: the convolutional policy needs verb * HW + cell codes")
    return cell_verbs, global_verbs


# ------------------------------------------------------------------ the fully convolutional head
class ActionPlanesHead(nn.Module):
    """Trunk -> logits in the codec's order: one plane per cell verb (verb * HW + cell), then the
    global verbs from the pooled trunk."""

    def __init__(self, channels: int, height: int, width: int, n_actions: int,
                 pool: Callable[[th.Tensor], th.Tensor] = hex_pool) -> None:
        super().__init__()
        self.channels, self.height, self.width, self.pool = channels, height, width, pool
        cell_verbs, global_verbs = verb_counts(n_actions, height, width)
        self.verbs = nn.Conv2d(channels, cell_verbs, kernel_size=1)
        self.globals = nn.Linear(2 * channels, global_verbs)

    def forward(self, latent: th.Tensor) -> th.Tensor:
        x = latent.view(-1, self.channels, self.height, self.width)
        cell_logits = self.verbs(x).flatten(1)  # (B, V * H * W): plane v, row, col -> v * HW + row * W + col
        return th.cat([cell_logits, self.globals(self.pool(x))], dim=1)


class PooledValueHead(nn.Module):
    """Trunk -> pooled over the board -> MLP -> value (``outputs`` values: 1 for PPO's critic,
    one per player for :mod:`agents.az`'s value vector)."""

    def __init__(self, channels: int, height: int, width: int, hidden: list[int], outputs: int = 1,
                 pool: Callable[[th.Tensor], th.Tensor] = hex_pool) -> None:
        super().__init__()
        self.channels, self.height, self.width, self.pool = channels, height, width, pool
        layers: list[nn.Module] = []
        size = 2 * channels
        for h in hidden:
            layers += [nn.Linear(size, h), nn.ReLU()]
            size = h
        layers.append(nn.Linear(size, outputs))
        self.mlp = nn.Sequential(*layers)

    def forward(self, latent: th.Tensor) -> th.Tensor:
        return self.mlp(self.pool(latent.view(-1, self.channels, self.height, self.width)))


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
    """Maskable actor-critic with the fully convolutional action head (see the module docstring),
    on a hex board or a grid. (Its name is older than the grid: saved models name this class.)

    Needs ``features_extractor_class`` :class:`HexConvExtractor` or :class:`GridConvExtractor`;
    ``value_hidden`` sizes the value MLP.
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
        if not isinstance(fe, (HexConvExtractor, GridConvExtractor)):
            raise ValueError("HexCnnPolicy needs features_extractor_class HexConvExtractor or GridConvExtractor")
        pool = board_pool(fe)
        self._build_mlp_extractor()
        self.action_net = ActionPlanesHead(fe.channels, fe.height, fe.width, int(self.action_space.n), pool)
        self.value_net = PooledValueHead(fe.channels, fe.height, fe.width, self.value_hidden, pool=pool)
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
    "hex" (Vigtavl's tensor) or "grid" (any other game's). Both heads are sized by the game's
    number of actions; "cnn" needs a ``verb * HW + cell`` codec (:func:`verb_counts`)."""
    if board not in ("hex", "grid"):
        raise ValueError(f"board must be 'hex' or 'grid', got {board!r}")
    extractor = dict(features_extractor_class=HexConvExtractor if board == "hex" else GridConvExtractor,
                     features_extractor_kwargs=dict(channels=channels, blocks=blocks))
    if policy == "cnn":
        return HexCnnPolicy, dict(extractor, value_hidden=list(hidden))
    if policy == "mlp":
        return MaskableActorCriticPolicy, dict(extractor, net_arch=dict(pi=list(hidden), vf=list(hidden)))
    raise ValueError(f"policy must be 'cnn' or 'mlp', got {policy!r}")


