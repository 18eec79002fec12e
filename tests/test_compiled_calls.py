"""The compiled core calls its own functions as C functions, and compares C ints.

A compiled module that imports another compiled module's function by name (``from .building
import unit_sites``), as the plain-Python source must, calls it as a Python object -- a module
look-up, argument boxing, a Python call -- unless its ``.pxd`` also cimports it. Issue 30 found
most of the engine's calls between modules going that way. This reads every compiled module's
source and ``.pxd`` (no build needed) and names each function imported by name from another
compiled module, declared there as ``cpdef``, that the importer's ``.pxd`` does not cimport.
Likewise an int constant imported by name (``ON_BOARD``, ``FREIGHTER``) is a Python object
looked up at each use, compared as one, unless the importer's ``.pxd`` declares it ``cdef int``.
"""

from __future__ import annotations

import ast
import functools
import importlib
import re
from pathlib import Path

from vigtavl_env.compiled import MODULES

ROOT = Path(__file__).resolve().parents[1]
# The heuristic's dispatch keeps its scorers as values in a table (a Python call either way).
VALUES_ONLY = {"agents.heuristic.agent"}
_CPDEF = re.compile(r"^cpdef\s+(?:[\w\[\]\.]+\s+)?(\w+)\s*\(", re.M)
_CIMPORT = re.compile(r"^from\s+([\w\.]+)\s+cimport\s+(\([^)]*\)|[^\n]*)", re.M)


def _pxd(module: str) -> Path:
    return ROOT / (module.replace(".", "/") + ".pxd")


def _cpdefs(module: str) -> set[str]:
    return set(_CPDEF.findall(_pxd(module).read_text()))


def _cimported(module: str) -> set[tuple[str, str]]:
    out = set()
    for source, names in _CIMPORT.findall(_pxd(module).read_text()):
        for name in names.strip("()").replace("\n", " ").split(","):
            if name.strip():
                out.add((source, name.strip().split(" as ")[0]))
    return out


@functools.lru_cache(maxsize=None)
def _from_imports(module: str) -> frozenset[tuple[str, str]]:
    """(source module, name) of every name the module's source imports by name."""
    path = ROOT / (module.replace(".", "/") + ".py")
    if not path.is_file():  # a package: its __init__.py
        path = ROOT / module.replace(".", "/") / "__init__.py"
    tree = ast.parse(path.read_text())
    package = module if path.name == "__init__.py" else module.rsplit(".", 1)[0]
    out = set()
    for node in tree.body:
        if not isinstance(node, ast.ImportFrom):
            continue
        source = importlib.util.resolve_name("." * node.level + (node.module or ""), package) \
            if node.level else node.module
        out.update((source, alias.name) for alias in node.names if not alias.asname)
    return frozenset(out)


def _imports(module: str) -> set[tuple[str, str]]:
    """(defining module, name) of every function the module imports by name from a compiled module."""
    out = set()
    for source, name in _from_imports(module):
        defined_in = getattr(getattr(importlib.import_module(source), name, None), "__module__", None)
        if defined_in in MODULES and defined_in != module:
            out.add((defined_in, name))
    return out


@functools.lru_cache(maxsize=1)
def _project_modules() -> tuple[str, ...]:
    """Every Python module of the project's packages and tests (compiled or not)."""
    out = []
    for top in ("vigtavl", "vigtavl_env", "agents", "training", "tests"):
        for path in sorted((ROOT / top).rglob("*.py")):
            parts = path.relative_to(ROOT).with_suffix("").parts
            out.append(".".join(parts[:-1] if parts[-1] == "__init__" else parts))
    return tuple(out)


def _imported_by_others(module: str) -> set[str]:
    """Names any other module of the project imports from ``module``: they must stay Python
    names there (a ``cdef int`` module global is not one)."""
    names = set()
    for other in _project_modules():
        if other != module:
            names.update(n for s, n in _from_imports(other) if s == module)
    return names


def test_every_call_between_compiled_modules_is_cimported() -> None:
    missing = []
    with_pxd = [m for m in MODULES if _pxd(m).is_file()]
    for module in with_pxd:
        if module in VALUES_ONLY:
            continue
        cimported = _cimported(module)
        for source, name in sorted(_imports(module)):
            if _pxd(source).is_file() and name in _cpdefs(source) and (source, name) not in cimported:
                missing.append(f"{module}: cimport {name} from {source}")
    assert not missing, "calls that go through Python objects:\n" + "\n".join(missing)


def test_the_check_sees_a_missing_cimport(monkeypatch) -> None:
    """The check is not vacuous: legal.py's imports from building.py are cpdef functions, and
    the regexes read them from the real files."""
    imports = _imports("vigtavl_env.engine.legal")
    assert ("vigtavl_env.engine.building", "may_build_now") in imports
    assert "may_build_now" in _cpdefs("vigtavl_env.engine.building")
    assert ("vigtavl_env.engine.building", "may_build_now") in _cimported("vigtavl_env.engine.legal")
    monkeypatch.setattr(f"{__name__}._cimported", lambda module: set())
    try:
        test_every_call_between_compiled_modules_is_cimported()
    except AssertionError as e:
        assert "vigtavl_env.engine.legal: cimport may_build_now from vigtavl_env.engine.building" in str(e)
    else:
        raise AssertionError("the check passed with nothing cimported")


def test_every_int_constant_a_compiled_module_imports_is_a_c_int() -> None:
    missing = []
    for module in [m for m in MODULES if _pxd(m).is_file()]:
        pxd = _pxd(module).read_text()
        exported = _imported_by_others(module)
        for source, name in sorted(_from_imports(module)):
            value = getattr(importlib.import_module(source), name, None)
            if (name.isupper() and type(value) is int and name not in exported
                    and not re.search(rf"\bcdef int\b[^\n]*\b{name}\b", pxd)):
                missing.append(f"{module}: cdef int {name}")
    assert not missing, "int constants compared as Python objects:\n" + "\n".join(missing)
