"""Vigtavl RL: a rules engine, a PettingZoo environment, bots and training for Vigtavl.

``vigtavl_env.env(**kwargs)`` is the wrapped PettingZoo AEC environment and
``vigtavl_env.raw_env(**kwargs)`` the unwrapped one (spec: ``vigtavl_env/env.py``);
``vigtavl_env.SingleSeatEnv`` plays one seat as a Gymnasium env against opponent policies, and
``vigtavl_env.VigtavlVectorEnv`` steps N games in one call for training (``vigtavl_env/vector.py``;
imported on first use: it brings Stable-Baselines3 and torch).
The rules engine, with no RL library in it, is ``vigtavl_env.engine``.

Importing the package registers ``gymnasium.make("Vigtavl-v0", ...)`` (the single-seat env:
``SingleSeatEnv``'s keywords) and PettingZoo's ``pettingzoo.make("aec", "vigtavl/vigtavl-v1", ...)``
(the wrapped AEC env: ``env``'s keywords, ``max_cycles`` included).

The environment is imported eagerly: ``vigtavl_env.env`` must always be the function, never the
``env`` submodule that shares its name. The hot modules load from their compiled copies when
``vigtavl compile`` has made them (``vigtavl_env/compiled.py``).
"""

from . import compiled

compiled.install()  # before any hot module is imported: their compiled copies, when fresh

from .env import env, raw_env  # noqa: E402
from .wrappers import SingleSeatEnv  # noqa: E402

__all__ = ["GYMNASIUM_ID", "PETTINGZOO_ID", "SingleSeatEnv", "VigtavlVectorEnv", "env", "raw_env"]
GYMNASIUM_ID = "Vigtavl-v0"
PETTINGZOO_ID = "vigtavl/vigtavl-v1"


def _register() -> None:
    """The registry entries (once: a second import of the package keeps the first)."""
    import gymnasium
    if GYMNASIUM_ID not in gymnasium.registry:
        gymnasium.register(GYMNASIUM_ID, entry_point="vigtavl_env.wrappers:SingleSeatEnv")
    try:
        from pettingzoo.env_registry.registration import aec_registry, register
    except ImportError:  # PettingZoo before its registry (1.26)
        return
    if PETTINGZOO_ID not in aec_registry:
        register("aec", PETTINGZOO_ID, entry_point="vigtavl_env.env:env")


_register()


def __getattr__(name: str):
    if name == "VigtavlVectorEnv":
        from .vector import VigtavlVectorEnv
        return VigtavlVectorEnv
    raise AttributeError(f"module 'vigtavl_env' has no attribute {name!r}")
