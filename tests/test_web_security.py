"""``vigtavl serve`` on a network: each attack made on the server before, as a test.

A pickle loaded through a ``pretrained/..`` path, a map read from any file, an agent thinking
without end and the requests held up behind it, a server that would not stop, caches that grew
without bound, live games dropped for others, odd input answered 500, any Host and any origin:
each is refused now, and each test fails on the server as it was (checked by running them on
the previous commit).
"""

from __future__ import annotations

import base64
import json
import os
import pickle
import signal
import subprocess
import sys
import time
import urllib.error
import urllib.request
import zipfile
from concurrent.futures import Future, ThreadPoolExecutor
from dataclasses import replace
from pathlib import Path

import pytest
from fastapi.testclient import TestClient

from arena.vigtavl_match import run_match
from webapp.guards import UNKNOWN_MAP, ModelGuard
from webapp.server import MAX_UPLOAD, UPLOAD_PATH, create_app
from webapp.store import Limits, Store, live_bytes, live_game_bytes, replay_bytes, replay_game_bytes
from vigtavl_env.engine.maps import format_map, load_map

LOCAL = "http://127.0.0.1:8000"
DUEL_HEXES = load_map("duel").board.n_cells


def local(app) -> TestClient:
    return TestClient(app, base_url=LOCAL)


def one_line_error(r, status: int) -> str:
    assert r.status_code == status, (r.status_code, r.text)
    error = r.json()["error"]
    assert "\n" not in error and "Traceback" not in error
    return error


@pytest.fixture(scope="module")
def results_dir(tmp_path_factory):
    folder = tmp_path_factory.mktemp("results")
    run_match(["random", "random"], games=12, seed=0, workers=1, progress=False).save(folder / "r12.json")
    return folder


@pytest.fixture(scope="module")
def client(results_dir):
    return local(create_app(results=[results_dir], think_ms=300))


def start(client, seats, **body):
    r = client.post("/api/games", json={"seats": seats, "seed": 1, **body})
    assert r.status_code == 200, r.text
    return r.json()


# -------------------------------------------------------------------- 1. model files are pickles
class Pwn:
    """Unpickled, it writes its marker file: the proof that a pickle ran."""

    def __init__(self, marker: Path) -> None:
        self.marker = marker

    def __reduce__(self):
        return Path.write_text, (self.marker, "pwned")


def evil_model(path: Path, marker: Path) -> None:
    """An SB3-shaped zip whose saved spaces are a pickle (read before any check of the file)."""
    space = {":type:": "<class 'gymnasium.spaces.box.Box'>",
             ":serialized:": base64.b64encode(pickle.dumps(Pwn(marker))).decode()}
    path.parent.mkdir(parents=True, exist_ok=True)
    with zipfile.ZipFile(path, "w") as z:
        z.writestr("data", json.dumps({"observation_space": space, "action_space": space}))


@pytest.mark.parametrize("spec", ["ppo:pretrained/../evil/pwn.zip", "ppo-search:pretrained/../evil/pwn.zip:5",
                                  "ppo:pretrained-3p/../evil/pwn.zip:sample", "ppo:./evil/pwn.zip"])
def test_a_model_path_through_a_pretrained_folder_is_refused_and_never_opened(tmp_path, monkeypatch, spec):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "pretrained").mkdir()
    (tmp_path / "pretrained-3p").mkdir()
    marker = tmp_path / "marker"
    evil_model(tmp_path / "evil" / "pwn.zip", marker)
    r = local(create_app()).post("/api/games", json={"seats": ["human", spec]})
    assert not marker.exists(), "the pickle ran"
    assert "only the model files named" in one_line_error(r, 400)


def test_the_model_guard_resolves_real_paths(tmp_path, monkeypatch):
    import agents.ppo
    monkeypatch.setattr(agents.ppo, "PRETRAINED_PATH", tmp_path / "shipped" / "vigtavl_ppo.zip")  # never opened here
    agents.ppo.PRETRAINED_PATH.parent.mkdir()
    agents.ppo.PRETRAINED_PATH.write_bytes(b"x")
    named = tmp_path / "runs" / "m.zip"
    named.parent.mkdir()
    named.write_bytes(b"x")
    (tmp_path / "link.zip").symlink_to(named)
    guard = ModelGuard([named])
    real = os.path.realpath(named)
    assert guard.check(f"ppo:{tmp_path}/runs/../runs/m.zip:sample") == f"ppo:{real}:sample"
    assert guard.check(f"ppo-search:{tmp_path / 'link.zip'}:20:v2") == f"ppo-search:{real}:20:v2"
    assert guard.check("ppo:pretrained") == "ppo:pretrained" and guard.check("greedy") == "greedy"
    for spec in (f"ppo:{tmp_path}/pretrained/../other.zip", "ppo:pretrained/x.zip", "ppo:/etc/passwd"):
        with pytest.raises(Exception, match="only the model files named"):
            guard.check(spec)


def test_a_shipped_model_not_installed_is_refused_and_never_looked_for_elsewhere(tmp_path, monkeypatch):
    import agents.ppo
    monkeypatch.chdir(tmp_path)
    monkeypatch.setattr(agents.ppo, "PRETRAINED_PATH", tmp_path / "gone" / "vigtavl_ppo.zip")
    monkeypatch.setattr(agents.ppo, "PRETRAINED_3P_PATH", tmp_path / "gone" / "vigtavl_ppo_3p.zip")
    monkeypatch.setattr(agents.ppo, "PRETRAINED_4P_PATH", tmp_path / "gone" / "vigtavl_ppo_4p.zip")
    marker = tmp_path / "marker"
    evil_model(tmp_path / "pretrained-3p", marker)  # where a fallback to a relative path would look
    evil_model(tmp_path / "pretrained-4p", marker)
    evil_model(tmp_path / "pretrained", marker)
    for spec in ("ppo:pretrained", "ppo:pretrained-3p", "ppo-search:pretrained-3p:5", "ppo:pretrained-4p"):
        with pytest.raises(Exception, match="does not exist yet"):
            ModelGuard().check(spec)
        seats = (["human", "greedy", spec] if "3p" in spec else ["human", "greedy", "greedy", spec] if "4p" in spec
                 else ["human", spec])
        r = local(create_app()).post("/api/games", json={"seats": seats})
        assert "does not exist yet" in one_line_error(r, 400)
    assert not marker.exists(), "the pickle ran"
    from webapp.guards import SHIPPED_MODELS
    assert SHIPPED_MODELS == tuple(agents.ppo.shipped_paths())  # the guard's torch-free list, kept in step


def test_the_az_agents_shipped_model_is_their_own_and_for_two_players_only(tmp_path, monkeypatch):
    import agents.az
    for spec in ("az:pretrained-3p", "az-search:pretrained-4p:8"):
        with pytest.raises(Exception, match="has no shipped pretrained-"):
            ModelGuard().check(spec)
    assert ModelGuard().check("az-search:pretrained:8:50ms") == "az-search:pretrained:8:50ms"
    client = local(create_app(think_ms=300))
    game = start(client, ["az-search:pretrained", "human"])
    assert game["seats"][0] == "az-search:pretrained:24:300ms" and game["status"]["to_act"] == 0
    moved = client.post(f"/api/games/{game['id']}/advance").json()
    assert moved["status"]["to_act"] == 1  # the search loaded its freighters within the cap
    menu = {a["spec"] for a in client.get("/api/meta").json()["agents"]}
    assert {"az:pretrained", "az-search:pretrained"} <= menu
    # the check looks at the az file, not the PPO one of the same name
    monkeypatch.setattr(agents.az, "PRETRAINED_PATH", tmp_path / "gone" / "vigtavl_az.pt")
    r = local(create_app()).post("/api/games", json={"seats": ["human", "az-search:pretrained"]})
    assert "does not exist yet" in one_line_error(r, 400)
    assert ModelGuard().check("ppo:pretrained") == "ppo:pretrained"


# -------------------------------------------------------------------- 2. maps: presets and named folders
def test_a_map_outside_the_maps_folders_gets_the_same_answer_whether_or_not_it_exists(tmp_path):
    maps, outside = tmp_path / "maps", tmp_path / "outside"
    maps.mkdir(), outside.mkdir()
    (outside / "real.txt").write_text(format_map(load_map("duel")))
    (maps / "link.txt").symlink_to(outside / "real.txt")
    client = local(create_app(maps=[maps]))
    answers = set()
    for name in ("/etc/passwd", "/etc/no-such-file", "../outside/real.txt", "../outside/missing.txt",
                 "link.txt", str(outside / "real.txt"), "duel.txt", "a" * 150 + ".txt"):
        r = client.post("/api/games", json={"seats": ["human", "greedy"], "map": name})
        answers.add((r.status_code, r.json()["error"]))
    assert answers == {(400, UNKNOWN_MAP)}
    assert "root" not in UNKNOWN_MAP


def test_a_map_inside_a_maps_folder_is_played_and_a_bad_one_is_not_quoted(tmp_path):
    maps = tmp_path / "maps"
    (maps / "sub").mkdir(parents=True)
    (maps / "sub" / "mine.txt").write_text(format_map(load_map("duel")).replace("name: duel", "name: mine"))
    (maps / "bad.txt").write_text("root:x:0:0:root:/root:/bin/bash\n")
    client = local(create_app(maps=[maps]))
    listed = {m["name"]: m["players"] for m in client.get("/api/meta").json()["maps"]}
    assert listed["sub/mine.txt"] == 2 and "bad.txt" not in listed and "duel" in listed
    game = start(client, ["human", "greedy"], map="sub/mine.txt")
    assert game["status"]["map"] == "mine"
    opened = client.post(f"/api/games/{game['id']}/replay").json()  # the map travels as text
    assert client.get(f"/api/replays/{opened['id']}/games/0").status_code == 200
    error = one_line_error(client.post("/api/games", json={"seats": ["human", "greedy"], "map": "bad.txt"}), 400)
    assert "bad.txt" in error and "root" not in error and "line 1" in error


def test_a_results_file_naming_a_file_as_its_map_is_refused_unread(client, results_dir):
    data = json.loads((results_dir / "r12.json").read_text())
    data["games"] = data["games"][:1]
    data["games"][0].update(map="/etc/passwd", map_text=None)
    error = one_line_error(client.post(f"{UPLOAD_PATH}?name=x.json", content=json.dumps(data)), 400)
    assert "not a preset" in error and "root" not in error


# -------------------------------------------------------------------- 3. agents' time, and nothing waits on it
@pytest.mark.parametrize("spec,words", [
    ("search:99999999ms", "at most 300ms"),
    ("search:50:301ms", "at most 300ms"),
    ("ppo-search:pretrained:5:9999ms", "at most 300ms"),
    ("search:infms", "bad search budget"),
    ("search:nanms", "bad search budget"),
    ("search:-5ms", "bad search budget"),
    ("az-search:pretrained:24:9999ms", "at most 300ms"),
    ("az-search:pretrained:xms", "bad az-search budget"),
    ("az-search:pretrained:0", "bad az-search budget"),
])
def test_an_agent_over_the_time_cap_is_refused(client, spec, words):
    assert words in one_line_error(client.post("/api/games", json={"seats": ["human", spec]}), 400)


@pytest.mark.parametrize("spec,runs", [
    ("search", "search:8:300ms"),
    ("search:99999999", "search:99999999:300ms"),
    ("search:50:100ms", "search:50:100ms"),
    ("greedy", "greedy"),
    ("az-search:pretrained", "az-search:pretrained:24:300ms"),
    ("az-search:pretrained:99999", "az-search:pretrained:99999:300ms"),
    ("az-search:pretrained:8:50ms", "az-search:pretrained:8:50ms"),
])
def test_every_search_gets_a_time_limit_within_the_cap(client, spec, runs):
    from agents.heuristic.search import DEFAULT_ITERATIONS
    runs = runs.replace("search:8:", f"search:{DEFAULT_ITERATIONS}:")
    game = start(client, ["human", spec])
    assert game["seats"][1] == runs
    agent = client.app.state.store.game(game["id"]).players[1]
    assert getattr(agent, "ms", 0) is None or getattr(agent, "ms", 0) <= 300


def test_an_installed_packages_agent_is_refused(client, monkeypatch):
    from vigtavl_env import agent as registry
    monkeypatch.setitem(registry._registered, "slowpoke", lambda spec, seed: None)
    assert "only its own agents" in one_line_error(client.post("/api/games", json={"seats": ["human", "slowpoke"]}), 400)


SLOW_SERVER = """
import sys, time
from webapp.sessions import LiveGame
think, seconds = LiveGame.think, float(sys.argv[1])

def slow(self, t):  # Python work holding the GIL, as a search does, for the agent's whole budget
    end = time.perf_counter() + seconds
    while time.perf_counter() < end:
        sum(range(1000))
    return think(self, t)

LiveGame.think = slow
from vigtavl.cli import main
main(["serve", "--port", "0", "--think-ms", str(int(seconds * 1000))])
"""


class SlowServer:
    """``vigtavl serve`` in its own process, its agents thinking ``seconds`` per decision."""

    def __init__(self, seconds: float) -> None:
        env = {**os.environ, "PYTHONUNBUFFERED": "1", "PYTHONWARNINGS": "ignore"}
        self.proc = subprocess.Popen([sys.executable, "-c", SLOW_SERVER, str(seconds)], stdout=subprocess.PIPE,
                                     stderr=subprocess.STDOUT, env=env, text=True)
        line = self.proc.stdout.readline()
        assert " is at " in line, line + self.proc.stdout.read()
        self.url = line.split(" is at ")[1].split()[0].rstrip("/")

    def call(self, method: str, path: str, body: dict | None = None, timeout: float = 60) -> tuple[int, dict, float]:
        data = None if body is None else json.dumps(body).encode()
        req = urllib.request.Request(self.url + path, data=data if method == "POST" else None, method=method,
                                     headers={"Content-Type": "application/json"})
        t = time.perf_counter()
        try:
            with urllib.request.urlopen(req, timeout=timeout) as r:
                status, raw = r.status, r.read()
        except urllib.error.HTTPError as e:
            status, raw = e.code, e.read()
        return status, (json.loads(raw) if raw.startswith(b"{") else {}), time.perf_counter() - t

    def thinking_game(self) -> tuple[str, Future]:
        """A watched game whose agent thinks now; the advance that waits for it."""
        path = f"/api/games/{self.call('POST', '/api/games', {'seats': ['greedy', 'greedy'], 'seed': 1})[1]['id']}"
        waiting = ThreadPoolExecutor(1).submit(self._quietly, "POST", path + "/advance")
        deadline = time.time() + 20
        while True:
            try:
                if self.call("GET", path, timeout=1)[1].get("thinking"):
                    break
            except (TimeoutError, urllib.error.URLError):  # a server whose views wait for the agent: it thinks
                break
            assert time.time() < deadline, "the agent never started thinking"
            time.sleep(0.05)
        return path, waiting

    def _quietly(self, *args):
        try:
            return self.call(*args)
        except OSError:  # the server went away
            return None

    def close(self) -> None:
        self.proc.kill()
        self.proc.wait()


def test_meta_answers_at_once_while_an_agent_thinks_at_its_cap_and_45_requests_wait_on_its_game():
    cap = 3.0
    server = SlowServer(cap)
    try:
        path, waiting = server.thinking_game()
        with ThreadPoolExecutor(45) as pool:  # the requests that once took every worker
            crowd = [pool.submit(server.call, "POST" if i % 2 else "GET", path + ("/advance" if i % 2 else ""))
                     for i in range(45)]
            meta, static = server.call("GET", "/api/meta"), server.call("GET", "/static/style.css")
            answers = [f.result() for f in crowd]
        moved = waiting.result()
    finally:
        server.close()
    print(f"/api/meta {meta[2] * 1000:.0f} ms, style.css {static[2] * 1000:.0f} ms, the 45 at most "
          f"{max(a[2] for a in answers) * 1000:.0f} ms, while an agent thinks {cap:.0f} s")
    assert meta[0] == 200 and meta[2] < 1.0 and static[0] == 200 and static[2] < 1.0
    assert all(a[0] == 200 and a[1]["thinking"] and a[1]["decisions_made"] == 0 for a in answers)
    assert all(not a[1].get("advanced") and a[2] < cap for a in answers)  # none waited for the think
    assert moved[0] == 200 and moved[1]["advanced"] and moved[1]["decisions_made"] == 1


def test_the_server_stops_at_once_on_sigterm_while_an_agent_thinks():
    server = SlowServer(60.0)
    try:
        server.thinking_game()
        t = time.perf_counter()
        server.proc.send_signal(signal.SIGTERM)
        server.proc.wait(timeout=10)
        took = time.perf_counter() - t
    finally:
        server.close()
    print(f"stopped {took:.2f} s after SIGTERM")
    assert took < 3.0


# -------------------------------------------------------------------- 4. bounded memory
class Clock:
    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


def store_app(limits: Limits, clock: Clock, **kwargs):
    app = create_app(limits=limits, **kwargs)
    app.state.store = Store(limits, clock)
    return app


def test_a_live_game_in_play_is_never_dropped_for_another(monkeypatch):
    clock = Clock()
    client = local(store_app(Limits(live_games=2, idle_s=60), clock))
    first, second = start(client, ["human", "greedy"]), start(client, ["human", "greedy"])
    error = one_line_error(client.post("/api/games", json={"seats": ["human", "greedy"]}), 503)
    assert "the server is full" in error
    clock.now += 30
    assert client.get(f"/api/games/{first['id']}").status_code == 200  # the person plays on
    clock.now += 40  # the second has been idle 70 s, the first 40 s
    third = start(client, ["human", "greedy"])
    assert client.get(f"/api/games/{second['id']}").status_code == 404
    assert client.get(f"/api/games/{first['id']}").status_code == 200
    store = client.app.state.store
    store.game(third["id"]).thinking = Future()  # an agent thinks: not idle, however long untouched
    clock.now += 1000
    store.game(first["id"])
    clock.now += 100  # the first idle 100 s, the third 1100 s but thinking
    fourth = start(client, ["human", "greedy"])
    assert set(store.games.items) == {third["id"], fourth["id"]}


def test_the_live_games_are_bounded_in_bytes():
    clock = Clock()
    limits = Limits(live_bytes=3 * live_bytes(DUEL_HEXES, 0, ["greedy"]), idle_s=60)
    client = local(store_app(limits, clock))
    keys = [start(client, ["human", "greedy"])["id"] for _ in range(3)]
    assert client.post("/api/games", json={"seats": ["human", "greedy"]}).status_code == 503
    clock.now += 61
    client.get(f"/api/games/{keys[0]}")
    keys.append(start(client, ["human", "greedy"])["id"])
    store = client.app.state.store
    assert list(store.games.items) == [keys[2], keys[0], keys[3]] and store.games.total() <= limits.live_bytes


def test_rebuilt_replay_games_are_bounded_and_the_least_recently_used_go_first(results_dir):
    limits = Limits(rebuilt_bytes=3 * replay_bytes(DUEL_HEXES, 160, own_map=False))  # 3 of its games, not 4
    client = local(store_app(limits, Clock(), results=[results_dir]))
    opened = client.post("/api/replays", json={"folder": 0, "file": "r12.json"}).json()
    key, store = opened["id"], client.app.state.store
    for g in (0, 1, 2, 0, 3, 4):
        assert client.get(f"/api/replays/{key}/games/{g}/frames/1").status_code == 200
        assert store.rebuilt.total() <= limits.rebuilt_bytes
    kept = [g for _, g in store.rebuilt.items]
    assert 4 in kept and 1 not in kept and kept.index(0) < kept.index(4)
    assert client.get(f"/api/replays/{key}/games/1/frames/5").status_code == 200  # rebuilt again


def test_opened_results_files_are_bounded_in_bytes_least_recently_used_first(results_dir):
    size = (results_dir / "r12.json").stat().st_size
    from webapp.store import RECORD_BYTES_PER_JSON_BYTE
    limits = Limits(replay_bytes=int(2.5 * size * RECORD_BYTES_PER_JSON_BYTE), replays=100)
    client = local(store_app(limits, Clock(), results=[results_dir]))
    keys = [client.post("/api/replays", json={"folder": 0, "file": "r12.json"}).json()["id"] for _ in range(2)]
    client.get(f"/api/replays/{keys[1]}/games/0")  # builds one, in the rebuilt games
    client.get(f"/api/replays/{keys[0]}")
    keys.append(client.post("/api/replays", json={"folder": 0, "file": "r12.json"}).json()["id"])
    store = client.app.state.store
    assert list(store.replays.items) == [keys[0], keys[2]]
    assert client.get(f"/api/replays/{keys[1]}").status_code == 404
    assert all(k != keys[1] for k, _ in store.rebuilt.items)  # its rebuilt games went with it
    small = local(store_app(Limits(replay_bytes=size), Clock(), results=[results_dir]))
    assert "too large to keep" in one_line_error(small.post("/api/replays", json={"folder": 0, "file": "r12.json"}), 413)


def test_an_opened_results_files_estimate_is_within_a_factor_of_two_of_what_it_holds(results_dir):
    from webapp.replays import ReplayFile, parse_results, read_results
    from tools.web_memory import held
    body = (results_dir / "r12.json").read_bytes()
    opened, size = held(lambda: ReplayFile(read_results(parse_results(body, "r"), "r"), "r", len(body)))
    assert 0.5 < opened.nbytes / size < 2, (opened.nbytes, size)


@pytest.mark.parametrize("seats", [["random"] * 2, ["random"] * 3, ["random"] * 4, ["greedy", "aggressor"]])
def test_a_long_games_estimates_are_never_below_what_it_holds(seats):
    """A game played to the end by bots, live and then rebuilt for replay: each estimate is at
    least what the game holds (tracemalloc), and at most twice it. The one-time tables every
    game shares are made first (a game of the same seats, a few decisions)."""
    from webapp.replays import ReplayGame
    from webapp.sessions import LiveGame
    from tools.web_memory import WARM_UP_DECISIONS, held
    warm = LiveGame(seats, seed=0)
    for _ in range(WARM_UP_DECISIONS):
        warm.advance()
    ReplayGame(warm.record())  # the game interface's tables for this board (its action codec)

    def played():
        game = LiveGame(seats, seed=1)
        while game.advance():
            pass
        game.view(0)
        return game
    game, size = held(played)
    assert game.over and len(game.decisions) > 100
    assert size <= live_game_bytes(game) <= 2 * size, (live_game_bytes(game), size)
    record = game.record()
    replay, size = held(lambda: ReplayGame(record))
    assert size <= replay_game_bytes(replay) <= 2 * size, (replay_game_bytes(replay), size)


def test_a_search_bots_caches_are_counted_from_its_first_decisions():
    """A search bot's caches fill within a few dozen decisions (bounded, then kept: 8-14 MB on
    the duel map): a game with one is estimated at their full size from the start, never below
    what it holds. Two simulations a decision, 20 decisions: its first turns' searches."""
    from webapp.sessions import LiveGame
    from tools.web_memory import held
    seats = ["search:2", "random"]
    LiveGame(seats, seed=0).advance()

    def played():
        game = LiveGame(seats, seed=1)
        for _ in range(20):
            game.advance()
        return game
    game, size = held(played)
    assert size <= live_game_bytes(game), (live_game_bytes(game), size)


# -------------------------------------------------------------------- 5. odd input is a 4xx
DEEP = b'{"schema": "vigtavl-results", "version": "vigtavl_v2", "games": [' + b"[" * 100_000 + b"]" * 100_000 + b"]}"


@pytest.mark.parametrize("method,url,kwargs", [
    ("post", "/api/replays", {"json": {"folder": 0, "file": "a\x00b.json"}}),
    ("post", "/api/replays", {"json": {"folder": 0, "file": "x" * 5000}}),
    ("post", "/api/replays", {"json": {"folder": -1, "file": "r12.json"}}),
    ("post", "/api/replays", {"json": {"folder": 10 ** 30, "file": "r12.json"}}),
    ("post", f"{UPLOAD_PATH}?name=a%00b", {"content": b"{}"}),
    ("post", UPLOAD_PATH, {"content": DEEP}),
    ("post", UPLOAD_PATH, {"content": b"[" * 100_000}),
    ("post", UPLOAD_PATH, {"content": b'{"a": ' + b"{" * 50_000}),
    ("post", UPLOAD_PATH, {"content": b'{"schema": "vigtavl-results", "version": "vigtavl_v2", "games": [{"game": {}}]}'}),
    ("post", "/api/games", {"json": {"seats": ["human", "greedy"], "map": "a\x00b"}}),
    ("post", "/api/games", {"json": {"seats": ["human", "gre\x00edy"]}}),
    ("post", "/api/games", {"json": {"seats": ["human", "ppo:a\x00b"]}}),
    ("post", "/api/games", {"json": {"seats": ["human", "greedy"], "seed": 10 ** 40}}),
    ("post", "/api/games", {"json": {"seats": ["human", "greedy"], "seed": -1}}),
    ("post", "/api/games", {"json": {"seats": ["human"] * 1000}}),
    ("post", "/api/games", {"json": {"seats": [["human"], {"a": 1}]}}),
    ("post", "/api/games", {"content": b"[" * 30_000, "headers": {"Content-Type": "application/json"}}),
    ("get", "/api/games/a%00b", {}),
    ("get", "/static/a%00b.js", {}),
    ("get", "/api/replays/x/games/99999999999999999999999", {}),
])
def test_malformed_input_of_every_kind_is_a_4xx(results_dir, method, url, kwargs):
    client = TestClient(create_app(results=[results_dir]), base_url=LOCAL, raise_server_exceptions=False)
    r = getattr(client, method)(url, **kwargs)
    assert 400 <= r.status_code < 500, (r.status_code, r.text[:200])
    assert "Traceback" not in r.text and "\n" not in r.json()["error"]


def test_a_broken_uploaded_record_of_any_shape_is_a_4xx(client, results_dir):
    good = json.loads((results_dir / "r12.json").read_text())["games"][0]
    for field, value in [("decisions", "abc"), ("decisions", [10 ** 12]), ("decisions", [None]), ("rules", {"x": 1}),
                         ("rules", []), ("map_text", "~ ~\n"), ("seats", 7), ("num_players", 9), ("game_seed", -1),
                         ("game", [1]), ("decisions", list(range(6000)))]:
        data = {"schema": "vigtavl-results", "version": "vigtavl_v2", "games": [{**good, field: value}]}
        opened = client.post(f"{UPLOAD_PATH}?name=x.json", content=json.dumps(data))
        if opened.status_code == 200:
            r = client.get(f"/api/replays/{opened.json()['id']}/games/{good['game']}")
            assert 400 <= r.status_code < 500, (field, r.status_code, r.text[:200])
        else:
            assert 400 <= opened.status_code < 500, (field, opened.status_code, opened.text[:200])


@pytest.mark.parametrize("path,size,chunked", [
    ("/api/games", 100_000, False), ("/api/games", 100_000, True), ("/api/games/x/decide", 100_000, False),
    (UPLOAD_PATH, MAX_UPLOAD, False), (UPLOAD_PATH, MAX_UPLOAD, True),
])
def test_every_body_is_bounded_before_it_is_read(client, path, size, chunked):
    body = b'{"seats": ["' + b"x" * size + b'"]}'
    content = iter([body[i:i + (1 << 16)] for i in range(0, len(body), 1 << 16)]) if chunked else body
    r = client.post(path, content=content, headers={"Content-Type": "application/json"})
    assert "larger than" in one_line_error(r, 413)


# -------------------------------------------------------------------- 6. where a request comes from
@pytest.mark.parametrize("host", ["evil.example", "evil.example:8000", "127.0.0.1.evil.example", "localhost.:8000", ""])
@pytest.mark.parametrize("method,path", [("get", "/api/meta"), ("get", "/static/main.js"), ("get", "/"),
                                         ("post", "/api/games")])
def test_a_request_for_another_host_is_refused(client, host, method, path):
    r = getattr(client, method)(path, headers={"Host": host}, **({"json": {"seats": ["human", "greedy"]}}
                                                                 if method == "post" else {}))
    assert r.status_code in (400, 403) and r.json()["error"]


def test_the_host_names_and_the_port_once_bound(results_dir):
    app = create_app(host="0.0.0.0", allow_hosts=["vigtavl.lan"])
    client = local(app)
    for host in ("vigtavl.lan:8000", "localhost:8000", "127.0.0.1", "[::1]:8000", "VIGTAVL.LAN"):
        assert client.get("/api/meta", headers={"Host": host}).status_code == 200, host
    assert "--allow-host" in one_line_error(client.get("/api/meta", headers={"Host": "other.lan"}), 403)
    app.state.settings = replace(app.state.settings, port=8000)  # serve binds, then names its port
    assert client.get("/api/meta", headers={"Host": "localhost:8000"}).status_code == 200
    assert client.get("/api/meta", headers={"Host": "localhost:8001"}).status_code == 403
    assert local(create_app(host="192.168.1.5")).get("/api/meta", headers={"Host": "192.168.1.5:80"}).status_code == 200


@pytest.mark.parametrize("headers", [
    {"Origin": "http://evil.example"},
    {"Origin": "http://127.0.0.1:8001"},
    {"Origin": "null"},
    {"Sec-Fetch-Site": "cross-site"},
    {"Sec-Fetch-Site": "same-site", "Origin": "http://localhost:3000"},
])
def test_a_write_from_another_origin_is_refused(client, results_dir, headers):
    body = (results_dir / "r12.json").read_bytes()
    r = client.post(f"{UPLOAD_PATH}?name=x.json", content=body, headers={"Content-Type": "text/plain", **headers})
    assert "another site" in one_line_error(r, 403)
    r = client.post("/api/games", json={"seats": ["human", "greedy"]}, headers=headers)
    assert r.status_code == 403
    assert client.get("/api/meta", headers=headers).status_code == 200  # reads: the browser keeps them from the page


def test_the_pages_own_writes_pass(client, results_dir):
    own = {"Origin": LOCAL, "Sec-Fetch-Site": "same-origin"}
    r = client.post(f"{UPLOAD_PATH}?name=x.json", content=(results_dir / "r12.json").read_bytes(), headers=own)
    assert r.status_code == 200
    assert client.post("/api/games", json={"seats": ["human", "greedy"]}, headers=own).status_code == 200


# -------------------------------------------------------------------- the command line
@pytest.mark.parametrize("args,words", [
    (["--think-ms", "0"], "--think-ms"),
    (["--maps", "/no/such/folder"], "does not exist"),
])
def test_serve_refuses_bad_options_in_one_line(capsys, args, words):
    from vigtavl.cli import main
    try:
        status = main(["serve", *args])
    except SystemExit as stop:
        status = stop.code
    assert status == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert words in err[-1] and "Traceback" not in "".join(err)


# -------------------------------------------------------------------- 7. round two (issue 60): errors, ids, frames
SURROGATE = "\ud800"  # a lone surrogate: valid in JSON text as an escape, never encodable as UTF-8


def one_game(results_dir: Path, **change) -> str:
    data = json.loads((results_dir / "r12.json").read_text())
    data["games"] = [{**data["games"][0], **change}]
    return json.dumps(data)  # ensure_ascii: a surrogate written as "\ud800", as an attacker would


def test_text_that_cannot_be_encoded_is_echoed_escaped_never_a_500(client, results_dir):
    opened = client.post(f"{UPLOAD_PATH}?name=x.json", content=one_game(results_dir, seats=[SURROGATE, "random"]))
    assert opened.status_code == 200 and opened.json()["games"][0]["seats"][0] == SURROGATE
    key = opened.json()["id"]
    for path in (f"/api/replays/{key}", f"/api/replays/{key}/games/0", f"/api/replays/{key}/games/0/frames/1"):
        assert client.get(path).status_code == 200, path
    data = json.loads(one_game(results_dir))
    data["games"][0][SURROGATE] = 1  # an unknown field, named in the refusal
    assert one_line_error(client.post(f"{UPLOAD_PATH}?name=x.json", content=json.dumps(data)), 400)
    data = json.loads(one_game(results_dir))
    data["version"] = SURROGATE
    assert one_line_error(client.post(f"{UPLOAD_PATH}?name=x.json", content=json.dumps(data)), 400)
    escaped = {"Content-Type": "application/json"}  # json.dumps writes the surrogate as its escape
    for path, body in (("/api/games", {"seats": ["human", SURROGATE]}), ("/api/replays", {"file": SURROGATE}),
                       ("/api/games", {"seats": ["human", "greedy"], "map": SURROGATE})):
        assert one_line_error(client.post(path, content=json.dumps(body), headers=escaped), 400)


def test_a_file_name_that_is_not_text_is_never_listed_or_echoed(tmp_path, results_dir):
    os.link(results_dir / "r12.json", os.path.join(bytes(tmp_path), b"\xff\xfe.json"))
    (tmp_path / "fine.json").write_bytes((results_dir / "r12.json").read_bytes())
    r = local(create_app(results=[tmp_path])).get("/api/files")
    assert r.status_code == 200 and [f["file"] for f in r.json()["files"]] == ["fine.json"]


@pytest.mark.parametrize("spec", ["az", "az:", "az: ", "az-search", "az-search:", "az-search::8", "ppo", "ppo:",
                                  "ppo:  ", "ppo-search", "ppo-search:", "ppo-search::5", "ppo::sample", "AZ:"])
def test_a_kind_that_needs_a_model_named_without_one_is_a_400(client, spec):
    assert "needs a model" in one_line_error(client.post("/api/games", json={"seats": ["human", spec]}), 400)


@pytest.mark.parametrize("seats", [
    ["human", "ppo:pretrained-4p"], ["human", "ppo:pretrained-3p"], ["human", "greedy", "ppo:pretrained"],
    ["human", "greedy", "ppo-search:pretrained-4p:5"], ["human", "greedy", "az:pretrained"],
    ["human", "greedy", "greedy", "az-search:pretrained:4"],
])
def test_a_model_for_another_player_count_is_refused_when_the_game_is_made(client, seats):
    error = one_line_error(client.post("/api/games", json={"seats": seats}), 400)
    assert f"{len(seats)}-player" in error and "Traceback" not in error


@pytest.mark.parametrize("field,value", [("seats", ["random"] * 3), ("num_players", 3), ("num_players", 4),
                                         ("tokens", [0, 0, 0]), ("agent_seeds", [1]), ("winners", [7]),
                                         ("seat_decisions", [1, 2, 3])])
def test_a_record_whose_parts_disagree_with_its_player_count_is_a_4xx(client, results_dir, field, value):
    opened = client.post(f"{UPLOAD_PATH}?name=x.json", content=one_game(results_dir, **{field: value}))
    if opened.status_code == 200:
        key = opened.json()["id"]
        for path in ("games/0", "games/0/frames/1", "games/0/frames/1/analysis"):
            r = client.get(f"/api/replays/{key}/{path}")
            assert 400 <= r.status_code < 500, (path, r.status_code, r.text[:200])
    else:
        assert "player" in one_line_error(opened, 400)


def test_every_answer_forbids_framing_and_scripts_from_other_origins(client):
    answers = [client.get("/"), client.get("/static/main.js"), client.get("/api/meta"), client.get("/api/games/nope"),
               client.get("/api/meta", headers={"Host": "evil.example"}), client.head("/"),
               client.post("/api/games", json={"seats": "x"}), client.get("/openapi.json")]
    for r in answers:
        assert r.headers["x-frame-options"] == "DENY", r.request.url
        policy = dict(p.strip().split(" ", 1) for p in r.headers["content-security-policy"].split(";") if p.strip())
        assert policy["frame-ancestors"] == "'none'" and policy["default-src"] == "'self'"
        assert "http" not in r.headers["content-security-policy"] and "unsafe" not in r.headers["content-security-policy"]
        assert r.headers["x-content-type-options"] == "nosniff"


def test_the_api_docs_load_nothing_from_another_origin(client):
    r = client.get("/api/docs")
    assert r.status_code == 404 or ("cdn" not in r.text and "https://" not in r.text)
    assert client.get("/openapi.json").json()["paths"]  # the schema itself is served


def test_a_live_games_replay_and_record_carry_no_live_id(client):
    game = start(client, ["human", "greedy"])
    replay = client.post(f"/api/games/{game['id']}/replay")
    assert replay.status_code == 200 and game["id"] not in replay.text
    assert game["id"] not in client.get(f"/api/replays/{replay.json()['id']}").text
    record = client.get(f"/api/games/{game['id']}/record")
    assert game["id"] not in record.text and game["id"] not in record.headers["content-disposition"]


def test_undo_and_a_persons_decision_need_the_games_own_token(results_dir):
    app = create_app()
    owner, stranger = local(app), local(app)
    game = start(owner, ["human", "greedy"], undo=True)
    key, action = game["id"], game["decisions"][0]["action"]
    assert "token" in one_line_error(stranger.post(f"/api/games/{key}/decide", json={"action": action}), 403)
    assert owner.post(f"/api/games/{key}/decide", json={"action": action}).status_code == 200
    assert "token" in one_line_error(stranger.post(f"/api/games/{key}/undo"), 403)
    wrong = {"X-Game-Token": game["token"][:-1] + ("A" if game["token"][-1] != "A" else "B")}
    assert one_line_error(stranger.post(f"/api/games/{key}/undo", headers=wrong), 403)
    assert stranger.get(f"/api/games/{key}").status_code == 200  # looking is not deciding
    taken = stranger.post(f"/api/games/{key}/undo", headers={"X-Game-Token": game["token"]})
    assert taken.status_code == 200 and taken.json()["taken_back"] >= 1
    assert owner.post(f"/api/games/{key}/undo").status_code == 409  # nothing left to take back: but allowed


@pytest.mark.parametrize("path", ["/", "/static/main.js", "/static/style.css", "/api/meta", "/api/files"])
def test_head_is_answered_like_get(client, path):
    head, get = client.head(path), client.get(path)
    assert head.status_code == get.status_code == 200 and head.content == b""
    assert head.headers["content-type"] == get.headers["content-type"]


SERVE = "from vigtavl.cli import main; main(['serve', '--port', '0', '--host', %r])"


@pytest.mark.parametrize("host,public", [("0.0.0.0", True), ("127.1", False), ("localhost", False)])
def test_serve_prints_an_address_that_answers_and_warns_only_when_listening_publicly(host, public):
    env = {**os.environ, "PYTHONUNBUFFERED": "1", "PYTHONWARNINGS": "ignore"}
    proc = subprocess.Popen([sys.executable, "-c", SERVE % host], stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                            env=env, text=True)
    try:
        lines = [proc.stdout.readline() for _ in range(2 + public)]
        url = lines[0].split(" is at ")[1].split()[0]
        with urllib.request.urlopen(url + "api/meta", timeout=10) as r:
            assert r.status == 200
    finally:
        proc.kill()
        lines += proc.stdout.readlines()
        proc.wait()
    assert any("anyone who reaches this machine" in line for line in lines) == public, lines
