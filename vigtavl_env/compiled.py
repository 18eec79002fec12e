"""The compiled core: the hot modules, unchanged, compiled to C extensions by Cython at install.

The engine, the observation encoder and the bots are plain Python; :data:`MODULES` are also
compiled by the standard build (``setup.py``'s ``ext_modules``, run by ``pip install`` and by
the editable install of ``make setup``), each extension beside its source
(``engine/game.py`` and ``engine/game.cpython-311-x86_64-linux-gnu.so``), where Python's import
system prefers it. The build also writes :data:`MANIFEST_NAME` beside this file: the SHA-256 of
each source it compiled, or why it compiled nothing.

With no C compiler (or no Cython) the install still succeeds: :class:`BuildExt` says so once
and the package runs as plain Python (about 4x slower); ``vigtavl --version`` and
``vigtavl compile status`` say which in one line.

In a source checkout an edited module would be shadowed by its older extension. On import,
:func:`install` compares each extension's manifest hash with its source: a stale module runs
as plain Python, with one warning telling you to rebuild (``make compile``). That is the one
job of :class:`PlainFinder`, a small import hook put first on ``sys.meta_path`` only when some
module must run plain: when stale, or when asked with ``VIGTAVL_PURE_PYTHON=1`` (debugging,
coverage, comparing the two builds) or ``VIGTAVL_PURE_PYTHON=vigtavl_env.env,agents.heuristic.search``
(just those modules). The typed core (the modules with a ``.pxd`` beside them, which cimport
one another's C types) runs all compiled or all plain. ``tests/test_compiled.py`` plays seeded
games both ways and compares them.

This file imports only the standard library at its top: ``setup.py`` loads it by path, before
any of the project's dependencies exist.

    vigtavl compile            # build in place what changed (--force: everything)
    vigtavl compile status     # one line: compiled or plain Python, and why; --modules: each
    vigtavl compile clean      # remove the in-place extensions: plain Python from now on
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
    "vigtavl_env.engine.state", "vigtavl_env.engine.actions", "vigtavl_env.engine.variants",
    "vigtavl_env.engine.hexgrid", "vigtavl_env.engine.movement",
    "vigtavl_env.engine.combat", "vigtavl_env.engine.building", "vigtavl_env.engine.free_actions",
    "vigtavl_env.engine.tokens", "vigtavl_env.engine.shared", "vigtavl_env.engine.legal",
    "vigtavl_env.engine.game", "vigtavl_env.observation", "vigtavl_env.codec", "vigtavl_env.env",
    "vigtavl_env.aec_wrappers", "vigtavl_env.seats", "vigtavl_env.vector",
    "agents.tactics.codes", "agents.tactics.odds", "agents.tactics.values", "agents.tactics.maps",
    "agents.tactics.threats", "agents.tactics.evaluation",
    "agents.heuristic.context", "agents.heuristic.movement", "agents.heuristic.attacks", "agents.heuristic.seizures",
    "agents.heuristic.building", "agents.heuristic.placement", "agents.heuristic.agent", "agents.heuristic.search",
    # the Gumbel search's hot loop (descent, backup, chance edges) and Vigtavl's steps for it
    "agents.gumbel", "vigtavl_env.search_steps",
)
# Python's semantics exactly: type hints are documentation, never C types or checks (with
# annotation typing, Cython would refuse a tuple passed where a hint says list).
DIRECTIVES = {"language_level": 3, "binding": True, "annotation_typing": False}
PURE_ENV = "VIGTAVL_PURE_PYTHON"
ROOT = Path(__file__).resolve().parent.parent  # holds vigtavl_env/ and agents/
MANIFEST_NAME = "_compiled.json"
EXT_SUFFIX = sysconfig.get_config_var("EXT_SUFFIX") or ".so"
NOT_BUILT = "plain Python: the compiled core was not built"
# Cython releases whose core is wrong at run time. 3.3.0: after Python code reads one of the
# state's public memoryviews (``state.cell_player``), the next re-pointing of the state's views
# aborts the process ("Fatal Python error: Acquisition count is -1"); the whole project reads
# them so. pyproject.toml's build requirements exclude these releases, but a
# machine's own Cython (a GPU image's) can still be one.
BROKEN_CYTHON = {"3.3.0"}
SPEED_NOTE = "the engine runs as plain Python, about 4x slower"


def source_path(module: str, root: Path = ROOT) -> Path:
    return root.joinpath(*module.split(".")).with_suffix(".py")


def extension_path(module: str, root: Path = ROOT) -> Path:
    return source_path(module, root).with_suffix(EXT_SUFFIX)


def manifest_path(root: Path = ROOT) -> Path:
    return root / "vigtavl_env" / MANIFEST_NAME


def source_hash(module: str, root: Path = ROOT) -> str:
    """SHA-256 of a module's source and of every ``.pxd`` of the typed core: a module compiled
    against other C declarations (its own, or those of a module it cimports) is stale too."""
    h = hashlib.sha256(source_path(module, root).read_bytes())
    for pxd in typed_declarations(root):
        h.update(pxd.name.encode() + pxd.read_bytes())
    return h.hexdigest()


def typed_declarations(root: Path = ROOT) -> list[Path]:
    """The ``.pxd`` files beside the compiled modules (their C types), in a fixed order."""
    return sorted(p for m in MODULES if (p := source_path(m, root).with_suffix(".pxd")).is_file())


def typed_modules(root: Path = ROOT) -> set[str]:
    return {m for m in MODULES if source_path(m, root).with_suffix(".pxd").is_file()}


def read_manifest(root: Path = ROOT) -> dict[str, Any]:
    """What the last build wrote: ``{"ext_suffix", "modules": {module: hash}}`` or
    ``{"error": why nothing was compiled}``; empty when no build wrote one."""
    try:
        data = json.loads(manifest_path(root).read_text())
    except (OSError, ValueError):
        return {}
    return data if isinstance(data, dict) else {}


def built_hashes(root: Path = ROOT) -> dict[str, str]:
    """module -> SHA-256 of the source its extension was built from, for this Python's ABI."""
    data = read_manifest(root)
    if data.get("ext_suffix") != EXT_SUFFIX:  # built by another Python, or not built
        return {}
    return {m: h for m, h in dict(data.get("modules", {})).items() if m in MODULES}


# ------------------------------------------------------------------ freshness: one plan
def module_states(root: Path = ROOT) -> dict[str, str]:
    """Per module of :data:`MODULES`: ``"compiled"``, ``"stale"`` (its source changed since its
    extension was built; in the typed core, any of them did) or ``"not built"``."""
    built = built_hashes(root)
    states = {}
    for m in MODULES:
        if m not in built or not extension_path(m, root).is_file():
            states[m] = "not built"
        else:
            try:
                fresh = source_hash(m, root) == built[m]
            except OSError:
                fresh = False
            states[m] = "compiled" if fresh else "stale"
    typed = typed_modules(root)
    if any(states[m] != "compiled" for m in typed):  # they cimport one another: all or none
        for m in typed:
            if states[m] == "compiled":
                states[m] = "stale"
    return states


def plain_modules(states: dict[str, str], pure: str) -> set[str]:
    """The modules that must load as plain Python: not compiled as they stand, or asked plain."""
    if pure == "1":
        return set(MODULES)
    asked = {m.strip() for m in pure.split(",") if m.strip()}
    if asked & typed_modules():
        asked |= typed_modules()
    return {m for m, s in states.items() if s == "stale"} | (asked & set(MODULES))


class PlainFinder(importlib.abc.MetaPathFinder):
    """Loads the listed modules from their ``.py``, passing over the extension beside it."""

    def __init__(self, modules: set[str]) -> None:
        self.modules = modules

    def find_spec(self, fullname: str, path: Any = None, target: Any = None) -> Any:
        if fullname not in self.modules:
            return None
        source = source_path(fullname)
        loader = importlib.machinery.SourceFileLoader(fullname, str(source))
        return importlib.util.spec_from_file_location(fullname, source, loader=loader)


_finder: PlainFinder | None = None


def install() -> None:
    """Before any hot module is imported: put :class:`PlainFinder` first on ``sys.meta_path``
    when some module must run plain (once; a warning names the stale ones)."""
    global _finder
    if _finder is not None:
        return
    states = module_states()
    stale = sorted(m for m, s in states.items() if s == "stale")
    plain = plain_modules(states, os.environ.get(PURE_ENV, "").strip())
    if stale and not os.environ.get(PURE_ENV, "").strip() == "1":
        warnings.warn(f"vigtavl_env: the compiled core is older than its source ({', '.join(stale)}); "
                      "those modules run as plain Python (rebuild: make compile)", RuntimeWarning, stacklevel=2)
    if plain:
        _finder = PlainFinder(plain)
        sys.meta_path.insert(0, _finder)


def compiled_modules() -> list[str]:
    """The modules of :data:`MODULES` imported so far from their compiled extension."""
    return [m for m in MODULES if str(getattr(sys.modules.get(m), "__file__", "")).endswith(EXT_SUFFIX)]


def core_summary(root: Path = ROOT) -> str:
    """One line: does this install run the compiled core, and if not, why."""
    states = module_states(root)
    n = sum(s == "compiled" for s in states.values())
    pure = os.environ.get(PURE_ENV, "").strip()
    if n == len(MODULES) and not pure:
        return f"compiled core: {n} modules compiled (Cython)"
    if pure:
        return f"plain Python: {PURE_ENV}={pure} asks for it ({n} of {len(MODULES)} modules are compiled)"
    if any(s == "stale" for s in states.values()):
        return "plain Python for the stale modules: the compiled core is older than its source (rebuild: make compile)"
    why = read_manifest(root).get("error")
    if n:
        return f"compiled core: {n} of {len(MODULES)} modules compiled; the others run as plain Python"
    return f"{NOT_BUILT} ({why or 'no build'}); {SPEED_NOTE}"


# ------------------------------------------------------------------ the build (setup.py's)
class UnusableCython(ImportError):
    """The installed Cython is one of :data:`BROKEN_CYTHON`: build nothing, as without Cython."""


def cython_extensions(root: Path = ROOT, force: bool = False) -> list[Any]:
    """The C extensions of :data:`MODULES`, cythonized into ``build/cython`` (the ``.c`` files
    never land beside the sources). Needs Cython."""
    import Cython  # only building needs Cython
    from Cython.Build import cythonize
    from Cython.Compiler import Options
    from setuptools import Extension

    if Cython.__version__ in BROKEN_CYTHON:
        avoid = ",".join(f"!={v}" for v in sorted(BROKEN_CYTHON))
        raise UnusableCython(f"Cython {Cython.__version__} builds a core that aborts at run time: "
                             f"pip install 'cython>=3.0,{avoid}'")

    directives = dict(DIRECTIVES)
    if "show_performance_hints" in Options.directive_types:  # hundreds of hints on typing: quiet
        directives["show_performance_hints"] = False
    # -g0: no debug tables (a tenth of the size); -O2: the usual release optimisation
    exts = [Extension(m, [str(source_path(m, root).relative_to(root))], extra_compile_args=["-O2", "-g0"])
            for m in MODULES]
    return cythonize(exts, build_dir="build/cython", quiet=True, nthreads=os.cpu_count() or 1, force=force,
                     compiler_directives=directives, include_path=[str(root)])


def _build_ext_class(no_extensions: str = "Cython is not installed") -> type:
    from setuptools.command.build_ext import build_ext

    class BuildExt(build_ext):
        """setuptools' ``build_ext`` that never fails the install: without Cython or a C compiler
        it says so once and leaves the package plain Python. Either way it writes the manifest."""

        def finalize_options(self) -> None:
            super().finalize_options()
            if self.parallel is None:
                self.parallel = os.cpu_count() or 1

        def run(self) -> None:
            root = Path.cwd()
            # setuptools' run() clears inplace while it builds and restores it only on success:
            # a failed in-place build must still write its error beside the sources.
            self._inplace = self.inplace
            # The sources as the build reads them: one edited while it runs is stale afterwards.
            hashes = {m: source_hash(m, root) for m in MODULES if source_path(m, root).is_file()}
            try:
                if not self.extensions:
                    raise RuntimeError(no_extensions)
                super().run()
            except Exception as e:  # no compiler, no Python headers, a compiler error ...
                first = str(e).splitlines()[0] if str(e) else ""
                why = f"{type(e).__name__}: {first}".strip(": ")
                why = why if len(why) <= 120 else why[:117] + "..."  # a compiler's whole command line
                print(f"warning: vigtavl: the compiled core was not built ({why}); {SPEED_NOTE}",
                      file=sys.stderr)
                self._write_manifest({"error": why})
                return
            self._write_manifest({"ext_suffix": EXT_SUFFIX, "modules": hashes})

        def _write_manifest(self, data: dict[str, Any]) -> None:
            base = Path.cwd() if getattr(self, "_inplace", self.inplace) else Path(self.build_lib)
            path = base / "vigtavl_env" / MANIFEST_NAME
            path.parent.mkdir(parents=True, exist_ok=True)
            tmp = path.with_suffix(".tmp")
            tmp.write_text(json.dumps(data, indent=1, sort_keys=True) + "\n")
            os.replace(tmp, path)

        def get_outputs(self) -> list[str]:  # the manifest is part of the package
            return super().get_outputs() + [str(Path(self.build_lib) / "vigtavl_env" / MANIFEST_NAME)]

    return BuildExt


def setup_arguments(root: Path = ROOT) -> dict[str, Any]:
    """``ext_modules`` and ``cmdclass`` for ``setup()``: every module of :data:`MODULES`, or
    none (plain Python, said once) when Cython cannot be imported or is a broken release."""
    try:
        return {"ext_modules": cython_extensions(root), "cmdclass": {"build_ext": _build_ext_class()}}
    except ImportError as e:
        why = str(e) if isinstance(e, UnusableCython) else "Cython is not installed"
        # build_ext runs only for a distribution with extensions: this one says it has some, so
        # that the build still warns once and writes why into the manifest (vigtavl --version)
        return {"ext_modules": [], "cmdclass": {"build_ext": _build_ext_class(why)},
                "distclass": _distribution_with_build_ext()}


def _distribution_with_build_ext() -> type:
    from setuptools import Distribution

    class CoreDistribution(Distribution):
        def has_ext_modules(self) -> bool:
            return True

    return CoreDistribution


def build(force: bool = False) -> str:
    """Build the extensions in place in a source checkout (what ``make setup`` also does), only
    those whose source changed unless ``force``; the one-line summary after it."""
    if not (ROOT / "setup.py").is_file():
        raise ValueError(f"{ROOT} is an installed package, not a source checkout: reinstall it "
                         "(pip install --force-reinstall vigtavl) to rebuild its compiled core")
    from setuptools import Distribution

    # What to rebuild is decided by hashes, not by file times (a git checkout can leave an old
    # source newer than nothing): drop the stale modules' generated C and built extensions.
    todo = [m for m, s in module_states().items() if force or s != "compiled"]
    for m in todo:
        rel = source_path(m, Path()).with_suffix("")
        for old in [ROOT / "build" / "cython" / rel.with_suffix(".c"),
                    *(ROOT / "build").glob(f"lib.*/{rel.with_suffix(EXT_SUFFIX)}")]:
            old.unlink(missing_ok=True)
    cwd = os.getcwd()
    os.chdir(ROOT)  # the build's relative paths (build/cython) are the checkout's
    try:
        try:
            exts = cython_extensions(ROOT, force=force)
        except UnusableCython as e:
            raise ValueError(str(e)) from None
        except ImportError as e:
            raise ValueError(f"Cython is not installed ({e}): pip install cython") from None
        dist = Distribution({"ext_modules": exts, "cmdclass": {"build_ext": _build_ext_class()},
                             "script_name": "setup.py"})
        cmd = dist.get_command_obj("build_ext")
        cmd.inplace, cmd.force = True, force
        cmd.ensure_finalized()
        cmd.run()
    finally:
        os.chdir(cwd)
    error = read_manifest().get("error")
    if error:
        raise ValueError(f"the compiled core was not built ({error}); everything still runs as plain Python")
    return f"compiled core up to date: {len(todo)} of {len(MODULES)} modules rebuilt in place"


def clean() -> list[Path]:
    """Remove the in-place extensions and the manifest (plain Python from then on); the files removed."""
    removed = [p for m in MODULES if (p := extension_path(m)).is_file()]
    if manifest_path().is_file():
        removed.append(manifest_path())
    for p in removed:
        p.unlink()
    return removed
