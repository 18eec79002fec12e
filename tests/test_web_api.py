"""The web app's server without a browser: its JSON API, its refusals and its replays."""

from __future__ import annotations

import json
import os
import random

import pytest
from fastapi.testclient import TestClient
from webgame import path_to

from arena.vigtavl_match import run_match
from vigtavl_env.game import engine_digest as state_digest
from arena.records import RESULTS_SCHEMA
from arena.replay import initial_state, replay_steps
from webapp.server import create_app
from webapp.guards import ModelGuard, WebError
from webapp.replays import SNAPSHOT_EVERY, ReplayGame
from webapp.sessions import LiveGame
from vigtavl.cli import main
from vigtavl_env.engine import describe

LOCAL = "http://127.0.0.1:8000"  # the Host header must name this machine


@pytest.fixture(scope="module")
def results_dir(tmp_path_factory):
    folder = tmp_path_factory.mktemp("results")
    run_match(["greedy", "random"], games=2, seed=5, progress=False).save(folder / "small.json")
    run_match(["random", "random"], games=200, seed=0, workers=1, progress=False).save(folder / "r200.json")
    (folder / "broken.json").write_text("{not json")
    (folder / "other.json").write_text(json.dumps({"schema": "something else"}))
    return folder


@pytest.fixture(scope="module")
def client(results_dir):
    return TestClient(create_app(results=[results_dir]), base_url=LOCAL)


def new_game(client, seats=("human", "greedy"), seed=3):
    r = client.post("/api/games", json={"seats": list(seats), "seed": seed})
    assert r.status_code == 200, r.text
    return r.json()


def test_meta_lists_maps_and_agents(client):
    meta = client.get("/api/meta").json()
    assert {"duel", "triad", "quad"} <= {m["name"] for m in meta["maps"]}
    assert {"human", "greedy", "ppo:pretrained"} <= {a["spec"] for a in meta["agents"]}


def test_a_game_starts_with_its_board_and_the_persons_decisions(client):
    g = new_game(client)
    assert len(g["board"]["cells"]) == 91 and g["human"] and g["to_act"] == 0
    assert [d["command"] for d in g["decisions"]] == ["load 1", "load 2", "load 3"]
    assert g["moves"][0]["n"] == 0 and g["moves"][0]["events"][0]["event"] == "setup"
    assert g["status"]["phase"] == "placement"


def test_a_legal_decision_is_made_and_the_agent_answers_one_step_at_a_time(client):
    g = new_game(client)
    r = client.post(f"/api/games/{g['id']}/decide", json={"action": g["decisions"][0]["action"]}).json()
    assert r["decisions_made"] == 1 and not r["human"] and r["to_act"] == 1
    assert r["last"]["text"].startswith("P0: load")
    r = client.post(f"/api/games/{g['id']}/advance").json()
    assert r["advanced"] and r["decisions_made"] == 2 and r["last"]["seat"] == 1
    r = client.post(f"/api/games/{g['id']}/advance").json()  # the person decides now: nothing to advance
    assert not r["advanced"] and r["decisions_made"] == 2 and r["human"]
    assert r["status"]["phase"] == "placement" and all(d["kind"].startswith("place") for d in r["decisions"])


@pytest.mark.parametrize("body,status,words", [
    ({"action": 0}, 400, "not legal"),
    ({"action": -5}, 400, "not legal"),
    ({"action": 10 ** 9}, 400, "not legal"),
    ({"action": "end"}, 422, "action"),
    ({}, 422, "action"),
])
def test_a_bad_decision_is_refused_and_changes_nothing(client, body, status, words):
    g = new_game(client)
    r = client.post(f"/api/games/{g['id']}/decide", json=body)
    assert r.status_code == status and words in r.json()["error"]
    after = client.get(f"/api/games/{g['id']}").json()
    assert after["decisions_made"] == 0 and after["decisions"] == g["decisions"]


def test_deciding_out_of_turn_is_409(client):
    g = new_game(client, seats=("greedy", "random"))  # a watched game: nobody clicks
    r = client.post(f"/api/games/{g['id']}/decide", json={"action": 6658})
    assert r.status_code == 409 and "not your decision" in r.json()["error"]


@pytest.mark.parametrize("seats,words", [
    (["human", "grid"], "bad agent 'grid'"),
    (["human"], "2 to 4 players"),
    (["human", ""], "agent spec"),
    (["human", "ppo:/etc/passwd"], "only the model files named"),
    (["human", "search:-3"], "bad search budget"),
])
def test_a_bad_game_is_refused_with_a_message(client, seats, words):
    r = client.post("/api/games", json={"seats": seats})
    assert r.status_code == 400 and words in r.json()["error"]


def test_unknown_things_are_404_and_malformed_requests_422(client):
    assert client.get("/api/games/nope").status_code == 404
    assert "start a new one" in client.get("/api/games/nope").json()["error"]
    assert client.get("/api/replays/nope").status_code == 404
    assert client.get("/api/no-such-route").status_code == 404
    r = client.post("/api/games", json={"seats": "greedy"})
    assert r.status_code == 422 and r.json()["error"].startswith("bad request: seats")
    r = client.post("/api/games", content=b"not json", headers={"Content-Type": "application/json"})
    assert r.status_code == 422


def test_the_model_guard_loads_only_named_files(tmp_path, monkeypatch):
    import agents.ppo
    monkeypatch.setattr(agents.ppo, "PRETRAINED_PATH", tmp_path / "vigtavl_ppo.zip")  # installed; never opened here
    agents.ppo.PRETRAINED_PATH.write_bytes(b"x")
    named = tmp_path / "m.zip"
    named.write_bytes(b"x")
    guard = ModelGuard([named])
    guard.check(f"ppo:{named}")
    guard.check(f"ppo-search:{named}:20")
    guard.check("ppo:pretrained")
    guard.check("greedy")
    with pytest.raises(WebError, match="only the model files named"):
        guard.check(f"ppo:{tmp_path / 'other.zip'}:sample")


# the seeds against the aggressor in which the person meets each moment (under rules v2)
MOMENT_SEEDS = {"retaliation": 0, "defend": 1, "prison": 0}


def game_at(interrupt: str) -> LiveGame:
    """A seeded game against the aggressor, played up to the person's first ``interrupt``."""
    seats, seed = ["human", "aggressor"], MOMENT_SEEDS[interrupt]
    path = path_to(seats, seed, lambda g: g.interrupt == interrupt)
    assert path is not None
    game = LiveGame(seats, seed=seed)
    for action in path + [None]:
        while not game.human_to_act():
            game.advance()
        if action is not None:
            game.decide(action)
    return game


def test_a_retaliation_is_offered_to_the_person_and_answered():
    game = game_at("retaliation")
    v = game.view()
    assert v["status"]["interrupt"] == "retaliation" and v["status"]["interrupt_words"] == "RETALIATION"
    assert v["status"]["retaliator"] == 0 and v["status"]["turn_player"] == 1
    end = [d for d in v["decisions"] if d["command"] == "end turn"]
    assert end, "declining the retaliation is always offered"
    game.decide(end[0]["action"])
    assert game.view()["status"]["retaliator"] != 0


def test_a_defence_is_asked_of_the_person_out_of_turn():
    v = game_at("defend").view()
    assert v["status"]["interrupt"] == "defend" and v["to_act"] == 0  # in P1's turn or his retaliation
    assert v["marks"]["pending"] >= 0 and "defends" in v["status"]["asked"]
    assert v["decisions"] and all(d["kind"].startswith("choose") or d["kind"] == "no defence" for d in v["decisions"])


def test_a_whole_game_played_through_the_api_replays(client):
    g = new_game(client, seed=11)
    rng = random.Random(0)
    view = g
    while not (view["status"]["over"] or view["status"]["truncated"]):
        if view["human"]:
            action = rng.choice(view["decisions"])["action"]
            view = client.post(f"/api/games/{g['id']}/decide", json={"action": action}).json()
        else:
            view = client.post(f"/api/games/{g['id']}/advance").json()
    assert view["status"]["over"] and view["status"]["winners"]
    assert client.post(f"/api/games/{g['id']}/decide", json={"action": 0}).status_code == 409
    record = client.get(f"/api/games/{g['id']}/record")
    assert "attachment" in record.headers["content-disposition"]
    game = record.json()["games"][0]
    assert game["seats"] == ["human", "greedy"] and game["n_decisions"] == view["decisions_made"]
    opened = client.post(f"/api/games/{g['id']}/replay").json()
    last = client.get(f"/api/replays/{opened['id']}/games/0/frames/{game['n_decisions']}").json()
    assert [p["tokens"] for p in last["players"]] == game["tokens"] and last["status"]["over"]


def test_results_files_are_listed_and_opened_only_inside_the_named_folders(client):
    files = client.get("/api/files").json()["files"]
    assert {f["file"] for f in files} == {"small.json", "r200.json"}  # broken.json, other.json: not results files
    r = client.post("/api/replays", json={"folder": 0, "file": "../../etc/passwd"})
    assert r.status_code == 400 and "outside" in r.json()["error"]
    assert client.post("/api/replays", json={"folder": 0, "file": "missing.json"}).status_code == 404
    assert client.post("/api/replays", json={"folder": 3, "file": "small.json"}).status_code == 404
    r = client.post("/api/replays", json={"folder": 0, "file": "broken.json"})
    assert r.status_code == 400 and "not a JSON file" in r.json()["error"]
    r = client.post("/api/replays", json={"folder": 0, "file": "other.json"})
    assert r.status_code == 400 and "not a vigtavl results file" in r.json()["error"]


def test_the_file_list_holds_results_files_only_newest_first_and_skips_hidden_folders(tmp_path):
    small = run_match(["random", "random"], games=1, seed=1, max_steps=30, progress=False)
    for i, name in enumerate(["old.json", "runs/a/new.json", ".venv/lib/x.json", ".hidden.json", "mid.json"]):
        (tmp_path / name).parent.mkdir(parents=True, exist_ok=True)
        small.save(tmp_path / name)
        os.utime(tmp_path / name, (1_000_000 + i, 1_000_000 + i))
    (tmp_path / "filelock.cdx.json").write_text(json.dumps({"bomFormat": "CycloneDX", "schema": RESULTS_SCHEMA}))
    (tmp_path / "empty.json").write_text("")
    (tmp_path / "pretty.json").write_text(json.dumps(small.to_dict(), indent=2))  # listed: only spacing differs
    os.utime(tmp_path / "pretty.json", (999_999, 999_999))
    files = TestClient(create_app(results=[tmp_path]), base_url=LOCAL).get("/api/files").json()["files"]
    assert [f["file"] for f in files] == ["mid.json", "runs/a/new.json", "old.json", "pretty.json"]


@pytest.mark.parametrize("body,words", [
    (b"\x00\xff", "not a JSON file"),
    (b"[1, 2]", "not a vigtavl results file"),
    (json.dumps({"schema": "vigtavl-results", "version": 1, "games": []}).encode(), "of version vigtavl_v0"),
    (json.dumps({"schema": "vigtavl-results", "version": 2, "games": []}).encode(), "of version vigtavl_v1"),
    (json.dumps({"schema": "vigtavl-results", "version": "vigtavl_v1", "games": []}).encode(), "of version vigtavl_v1"),
    (json.dumps({"schema": "vigtavl-results", "version": "vigtavl_v2", "games": [{"game": 0}]}).encode(), "missing"),
])
def test_a_malformed_upload_is_400(client, body, words):
    r = client.post("/api/replays/upload?name=x.json", content=body)
    assert r.status_code == 400 and words in r.json()["error"]
    if "of version" in words:  # another version's file: both versions named, in one line
        assert "vigtavl_v2" in r.json()["error"] and "\n" not in r.json()["error"]


def test_a_200_game_results_file_replays_decision_by_decision(client, results_dir):
    opened = client.post("/api/replays", json={"folder": 0, "file": "r200.json"}).json()
    assert len(opened["games"]) == 200
    game = max(opened["games"], key=lambda g: g["decisions"])
    summary = client.get(f"/api/replays/{opened['id']}/games/{game['game']}").json()
    n = summary["frames"]
    assert n == game["decisions"] and summary["turns"][0]["frame"] == 0 and len(summary["turns"]) > 2
    views = [client.get(f"/api/replays/{opened['id']}/games/{game['game']}/frames/{k}").json() for k in (n, 0, n // 2, 1)]
    assert [v["frame"] for v in views] == [n, 0, n // 2, 1]
    assert [p["tokens"] for p in views[0]["players"]] == game["tokens"]
    assert views[1]["last"] is None and views[3]["last"]["n"] == 1
    assert client.get(f"/api/replays/{opened['id']}/games/{game['game']}/frames/{n + 1}").status_code == 404
    assert client.get(f"/api/replays/{opened['id']}/games/999").status_code == 404


def test_any_replay_frame_is_the_state_after_that_many_decisions(results_dir):
    from arena.records import GameRecord
    data = json.loads((results_dir / "small.json").read_text())
    record = GameRecord.from_dict(data["games"][0])
    replay = ReplayGame(record)
    state = initial_state(record)
    digests = [state.digest()]
    for code in record.decisions:
        state.apply_action(state.recorded_action(code))
        digests.append(state.digest())
    frames = sorted({0, 1, SNAPSHOT_EVERY - 1, SNAPSHOT_EVERY, SNAPSHOT_EVERY + 1, len(record.decisions)}
                    | set(random.Random(1).sample(range(len(digests)), 10)))
    for k in reversed(frames):  # backwards, as a person stepping back
        assert state_digest(replay.state_at(k)) == digests[k], k


def test_serve_says_in_one_line_that_results_names_a_file_not_a_folder(capsys, tmp_path):
    (tmp_path / "ga200.json").write_text("{}")
    assert main(["serve", "--results", str(tmp_path / "ga200.json")]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and "is a file, not a folder" in err[0] and str(tmp_path) in err[0]


def test_serve_refuses_a_missing_folder_or_model_in_one_line(capsys, tmp_path):
    assert main(["serve", "--results", str(tmp_path / "nope")]) == 2
    assert main(["serve", "--model", str(tmp_path / "nope.zip")]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 2 and "does not exist" in err[0] and "does not exist" in err[1]


def test_serve_refuses_a_port_in_use_in_one_line(capsys):
    import socket
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        assert main(["serve", "--port", str(port)]) == 2
    err = capsys.readouterr().err.strip()
    assert "cannot listen on 127.0.0.1" in err and "\n" not in err


@pytest.mark.parametrize("port", ["99999", "-1", "http"])
def test_serve_refuses_a_bad_port_in_one_line(capsys, port):
    with pytest.raises(SystemExit) as stop:
        main(["serve", "--port", port])
    assert stop.value.code == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert "--port" in err[-1] and "Traceback" not in "".join(err)


# ------------------------------------------------------------------ moves, battles, outcomes
@pytest.fixture(scope="module")
def fought():
    """A whole game between aggressors: battles of every kind (close, ranged, overwhelming)."""
    game = LiveGame(["aggressor", "aggressor"], seed=1)
    while game.advance():
        pass
    return game


def test_decisions_are_the_move_lists_one_numbering_with_their_events_under_them(fought):
    moves = fought.view(0)["moves"]
    assert [m["n"] for m in moves] == list(range(len(fought.decisions) + 1))
    assert moves[0]["seat"] == -1 and moves[0]["events"][0]["event"] == "setup"
    assert sum(len(m["events"]) for m in moves) == len(fought.env.game_state.events)
    assert fought.view(5)["moves"][0]["n"] == 5 and fought.view(10 ** 6)["moves"] == []
    seed_words = [e["text"] for m in moves for e in m["events"] if "seed" in e["text"]]
    assert seed_words == []  # one seed on the page: the game's, not the engine's own


def test_every_battle_shows_its_dice_and_a_why_that_agrees_with_them(fought):
    battles = [b for m in fought.moves for b in m["battles"]]
    events = [e for e in fought.env.game_state.events if e["event"] == "battle"]
    assert len(battles) == len(events) > 10
    assert {"close", "ranged", "overwhelm"} <= {"overwhelm" if b["overwhelm"] else "ranged" if b["ranged"] else "close"
                                               for b in battles}
    for b, e in zip(battles, events):
        a = b["attacker"]
        assert a["dice"] == e["dice"] and b["won"] == e["won"] and b["why"].startswith(f"{a['dice']} di")
        if b["overwhelm"]:
            assert b["rounds"] == [] and "overwhelming" in b["why"]
        elif b["ranged"]:
            hit = min(b["rounds"][0]["attack"]) <= b["need"]
            assert hit == b["won"] and b["why"].endswith("hit" if hit else "miss")
        else:
            last = b["rounds"][-1]
            best_a, best_d = max(last["attack"]), max(last["defend"])
            assert (best_a > best_d) == b["won"] and len(last["attack"]) == a["dice"]
            assert b["why"].endswith(f"{best_a} {'beats' if b['won'] else 'loses to'} {best_d}")
        assert_extra_dice_said_apart(b, e)


def assert_extra_dice_said_apart(b, e):
    """The battle's extra dice are the engine event's, flanking's and attrition's said apart."""
    a = b["attacker"]
    assert (a["flank"], a["attrition"], a["tactics"]) == (e["flank"], e["attrition"], e["flank"] + e["attrition"])
    said = [f"flank +{e['flank']}" if e["flank"] else "", f"attrition +{e['attrition']}" if e["attrition"] else ""]
    extra = f" ({', '.join(w for w in said if w)})" if a["tactics"] else ""
    assert b["why"].startswith(f"{a['dice']} di{'e' if a['dice'] == 1 else 'ce'}{extra} ")
    assert "flank or attrition" not in b["why"]


def test_flanking_and_attrition_dice_are_told_apart_as_the_engine_counted_them():
    from vigtavl_env.web_moves import battle_view
    from vigtavl_env.engine.stats import UNIT_COST
    seen = set()
    for seed in (1, 4):  # seed 4: a third attack from one side, attrition's dice
        game = LiveGame(["aggressor", "aggressor"], seed=seed)
        while game.advance():
            pass
        state = game.env.game_state
        for e in (e for e in state.events if e["event"] == "battle"):
            b = battle_view(e, state)
            assert_extra_dice_said_apart(b, e)
            if not e["artillery"]:
                assert e["dice"] == UNIT_COST[state.u_type[e["unit"]]] + e["flank"] + e["attrition"]
            seen |= {k for k in ("flank", "attrition") if e[k]}
    assert seen == {"flank", "attrition"}


def test_a_battle_event_without_the_split_says_the_sum():
    from vigtavl_env.engine.narrate import dice_bonus
    assert dice_bonus(None, None, 2) == " (flank or attrition +2)" and dice_bonus(None, None, 0) == ""
    assert dice_bonus(1, 0, 1) == " (flank +1)" and dice_bonus(1, 2, 3) == " (flank +1, attrition +2)"
    assert dice_bonus(0, 2, 2) == " (attrition +2)" and dice_bonus(0, 0, 0) == ""


def test_outcomes_are_marked_on_their_hexes_with_whose_gain_and_whose_loss(fought):
    state = fought.env.game_state
    marked = [o for m in fought.moves for o in m["outcomes"]]
    captured = [e for e in state.events if e["event"] == "captured"]
    on_board = [o for o in marked if o["what"] == "captured"]
    assert len(on_board) == len(captured) > 0
    for o, e in zip(on_board, captured):
        assert o["cell"] == e["cell"] and o["by"] == e["by"] and o["of"] == state.u_owner[e["unit"]] != e["by"]
    assert {"captured", "seized", "occupied"} <= {o["what"] for o in marked}
    x, y = fought.board["cells"][on_board[0]["cell"]]["x"], fought.board["cells"][on_board[0]["cell"]]["y"]
    assert (on_board[0]["x"], on_board[0]["y"]) == (x, y)


def test_each_players_last_decision_skips_end_turn_and_end_activation(fought):
    last = fought.view()["last_decisions"]
    assert len(last) == 2 and all(last)
    for seat, words in enumerate(last):
        n = int(words.split(".")[0])
        move = fought.moves[n]
        assert move["seat"] == seat and not move["plain"] and not words.startswith(f"{n}. P{seat}:")
        assert all(m["plain"] for m in fought.moves[n + 1:] if m["seat"] == seat)


def test_the_view_says_each_player_once_and_counts_losses_apart_from_gains(fought):
    view = fought.view()
    assert "player_" not in json.dumps(view)
    p0, p1 = view["players"]
    assert p0["lost_captured"] == p1["prisoners"] > 0  # P0's units held by P1: P0's loss, P1's gain
    assert p1["lost_captured"] == p0["prisoners"]


# ------------------------------------------------------------------ hints and undo
def test_a_hint_is_the_strongest_agents_choice_among_the_legal_decisions(client):
    from agents.registry import make_agent
    from webapp.hints import hint_agent_spec
    from vigtavl_env.agent import agent_info
    g = client.post("/api/games", json={"seats": ["human", "greedy"], "seed": 3, "hints": True}).json()
    assert g["hints"] and not g["undo"]
    for _ in range(4):  # the setup's loads, then the placements
        h = client.get(f"/api/games/{g['id']}/hint").json()
        legal = {d["action"]: d for d in g["decisions"]}
        assert h["agent"] == hint_agent_spec(2) and h["decision"] == g["decisions_made"] and 0 <= h["win"] <= 1
        assert 1 <= len(h["choices"]) <= 3 and all(c["action"] in legal for c in h["choices"])
        probs = [c["prob"] for c in h["choices"]]
        assert probs == sorted(probs, reverse=True) and sum(probs) <= 1.001
        env = client.app.state.store.game(g["id"]).env
        obs = env.observe(env.agent_selection)
        agent = make_agent(hint_agent_spec(2), seed=0)
        assert h["choices"][0]["action"] == agent.act(obs["observation"], obs["action_mask"], agent_info(env, env.agent_selection))
        assert client.get(f"/api/games/{g['id']}/hint").json() == h  # asked again: the same, from memory
        g = client.post(f"/api/games/{g['id']}/decide", json={"action": h["choices"][0]["action"]}).json()
        while not g["human"]:  # the agent's answers (under v2, a placement may bring a choice of variant)
            g = client.post(f"/api/games/{g['id']}/advance").json()


@pytest.mark.parametrize("body,status,words", [
    ({"seats": ["human", "greedy"]}, 409, "hints are off"),
    ({"seats": ["greedy", "greedy"], "hints": True}, 400, "person's seat"),
    ({"seats": ["human", "greedy"], "hints": "please"}, 422, "hints"),
    ({"seats": ["human", "greedy"], "hints": [1]}, 422, "hints"),
])
def test_a_hint_where_there_is_none_is_refused_in_one_line(client, body, status, words):
    r = client.post("/api/games", json=body)
    if r.status_code == 200:
        r = client.get(f"/api/games/{r.json()['id']}/hint")
    assert r.status_code == status and words in r.json()["error"]


def test_a_four_player_game_has_hints_from_the_four_player_network(client):
    """Every player count has a shipped network, so a game of four has hints too: the first hint
    is ``ppo:pretrained-4p``'s choice among the person's legal decisions."""
    g = client.post("/api/games", json={"seats": ["human", "greedy", "aggressor", "builder"], "seed": 5,
                                        "hints": True}).json()
    h = client.get(f"/api/games/{g['id']}/hint").json()
    assert h["agent"] == "ppo:pretrained-4p" and 0 <= h["win"] <= 1
    assert h["choices"] and {c["action"] for c in h["choices"]} <= {d["action"] for d in g["decisions"]}


def test_a_hint_is_refused_when_it_is_not_the_persons_decision(client):
    g = client.post("/api/games", json={"seats": ["greedy", "human"], "seed": 3, "hints": True}).json()
    r = client.get(f"/api/games/{g['id']}/hint")
    assert r.status_code == 409 and "not one now" in r.json()["error"]
    assert client.get("/api/games/nope/hint").status_code == 404


def test_undo_takes_back_the_persons_decision_and_the_agents_answers_and_rebuilds_the_same_state(client):
    g = client.post("/api/games", json={"seats": ["human", "aggressor"], "seed": 0, "undo": True}).json()
    key, rng = g["id"], random.Random(2)
    game = client.app.state.store.game(key)
    digests = {}
    while game.env.game_state.turns_played < 4:
        if g["human"]:
            digests[g["decisions_made"]] = state_digest(game.env.game_state)
            g = client.post(f"/api/games/{key}/decide", json={"action": rng.choice(g["decisions"])["action"]}).json()
        else:
            g = client.post(f"/api/games/{key}/advance").json()
    mine = [m["n"] for m in g["moves"] if m["seat"] == 0]
    u = client.post(f"/api/games/{key}/undo").json()
    assert u["decisions_made"] == mine[-1] - 1 and u["taken_back"] == g["decisions_made"] - u["decisions_made"]
    assert u["human"] and [m["n"] for m in u["moves"]] == list(range(u["decisions_made"] + 1)) and u["undone"] == 1
    assert state_digest(game.env.game_state) == digests[u["decisions_made"]]
    u = client.post(f"/api/games/{key}/undo").json()  # and the one before
    assert u["decisions_made"] == mine[-2] - 1 and state_digest(game.env.game_state) == digests[u["decisions_made"]]
    record = game.record()  # the record of the game as it stands replays to it
    assert record.decisions == game.decisions and replay_record(record).digest() == state_digest(game.env.game_state)


def test_undo_is_refused_where_it_is_off_or_there_is_nothing_to_take_back(client):
    g = client.post("/api/games", json={"seats": ["human", "greedy"], "seed": 3}).json()
    r = client.post(f"/api/games/{g['id']}/undo")
    assert r.status_code == 409 and "undo is off" in r.json()["error"]
    g = client.post("/api/games", json={"seats": ["human", "greedy"], "seed": 3, "undo": True}).json()
    r = client.post(f"/api/games/{g['id']}/undo")
    assert r.status_code == 409 and "no decision of yours" in r.json()["error"]
    assert client.post("/api/games/nope/undo").status_code == 404
    assert client.post("/api/games", json={"seats": ["human", "greedy"], "undo": None}).status_code == 422


def replay_record(record):
    state = initial_state(record)
    for _ in replay_steps(record, state):
        pass
    return state


def test_the_score_sheet_is_the_engines_and_sums_to_each_players_tokens(fought):
    from vigtavl_env import web_view as view
    if view.token_sheet is None:
        pytest.skip("this engine has no token_sheet yet (vigtavl_env.engine.tokens)")
    v = fought.view()
    assert v["sheet"] == view.token_sheet(fought.env.game_state)
    assert [sum(s.values()) for s in v["sheet"]] == [p["tokens"] for p in v["players"]]


# ------------------------------------------------------------------ rules v2's questions
def api_game_at(client, asked_kind: str, seed: int) -> tuple[str, dict]:
    """Game ``seed`` against the aggressor, played through the API as a person clicks (the
    decisions :func:`webgame.path_to` found) up to the person's first choice of ``asked_kind``."""
    seats = ["human", "aggressor"]
    path = path_to(seats, seed, lambda g: g.view()["status"]["asked_kind"] == asked_kind)
    assert path is not None
    g = new_game(client, seats=seats, seed=seed)
    key, view = g["id"], g
    for action in path + [None]:
        while not view["human"]:
            view = client.post(f"/api/games/{key}/advance").json()
        if action is not None:
            view = client.post(f"/api/games/{key}/decide", json={"action": action}).json()
            assert "error" not in view, view
    return key, view


def test_choose_variant_entries_read_as_the_unit_they_pick_and_are_answered(client):
    g = new_game(client, seats=("human", "greedy"), seed=3)
    key, view = g["id"], g
    while not any(d["kind"] == "choose variant" for d in view["decisions"]):
        view = (client.post(f"/api/games/{key}/decide", json={"action": view["decisions"][0]["action"]})
                if view["human"] else client.post(f"/api/games/{key}/advance")).json()
    status, options = view["status"], view["decisions"]
    assert status["choice_words"] == "WHICH UNIT" and "chooses which of his freighters" in status["asked"] and status["asked_how"]
    assert len(options) >= 2 and all(d["kind"] == "choose variant" and d["cell"] == -1 for d in options)
    assert [d["command"] for d in options] == [f"choose variant {k}" for k in range(len(options))]
    env = client.app.state.store.game(key).env
    for d in options:  # the engine's own words for the unit it picks, said once
        words = describe(env.game_state, env.codec.to_engine(d["action"]))
        assert d["label"] == d["text"] == words.removeprefix("P0: ") and d["label"].startswith("the ")
        assert "variant" not in d["label"] and "load" not in d["label"]
    picked = options[-1]
    after = client.post(f"/api/games/{key}/decide", json={"action": picked["action"]}).json()
    move = next(m for m in after["moves"] if m["n"] == view["decisions_made"] + 1)
    assert move["text"] == f"P0: chooses {picked['label']}" and after["status"]["choice_words"] != "WHICH UNIT"


@pytest.mark.parametrize("asked_kind,seed,kind", [("prison", 0, "hold prisoner"), ("rescued unit", 2, "place rescued")])
def test_the_prison_and_the_rescued_units_hex_are_chosen_on_the_board(client, asked_kind, seed, kind):
    key, view = api_game_at(client, asked_kind, seed)
    status, options = view["status"], view["decisions"]
    assert status["choice_words"] in ("PRISON", "RESCUED UNIT") and "click" in status["asked_how"]
    assert status["asked"].startswith("P0 chooses") and view["human"]
    assert len(options) >= 2 and all(d["kind"] == kind and d["cell"] >= 0 for d in options)
    assert len({d["cell"] for d in options}) == len(options)  # one decision per hex: a click makes it
    picked = options[-1]
    after = client.post(f"/api/games/{key}/decide", json={"action": picked["action"]}).json()
    assert after["decisions_made"] == view["decisions_made"] + 1
    cell = picked["cell"]
    here = [p for p in after["pieces"] if p["cell"] == cell]
    if kind == "hold prisoner":  # the captive is held on the development chosen
        assert any(p["kind"] == "prisoner" and p["owner"] == 1 for p in here)
    else:  # the rescued unit stands on the hex chosen
        assert any(p["kind"] == "unit" and p["owner"] == 0 for p in here)
    move = next(m for m in after["moves"] if m["n"] == after["decisions_made"])
    assert move["text"].startswith(f"P0: {kind} at ") and move["cells"] == [cell]


# ------------------------------------------------------------------ analysis in replays
def test_any_replay_frame_is_analysed_as_a_live_hint_was_there(client):
    g = client.post("/api/games", json={"seats": ["human", "greedy"], "seed": 3, "hints": True}).json()
    key, hints = g["id"], {}
    while g["decisions_made"] < 12:
        if g["human"]:
            hints[g["decisions_made"]] = h = client.get(f"/api/games/{key}/hint").json()
            g = client.post(f"/api/games/{key}/decide", json={"action": h["choices"][-1]["action"]}).json()
        else:
            g = client.post(f"/api/games/{key}/advance").json()
    replay = client.post(f"/api/games/{key}/replay").json()
    base = f"/api/replays/{replay['id']}/games/0/frames"
    for frame, h in hints.items():  # the person's frames: the very hint he was given
        a = client.get(f"{base}/{frame}/analysis").json()
        assert a["frame"] == frame and {k: a[k] for k in ("agent", "seat", "choices", "win")} == \
            {k: h[k] for k in ("agent", "seat", "choices", "win")}
        assert client.get(f"{base}/{frame}/analysis").json() == a  # asked again: the same, from memory
    agents_frames = [m["n"] - 1 for m in g["moves"] if m["seat"] == 1]
    a = client.get(f"{base}/{agents_frames[-1]}/analysis").json()  # the agent's decision: for his seat
    assert a["seat"] == 1 and 1 <= len(a["choices"]) <= 3 and 0 <= a["win"] <= 1
    view = client.get(f"{base}/{agents_frames[-1]}").json()
    assert view["status"]["to_act"] == 1


def test_a_replay_analysis_that_cannot_be_given_is_a_4xx_in_one_line(client, tmp_path):
    opened = client.post("/api/replays", json={"folder": 0, "file": "small.json"}).json()
    game = opened["games"][0]
    base = f"/api/replays/{opened['id']}/games/{game['game']}"
    last = game["decisions"]
    for url, status, words in [
        (f"{base}/frames/{last + 1}/analysis", 404, f"frames 0 to {last}"),
        (f"{base}/frames/-1/analysis", 404, f"frames 0 to {last}"),
        (f"{base}/frames/{last}/analysis", 409, "the game is over"),
        (f"{base}/frames/x/analysis", 422, "frame"),
        (f"/api/replays/{opened['id']}/games/999/frames/1/analysis", 404, "no game 999"),
        ("/api/replays/nope/games/0/frames/1/analysis", 404, "open it again"),
    ]:
        r = client.get(url)
        assert r.status_code == status and words in r.json()["error"] and "\n" not in r.json()["error"], (url, r.text)
    four = run_match(["random"] * 4, games=1, seed=1, num_players=4, max_steps=20, progress=False)
    up = client.post("/api/replays/upload?name=four.json", content=json.dumps(four.to_dict())).json()
    r = client.get(f"/api/replays/{up['id']}/games/0/frames/1/analysis")
    assert r.status_code == 200 and r.json()["agent"] == "ppo:pretrained-4p", r.text  # four players: their network
