"""The files ``vigtavl serve`` reads from the folders it was given (``--results``, ``--maps``).

A name from a request, or one found by walking a folder, becomes a file only through
:func:`served_file`: the name is text (no NUL, nothing unprintable), its links are resolved and
the real path must lie inside the folder, no part of it below the folder may be hidden (a
``.git``, a ``.venv``), and it must be a regular file by its ``stat``: a FIFO, a socket or a
device is refused by its type **before** it is opened, as opening one can wait for ever or do
something. :func:`read_served` then opens it without following a link and without waiting
(``O_NOFOLLOW | O_NONBLOCK``), checks the open file's type again (it may have been swapped in
between), and reads at most the bound. :func:`served_files` walks a folder the same way (hidden
folders never entered, links to folders never followed), so what is listed is what may be read.
"""

from __future__ import annotations

import os
import re
import stat
from collections.abc import Iterable, Iterator
from pathlib import Path

from arena.records import RESULTS_SCHEMA

MAX_LISTED = 1000  # files listed per folder in /api/meta and /api/files
SCHEMA_PEEK = 256  # bytes read from a .json file to tell whether it is a results file
RESULTS_HEAD = re.compile(rb'\s*\{\s*"schema"\s*:\s*"' + RESULTS_SCHEMA.encode() + rb'"')
OPEN_FLAGS = os.O_RDONLY | getattr(os, "O_NOFOLLOW", 0) | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_CLOEXEC", 0)


def folders(paths: Iterable[str | Path], what: str) -> tuple[Path, ...]:
    """The folders named at start, resolved; ValueError (one line) for one that is missing."""
    out = tuple(Path(p).resolve() for p in paths)
    for f in out:
        if f.is_file():
            raise ValueError(f"{what} folder {f} is a file, not a folder: name the folder it is in, {f.parent}")
        if not f.is_dir():
            raise ValueError(f"{what} folder {f} does not exist")
    return out


def inside(root: Path, name: str) -> Path | None:
    """``root / name`` resolved (links followed) if it stays inside ``root``, else None."""
    try:
        path = (root / name).resolve()
    except (OSError, RuntimeError, ValueError):  # a link loop, a name too long, a NUL
        return None
    return path if path.is_relative_to(root) else None


def hidden(root: Path, path: Path) -> bool:
    """Whether any part of ``path`` below ``root`` is hidden (starts with a dot)."""
    return any(part.startswith(".") for part in path.relative_to(root).parts)


def served_file(root: Path, name: str) -> tuple[Path | None, str]:
    """``(path, "")`` for the regular file ``name`` inside ``root`` (links resolved), else
    ``(None, why)``: ``"outside"`` (it leads out of the folder) or ``"missing"`` (none there, a
    hidden one, or not a regular file: a FIFO, a socket, a device). Nothing is opened here."""
    if not isinstance(name, str) or not name.isprintable():
        return None, "missing"
    path = inside(root, name)
    if path is None:
        return None, "outside"
    try:
        info = os.lstat(path)  # resolved: no link is left to follow
    except (OSError, ValueError):
        return None, "missing"
    if not stat.S_ISREG(info.st_mode) or hidden(root, path):
        return None, "missing"
    return path, ""


def read_served(path: Path, limit: int) -> bytes:
    """At most ``limit`` bytes of a file :func:`served_file` gave: opened without following a
    link or waiting, and its type checked again once open (OSError if it is no longer a regular
    file)."""
    fd = os.open(path, OPEN_FLAGS)
    try:
        if not stat.S_ISREG(os.fstat(fd).st_mode):
            raise OSError(f"{path.name} is not a regular file")
        with os.fdopen(fd, "rb", closefd=False) as f:
            return f.read(limit)
    finally:
        os.close(fd)


def served_files(root: Path, suffix: str) -> Iterator[tuple[Path, os.stat_result]]:
    """The regular files named ``*suffix`` below ``root`` with their ``stat``, in a stable order:
    hidden folders and files skipped, links to folders not followed, a link to a file taken
    only where it resolves to a regular file inside ``root``, names that are not text (bytes
    that are no UTF-8) left out, as a request could not name them back."""
    for folder, subfolders, names in os.walk(root):
        subfolders[:] = sorted(d for d in subfolders if not d.startswith(".") and d.isprintable())
        for name in sorted(names):
            if not name.endswith(suffix) or name.startswith(".") or not name.isprintable():
                continue
            path, _ = served_file(root, str((Path(folder) / name).relative_to(root)))
            if path is not None:
                yield path, os.stat(path)


def results_files(root: Path, limit: int = MAX_LISTED) -> list[tuple[Path, float]]:
    """The vigtavl results files below ``root`` (a file's first bytes must name the schema, as
    :func:`arena.records.results_file` writes it), newest first, with their times; only what
    :func:`served_files` yields, each once. At most ``limit``."""
    found: dict[Path, float] = {}
    for path, info in served_files(root, ".json"):
        if path not in found and _names_schema(path):
            found[path] = info.st_mtime
        if len(found) >= 4 * limit:
            break
    return sorted(found.items(), key=lambda f: (-f[1], str(f[0])))[:limit]


def _names_schema(path: Path) -> bool:
    try:
        return RESULTS_HEAD.match(read_served(path, SCHEMA_PEEK)) is not None
    except OSError:
        return False
