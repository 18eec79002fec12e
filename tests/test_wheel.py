"""The package as a user installs it: a wheel built from this checkout, installed with its
dependencies into a fresh virtualenv, used from a folder outside the source tree.

It must run the engine from its C extensions with no extra command, find its preset maps and
its shipped agents, name its bots through the ``vigtavl.agents`` entry points, and register its
ids. Built with no C compiler, the wheel still installs and runs as plain Python, and says so.
One test, because the build and the install are most of its cost (a few minutes).
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from vigtavl_env import compiled

ROOT = Path(__file__).resolve().parent.parent
TORCH = "torch==2.13.0"  # the Makefile's pin: an unpinned torch pulls a CUDA build

# Run by the fresh venv's Python from a folder outside the checkout.
USE_SCRIPT = r"""
import sys
from pathlib import Path
import gymnasium, pettingzoo
import vigtavl_env
from vigtavl_env import compiled
from vigtavl_env.agent import make_named_agent
from vigtavl_env.engine.maps import list_presets
import webapp.server as server
import vigtavl_env.vector  # the training vector env: compiled too (counted below)
import agents.gumbel, vigtavl_env.search_steps  # the Gumbel search's hot loop: compiled too

checkout = Path(sys.argv[1])
assert not str(Path(vigtavl_env.__file__).resolve()).startswith(str(checkout)), vigtavl_env.__file__
print("presets", ",".join(list_presets()))
env = vigtavl_env.env(map="duel", seed=0, max_steps=400)
env.reset(seed=0)
steps = 0
for agent in env.agent_iter():
    obs, reward, term, trunc, info = env.last()
    action = None if term or trunc else env.action_space(agent).sample(obs["action_mask"])
    env.step(action)
    steps += 1
print("played", steps)
print("compiled", len(compiled.compiled_modules()), "of", len(compiled.MODULES))
print("summary", compiled.core_summary())
from agents.registry import make_agent
for spec in ("ppo:pretrained", "ppo:pretrained-3p", "ppo:pretrained-4p"):
    bot = make_agent(spec, seed=0)
    print("loaded", spec, type(bot).__name__)
print("bot", type(make_named_agent("greedy")).__name__)
gymnasium.make(vigtavl_env.GYMNASIUM_ID, opponents="random").reset(seed=0)
pettingzoo.make("aec", vigtavl_env.PETTINGZOO_ID).reset(seed=0)
print("ids", vigtavl_env.GYMNASIUM_ID, vigtavl_env.PETTINGZOO_ID)
print("static", (server.STATIC / "index.html").is_file())
from training.config import load_config, shipped_configs
load_config("ppo_quick")
print("configs", ",".join(shipped_configs()))
"""


def _run(cmd: list[str], **kw) -> subprocess.CompletedProcess:
    out = subprocess.run(cmd, capture_output=True, text=True, timeout=1500, **kw)
    assert out.returncode == 0, f"{' '.join(cmd)}\n{out.stdout[-3000:]}\n{out.stderr[-3000:]}"
    return out


def _build_wheel(source: Path, dest: Path, env: dict[str, str] | None = None) -> Path:
    _run([sys.executable, "-m", "pip", "wheel", "--no-deps", "-q", "-w", str(dest), str(source)], env=env)
    (wheel,) = dest.glob("vigtavl-*.whl")
    return wheel


def _clean_copy(dest: Path) -> Path:
    """The checkout's tracked files (as a fresh clone has them: no build folder, no extensions)."""
    files = _run(["git", "ls-files", "-z", "--cached", "--others", "--exclude-standard"], cwd=ROOT).stdout.split("\0")
    for name in filter(None, files):
        source, target = ROOT / name, dest / name
        target.parent.mkdir(parents=True, exist_ok=True)
        if source.is_symlink():  # as git checks it out (training/configs)
            os.symlink(os.readlink(source), target)
        elif source.is_file():
            shutil.copy2(source, target)
    return dest


@pytest.mark.skipif(shutil.which("gcc") is None and shutil.which("cc") is None, reason="no C compiler here")
def test_the_wheel_installs_and_runs_compiled_outside_the_checkout(tmp_path: Path) -> None:
    wheel = _build_wheel(ROOT, tmp_path / "dist")
    venv = tmp_path / "venv"
    _run([sys.executable, "-m", "venv", str(venv)])
    python = venv / "bin" / "python"
    _run([str(python), "-m", "pip", "install", "-q", str(wheel), TORCH])
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    out = _run([str(python), "-c", USE_SCRIPT, str(ROOT)], cwd=elsewhere).stdout
    assert "presets duel,quad,triad" in out
    assert "played" in out and int(out.split("played ")[1].split()[0]) > 50
    n = len(compiled.MODULES)
    assert f"compiled {n} of {n}" in out, out  # the C extensions, with no extra command
    assert "summary compiled core" in out
    assert "loaded ppo:pretrained PPOAgent" in out and "loaded ppo:pretrained-3p PPOAgent" in out
    assert "loaded ppo:pretrained-4p PPOAgent" in out
    assert "bot HeuristicAgent" in out and "static True" in out and "ppo_quick" in out
    version = _run([str(venv / "bin" / "vigtavl"), "--version"], cwd=elsewhere).stdout
    assert "compiled core" in version and len(version.strip().splitlines()) == 1

    # With no C compiler the build still gives a wheel, and the package runs as plain Python.
    plain = _build_wheel(_clean_copy(tmp_path / "clone"), tmp_path / "dist-plain",
                         env=dict(os.environ, CC="false", CXX="false"))
    _run([str(python), "-m", "pip", "install", "-q", "--no-deps", "--force-reinstall", str(plain)])
    out = _run([str(python), "-c", USE_SCRIPT, str(ROOT)], cwd=elsewhere).stdout
    assert f"compiled 0 of {n}" in out and "summary plain Python: the compiled core was not built" in out
    version = _run([str(venv / "bin" / "vigtavl"), "--version"], cwd=elsewhere).stdout
    assert "plain Python" in version and len(version.strip().splitlines()) == 1
