"""docs/integrations.md's recipes run as written (issue #16: tested recipes). A block marked
``<!-- recipe: needs X -->`` is skipped, with the reason, where package X is not installed."""

from __future__ import annotations

import importlib.util
import re
from pathlib import Path

import pytest

DOC = Path(__file__).resolve().parents[1] / "docs" / "integrations.md"
RECIPE = re.compile(r"<!-- recipe(?:: needs (\w+))? -->\n```python\n(.*?)```", re.S)


def _recipes() -> list[tuple[str, str | None, str]]:
    found = RECIPE.findall(DOC.read_text())
    assert len(found) >= 8, f"expected the recipes of docs/integrations.md, found {len(found)}"
    return [(code.splitlines()[0], need or None, code) for need, code in found]


@pytest.mark.parametrize("first, need, code", _recipes(), ids=lambda v: v if isinstance(v, str) and len(v) < 40 else None)
def test_recipe_runs(first: str, need: str | None, code: str) -> None:
    if need and importlib.util.find_spec(need) is None:
        pytest.skip(f"{need} is not installed (pip install {need}): the recipe is not run")
    namespace: dict[str, object] = {"__name__": "recipe"}
    exec(compile(code, f"{DOC.name} recipe", "exec"), namespace)  # noqa: S102 - our own docs
