"""The optional compiled core (vigtavl_env/compiled.py) changes speed only, never the game.

- Compiled and plain Python play the same games: seeded random play through the environment
  (2, 3 and 4 players, several games each) reaches the same state, and bot games (heuristic and
  search) make the same decisions to the same final state, in a subprocess of each kind.
- An extension is used only while the source beside it is the one it was built from: a stale or
  missing one falls back to plain Python with a warning.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import warnings
from pathlib import Path

import pytest

from vigtavl_env import compiled

ROOT = Path(__file__).resolve().parent.parent

# Plays a few games of each kind and prints one line per game: decisions digest, final digest.
GAMES_SCRIPT = r"""
import hashlib, json, sys
from vigtavl_env import compiled, raw_env
from vigtavl_env.bench_env import aec_loop
from agents.match import match_jobs, play_jobs, state_digest

for n_players, steps in ((2, 800), (3, 500), (4, 500)):  # several random games each, then part of one
    env = raw_env(num_players=n_players)
    _, games = aec_loop(env, steps, seed=n_players)
    print(n_players, games, env.game_state.round, state_digest(env.game_state))
for agents, games in ((["greedy", "aggressor"], 2), (["builder", "random"], 1), (["search:3", "greedy"], 1)):
    for r in play_jobs(match_jobs(agents, games, seed=11, num_players=2), progress=False):
        print(r.seats, hashlib.sha256(json.dumps(r.decisions).encode()).hexdigest()[:16], r.final_digest)
print("compiled modules:", len(compiled.compiled_modules()), file=sys.stderr)
"""


def _play(pure: bool) -> tuple[str, str]:
    env = dict(os.environ, VIGTAVL_PURE_PYTHON="1" if pure else "0")
    out = subprocess.run([sys.executable, "-W", "ignore", "-c", GAMES_SCRIPT], cwd=ROOT, env=env,
                         capture_output=True, text=True, timeout=600)
    assert out.returncode == 0, out.stderr
    return out.stdout, out.stderr


def test_compiled_and_plain_python_play_the_same_games() -> None:
    built = [m for m, s in compiled.status().items() if s == "compiled"]
    if not built:
        if os.environ.get("CI"):
            pytest.fail("no compiled core on CI: `make setup` runs `vigtavl compile`; see its output")
        pytest.skip("no compiled core built (vigtavl compile)")
    fast, fast_err = _play(pure=False)
    plain, plain_err = _play(pure=True)
    assert f"compiled modules: {len(compiled.MODULES)}" in fast_err  # every hot module compiled
    assert "compiled modules: 0" in plain_err
    assert len(fast.splitlines()) == 7
    assert fast == plain


def _hash(module: str) -> str:
    return compiled.source_hash(compiled.source_path(module))


def test_a_stale_extension_is_never_loaded() -> None:
    module = "vigtavl_env.engine.stats"  # a real module with a source
    finder = compiled.CompiledFinder({module: "0" * 64})  # built from some other source
    with pytest.warns(RuntimeWarning, match="another version of stats.py"):
        assert finder.find_spec(module) is None
    assert finder.stale == [module] and finder.loaded == []


def test_an_extension_that_is_missing_is_not_loaded(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    module = "vigtavl_env.engine.stats"
    monkeypatch.setattr(compiled, "OUT_DIR", tmp_path)  # an empty build folder
    finder = compiled.CompiledFinder({module: _hash(module)})
    with pytest.warns(RuntimeWarning):
        assert finder.find_spec(module) is None


def test_a_fresh_extension_is_found_and_other_modules_are_left_alone(
        monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    module = "vigtavl_env.engine.stats"
    monkeypatch.setattr(compiled, "OUT_DIR", tmp_path)
    compiled.extension_path(module).write_bytes(b"")  # found by name; never loaded here
    finder = compiled.CompiledFinder({module: _hash(module)})
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        spec = finder.find_spec(module)
        assert finder.find_spec("vigtavl_env.engine.maps") is None  # not in the manifest
    assert spec is not None and spec.origin == str(compiled.extension_path(module))
    assert finder.loaded == [module]


def test_the_manifest_of_another_python_is_ignored(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    manifest = tmp_path / "manifest.json"
    monkeypatch.setattr(compiled, "MANIFEST", manifest)
    manifest.write_text(json.dumps({"ext_suffix": ".other-abi.so", "modules": {"vigtavl_env.env": "x"}}))
    assert compiled.read_manifest() == {}
    manifest.write_text(json.dumps({"ext_suffix": compiled.EXT_SUFFIX, "modules": {"vigtavl_env.env": "x"}}))
    assert compiled.read_manifest() == {"vigtavl_env.env": "x"}


def test_a_failed_build_says_so_and_changes_nothing(monkeypatch: pytest.MonkeyPatch,
                                                    capsys: pytest.CaptureFixture[str]) -> None:
    from vigtavl.cli import ERROR_STATUS, main
    before = compiled.status()

    def no_compiler(force: bool = False) -> None:
        raise ImportError("No module named 'Cython'")

    monkeypatch.setattr(compiled, "build", no_compiler)
    assert main(["compile"]) == ERROR_STATUS
    err = capsys.readouterr().err
    assert "compiled core was not built" in err and "No module named 'Cython'" in err
    assert compiled.status() == before
