"""The web API fuzzed from its own OpenAPI schema: no request gets a 5xx, and none hangs.

Hypothesis draws, for every operation the app's schema lists (``app.openapi()``), its path and
query parameters and its JSON body: values of the schema's types and bounds, values just past
them, values of every other JSON type, and the ids of a live game and an opened replay that
exist, so that the requests reach past the 404s. Raw addresses and methods are drawn too. Each
answer must be below 500 with a one-line ``{"error": ...}`` when it refuses, and must come within
:data:`DEADLINE_S`. The examples are few and derandomized: the same requests on every run, a
few seconds in CI.
"""

from __future__ import annotations

import json
import string
from concurrent.futures import ThreadPoolExecutor
from typing import Any
from urllib.parse import quote

import pytest
from fastapi.testclient import TestClient
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from arena.vigtavl_match import run_match
from webapp.any_routes import router as any_router
from webapp.server import UPLOAD_PATH, create_app, router

LOCAL = "http://127.0.0.1:8000"
DEADLINE_S = 15  # an answer later than this is a hang
EXAMPLES = 80  # per operation, and for raw addresses 4 times as many
HEALTH = [HealthCheck.too_slow, HealthCheck.function_scoped_fixture, HealthCheck.data_too_large]
PER_OPERATION = settings(max_examples=EXAMPLES, deadline=None, derandomize=True, database=None,
                         suppress_health_check=HEALTH)
FUZZ = settings(PER_OPERATION, max_examples=4 * EXAMPLES)
URL_TEXT = st.text(st.characters(codec="utf-8"), max_size=40)  # any text an address can carry
WORDS = ["human", "greedy", "random", "search", "50", "8ms", "az", "ppo", "az-search", "ppo-search", "pretrained",
         "pretrained-3p", "pretrained-4p", "sample", "", " ", "r.json", "duel", "..", ".hidden", "\ud800", "\x00"]
SPECS = st.lists(st.sampled_from(WORDS), min_size=1, max_size=4).map(":".join)  # the API's own words, recombined
TEXT = st.one_of(SPECS, st.text(max_size=40))  # JSON strings: any text, lone surrogates included (escaped)
JSON_VALUES = st.recursive(st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | TEXT,
                           lambda inner: st.lists(inner, max_size=4) | st.dictionaries(TEXT, inner, max_size=4),
                           max_leaves=12)


@pytest.fixture(scope="module")
def served(tmp_path_factory):
    """The app, a live game (hints and undo) and an opened replay in it, and its schema."""
    folder = tmp_path_factory.mktemp("results")
    run_match(["random", "random"], games=2, seed=0, workers=1, progress=False).save(folder / "r.json")
    app = create_app(results=[folder], think_ms=50)
    client = TestClient(app, base_url=LOCAL, raise_server_exceptions=False)
    game = client.post("/api/games", json={"seats": ["human", "greedy"], "seed": 1, "hints": True, "undo": True}).json()
    replay = client.post("/api/replays", json={"folder": 0, "file": "r.json"}).json()
    other = client.post("/api/play", json={"game": "thrones", "seats": ["human", "random"], "seed": 1}).json()
    pig = client.post("/api/play", json={"game": "pig", "seats": ["random", "random"], "seed": 1}).json()
    while not client.post(f"/api/play/{pig['id']}/advance?since=999").json()["over"]:
        pass
    pig_replay = client.post(f"/api/play/{pig['id']}/replay").json()
    ids = {"games": {"key": [game["id"]]}, "replays": {"key": [replay["id"]], "number": [0, 1], "frame": [0, 1, 5]},
           "play": {"key": [other["id"], pig["id"]]}, "play-replays": {"key": [pig_replay["id"]], "frame": [0, 1, 5]},
           "file": json.loads((folder / "r.json").read_text())}
    return client, app.openapi(), ids, {"token": game.get("token", ""), "action": game["decisions"][0]["action"],
                                        "play": {"token": other["token"], "action": other["decisions"][0]["action"]}}


def resolve(schema: dict, spec: dict) -> dict:
    while "$ref" in schema:
        schema = spec["components"]["schemas"][schema["$ref"].rsplit("/", 1)[1]]
    return schema


def of_schema(schema: dict, spec: dict, depth: int = 0) -> st.SearchStrategy:
    """Values of ``schema`` (an OpenAPI 3.1 schema: refs, anyOf, objects, arrays, scalars with
    bounds), the bounds' edges and just past them."""
    schema = resolve(schema, spec)
    if "anyOf" in schema:
        return st.one_of([of_schema(s, spec, depth) for s in schema["anyOf"]])
    kind = schema.get("type")
    if kind == "object" and depth < 3:
        props = schema.get("properties", {})
        required = set(schema.get("required", ()))
        return st.fixed_dictionaries({k: of_schema(v, spec, depth + 1) for k, v in props.items() if k in required},
                                     optional={k: of_schema(v, spec, depth + 1) for k, v in props.items()
                                               if k not in required})
    if kind == "array" and depth < 3:
        return st.lists(of_schema(schema.get("items", {}), spec, depth + 1), max_size=6)
    if kind == "integer":
        low, high = schema.get("minimum", schema.get("exclusiveMinimum")), schema.get("maximum", schema.get("exclusiveMaximum"))
        edges = [x + d for x in (low, high) if x is not None for d in (-1, 0, 1)]
        return st.integers(min_value=-10, max_value=400) | st.sampled_from(edges or [0]) | st.integers()
    if kind == "boolean":
        return st.booleans()
    if kind == "string":
        return TEXT
    return JSON_VALUES


def url_value(schema: dict, spec: dict) -> st.SearchStrategy:
    """A path or query parameter's value: of its schema, or any text an address carries."""
    return st.one_of(of_schema(schema, spec).filter(lambda v: not isinstance(v, str) or v.isprintable()),
                     URL_TEXT, SPECS.filter(str.isprintable))


def value_or_odd(schema: dict, spec: dict) -> st.SearchStrategy:
    """Mostly the schema's values; sometimes any JSON value at all."""
    return st.one_of(of_schema(schema, spec), of_schema(schema, spec), JSON_VALUES)


def damaged(results: dict) -> st.SearchStrategy:
    """A real results file with one field of its first game, or of the file, given another
    value (any JSON: text with lone surrogates, another player count, another shape)."""
    game = results["games"][0]

    def change(where: str, key: str, value: Any) -> bytes:
        data = {**results, "games": [dict(game)]}
        (data["games"][0] if where == "game" else data)[key] = value
        return json.dumps(data).encode()
    keys = st.sampled_from([("game", k) for k in game] + [("game", "\ud800")] + [("file", k) for k in results])
    return st.builds(lambda wk, v: change(*wk, v), keys,
                     JSON_VALUES | st.lists(TEXT, min_size=1, max_size=5) | st.integers(-1, 6))


def operations(spec: dict) -> list[tuple[str, str, dict]]:
    return [(method.upper(), path, op) for path, ops in sorted(spec["paths"].items())
            for method, op in sorted(ops.items())]


def as_param(value: Any) -> str:
    return quote(value if isinstance(value, str) else json.dumps(value), safe="")


@st.composite
def requests(draw, spec: dict, ids: dict, owner: dict, which: tuple[str, str]) -> tuple[str, str, dict]:
    method, path = which
    op = spec["paths"][path][method.lower()]
    owner = owner["play"] if path.startswith("/api/play/") else owner  # that game's token and a legal decision
    params, known = {}, ids.get(path.split("/")[2], {})  # the ids of the game or the replay
    for p in op.get("parameters", []):
        if p["in"] == "path" or draw(st.booleans()):
            odd = url_value(p.get("schema", {}), spec)
            good = st.sampled_from(known[p["name"]]) if p["name"] in known else odd
            params[p["name"]] = (p["in"], draw(st.one_of(good, good, good, odd)))
    url = path
    for name, (where, value) in params.items():
        url = url.replace("{" + name + "}", as_param(value)) if where == "path" else url
    query = "&".join(f"{n}={as_param(v)}" for n, (where, v) in params.items() if where == "query")
    kwargs: dict = {}
    body = op.get("requestBody", {}).get("content", {}).get("application/json", {}).get("schema")
    if body is not None:
        kwargs["content"] = json.dumps(draw(value_or_odd(body, spec) | st.just({"action": owner["action"]})))
        kwargs["headers"] = {"Content-Type": "application/json"}
    elif path == UPLOAD_PATH:
        kwargs["content"] = draw(st.binary(max_size=200) | JSON_VALUES.map(lambda v: json.dumps(v).encode())
                                 | damaged(ids["file"]) | damaged(ids["file"]))
    if draw(st.booleans()):
        kwargs.setdefault("headers", {})["X-Game-Token"] = owner["token"]
    return method, url + (f"?{query}" if query else ""), kwargs


def answered(client: TestClient, method: str, url: str, **kwargs):
    with ThreadPoolExecutor(1) as pool:
        future = pool.submit(client.request, method, url, **kwargs)
        return future.result(timeout=DEADLINE_S)


def check(r, seen: dict | None = None) -> None:
    assert r.status_code < 500, (r.request.method, str(r.request.url)[:200], r.status_code, r.text[:300])
    if r.status_code >= 400 and r.request.method != "HEAD" and r.headers.get("content-type", "").startswith("application/json"):
        error = r.json()["error"]
        assert isinstance(error, str) and "\n" not in error and "Traceback" not in error


OPERATIONS = sorted((method, route.path) for route in [*router.routes, *any_router.routes] if route.include_in_schema
                    for method in route.methods)


def test_the_schema_lists_every_route(served):
    assert {(m, p) for m, p, _ in operations(served[1])} == set(OPERATIONS) and len(OPERATIONS) >= 15


@pytest.mark.parametrize("method,path", OPERATIONS)
def test_every_operation_of_the_schema_answers_below_500(served, method, path):
    client, spec, ids, owner = served

    @PER_OPERATION
    @given(st.data())
    def fuzz(data):
        method_, url, kwargs = data.draw(requests(spec, ids, owner, (method, path)))
        check(answered(client, method_, url, **kwargs))
    fuzz()


ADDRESS_PARTS = st.sampled_from(["api", "games", "replays", "static", "files", "meta", "..", ".", "%2e%2e", "%00",
                                 "frames", "analysis", "index.html", "main.js", "", "%ff", "%ed%a0%80"])


@FUZZ
@given(method=st.sampled_from(["GET", "HEAD", "POST", "PUT", "DELETE", "OPTIONS", "PATCH"]),
       parts=st.lists(ADDRESS_PARTS | st.text(string.printable, max_size=8).map(lambda t: quote(t, safe="")),
                      max_size=6),
       body=st.binary(max_size=64))
def test_any_address_and_method_answers_below_500(served, method, parts, body):
    client = served[0]
    check(answered(client, method, LOCAL + "/" + "/".join(parts), content=body if method not in ("GET", "HEAD") else None))
