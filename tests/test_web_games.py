"""Any registered game through the web app's routes (webapp/any_routes.py): Pig played to
the end, Thrones' setup and moves, what a seat may see (the secret setup never reaches another
seat's page), watching, replays, and a one-line 4xx for every bad request."""

from __future__ import annotations

import json

import pytest
from fastapi.testclient import TestClient

from agents.kinds import kinds_for
from webapp.any_game import AnyGame, web_kinds
from webapp.server import create_app
from games import load_game

LOCAL = "http://127.0.0.1:8000"


@pytest.fixture(scope="module")
def app():
    return create_app()


@pytest.fixture
def client(app):
    return TestClient(app, base_url=LOCAL)


def start(client, game, seats, seed=3):
    r = client.post("/api/play", json={"game": game, "seats": seats, "seed": seed})
    assert r.status_code == 200, r.text
    return r.json()


def refused(r, status):
    """The answer is ``status`` with one line of error."""
    assert r.status_code == status, r.text
    error = r.json()["error"]
    assert error and "\n" not in error and "Traceback" not in error
    return error


def advance_until_person(client, key, limit=400):
    """Agents decide until the person's turn (or the end); the last view."""
    view = client.get(f"/api/play/{key}").json()
    for _ in range(limit):
        if view["over"] or view["decisions"]:
            return view
        view = client.post(f"/api/play/{key}/advance").json()
    raise AssertionError("the agents never gave the person a turn")


def test_meta_lists_every_registered_game_with_its_agents(client):
    games = {g["name"]: g for g in client.get("/api/meta").json()["games"]}
    assert {"vigtavl", "pig", "thrones"} <= set(games)
    assert games["thrones"]["min_players"] == games["thrones"]["max_players"] == 2
    specs = {a["spec"] for a in games["pig"]["agents"]}
    assert {"human", "random", "rollout"} <= specs and "ppo" not in specs  # no model files here


def test_the_seats_take_the_kinds_of_the_projects_table_less_model_files():
    for game in ("pig", "thrones"):  # the generic kinds and the game's own (agents.kinds)
        table = kinds_for(game)
        assert set(web_kinds(game)) == {k for k, v in table.items() if not v.model} and "ppo" not in web_kinds(game)
    assert set(web_kinds("vigtavl")) == {"random", "rollout"}  # its own bots play at /api/games


def test_pig_is_played_to_the_end_through_the_routes(client):
    g = start(client, "pig", ["human", "random"], seed=11)
    key, seen_chance = g["id"], 0
    assert g["view"]["cards"][0] is not None and g["view"]["cards"][1] is None  # own card only
    view = g
    while not view["over"]:
        view = advance_until_person(client, key)
        if view["over"]:
            break
        # roll while the pot is small, bank past 6, allow every veto asked
        texts = {d["text"]: d["action"] for d in view["decisions"]}
        choice = texts.get("allow") or (texts.get("bank") if view["view"]["pot"] >= 6 else None) or texts["roll"]
        view = client.post(f"/api/play/{key}/decide", json={"action": choice}).json()
        seen_chance += sum(len(m["chance"]) for m in view["moves"])
    assert view["winners"] and sum(view["returns"]) == pytest.approx(0.0) and seen_chance > 0
    full = client.get(f"/api/play/{key}").json()
    assert [m["n"] for m in full["moves"]] == list(range(full["decisions_made"] + 1))


def test_thrones_setup_is_laid_and_a_few_moves_are_played(client):
    g = start(client, "thrones", ["human", "random"], seed=5)
    key = g["id"]
    assert g["view"]["phase"] == "setup" and g["info"] == {"revealed": False}
    view = g
    while view["view"]["phase"] == "setup":
        view = advance_until_person(client, key)
        if view["view"]["phase"] != "setup":
            break
        view = client.post(f"/api/play/{key}/decide", json={"action": view["decisions"][0]["action"]}).json()
    assert view["view"]["revealed"] and view["info"] == {"revealed": True}
    made = view["decisions_made"]
    for _ in range(6):
        view = advance_until_person(client, key)
        if view["over"]:
            break
        view = client.post(f"/api/play/{key}/decide", json={"action": view["decisions"][-1]["action"]}).json()
    assert view["decisions_made"] >= made + 6
    # after the reveal both seats' decisions read in words, the setup's included
    worded = client.get(f"/api/play/{key}").json()["moves"]
    assert all(m["text"] for m in worded)
    assert any(m["text"].startswith("tile ") for m in worded if m["seat"] == 1)


def _first_player(seed):
    return load_game("thrones").new_state(seed=seed).public_view(0)["first_player"]


def _same_coin_seeds():
    first = _first_player(1)
    return 1, next(s for s in range(2, 100) if _first_player(s) == first)


def _personal(view):
    return {k: v for k, v in view.items() if k not in ("id", "token", "seed")}


def test_the_opponents_secret_setup_never_reaches_the_persons_page(app, client):
    """Two games whose opponents laid different setups: before the reveal the person's seat
    receives the same JSON in both, at its first decision and again after its own moves."""
    seeds, views, keys = _same_coin_seeds(), [], []
    for seed in seeds:
        g = start(client, "thrones", ["random", "human"], seed=seed)  # the opponent sets up first
        keys.append(g["id"])
        views.append(advance_until_person(client, g["id"]))
    true_boards = [app.state.store.game(k, AnyGame).state.public_view(0)["board"] for k in keys]
    assert true_boards[0] != true_boards[1]  # the opponents' setups differ
    assert views[0]["view"]["setup_steps"][0] > 0 and not views[0]["view"]["revealed"]
    assert _personal(views[0]) == _personal(views[1])
    assert all(m["text"] is None for m in views[0]["moves"] if m["seat"] == 0)
    for _ in range(10):  # the same decisions of the person's own in both games
        action = views[0]["decisions"][0]["action"]
        views = [client.post(f"/api/play/{k}/decide", json={"action": action}).json() for k in keys]
        assert _personal(views[0]) == _personal(views[1])
    assert json.dumps(views[0]).count('"unknown"') >= 36  # the opponent's home, drawn unknown


def test_without_the_token_the_page_sees_a_spectators_view(app, client):
    g = start(client, "thrones", ["human", "random"], seed=8)
    key = g["id"]
    for _ in range(5):
        view = client.post(f"/api/play/{key}/decide", json={"action": g["decisions"][0]["action"]}).json()
        g = view
    stranger = TestClient(app, base_url=LOCAL)
    seen = stranger.get(f"/api/play/{key}").json()
    assert seen["viewer"] is None and seen["decisions"] == [] and seen["info"] == {}
    assert all(m["text"] is None for m in seen["moves"] if m["seat"] >= 0)
    laid = [c["tile"] for row in view["view"]["board"] for c in row if c["tile"] not in (None, "unknown")]
    assert len(laid) == 5 and not [c["tile"] for row in seen["view"]["board"] for c in row
                                    if c["tile"] not in (None, "unknown")]
    refused(stranger.post(f"/api/play/{key}/decide", json={"action": g["decisions"][0]["action"]}), 403)


def test_a_bot_game_is_watched_and_its_replay_opened_once_over(client):
    g = start(client, "pig", ["random", "rollout:2", "random"], seed=4)
    key = g["id"]
    assert g["human"] is None and g["viewer"] is None and g["decisions"] == []
    assert all(m["text"] is None for m in client.post(f"/api/play/{key}/advance").json()["moves"] if m["seat"] >= 0)
    refused(client.post(f"/api/play/{key}/replay"), 409)  # not over yet
    view = g
    while not view["over"]:
        view = client.post(f"/api/play/{key}/advance").json()
        assert view["advanced"] or view["over"]
    replay = client.post(f"/api/play/{key}/replay").json()
    assert replay["frames"] == view["decisions_made"] + 1 and key not in json.dumps(replay)
    last = client.get(f"/api/play-replays/{replay['id']}/frames/{replay['frames'] - 1}").json()
    assert last["over"] and last["winners"] == view["winners"]
    assert all(m["text"] for m in last["moves"])  # once over, a spectator reads every decision
    k = replay["frames"] // 2
    mid = client.get(f"/api/play-replays/{replay['id']}/frames/{k}?seat=2").json()
    assert mid["decisions_made"] == k and len(mid["moves"]) == k + 1 and mid["viewer"] == 2
    assert mid["view"]["cards"][2] is not None and mid["view"]["cards"][0] is None


def test_a_thrones_replay_shows_a_seats_view_frame_by_frame(client):
    g = start(client, "thrones", ["random", "random"], seed=2)
    key, view = g["id"], g
    while not view["over"]:  # only the new moves each time
        view = client.post(f"/api/play/{key}/advance?since={view['decisions_made'] + 1}").json()
    replay = client.post(f"/api/play/{key}/replay").json()
    frame = client.get(f"/api/play-replays/{replay['id']}/frames/60?seat=0").json()  # inside the setup
    assert not frame["view"]["revealed"]
    assert sum(c["tile"] == "unknown" for row in frame["view"]["board"] for c in row) >= 36
    end = client.get(f"/api/play-replays/{replay['id']}/frames/{replay['frames'] - 1}?seat=0").json()
    assert end["view"]["revealed"] and end["over"]


# ------------------------------------------------------------------------------ bad input
@pytest.mark.parametrize("body, status", [
    ({"game": "chess", "seats": ["human", "random"]}, 400),       # an unknown game
    ({"game": "pig"}, 422),                                        # no seats
    ({"game": 7, "seats": ["human", "random"]}, 422),             # a game that is no name
    ({"game": "pig", "seats": ["human"]}, 400),                    # too few players
    ({"game": "thrones", "seats": ["human", "random", "random"]}, 400),
    ({"game": "pig", "seats": ["human", "human"]}, 400),           # two people on one page
    ({"game": "pig", "seats": ["human", ""]}, 400),
    ({"game": "pig", "seats": ["human", "greedy"]}, 400),          # not an agent of pig
    ({"game": "pig", "seats": ["human", "rollout:500"]}, 400),     # past this server's bound
    ({"game": "pig", "seats": ["human", "ppo:/etc/passwd"]}, 400),  # no model files
    ({"game": "pig", "seats": ["human", "random"], "seed": -1}, 422),
    ({"game": "pig\x00", "seats": ["human", "random"]}, 400),
])
def test_a_bad_new_game_is_refused_in_one_line(client, body, status):
    refused(client.post("/api/play", json=body), status)


def test_bad_decisions_tokens_ids_and_frames_are_refused_in_one_line(client):
    g = start(client, "thrones", ["human", "random"], seed=9)
    key, legal = g["id"], {d["action"] for d in g["decisions"]}
    illegal = next(a for a in range(2000) if a not in legal)
    refused(client.post(f"/api/play/{key}/decide", json={"action": illegal}), 400)
    refused(client.post(f"/api/play/{key}/decide", json={"action": -1}), 400)
    refused(client.post(f"/api/play/{key}/decide", json={"action": "first"}), 422)
    refused(client.post(f"/api/play/{key}/decide", json={}), 422)
    refused(client.post(f"/api/play/{key}/decide", json={"action": min(legal)},
                        headers={"x-game-token": "not-the-token"}), 403)
    refused(client.post("/api/play/nosuchgame/decide", json={"action": 0}), 404)
    refused(client.get("/api/play/nosuchgame"), 404)
    refused(client.post("/api/play/nosuchgame/advance"), 404)
    refused(client.get("/api/play-replays/nosuch/frames/0"), 404)
    refused(client.post("/api/play/nosuchgame/replay"), 404)
    refused(client.get(f"/api/play/{key}?since=first"), 422)
    refused(client.post(f"/api/play/{key}/advance?since=x"), 422)
    # Vigtavl's routes and these serve only their own games
    refused(client.get(f"/api/games/{key}"), 404)
    vig = client.post("/api/games", json={"seats": ["human", "greedy"], "seed": 1}).json()
    refused(client.get(f"/api/play/{vig['id']}"), 404)
    # not the person's turn: the bot's
    bots = start(client, "thrones", ["random", "human"], seed=9)
    refused(client.post(f"/api/play/{bots['id']}/decide", json={"action": 0}), 409)


def test_bad_replay_frames_and_seats_are_refused_in_one_line(client):
    g = start(client, "pig", ["random", "random"], seed=6)
    view = g
    while not view["over"]:
        view = client.post(f"/api/play/{g['id']}/advance").json()
    rid = client.post(f"/api/play/{g['id']}/replay").json()["id"]
    refused(client.get(f"/api/play-replays/{rid}/frames/{view['decisions_made'] + 1}"), 404)
    refused(client.get(f"/api/play-replays/{rid}/frames/-1"), 404)
    refused(client.get(f"/api/play-replays/{rid}/frames/x"), 422)
    refused(client.get(f"/api/play-replays/{rid}/frames/0?seat=5"), 400)
    refused(client.get(f"/api/play-replays/{rid}/frames/0?seat=-1"), 422)
    refused(client.get(f"/api/replays/{rid}"), 404)  # Vigtavl's replay routes do not serve it
    refused(client.post(f"/api/play/{g['id']}/decide", json={"action": 0}), 409)  # over (no person either)
