"""The house's imports run one way: ``games`` (the game interface, the games) below ``vigtavl_env`` (Vigtavl) below ``agents`` below ``arena`` below
``training`` below ``webapp`` (the web app) below ``vigtavl`` (the command line), and no two modules import each other.

Every ``import`` statement counts, also those inside functions: an upward import run lazily is
still an upward import. Only imports under ``if TYPE_CHECKING:`` are left out: they are never
run (annotations are strings here), so a type named both ways is no circle.
"""

from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
FLOORS = ("games", "vigtavl_env", "agents", "arena", "training", "webapp", "vigtavl")  # bottom to top


def module_name(path: Path) -> str:
    parts = list(path.relative_to(ROOT).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def project_modules() -> dict[str, Path]:
    out = {}
    for floor in FLOORS:
        for path in (ROOT / floor).rglob("*.py"):
            out[module_name(path)] = path
    return out


MODULES = project_modules()


def imported(name: str, path: Path) -> set[str]:
    """The project modules that ``name``'s source imports, anywhere in it."""
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    found: set[str] = set()
    tree = ast.parse(path.read_text(), str(path))
    for block in ast.walk(tree):  # drop the type-only imports (module docstring)
        if isinstance(block, ast.If) and getattr(block.test, "id", getattr(block.test, "attr", "")) == "TYPE_CHECKING":
            block.body = []
    for node in ast.walk(tree):
        targets: list[str] = []
        if isinstance(node, ast.Import):
            targets = [a.name for a in node.names]
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                up = package.split(".")[: len(package.split(".")) - node.level + 1]
                base = ".".join(up + ([base] if base else []))
            targets = [f"{base}.{a.name}" for a in node.names] + [base]
        for t in targets:
            while t and t not in MODULES:  # "pkg.module.Name" -> "pkg.module"
                t = t.rpartition(".")[0]
            if t and t != name:
                found.add(t)
    return found


GRAPH = {name: imported(name, path) for name, path in MODULES.items()}


def floor(module: str) -> int:
    return FLOORS.index(module.split(".")[0])


def test_the_graph_sees_the_project() -> None:
    # a broken parser would find nothing and pass everything below
    assert "vigtavl_env.engine.game" in GRAPH["vigtavl_env.env"] or "vigtavl_env.engine" in GRAPH["vigtavl_env.env"]
    assert "agents.registry" in GRAPH["vigtavl.cli"] or any(m.startswith("agents") for m in GRAPH["vigtavl.cli"])
    assert any(m.startswith("training") for m in GRAPH["vigtavl.cli"])


@pytest.mark.parametrize("module", sorted(GRAPH))
def test_no_upward_import(module: str) -> None:
    upward = sorted(m for m in GRAPH[module] if floor(m) > floor(module))
    assert not upward, f"{module} imports {upward}, a floor above it ({' < '.join(FLOORS)})"


def test_no_import_circles() -> None:
    # a package's __init__ importing its own submodules is how packages work, not a circle
    edges = {m: {t for t in ts if not (m == t.rpartition(".")[0] and MODULES[m].name == "__init__.py")
                 and not t.startswith(m + ".")} for m, ts in GRAPH.items()}
    circles = []
    state: dict[str, int] = {}
    stack: list[str] = []

    def visit(m: str) -> None:
        state[m] = 1
        stack.append(m)
        for t in sorted(edges[m]):
            if state.get(t) == 1:
                circles.append(stack[stack.index(t):] + [t])
            elif t not in state:
                visit(t)
        stack.pop()
        state[m] = 2

    for m in sorted(edges):
        if m not in state:
            visit(m)
    assert not circles, "import circles: " + "; ".join(" -> ".join(c) for c in circles)


# --- above the games, only the interface (issue 56) ---------------------------------------------
# A game's own modules: its engine and its adapters. The layers above reach a game only through
# games.interface and games.registry (load_game), never by importing these.
GAME_PACKAGES = ("vigtavl_env", "games.thrones", "games.pig")
# A game's own bots and kinds table live in agents/ beside the generic agents and may read it.
GAME_OWN_AGENTS = ("agents.heuristic", "agents.tactics", "agents.thrones", "agents.registry")
GUARDED = ("arena", "webapp", "training", "agents")
def reads_a_game(module: str) -> list[str]:
    return sorted(m for m in GRAPH[module] if m.startswith(GAME_PACKAGES) and
                  any(m == p or m.startswith(p + ".") for p in GAME_PACKAGES))


def guarded(module: str) -> bool:
    return module.startswith(GUARDED) and not any(
        module == p or module.startswith(p + ".") for p in GAME_OWN_AGENTS)


def test_the_layers_above_the_games_import_no_games_module():
    offenders = {m: reads_a_game(m) for m in GRAPH if guarded(m) and reads_a_game(m)}
    assert not offenders, f"these modules read a game's own modules, not games.interface: {offenders}"


GAME_MODULE_NAME = re.compile(r"(vigtavl_env|games\.thrones|games\.pig)(\.\w+)*")


def names_a_game_module(path: Path) -> list[str]:
    """String constants in code (not docstrings) that are a game module's dotted name: what
    ``importlib.import_module`` would load unseen by the import graph."""
    tree = ast.parse(path.read_text(), str(path))
    docs = {id(n.value) for n in ast.walk(tree) if isinstance(n, ast.Expr) and isinstance(n.value, ast.Constant)}
    return sorted({n.value for n in ast.walk(tree) if isinstance(n, ast.Constant) and isinstance(n.value, str)
                   and id(n) not in docs and GAME_MODULE_NAME.fullmatch(n.value)})


def test_no_module_above_the_games_names_one_to_import_it():
    hidden = {m: found for m, path in MODULES.items() if guarded(m) and (found := names_a_game_module(path))}
    assert not hidden, f"these modules name a game's module (an import by name): {hidden}"


def test_the_name_check_sees_a_lazy_export(tmp_path: Path):
    lazy = tmp_path / "lazy.py"
    lazy.write_text('"""vigtavl_env.agent in a docstring is fine."""\n_EXPORTS = {"Agent": "vigtavl_env.agent"}\n')
    assert names_a_game_module(lazy) == ["vigtavl_env.agent"]


def test_the_guard_sees_an_import_of_a_game():
    assert reads_a_game("agents.heuristic.agent") and not reads_a_game("arena.match")
    assert not guarded("agents.thrones.search") and guarded("agents.generic") and guarded("training.train")
