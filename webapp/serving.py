"""``vigtavl serve`` running: :func:`serve` binds, says where the server is, and runs uvicorn as
:func:`web_server` configures it, whose connections never sit idle for ever, and whose idle
ones never keep a request out.

uvicorn closes a kept-alive connection a few seconds after its last answer, but it waits for
ever for the first request of a new connection, and for the rest of a request begun and never
finished (slowloris); and past its ``limit_concurrency`` it answers every newcomer 503, however
idle the connections that fill it. :func:`guarded_protocol` makes its HTTP protocol class (h11,
or httptools where installed) keep two rules:

- **a header timeout**: a connection between requests (none asked yet, or the last one
  answered) whose next request's headers are not all in after ``header_timeout_s`` is closed,
  however slowly its bytes trickle in;
- **room for the newcomer**: when the open connections reach the bound, those idle the longest
  (between requests) are closed to make room, so that only connections with a request in
  progress can fill the server.

A request's body is bounded in time by :class:`webapp.guards.Gate` (a gap between its
parts, and a deadline for the whole).
"""

from __future__ import annotations

import asyncio
import ipaddress
from collections.abc import Callable, Iterable
from dataclasses import replace
from pathlib import Path
from typing import Any

from webapp.guards import LOOPBACK_NAMES
from webapp.server import DEFAULT_THINK_MS, bind, create_app

HEADER_TIMEOUT_S = 10.0  # a request's headers must be in this long after the connection is idle
RECHECK_S = 0.05  # the shortest wait before the header timer looks again
KEEP_ALIVE_S = 5  # uvicorn closes a connection this long after its last answer
HEADER_BYTES = 16 * 1024  # a request's headers at most (h11's bound on an incomplete event)
SHUTDOWN_WAIT_S = 1  # uvicorn waits this long for requests in progress (an /advance) when stopped
MAX_CONNECTIONS = 1000  # open at once; the idle ones make room for a newcomer
CLOSING_SLACK = 64  # uvicorn counts a connection until it is gone: its 503 comes only this far past
SPARE_FILES = 256  # file descriptors kept for the rest: models, maps, results files, threads
MODEL_WARNING = ("warning: model files (SB3 zips) are pickles, and loading one runs the code in it: "
                 "this server loads only the shipped pretrained models and the files named with --model")


def idle(conn: Any) -> bool:
    """A connection between requests: none asked yet, or the last one answered."""
    return conn.cycle is None or conn.cycle.response_complete


def make_room(connections: Iterable[Any], bound: int) -> None:
    """Closes the connections idle the longest until fewer than ``bound - 1`` are open, so the
    one joining leaves them under ``bound``; connections with a request in progress stay."""
    open_now = [c for c in connections if not c.transport.is_closing()]
    excess = len(open_now) - (bound - 1) + 1
    if excess <= 0:
        return
    for conn in sorted((c for c in open_now if idle(c)), key=lambda c: c.idle_since)[:excess]:
        conn.transport.close()


def guarded_protocol(base: type, header_timeout_s: float = HEADER_TIMEOUT_S, bound: int | None = None) -> type:
    """uvicorn's protocol class ``base`` with the header timeout and, when ``bound`` is given,
    room made for each new connection (see the module's docstring)."""

    class Guarded(base):  # type: ignore[misc, valid-type]
        idle_since = 0.0
        header_timer: asyncio.TimerHandle | None = None

        def connection_made(self, transport: Any) -> None:
            if bound is not None:
                make_room(self.connections, bound)
            super().connection_made(transport)
            self.idle_since = self.loop.time()
            self.header_timer = self.loop.call_later(header_timeout_s, self.check_headers)

        def check_headers(self) -> None:
            """Closes the connection if it has been idle past the timeout, else looks again when
            it could be."""
            if self.transport.is_closing():
                return
            waited = self.loop.time() - self.idle_since if idle(self) else 0.0
            if waited >= header_timeout_s:
                self.transport.close()
                return
            self.header_timer = self.loop.call_later(max(header_timeout_s - waited, RECHECK_S), self.check_headers)

        def on_response_complete(self) -> None:
            self.idle_since = self.loop.time()
            super().on_response_complete()

        def connection_lost(self, exc: Exception | None) -> None:
            if self.header_timer is not None:
                self.header_timer.cancel()
            super().connection_lost(exc)

    Guarded.__name__ = Guarded.__qualname__ = f"Guarded{base.__name__}"
    return Guarded


def web_server(app: Any, header_timeout_s: float = HEADER_TIMEOUT_S, max_connections: int | None = None) -> Any:
    """The uvicorn server ``vigtavl serve`` runs ``app`` in: the header timeout and the room
    made for newcomers (:func:`guarded_protocol`) at ``max_connections`` (default: as many as
    the process may open, at most :data:`MAX_CONNECTIONS`), keep-alive and header size bounded;
    uvicorn's own 503 only for connections all busy. A client is the address its connection
    comes from: ``X-Forwarded-For``, which uvicorn would believe from 127.0.0.1 (where every
    client of a loopback server comes from), is not read, so no client passes for others to
    get more games or game starts (behind a proxy, its clients share the proxy's address)."""
    import uvicorn
    from uvicorn.protocols.http.auto import AutoHTTPProtocol
    bound = max_connections or connection_bound()
    protocol = guarded_protocol(AutoHTTPProtocol, header_timeout_s, bound)
    return uvicorn.Server(uvicorn.Config(app, http=protocol, log_level="warning", limit_concurrency=bound + CLOSING_SLACK,
                                         timeout_keep_alive=KEEP_ALIVE_S, h11_max_incomplete_event_size=HEADER_BYTES,
                                         timeout_graceful_shutdown=SHUTDOWN_WAIT_S,
                                         proxy_headers=False))  # a client is its connection's address


def connection_bound() -> int:
    """How many connections the server holds at most: :data:`MAX_CONNECTIONS`, or fewer where
    the process may not open that many files (its soft limit raised to the hard one first)."""
    try:
        import resource
        soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
        want = MAX_CONNECTIONS + SPARE_FILES
        if soft != resource.RLIM_INFINITY and soft < want:
            soft = want if hard == resource.RLIM_INFINITY else min(want, hard)
            resource.setrlimit(resource.RLIMIT_NOFILE, (soft, hard))
    except (ImportError, OSError, ValueError):  # no resource module (Windows), or not allowed
        return MAX_CONNECTIONS
    return max(16, min(MAX_CONNECTIONS, soft - SPARE_FILES))


def is_loopback(address: str) -> bool:
    """Whether an address the server is bound to is this machine's alone (``127.0.0.1``, ``::1``)."""
    try:
        return ipaddress.ip_address(address.partition("%")[0]).is_loopback
    except ValueError:
        return False


def address_to_open(address: str, port: int) -> str:
    """The address a person opens for a server bound to ``address``: a wildcard (``0.0.0.0``,
    ``::``) is reached on this machine through loopback, which the server answers to."""
    ip = ipaddress.ip_address(address.partition("%")[0])
    if ip.is_unspecified:
        ip = ipaddress.ip_address("::1" if ip.version == 6 else "127.0.0.1")
    return f"http://[{ip}]:{port}/" if ip.version == 6 else f"http://{ip}:{port}/"


def announce(bound: str, port: int, hosts: frozenset[str], models: list[str | Path]) -> list[str]:
    """What ``serve`` says when it starts: the address to open, the model warning, and, when the
    socket is reachable beyond this machine, who can reach it."""
    lines = [f"Vigtavl is at {address_to_open(bound, port)}  (Ctrl-C stops it)",
             MODEL_WARNING + (f" ({', '.join(map(str, models))})" if models else "")]
    if not is_loopback(bound):
        names = ", ".join(sorted(hosts - LOOPBACK_NAMES)) or "none yet: add --allow-host NAME"
        lines.append(f"warning: listening on {bound}: anyone who reaches this machine can use the server; "
                     f"it answers to the loopback names and {names}")
    return lines


def serve(host: str = "127.0.0.1", port: int = 8000, results: list[str | Path] = (),
          models: list[str | Path] = (), maps: list[str | Path] = (), think_ms: int = DEFAULT_THINK_MS,
          allow_hosts: list[str] = (), print_fn: Callable[[str], Any] = print) -> None:
    """Run the web app until Ctrl-C or SIGTERM; prints its address first."""
    app = create_app(results, models, maps, think_ms=think_ms, host=host, allow_hosts=allow_hosts)
    sock = bind(host, port)
    address = sock.getsockname()
    app.state.settings = replace(app.state.settings, port=address[1])  # the Host header must name it
    for line in announce(address[0], address[1], app.state.settings.hosts, list(models)):
        print_fn(line)
    web_server(app).run(sockets=[sock])
