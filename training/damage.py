"""Whether a checkpoint can be loaded, for the three trainers: each member of its archives read
and checked as its loader reads it, so that ``--resume`` passes over a damaged checkpoint
(training/runs.py) instead of failing, with a traceback, halfway through loading it.

A zip's CRCs only say that its members are the bytes that were zipped: a member that was cut
before it was zipped (a copy cut short, then zipped again; a disk that lost a block) passes
them. So each member is read as its loader reads it:

- SB3 (``model_<steps>_steps.zip``): ``data`` is a JSON object whose spaces unpickle, and every
  ``.pth`` member (``policy.pth``, the optimizer's, the variables) loads with torch, weights only,
  as ``MaskablePPO.load`` loads them;
- az (``az_<positions>/``): ``state.pt`` loads with torch, weights only, and holds the network,
  the optimizer and the counters; every array of ``buffer.npz`` holds the bytes its header
  promises (read in chunks, never held: the buffer is the run's largest file); and the run
  folder's ``generations/gen_<k>.pt`` of the generation it goes on from loads (the next
  evaluation plays against it, and the gate may go back to it);
- RLlib (``rllib_<steps>/``): its files are there, every ``.json`` parses, every pickle is whole
  (its opcodes walked with :mod:`pickletools`, nothing in it run) and every torch file loads.

:func:`damage` returns why in a few words (None: whole). The cost is one more read of the
checkpoint, once, at the start of a resume. What fails to load past these checks is one line
naming the checkpoint too (:func:`loading`, around each trainer's load).
"""

from __future__ import annotations

import contextlib
import io
import json
import pickletools
import zipfile
from collections.abc import Iterator
from pathlib import Path
from typing import IO, Any

import numpy as np

from agents.ppo import one_line, saved_spaces

SB3_MEMBERS = ("data", "policy.pth")  # what MaskablePPO.load reads from a checkpoint zip
RLLIB_FILES = ("rllib_checkpoint.json", "class_and_ctor_args.pkl", "learner_group")  # what from_checkpoint reads
AZ_FILES = ("state.pt", "buffer.npz")  # an az checkpoint: both zips (torch's format and NumPy's)
AZ_STATE_KEYS = ("net", "optimizer", "progress")  # what training.az.save_checkpoint puts in state.pt
AZ_BUFFER_ARRAYS = ("obs", "legal", "policy", "value", "meta")  # what ReplayBuffer.save writes
AZ_GENERATIONS = "generations"  # beside checkpoints/ in an az run folder: gen_<k>.pt (training.az.generation_path)
TORCH_SUFFIXES = (".pt", ".pth")
READ_CHUNK = 1 << 20  # bytes read at a time while an array's length is counted


class Damaged(Exception):
    """What is wrong with one member of a checkpoint (the message: a few words)."""


def damage(path: Path, backend: str = "sb3") -> str | None:
    """Why the checkpoint at ``path`` cannot be loaded, or None when it can."""
    check = {"az": _check_az, "rllib": _check_rllib}.get(backend, _check_sb3)
    try:
        check(path)
    except Damaged as e:
        return str(e)
    except Exception as e:  # a member that does not even parse: anything its reader raised
        return one_line(e)
    return None


@contextlib.contextmanager
def loading(path: Path) -> Iterator[None]:
    """Around a trainer's load of the checkpoint at ``path``: whatever fails inside is one line
    naming it (a ValueError). :func:`damage` checked each member already: what fails here is
    rarer still."""
    try:
        yield
    except Exception as e:
        raise ValueError(f"checkpoint {path} cannot be loaded ({one_line(e)})") from None


# ------------------------------------------------------------------ by backend
def _check_sb3(path: Path) -> None:
    with zipfile.ZipFile(path) as z:
        names = z.namelist()
        missing = [name for name in SB3_MEMBERS if name not in names]
        if missing:
            raise Damaged(f"no {', '.join(missing)} in it")
        for name in names:
            data = _member(z, name)  # every member read in full: its CRC checked
            if name == "data":
                _json_object(data, name)
            elif name.endswith(".pth"):
                _torch(io.BytesIO(data), name)
    saved_spaces(path)  # the pickled spaces in data (a ModelFileError, one line, if they do not unpickle)


def _check_az(path: Path) -> None:
    missing = [name for name in AZ_FILES if not (path / name).is_file()]
    if missing:
        raise Damaged(f"no {', '.join(missing)}")
    state = _torch(path / "state.pt", "state.pt")
    if not isinstance(state, dict) or any(key not in state for key in AZ_STATE_KEYS):
        raise Damaged(f"state.pt holds no {', '.join(AZ_STATE_KEYS)}")
    _check_generation(path, state["progress"])
    with zipfile.ZipFile(path / "buffer.npz") as z:
        arrays = {name.removesuffix(".npy"): name for name in z.namelist()}
        missing = [name for name in AZ_BUFFER_ARRAYS if name not in arrays]
        if missing:
            raise Damaged(f"buffer.npz: no {', '.join(missing)} array in it")
        for name in arrays.values():
            with z.open(name) as f:
                _whole_array(f, f"buffer.npz: {name}")


def _check_generation(path: Path, progress: Any) -> None:
    """The network of the generation an az checkpoint goes on from, where its run folder keeps
    them (``<run>/generations/``, the checkpoint in ``<run>/checkpoints/``): there, and loading."""
    folder = path.parent.parent / AZ_GENERATIONS
    if not folder.is_dir() or not isinstance(progress, dict):
        return  # a checkpoint outside a run folder: its evaluation is the run's that continues it
    name = f"{AZ_GENERATIONS}/gen_{progress.get('generation')}.pt"
    if not (folder.parent / name).is_file():
        raise Damaged(f"its run folder has no {name}")
    _torch(folder.parent / name, name)


def _check_rllib(path: Path) -> None:
    missing = [name for name in RLLIB_FILES if not (path / name).exists()]
    if missing:
        raise Damaged(f"no {', '.join(missing)}")
    for file in sorted(p for p in path.rglob("*") if p.is_file()):
        name = str(file.relative_to(path))
        if file.suffix == ".json":
            _json(file.read_bytes(), name)
        elif file.suffix == ".pkl":
            _whole_pickle(file.read_bytes(), name)
        elif file.suffix in TORCH_SUFFIXES:
            _torch(file, name)


# ------------------------------------------------------------------ one member
def _member(z: zipfile.ZipFile, name: str) -> bytes:
    try:
        return z.read(name)
    except (zipfile.BadZipFile, EOFError, OSError) as e:
        raise Damaged(f"{name}: {one_line(e)}") from None


def _json(data: bytes, name: str) -> Any:
    try:
        return json.loads(data.decode("utf-8"))
    except (UnicodeDecodeError, json.JSONDecodeError) as e:
        raise Damaged(f"{name} is not JSON ({one_line(e)})") from None


def _json_object(data: bytes, name: str) -> None:
    if not isinstance(_json(data, name), dict):
        raise Damaged(f"{name} is not a JSON object")


def _torch(source: Path | IO[bytes], name: str) -> Any:
    """A torch file loaded as the trainers load it (weights only, on the CPU)."""
    import torch as th
    try:
        return th.load(source, map_location="cpu", weights_only=True)
    except Exception as e:  # a cut file fails in the zip reader, the unpickler or a storage
        raise Damaged(f"{name} does not load ({one_line(e)})") from None


def _whole_array(f: IO[bytes], name: str) -> None:
    """An ``.npy`` stream holds as many bytes as its header says (counted, not kept)."""
    try:
        fmt = np.lib.format
        version = fmt.read_magic(f)  # (1, 0) or later: the later ones' header has a 4-byte length
        header = fmt.read_array_header_1_0 if version == (1, 0) else fmt.read_array_header_2_0
        shape, _, dtype = header(f)
    except (ValueError, EOFError) as e:
        raise Damaged(f"{name}: no array header ({one_line(e)})") from None
    if dtype.hasobject:
        raise Damaged(f"{name}: an array of Python objects (a checkpoint holds numbers)")
    expected, got = int(np.prod(shape, dtype=np.int64)) * dtype.itemsize, 0
    while got < expected and (chunk := f.read(min(READ_CHUNK, expected - got))):
        got += len(chunk)
    if got < expected:
        raise Damaged(f"{name} is cut: {got:,} of its {expected:,} bytes")


def _whole_pickle(data: bytes, name: str) -> None:
    """A pickle's opcodes run to its STOP (walked, not run: nothing in it is executed)."""
    try:
        for _ in pickletools.genops(data):
            pass
    except Exception as e:  # pickletools raises ValueError, or struct's and codecs' errors, on a cut stream
        raise Damaged(f"{name} is not a whole pickle ({one_line(e)})") from None
