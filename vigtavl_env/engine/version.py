"""The version of the game: its rules, action space, observation and saved files, one number
spelled one way everywhere.

- the environment's metadata name: ``vigtavl_v2`` (:data:`ENV_NAME`)
- gymnasium's id: ``Vigtavl-v2``; PettingZoo's id: ``vigtavl/vigtavl-v2``
- the ``version`` field of every saved state and results file: ``"vigtavl_v2"``
- the version a trained model's spaces belong to (``agents/ppo.py`` checks it)

Files written before the version was spelled this way carry integers (:data:`LEGACY_FILE_VERSIONS`).
New rules bump :data:`RULES_VERSION`, and with it every spelling above.
"""

from __future__ import annotations

from typing import Any

RULES_VERSION = 2
ENV_NAME = f"vigtavl_v{RULES_VERSION}"
GYMNASIUM_ID = f"Vigtavl-v{RULES_VERSION}"
PETTINGZOO_ID = f"vigtavl/vigtavl-v{RULES_VERSION}"
# The integer versions of older files: states and results files alike.
LEGACY_FILE_VERSIONS = {1: "vigtavl_v0", 2: "vigtavl_v1"}


def file_version(value: Any) -> str:
    """The version a saved file's ``version`` field names (``"vigtavl_v1"``), whichever way it
    was written; the value itself (shortened) when it names none."""
    if isinstance(value, str) and value.startswith("vigtavl_v") and len(value) <= 20:
        return value
    if isinstance(value, int) and not isinstance(value, bool) and value in LEGACY_FILE_VERSIONS:
        return LEGACY_FILE_VERSIONS[value]
    return repr(value)[:20]


def check_file_version(value: Any, what: str) -> None:
    """ValueError (one line naming both versions) unless the file was written for this version."""
    found = file_version(value)
    if found != ENV_NAME:
        raise ValueError(f"{what} is of version {found}; this engine reads version {ENV_NAME} only "
                         "(other rules, other action codes: play the games again to replay them)")
