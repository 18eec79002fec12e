"""Writing a run's files so that a kill at any moment leaves the old file or the new one, never
half of one (both trainers, and the config and league files they rewrite).

Every save writes a temporary next to its target (the same folder, so the same file system:
``.NAME.tmp-PID``, hidden, which no checkpoint pattern matches), flushes it to disk, then renames
it over the target with ``os.replace``, which is atomic. A process killed mid-save leaves its
temporary behind; :func:`remove_temporaries` clears them when the run folder is next opened.
"""

from __future__ import annotations

import os
import shutil
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

TMP_MARK = ".tmp-"  # in every temporary's name: .<target name>.tmp-<pid>


def temporary_for(path: Path) -> Path:
    """The temporary a save of ``path`` writes first."""
    return path.with_name(f".{path.name}{TMP_MARK}{os.getpid()}")


@contextmanager
def replacing(path: str | Path) -> Iterator[Path]:
    """Yields a temporary path to write (a file, or a folder); on success it replaces ``path``
    in one rename, on failure it is removed and ``path`` is as it was."""
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = temporary_for(path)
    try:
        yield tmp
        if tmp.is_file():
            with open(tmp, "rb") as f:  # on disk before the rename: a power cut keeps one whole file
                os.fsync(f.fileno())
        os.replace(tmp, path)
    except BaseException:
        _remove(tmp)
        raise
    _sync_folder(path.parent)


def write_text(path: str | Path, text: str) -> None:
    """``Path.write_text``, atomically."""
    with replacing(path) as tmp:
        tmp.write_text(text, encoding="utf-8")


def save_model(model: Any, path: str | Path) -> Path:
    """An SB3 model's ``save``, atomically (SB3 writes its zip into the file object we give it)."""
    with replacing(path) as tmp, open(tmp, "wb") as f:
        model.save(f)
    return Path(path)


def copy_file(src: str | Path, dst: str | Path) -> None:
    """``shutil.copyfile``, atomically."""
    with replacing(dst) as tmp:
        shutil.copyfile(src, tmp)


def remove_temporaries(folder: Path) -> None:
    """Remove the temporaries that killed saves left in ``folder`` and its subfolders (call it
    only while no save into them can be running: with the run folder's lock held)."""
    if folder.is_dir():
        for tmp in folder.rglob(f".*{TMP_MARK}*"):
            _remove(tmp)


def _remove(path: Path) -> None:
    if path.is_dir() and not path.is_symlink():
        shutil.rmtree(path, ignore_errors=True)
    else:
        path.unlink(missing_ok=True)


def _sync_folder(folder: Path) -> None:
    """Put a rename on disk (POSIX: fsync the folder); nothing to do elsewhere."""
    if os.name != "posix":
        return
    fd = os.open(folder, os.O_RDONLY)
    try:
        os.fsync(fd)
    finally:
        os.close(fd)
