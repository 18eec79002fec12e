"""Vigtavl RL: a rules engine, a PettingZoo environment, bots and training for Vigtavl.

PettingZoo's classic conventions, module-level::

    vigtavl_env.env(**kwargs)           # the wrapped AEC environment (spec: vigtavl_env/env.py)
    vigtavl_env.raw_env(**kwargs)       # the unwrapped one
    vigtavl_env.parallel_env(**kwargs)  # the turn-based game as a ParallelEnv (PettingZoo's conversion)

``vigtavl_env.SingleSeatEnv`` plays one seat as a Gymnasium env against opponent policies;
``vigtavl_env.VigtavlVectorEnv`` steps N games in one call for training (``vector.py``, an SB3
``VecEnv``), and ``vigtavl_env.VigtavlGymVectorEnv`` is the same under gymnasium's vector API
(``gym_vector.py``); both are imported on first use (they bring Stable-Baselines3).
The rules engine, with no RL library in it, is ``vigtavl_env.engine``.

Importing the package registers the ids of :mod:`vigtavl_env.engine.version` (one version,
spelled one way): ``gymnasium.make("Vigtavl-v2", ...)`` (``SingleSeatEnv``'s keywords),
``gymnasium.make_vec("Vigtavl-v2", num_envs=N, vectorization_mode="vector_entry_point", ...)``
(``VigtavlGymVectorEnv``) and ``pettingzoo.make("aec", "vigtavl/vigtavl-v2", ...)`` (the wrapped
AEC env: ``env``'s keywords, ``max_cycles`` included); Thrones' ids too (``games/thrones/env.py``).

The environment is imported eagerly: ``vigtavl_env.env`` must always be the function, never the
``env`` submodule that shares its name. The hot modules load from their compiled extensions,
built at install (``vigtavl_env/compiled.py``).
"""

from typing import Any

from . import compiled

compiled.install()  # before any hot module is imported: plain Python for the stale or asked ones

from .engine.version import ENV_NAME, GYMNASIUM_ID, PETTINGZOO_ID  # noqa: E402
from .env import env, raw_env  # noqa: E402
from .wrappers import SingleSeatEnv  # noqa: E402

__all__ = ["ENV_NAME", "GYMNASIUM_ID", "PETTINGZOO_ID", "SingleSeatEnv", "VigtavlGymVectorEnv",
           "VigtavlVectorEnv", "env", "parallel_env", "raw_env"]


def parallel_env(**kwargs: Any) -> Any:
    """The game as a PettingZoo ``ParallelEnv``: PettingZoo's ``turn_based_aec_to_parallel`` of
    :func:`env` (each step, only the agent to decide acts; the others' masks are all zeros and
    their actions are ignored)."""
    from pettingzoo.utils.conversions import turn_based_aec_to_parallel
    return turn_based_aec_to_parallel(env(**kwargs))


def _register() -> None:
    """The registry entries (once: a second import of the package keeps the first)."""
    import gymnasium
    from pettingzoo.env_registry.registration import aec_registry, register

    if GYMNASIUM_ID not in gymnasium.registry:
        gymnasium.register(GYMNASIUM_ID, entry_point="vigtavl_env.wrappers:SingleSeatEnv",
                           vector_entry_point="vigtavl_env.gym_vector:VigtavlGymVectorEnv")
    if PETTINGZOO_ID not in aec_registry:
        register("aec", PETTINGZOO_ID, entry_point="vigtavl_env.env:env")
    from games.thrones.env import register_ids  # the second game's ids: Thrones-v1, vigtavl/thrones-v1
    register_ids()


_register()


def __getattr__(name: str) -> Any:
    if name == "VigtavlVectorEnv":
        from .vector import VigtavlVectorEnv
        return VigtavlVectorEnv
    if name == "VigtavlGymVectorEnv":
        from .gym_vector import VigtavlGymVectorEnv
        return VigtavlGymVectorEnv
    raise AttributeError(f"module 'vigtavl_env' has no attribute {name!r}")
