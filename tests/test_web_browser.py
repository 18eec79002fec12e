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

from agents.match import run_match

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

    from agents.web.server import bind, create_app
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
    ctx = browser.new_context(viewport={"width": 1400, "height": 900})
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
def start(page, base_url: str, seats: list[str], seed: int, mode: str = "play") -> None:
    page.goto(f"{base_url}#{mode}")
    page.select_option("#players", str(len(seats)))
    if mode == "play":
        page.select_option("#seat", str(seats.index("human")))
    for i, spec in enumerate(seats):
        if spec != "human":
            page.fill(f"#seat-{i}", spec)
    page.fill("#seed", str(seed))
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
        click_decision(page, next(d for d in decisions(page) if d["cell"] >= 0)["action"])
        wait_for_person(page)
    build = next(d for d in decisions(page) if d["kind"].startswith("build") and d["cell"] >= 0)
    click_decision(page, build["action"])
    assert "P0 builds" in events(page)
    assert page.locator("#layer-legal polygon").count() > 0  # the next decisions are highlighted
    shot(page, "web_play", tmp_path)


def click_up_to(page, base_url: str, interrupt: str) -> None:
    """Seed 0 against the aggressor, clicked up to the person's first ``interrupt``."""
    seats = ["human", "aggressor"]
    path = path_to(seats, 0, lambda g: g.interrupt == interrupt)
    assert path is not None
    start(page, base_url, seats, seed=0)
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
    page.wait_for_function("+document.body.dataset.decisions >= 160")
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
