"""The docs stay honest: every docs/rules.md row names tests that exist, and docs/observation.md
lists the observation channels the encoder makes."""

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


# ---------------------------------------------------------------------- docs/observation.md
OBSERVATION = ROOT / "docs" / "observation.md"
LISTED = re.compile(r"(\d+) ([a-z][A-Za-z0-9_]*)")
TABLE_COUNT = re.compile(r"^(\d*)(P?)$")


def _observation_doc() -> str:
    return OBSERVATION.read_text()


def test_observation_doc_lists_every_channel_in_order() -> None:
    """The 2-player channel listing of docs/observation.md is ``channel_names``, name by name."""
    from vigtavl_env.observation import ChannelLayout
    names = ChannelLayout(2).names
    text = _observation_doc()
    head = f"All {len(names)} channels of a 2-player game, in order"
    assert head in text, f"the listing's heading should say {head!r}"
    block = text.split(head, 1)[1].split("```")[1]
    listed = [(int(i), n) for i, n in LISTED.findall(block)]
    assert listed == list(enumerate(names))


def test_observation_doc_table_counts_add_up() -> None:
    """The channel table's counts (``1``, ``6P`` ...) add up to the encoder's channels for 2, 3 and
    4 players, its name patterns follow the code's order, and the stated formula is the code's."""
    from vigtavl_env.observation import SCALAR_GROUPS, SPATIAL_GROUPS, ChannelLayout
    section = _observation_doc().split("## Observation", 1)[1].split("\n## ", 1)[0]
    rows = [[c.strip() for c in line.strip().strip("|").split("|")]
            for line in section.splitlines() if line.startswith("| ") and "`" in line]
    counts = [TABLE_COUNT.match(r[0]) for r in rows]
    assert all(counts), [r[0] for r, m in zip(rows, counts) if not m]
    for p in (2, 3, 4):
        total = sum(int(m.group(1) or 1) * (p if m.group(2) else 1) for m in counts)
        assert total == ChannelLayout(p).n_channels, (p, total)
    patterns = [r[1].strip("`").split("_{")[0] for r in rows]
    keys = [key for key, _, _ in SPATIAL_GROUPS + SCALAR_GROUPS]
    assert [k for k in patterns if k in keys] == keys  # every group, in the code's order
    base = ChannelLayout(2).n_channels - 2 * (ChannelLayout(3).n_channels - ChannelLayout(2).n_channels)
    per = ChannelLayout(3).n_channels - ChannelLayout(2).n_channels
    assert f"`C = {base} + {per} P`" in _observation_doc()


# ---------------------------------------------------------------------- docs/how-to-play.md
def _anchor(heading: str) -> str:
    """GitHub's anchor of a markdown heading."""
    return re.sub(r"[^a-z0-9 -]", "", heading.lower()).strip().replace(" ", "-")


def test_how_to_play_links_to_rule_rows_and_pictures_that_exist() -> None:
    text = (ROOT / "docs" / "how-to-play.md").read_text()
    anchors = {_anchor(line.lstrip("#").strip()) for line in RULES.read_text().splitlines() if line.startswith("## ")}
    links = re.findall(r"\]\(rules\.md#([a-z0-9-]+)\)", text)
    assert len(links) >= 8 and set(links) <= anchors, sorted(set(links) - anchors)
    row_ids = {rid for rid, _ in _rule_rows()}
    named = set(re.findall(r"\b([A-Z]{1,2}\d+)\b", text))
    assert named and named <= row_ids, sorted(named - row_ids)
    for picture in re.findall(r"\]\((img/[^)]+)\)", text):
        assert (ROOT / "docs" / picture).is_file(), picture
    for doc in ("README.md", "docs/rules.md"):
        assert "how-to-play.md" in (ROOT / doc).read_text() and "shared/seeds" not in (ROOT / doc).read_text()


# ---------------------------------------------------------------------- links and commands
LINK = re.compile(r"\]\(([^)\s]+)\)")
FENCE = re.compile(r"^```.*?^```", re.S | re.M)
PYTHON_M = re.compile(r"python -m ([A-Za-z_][\w.]*)")
PROJECT_PACKAGES = ("vigtavl_env", "agents", "training", "vigtavl", "tools")


def _user_docs() -> list[Path]:
    return [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]


def _anchors(doc: Path) -> set[str]:
    """GitHub's anchors of ``doc``'s headings (outside code blocks); a repeated one gets -1, -2 ..."""
    seen: dict[str, int] = {}
    for line in FENCE.sub("", doc.read_text()).splitlines():
        if line.startswith("#"):
            a = _anchor(line.lstrip("#").strip())
            seen[a] = seen.get(a, -1) + 1
            if seen[a]:
                seen[f"{a}-{seen[a]}"] = 0
    return set(seen)


def test_every_relative_link_of_the_docs_resolves() -> None:
    """README.md and docs/*.md: each relative link names a file or folder that exists, and a
    ``#fragment`` into a markdown page names one of its headings."""
    problems, checked = [], 0
    for doc in _user_docs():
        for target in LINK.findall(FENCE.sub("", doc.read_text())):
            if re.match(r"[a-z]+:", target):  # https:, mailto:
                continue
            path, _, fragment = target.partition("#")
            dest = (doc.parent / path) if path else doc
            checked += 1
            if not dest.exists():
                problems.append(f"{doc.name}: {target} (no such file)")
            elif fragment and dest.suffix == ".md" and fragment not in _anchors(dest):
                problems.append(f"{doc.name}: {target} (no such heading)")
    assert checked >= 20, f"expected the docs' links, found {checked}"
    assert not problems, "\n".join(problems)


# The history pages keep each command as it was run on its day.
HISTORY = ("changelog.md", "lab-notes.md")


def test_every_python_m_command_of_the_docs_names_a_module() -> None:
    """``python -m MODULE`` in the README and the docs of today names a module of this checkout
    (the project's packages; other tools' modules, such as pip's, are not checked)."""
    problems, checked = [], 0
    for doc in _user_docs():
        if doc.name in HISTORY:
            continue
        for module in PYTHON_M.findall(doc.read_text()):
            if module.split(".")[0] not in PROJECT_PACKAGES:
                continue
            checked += 1
            base = ROOT.joinpath(*module.split("."))
            if not (base.with_suffix(".py").is_file() or (base / "__main__.py").is_file()):
                problems.append(f"{doc.name}: python -m {module}")
    assert checked >= 5, f"expected the docs' commands, found {checked}"
    assert not problems, "\n".join(problems)
