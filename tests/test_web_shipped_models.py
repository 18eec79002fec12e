"""A game's shipped network in the web app (issue 58 item 4: usable where a spec is taken, serve
included): ``ppo:pretrained`` and ``ppo-search:pretrained[:N]`` are offered for a game that ships
one, while its file is installed; a page can never name a model file, nor a search past the
server's bound."""

from __future__ import annotations

import pytest
from fastapi.testclient import TestClient

import agents.shipped as shipped_files
from webapp.any_game import MAX_WEB_SIMULATIONS, agent_menu, shipped_kinds
from webapp.server import create_app

LOCAL = "http://127.0.0.1:8000"
needs_thrones_model = pytest.mark.skipif(not shipped_files.pretrained_path("thrones").is_file(),
                                         reason="no Thrones network shipped")


@pytest.fixture(scope="module")
def client():
    return TestClient(create_app(), base_url=LOCAL)


def start(client, seats, seed=3):
    return client.post("/api/play", json={"game": "thrones", "seats": seats, "seed": seed})


@needs_thrones_model
def test_the_menu_offers_the_shipped_network_of_a_game_that_ships_one(client) -> None:
    games = {g["name"]: g for g in client.get("/api/meta").json()["games"]}
    specs = {a["spec"] for a in games["thrones"]["agents"]}
    assert {"ppo:pretrained", "ppo-search:pretrained"} <= specs
    assert not {s for s in specs if s.startswith("ppo") and s.endswith(".zip")}
    pig = {a["spec"] for a in games["pig"]["agents"]}
    assert not {s for s in pig if s.startswith("ppo")}  # pig ships none
    assert "vigtavl" not in {g for g in games if shipped_kinds(g)}  # its networks play at /api/games


@needs_thrones_model
@pytest.mark.parametrize("spec", ["ppo:pretrained", f"ppo-search:pretrained:{MAX_WEB_SIMULATIONS}"])
def test_a_game_against_the_shipped_network_starts_and_its_agent_moves(client, spec) -> None:
    r = start(client, [spec, "random"], seed=5)
    assert r.status_code == 200, r.text
    key = r.json()["id"]
    for _ in range(400):  # the agents think on the server's pool: advance until they have moved
        view = client.post(f"/api/play/{key}/advance")
        assert view.status_code == 200, view.text
        if view.json()["moves"]:
            break
    assert view.json()["moves"]


@pytest.mark.parametrize("spec", ["ppo:/etc/passwd", "ppo:agents/pretrained/thrones/thrones_ppo.zip",
                                  "ppo-search:pretrained:17", "ppo-search:pretrained:0", "ppo:pretrained:3",
                                  "ppo-search:pretrained:x", "ppo-search:../../x.zip:4"])
def test_a_model_file_or_a_search_past_the_bound_is_refused_in_one_line(client, spec) -> None:
    r = start(client, ["human", spec])
    assert r.status_code == 400, r.text
    assert "\n" not in r.json()["error"] and "Traceback" not in r.json()["error"]


def test_without_the_installed_file_the_network_is_neither_offered_nor_taken(client, tmp_path, monkeypatch) -> None:
    monkeypatch.setattr(shipped_files, "PRETRAINED_DIR", tmp_path)
    assert not shipped_kinds("thrones")
    assert not {a["spec"] for a in agent_menu("thrones") if a["spec"].startswith("ppo")}
    r = start(client, ["human", "ppo:pretrained"])
    assert r.status_code == 400 and "\n" not in r.json()["error"]
