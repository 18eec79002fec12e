"""Thrones in the web app, in a real browser (headless Chromium driven by Playwright), as
tests/test_web_browser.py does for Vigtavl (its server, browser and page fixtures; skipped where
Chromium is missing, required under CI): the setup laid out by clicking the board, the opponent's
half unknown until the reveal, a move played by clicking, a bot game watched with its coins, and
a finished game replayed. With ``VIGTAVL_SCREENSHOTS=DIR`` the pictures go there (docs/img/).
"""

from __future__ import annotations

import json
import urllib.request

from test_web_browser import base_url, browser, context, page, results_dir, shot  # noqa: F401
from test_web_browser import start as start_game

from games import load_game

HOME_CELLS = 36  # a 9x9 board's home: 4 rows of 9


def start(page, base_url: str, seats: list[str], seed: int, mode: str = "play") -> None:
    start_game(page, base_url, seats, seed, mode, game="thrones")
    page.wait_for_selector("#any-game:not([hidden]) #thrones-board")


def view(page) -> dict:
    return page.evaluate("vigtavl.anyView()")  # main.js exposes it: a module has no globals


def wait_for_person(page) -> dict:
    page.wait_for_selector("body[data-turn='you'], body[data-turn='over']")
    return view(page)


def click(page, decision: dict) -> None:
    """A decision taken as a person would: its cell on the board (and its line in the cell's menu
    when the cell offers several), or its button in the panel."""
    made = view(page)["decisions_made"]
    cell = decision["text"].split()[-1]
    if page.locator(f"[data-cell='{cell}'].clickable").count():
        page.click(f"[data-cell='{cell}']")
        if page.is_visible("#any-menu"):
            page.click(f"#any-menu button[data-action='{decision['action']}']")
    else:
        page.click(f"#any-decisions button[data-action='{decision['action']}']")
    page.wait_for_function(f"vigtavl.anyView().decisions_made > {made}")


def lay_setup(page, tmp_path) -> None:
    """The person's whole setup, by clicking: the first legal choice each time."""
    shot_taken = False
    while (v := wait_for_person(page))["view"]["phase"] == "setup" and v["decisions"]:
        if not shot_taken and all(d["text"].startswith("piece ") for d in v["decisions"][:1]):
            shot(page, "web_thrones_setup", tmp_path)  # the tiles laid, the pieces to place
            shot_taken = True
        click(page, v["decisions"][0])


def test_the_setup_is_laid_by_clicking_and_a_piece_is_moved(page, base_url, tmp_path):
    start(page, base_url, ["human", "random"], seed=5)
    first = wait_for_person(page)
    assert first["view"]["phase"] == "setup" and page.locator(".cell.clickable").count() == 1  # one home tile asked
    assert page.locator("#any-decisions > button").count() == len(first["decisions"])  # its types, as buttons too
    lay_setup(page, tmp_path)
    v = wait_for_person(page)
    assert v["view"]["revealed"] and v["view"]["setup_steps"][0] == v["view"]["setup_steps"][1]
    assert page.locator("[data-tile='unknown']").count() == 0
    assert page.locator("[data-piece$=' 0']").count() >= 13 and page.locator("[data-piece$=' 1']").count() >= 13
    # a move: select a piece that can step, then the cell it steps to
    for d in [d for d in v["decisions"] if d["text"].startswith("select ")]:
        click(page, d)
        moves = [m for m in wait_for_person(page)["decisions"] if m["text"].startswith("move ")]
        if moves:
            break
    assert moves, "no piece of the person could move"
    target = moves[0]["text"].split()[-1]
    click(page, moves[0])
    page.wait_for_selector(f"[data-cell='{target}'][data-piece$=' 0']")
    assert page.locator("#any-moves li", has_text=f"P0 (human): move {target}").count() == 1


def test_the_opponents_half_is_unknown_until_the_reveal(page, base_url):
    start(page, base_url, ["random", "human"], seed=3)  # the opponent lays its setup first
    v = wait_for_person(page)
    assert v["view"]["setup_steps"][0] > 0 and not v["view"]["revealed"]
    assert page.locator("[data-tile='unknown']").count() == HOME_CELLS
    assert page.locator("[data-piece$=' 0']").count() == 0  # not one of its pieces is drawn
    assert page.locator("#any-moves li", has_text="P0 (random): decided (hidden from this seat)").count() == \
        v["view"]["setup_steps"][0]
    # the person's home at the bottom: seat 1 sees the board turned, its back row (row 9) lowest
    assert page.locator("[data-cell='e9']").bounding_box()["y"] > page.locator("[data-cell='e1']").bounding_box()["y"]


def test_a_bot_game_is_watched_and_its_coins_are_shown(page, base_url, tmp_path):
    start(page, base_url, ["random", "random"], seed=7, mode="watch")
    page.wait_for_selector("#any-coins [data-coin='pass'], #any-coins [data-coin='fail']", timeout=60_000)
    page.click("#any-pause")
    v = view(page)
    assert v["viewer"] is None and v["view"]["revealed"] and not v["decisions"]
    # once revealed, the spectator reads every decision, the setup's listed before included
    page.wait_for_selector("#any-moves li[data-n='1']")
    assert page.locator("#any-moves li", has_text="hidden from this seat").count() == 0
    assert page.locator("#any-moves li", has_text="P1 (random): tile ").count() >= HOME_CELLS
    coins = page.locator("#any-coins [data-coin='pass'], #any-coins [data-coin='fail']")
    assert coins.count() >= 1 and "the coin says" in coins.first.text_content()
    assert page.locator("#any-moves li li", has_text="the coin says").count() >= coins.count()  # under their moves too
    shot(page, "web_thrones_watch", tmp_path)


def _shortest_random_game(seeds: range) -> int:
    """The seed of the shortest random-vs-random game among ``seeds`` (the web app's random
    agents are seeded as the arena's: game seed * 16 + seat)."""
    from agents.generic import make_generic

    def length(seed: int) -> int:
        state, players = load_game("thrones").new_state(seed=seed), [make_generic("random", seed * 16 + i) for i in (0, 1)]
        n = 0
        while not state.is_over():
            seat = state.current_player()
            state.apply_action(players[seat](state.view_for(seat), state.legal_actions()))
            n += 1
        return n
    return min(seeds, key=length)


def _post(url: str, body: dict | None = None) -> dict:
    data = None if body is None else json.dumps(body).encode()
    request = urllib.request.Request(url, data=data, method="POST", headers={"Content-Type": "application/json"})
    with urllib.request.urlopen(request, timeout=30) as answer:
        return json.loads(answer.read())


def test_a_finished_game_is_replayed_frame_by_frame_as_a_seat_saw_it(page, base_url, tmp_path):
    seed = _shortest_random_game(range(12))
    game = _post(f"{base_url}api/play", {"game": "thrones", "seats": ["random", "random"], "seed": seed})
    v = game
    while not v["over"]:  # played out here, fast; the page then opens the finished game
        v = _post(f"{base_url}api/play/{game['id']}/advance?since=100000")
    page.goto(f"{base_url}#watch/thrones/{game['id']}")
    page.wait_for_selector("body[data-turn='over'] #any-after:not([hidden])")
    page.click("#any-replay")
    page.wait_for_selector("body[data-view='replay'] #any-frame-label")
    assert view(page)["frame"] == 0 and page.locator("#any-after").is_hidden()  # a replay decides nothing
    page.select_option("#any-seat", "0")
    page.wait_for_function("vigtavl.anyView().viewer === 0")
    for _ in range(60):  # into seat 1's setup, seen by seat 0
        page.click("#any-forward")
    page.wait_for_function("vigtavl.anyView().frame === 60")
    assert page.locator("[data-tile='unknown']").count() == HOME_CELLS
    page.click("#any-last")
    page.wait_for_function(f"vigtavl.anyView().frame === {v['decisions_made']}")
    last = view(page)
    assert last["over"] and last["winners"] == v["winners"] and page.locator("[data-tile='unknown']").count() == 0
    assert f"decision {v['decisions_made']} of {v['decisions_made']}" in page.text_content("#any-frame-label")
    shot(page, "web_thrones_replay", tmp_path)
