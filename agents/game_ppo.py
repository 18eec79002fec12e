"""A MaskablePPO model trained on any registered game (``training.game_train``) as a player.

``ppo:PATH`` among the generic kinds (:data:`agents.generic.GENERIC_KINDS`): the model at PATH
plays its most likely legal action for the seat it is asked for, from that seat's observation
of the view it is handed (so it sees what its seat may see, nothing more); with ``sample``
(training's evaluation when ``eval_sample`` is set) it draws its action from the policy, seeded. A model of another
board shape or number of actions is refused at its first decision, in one line.

``ppo:pretrained`` is the game's shipped model, ``agents/pretrained/<game>/<game>_ppo.zip``
(:func:`pretrained_path`; Thrones': ``agents/pretrained/thrones/thrones_ppo.zip``): the same spec
that names Vigtavl's shipped network (:mod:`agents.ppo`) names each game's own. A game that ships
none yet is refused in one line.
"""

from __future__ import annotations

import functools
import warnings
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import numpy as np
import torch as th

from agents.shipped import pretrained_path
from games.interface import GameState

MODEL_CACHE_SIZE = 8
PRETRAINED = "pretrained"
MASKED = -1e8  # an illegal action's logit, as sb3_contrib's masked distribution sets it


def model_path(arg: str, game: str | None = None) -> Path:
    """The model file ``ppo:PATH`` names, or ``ppo:pretrained`` for ``game`` (ValueError, one
    line, if there is none)."""
    if not arg:
        raise ValueError("ppo takes the path of a model: ppo:runs/<run>/best_model.zip")
    if arg == PRETRAINED and game is not None:
        path = pretrained_path(game)
        if not path.is_file():
            raise ValueError(f"no pretrained model of {game} is shipped yet (agents/pretrained/{game}/{path.name}"
                             f" is missing); train one with vigtavl train --game {game} and play it as ppo:PATH")
        return path.resolve()
    path = Path(arg).expanduser()
    if not path.is_file():
        raise ValueError(f"model {arg[:80]!r} does not exist (train one with vigtavl train --game NAME)")
    return path.resolve()


def load_model_file(path: str | Path) -> Any:
    """The MaskablePPO saved at ``path``, a fresh copy (one a trainer may change); ValueError in
    one line for a file that is no model."""
    from sb3_contrib import MaskablePPO

    from agents.ppo import one_line
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            return MaskablePPO.load(path, device="cpu")
    except Exception as e:
        raise ValueError(f"model {path} cannot be loaded ({one_line(e)})") from None


@functools.lru_cache(maxsize=MODEL_CACHE_SIZE)
def _load(path: str, mtime_ns: int, size: int) -> Any:
    """One model per file version in this process (the arena makes a player per game)."""
    model = load_model_file(path)
    model.policy.set_training_mode(False)
    return model


def load_game_model(arg: str, game: str | None = None) -> Any:
    """The MaskablePPO saved at ``arg`` (``pretrained``: ``game``'s), cached until the file changes."""
    path = model_path(arg, game)
    st = path.stat()
    return _load(str(path), st.st_mtime_ns, st.st_size)


class PPOPlayer:
    """A trained model's most likely legal action (module docstring)."""

    def __init__(self, arg: str, seed: int | None = None, sample: bool = False, game: str | None = None) -> None:
        self.model = load_game_model(arg, game)
        self.name, self.sample = arg, sample
        self.rng = np.random.default_rng(seed)

    def check_fits(self, obs: np.ndarray, legal: list[int]) -> None:
        """ValueError in one line for a model trained on another board shape or action count."""
        space, n = self.model.observation_space, int(self.model.action_space.n)
        if obs.shape != space.shape or max(legal) >= n:
            raise ValueError(f"model {self.name[:80]} was trained for boards {space.shape} and {n} actions, "
                             f"not this game's {obs.shape}")

    def __call__(self, view: GameState, legal: list[int]) -> int:
        obs = view.observation(view.current_player())
        self.check_fits(obs, legal)
        probs = policy_probs(self.model.policy, obs[None], [legal])[0]
        if not self.sample:
            return int(legal[int(np.argmax(probs))])
        p = probs.astype(np.float64)
        return int(legal[self.rng.choice(len(legal), p=p / p.sum())])


def policy_probs(policy: Any, obs: np.ndarray, legals: Sequence[list[int]]) -> list[np.ndarray]:
    """The masked policy's probabilities of each row's legal actions (in their order), as the
    model's masked distribution gives them: one pass of the actor, without SB3's per-call
    ``predict`` bookkeeping (which cost more than the network where a model plays opponents)."""
    with th.no_grad():
        logits = policy_logits(policy, th.as_tensor(obs))
        masked = th.full_like(logits, MASKED)
        for row, legal in enumerate(legals):
            index = th.as_tensor(legal)
            masked[row, index] = logits[row, index]
        probs = th.softmax(masked, 1).numpy()
    return [probs[row, legal] for row, legal in enumerate(legals)]


def policy_logits(policy: Any, obs: th.Tensor) -> th.Tensor:
    """A MaskablePPO policy's logits over every action (the actor's pass alone)."""
    features = policy.extract_features(obs, policy.pi_features_extractor)
    return policy.action_net(policy.mlp_extractor.forward_actor(features))
