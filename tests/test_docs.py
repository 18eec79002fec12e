"""docs/rules.md stays honest: every rule row names tests, and every named test exists."""

from __future__ import annotations

import ast
import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
RULES = ROOT / "docs" / "rules.md"
TEST_REF = re.compile(r"`(test_[a-z0-9_]+\.py)(?:::(test_[a-z0-9_]+))?`")


def _rule_rows() -> list[tuple[str, str]]:
    rows = []
    for line in RULES.read_text().splitlines():
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        if line.startswith("|") and len(cells) >= 5 and re.fullmatch(r"[A-Z]+\d+", cells[0]):
            rows.append((cells[0], cells[-1]))
    return rows


def _test_functions(path: Path) -> set[str]:
    tree = ast.parse(path.read_text())
    return {n.name for n in ast.walk(tree) if isinstance(n, ast.FunctionDef) and n.name.startswith("test_")}


def test_every_rule_row_names_a_test() -> None:
    rows = _rule_rows()
    assert len(rows) >= 80, f"expected the full table, found {len(rows)} rows"
    missing = [rid for rid, tests in rows if not TEST_REF.search(tests)]
    assert not missing, f"rule rows without a test: {missing}"
    unimplemented = [rid for rid, tests in rows if "not implemented" in tests.lower()]
    assert not unimplemented, f"rules marked not implemented: {unimplemented}"


def test_every_named_test_exists() -> None:
    problems = []
    for rid, tests in _rule_rows():
        for file, func in TEST_REF.findall(tests):
            path = ROOT / "tests" / file
            if not path.exists():
                problems.append(f"{rid}: {file} does not exist")
            elif func and func not in _test_functions(path):
                problems.append(f"{rid}: {file}::{func} does not exist")
    assert not problems, "\n".join(problems)


def test_rule_ids_are_unique() -> None:
    ids = [rid for rid, _ in _rule_rows()]
    assert len(ids) == len(set(ids)), sorted(i for i in ids if ids.count(i) > 1)
