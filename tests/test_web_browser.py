"""The web app in a real browser: headless Chromium (Debian's ``chromium``) driven by Playwright.

Each test clicks as a person would: hexes on the board, the menu of a hex with several decisions,
the buttons of the decisions that have no hex. ``make browser`` installs Chromium; without it the
tests are skipped on a developer's machine and fail under CI (``CI=true``), which must run them.
With ``VIGTAVL_SCREENSHOTS=DIR`` the tests save their screenshots there (``make screenshots``
writes the pictures of docs/img/ this way).
"""

from __future__ import annotations

import os
import random
import shutil
import threading
import time
from pathlib import Path

import pytest
from webgame import path_to

from arena.vigtavl_match import run_match
from webapp.hints import hint_agent_spec

CHROMIUM = os.environ.get("VIGTAVL_CHROMIUM") or shutil.which("chromium") or shutil.which("chromium-browser")
CHROMIUM_ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
                 "--disable-background-networking", "--disable-component-update", "--disable-sync"]
TIMEOUT_MS = 20_000

if not CHROMIUM and not os.environ.get("CI"):
    pytest.skip("Chromium is not installed (make browser installs it)", allow_module_level=True)
sync_api = pytest.importorskip("playwright.sync_api") if not os.environ.get("CI") else __import__(
    "playwright.sync_api", fromlist=["sync_playwright"])


@pytest.fixture(scope="module")
def results_dir(tmp_path_factory):
    folder = tmp_path_factory.mktemp("results")
    run_match(["greedy", "random"], games=3, seed=5, progress=False).save(folder / "match.json")
    return folder


@pytest.fixture(scope="module")
def base_url(results_dir):
    import uvicorn

    from webapp.server import bind, create_app
    sock = bind("127.0.0.1", 0)
    server = uvicorn.Server(uvicorn.Config(create_app(results=[results_dir]), log_level="warning"))
    thread = threading.Thread(target=server.run, kwargs={"sockets": [sock]}, daemon=True)
    thread.start()
    deadline = time.time() + 20
    while not server.started and time.time() < deadline:
        time.sleep(0.05)
    assert server.started, "the server did not start"
    yield f"http://127.0.0.1:{sock.getsockname()[1]}/"
    server.should_exit = True
    thread.join(10)


@pytest.fixture(scope="module")
def browser():
    if not CHROMIUM:
        pytest.fail("CI must run the browser tests, and Chromium is missing: run make browser")
    with sync_api.sync_playwright() as p:
        b = p.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        yield b
        b.close()


@pytest.fixture
def context(browser):
    ctx = browser.new_context(bypass_csp=True, viewport={"width": 1400, "height": 900})
    ctx.add_init_script("localStorage.getItem('vigtavl-speed') || localStorage.setItem('vigtavl-speed', '0')")
    ctx.set_default_timeout(TIMEOUT_MS)
    yield ctx
    ctx.close()


@pytest.fixture
def page(context):
    pg = context.new_page()
    pg.errors = []
    pg.on("pageerror", lambda e: pg.errors.append(str(e)))
    yield pg
    assert not pg.errors, f"the page raised: {pg.errors}"


def shot(page, name: str, tmp_path: Path) -> Path:
    """A screenshot into $VIGTAVL_SCREENSHOTS (the docs' pictures) or the test's tmp folder."""
    folder = Path(os.environ.get("VIGTAVL_SCREENSHOTS") or tmp_path)
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / f"{name}.png"
    page.screenshot(path=str(path))
    assert path.stat().st_size > 10_000
    return path


# ------------------------------------------------------------------ clicking like a person
def start(page, base_url: str, seats: list[str], seed: int, mode: str = "play", tools: tuple[str, ...] = (),
          game: str = "vigtavl") -> None:
    page.goto(f"{base_url}#{mode}")
    page.select_option("#game-name", game)
    page.select_option("#players", str(len(seats)))
    if mode == "play":
        page.select_option("#seat", str(seats.index("human")))
    for i, spec in enumerate(seats):
        if spec != "human":
            page.fill(f"#seat-{i}", spec)
    page.fill("#seed", str(seed))
    for tool in tools:  # "hints", "undo"
        page.check(f"#with-{tool}")
    page.click("#start")
    page.wait_for_selector("body[data-turn]")


def wait_for_person(page) -> None:
    page.wait_for_selector("body[data-turn='you'], body[data-turn='over']")


def decisions(page) -> list[dict]:
    return page.evaluate("vigtavl.liveView().decisions")  # main.js exposes it: a module has no globals


def made(page) -> int:
    return int(page.get_attribute("body", "data-decisions"))


def click_decision(page, action: int) -> None:
    """Make decision ``action`` by clicking: its hex (then the hex's menu when it offers several
    decisions), or its button when it has no hex; waits until the server took it."""
    wait_for_person(page)
    before = made(page)
    d = next(d for d in decisions(page) if d["action"] == action)
    if d["cell"] >= 0:
        click_hex(page, d["cell"])
        if page.locator("#hex-menu").is_visible():
            page.click(f"#hex-menu button[data-action='{action}']")
    else:
        page.click(f"#global-decisions button[data-action='{action}']")
    page.wait_for_function(f"+document.body.dataset.decisions > {before}")


def click_hex(page, cell: int) -> None:
    """A click at the hex's middle, as a person's: on whatever is drawn there (a piece answers
    for its hex), so Playwright is told not to insist that the hex itself is on top."""
    page.click(f"#layer-hexes polygon[data-cell='{cell}']", force=True)


def events(page) -> str:
    """The move list's text: every decision and the events under it."""
    return page.text_content("#moves")


# ------------------------------------------------------------------ play
def test_place_and_build_by_clicking_and_the_bot_answers(page, base_url, tmp_path):
    start(page, base_url, ["human", "greedy"], seed=3)
    wait_for_person(page)
    page.click("#global-decisions button[data-command='load 1']")  # the setup's split of the knights
    page.wait_for_function("+document.body.dataset.decisions >= 2")  # ... and the bot loads his
    wait_for_person(page)
    place = next(d for d in decisions(page) if d["command"].startswith("place caravel"))
    click_hex(page, place["cell"])  # three ships fit: a menu
    assert page.locator("#hex-menu button").count() >= 2
    page.click(f"#hex-menu button[data-action='{place['action']}']")
    q, r = place["command"].split()[-1].split(",")
    page.wait_for_function(f"document.getElementById('moves').textContent.includes('P0 places a caravel at ({q},{r})')")
    page.wait_for_function("document.getElementById('moves').textContent.includes('P1 places')")  # the answer
    assert page.locator("#layer-pieces .unit").count() >= 2
    while page.evaluate("vigtavl.liveView().status.phase") == "placement":
        options = decisions(page)  # a hex, or under v2 a button: which of two unalike freighters
        click_decision(page, next((d for d in options if d["cell"] >= 0), options[0])["action"])
        wait_for_person(page)
    build = next(d for d in decisions(page) if d["kind"].startswith("build") and d["cell"] >= 0)
    click_decision(page, build["action"])
    assert "P0 builds" in events(page)
    assert page.locator("#layer-legal polygon").count() > 0  # the next decisions are highlighted
    shot(page, "web_play", tmp_path)


# the seeds against the aggressor in which the person meets each moment (under rules v2)
MOMENT_SEEDS = {"retaliation": 0, "defend": 1, "prison": 0}


def click_up_to(page, base_url: str, interrupt: str) -> None:
    """A seeded game against the aggressor, clicked up to the person's first ``interrupt``."""
    seats, seed = ["human", "aggressor"], MOMENT_SEEDS[interrupt]
    path = path_to(seats, seed, lambda g: g.interrupt == interrupt)
    assert path is not None
    start(page, base_url, seats, seed=seed)
    for action in path:
        click_decision(page, action)
    wait_for_person(page)


def test_a_retaliation_is_triggered_and_answered_by_clicking(page, base_url, tmp_path):
    click_up_to(page, base_url, "retaliation")
    assert "RETALIATION" in page.text_content("#banner")
    shot(page, "web_retaliation", tmp_path)
    end = page.locator("#global-decisions button[data-command='end turn']")
    assert end.count() == 1 and end.text_content().startswith("end the retaliation (back to P1's turn)")
    end.click()
    page.wait_for_function("!document.getElementById('banner').textContent.includes('RETALIATION')")
    assert "retaliation is over" in events(page)


def test_a_defence_is_asked_out_of_turn_and_answered_on_the_board(page, base_url):
    click_up_to(page, base_url, "defend")
    assert "DEFEND" in page.text_content("#banner")
    assert page.locator("#layer-marks polygon.pending").count() == 1  # the attacked hex
    choose = next(d for d in decisions(page) if d["kind"].startswith("choose"))
    q, r = choose["command"].split()[-1].split(",")
    click_decision(page, choose["action"])
    assert f"P0 chooses his {choose['kind'].split()[1]} at ({q},{r}) to defend" in events(page)


def test_a_whole_game_against_greedy_is_played_to_the_end_by_clicking(page, base_url, tmp_path):
    start(page, base_url, ["human", "greedy"], seed=4)
    rng = random.Random(0)
    while True:
        wait_for_person(page)
        if page.get_attribute("body", "data-turn") == "over":
            break
        options = decisions(page)
        on_board = [d for d in options if d["cell"] >= 0]
        d = rng.choice(on_board if on_board and rng.random() < 0.85 else options)
        click_decision(page, d["action"])
    assert "Game over" in page.text_content("#banner")
    if page.evaluate("vigtavl.liveView().sheet") is None:  # an engine without token_sheet: no sheet
        assert page.is_hidden("#sheet-box")
    else:  # the score sheet opens at the end: a row per source, the totals the players' tokens
        assert page.get_attribute("#sheet-box", "open") is not None and page.locator("#sheet tr[data-source]").count() > 5
    assert page.locator("#download").get_attribute("href").endswith("/record")
    shot(page, "web_game_over", tmp_path)
    page.click("#replay-this")  # the game just played, in the replay view
    page.wait_for_selector("#replay-controls:visible")
    page.click("#last")
    page.wait_for_function("document.getElementById('frame-label').textContent.startsWith('decision ') && "
                           "document.getElementById('banner').textContent.includes('Game over')")


def test_a_game_survives_a_reload_and_tabs_play_separate_games(context, base_url):
    first = context.new_page()
    start(first, base_url, ["human", "greedy"], seed=3)
    wait_for_person(first)
    click_decision(first, decisions(first)[1]["action"])
    wait_for_person(first)
    url, count = first.url, made(first)
    first.reload()
    first.wait_for_selector("body[data-turn='you']")
    assert first.url == url and made(first) == count and "P0 loads" in events(first)
    second = context.new_page()
    start(second, base_url, ["human", "random"], seed=9)
    wait_for_person(second)
    assert second.url != first.url and made(second) == 0
    click_decision(second, decisions(second)[0]["action"])
    first.reload()
    first.wait_for_selector("body[data-turn='you']")
    assert made(first) == count


def test_a_bad_agent_gets_a_message_and_the_page_goes_on(page, base_url):
    page.goto(f"{base_url}#play")
    page.fill("#seat-1", "grid")
    page.click("#start")
    page.wait_for_selector("#message.error")
    assert "bad agent 'grid'" in page.text_content("#message")
    assert page.is_enabled("#start") and page.is_visible("#setup")
    page.goto(f"{base_url}#play/no-such-game")
    page.wait_for_function("document.getElementById('message').textContent.includes('no game')")
    assert page.is_visible("#setup") and page.is_hidden("#game")


# ------------------------------------------------------------------ watch
def test_watch_pauses_steps_and_goes_on(page, base_url, tmp_path):
    start(page, base_url, ["greedy", "aggressor"], seed=2, mode="watch")
    page.select_option("#speed", "150")
    page.wait_for_function("+document.body.dataset.decisions >= 6")
    page.click("#pause")
    time.sleep(0.5)
    paused_at = made(page)
    time.sleep(0.6)
    assert made(page) == paused_at
    page.click("#step")
    page.wait_for_function(f"+document.body.dataset.decisions === {paused_at + 1}")
    time.sleep(0.4)
    assert made(page) == paused_at + 1
    page.click("#pause")  # resume
    page.wait_for_function(f"+document.body.dataset.decisions > {paused_at + 3}")
    page.select_option("#speed", "0")
    page.wait_for_function("+document.body.dataset.decisions >= 120")  # the game (v2) lasts 154 decisions
    page.click("#pause")
    shot(page, "web_watch", tmp_path)


# ------------------------------------------------------------------ replay
def test_a_results_file_is_opened_and_stepped_through(page, base_url, tmp_path):
    page.goto(f"{base_url}#replay")
    page.wait_for_selector("#folder-files:not([hidden])")
    page.click("#open-file")
    page.wait_for_selector("#games-table tbody tr")
    assert page.locator("#games-table tbody tr").count() == 3
    page.click("#games-table tbody tr[data-game='1']")
    page.wait_for_selector("#replay-controls:visible")
    page.wait_for_function("document.getElementById('frame-label').textContent.startsWith('decision 0 /')")
    total = int(page.text_content("#frame-label").split("/")[1])
    for _ in range(3):
        page.click("#forward")
    page.wait_for_function("document.getElementById('frame-label').textContent.startsWith('decision 3 /')")
    assert page.locator("#moves > li.shown").count() == 1
    page.click("#back")
    page.wait_for_function("document.getElementById('frame-label').textContent.startsWith('decision 2 /')")
    turns = page.locator("#turn option").all()
    assert len(turns) > 2
    target = turns[2].get_attribute("value")
    page.select_option("#turn", target)
    page.wait_for_function(f"document.getElementById('frame-label').textContent.startsWith('decision {target} /')")
    shot(page, "web_replay", tmp_path)
    page.keyboard.press("ArrowRight")
    page.wait_for_function(f"document.getElementById('frame-label').textContent.startsWith('decision {int(target) + 1} /')")
    page.click("#last")
    page.wait_for_function(f"document.getElementById('frame-label').textContent === 'decision {total} / {total}'")
    page.reload()  # the frame is in the address: a reload shows it again
    page.wait_for_function(f"document.getElementById('frame-label').textContent === 'decision {total} / {total}'")


def test_an_uploaded_file_replays_and_a_malformed_one_is_refused(page, base_url, results_dir, tmp_path):
    page.goto(f"{base_url}#replay")
    page.set_input_files("#upload", str(results_dir / "match.json"))
    page.wait_for_selector("#games-table tbody tr")
    assert "match.json" in page.text_content("#games-title")
    bad = tmp_path / "bad.json"
    bad.write_text("{this is not json")
    page.set_input_files("#upload", str(bad))
    page.wait_for_selector("#message.error")
    assert "bad.json is not a JSON file" in page.text_content("#message")


# ------------------------------------------------------------------ reading the board
def watched(page, base_url: str, decisions: int = 60) -> None:
    """A watched game (greedy against aggressor, seed 2), paused after ``decisions`` decisions."""
    start(page, base_url, ["greedy", "aggressor"], seed=2, mode="watch")
    page.wait_for_function(f"+document.body.dataset.decisions >= {decisions}")
    page.click("#pause")
    page.wait_for_timeout(300)


def test_pieces_have_pictures_a_legend_and_tooltips(page, base_url):
    watched(page, base_url)
    legend = page.locator("#legend .legend-item[data-piece]")
    names = [legend.nth(i).get_attribute("data-piece") for i in range(legend.count())]
    assert names == ["soldier", "archer", "cavalry", "caravel", "freighter", "galleon", "camp", "fort", "castle",
                     "artillery", "prisoner"]
    assert page.is_visible("#legend")
    units = page.locator("#layer-pieces .piece.unit")
    assert units.count() > 5 and page.locator("#layer-pieces .piece.unit path.glyph").count() == units.count()
    assert page.locator("#layer-pieces text").count() == 0  # no more letters
    freighter = page.locator("#layer-pieces .piece[data-piece='freighter'] title").first.text_content()
    assert freighter.startswith(("P0 (greedy): freighter", "P1 (aggressor): freighter"))
    assert ("aboard: " in freighter) or freighter.endswith("empty")
    piece = page.locator("#layer-pieces .piece.unit").first
    piece.hover(force=True)  # pieces take the pointer now: the hover line tells what is there
    words = piece.locator("title").text_content()
    page.wait_for_function("document.getElementById('hover-info').textContent.includes(%r)" % words)
    assert ("spent" in words) != ("upright" in words)
    page.click("#step")  # the board changes: the hover line no longer describes it
    page.wait_for_function("document.getElementById('hover-info').textContent.startsWith('hover a hex')")


@pytest.mark.parametrize("width,height", [(1280, 720), (420, 860)])
def test_the_layout_fits_a_laptop_and_a_narrow_screen(browser, base_url, width, height, tmp_path):
    ctx = browser.new_context(bypass_csp=True, viewport={"width": width, "height": height})
    ctx.add_init_script("localStorage.setItem('vigtavl-speed', '0')")
    page = ctx.new_page()
    try:
        watched(page, base_url, decisions=20)
        board, panel = page.locator("#board").bounding_box(), page.locator("#panel").bounding_box()
        assert page.evaluate("document.documentElement.scrollWidth") <= width  # no sideways scrolling
        assert board["x"] >= 0 and board["x"] + board["width"] <= width and board["width"] > 0.5 * min(width, 700)
        if width >= 1000:  # side by side, the board whole on the screen
            assert panel["x"] >= board["x"] + board["width"] and board["y"] + board["height"] <= height
        else:  # the panel under the board
            assert panel["y"] >= board["y"] + board["height"] - 1 and panel["width"] > 0.9 * (width - 40)
        shot(page, f"web_layout_{width}", tmp_path)
    finally:
        ctx.close()


def test_the_play_forms_seed_is_not_carried_into_watch(page, base_url):
    page.goto(f"{base_url}#play")
    page.fill("#seed", "2024")
    page.click("#tab-watch")
    page.wait_for_function("document.getElementById('setup-title').textContent.startsWith('Watch')")
    assert page.input_value("#seed") == ""


# ------------------------------------------------------------------ battles and the move list
def battle_frame(page) -> tuple[int, dict]:
    """The first frame of the replay shown whose decision fought a battle, and that decision."""
    return page.evaluate("""async () => {
        const [, file, game] = location.hash.split('/');
        const summary = await (await fetch(`/api/replays/${file}/games/${game}`)).json();
        const move = summary.moves.find((m) => m.battles.length && m.outcomes.length);
        return [move.n, move];
    }""")


def show_battle_frame(page, base_url: str) -> int:
    """Open the results file's replay and step to its first battle's frame; its number."""
    open_replay(page, base_url)
    n, _ = battle_frame(page)
    page.click(f"#moves > li[data-n='{n}'] .move-text")
    page.wait_for_function(f"document.getElementById('frame-label').textContent.startsWith('decision {n} /')")
    return n


def open_replay(page, base_url: str, game: int = 1) -> None:
    page.goto(f"{base_url}#replay")
    page.wait_for_selector("#folder-files:not([hidden])")
    page.click("#open-file")
    page.wait_for_selector(f"#games-table tbody tr[data-game='{game}']")
    page.click(f"#games-table tbody tr[data-game='{game}']")
    page.wait_for_function("document.getElementById('frame-label').textContent.startsWith('decision 0 /')")


def test_a_battle_shows_its_dice_its_why_and_its_outcome_on_the_board(page, base_url, tmp_path):
    open_replay(page, base_url)
    n, move = battle_frame(page)
    page.click(f"#moves > li[data-n='{n}'] .move-text")  # the move list jumps to the decision
    page.wait_for_function(f"document.getElementById('frame-label').textContent.startsWith('decision {n} /')")
    battle = move["battles"][0]
    box = page.locator("#battles .battle").first
    assert page.is_visible("#battles-section")
    assert box.locator(".why").text_content() == f"Why: {battle['why']}"
    rounds = battle["rounds"]
    dice = sum(len(r["attack"]) + len(r["defend"]) for r in rounds)
    assert box.locator(".die").count() == dice
    assert box.locator(".die.tactics").count() == battle["attacker"]["tactics"] * len(rounds)
    assert ("wins" if battle["won"] else "loses") in box.locator(".battle-head").text_content()
    words = [page.locator("#layer-outcomes .outcome text").nth(i).text_content()
             for i in range(page.locator("#layer-outcomes .outcome").count())]
    assert words == [o["what"] for o in move["outcomes"]]
    assert page.locator("#layer-outcomes .battle-ring").count() == len(move["battles"])
    assert page.locator("#moves > li.shown").get_attribute("data-n") == str(n)
    shot(page, "web_battle", tmp_path)
    page.click("#forward")  # the next decision: its own battles, or none
    page.wait_for_function(f"document.getElementById('frame-label').textContent.startsWith('decision {n + 1} /')")
    assert page.locator("#moves > li.shown").get_attribute("data-n") == str(n + 1)


def test_the_games_table_sorts_by_length_winner_tokens_and_seed(page, base_url):
    page.goto(f"{base_url}#replay")
    page.wait_for_selector("#folder-files:not([hidden])")
    page.click("#open-file")
    page.wait_for_selector("#games-table tbody tr")

    def column(k: int) -> list[str]:
        return page.eval_on_selector_all(f"#games-table tbody tr td:nth-child({k})", "cells => cells.map(c => c.textContent)")
    for key, k in (("decisions", 5), ("seed", 6), ("tokens", 3), ("winners", 4)):
        page.click(f"#games-table th[data-sort='{key}']")
        first = column(k)
        page.click(f"#games-table th[data-sort='{key}']")
        assert column(k) == first[::-1] or len(set(first)) < len(first)
        if key in ("decisions", "seed"):
            assert [int(x) for x in first] == sorted(int(x) for x in first)
            assert page.get_attribute(f"#games-table th[data-sort='{key}']", "data-order") == "descending"


def test_a_live_games_move_list_shows_a_decision_when_clicked(page, base_url):
    watched(page, base_url, decisions=30)
    now = page.locator("#layer-pieces .piece").count()
    page.click("#moves > li[data-n='3'] .move-text")
    assert page.is_visible("#picked") and "showing the board after decision 3" in page.text_content("#picked")
    place = page.text_content("#moves > li[data-n='3'] .move-text")  # a placement: one hex, dashed
    page.wait_for_function("document.querySelectorAll('#layer-pieces .piece').length <= 2")  # the board then
    assert "place" in place and page.locator("#layer-marks polygon.last").count() == 1 and now > 4
    assert page.locator("#moves > li.shown").get_attribute("data-n") == "3"
    page.click("#back-to-now")
    assert page.is_hidden("#picked") and page.locator("#moves > li.shown").count() == 0
    page.wait_for_function(f"document.querySelectorAll('#layer-pieces .piece').length === {now}")


# ------------------------------------------------------------------ hints and undo
def test_a_hint_shows_the_strongest_agents_choices_on_the_board_and_one_is_clicked(page, base_url, tmp_path):
    start(page, base_url, ["human", "greedy"], seed=3, tools=("hints",))
    wait_for_person(page)
    page.click("#global-decisions button[data-command='load 1']")
    page.wait_for_function("+document.body.dataset.decisions >= 2")
    wait_for_person(page)
    assert page.is_visible("#hint-button") and page.is_hidden("#undo-button")
    page.click("#hint-button")
    page.wait_for_selector("#hint:not([hidden]) button.hint-choice")
    assert f"{hint_agent_spec(2)} would choose:" in page.text_content("#hint")
    assert "% of a win" in page.text_content("#hint") and page.locator("#hint .eval-bar span").count() == 1
    marks = page.locator("#layer-hints .hint-mark")
    assert 1 <= marks.count() <= 3 and marks.first.locator("text").text_content().endswith("%")
    legal = {d["cell"] for d in decisions(page)}
    assert all(int(marks.nth(i).get_attribute("data-cell")) in legal for i in range(marks.count()))
    shot(page, "web_hint", tmp_path)
    before = made(page)
    page.click("#hint button.hint-choice >> nth=0")  # the agent's choice, made with a click
    page.wait_for_function(f"+document.body.dataset.decisions > {before}")
    assert page.locator("#layer-hints .hint-mark").count() == 0  # a hint is for its position only
    assert page.is_hidden("#hint")


def test_hints_and_undo_are_off_unless_chosen(page, base_url):
    start(page, base_url, ["human", "greedy"], seed=3)
    wait_for_person(page)
    assert page.is_hidden("#hint-button") and page.is_hidden("#undo-button")
    page.click("#tab-watch")
    page.wait_for_selector("#setup:visible")
    assert page.is_hidden("#tools-choice")


def test_undo_takes_back_the_persons_decision_and_the_agents_answer(page, base_url):
    start(page, base_url, ["human", "greedy"], seed=3, tools=("undo",))
    wait_for_person(page)
    click_decision(page, decisions(page)[0]["action"])  # load 1, and the bot's load
    wait_for_person(page)
    place = next(d for d in decisions(page) if d["cell"] >= 0)
    click_decision(page, place["action"])
    wait_for_person(page)
    count = made(page)
    assert count >= 4 and page.locator("#moves > li").count() == count + 1
    page.click("#undo-button")
    page.wait_for_function(f"+document.body.dataset.decisions === {2}")
    wait_for_person(page)
    assert page.locator("#moves > li").count() == 3  # the setup and the two loads
    assert [d["action"] for d in decisions(page)].count(place["action"]) == 1  # the placement is offered again
    click_decision(page, place["action"])
    page.wait_for_function(f"+document.body.dataset.decisions >= {count}")


# ------------------------------------------------------------------ rules v2's questions, analysis in replays
def test_v2s_choices_read_as_what_they_pick_and_the_prison_is_a_hex_clicked_under_its_banner(page, base_url):
    seats = ["human", "aggressor"]
    path = path_to(seats, 0, lambda g: g.view()["status"]["asked_kind"] == "prison")
    assert path is not None
    start(page, base_url, seats, seed=0)
    variants = 0
    for action in path:
        wait_for_person(page)
        d = next(d for d in decisions(page) if d["action"] == action)
        if d["kind"] == "choose variant":  # which of two unalike units: a button naming the unit
            variants += 1
            assert "WHICH UNIT" in page.text_content("#banner")
            button = page.locator(f"#global-decisions button[data-action='{action}']")
            assert button.text_content() == d["label"] and d["label"].startswith("the ") and "variant" not in d["label"]
        click_decision(page, action)
    wait_for_person(page)
    assert variants >= 1
    banner = page.text_content("#banner")
    assert banner.startswith("PRISON: P0 chooses which of his developments holds") and "click" in banner
    options = decisions(page)
    assert options and all(d["kind"] == "hold prisoner" and d["cell"] >= 0 for d in options)
    assert page.locator("#layer-legal polygon").count() == len(options)
    click_decision(page, options[0]["action"])  # a click on the hex: no menu, one decision there
    wait_for_person(page)
    assert f"hold prisoner at ({options[0]['command'].split()[-1].replace(',', ', ')})" in events(page)


def test_a_replay_frame_is_analysed_on_asking_and_the_analysis_goes_with_the_frame(page, base_url, tmp_path):
    open_replay(page, base_url)
    page.click("#forward")
    page.wait_for_function("document.getElementById('frame-label').textContent.startsWith('decision 1 /')")
    assert page.is_visible("#analyse-button") and page.is_hidden("#hint")
    page.click("#analyse-button")
    page.wait_for_selector("#hint:not([hidden]) .hint-choice")
    text = page.text_content("#hint")
    assert text.startswith(f"{hint_agent_spec(2)} would choose for P") and "% of a win" in text
    assert page.locator("#hint .eval-bar span").count() == 1 and page.locator("#hint button").count() == 0
    shot(page, "web_analysis", tmp_path)
    page.click("#forward")  # another frame: the analysis was for the one before
    page.wait_for_function("document.getElementById('frame-label').textContent.startsWith('decision 2 /')")
    assert page.is_hidden("#hint") and page.locator("#layer-hints .hint-mark").count() == 0
    page.click("#last")  # the game is over there: nothing to analyse
    page.wait_for_function("document.getElementById('banner').textContent.includes('Game over')")
    assert page.is_hidden("#analyse-button")


# ------------------------------------------------------------------ nothing in a player's way (issue 61)
def rgb(hex_colour: str) -> str:
    """"#183ac4" as the browser computes a colour: "rgb(24, 58, 196)"."""
    r, g, b = (int(hex_colour[i:i + 2], 16) for i in (1, 3, 5))
    return f"rgb({r}, {g}, {b})"


def test_outcome_labels_let_clicks_through_and_a_reopened_game_shows_one_decisions(page, base_url):
    seats, seed = ["human", "aggressor"], 0
    path = path_to(seats, seed, lambda g: sum(1 for m in g.moves if m["outcomes"]) >= 2)
    start(page, base_url, seats, seed=seed)
    for action in path:
        click_decision(page, action)
    wait_for_person(page)
    page.reload()  # reopened: the move list from the start, the board with the last outcomes only
    wait_for_person(page)
    moves = page.evaluate("vigtavl.liveView().moves")
    last = next(m for m in reversed(moves) if m["outcomes"])
    assert page.locator("#layer-outcomes .outcome text").all_text_contents() == [o["what"] for o in last["outcomes"]]
    box = page.locator("#layer-outcomes .outcome rect").first.bounding_box()
    under = page.evaluate("([x, y]) => document.elementFromPoint(x, y).closest('#layer-hexes, #layer-pieces') !== null",
                          [box["x"] + box["width"] / 2, box["y"] + box["height"] / 2])
    assert under, "the label took the click meant for its hex"


def test_a_prisoner_is_rimmed_in_its_owners_colour_and_the_front_is_drawn(page, base_url):
    open_replay(page, base_url)
    page.click("#last")
    page.wait_for_function("document.getElementById('banner').textContent.includes('Game over')")
    prisoner = page.locator("#layer-pieces .piece.prisoner").first
    owner = int(prisoner.get_attribute("data-owner"))
    colours = page.evaluate("""async () => {
        const [, file, game] = location.hash.split('/');
        return (await (await fetch(`/api/replays/${file}/games/${game}`)).json()).board.player_colours;
    }""")
    stroke = prisoner.locator("rect").evaluate("rect => getComputedStyle(rect).stroke")
    assert stroke == rgb(colours[owner])
    n, move = battle_frame(page)
    page.click(f"#moves > li[data-n='{n}'] .move-text")
    page.wait_for_function(f"document.getElementById('frame-label').textContent.startsWith('decision {n} /')")
    assert page.locator("#layer-fronts line.front").count() >= 1  # the attacked hex's front, this turn
    assert "flank +" in page.text_content("#battles") or "flank" not in page.text_content("#battles")


def test_at_420_pixels_a_hex_menu_by_the_right_edge_stays_on_the_page(browser, base_url):
    ctx = browser.new_context(bypass_csp=True, viewport={"width": 420, "height": 860})
    ctx.add_init_script("localStorage.setItem('vigtavl-speed', '0')")
    page = ctx.new_page()
    try:
        start(page, base_url, ["human", "greedy"], seed=3)
        wait_for_person(page)
        page.click("#global-decisions button[data-command='load 1']")
        page.wait_for_function("+document.body.dataset.decisions >= 2")
        wait_for_person(page)
        cells = [d["cell"] for d in decisions(page) if d["cell"] >= 0]
        menus = [c for c in set(cells) if cells.count(c) > 1]  # hexes that open a menu
        right = max(menus, key=lambda c: page.locator(f"#layer-hexes polygon[data-cell='{c}']").bounding_box()["x"])
        click_hex(page, right)
        menu = page.locator("#hex-menu").bounding_box()
        assert page.is_visible("#hex-menu") and menu["x"] >= 0 and menu["x"] + menu["width"] <= 420
        assert page.evaluate("document.documentElement.scrollWidth") <= 420
        page.click("#hex-menu button >> nth=0")  # a ship placed there
        wait_for_person(page)
        page.wait_for_selector("#layer-pieces .piece.unit circle")  # the board drawn anew (a race under load)
        width = page.evaluate("document.querySelector('#layer-pieces .piece.unit circle').getBoundingClientRect().width")
        assert width >= 13  # a piece an eye and a finger can find (9 pixels across before)
    finally:
        ctx.close()


def test_at_720_pixels_the_battle_box_and_the_banner_are_in_view(browser, base_url):
    ctx = browser.new_context(bypass_csp=True, viewport={"width": 1280, "height": 720})
    page = ctx.new_page()
    try:
        show_battle_frame(page, base_url)
        page.evaluate("window.scrollTo(0, 0)")
        battle = page.locator("#battles .battle").first.bounding_box()
        assert battle["y"] + 40 <= 720  # its head and first row of dice above the fold
        page.click("#last")
        page.wait_for_function("document.getElementById('banner').textContent.includes('Game over')")
        page.evaluate("window.scrollTo(0, document.body.scrollHeight)")
        banner = page.locator("#banner").bounding_box()
        assert 0 <= banner["y"] and banner["y"] + banner["height"] <= 720  # it follows the page down
    finally:
        ctx.close()


def test_the_app_runs_under_its_own_content_security_policy(browser, base_url):
    """The other tests bypass the CSP (Playwright's string waits are evaluated in the page);
    this one keeps it: a game starts and the person is asked, by clicking alone, with no
    violation reported."""
    ctx = browser.new_context(viewport={"width": 1280, "height": 720})
    ctx.set_default_timeout(TIMEOUT_MS)
    page = ctx.new_page()
    errors, violations = [], []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.on("console", lambda m: violations.append(m.text) if "Content Security Policy" in m.text else None)
    try:
        response = page.goto(f"{base_url}#play")
        assert "default-src 'self'" in response.headers["content-security-policy"]
        page.select_option("#players", "2")
        page.select_option("#seat", "0")
        page.fill("#seat-1", "greedy")
        page.fill("#seed", "3")
        page.click("#start")
        wait_for_person(page)
        assert page.locator("#global-decisions button").count() > 0
    finally:
        ctx.close()
    assert not errors and not violations, errors + violations
