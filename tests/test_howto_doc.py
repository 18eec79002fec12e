"""docs/how-to-play.md against the rules table, its pictures and the engine.

- Every rules.md row the page links to exists, in the table its link points at.
- Every section of the page links to its rows (the last, "Where to go next", aside).
- Every picture it shows exists and is small; the worked example's pictures are exactly the ones
  docs/howto_example.py draws, one per step.
- The worked example still plays: its decisions are legal in a real seeded game, and the dice
  and results the page quotes are the engine's.
- It speaks the web app's words: the picture key describes the pictograms as glyphs.js draws
  them, every banner a question raises is explained, the score sheet's rows are named, the turn
  count is the status line's, and it names no document the repository does not hold.
"""

from __future__ import annotations

import importlib.util
import re
from pathlib import Path

import pytest
from PIL import Image

ROOT = Path(__file__).resolve().parent.parent
PAGE = ROOT / "docs" / "how-to-play.md"
RULES = ROOT / "docs" / "rules.md"
MAX_PICTURE_BYTES = 150_000
ROW_LINK = re.compile(r"\[([A-Z]{1,2}\d+)(?:-([A-Z]{1,2}\d+))?\]\(rules\.md#([a-z0-9-]+)\)")


def _anchor(heading: str) -> str:
    """GitHub's anchor of a markdown heading."""
    return re.sub(r"[^a-z0-9 -]", "", heading.lower()).strip().replace(" ", "-")


def rule_sections(text: str) -> dict[str, set[str]]:
    """Each ``## `` section's anchor of rules.md -> the row ids of its tables."""
    sections: dict[str, set[str]] = {}
    current = None
    for line in text.splitlines():
        if line.startswith("## "):
            current = sections.setdefault(_anchor(line[3:]), set())
        elif current is not None:
            m = re.match(r"\|\s*([A-Z]{1,2}\d+)\s*\|", line)
            if m:
                current.add(m.group(1))
    return sections


def linked_rows(page: str) -> list[tuple[str, str, str]]:
    """(first id, last id, anchor) of every row link; a single id has first == last."""
    return [(a, b or a, anchor) for a, b, anchor in ROW_LINK.findall(page)]


def row_problems(page: str, rules: str) -> list[str]:
    """What is wrong with the page's row links: ids missing, or in another table."""
    sections = rule_sections(rules)
    problems = []
    for first, last, anchor in linked_rows(page):
        rows = sections.get(anchor)
        if rows is None:
            problems.append(f"rules.md#{anchor}: no such section")
            continue
        for rid in {first, last}:
            if rid not in rows:
                problems.append(f"{rid} is not a row of rules.md#{anchor}")
        if re.sub(r"\d", "", first) != re.sub(r"\d", "", last):
            problems.append(f"{first}-{last} mixes two kinds of rows")
        elif first != last and _number(first) >= _number(last):
            problems.append(f"{first}-{last} is not a rising range")
    return problems


def _number(rid: str) -> int:
    return int(re.sub(r"\D", "", rid))


def _example():
    path = ROOT / "docs" / "howto_example.py"
    spec = importlib.util.spec_from_file_location("howto_example", path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


@pytest.fixture(scope="module")
def example():
    return _example()


@pytest.fixture(scope="module")
def played(example, tmp_path_factory):
    out = tmp_path_factory.mktemp("howto")
    state, events = example.play(out_dir=out)
    return state, events, out


# ---------------------------------------------------------------------- links
def test_every_linked_row_exists_in_its_table() -> None:
    page = PAGE.read_text()
    assert len(linked_rows(page)) >= 40
    assert row_problems(page, RULES.read_text()) == []


def test_row_check_catches_a_missing_row_and_a_wrong_table() -> None:
    rules = RULES.read_text()
    assert row_problems("[U99](rules.md#units)", rules) == ["U99 is not a row of rules.md#units"]
    assert row_problems("[U22](rules.md#tactics)", rules) == ["U22 is not a row of rules.md#tactics"]
    assert row_problems("[T1-T9](rules.md#tactics)", rules) == ["T9 is not a row of rules.md#tactics"]
    assert row_problems("[O1](rules.md#nowhere)", rules) == ["rules.md#nowhere: no such section"]
    assert row_problems("[T3-T1](rules.md#tactics)", rules) == ["T3-T1 is not a rising range"]


def test_every_section_links_to_its_rows() -> None:
    sections = re.split(r"^## ", PAGE.read_text(), flags=re.M)[1:]
    titles = [s.splitlines()[0] for s in sections]
    assert "Where to go next" in titles
    for title, body in zip(titles, sections):
        if title in ("Where to go next", "The game in one minute"):
            continue
        assert linked_rows(body), f"section {title!r} links to no row of rules.md"


def test_every_term_the_issue_names_is_explained() -> None:
    page = PAGE.read_text()
    for words in ("**knights**", "**A hex you hold**", "**gets off**", "**A hit defeats the target",
                  "**Discharge and recruit", "Why do it", "**What prisoners are for.**",
                  "**four turns with gold and silver**"):
        assert words in page, words


# ---------------------------------------------------------------------- pictures
def test_pictures_exist_and_are_small() -> None:
    pictures = re.findall(r"\]\((img/[^)]+)\)", PAGE.read_text())
    assert pictures
    for picture in pictures:
        path = ROOT / "docs" / picture
        assert path.is_file(), picture
        assert path.stat().st_size < MAX_PICTURE_BYTES, picture


def test_example_pictures_are_the_scripts(example, played) -> None:
    """One picture per step of the turn, in order, each drawn again at the committed size."""
    _, _, out = played
    wanted = [f"img/howto_{k}_{name}.png" for k, (name, _, _) in enumerate(example.TURN, 1)]
    shown = [p for p in re.findall(r"\]\((img/howto_[^)]+)\)", PAGE.read_text())]
    assert shown == wanted
    for picture in wanted:
        drawn = out / Path(picture).name
        assert drawn.stat().st_size < MAX_PICTURE_BYTES
        with Image.open(drawn) as new, Image.open(ROOT / "docs" / picture) as committed:
            assert new.size == committed.size, picture


# ---------------------------------------------------------------------- the worked example
def test_example_decisions_are_legal_and_checked(example) -> None:
    from vigtavl_env.engine import load_map, new_game

    state = new_game(load_map(example.MAP), seed=example.SEED)
    example.apply_decisions(state, example.PRELUDE[:2])
    with pytest.raises(ValueError, match="decision 2 .*not legal"):
        example.apply_decisions(state, [("place freighter", (0, 3))], first=2)  # a land hex


def test_example_battles_are_the_pages(played) -> None:
    state, events, _ = played
    page = PAGE.read_text()
    fought = {step: [e for e in evs if e["event"] == "battle"] for step, evs in events.items()}
    assert {s: [e["won"] for e in b] for s, b in fought.items() if b} == {
        "shoot": [True], "retaliation": [False], "storm": [True], "rear": [False]}
    shot = fought["shoot"][0]
    assert shot["ranged"] == 2 and shot["dice"] == 2
    assert "rolls " + ", ".join(map(str, shot["rolls"])) + ", a hit" in page
    for step in ("retaliation", "storm", "rear"):
        battle = fought[step][0]
        attack, defence = battle["rolls"][-1]
        said = ", ".join(map(str, attack)) + " against " + ", ".join(map(str, defence))
        assert said in page, (step, said)
    assert fought["storm"][0]["dice"] == 4 and fought["rear"][0]["dice"] == 4  # flank, rear
    assert list(state.tokens) == [6, 0] and "Red leads 6 tokens to 0" in page
    board = state.gmap.board
    assert [e["prison"] for evs in events.values() for e in evs if e["event"] == "captured"] \
        == [board.index[(-2, 3)]] * 2
    assert [e["cell"] for e in events["storm"] if e["event"] == "seized"] == [board.index[(0, 3)]]


# ---------------------------------------------------------------------- the web app's words
def key_rows(page: str) -> dict[str, str]:
    """The picture key's rows: piece -> its "in the web app" cell."""
    rows = {}
    for line in page.splitlines():
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        if line.startswith("|") and len(cells) == 7:
            rows[cells[0]] = cells[1]
    return rows


def test_the_picture_key_names_the_pictograms_the_web_app_draws() -> None:
    glyphs = (ROOT / "webapp" / "static" / "glyphs.js").read_text()
    body = glyphs[glyphs.index("const GLYPHS"):glyphs.index("};")]
    names = re.findall(r"^\s+(\w+): \"", body, re.M)
    drawn = dict(re.findall(r"^\s+(\w+): \"[^\"]*\",\s*// (.+)$", body, re.M))
    assert set(drawn) == set(names), "every drawing says what it shows"
    rows = key_rows(PAGE.read_text())
    for name, words in drawn.items():
        assert words.strip() in rows[name], (name, words)


def test_every_question_and_score_sheet_row_is_explained_in_the_apps_words() -> None:
    from vigtavl_env.web_view import CHOICE_WORDS, INTERRUPT_WORDS
    from vigtavl_env.engine.tokens import TOKEN_SOURCES
    page = PAGE.read_text()
    for words in [w for w, _ in CHOICE_WORDS.values()] + list(INTERRUPT_WORDS.values()):
        assert f"**{words}**" in page or f"**{words.split(' (')[0]}**" in page, words
    for source in TOKEN_SOURCES:
        assert f"**{source}**" in page, source
    assert "the document" not in page.lower() and "**flank +1**" in page and "rear flank" not in page


def test_the_turn_count_is_the_status_lines(example) -> None:
    from vigtavl_env.web_view import turn_words
    from vigtavl_env.engine import load_map, new_game
    state = new_game(load_map(example.MAP), seed=example.SEED)
    example.apply_decisions(state, example.PRELUDE)
    said = turn_words(state)
    assert said == "battle phase · round 1/2 · turn 5/8" and f'"{said}"' in PAGE.read_text()
