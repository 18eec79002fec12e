"""``vigtavl serve``: the web app's HTTP side (FastAPI), over :mod:`webapp.sessions` and :mod:`webapp.replays`.

The page (``static/``: one HTML file, ES modules by what each part does, one style sheet, no
build step) calls this JSON API, the module-level :data:`router`:

- ``GET /api/meta``: maps, agents, the model files allowed, the results folders, the time an
  agent may think per decision.
- ``POST /api/games`` ``{"seats": ["human", "greedy"], "seed": 7, "map": "duel"}``: a live game
  (any seat may be ``human``; none for watching); ``GET /api/games/{id}?since=N``: its view with
  the moves (decisions, with their events) from decision N; ``POST /api/games/{id}/decide`` ``{"action": A}``: a person's
  decision; ``POST /api/games/{id}/advance``: one agent decision (while one is being thought,
  the view at once, with ``"thinking": true``); ``GET /api/games/{id}/record``: the game as a
  results file; ``POST /api/games/{id}/replay``: open it for replay. Started with ``"hints": true``,
  ``GET /api/games/{id}/hint``: what the strongest agent would decide now; with ``"undo": true``,
  ``POST /api/games/{id}/undo``: the person's last decision and the agents' answers since taken back.
  A new game's answer carries its ``token``, also set as a cookie for the game's own addresses:
  ``decide`` and ``undo`` need it (the cookie, or an ``X-Game-Token`` header); the id, which
  shows in the page's address, lets one look and ask agents to move.
- ``GET /api/files``: the results files in the folders given to ``serve``; ``POST /api/replays``
  ``{"folder": 0, "file": "results.json"}`` opens one, ``POST /api/replays/upload?name=F`` opens an
  uploaded one (the request body is the file); ``GET /api/replays/{id}``: its games;
  ``GET /api/replays/{id}/games/{g}``: a game's frames and turns; ``.../frames/{k}``: the board after
  decision k; ``.../frames/{k}/analysis``: the strongest agent's choices there and its estimate.
- Any other registered game (Thrones, Pig; Vigtavl too, through the game interface):
  ``/api/play`` and ``/api/play-replays``, :mod:`webapp.any_routes`.

Every refusal is a 4xx answer ``{"error": "one line"}``: 400 bad input (an illegal decision, a
malformed file, an unknown agent or map, a model for another player count), 403 another host,
another site's page or a decision without the game's token, 404 unknown game or file, 408 a
body too slow, 409 not now (not your decision, the game is over), 413 too large, 422 a request
of the wrong shape; 503 when the server is full or busy. Every answer is ASCII JSON (a lone
surrogate echoed as its escape), with headers that forbid framing and other origins' scripts.
The schema is ``/openapi.json``; there is no ``/api/docs`` page (Swagger's loads from a CDN).
What the server reads, runs and keeps is in docs/web.md; the checks are :mod:`webapp.guards`
and :mod:`webapp.files`, the memory :mod:`webapp.store`, the connections
:mod:`webapp.serving`.
"""

from __future__ import annotations

import asyncio
import json
import socket
from collections.abc import AsyncIterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Annotated, Any

from fastapi import APIRouter, Depends, FastAPI, Request, Response
from fastapi.concurrency import run_in_threadpool
from fastapi.responses import FileResponse
from fastapi.staticfiles import StaticFiles
from pydantic import BaseModel, Field

from webapp.access import give_token, owner
from webapp.answers import JSON, add_handlers
from webapp.any_game import games_menu
from webapp.any_routes import router as any_router
from webapp.files import folders, read_served, results_files, served_file
from webapp.guards import (
    LOOPBACK_NAMES, MAX_SEED, Gate, MapGuard, ModelGuard, WebError, check_models_fit, clean_name, host_names,
    seat_specs,
)
from webapp.replays import ReplayFile, ReplayGame, measure_parts, parse_cost, parse_results, read_results
from webapp.sessions import LiveGame
from webapp.store import Budget, Limits, Store, ThinkPool, Turns

STATIC = Path(__file__).resolve().parent / "static"
UPLOAD_PATH = "/api/replays/upload"
MAX_UPLOAD = 16 * 1024 * 1024  # a results file: about 11,000 games; parsed, about 80 MB
MAX_BODY = 64 * 1024  # any other request
DEFAULT_THINK_MS = 2000
GAMES_STARTING = 3  # games being made at once (one per client); the others wait their turn
STARTING_WAIT_S = 10.0  # past this wait for a turn, a 503


@dataclass(frozen=True)
class Settings:
    """What one server was started with: ``app.state.settings`` (the :class:`Gate` reads
    ``hosts``, ``port``, ``max_body`` and ``uploads`` on every request)."""

    results: tuple[Path, ...] = ()
    models: tuple[str, ...] = ()
    think_ms: int = DEFAULT_THINK_MS
    hosts: frozenset[str] = LOOPBACK_NAMES
    port: int | None = None  # None: any port (before serve binds, and in tests)
    max_body: int = MAX_BODY
    uploads: dict[str, int] = field(default_factory=lambda: {UPLOAD_PATH: MAX_UPLOAD})
    limits: Limits = Limits()


class NewGame(BaseModel):
    seats: list[str]
    seed: int | None = Field(default=None, ge=0, lt=MAX_SEED)
    map: str | None = None
    hints: bool = False  # the strongest agent's advice on asking (webapp.hints)
    undo: bool = False  # the person may take back his decisions


class Decision(BaseModel):
    action: int
    seat: int | None = None


class OpenFile(BaseModel):
    folder: int = 0
    file: str


router = APIRouter()


# -------------------------------------------------------------------- dependencies
async def live_game(key: str, request: Request) -> LiveGame:
    """The game named in the address (404 if unknown), not locked."""
    return request.app.state.store.game(key, LiveGame)


async def locked_game(game: Annotated[LiveGame, Depends(live_game)]) -> AsyncIterator[LiveGame]:
    """The game, its lock held until the route returns (before the answer is sent); the wait
    for the lock is on the event loop, never in a worker thread."""
    async with game.held():
        yield game


Locked = Annotated[LiveGame, Depends(locked_game, scope="function")]


async def rebuilt_game(key: str, number: int, request: Request) -> ReplayGame:
    """Game ``number`` of an opened results file, rebuilt on first use on the builders' pool; the
    requests that want it meanwhile wait for that one build on the event loop."""
    store = request.app.state.store
    store.replay(key, ReplayFile)  # another game's replay is served by webapp.any_routes
    game = store.rebuilt_game(key, number)
    if game is not None:
        return game
    building = request.app.state.building
    if (key, number) not in building:  # a few at once, on their own threads: past that, a 503
        task = asyncio.wrap_future(request.app.state.builders.submit(lambda: store.rebuild(key, number)))
        task.add_done_callback(lambda _: building.pop((key, number), None))
        building[key, number] = task
    return await asyncio.shield(building[key, number])


Rebuilt = Annotated[ReplayGame, Depends(rebuilt_game)]


Owner = Depends(owner)


async def settings_of(request: Request) -> Settings:
    return request.app.state.settings


Config = Annotated[Settings, Depends(settings_of)]


# -------------------------------------------------------------------- the page and the menus
@router.get("/", include_in_schema=False)
def index() -> FileResponse:
    return FileResponse(STATIC / "index.html")


@router.get("/api/meta")
def meta(request: Request, settings: Config) -> dict[str, Any]:
    menus = request.app.state.menus
    return {"maps": request.app.state.maps.listing(), "agents": menus["agents"], "models": list(settings.models),
            "folders": [str(f) for f in settings.results], "think_ms": settings.think_ms, "games": menus["games"]}


def _agents_menu(models: list[str]) -> list[dict[str, str]]:
    from agents.registry import AGENTS
    specs = [("human", "you, clicking on the board")]
    specs += [(name, AGENTS[name]) for name in ("random", "greedy", "aggressor", "builder")]
    specs += [("search", AGENTS["search"]), ("search:50", "the search bot at 50 simulations per decision"),
              ("ppo:pretrained", "the shipped 2-player network"),
              ("ppo:pretrained-3p", "the shipped 3-player network"),
              ("ppo:pretrained-4p", "the shipped 4-player network"),
              ("ppo-search:pretrained", AGENTS["ppo-search"]),
              ("az:pretrained", "the shipped self-taught 2-player network"),
              ("az-search:pretrained", "the shipped self-taught 2-player network in Gumbel search")]
    specs += [(f"ppo:{m}", "a model named with --model") for m in models]
    return [{"spec": s, "about": a} for s, a in specs]


# -------------------------------------------------------------------- live games
@router.post("/api/games")
async def new_game(req: NewGame, request: Request, response: Response, settings: Config) -> dict[str, Any]:
    """A new game, kept for the client that asked (its address: :meth:`Store.add_game`); its
    token goes back in the answer and in a cookie only its own game's addresses receive. Made on
    a worker thread (agents and models load), a few at once and one per client
    (:class:`webapp.store.Turns`), so that a client starting many games at once takes neither every worker
    nor every other client's turn."""
    client = request.client.host if request.client else ""
    async with request.app.state.starting.turn(client):
        return await run_in_threadpool(_new_game, req, request, response, settings, client)


def _new_game(req: NewGame, request: Request, response: Response, settings: Settings, client: str) -> dict[str, Any]:
    state = request.app.state
    seats = seat_specs(req.seats, state.models, settings.think_ms)
    game = LiveGame(seats, seed=req.seed, map=state.maps.resolve(req.map), hints=req.hints, undo=req.undo)
    check_models_fit(game.players, game.seats, game.env)
    key = state.store.add_game(game, client)
    give_token(response, game, f"/api/games/{key}")
    with game.lock:  # its id is not out yet: nobody else holds it
        return {"id": key, "token": game.token, "board": game.board, **game.view()}


@router.get("/api/games/{key}")
def game_view(key: str, game: Locked, since: int = 0, board: bool = False) -> dict[str, Any]:
    return {"id": key, **({"board": game.board} if board else {}), **game.view(since)}


@router.post("/api/games/{key}/decide", dependencies=[Owner])
def decide(key: str, req: Decision, game: Locked, since: int = 0) -> dict[str, Any]:
    game.decide(req.action, req.seat)
    return {"id": key, **game.view(since)}


@router.post("/api/games/{key}/advance")
async def advance(key: str, request: Request, game: Annotated[LiveGame, Depends(live_game)],
                  since: int = 0) -> dict[str, Any]:
    """The agent thinks on the think pool; this request waits for it without holding a worker
    or the game's lock. A second advance while it thinks answers at once."""
    async with game.held():
        thinking = await run_in_threadpool(game.start_advance, request.app.state.pool.submit)
    if thinking is not None:
        await asyncio.shield(asyncio.wrap_future(thinking))  # a cancelled request leaves the think be
    async with game.held():
        view = await run_in_threadpool(game.view, since)
    return {"id": key, "advanced": thinking is not None, **view}


@router.get("/api/games/{key}/hint")
async def hint(request: Request, game: Annotated[LiveGame, Depends(live_game)]) -> dict[str, Any]:
    """What the strongest agent would decide now (a game started with hints): one pass of its
    network on the think pool, like an agent's think; the same hint again costs nothing."""
    async with game.held():
        question = game.hint_question()
    if isinstance(question, dict):
        return question
    future = request.app.state.pool.submit(lambda: game.hint(question))
    return await asyncio.shield(asyncio.wrap_future(future))


@router.post("/api/games/{key}/undo", dependencies=[Owner])
def undo(key: str, game: Locked) -> dict[str, Any]:
    """Takes back the person's last decision and the agents' answers since (a game started with
    undo); the view from the start, as the move list is shorter now."""
    taken = game.undo()
    return {"id": key, "taken_back": taken, **game.view(0)}


@router.get("/api/games/{key}/record")
def record(game: Locked) -> JSON:
    return JSON(game.results(),
                headers={"Content-Disposition": f'attachment; filename="vigtavl-game-{game.seed}.json"'})


@router.post("/api/games/{key}/replay")
def replay_live(game: Locked, request: Request) -> dict[str, Any]:
    """The game as it stands, opened for replay under a name of its own: the live id stays out."""
    rec = game.record()
    replay = ReplayFile([rec], f"a game played here, seed {game.seed}", len(json.dumps(rec.to_dict())))
    return {"id": request.app.state.store.add_replay(replay), **replay.summary()}


# -------------------------------------------------------------------- replays
@router.get("/api/files")
def files(settings: Config) -> dict[str, Any]:
    out = []
    for i, f in enumerate(settings.results):
        out += [{"folder": i, "file": str(p.relative_to(f)), "time": round(t)} for p, t in results_files(f)]
    out.sort(key=lambda entry: -entry["time"])
    return {"folders": [str(f) for f in settings.results], "files": out}


@router.post("/api/replays")
def open_file(req: OpenFile, request: Request, settings: Config) -> JSON:
    """A results file of a ``--results`` folder: a regular file inside it, by its name there
    (:func:`webapp.files.served_file`), read within the bound on bytes parsed at once."""
    name = clean_name(req.file, "a file name")
    if not 0 <= req.folder < len(settings.results):
        raise WebError(f"no results folder {req.folder}: start the server with --results DIR", 404)
    root = settings.results[req.folder]
    path, why = served_file(root, name)
    if why == "outside":
        raise WebError(f"{name} is outside the results folder {root}", 400)
    if path is None:
        raise WebError(f"no file {name} in {root}", 404)
    size, limit = path.stat().st_size, settings.uploads[UPLOAD_PATH]
    if size > limit:
        raise WebError(f"{name} is larger than {limit >> 20} MB", 413)
    with request.app.state.parsing.held(size):
        try:
            body = read_served(path, limit)
        except OSError:
            raise WebError(f"no file {name} in {root}", 404) from None
        return _open(request, body, name)


@router.post(UPLOAD_PATH)
async def upload(request: Request, name: str = "upload.json") -> JSON:
    """An uploaded results file (the body), read and parsed within the bound on bytes parsed at
    once: its declared length, or the largest a chunked body may be, is taken before reading."""
    name = clean_name(name, "a file name")
    limit = request.app.state.settings.uploads[UPLOAD_PATH]
    length = request.headers.get("content-length", "")
    with request.app.state.parsing.held(min(int(length), limit) if length.isdigit() else limit):
        chunks = [chunk async for chunk in request.stream()]  # the Gate bounds its size and time
        return await run_in_threadpool(_open, request, b"".join(chunks), name)


def _open(request: Request, body: bytes, name: str) -> JSON:
    """A results file's bytes parsed and opened, and the answer rendered: off the event loop
    (the callers run in a thread), as a file of thousands of games takes a while. What parsing
    would hold (:func:`parse_cost`, counted before) is taken from the budget first: a file whose
    shape would cost more than the whole budget is a 413, one that does not fit now a 503."""
    with request.app.state.parsing.held(parse_cost(body)):
        measure_parts(body, name)  # in a worker process: no one part's decoding holds the server up
        replay = ReplayFile(read_results(parse_results(body, name), name), name, len(body))
    return JSON({"id": request.app.state.store.add_replay(replay), **replay.summary()})


@router.get("/api/replays/{key}")
def replay_summary(key: str, request: Request) -> dict[str, Any]:
    return {"id": key, **request.app.state.store.replay(key, ReplayFile).summary()}


@router.get("/api/replays/{key}/games/{number}")
def replay_game(game: Rebuilt) -> dict[str, Any]:
    return game.summary()


@router.get("/api/replays/{key}/games/{number}/frames/{frame}")
def replay_frame(game: Rebuilt, frame: int) -> dict[str, Any]:
    return game.view(frame)


@router.get("/api/replays/{key}/games/{number}/frames/{frame}/analysis")
async def replay_analysis(game: Rebuilt, frame: int, request: Request) -> dict[str, Any]:
    """What the strongest agent would decide at a replay's frame, and its estimate of the game
    for the player to move: the frame rebuilt and one network pass on the think pool, like a
    hint; the same frame again costs nothing."""
    answer = game.analysis_question(frame)
    if answer is not None:
        return answer
    future = request.app.state.pool.submit(lambda: game.analyse(frame))
    return await asyncio.shield(asyncio.wrap_future(future))


# -------------------------------------------------------------------- the app
def create_app(results: list[str | Path] = (), models: list[str | Path] = (), maps: list[str | Path] = (),
               think_ms: int = DEFAULT_THINK_MS, host: str = "127.0.0.1", allow_hosts: list[str] = (),
               limits: Limits = Limits()) -> FastAPI:
    """The app; ``results``: folders whose results files may be opened; ``models``: the model
    files agent specs may load (besides the pretrained ones); ``maps``: folders whose ``.txt``
    maps games may use; ``think_ms``: an agent's time per decision at most; ``host`` and
    ``allow_hosts``: the names the ``Host`` header may give (see :func:`guards.host_names`)."""
    model_paths = tuple(str(m) for m in models)
    for m in model_paths:
        if not Path(m).is_file():
            raise ValueError(f"model file {m} does not exist")
    if think_ms < 1:
        raise ValueError(f"--think-ms must be at least 1, got {think_ms}")
    # no /api/docs: Swagger's page loads its script from a CDN; the schema is /openapi.json
    app = FastAPI(title="Vigtavl", docs_url=None, redoc_url=None, default_response_class=JSON)
    app.state.settings = Settings(results=folders(results, "results"), models=model_paths, think_ms=int(think_ms),
                                  hosts=host_names(host, allow_hosts), limits=limits)
    app.state.models, app.state.maps = ModelGuard(model_paths), MapGuard(maps)
    # the menus are fixed for the server's life: made once here, the agents' tables loaded, so that
    # /api/meta does no import while an agent's search holds the interpreter
    app.state.menus = {"agents": _agents_menu(list(model_paths)), "games": games_menu()}
    app.state.store = Store(limits)
    app.state.pool = ThinkPool(limits.think_workers, limits.think_queue)
    app.state.builders = ThinkPool(limits.build_workers, limits.build_queue, "replay games being rebuilt")
    app.state.parsing = Budget(limits.parse_bytes)
    app.state.starting = Turns(GAMES_STARTING, STARTING_WAIT_S, "starting other games")
    app.state.building = {}  # (file id, game) -> the rebuild under way, on the event loop only
    add_handlers(app)
    app.add_middleware(Gate)
    app.include_router(router)
    app.include_router(any_router)
    app.mount("/static", StaticFiles(directory=STATIC), name="static")
    return app


def bind(host: str, port: int) -> socket.socket:
    """A listening socket, or OSError in one line (a port in use, a bad host)."""
    try:
        info = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM)[0]
        sock = socket.socket(info[0], socket.SOCK_STREAM)
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        sock.bind(info[4])
        sock.listen(128)
    except OSError as e:
        raise OSError(f"cannot listen on {host}:{port}: {e.strerror or e}") from None
    return sock

