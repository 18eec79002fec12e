"""What ``vigtavl serve`` lets in: hosts and origins, request sizes, names, model files, map files,
and agents with their thinking time.

- :class:`Gate` (ASGI middleware, before every route and the static files): the ``Host`` header
  must name this server (a DNS-rebinding page names its own host), a request that changes
  anything (not GET or HEAD) must come from the server's own page (``Origin``,
  ``Sec-Fetch-Site``), a body larger than its route's bound is refused before it is read, and
  one that comes too slowly is cut off; every answer says that no other site may frame the page
  and that the page loads nothing from another origin; HEAD is answered as GET, without a body.
- :class:`ModelGuard`: model files are pickles, and loading one runs the code in it. A spec's
  model is resolved to a real path and checked against the shipped models and the files named
  with ``--model``; anything else is refused without opening the file. A kind that needs a
  model named without one is a 400, and :func:`check_models_fit` refuses a network made for
  another player count when the game is made.
- :class:`MapGuard`: the presets, ``random``, and ``.txt`` files inside the ``--maps`` folders,
  named relative to them, read as :mod:`webapp.files` allows (a regular file, nothing
  hidden, no link out). Any other name gets one answer, which tells nothing about the files
  outside, and an error never quotes a file's content.
- :func:`seat_specs`: the agents this server runs (the project's own: an installed package's
  agents have no time bound here), each search given a time limit of at most ``--think-ms``.

Every refusal is a :class:`WebError`, answered as one line of JSON with its status.
"""

from __future__ import annotations

import asyncio
import ipaddress
import itertools
import json
import os
import re
from collections.abc import Awaitable, Callable, Iterable, Sequence
from pathlib import Path
from typing import Any

from starlette.exceptions import HTTPException

from agents.registry import KINDS, MS, spec_model
from webapp.files import MAX_LISTED, folders, read_served, served_file, served_files
from webapp.vigtavl_web import vigtavl_web

HUMAN = "human"
MAX_SEED = 2 ** 63  # a game's seed from a request
MAX_NAME = 200  # characters in a name from a request: an agent spec, a file, a map
MAX_MAP_BYTES = 64 * 1024
LOOPBACK_NAMES = frozenset({"localhost", "127.0.0.1", "[::1]"})
SAFE_METHODS = ("GET", "HEAD")
BODY_GAP_S = 10.0  # a request body's next part must come within this
BODY_DEADLINE_S = 120.0  # and the whole body within this (16 MB at about 1 Mbit/s)
# on every answer: no other site may frame the page, and the page loads nothing from elsewhere
CONTENT_POLICY = ("default-src 'self'; img-src 'self' data:; object-src 'none'; base-uri 'none'; "
                  "form-action 'self'; frame-ancestors 'none'")
PAGE_HEADERS = ((b"x-frame-options", b"DENY"), (b"content-security-policy", CONTENT_POLICY.encode()),
                (b"x-content-type-options", b"nosniff"), (b"referrer-policy", b"no-referrer"))
FOREIGN_FETCH = ("cross-site", "same-site")  # Sec-Fetch-Site values of another origin's page
# Vigtavl's agent kinds by what the server must bound, read from the one table of kinds
FAST_AGENTS = tuple(k for k, kind in KINDS.items() if not kind.budget)  # one pass per decision
SEARCH_AGENTS = tuple(k for k, kind in KINDS.items() if kind.budget)  # the server bounds their time
MODEL_AGENTS = tuple(k for k, kind in KINDS.items() if kind.model)  # each loads a model the spec names
AZ_AGENTS = ("az", "az-search")  # their shipped model is agents.az's, for 2 players only
SHIPPED_MODELS = ("pretrained", "pretrained-3p", "pretrained-4p")
RANDOM_MAP = "random"
UNKNOWN_MAP = ("unknown map: choose a preset, 'random', or a .txt file inside a folder named with "
               "'vigtavl serve --maps DIR', named relative to it (GET /api/meta lists them)")


class WebError(Exception):
    """A request the server refuses, with its HTTP status and a message for the page."""

    def __init__(self, message: str, status: int = 400) -> None:
        super().__init__(message)
        self.status = status


def clean_name(text: str, what: str) -> str:
    """A name from a request, printable and short: a NUL byte is a 400, never an OSError."""
    if not isinstance(text, str) or len(text) > MAX_NAME or not text.isprintable():
        raise WebError(f"{what} must be printable text of at most {MAX_NAME} characters")
    return text


# -------------------------------------------------------------------- hosts and origins
def host_names(host: str, allow: Iterable[str] = ()) -> frozenset[str]:
    """The ``Host`` names a server listening on ``host`` answers to: the loopback names, the
    address it listens on (unless a wildcard such as 0.0.0.0), and the names in ``allow``."""
    names = set(LOOPBACK_NAMES) | {a.strip().lower() for a in allow if a.strip()}
    try:
        ip = ipaddress.ip_address(host)
    except ValueError:
        names.add(host.lower())  # a host name
    else:
        if not ip.is_unspecified:
            names.add(f"[{ip}]" if ip.version == 6 else str(ip))
    return frozenset(names)


def _split_host(value: str) -> tuple[str, int]:
    """``"name:port"`` or ``"[v6]:port"`` -> (name, port); no port is port 80."""
    value = value.strip().lower()
    name, sep, port = value.rpartition(":") if not value.endswith("]") else (value, "", "")
    if not sep:
        name, port = value, "80"
    if not port.isdigit() or not name:
        raise WebError("a Host header of the form name:port is required", 400)
    return name, int(port)


def check_host(value: str, names: frozenset[str], port: int | None) -> None:
    """The ``Host`` header names this server (and its port, once known): else 403."""
    name, given = _split_host(value)
    if name not in names or (port is not None and given != port):
        raise WebError(f"this server does not answer to the host {value[:80]!r}; start it with "
                       "'vigtavl serve --allow-host NAME' to add a name", 403)


def check_origin(headers: dict[str, str], scheme: str) -> None:
    """A request that changes something comes from this server's own page: else 403."""
    origin = headers.get("origin")
    if origin is not None and origin.lower() != f"{scheme}://{headers.get('host', '')}".lower():
        raise WebError(f"a request from another site ({origin[:80]!r}) may not change anything here", 403)
    if headers.get("sec-fetch-site", "").lower() in FOREIGN_FETCH:
        raise WebError("a request from another site may not change anything here", 403)


class Gate:
    """ASGI middleware, in front of every route: host and origin checks, a NUL in the address,
    body bounds in size and time, HEAD answered as GET without the body, and the headers that
    keep the page out of other sites' frames and other origins' scripts out of the page
    (:data:`PAGE_HEADERS`, on every answer). It reads the app's ``state.settings`` (``hosts``,
    ``port``, ``max_body``, ``uploads``: a bound per path) on each request, so ``serve`` can set
    the port once bound."""

    def __init__(self, app: Callable[..., Awaitable[None]]) -> None:
        self.app = app

    async def __call__(self, scope: dict, receive: Callable, send: Callable) -> None:
        if scope["type"] != "http":
            return await self.app(scope, receive, send)
        settings = scope["app"].state.settings
        headers = {k.decode("latin-1").lower(): v.decode("latin-1") for k, v in scope["headers"]}
        limit = settings.uploads.get(scope["path"], settings.max_body)
        send = _guarded_send(send, head=scope["method"] == "HEAD")
        try:
            check_host(headers.get("host", ""), settings.hosts, settings.port)
            if scope["method"] not in SAFE_METHODS:
                check_origin(headers, scope.get("scheme", "http"))
            if "\x00" in scope["path"] or b"%00" in scope.get("query_string", b""):
                raise WebError("a NUL byte in the address", 400)
            length = headers.get("content-length")
            if length is not None and not length.isdigit():
                raise WebError("a bad Content-Length", 400)
            if length is not None and int(length) > limit:
                raise WebError(f"the request body is larger than {_size(limit)}", 413)
        except WebError as e:
            return await send_error(send, e)
        if scope["method"] == "HEAD":
            scope = {**scope, "method": "GET"}
        await self.app(scope, _bounded(receive, limit), send)


def _guarded_send(send: Callable, head: bool) -> Callable:
    """``send`` that adds :data:`PAGE_HEADERS` to the answer and, for a HEAD, leaves out its body."""

    async def guarded(message: dict) -> None:
        if message["type"] == "http.response.start":
            given = {k.lower() for k, _ in message.get("headers", [])}
            message = {**message, "headers": [*message.get("headers", []),
                                              *((k, v) for k, v in PAGE_HEADERS if k not in given)]}
        elif message["type"] == "http.response.body" and head:
            message = {**message, "body": b""}
        await send(message)
    return guarded


def _bounded(receive: Callable, limit: int) -> Callable:
    """``receive`` that refuses a body past ``limit`` bytes (a chunked one has no length), or one
    whose next part is :data:`BODY_GAP_S` late or whose whole takes past :data:`BODY_DEADLINE_S`.
    It raises Starlette's HTTPException, the one error FastAPI lets out of reading a body. Once
    the body is in, it waits as ``receive`` does (for the client to go)."""
    seen, done, deadline = 0, False, None

    async def bounded() -> dict:
        nonlocal seen, done, deadline
        if done:
            return await receive()
        loop = asyncio.get_running_loop()
        deadline = deadline or loop.time() + BODY_DEADLINE_S
        try:
            message = await asyncio.wait_for(receive(), min(BODY_GAP_S, max(0.0, deadline - loop.time())))
        except asyncio.TimeoutError:
            raise HTTPException(408, "the request body came too slowly; send it again") from None
        done = message["type"] != "http.request" or not message.get("more_body", False)
        seen += len(message.get("body", b""))
        if seen > limit:
            raise HTTPException(413, f"the request body is larger than {_size(limit)}")
        return message
    return bounded


async def send_error(send: Callable, e: WebError) -> None:
    body = json.dumps({"error": str(e)}).encode()
    await send({"type": "http.response.start", "status": e.status,
                "headers": [(b"content-type", b"application/json"), (b"content-length", str(len(body)).encode())]})
    await send({"type": "http.response.body", "body": body})


def _size(n: int) -> str:
    return f"{n >> 20} MB" if n >= 1 << 20 else f"{n >> 10} KB"


# -------------------------------------------------------------------- model files
def model_of(spec: str) -> str | None:
    """The model a spec names (None for an agent that loads none); a kind that needs a model
    (``ppo``, ``ppo-search``, ``az``, ``az-search``) named without one is a 400."""
    kind = spec.strip().partition(":")[0].lower()
    try:
        model = spec_model(spec)
    except ValueError as e:  # az and az-search say so themselves
        raise WebError(str(e)) from None
    if kind in MODEL_AGENTS and not (model or "").strip():
        raise WebError(f"agent {spec!r} needs a model: {kind}:pretrained, or a file named with "
                       "'vigtavl serve --model PATH'")
    return model


class ModelGuard:
    """Model files are pickles, and loading one runs the code in it: a spec's model is resolved
    to its real path (links and ``..`` followed) and loaded only if that path is a shipped model
    or a file named with ``--model`` (resolved when the server starts). A shipped name
    (``pretrained``, ``pretrained-3p``, ``pretrained-4p``) is let through only while its file is installed: it is
    looked up on each check (a model may be put in place while the server runs), and a missing
    one is refused in one line, never looked for elsewhere."""

    def __init__(self, models: Iterable[str | Path] = ()) -> None:
        self.named = frozenset(os.path.realpath(m) for m in models)

    @staticmethod
    def shipped(kind: str = "ppo") -> dict[str, Path] | None:
        """``pretrained`` names -> the shipped files of an agent kind (``ppo``, ``ppo-search``:
        the PPO networks; ``az``, ``az-search``: the self-taught one), installed or not; None
        without torch (no model can load, and make_agent says so before any file is opened)."""
        try:
            if kind in AZ_AGENTS:
                from agents import az
                return {az.PRETRAINED: az.PRETRAINED_PATH}
            from agents import ppo
        except ImportError:
            return None
        return ppo.shipped_paths()

    def check(self, spec: str) -> str:
        """``spec`` with its model as the real path checked (a shipped name kept as it is), or a
        WebError; the file is not opened here."""
        kind, model = spec.strip().partition(":")[0].lower(), model_of(spec)
        if not model:
            return spec
        shipped = self.shipped(kind)
        if model in SHIPPED_MODELS:
            if shipped is not None and model not in shipped:
                raise WebError(f"agent {spec!r}: {kind} has no shipped {model} model (only "
                               f"{', '.join(sorted(shipped))}); choose another agent")
            if shipped is not None and not shipped[model].is_file():
                raise WebError(f"agent {spec!r}: the shipped model {shipped[model]} does not exist yet on this "
                               "server (it is put there by the project); choose another agent")
            return spec
        try:
            real = os.path.realpath(model)
        except (ValueError, OSError):
            real = None
        installed = {os.path.realpath(f) for f in (shipped or {}).values() if f.is_file()}
        if real is None or (real not in self.named and real not in installed):
            named = ", ".join(sorted(self.named)) or "none"
            raise WebError(f"agent {spec!r}: this server loads only the model files named with "
                           f"'vigtavl serve --model PATH' (named: {named}) and the pretrained ones")
        name, _, arg = spec.strip().partition(":")
        return f"{name}:{real}{arg[len(model):]}"


# -------------------------------------------------------------------- agents and their time
def bounded_spec(spec: str, think_ms: int) -> str:
    """The spec a seat runs: a ``search``, ``ppo-search`` or ``az-search`` spec gets a time limit of
    ``think_ms`` per decision unless it names one; one above ``think_ms`` is refused (400)."""
    spec = spec.strip()
    kind, _, arg = spec.partition(":")
    kind = kind.lower()
    if kind in FAST_AGENTS:
        return spec
    if kind not in SEARCH_AGENTS:
        if kind in vigtavl_web().agent_names():
            raise WebError(f"agent {spec!r}: this server runs only its own agents ("
                           f"{', '.join(FAST_AGENTS + SEARCH_AGENTS)}), whose thinking time it bounds")
        return spec  # an unknown agent: check_agents names the known ones
    try:
        model = spec_model(spec)
    except ValueError as e:  # a bad az-search budget
        raise WebError(str(e)) from None
    budget = arg if kind == "search" else arg[len(model or ""):]
    parts = [p.strip().lower() for p in budget.split(":") if p.strip()]
    times = [p for p in parts if p.endswith("ms")]
    for t in times:
        if not MS.fullmatch(t):
            raise WebError(f"bad search budget in {spec!r}: {t!r} is not a number of milliseconds (search:50ms)")
        if float(t[:-2]) > think_ms:
            raise WebError(f"agent {spec!r} would think up to {t} per decision; this server allows at most "
                           f"{think_ms}ms (vigtavl serve --think-ms)")
    if times:
        return spec
    counts = [] if any(p.isdigit() for p in parts) else [str(KINDS[kind].default_budget)]
    return ":".join([spec, *counts, f"{think_ms}ms"])  # a time alone would mean "as many as fit"


def seat_specs(seats: Sequence[str], models: ModelGuard, think_ms: int) -> list[str]:
    """The seats of a new game as they will run: ``human``, or an agent this server allows,
    its model checked and its time bounded."""
    if not 2 <= len(seats) <= 4:
        raise WebError(f"a game has 2 to 4 players, got {len(seats)} seats")
    out = []
    for spec in seats:
        spec = clean_name(spec, "an agent spec").strip()
        if not spec:
            raise WebError("every seat needs an agent spec or 'human'")
        if spec.lower() != HUMAN:
            model_of(spec)  # before a budget is added to it
            spec = models.check(bounded_spec(spec, think_ms))
        out.append(spec)
    return out


# -------------------------------------------------------------------- maps
class MapGuard:
    """The maps a game may be played on: the presets, ``random``, and ``.txt`` files inside the
    folders named with ``--maps``, named relative to the folder."""

    def __init__(self, maps: Iterable[str | Path] = ()) -> None:
        web = vigtavl_web()
        self.folders = folders(maps, "maps")
        self.presets = {name: web.load_map(name).num_players for name in web.list_presets()}

    def listing(self) -> list[dict[str, Any]]:
        """Every map a game may name, with its player count (a folder's unreadable files left out)."""
        out = [{"name": n, "players": p} for n, p in self.presets.items()]
        for root in self.folders:
            for path, _ in itertools.islice(served_files(root, ".txt"), MAX_LISTED):
                name = str(path.relative_to(root))
                try:
                    out.append({"name": name, "players": self._load(root, name).num_players})
                except WebError:
                    continue
        return out

    def resolve(self, name: str | None) -> Any:
        """What the env plays on: a preset name, ``random``, a folder's map (a GameMap), or None
        for the player count's preset."""
        if not name:
            return None
        clean_name(name, "a map name")
        if name in self.presets or name == RANDOM_MAP:
            return name
        for root in self.folders:
            if name.endswith(".txt") and served_file(root, name)[0] is not None:
                return self._load(root, name)
        raise WebError(UNKNOWN_MAP)

    @staticmethod
    def _load(root: Path, name: str) -> Any:
        """A folder's map file (a regular file inside it: :func:`webapp.files.served_file`),
        checked; errors name the line, never quote it."""
        web = vigtavl_web()
        path = served_file(root, name)[0]
        try:
            if path is None:
                raise OSError("not a regular file inside the maps folder")
            text = read_served(path, MAX_MAP_BYTES + 1)
            if len(text) > MAX_MAP_BYTES:
                raise ValueError(f"larger than {_size(MAX_MAP_BYTES)}")
            return web.load_map(web.parse_map(text.decode("utf-8")))
        except (OSError, UnicodeDecodeError) as e:
            raise WebError(f"map {name!r} cannot be read ({type(e).__name__})") from None
        except ValueError as e:
            line = re.match(r"line \d+", str(e))
            where = f" ({line.group()})" if line else ""
            raise WebError(f"map {name!r} is not a playable map file{where}") from None


def check_models_fit(players: Sequence[Any], seats: Sequence[str], env: Any) -> None:
    """Every seat's network fits the game: its observations and actions are the game's, so a
    network trained for another player count (or board) is refused when the game is made, not
    at its first decision. Agents without a network pass."""
    n = len(seats)
    for seat, (agent, spec) in enumerate(zip(players, seats)):
        net = next((x for x in (agent, getattr(agent, "network", None), getattr(agent, "net", None))
                    if hasattr(x, "n_actions") and (hasattr(x, "shape") or hasattr(x, "obs_shape"))), None)
        if net is None:
            continue
        name = env.possible_agents[seat]
        game = (tuple(env.observation_space(name)["observation"].shape), int(env.action_space(name).n))
        model = (tuple(getattr(net, "shape", None) or net.obs_shape), int(net.n_actions))
        if model != game:
            raise WebError(f"agent {spec!r} was trained for observations {model[0]} and {model[1]} actions, not "
                           f"this {n}-player game's {game[0]} and {game[1]}: choose a model for {n} players")
