"""The optional compiled core: the hot modules, unchanged, compiled to C extensions by Cython.

The engine, the observation encoder and the bots are plain Python, and plain Python is always
what runs unless a compiled copy of a module exists *and was built from the very source file
beside it*. ``vigtavl compile`` (``make setup`` runs it; it needs Cython and a C compiler)
compiles :data:`MODULES` into ``vigtavl_env/_compiled/`` and writes a manifest
with the SHA-256 of each source it compiled. On import, :class:`CompiledFinder` loads a module's
extension only when the manifest's hash equals the hash of the ``.py`` it would otherwise load:
an edited source is never shadowed by a stale extension (it runs as Python, with one warning
telling you to rebuild). Nothing is compiled in place, so ``git status`` stays clean.

``VIGTAVL_PURE_PYTHON=1`` turns the compiled core off (debugging, coverage, comparing the two);
``VIGTAVL_PURE_PYTHON=vigtavl_env.env,agents.search`` keeps just the modules named plain.
The typed core (the modules with a ``.pxd`` beside them: their C types, which other modules
cimport) loads all compiled or all plain: one stale or plain-listed module of it makes all of
them plain. A module's hash covers its source and every ``.pxd``.
The compiled modules make the same decisions and the same games: ``tests/test_compiled.py``
plays seeded games both ways and compares them.

Why compile at all: the AEC loop is a flat profile of Python loops over a few dozen units and
hexes (``docs/benchmarks.md``), and Cython runs those same loops about 1.2-1.5x faster.

    vigtavl compile            # compile what changed (--force: everything)
    vigtavl compile status     # which modules load compiled, which are stale
    vigtavl compile clean      # plain Python from now on
"""

from __future__ import annotations

import hashlib
import importlib.abc
import importlib.machinery
import importlib.util
import json
import os
import sys
import sysconfig
import warnings
from pathlib import Path
from typing import Any

# Compiled when Cython is present: the step loop's modules, then the bots' (training opponents,
# the search bot). Modules that tests patch or that are rarely run stay plain Python.
MODULES = (
    "vigtavl_env.engine.state", "vigtavl_env.engine.hexgrid", "vigtavl_env.engine.movement",
    "vigtavl_env.engine.combat", "vigtavl_env.engine.building", "vigtavl_env.engine.free_actions",
    "vigtavl_env.engine.tokens", "vigtavl_env.engine.shared", "vigtavl_env.engine.legal",
    "vigtavl_env.engine.game", "vigtavl_env.observation", "vigtavl_env.codec", "vigtavl_env.env",
    "vigtavl_env.aec_wrappers",
    "agents.heuristic", "agents.tactics", "agents.search",
)
# Python's semantics exactly: type hints are documentation, never C types or checks (with
# annotation typing, Cython would refuse a tuple passed where a hint says list).
DIRECTIVES = {"language_level": 3, "binding": True, "annotation_typing": False}
PURE_ENV = "VIGTAVL_PURE_PYTHON"
ROOT = Path(__file__).resolve().parent.parent  # holds vigtavl_env/ and agents/
OUT_DIR = Path(__file__).resolve().parent / "_compiled"
MANIFEST = OUT_DIR / "manifest.json"
EXT_SUFFIX = sysconfig.get_config_var("EXT_SUFFIX") or ".so"


def source_path(module: str) -> Path:
    return ROOT.joinpath(*module.split(".")).with_suffix(".py")


def extension_path(module: str) -> Path:
    return OUT_DIR / (module + EXT_SUFFIX)


def source_hash(path: Path) -> str:
    """SHA-256 of a module's source and of every ``.pxd`` of the typed core: a module compiled
    against other C declarations (its own, or those of a module it cimports) is stale too."""
    h = hashlib.sha256(path.read_bytes())
    for pxd in typed_declarations():
        h.update(pxd.name.encode() + pxd.read_bytes())
    return h.hexdigest()


def typed_declarations() -> list[Path]:
    """The ``.pxd`` files beside the compiled modules (their C types), in a fixed order."""
    return sorted(p for m in MODULES if (p := source_path(m).with_suffix(".pxd")).is_file())


def read_manifest() -> dict[str, str]:
    """module -> SHA-256 of the source its extension was built from (empty when none)."""
    try:
        data = json.loads(MANIFEST.read_text())
    except (OSError, ValueError):
        return {}
    if data.get("ext_suffix") != EXT_SUFFIX:  # built by another Python
        return {}
    return dict(data.get("modules", {}))


def _read_stamp() -> dict[str, Any] | None:
    """How the extensions were built (Cython version, directives), from the manifest."""
    try:
        return json.loads(MANIFEST.read_text()).get("build")
    except (OSError, ValueError):
        return None


class CompiledFinder(importlib.abc.MetaPathFinder):
    """Finds the compiled extension of a module in the manifest whose source is unchanged."""

    def __init__(self, manifest: dict[str, str]) -> None:
        self.manifest = manifest
        self.loaded: list[str] = []
        self.stale: list[str] = []

    def find_spec(self, fullname: str, path: Any = None, target: Any = None) -> Any:
        built = self.manifest.get(fullname)
        if built is None:
            return None
        ext, src = extension_path(fullname), source_path(fullname)
        if not _fresh(fullname, built):
            self.stale.append(fullname)
            warnings.warn(f"vigtavl_env: the compiled {fullname} was built from another version of "
                          f"{src.name}; running it as plain Python (rebuild: vigtavl "
                          "compile)", RuntimeWarning, stacklevel=2)
            return None
        self.loaded.append(fullname)
        loader = importlib.machinery.ExtensionFileLoader(fullname, str(ext))
        return importlib.util.spec_from_file_location(fullname, ext, loader=loader)


_finder: CompiledFinder | None = None


def install() -> None:
    """Put the finder first on ``sys.meta_path`` (once; not when ``VIGTAVL_PURE_PYTHON`` is set)."""
    global _finder
    pure = os.environ.get(PURE_ENV, "").strip()
    if _finder is not None or pure == "1":
        return
    manifest = {m: h for m, h in read_manifest().items() if m in MODULES}  # (an older build's extras)
    for m in pure.split(","):  # a list of modules keeps just those plain
        manifest.pop(m.strip(), None)
    typed = {m for m in MODULES if source_path(m).with_suffix(".pxd").is_file()}
    stale = sorted(m for m in typed if m not in manifest or not _fresh(m, manifest[m]))
    if stale and any(m in manifest for m in typed):
        # The typed modules cimport one another's C types: all of them compiled, or none.
        warnings.warn(f"vigtavl_env: the compiled core is stale ({', '.join(stale)}); the typed modules "
                      "run as plain Python (rebuild: vigtavl compile)", RuntimeWarning, stacklevel=2)
        for m in typed:
            manifest.pop(m, None)
    if manifest:
        _finder = CompiledFinder(manifest)
        sys.meta_path.insert(0, _finder)


def _fresh(module: str, built: str) -> bool:
    try:
        return extension_path(module).is_file() and source_hash(source_path(module)) == built
    except OSError:
        return False


def compiled_modules() -> list[str]:
    """The modules imported so far from their compiled extension."""
    return list(_finder.loaded) if _finder is not None else []


def describe() -> str:
    """One line for benchmark output: compiled or plain Python."""
    n = len(compiled_modules())
    return f"compiled core: {n} modules loaded compiled" if n else "plain Python (no compiled core)"


def build(modules: tuple[str, ...] = MODULES, force: bool = False, quiet: bool = False) -> list[str]:
    """Compile the modules whose source changed since their extension was built; the ones
    compiled. Needs Cython and a C compiler."""
    from Cython.Build import cythonize  # imported here: only building needs Cython
    from setuptools import Distribution, Extension
    from setuptools.command.build_ext import build_ext

    import Cython

    stamp = {"cython": Cython.__version__, "directives": DIRECTIVES}
    manifest = read_manifest() if _read_stamp() == stamp else {}
    todo = [m for m in modules
            if force or manifest.get(m) != source_hash(source_path(m)) or not extension_path(m).is_file()]
    if not todo:
        if not quiet:
            print(f"compiled core up to date ({len(modules)} modules)")
        return []
    build_dir = ROOT / "build" / "cython"
    exts = [Extension(m, [str(source_path(m))], extra_compile_args=["-O2"]) for m in todo]
    hashes = {m: source_hash(source_path(m)) for m in todo}
    # force: the C files in build/ may be from other directives or another Cython
    ext_modules = cythonize(exts, build_dir=str(build_dir), quiet=True, nthreads=os.cpu_count() or 1,
                            compiler_directives=DIRECTIVES, force=True, include_path=[str(ROOT)])
    dist = Distribution({"ext_modules": ext_modules})
    cmd = build_ext(dist)
    cmd.build_lib = str(build_dir / "lib")
    cmd.build_temp = str(build_dir / "temp")
    cmd.parallel = os.cpu_count() or 1
    cmd.ensure_finalized()
    cmd.run()
    OUT_DIR.mkdir(exist_ok=True)
    for m in todo:
        built = Path(cmd.get_ext_fullpath(m))
        os.replace(built, extension_path(m))
        manifest[m] = hashes[m]
    manifest = {m: h for m, h in manifest.items() if m in modules}
    MANIFEST.write_text(json.dumps({"ext_suffix": EXT_SUFFIX, "build": stamp, "modules": manifest},
                                   indent=1, sort_keys=True))
    if not quiet:
        print(f"compiled {len(todo)} modules into {OUT_DIR}")
    return todo


def status() -> dict[str, str]:
    """Per module: "compiled", "plain Python (stale: rebuild)" or "plain Python (not built)"."""
    manifest, out = read_manifest(), {}
    for m in MODULES:
        if m not in manifest:
            out[m] = "plain Python (not built)"
        elif manifest[m] != source_hash(source_path(m)) or not extension_path(m).is_file():
            out[m] = "plain Python (stale: rebuild)"
        else:
            out[m] = "compiled"
    return out


def clean() -> None:
    """Remove every extension and the manifest: plain Python from then on."""
    if OUT_DIR.is_dir():
        for p in OUT_DIR.iterdir():
            p.unlink()
        OUT_DIR.rmdir()
