"""The optional compiled core (vigtavl_env/compiled.py) changes speed only, never the game.

- Compiled and plain Python play the same games: seeded random play through the environment
  (2, 3 and 4 players, several games each) reaches the same state, and bot games (heuristic and
  search) make the same decisions to the same final state, and the Gumbel search grows the same
  trees (tests/test_az.py's fingerprint), in a subprocess of each kind.
- An extension is used only while the source beside it is the one it was built from: a stale
  one falls back to plain Python with a warning; a build that failed is said in one line.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from vigtavl_env import compiled

ROOT = Path(__file__).resolve().parent.parent

# Plays a few games of each kind and prints one line per game: decisions digest, final digest.
GAMES_SCRIPT = r"""
import hashlib, json, sys
from vigtavl_env import compiled, raw_env
from tools.bench_env import aec_loop
from arena.vigtavl_match import match_jobs, play_jobs
from vigtavl_env.game import engine_digest as state_digest
import vigtavl_env.vector  # the training vector env: compiled too (counted below)

for n_players, steps in ((2, 800), (3, 500), (4, 500)):  # several random games each, then part of one
    env = raw_env(num_players=n_players)
    _, games = aec_loop(env, steps, seed=n_players)
    print(n_players, games, env.game_state.round, state_digest(env.game_state))
for agents, games in ((["greedy", "aggressor"], 2), (["builder", "random"], 1), (["search:3", "greedy"], 1)):
    for r in play_jobs(match_jobs(agents, games, seed=11, num_players=2), progress=False):
        print(r.seats, hashlib.sha256(json.dumps(r.decisions).encode()).hexdigest()[:16], r.final_digest)
from tests.test_az import engine_search, searches_fingerprint  # the Gumbel search's trees
print("gumbel", searches_fingerprint(engine_search))
print("compiled modules:", len(compiled.compiled_modules()), file=sys.stderr)
"""


def _play(pure: bool) -> tuple[str, str]:
    env = dict(os.environ, VIGTAVL_PURE_PYTHON="1" if pure else "0")
    out = subprocess.run([sys.executable, "-W", "ignore", "-c", GAMES_SCRIPT], cwd=ROOT, env=env,
                         capture_output=True, text=True, timeout=600)
    assert out.returncode == 0, out.stderr
    return out.stdout, out.stderr


def test_compiled_and_plain_python_play_the_same_games() -> None:
    built = [m for m, s in compiled.module_states().items() if s == "compiled"]
    if not built:
        if os.environ.get("CI"):
            pytest.fail(f"no compiled core on CI: `make setup` builds it; {compiled.core_summary()}")
        pytest.skip(f"no compiled core here: {compiled.core_summary()}")
    fast, fast_err = _play(pure=False)
    plain, plain_err = _play(pure=True)
    assert f"compiled modules: {len(compiled.MODULES)}" in fast_err  # every hot module compiled
    assert "compiled modules: 0" in plain_err
    assert len(fast.splitlines()) == 8
    assert fast == plain


def _fake_install(root: Path) -> Path:
    """A copy of the compiled modules' sources and declarations under ``root``, each with an
    (empty) extension beside it and a manifest of their hashes: a build as the install leaves it."""
    for m in compiled.MODULES:
        for suffix in (".py", ".pxd"):
            src = compiled.source_path(m).with_suffix(suffix)
            if src.is_file():
                dst = compiled.source_path(m, root).with_suffix(suffix)
                dst.parent.mkdir(parents=True, exist_ok=True)
                dst.write_bytes(src.read_bytes())
        compiled.extension_path(m, root).write_bytes(b"")
    manifest = {"ext_suffix": compiled.EXT_SUFFIX, "modules": {m: compiled.source_hash(m, root) for m in compiled.MODULES}}
    compiled.manifest_path(root).write_text(json.dumps(manifest))
    return root


def test_a_fresh_build_is_compiled(tmp_path: Path) -> None:
    root = _fake_install(tmp_path)
    assert set(compiled.module_states(root).values()) == {"compiled"}
    assert compiled.core_summary(root).startswith(f"compiled core: {len(compiled.MODULES)} modules")


def test_an_edited_source_makes_its_module_stale(tmp_path: Path) -> None:
    root = _fake_install(tmp_path)
    search = compiled.source_path("agents.heuristic.search", root)  # no .pxd: stale alone
    search.write_text(search.read_text() + "\n# edited\n")
    states = compiled.module_states(root)
    assert states["agents.heuristic.search"] == "stale"
    assert sum(s == "compiled" for s in states.values()) == len(compiled.MODULES) - 1
    assert "older than its source" in compiled.core_summary(root)


def test_an_edited_typed_module_makes_the_whole_typed_core_stale(tmp_path: Path) -> None:
    root = _fake_install(tmp_path)
    pxd = compiled.source_path("vigtavl_env.engine.state", root).with_suffix(".pxd")
    pxd.write_text(pxd.read_text() + "\n")
    states = compiled.module_states(root)
    typed = compiled.typed_modules(root)
    assert len(typed) >= 5 and all(states[m] == "stale" for m in typed)
    assert states["agents.heuristic.search"] == "stale"  # its hash covers every .pxd too


def test_missing_extensions_and_other_pythons_builds_are_not_built(tmp_path: Path) -> None:
    root = _fake_install(tmp_path)
    compiled.extension_path("agents.heuristic.search", root).unlink()
    assert compiled.module_states(root)["agents.heuristic.search"] == "not built"
    data = json.loads(compiled.manifest_path(root).read_text())
    compiled.manifest_path(root).write_text(json.dumps(dict(data, ext_suffix=".other-abi.so")))
    assert set(compiled.module_states(root).values()) == {"not built"}


def test_a_failed_install_build_is_named_in_one_line(tmp_path: Path) -> None:
    root = _fake_install(tmp_path)
    for m in compiled.MODULES:
        compiled.extension_path(m, root).unlink()
    compiled.manifest_path(root).write_text(json.dumps({"error": "CompileError: command 'false' failed"}))
    line = compiled.core_summary(root)
    assert line.startswith("plain Python: the compiled core was not built (CompileError")
    assert "slower" in line and "\n" not in line


def test_a_failed_in_place_build_writes_its_error_beside_the_sources(tmp_path: Path,
                                                                     monkeypatch: pytest.MonkeyPatch) -> None:
    # What `vigtavl compile` does when the C compiler rejects a module: setuptools' build_ext
    # clears `inplace` while building, so the error once went to build/lib... and the command
    # then said "up to date".
    from setuptools import Distribution, Extension
    (tmp_path / "broken.c").write_text("this is not C;\n")
    monkeypatch.chdir(tmp_path)
    dist = Distribution({"ext_modules": [Extension("broken", ["broken.c"])],
                         "cmdclass": {"build_ext": compiled._build_ext_class()}, "script_name": "setup.py"})
    cmd = dist.get_command_obj("build_ext")
    cmd.inplace = True
    cmd.ensure_finalized()
    cmd.run()
    assert "CompileError" in compiled.read_manifest(tmp_path)["error"]
    assert not list(tmp_path.glob("build/lib*/vigtavl_env/*.json"))


def test_plain_modules_follow_the_environment_variable() -> None:
    fresh = {m: "compiled" for m in compiled.MODULES}
    assert compiled.plain_modules(fresh, "") == set()
    assert compiled.plain_modules(fresh, "1") == set(compiled.MODULES)
    assert compiled.plain_modules(fresh, "agents.heuristic.search, nothing.here") == {"agents.heuristic.search"}
    # one typed module asked plain takes the whole typed core with it (they cimport one another)
    assert compiled.plain_modules(fresh, "vigtavl_env.engine.game") >= compiled.typed_modules()
    stale = dict(fresh, **{"agents.tactics.odds": "stale"})
    assert compiled.plain_modules(stale, "") == {"agents.tactics.odds"}


def test_the_plain_finder_loads_sources_and_leaves_other_modules_alone() -> None:
    finder = compiled.PlainFinder({"vigtavl_env.engine.stats"})
    spec = finder.find_spec("vigtavl_env.engine.stats")
    assert spec is not None and spec.origin == str(compiled.source_path("vigtavl_env.engine.stats"))
    assert finder.find_spec("vigtavl_env.engine.maps") is None


def test_a_failed_build_says_so_in_one_line(monkeypatch: pytest.MonkeyPatch,
                                           capsys: pytest.CaptureFixture[str]) -> None:
    from vigtavl.cli import ERROR_STATUS, main
    before = compiled.module_states()

    def no_compiler(force: bool = False) -> str:
        raise ValueError("Cython is not installed (No module named 'Cython'): pip install cython")

    monkeypatch.setattr(compiled, "build", no_compiler)
    assert main(["compile"]) == ERROR_STATUS
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "No module named 'Cython'" in err
    assert compiled.module_states() == before


def test_status_and_version_are_one_line(capsys: pytest.CaptureFixture[str]) -> None:
    from vigtavl.cli import main
    assert main(["compile", "status"]) == 0
    line = capsys.readouterr().out
    assert line.count("\n") == 1 and ("compiled core" in line or "plain Python" in line)
    with pytest.raises(SystemExit) as done:
        main(["--version"])
    assert done.value.code == 0
    out = capsys.readouterr().out
    assert out.count("\n") == 1 and out.startswith("vigtavl ") and "vigtavl_v" in out


def _loops_over_state_tables(source: str) -> list[int]:
    """Lines of ``source`` that loop (a ``for`` or a comprehension) directly over a table of the
    state: ``for o in state.dev_owner`` or ``enumerate(state.u_where)``."""
    import ast
    import re

    pxd = (compiled.ROOT / "vigtavl_env" / "engine" / "state.pxd").read_text()
    tables = {name.strip() for line in re.findall(r"cdef public int\[:\] (.+)", pxd) for name in line.split(",")}

    def is_table(node: ast.AST) -> bool:
        if isinstance(node, ast.Call) and getattr(node.func, "id", "") == "enumerate" and node.args:
            node = node.args[0]
        return isinstance(node, ast.Attribute) and node.attr in tables

    return sorted(n.iter.lineno for n in ast.walk(ast.parse(source))
                  if isinstance(n, (ast.For, ast.comprehension)) and is_table(n.iter))


def test_the_typed_core_indexes_its_tables_instead_of_looping_over_them() -> None:
    # Cython 3.3.0 emitted C that gcc rejects for a loop over a typed memoryview (the device
    # machine's image had it). Indexing compiles under every Cython and is what the typed core
    # does everywhere else. (3.3.0's core then aborts at run time all the same: the build
    # refuses that release, test_a_broken_cython_release_builds_nothing_and_says_why.)
    assert _loops_over_state_tables("for u, w in enumerate(state.u_where): pass") == [1]
    assert _loops_over_state_tables("n = sum(1 for o in state.dev_owner if o == 0)") == [1]
    assert _loops_over_state_tables("for u in range(state.n_units): pass") == []
    found = {m: lines for m in compiled.typed_modules()
             if (lines := _loops_over_state_tables(compiled.source_path(m).read_text()))}
    assert found == {}


def test_a_broken_cython_release_builds_nothing_and_says_why(tmp_path: Path,
                                                            monkeypatch: pytest.MonkeyPatch) -> None:
    # The GPU machine's image has Cython 3.3.0, whose core aborts at its first game ("Acquisition
    # count is -1"): rather than build such a core, the install builds nothing and runs plain
    # Python, and `vigtavl compile` says why in one line.
    import Cython
    monkeypatch.setattr(Cython, "__version__", "3.3.0")
    with pytest.raises(ImportError, match="Cython 3.3.0 builds a core that aborts"):
        compiled.cython_extensions()
    args = compiled.setup_arguments()
    assert args["ext_modules"] == []
    monkeypatch.chdir(tmp_path)  # the install's build_ext, in place: the manifest names the cause
    dist = args["distclass"]({"ext_modules": args["ext_modules"], "cmdclass": args["cmdclass"],
                              "script_name": "setup.py"})
    assert dist.has_ext_modules()  # else setuptools skips build_ext, and nothing says why
    cmd = dist.get_command_obj("build_ext")
    cmd.inplace = True
    cmd.ensure_finalized()
    cmd.run()
    error = compiled.read_manifest(tmp_path)["error"]
    assert "Cython 3.3.0" in error and "!=3.3.0" in error and len(error) <= 120
    monkeypatch.setattr(compiled, "ROOT", tmp_path)  # `vigtavl compile`: one line, nothing replaced
    (tmp_path / "setup.py").write_text("")
    with pytest.raises(ValueError, match=r"^Cython 3\.3\.0 builds a core that aborts at run time: pip install"):
        compiled.build()
