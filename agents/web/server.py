"""``vigtavl serve``: the web app's HTTP side (FastAPI), over :mod:`agents.web.sessions`.

The page (``static/``: one HTML file, one script, one style sheet, no build step) calls this
JSON API:

- ``GET /api/meta``: maps, agents, the model files allowed, the results folders.
- ``POST /api/games`` ``{"seats": ["human", "greedy"], "seed": 7, "map": "duel"}``: a live game
  (any seat may be ``human``; none for watching); ``GET /api/games/{id}?since=N``: its view with
  the events from number N; ``POST /api/games/{id}/decide`` ``{"action": A}``: a person's
  decision; ``POST /api/games/{id}/advance``: one agent decision; ``GET /api/games/{id}/record``:
  the game as a results file; ``POST /api/games/{id}/replay``: open it for replay.
- ``GET /api/files``: the results files in the folders given to ``serve``; ``POST /api/replays``
  ``{"folder": 0, "file": "results.json"}`` opens one, ``POST /api/replays/upload?name=F`` opens an
  uploaded one (the request body is the file); ``GET /api/replays/{id}``: its games;
  ``GET /api/replays/{id}/games/{g}``: a game's frames and turns; ``.../frames/{k}``: the board after
  decision k.

Every refusal is a 4xx answer ``{"error": "one line"}``: 400 bad input (an illegal decision, a
malformed file, an unknown agent), 404 unknown game or file, 409 not now (not your decision, the
game is over), 413 too large, 422 a request of the wrong shape.
"""

from __future__ import annotations

import json
import socket
from pathlib import Path
from typing import Any

from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import FileResponse, JSONResponse
from fastapi.staticfiles import StaticFiles
from pydantic import BaseModel
from starlette.exceptions import HTTPException as StarletteHTTPException

from agents.web.sessions import LiveGame, ModelGuard, ReplayFile, Store, WebError, read_results

STATIC = Path(__file__).resolve().parent / "static"
MAX_UPLOAD = 64 * 1024 * 1024
MODEL_WARNING = ("warning: model files (SB3 zips) are pickles, and loading one runs the code in it: "
                 "this server loads only the shipped pretrained models and the files named with --model")


class NewGame(BaseModel):
    seats: list[str]
    seed: int | None = None
    map: str | None = None


class Decision(BaseModel):
    action: int
    seat: int | None = None


class OpenFile(BaseModel):
    folder: int = 0
    file: str


def _agents_menu(models: list[str]) -> list[dict[str, str]]:
    from agents.registry import AGENTS
    specs = [("human", "you, clicking on the board")]
    specs += [(name, AGENTS[name]) for name in ("random", "greedy", "aggressor", "builder")]
    specs += [("search", AGENTS["search"]), ("search:50", "the search bot at 50 simulations per decision"),
              ("ppo:pretrained", "the shipped 2-player network"),
              ("ppo:pretrained-3p", "the shipped 3-player network"),
              ("ppo-search:pretrained", AGENTS["ppo-search"])]
    specs += [(f"ppo:{m}", "a model named with --model") for m in models]
    return [{"spec": s, "about": a} for s, a in specs]


def _maps() -> list[dict[str, Any]]:
    from vigtavl_env.engine.maps import list_presets, load_map
    return [{"name": n, "players": load_map(n).num_players} for n in list_presets()]


def create_app(results: list[str | Path] = (), models: list[str | Path] = ()) -> FastAPI:
    """The app; ``results``: folders whose results files may be opened; ``models``: the model
    files agent specs may load (besides the pretrained ones)."""
    folders = [Path(f).resolve() for f in results]
    for f in folders:
        if not f.is_dir():
            raise ValueError(f"results folder {f} does not exist")
    model_paths = [str(m) for m in models]
    for m in model_paths:
        if not Path(m).is_file():
            raise ValueError(f"model file {m} does not exist")
    guard, store = ModelGuard(model_paths), Store()
    app = FastAPI(title="Vigtavl", docs_url="/api/docs", redoc_url=None)
    app.state.store = store

    @app.exception_handler(WebError)
    def _web_error(_: Request, e: WebError) -> JSONResponse:
        return JSONResponse({"error": str(e)}, status_code=e.status)

    @app.exception_handler(RequestValidationError)
    def _bad_shape(_: Request, e: RequestValidationError) -> JSONResponse:
        first = e.errors()[0] if e.errors() else {}
        where = ".".join(str(x) for x in first.get("loc", ()) if x != "body")
        return JSONResponse({"error": f"bad request: {where or 'body'}: {first.get('msg', 'malformed')}"},
                            status_code=422)

    @app.exception_handler(StarletteHTTPException)
    def _http_error(_: Request, e: StarletteHTTPException) -> JSONResponse:
        return JSONResponse({"error": str(e.detail)}, status_code=e.status_code)

    @app.get("/", include_in_schema=False)
    def index() -> FileResponse:
        return FileResponse(STATIC / "index.html")

    app.mount("/static", StaticFiles(directory=STATIC), name="static")

    @app.get("/api/meta")
    def meta() -> dict[str, Any]:
        return {"maps": _maps(), "agents": _agents_menu(model_paths), "models": model_paths,
                "folders": [str(f) for f in folders]}

    # ------------------------------------------------------------ live games
    @app.post("/api/games")
    def new_game(req: NewGame) -> dict[str, Any]:
        game = LiveGame(req.seats, seed=req.seed, map=req.map, guard=guard)
        key = store.add_game(game)
        with game.lock:
            return {"id": key, "board": game.board, **game.view()}

    @app.get("/api/games/{key}")
    def game_view(key: str, since: int = 0, board: bool = False) -> dict[str, Any]:
        game = store.game(key)
        with game.lock:
            return {"id": key, **({"board": game.board} if board else {}), **game.view(since)}

    @app.post("/api/games/{key}/decide")
    def decide(key: str, req: Decision, since: int = 0) -> dict[str, Any]:
        game = store.game(key)
        with game.lock:
            game.decide(req.action, req.seat)
            return {"id": key, **game.view(since)}

    @app.post("/api/games/{key}/advance")
    def advance(key: str, since: int = 0) -> dict[str, Any]:
        game = store.game(key)
        with game.lock:
            moved = game.advance()
            return {"id": key, "advanced": moved, **game.view(since)}

    @app.get("/api/games/{key}/record")
    def record(key: str) -> JSONResponse:
        game = store.game(key)
        with game.lock:
            data = game.results()
        return JSONResponse(data, headers={"Content-Disposition": f'attachment; filename="vigtavl-{key}.json"'})

    @app.post("/api/games/{key}/replay")
    def replay_live(key: str) -> dict[str, Any]:
        game = store.game(key)
        with game.lock:
            records = [game.record()]
        replay = ReplayFile(records, f"game {key}")
        return {"id": store.add_replay(replay), **replay.summary()}

    # ------------------------------------------------------------ replays
    @app.get("/api/files")
    def files() -> dict[str, Any]:
        out = []
        for i, f in enumerate(folders):
            out += [{"folder": i, "file": str(p.relative_to(f))} for p in sorted(f.rglob("*.json")) if p.is_file()]
        return {"folders": [str(f) for f in folders], "files": out}

    @app.post("/api/replays")
    def open_file(req: OpenFile) -> dict[str, Any]:
        if not 0 <= req.folder < len(folders):
            raise WebError(f"no results folder {req.folder}: start the server with --results DIR", 404)
        root = folders[req.folder]
        path = (root / req.file).resolve()
        if not path.is_relative_to(root):
            raise WebError(f"{req.file} is outside the results folder {root}", 400)
        if not path.is_file():
            raise WebError(f"no file {req.file} in {root}", 404)
        if path.stat().st_size > MAX_UPLOAD:
            raise WebError(f"{req.file} is larger than {MAX_UPLOAD >> 20} MB", 413)
        return _open(_parse(path.read_bytes(), req.file), req.file)

    @app.post("/api/replays/upload")
    async def upload(request: Request, name: str = "upload.json") -> dict[str, Any]:
        body = b""
        async for chunk in request.stream():
            body += chunk
            if len(body) > MAX_UPLOAD:
                raise WebError(f"{name} is larger than {MAX_UPLOAD >> 20} MB", 413)
        return _open(_parse(body, name), name)

    def _open(data: Any, name: str) -> dict[str, Any]:
        replay = ReplayFile(read_results(data, name), name)
        return {"id": store.add_replay(replay), **replay.summary()}

    @app.get("/api/replays/{key}")
    def replay_summary(key: str) -> dict[str, Any]:
        return {"id": key, **store.replay(key).summary()}

    @app.get("/api/replays/{key}/games/{number}")
    def replay_game(key: str, number: int) -> dict[str, Any]:
        return store.replay(key).game(number).summary()

    @app.get("/api/replays/{key}/games/{number}/frames/{frame}")
    def replay_frame(key: str, number: int, frame: int) -> dict[str, Any]:
        return store.replay(key).game(number).view(frame)

    return app


def _parse(body: bytes, name: str) -> Any:
    try:
        return json.loads(body)
    except (UnicodeDecodeError, json.JSONDecodeError) as e:
        raise WebError(f"{name} is not a JSON file ({e})") from None


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


def serve(host: str = "127.0.0.1", port: int = 8000, results: list[str | Path] = (),
          models: list[str | Path] = (), print_fn: Any = print) -> None:
    """Run the web app until Ctrl-C; prints its address first."""
    import uvicorn
    app = create_app(results, models)
    sock = bind(host, port)
    address = sock.getsockname()
    shown = f"[{address[0]}]" if ":" in address[0] else address[0]
    print_fn(f"Vigtavl is at http://{shown}:{address[1]}/  (Ctrl-C stops it)")
    print_fn(MODEL_WARNING + (f" ({', '.join(map(str, models))})" if models else ""))
    if host not in ("127.0.0.1", "localhost", "::1"):
        print_fn(f"warning: listening on {host}: anyone who reaches this machine can use the server")
    server = uvicorn.Server(uvicorn.Config(app, log_level="warning"))
    server.run(sockets=[sock])
