"""Vigtavl RL: a rules engine, a PettingZoo environment, bots and training for Vigtavl.

``vigtavl_env.env(**kwargs)`` is the wrapped PettingZoo AEC environment and
``vigtavl_env.raw_env(**kwargs)`` the unwrapped one (spec: ``vigtavl_env/env.py``);
``vigtavl_env.SingleSeatEnv`` plays one seat as a Gymnasium env against opponent policies, and
``vigtavl_env.VigtavlVectorEnv`` steps N games in one call for training (``vigtavl_env/vector.py``;
imported on first use: it brings Stable-Baselines3 and torch).
The rules engine, with no RL library in it, is ``vigtavl_env.engine``.

The environment is imported eagerly: ``vigtavl_env.env`` must always be the function, never the
``env`` submodule that shares its name. The hot modules load from their compiled copies when
``vigtavl compile`` has made them (``vigtavl_env/compiled.py``).
"""

from . import compiled

compiled.install()  # before any hot module is imported: their compiled copies, when fresh

from .env import env, raw_env  # noqa: E402
from .wrappers import SingleSeatEnv  # noqa: E402

__all__ = ["SingleSeatEnv", "VigtavlVectorEnv", "env", "raw_env"]


def __getattr__(name: str):
    if name == "VigtavlVectorEnv":
        from .vector import VigtavlVectorEnv
        return VigtavlVectorEnv
    raise AttributeError(f"module 'vigtavl_env' has no attribute {name!r}")
