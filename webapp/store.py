"""What ``vigtavl serve`` keeps in memory, and where its agents think.

- :class:`Table`: entries by id, least recently used first, bounded in number and in estimated
  bytes. A new entry makes room by dropping the least recently used entries that may go; when
  none may, it is refused (503), so a game being played is never dropped for another.
- :class:`Store`: three tables. Live games: one may go only after :attr:`Limits.idle_s` seconds
  untouched, and never while its agent thinks; a client (an address) keeps at most
  :attr:`Limits.games_per_client`, its own oldest making room for its next, so no client can
  take every place. Opened results files and rebuilt replay games
  (the frames and snapshots of one game of a file) go least recently used first; a file that
  goes takes its rebuilt games with it.
- :class:`ThinkPool`: agents think on a few daemon threads of their own, fed by a bounded
  queue, never on the request workers; a full queue is a 503, and a think in progress never
  holds the server up when it stops. Replay games are rebuilt on another such pool.
- :class:`Budget`: the bytes of results files being read and parsed at once; past it, a 503.
- :class:`Turns`: how many games are being started at once, one per client.

The byte estimates were measured with tracemalloc on games played to the end by the bots, 2, 3 and
4 players (``python -m tools.web_memory``), and are set above every figure seen. What a game holds
grows with its board (the map's tables, the env, the board's view: 16-19 KB a hex), with its
decisions (the moves listed, the events: 1.5-2.5 KB each, 2.5-2.8 KB rebuilt, with its snapshots)
and with its seats' agents: a heuristic bot's tables take about 6 KB a hex, a search's caches
(bounded, full after a few dozen decisions) 110-125 KB a hex, az-search's about 12 KB. A parsed
results file holds 4.5 bytes per byte of its JSON.
"""

from __future__ import annotations

import asyncio
import contextlib
import queue
import secrets
import threading
import time
from collections import Counter, OrderedDict
from collections.abc import AsyncIterator, Callable, Hashable, Iterable, Iterator
from concurrent.futures import Future
from dataclasses import dataclass
from typing import Any

from webapp.guards import WebError

MB = 1 << 20
TURN_POLL_S, TURN_POLL_MAX_S = 0.005, 0.1  # a wait for a turn looks again after this, doubling
TOKEN_BYTES = 16  # a game's token: its person's right to decide and undo
LIVE_HEX_BYTES = 20_000  # a live game, per hex of its board (the last view kept for polls included)
LIVE_DECISION_BYTES = 3_000
SEAT_HEX_BYTES = {"random": 0, "search": 140_000, "ppo-search": 140_000, "az-search": 20_000}  # a seat's agent, per hex
AGENT_HEX_BYTES = 8_000  # any other agent's (a heuristic bot's tables; a network is shared by all games)
RECORD_BYTES_PER_JSON_BYTE = 5
REPLAY_HEX_BYTES = 8_000  # a rebuilt game, per hex of its own map (a preset's is loaded once per process)
REPLAY_FRAME_BYTES = 3_300


@dataclass(frozen=True)
class Limits:
    """How much one server keeps and how many agents think at once (``create_app(limits=...)``)."""

    live_games: int = 64
    live_bytes: int = 512 * MB
    idle_s: float = 15 * 60  # a live game untouched this long may make room for a new one
    games_per_client: int = 16  # a client's next game makes room by dropping its own oldest
    replays: int = 16  # opened results files
    replay_bytes: int = 256 * MB
    rebuilt: int = 256  # rebuilt replay games, of all files together
    rebuilt_bytes: int = 128 * MB
    think_workers: int = 2
    think_queue: int = 8  # thinks waiting for a worker; past this a new one is a 503
    build_workers: int = 2  # replay games rebuilt at once (their own threads: the agents' are apart)
    build_queue: int = 8
    parse_bytes: int = 384 * MB  # results files being read and parsed at once: their bytes, and what parsing holds


def new_id() -> str:
    return secrets.token_urlsafe(8)


def mb(n: float) -> str:
    return f"{n / MB:.1f} MB"


class Table:
    """Entries by key, least recently used first, bounded in count and in estimated bytes."""

    def __init__(self, what: str, max_items: int, max_bytes: int, size_of: Callable[[Any], int],
                 may_go: Callable[[Any], bool] = lambda _: True) -> None:
        self.what, self.max_items, self.max_bytes = what, max_items, max_bytes
        self.size_of, self.may_go = size_of, may_go
        self.items: OrderedDict[Hashable, Any] = OrderedDict()

    def get(self, key: Hashable) -> Any | None:
        if key not in self.items:
            return None
        self.items.move_to_end(key)
        return self.items[key]

    def total(self) -> int:
        return sum(self.size_of(v) for v in self.items.values())

    def add(self, key: Hashable, value: Any) -> list[Hashable]:
        """Adds ``value``, dropping least recently used entries that may go; the keys dropped.
        Nothing is dropped when the room cannot be made (503) or ``value`` alone is too big (413)."""
        size = self.size_of(value)
        if size > self.max_bytes:
            raise WebError(f"this is too large to keep: {mb(size)}, and this server keeps at most "
                           f"{mb(self.max_bytes)} of {self.what}", 413)
        count, total, victims = len(self.items), self.total(), []
        for k, v in self.items.items():
            if count < self.max_items and total + size <= self.max_bytes:
                break
            if self.may_go(v):
                victims.append(k)
                count, total = count - 1, total - self.size_of(v)
        if count >= self.max_items or total + size > self.max_bytes:
            raise WebError(f"the server is full: it keeps {len(self.items)} {self.what} "
                           f"({mb(self.total())}), all in use; try again later", 503)
        for k in victims:
            del self.items[k]
        self.items[key] = value
        return victims

    def drop(self, keep: Callable[[Hashable], bool]) -> None:
        for k in [k for k in self.items if not keep(k)]:
            del self.items[k]


def live_bytes(hexes: int, decisions: int, agents: Iterable[str] = ()) -> int:
    """What a live game holds, estimated: on a board of ``hexes``, after ``decisions``, with
    agents of these specs at its seats (people hold nothing of their own)."""
    agent = sum(SEAT_HEX_BYTES.get(spec.partition(":")[0].strip().lower(), AGENT_HEX_BYTES) for spec in agents)
    return (LIVE_HEX_BYTES + agent) * hexes + LIVE_DECISION_BYTES * decisions


def live_game_bytes(game: Any) -> int:
    """A Vigtavl game's estimate (:func:`live_bytes`); another game's (:mod:`webapp.any_game`) says its own."""
    if hasattr(game, "nbytes"):
        return game.nbytes
    agents = [spec for spec, agent in zip(game.seats, game.players) if agent is not None]
    return live_bytes(game.web.board_cells(game.env), len(game.decisions), agents)


def replay_bytes(hexes: int, frames: int, own_map: bool = True) -> int:
    """What a rebuilt replay game holds, estimated: on a board of ``hexes``, with ``frames``;
    ``own_map``: its map is its own (a random or a custom map's text), not a shared preset."""
    return REPLAY_HEX_BYTES * hexes * own_map + REPLAY_FRAME_BYTES * frames


def replay_game_bytes(game: Any) -> int:
    return replay_bytes(game.snapshots[0].gmap.board.n_cells, game.frames, game.record.map_text is not None)


class Store:
    """Live games, opened results files and rebuilt replay games, each in a bounded :class:`Table`."""

    def __init__(self, limits: Limits = Limits(), clock: Callable[[], float] = time.monotonic) -> None:
        self.limits, self.clock = limits, clock
        self.games = Table("live games", limits.live_games, limits.live_bytes, live_game_bytes, self._idle)
        self.replays = Table("opened results files", limits.replays, limits.replay_bytes, lambda r: r.nbytes)
        self.rebuilt = Table("rebuilt replay games", limits.rebuilt, limits.rebuilt_bytes, replay_game_bytes)
        self.lock = threading.Lock()

    def _idle(self, game: Any) -> bool:
        return game.thinking is None and self.clock() - game.touched >= self.limits.idle_s

    def add_game(self, game: Any, client: str = "") -> str:
        """Keeps a new game of ``client`` (its address), with a token of its own (``game.token``:
        the person's decisions need it, the id alone does not grant them): at
        :attr:`Limits.games_per_client`, the client's own least recently used games that are not
        thinking go first, so one client never takes every place; then any game idle long
        enough; else a 503."""
        with self.lock:
            key = new_id()
            game.touched, game.client, game.token = self.clock(), client, secrets.token_urlsafe(TOKEN_BYTES)
            mine = [k for k, g in self.games.items.items() if getattr(g, "client", "") == client]
            spare = [k for k in mine if self.games.items[k].thinking is None]
            over = len(mine) + 1 - self.limits.games_per_client
            if over > len(spare):
                raise WebError(f"the server is full for you: your {len(mine)} games' agents are all thinking; "
                               "try again when one has decided", 503)
            for k in spare[:max(0, over)]:
                del self.games.items[k]
            self.games.add(key, game)
            return key

    def game(self, key: str, kind: type | None = None) -> Any:
        """The live game ``key`` (of class ``kind`` when given: Vigtavl's routes and the other
        games' do not serve each other's games), touched; else a 404."""
        with self.lock:
            game = self.games.get(key)
            if game is None or (kind is not None and not isinstance(game, kind)):
                raise WebError(f"no game {key!r} on this server (it was restarted, or the game was idle and "
                               "made room for another); start a new one", 404)
            game.touched = self.clock()
            return game

    def add_replay(self, replay: Any) -> str:
        with self.lock:
            key = new_id()
            gone = set(self.replays.add(key, replay))
            self.rebuilt.drop(lambda k: k[0] not in gone)
            return key

    def replay(self, key: str, kind: type | None = None) -> Any:
        with self.lock:
            replay = self.replays.get(key)
            if replay is None or (kind is not None and not isinstance(replay, kind)):
                raise WebError(f"no opened results file {key!r} on this server; open it again", 404)
            return replay

    def rebuilt_game(self, key: str, number: int) -> Any | None:
        """Game ``number`` of an opened file if rebuilt and kept, else None (404: no such file)."""
        self.replay(key)
        with self.lock:
            return self.rebuilt.get((key, number))

    def rebuild(self, key: str, number: int) -> Any:
        """Rebuilds game ``number`` of an opened file and keeps it (while the file is kept)."""
        replay = self.replay(key)
        game = replay.build(number)
        with self.lock:
            if self.replays.get(key) is replay:
                self.rebuilt.add((key, number), game)
        return game


class ThinkPool:
    """A few daemon threads where agents think, fed by a bounded queue."""

    def __init__(self, workers: int, waiting: int, what: str = "agents are thinking") -> None:
        self.jobs: queue.Queue = queue.Queue(maxsize=waiting)
        self.what = what
        for i in range(workers):  # daemon: a think in progress does not keep the process alive
            threading.Thread(target=self._work, name=f"vigtavl-{what.split()[0]}-{i}", daemon=True).start()

    def submit(self, job: Callable[[], Any]) -> Future:
        future: Future = Future()
        try:
            self.jobs.put_nowait((job, future))
        except queue.Full:
            raise WebError(f"the server is busy: too many {self.what} now; try again in a moment", 503) from None
        return future

    def _work(self) -> None:
        while True:
            job, future = self.jobs.get()
            if future.set_running_or_notify_cancel():
                try:
                    future.set_result(job())
                except BaseException as e:  # the request that waits answers it
                    future.set_exception(e)


class Budget:
    """Bytes that may be in use at once (results files being read and parsed): taken before the
    work, given back after it; what does not fit now is a 503, never a wait."""

    def __init__(self, total: int) -> None:
        self.total, self.used = total, 0
        self.lock = threading.Lock()

    def free(self) -> int:
        with self.lock:
            return self.total - self.used

    def take(self, n: int) -> int:
        if n > self.total:
            raise WebError(f"this is too large to read: about {mb(n)} once parsed, and this server reads at most "
                           f"{mb(self.total)} at once", 413)
        with self.lock:
            if n > self.total - self.used:
                raise WebError(f"the server is busy reading other results files ({mb(self.used)} now); "
                               "try again in a moment", 503)
            self.used += n
            return n

    def give(self, n: int) -> None:
        with self.lock:
            self.used -= n

    @contextlib.contextmanager
    def held(self, n: int) -> Iterator[None]:
        """``n`` bytes taken for the block and given back after it, whatever happens."""
        taken = self.take(n)
        try:
            yield
        finally:
            self.give(taken)


class Turns:
    """Turns to do something slow (start a game): at most ``total`` at once and one per client,
    waited for on the event loop (it alone touches the count); past ``wait_s``, a 503. One
    client asking for many at once waits for its own turns and takes no one else's."""

    def __init__(self, total: int, wait_s: float, what: str) -> None:
        self.total, self.wait_s, self.what = total, wait_s, what
        self.now: Counter = Counter()  # client -> turns held now

    @contextlib.asynccontextmanager
    async def turn(self, client: str) -> AsyncIterator[None]:
        waited, pause = 0.0, TURN_POLL_S
        while self.now[client] >= 1 or sum(self.now.values()) >= self.total:
            if waited > self.wait_s:
                raise WebError(f"the server is busy {self.what}; try again in a moment", 503)
            await asyncio.sleep(pause)
            waited, pause = waited + pause, min(2 * pause, TURN_POLL_MAX_S)
        self.now[client] += 1
        try:
            yield
        finally:
            self.now[client] -= 1
            if not self.now[client]:
                del self.now[client]
