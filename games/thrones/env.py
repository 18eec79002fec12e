"""Thrones as other libraries make it by id: PettingZoo's ``env()``, ``raw_env()`` and
``parallel_env()`` (the generic AEC env of :mod:`games.aec` for ``"thrones"``), and the
registered ids, spelled from one version as Vigtavl's are (``vigtavl_env.engine.version``):

    gymnasium.make("Thrones-v1", seat=0, opponent="random")   # games.single_seat.GameSingleSeatEnv
    pettingzoo.make("aec", "vigtavl/thrones-v1", seed=7)      # env(), PettingZoo's wrappers on
    pettingzoo.make("parallel", "vigtavl/thrones-v1")         # parallel_env()

Importing this module (or ``vigtavl_env``) registers them. The engine itself imports no RL
library: only this module does.
"""

from __future__ import annotations

from typing import Any

from pettingzoo import AECEnv, ParallelEnv

from games.aec import GameAEC, game_env, raw_game_env

#: the environment's version (its spaces and ids); a change of actions or observation bumps it
ENV_VERSION = 1  # 1: the strike planes, observation channels 43-46
GYMNASIUM_ID = f"Thrones-v{ENV_VERSION}"
PETTINGZOO_ID = f"vigtavl/thrones-v{ENV_VERSION}"
GAME = "thrones"


def env(**kwargs: Any) -> AECEnv:
    """The AEC env in PettingZoo's standard wrappers (``GameAEC``'s keywords, less ``game``)."""
    return game_env(GAME, **kwargs)


def raw_env(**kwargs: Any) -> GameAEC:
    """The unwrapped AEC env."""
    return raw_game_env(GAME, **kwargs)


def parallel_env(**kwargs: Any) -> ParallelEnv:
    """The turn-based game as a ``ParallelEnv`` (PettingZoo's ``turn_based_aec_to_parallel``)."""
    from pettingzoo.utils.conversions import turn_based_aec_to_parallel
    return turn_based_aec_to_parallel(env(**kwargs))


def register_ids() -> None:
    """The registry entries (once: a second call keeps the first)."""
    import gymnasium
    from pettingzoo.env_registry.registration import aec_registry, parallel_registry, register

    if GYMNASIUM_ID not in gymnasium.registry:
        gymnasium.register(GYMNASIUM_ID, entry_point="games.single_seat:GameSingleSeatEnv",
                           kwargs={"game": GAME})
    if PETTINGZOO_ID not in aec_registry:
        register("aec", PETTINGZOO_ID, entry_point="games.thrones.env:env")
    if PETTINGZOO_ID not in parallel_registry:
        register("parallel", PETTINGZOO_ID, entry_point="games.thrones.env:parallel_env")


register_ids()
