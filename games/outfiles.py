"""Output files written whole or not at all, with their paths checked before any work is done
(a results file is refused before the games are played, not after)."""

from __future__ import annotations

import os
from pathlib import Path


def check_out_path(path: str | Path | None) -> None:
    """Refuse, before any game is played, an output path that cannot be written as a file."""
    if path is None:
        return
    path = Path(path)
    if path.is_dir():
        raise ValueError(f"--out {path} is a folder; give a file name, e.g. {path / 'results.json'}")
    for parent in path.parents:
        if parent.exists():
            if not parent.is_dir():
                raise ValueError(f"--out {path}: {parent} is a file, not a folder")
            if not os.access(parent, os.W_OK):
                raise ValueError(f"--out {path}: folder {parent} is not writable")
            break


def write_file(path: str | Path, text: str) -> None:
    """Write ``text`` to ``path`` (its folder created) whole or not at all: into a temporary
    file beside it, then renamed over it."""
    path = Path(path)
    check_out_path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_name(f".{path.name}.{os.getpid()}.tmp")
    try:
        tmp.write_text(text, encoding="utf-8")
        os.replace(tmp, path)
    finally:
        tmp.unlink(missing_ok=True)
