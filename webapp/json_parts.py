"""A JSON object decoded in parts of bounded size, the parts first measured in a worker process.

One ``json.loads`` holds the GIL from a file's first byte to its last: in a server, no other
thread (the event loop included) runs meanwhile. :func:`decode_parts` decodes a JSON object one
part at a time, each part one call of the C decoder: a value of the object, or one element of
an array that is a value of the object (a results file's games). Other threads run between
parts. One part can still be large (a 15 MB string, a game whose list of decisions is 15 MB:
0.05-0.5 s in one call), and how large is known only once it is decoded. So
:func:`check_in_worker` first decodes the document in a process of its own, where no other
thread waits, and says whether every part is within ``max_part`` characters; only then does the
caller decode it, each call short.

This module imports nothing of the project, so that its worker process starts in a moment.
"""

from __future__ import annotations

import json
import re
import subprocess
import sys
from pathlib import Path
from typing import Any

MAX_PART = 256 * 1024  # characters of one part: a results file's game holds a few tens of KB
ROOT = Path(__file__).resolve().parent.parent  # where the worker finds this module

_JSON = json.JSONDecoder()
_SPACE = re.compile(r"\s*")


def decode_parts(text: str, max_part: int | None = None) -> dict[str, Any] | None:
    """``text``'s JSON object, decoded one part at a time (see the module docstring); None when
    it is not an object. A part longer than ``max_part`` characters is a ValueError, as is any
    JSON error."""
    i = _SPACE.match(text).end()
    if not text.startswith("{", i):
        return None  # not parsed: whatever it is, it is not an object
    out, i = {}, _SPACE.match(text, i + 1).end()
    while not text.startswith("}", i):
        key, i = _part(text, i, max_part)
        i = _SPACE.match(text, i).end()
        if not isinstance(key, str) or not text.startswith(":", i):
            raise ValueError(f"a key and ':' expected at character {i}")
        i = _SPACE.match(text, i + 1).end()
        out[key], i = _value(text, i, max_part)
        i = _SPACE.match(text, i).end()
        if text.startswith(",", i):
            i = _SPACE.match(text, i + 1).end()
        elif not text.startswith("}", i):
            raise ValueError(f"',' or '}}' expected at character {i}")
    if _SPACE.match(text, i + 1).end() != len(text):
        raise ValueError(f"extra data at character {i + 1}")
    return out


def _value(text: str, i: int, max_part: int | None) -> tuple[Any, int]:
    if not text.startswith("[", i):
        return _part(text, i, max_part)
    out, i = [], _SPACE.match(text, i + 1).end()
    while not text.startswith("]", i):
        item, i = _part(text, i, max_part)
        out.append(item)
        i = _SPACE.match(text, i).end()
        if text.startswith(",", i):
            i = _SPACE.match(text, i + 1).end()
        elif not text.startswith("]", i):
            raise ValueError(f"',' or ']' expected at character {i}")
    return out, i + 1


class PartTooLong(ValueError):
    """One part of the document is longer than the bound."""


def _part(text: str, i: int, max_part: int | None) -> tuple[Any, int]:
    value, end = _JSON.raw_decode(text, i)
    if max_part is not None and end - i > max_part:
        raise PartTooLong(f"one value at character {i:,} is {end - i:,} characters long; at most {max_part:,} are read")
    return value, end


def parts_fit(body: bytes, max_part: int = MAX_PART) -> tuple[bool, str] | None:
    """None when ``body`` decodes in parts of at most ``max_part`` characters; else whether a part
    was too long (else: not UTF-8, not JSON) and why, in a few words. Run in the worker process."""
    try:
        decode_parts(body.decode("utf-8"), max_part)
    except (UnicodeDecodeError, ValueError, RecursionError) as e:  # JSONDecodeError is a ValueError
        return isinstance(e, PartTooLong), str(e)[:160]
    return None


def check_in_worker(body: bytes, max_part: int = MAX_PART, timeout_s: float | None = None) -> tuple[bool, str] | None:
    """:func:`parts_fit` run in a process of its own (``python -m webapp.json_parts``: Python and
    this module, a tenth of a second to start; it ends when done, so what it held goes back). Raises
    OSError when it cannot be started or dies, ``subprocess.TimeoutExpired`` past ``timeout_s``.
    A body no longer than ``max_part`` bytes has no part longer: None, with no process."""
    if len(body) <= max_part:
        return None
    done = subprocess.run([sys.executable, "-m", __name__, str(max_part)], cwd=ROOT, input=body,
                          capture_output=True, timeout=timeout_s)
    if done.returncode != 0:
        raise OSError(f"the JSON worker ended with status {done.returncode}")
    verdict = json.loads(done.stdout)
    return None if verdict is None else (bool(verdict[0]), str(verdict[1]))


if __name__ == "__main__":  # the worker: the body on stdin, the verdict on stdout as JSON
    print(json.dumps(parts_fit(sys.stdin.buffer.read(), int(sys.argv[1]))))
