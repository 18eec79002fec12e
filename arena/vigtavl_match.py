"""Matches between agents: seats rotated fairly, games in parallel, every game recorded.

::

    from arena.vigtavl_match import run_match
    result = run_match(["greedy", "random"], games=200, seed=0, workers=2)
    print(result.table())
    result.save("results.json")

Each game is Vigtavl's (:data:`GAME`), played through the game interface
(``games.load_game(GAME)``): a player of the game's kinds table (:mod:`agents.kinds`) decides
``player(state.view_for(seat), state.legal_actions())``.

Reproducibility. Game ``g`` is reset with seed ``seed + g``, and the agent in seat ``i`` is built
and reset with seed ``(seed + g) * AGENT_SEED_STRIDE + i``; agents are created afresh for every
game inside the worker process from their spec strings. A game's result therefore depends only
on its own seed and lineup, never on the worker that played it or on the games before it:
``workers=2`` gives exactly the results of ``workers=1``. Every game record (``arena.records``) keeps the
engine seed, the map, the rules and the decisions (engine codes), so ``arena.replay`` rebuilds
the game exactly.

Seats. ``agents`` lists one spec per seat (``num_players`` of them; a spec may be repeated).
Lineups follow :func:`seat_orders`: every block of ``k`` consecutive games is a rotation (each
agent sits in each seat once), and every ``k!`` games cover every seat permutation once. With two
agents the first player simply alternates.

Scoring. The winners are the players with the most victory tokens. A win shared by ``w`` players
counts ``1/w`` to each of them (so the wins of a game always add up to 1); the table also counts
shared wins separately. A game cut off at ``max_steps`` has no winner (it counts as a game with
0 wins for everyone) and is reported as truncated. Statistics are per agent name: when a name sits
in several seats of one game, each seat counts as one game for it. The win rate comes with a 95%
Wilson score interval (:func:`wilson_interval`).

Stopping. Ctrl-C (or SIGTERM, inside :func:`sigterm_as_interrupt`) stops a run at once:
:func:`play_jobs` raises :class:`RunInterrupted` holding every game finished by then, and the run's
result made of them is marked partial (``"partial": true``, ``games_planned``, ``games_played`` in
its results file). The worker processes leave the signals to the parent, which asks them to stop
through an event they check between decisions, waits ``STOP_GRACE_S`` for the games they finished,
then ends any still busy.
"""

from __future__ import annotations

import importlib.util
import itertools
import json
import math
import multiprocessing
import os
import signal
import threading
import time
from collections.abc import Callable, Iterator, Sequence
from concurrent.futures import FIRST_COMPLETED, Future, ProcessPoolExecutor, wait
from concurrent.futures.process import BrokenProcessPool
from contextlib import contextmanager
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

from tqdm import tqdm

from agents.generic import GameStopped, Player, RandomPlayer
from agents.kinds import make_player as kind_player
from arena.stats import Z_95, wilson_interval  # noqa: F401 (arena.vigtavl_match.wilson_interval)
from arena.records import GameRecord, load_results, partial_fields, results_file, save_results
from games import load_game
from games.interface import GameState

GAME = "vigtavl"  # the game this runner's matches, maps, variants and results files are of
DEFAULT_MAX_STEPS: int = load_game(GAME).default_max_steps

AGENT_SEED_STRIDE = 16  # agent seed = game seed * stride + seat (seats < 16)
MAX_CHUNK = 16  # games per task sent to a worker (progress granularity vs. overhead)
CHUNKS_PER_WORKER = 4
SCORING = "a win shared by w players counts 1/w to each; truncated games have no winner"
MP_CONTEXT = "spawn"  # safe with torch and threads; workers import the project afresh
STOP_GRACE_S = 1.0  # after a stop, how long busy workers get to hand back the games they finished
# The parent waits for its workers in steps this long: a signal that lands on another of its
# threads runs its handler only when the main thread wakes, and an untimed wait never does.
SIGNAL_POLL_S = 0.1


# ------------------------------------------------------------------ agents by name
BUILTIN_AGENTS: dict[str, Callable[[int | None], Player]] = {"random": RandomPlayer}  # also without agents.registry


def _registry() -> Any:
    """``agents.registry`` when it exists, else None (then only the built-in agents exist)."""
    if importlib.util.find_spec("agents.registry") is None:
        return None
    from agents import registry
    return registry


def known_agents() -> list[str]:
    """Names of the agents ``make_agent`` can build (the registry's, plus ``random``)."""
    registry = _registry()
    listed = list(registry.list_agents()) if hasattr(registry, "list_agents") else []
    return list(dict.fromkeys(listed + list(BUILTIN_AGENTS)))


def make_agent(spec: str, seed: int | None = None) -> Any:
    """Vigtavl's agent of a spec string (``random``, ``greedy``, ``search:200``, ``ppo:PATH`` ...),
    built by ``agents.registry.make_agent``, for the runners of Vigtavl's environment (the web
    app's live games, the league); a match plays :func:`make_player`'s players.

    Raises ValueError naming the spec and listing the known agents when the spec is bad.
    """
    return _built(spec, seed, lambda registry: registry.make_agent(spec, seed=seed))


def make_player(spec: str, seed: int | None = None) -> Player:
    """The player of :data:`GAME` a spec names (``agents.kinds``), as a match seats it; errors as
    :func:`make_agent`'s."""
    return _built(spec, seed, lambda registry: kind_player(GAME, spec, seed))


def _built(spec: str, seed: int | None, build: Callable[[Any], Any]) -> Any:
    registry = _registry()
    try:
        if registry is None:
            raise KeyError(spec)
        return build(registry)
    except (KeyError, ValueError) as e:
        if isinstance(e, getattr(registry, "AgentUnavailableError", ())):
            raise  # a good spec whose agent cannot be made here (a missing package, a model of
            # another env version): its own one-line reason, not the list of known agents
        if spec in BUILTIN_AGENTS:
            return BUILTIN_AGENTS[spec](seed)
        known = "" if "known agents" in str(e).lower() else f". Known agents: {', '.join(known_agents())}"
        raise ValueError(f"bad agent {spec!r}: {e}{known}") from None


def check_agents(specs: Sequence[str]) -> None:
    """Build each distinct spec once, so a bad name fails before any game is played."""
    for spec in dict.fromkeys(specs):
        make_agent(spec, seed=0)


def parse_agents(text: str) -> list[str]:
    """``"greedy,random"`` -> ``["greedy", "random"]`` (blank entries are an error)."""
    specs = [s.strip() for s in text.split(",")]
    if not specs or any(not s for s in specs):
        raise ValueError(f"agents must be a comma-separated list of names, got {text!r}")
    return specs


# ------------------------------------------------------------------ seats
def seat_orders(k: int) -> list[tuple[int, ...]]:
    """Lineups for ``k`` agents: ``order[seat]`` is the agent index in that seat.

    The ``k!`` permutations are grouped by rotation: each block of ``k`` consecutive lineups is
    the ``k`` rotations of one base order, so every agent sits in every seat once per block.
    """
    if k < 1:
        raise ValueError("need at least one agent")
    orders = []
    for rest in itertools.permutations(range(1, k)):
        base = (0, *rest)
        orders += [tuple(base[(s - r) % k] for s in range(k)) for r in range(k)]
    return orders


def lineup(agents: Sequence[str], game: int) -> tuple[str, ...]:
    """The agents by seat in game number ``game`` (see :func:`seat_orders`)."""
    orders = seat_orders(len(agents))
    return tuple(agents[i] for i in orders[game % len(orders)])


def agent_seed(game_seed: int, seat: int) -> int:
    return game_seed * AGENT_SEED_STRIDE + seat


# ------------------------------------------------------------------ one game
@dataclass(frozen=True)
class GameJob:
    """What a worker needs to play one game."""

    game: int
    seed: int
    seats: tuple[str, ...]
    num_players: int
    map: str | None = None
    max_steps: int = DEFAULT_MAX_STEPS
    rules: dict[str, Any] | None = None

    def env_key(self) -> str:
        return json.dumps([self.num_players, self.map, self.max_steps, self.rules], sort_keys=True)


def make_env(job: GameJob) -> "GameTable":
    """The table ``job``'s games are dealt on (its options checked here: a bad map fails now)."""
    return GameTable(job.num_players, {"map": job.map, "max_steps": job.max_steps, "rules": job.rules})


class GameTable:
    """A configuration's games: :meth:`reset` deals the game of a seed (Vigtavl's env did it
    before: the same seed, the same game), ``game_state`` is the game being played."""

    def __init__(self, num_players: int, options: dict[str, Any]) -> None:
        self.game = load_game(GAME)
        self.num_players, self.options = num_players, options
        self.game_state: GameState = self.game.new_state(num_players, 0, **options)

    def reset(self, seed: int) -> GameState:
        self.game_state = self.game.new_state(self.num_players, seed, **self.options)
        return self.game_state


def play_game(env: GameTable, job: GameJob, stop: Callable[[], bool] | None = None) -> GameRecord:
    """Play one game of ``job`` on ``env`` (dealt here) and record it; ``stop``, asked before
    every decision, gives up the game with :class:`StopRequested` when it says so."""
    env.reset(seed=job.seed)
    seeds = [agent_seed(job.seed, i) for i in range(len(job.seats))]
    players = [make_player(spec, seed=s) for spec, s in zip(job.seats, seeds)]
    return run_game(env, players, job, seeds, stop=stop)


Observer = Callable[[GameState, int, str], Any]  # (state after, decision number, its description)


def run_game(env: GameTable, players: Sequence[Player], job: GameJob, agent_seeds: Sequence[int],
             observer: Observer | None = None, stop: Callable[[], bool] | None = None) -> GameRecord:
    """Play ``env``'s game (already dealt) to the end with ``players`` by seat, and record it.

    ``observer``, when given, is called after every decision (watching a game live); ``stop``,
    asked before every decision, ends the game unfinished with :class:`StopRequested`.
    """
    decisions: list[int] = []
    seat_decisions = [0] * len(players)
    seat_cpu = [0.0] * len(players)
    try:
        _play_to_the_end(env.game_state, players, observer, decisions, seat_decisions, seat_cpu, stop)
    except GameStopped as stopped:  # a person quit: the game so far, for --out
        stopped.record = record_game(env.game_state, job, agent_seeds, decisions, seat_decisions, seat_cpu)
        raise
    return record_game(env.game_state, job, agent_seeds, decisions, seat_decisions, seat_cpu)


def _play_to_the_end(state: GameState, players: Sequence[Player], observer: Observer | None, decisions: list[int],
                     seat_decisions: list[int], seat_cpu: list[float], stop: Callable[[], bool] | None) -> None:
    while not state.is_over():
        if stop is not None and stop():  # about a microsecond: a decision takes hundreds
            raise StopRequested(f"stopped before decision {len(decisions) + 1}")
        seat = state.current_player()
        legal = state.legal_actions()
        start = time.process_time()  # CPU, all threads: a network on two threads costs twice
        action = int(players[seat](state.view_for(seat), legal))
        seat_cpu[seat] += time.process_time() - start
        seat_decisions[seat] += 1
        text = state.action_to_string(action) if observer is not None else ""
        decisions.append(state.action_for_record(action))
        state.apply_action(action)
        if observer is not None:
            observer(state, len(decisions), text)


def record_game(state: GameState, job: GameJob, agent_seeds: Sequence[int], decisions: list[int],
                seat_decisions: list[int], seat_cpu: list[float]) -> GameRecord:
    """The record of the game ``state`` so far (finished, or cut off: ``truncated``)."""
    start = state.start_options()
    named = start.get("map_name")
    over = state.is_terminal()
    return GameRecord(
        game=job.game, seed=job.seed, game_seed=int(start["engine_seed"]), map=named or start["map"],
        map_text=start["map"] if named else None, num_players=state.num_players, rules=start["rules"],
        seats=list(job.seats), agent_seeds=list(agent_seeds), decisions=decisions,
        tokens=[int(t) for t in state.scores()["tokens"]], winners=state.winners() if over else [],
        n_decisions=len(decisions), truncated=not over, final_digest=state.digest(),
        seat_decisions=seat_decisions, seat_cpu=[round(c, 6) for c in seat_cpu])


def ignore_stop_signals() -> None:
    """In a worker process: leave Ctrl-C and SIGTERM to the parent, which stops cleanly (a trainer
    saves a checkpoint first) and then closes its workers. A signal sent to the whole process
    group (``timeout``, a job scheduler) would otherwise kill the workers under it. A parent
    that dies without closing them (``kill -9``, out of memory) takes them with it at once
    (:func:`leave_with_parent`)."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    signal.signal(signal.SIGTERM, signal.SIG_IGN)
    leave_with_parent()


def leave_with_parent() -> None:
    """In a worker process: end it once its parent is gone. Workers deaf to the stop signals
    would otherwise wait for work from a dead parent for good. The parent is the one that
    started the worker (``multiprocessing.parent_process``), so a parent that died while the
    worker was still starting counts too; its end is seen at once, through its sentinel."""
    parent = multiprocessing.parent_process()
    if parent is None:  # not started by multiprocessing: no parent to follow
        return

    def watch() -> None:
        parent.join()  # returns when the parent process has ended
        os._exit(1)

    threading.Thread(target=watch, name="leave-with-parent", daemon=True).start()


# ------------------------------------------------------------------ stopping a run
class StopRequested(Exception):
    """The run a game belongs to is stopping: the game is given up unfinished (:func:`play_chunk`)."""


class StopSignal(KeyboardInterrupt):
    """SIGTERM raised in the main thread (:func:`sigterm_as_interrupt`), so that it stops a run as
    Ctrl-C does; ``signum`` is the signal."""

    def __init__(self, signum: int) -> None:
        super().__init__(signal.Signals(signum).name)
        self.signum = signum


class RunInterrupted(KeyboardInterrupt):
    """Ctrl-C or SIGTERM stopped a run: ``records``, the games finished by then (in game order), of
    ``planned``; ``signum``, the signal. The run attaches its partial result as ``result`` (a
    match's or a tournament's) before passing it on. A KeyboardInterrupt, so code that knows
    nothing of it still stops as on Ctrl-C."""

    def __init__(self, records: Sequence[GameRecord], planned: int, signum: int = signal.SIGINT) -> None:
        super().__init__(f"interrupted by {signal.Signals(signum).name} after {len(records)} of {planned} games")
        self.records, self.planned, self.signum = sorted(records, key=lambda r: r.game), planned, signum
        self.result: Any = None


def signal_number(stop: KeyboardInterrupt) -> int:
    """The signal behind a KeyboardInterrupt: SIGINT unless it carries another (:class:`StopSignal`)."""
    return int(getattr(stop, "signum", signal.SIGINT))


@contextmanager
def sigterm_as_interrupt() -> Iterator[None]:
    """Inside: SIGTERM raises :class:`StopSignal` in the main thread, so a run stops and keeps its
    finished games as on Ctrl-C (in another thread nothing changes)."""
    def raise_stop(signum: int, frame: Any) -> None:
        raise StopSignal(signum)
    try:
        previous = signal.signal(signal.SIGTERM, raise_stop)
    except ValueError:  # not the main thread: signals stay as they are
        yield
        return
    try:
        yield
    finally:
        signal.signal(signal.SIGTERM, previous)


@contextmanager
def _signals_ignored() -> Iterator[None]:
    """Inside: Ctrl-C and SIGTERM are ignored (main thread), while a stopping run collects its games."""
    previous = {}
    for sig in (signal.SIGINT, signal.SIGTERM):
        try:
            previous[sig] = signal.signal(sig, signal.SIG_IGN)
        except ValueError:  # not the main thread
            pass
    try:
        yield
    finally:
        for sig, handler in previous.items():
            if handler is not None:  # None: a handler not set from Python, which cannot be put back
                signal.signal(sig, handler)


@contextmanager
def _signals_deferred() -> Iterator[Callable[[], None]]:
    """Inside: Ctrl-C and SIGTERM (main thread) are held, and the ``check`` it yields runs the
    handler each one had, raising there as before. A handler that raises at any bytecode could
    raise inside the pool's own locking (``wait`` takes each future's lock in turn); a lock left
    held hangs the pool's thread, and with it the process at exit."""
    held: list[int] = []
    previous: dict[int, Any] = {}

    def hold(signum: int, frame: Any) -> None:
        held.append(signum)

    def check() -> None:
        while held:
            sig = held.pop(0)
            handler = previous.get(sig)
            if callable(handler):
                handler(sig, None)
            elif handler == signal.SIG_IGN:
                continue
            elif sig == signal.SIGINT:
                raise KeyboardInterrupt
            else:  # the default action: the process ends by the signal
                signal.signal(sig, signal.SIG_DFL)
                os.kill(os.getpid(), sig)

    for sig in (signal.SIGINT, signal.SIGTERM):
        try:
            previous[sig] = signal.signal(sig, hold)
        except ValueError:  # not the main thread: signals stay as they are
            pass
    try:
        yield check
    finally:
        for sig, handler in previous.items():
            signal.signal(sig, handler if handler is not None else signal.SIG_DFL)


# In a worker process, the stop event of the run it plays for, set by the pool's initializer
# (an event reaches a worker only by inheritance, never as a task's argument).
_run_stop: Any = None


def _start_worker(stop: Any) -> None:
    """Pool initializer: the parent handles Ctrl-C and SIGTERM, and says stop through ``stop``."""
    global _run_stop
    ignore_stop_signals()
    _run_stop = stop


def _stop_requested() -> bool:
    return _run_stop is not None and _run_stop.is_set()


# ------------------------------------------------------------------ many games
def play_chunk(jobs: Sequence[GameJob]) -> list[GameRecord]:
    """Play a list of games in a worker process, one env per configuration; when the run says
    stop, the games finished by then."""
    envs: dict[str, GameTable] = {}
    out = []
    for job in jobs:
        if _stop_requested():
            break
        try:
            out.append(_play_job(envs, job, _stop_requested))
        except StopRequested:
            break
    return out


def _play_job(envs: dict[str, GameTable], job: GameJob, stop: Callable[[], bool] | None = None) -> GameRecord:
    """One game on the env of its configuration (made once per process); a failure names the game."""
    key = job.env_key()
    if key not in envs:
        envs[key] = make_env(job)
    try:
        return play_game(envs[key], job, stop)
    except StopRequested:
        raise
    except Exception as e:
        raise RuntimeError(f"game {job.game} (seed {job.seed}, seats {', '.join(job.seats)}) "
                           f"failed: {type(e).__name__}: {e}") from e


def play_jobs(jobs: Sequence[GameJob], workers: int = 1, progress: bool = True,
              shielded: bool = False) -> list[GameRecord]:
    """Play every job (in ``workers`` processes when > 1); records come back in job order.

    Ctrl-C (or a :class:`StopSignal`) raises :class:`RunInterrupted` with the games finished by
    then. The workers always leave those signals to this process (:func:`ignore_stop_signals`):
    ``shielded``, which asked for that, is kept for its callers and changes nothing now."""
    with tqdm(total=len(jobs), desc="games", unit="game", disable=not progress, leave=False) as bar:
        if workers <= 1:
            return _play_here(jobs, bar)
        return _play_in_workers(jobs, workers, bar)


def _play_here(jobs: Sequence[GameJob], bar: tqdm) -> list[GameRecord]:
    envs: dict[str, GameTable] = {}
    records: list[GameRecord] = []
    try:
        for job in jobs:
            records.append(_play_job(envs, job))
            bar.update(1)
    except KeyboardInterrupt as e:
        raise RunInterrupted(records, len(jobs), signal_number(e)) from None
    return records


def _play_in_workers(jobs: Sequence[GameJob], workers: int, bar: tqdm) -> list[GameRecord]:
    size = max(1, min(MAX_CHUNK, math.ceil(len(jobs) / max(1, workers * CHUNKS_PER_WORKER))))
    ctx = multiprocessing.get_context(MP_CONTEXT)
    stop = ctx.Event()
    pool = ProcessPoolExecutor(max_workers=workers, mp_context=ctx, initializer=_start_worker, initargs=(stop,))
    futures: list[Future] = []
    done: dict[Future, list[GameRecord]] = {}  # one assignment per chunk: a signal never splits it
    try:
        with _signals_deferred() as check_signals:  # a signal raises here, between waits
            for i in range(0, len(jobs), size):
                futures.append(pool.submit(play_chunk, list(jobs[i:i + size])))
            pending = set(futures)
            while pending:
                check_signals()
                finished, pending = wait(pending, timeout=SIGNAL_POLL_S, return_when=FIRST_COMPLETED)
                for fut in finished:
                    if isinstance(fut.exception(), BrokenProcessPool):
                        _stop_signal_first(check_signals)
                    done[fut] = fut.result()
                    bar.update(len(done[fut]))
            check_signals()
    except BaseException as e:  # Ctrl-C, or a game that failed: the other workers stop too
        with _signals_ignored():
            _stop_workers(pool, stop, futures, done)
        if isinstance(e, KeyboardInterrupt):
            raise RunInterrupted([r for rs in done.values() for r in rs], len(jobs), signal_number(e)) from None
        raise
    pool.shutdown()
    return sorted((r for rs in done.values() for r in rs), key=lambda r: r.game)


def _stop_signal_first(check_signals: Callable[[], None]) -> None:
    """A worker died: when a stop signal sent to the whole group did it (it came while the
    worker was starting, before it could leave the signal to this process), the stop wins over
    the broken pool. The signal reached this process at the same moment; a short wait lets its
    handler run."""
    time.sleep(SIGNAL_POLL_S)
    check_signals()


def _stop_workers(pool: ProcessPoolExecutor, stop: Any, futures: Sequence[Future],
                  done: dict[Future, list[GameRecord]]) -> None:
    """Stop a pool now: with ``stop`` set, chunks not started return nothing and busy workers hand
    back their finished games (into ``done``) within ``STOP_GRACE_S``; workers still busy then are
    killed. No future is cancelled: Python 3.11's pool, broken by the kill, would fail on one."""
    stop.set()
    finished, late = wait([f for f in futures if f not in done], timeout=STOP_GRACE_S)
    for fut in finished:
        if fut.exception() is None:
            done[fut] = fut.result()
    if late:
        _end_workers(pool)
    pool.shutdown(wait=not late)


def _end_workers(pool: ProcessPoolExecutor) -> None:
    """Kill a pool's worker processes mid-task (SIGKILL: they ignore SIGTERM). ``kill_workers``
    from Python 3.14; before that ProcessPoolExecutor has no public way, so its own table of them."""
    if hasattr(pool, "kill_workers"):
        pool.kill_workers()
        return
    procs = list((getattr(pool, "_processes", None) or {}).values())
    for proc in procs:
        proc.kill()
    for proc in procs:
        proc.join(timeout=STOP_GRACE_S)


# ------------------------------------------------------------------ statistics
@dataclass
class AgentStats:
    """One agent's totals over a list of games (per seat it held)."""

    name: str
    games: int = 0
    wins: float = 0.0
    shared: int = 0
    tokens: int = 0
    length: int = 0
    truncated: int = 0
    decisions: int = 0  # decisions made and CPU seconds spent by the agent (records that have them)
    cpu: float = 0.0

    @property
    def win_rate(self) -> float:
        return self.wins / self.games if self.games else 0.0

    @property
    def ci(self) -> tuple[float, float]:
        return wilson_interval(self.wins, self.games)

    @property
    def mean_tokens(self) -> float:
        return self.tokens / self.games if self.games else 0.0

    @property
    def mean_length(self) -> float:
        return self.length / self.games if self.games else 0.0

    @property
    def ms_per_decision(self) -> float | None:
        """Mean CPU milliseconds per decision the agent made (None: no timings recorded)."""
        return 1000 * self.cpu / self.decisions if self.decisions else None

    def line(self, width: int) -> str:
        lo, hi = self.ci
        ms = self.ms_per_decision
        return (f"{self.name:<{width}} {self.games:>6} {self.wins:>8.1f} {self.shared:>6} "
                f"{100 * self.win_rate:>6.1f}  [{100 * lo:5.1f}, {100 * hi:5.1f}] "
                f"{self.mean_tokens:>7.2f} {self.mean_length:>7.1f} "
                + (f"{ms:>7.2f}" if ms is not None else f"{'-':>7}"))


def agent_stats(records: Sequence[GameRecord], names: Sequence[str] | None = None) -> list[AgentStats]:
    """Per-agent totals, in the order of ``names`` (default: first appearance)."""
    order = list(dict.fromkeys(names if names is not None else [s for r in records for s in r.seats]))
    stats = {n: AgentStats(n) for n in order}
    for r in records:
        for seat, name in enumerate(r.seats):
            st = stats.setdefault(name, AgentStats(name))
            st.games += 1
            st.wins += r.win_share(seat)
            st.shared += int(seat in r.winners and len(r.winners) > 1)
            st.tokens += r.tokens[seat]
            st.length += r.n_decisions
            st.truncated += int(r.truncated)
            if r.seat_decisions:
                st.decisions += r.seat_decisions[seat]
                st.cpu += r.seat_cpu[seat]
    return list(stats.values())


def stats_table(stats: Sequence[AgentStats]) -> str:
    """The per-agent table: one line per agent, beginning with its name."""
    width = max([len("agent")] + [len(s.name) for s in stats])
    head = (f"{'agent':<{width}} {'games':>6} {'wins':>8} {'shared':>6} {'win%':>6}  "
            f"{'95% CI':^14} {'tokens':>7} {'length':>7} {'ms/dec':>7}")
    return "\n".join([head] + [s.line(width) for s in stats])


# ------------------------------------------------------------------ a match
@dataclass
class MatchResult:
    """A match: its settings, every game's record, and the per-agent table."""

    agents: list[str]
    num_players: int
    seed: int
    map: str | None
    records: list[GameRecord] = field(default_factory=list)
    seconds: float = 0.0
    planned: int | None = None  # an interrupted match: the games it was to play (None: complete)

    def stats(self) -> list[AgentStats]:
        return agent_stats(self.records, self.agents)

    def table(self) -> str:
        n_trunc = sum(r.truncated for r in self.records)
        n = self.planned or len(self.records)
        games = f"{n} game{'' if n == 1 else 's'}"
        played = f"{len(self.records)} of {games} (interrupted)" if self.planned else games
        notes = [f"{played}, {self.num_players} players, map {self.map or 'default'}, "
                 f"seeds {self.seed}..{self.seed + n - 1}, {self.seconds:.1f} s",
                 f"wins: {SCORING}",
                 "win% CI: 95% Wilson score interval; tokens: mean victory tokens; "
                 "length: mean decisions per game; ms/dec: the agent's CPU milliseconds per decision"]
        if n_trunc:
            notes.append(f"warning: {n_trunc} games truncated at max_steps")
        return stats_table(self.stats()) + "\n" + "\n".join("  " + n for n in notes)

    def to_dict(self) -> dict[str, Any]:
        return results_file("match", self.records, agents=self.agents, num_players=self.num_players,
                            seed=self.seed, map=self.map, scoring=SCORING, seconds=self.seconds,
                            table=[asdict(s) | {"win_rate": s.win_rate, "ci95": list(s.ci)} for s in self.stats()],
                            **partial_fields(len(self.records), self.planned))

    def save(self, path: str | Path) -> None:
        save_results(self.to_dict(), path)

    @classmethod
    def from_dict(cls, d: dict[str, Any]) -> "MatchResult":
        missing = [k for k in ("agents", "num_players", "seed", "games") if k not in d]
        if missing:
            raise ValueError(f"not a match's results (missing {', '.join(missing)})")
        return cls(agents=list(d["agents"]), num_players=int(d["num_players"]), seed=int(d["seed"]),
                   map=d.get("map"), records=[GameRecord.from_dict(g) for g in d["games"]],
                   seconds=float(d.get("seconds", 0.0)),
                   planned=int(d["games_planned"]) if d.get("partial") is True else None)

    @classmethod
    def load(cls, path: str | Path) -> "MatchResult":
        return cls.from_dict(load_results(path))


def match_jobs(agents: Sequence[str], games: int, seed: int, num_players: int, map: str | None = None,
               max_steps: int = DEFAULT_MAX_STEPS, rules: dict[str, Any] | None = None,
               first_game: int = 0) -> list[GameJob]:
    """The games of one match: game ``g`` has seed ``seed + g`` and lineup ``lineup(agents, g)``."""
    if num_players not in (2, 3, 4):
        raise ValueError(f"a match is for 2, 3 or 4 players (one agent per seat), got {num_players}: "
                         f"{', '.join(agents)}")
    if len(agents) != num_players:
        raise ValueError(f"a {num_players}-player match needs {num_players} agents, one per seat, got "
                         f"{len(agents)} ({', '.join(agents)}); repeat a name to fill seats, "
                         "e.g. greedy,random,random")
    if games < 1:
        raise ValueError(f"games must be at least 1, got {games}")
    return [GameJob(first_game + g, seed + g, lineup(agents, g), num_players, map, max_steps, rules)
            for g in range(games)]


def run_match(agents: Sequence[str], games: int, seed: int, workers: int = 1, num_players: int = 2,
              map: str | None = None, progress: bool = True, max_steps: int = DEFAULT_MAX_STEPS,
              rules: dict[str, Any] | None = None, shielded: bool = False) -> MatchResult:
    """Play ``games`` games between ``agents`` (one spec per seat) and collect the results
    (``shielded``: the workers leave stop signals to this process, as a trainer's evaluation)."""
    agents = list(agents)
    jobs = match_jobs(agents, games, seed, num_players, map, max_steps, rules)
    start = time.perf_counter()  # the time reported: loading the agents (a network's model) included
    check_agents(agents)
    make_env(jobs[0])  # the map and the options, checked before any game is played
    try:
        records = play_jobs(jobs, workers, progress, shielded)
    except RunInterrupted as stop:  # the games finished so far, for the caller to keep
        stop.result = MatchResult(agents, num_players, seed, map, stop.records, time.perf_counter() - start,
                                  planned=len(jobs))
        raise
    return MatchResult(agents, num_players, seed, map, records, time.perf_counter() - start)
