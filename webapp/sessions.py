"""The live games a web server holds (play, watch); replays of results files are
:mod:`webapp.replays`.

A :class:`LiveGame` is a ``raw_env`` with one agent per seat, or a person (``"human"``): a
person's decision comes from a click (:meth:`LiveGame.decide`), an agent's from an advance, one
decision per call, so the page shows each move and can pause, step and set the speed. An agent
thinks without the game's lock, on its own copy of the state (:meth:`LiveGame.next_think`,
:meth:`LiveGame.start_advance`), so the game can be shown meanwhile and nothing waits on it.
Seeds follow ``arena.vigtavl_match`` (agent seed ``seed * 16 + seat``), so a live game's record
(:meth:`LiveGame.record`) replays like a match's.

Every request error is a :class:`WebError` with its HTTP status (400 bad input, 404 unknown,
409 not now); the server answers it with the message, never with a traceback. Where the games
are kept, and how much, is :mod:`webapp.store`.
"""

from __future__ import annotations

import asyncio
import contextlib
import random
import threading
import time
from collections.abc import AsyncIterator
from concurrent.futures import Future
from dataclasses import dataclass
from typing import Any

from arena.vigtavl_match import DEFAULT_MAX_STEPS, GameJob, agent_seed, check_agents, make_agent, record_game
from arena.records import GameRecord, results_file
from games import load_game
from webapp.guards import HUMAN, WebError
from webapp.hints import hint, hint_agent_spec, load_hinter
from webapp.vigtavl_web import VIGTAVL, vigtavl_web

SEED_RANGE = 2 ** 31
LOCK_WAIT_S = 5.0  # the game's lock is held for one step or one view: milliseconds
LOCK_POLL_S = 0.002


@dataclass
class Think:
    """An agent's question: what it sees when asked to decide, copied, so that the game may be
    shown while it thinks."""

    seat: int
    number: int  # the decisions made before it
    observation: Any
    mask: Any
    info: dict[str, Any]


class GameLock:
    """A live game's lock and its wait (Vigtavl's :class:`LiveGame` and any game's
    :class:`webapp.any_game.AnyGame`); ``thinking``, ``touched`` and ``token`` are what
    :class:`webapp.store.Store` reads of a game."""

    def init_lock(self) -> None:
        self.lock = threading.Lock()
        self.touched = 0.0  # when a request last found it (the store's clock)

    @contextlib.asynccontextmanager
    async def held(self) -> AsyncIterator["GameLock"]:
        """The game's lock for one request, waited for on the event loop: a worker thread that
        waited would be one fewer for the holder, and enough of them would starve it. It is held
        for a step or a view, never while an agent thinks; past :data:`LOCK_WAIT_S`, a 409."""
        waited = 0.0
        while not self.lock.acquire(blocking=False):
            if waited > LOCK_WAIT_S:
                raise WebError("the game is busy; try again", 409)
            await asyncio.sleep(LOCK_POLL_S)
            waited += LOCK_POLL_S
        try:
            yield self
        finally:
            self.lock.release()


class LiveGame(GameLock):
    """A game played now: people at the ``human`` seats, agents at the others. The seats are
    taken as given: the server checks them first (:func:`webapp.guards.seat_specs`)."""

    def __init__(self, seats: list[str], seed: int | None = None, map: Any = None,
                 max_steps: int = DEFAULT_MAX_STEPS, hints: bool = False, undo: bool = False) -> None:
        self.web = web = vigtavl_web()  # Vigtavl's env, views and words (vigtavl_env/web.py)
        n = len(seats)
        if not 2 <= n <= 4:
            raise WebError(f"a game has 2 to 4 players, got {n} seats")
        seats = [s.strip() for s in seats]
        agents = [s for s in seats if s.lower() != HUMAN]
        if not all(agents):
            raise WebError("every seat needs an agent spec or 'human'")
        if (hints or undo) and len(agents) == n:
            raise WebError("hints and undo are for a person's seat: this game has none")
        if hints:
            hint_agent_spec(n)
        try:
            check_agents(agents)
            env = web.raw_env(num_players=n, map=map or None, max_steps=max_steps)
            self.seed = random.randrange(SEED_RANGE) if seed is None else int(seed)
            env.reset(seed=self.seed)
        except (ValueError, FileNotFoundError) as e:
            raise WebError(str(e)) from None
        self.env, self.seats, self.max_steps = env, seats, max_steps
        self.new_env = lambda: web.raw_env(num_players=n, map=map or None, max_steps=max_steps)  # for an undo
        self.hints, self.undo_allowed = bool(hints), bool(undo)
        self.undone = 0  # undos so far: the page reloads the move list when it changes
        self.hinter: Any = None  # the hint agent, loaded by the first hint (webapp.hints)
        self.hint_shown: tuple[int, dict[str, Any]] | None = None  # the last hint, for the decision it was for
        self.map = map if map is None or isinstance(map, str) else map.name
        self.agent_seeds = [agent_seed(self.seed, i) for i in range(n)]
        self.players = [None if s.lower() == HUMAN else make_agent(s, seed=self.agent_seeds[i])
                        for i, s in enumerate(seats)]
        for i, a in enumerate(self.players):
            if a is not None:
                a.reset(i, self.agent_seeds[i])
        state = env.game_state
        self.board = web.board_view(state.gmap.board, state.gmap.terrain)
        self.decisions: list[int] = []
        self.seat_decisions, self.seat_cpu = [0] * n, [0.0] * n
        self.moves = [web.move_entry(0, -1, "the setup", [], -1, state.events, state)]  # then one per decision
        self.init_lock()
        self.thinking: Future | None = None  # the agent's think in progress
        self.shown: tuple[tuple[int, int], dict[str, Any]] | None = None  # the last view, for repeated polls

    # ---------------------------------------------------------------- who decides
    @property
    def over(self) -> bool:
        env = self.env
        return bool(env.game_state.is_over or any(env.truncations.values()))

    def to_act(self) -> int:
        """The seat that decides now; -1 when the game is over."""
        return -1 if self.over else self.env.possible_agents.index(self.env.agent_selection)

    @property
    def interrupt(self) -> str:
        """Why the deciding player decides out of turn ("retaliation", "defend"), else ""."""
        env = self.env
        return "" if self.over else env.infos.get(env.agent_selection, {}).get("interrupt", "")

    def human_to_act(self) -> bool:
        seat = self.to_act()
        return seat >= 0 and self.players[seat] is None

    # ---------------------------------------------------------------- decisions
    def decide(self, action: int, seat: int | None = None) -> None:
        """A person's decision (an env action index), checked before anything changes."""
        seat_now = self.to_act()
        if seat_now < 0:
            raise WebError("the game is over", 409)
        if self.players[seat_now] is not None:
            raise WebError(f"it is not your decision: P{seat_now} ({self.seats[seat_now]}) decides now", 409)
        if seat is not None and seat != seat_now:
            raise WebError(f"it is not P{seat}'s decision: P{seat_now} decides now", 409)
        obs = self.env.observe(self.env.agent_selection)
        if not isinstance(action, int) or not 0 <= action < len(obs["action_mask"]) or not obs["action_mask"][action]:
            raise WebError(f"decision {action!r} is not legal now; choose one of the highlighted decisions")
        self._step(seat_now, action)

    def next_think(self) -> Think | None:
        """The agent's question now, or None: a person decides, the game is over, or an agent
        thinks already. Call it holding the lock."""
        seat = self.to_act()
        if self.thinking is not None or seat < 0 or self.players[seat] is None:
            return None
        env, name = self.env, self.env.agent_selection
        obs = env.observe(name)
        info = self.web.agent_info(env, name)
        info["state"] = info["state"].clone()  # the agent's own copy: the game is shown meanwhile
        return Think(seat, len(self.decisions), obs["observation"].copy(), obs["action_mask"].copy(), info)

    def think(self, think: Think) -> int:
        """The agent's decision: the slow part, without the lock."""
        start = time.thread_time()  # this thread's CPU: other games think on other threads
        action = int(self.players[think.seat].act(think.observation, think.mask, think.info))
        self.seat_cpu[think.seat] += time.thread_time() - start
        return action

    def advance(self) -> bool:
        """One agent decision, here and now; False when a person decides or the game is over."""
        think = self.next_think()
        if think is None:
            return False
        self._step(think.seat, self.think(think))
        return True

    def start_advance(self, submit: Any) -> Future | None:
        """One agent decision, thought by ``submit(job)`` (a :class:`~webapp.store.ThinkPool`'s):
        its future, or None when there is none to make now (see :meth:`next_think`). Call it
        holding the lock: the job takes it to step, so it sees ``thinking`` set."""
        think = self.next_think()
        if think is None:
            return None

        def job() -> None:
            action = None
            try:
                action = self.think(think)
            finally:
                with self.lock:
                    self.thinking = None
                    if action is not None:
                        self._step(think.seat, action)
        self.thinking = submit(job)
        return self.thinking

    def _step(self, seat: int, action: int) -> None:
        env, web = self.env, self.web
        state = env.game_state
        code = env.codec.to_engine(action)
        text, cells, before = web.describe(state, code), web.decision_cells(state, code), len(state.events)
        try:
            env.step(action)
        except web.IllegalActionError as e:  # the mask said legal: a bug, but the game is unchanged
            raise WebError(f"decision refused by the rules: {e}", 409) from None
        self.decisions.append(code)
        self.seat_decisions[seat] += 1
        self.hint_shown = None
        self.moves.append(web.move_entry(len(self.decisions), seat, text, cells, code, state.events[before:], state))

    # ---------------------------------------------------------------- views
    def view(self, since: int = 0) -> dict[str, Any]:
        """The page's view, with the moves from decision ``since`` on (0: the setup, then every
        decision); ``thinking`` while an agent thinks. Kept until the next decision, so polls of
        a thinking game cost nothing."""
        since = max(0, min(int(since), len(self.moves)))
        key = (len(self.decisions), since)
        if self.shown is None or self.shown[0] != key:
            self.shown = (key, self._view(since))
        return {**self.shown[1], "thinking": self.thinking is not None}

    def _view(self, since: int) -> dict[str, Any]:
        env, state, web = self.env, self.env.game_state, self.web
        seat = self.to_act()
        out = web.state_view(state, self.seats, self.interrupt, truncated=self.over and not state.is_over)
        out.update(kind="live", seats=self.seats, seed=self.seed, to_act=seat, hints=self.hints,
                   undo=self.undo_allowed, undone=self.undone,
                   human=seat >= 0 and self.players[seat] is None, decisions_made=len(self.decisions),
                   last=self.moves[-1] if self.decisions else None, moves=self.moves[since:], decisions=[],
                   last_decisions=web.last_decisions(self.moves, len(self.seats)))
        if out["human"]:
            mask = env.observe(env.agent_selection)["action_mask"]
            out["decisions"] = web.decision_list(state, env.codec, mask, self.interrupt)
        return out

    # ---------------------------------------------------------------- a person's tools
    def hint_question(self) -> tuple[int, Any, Any, list[dict[str, Any]], Any] | dict[str, Any]:
        """What a hint needs, copied (the decision's number, the observation, the mask, the legal
        decisions, the engine state), or the hint already given for this decision. Call it
        holding the lock."""
        if not self.hints:
            raise WebError("hints are off in this game: choose them when starting a game", 409)
        if not self.human_to_act():
            raise WebError("a hint is for the person's decision, and it is not one now", 409)
        if self.hint_shown is not None and self.hint_shown[0] == len(self.decisions):
            return self.hint_shown[1]
        env = self.env
        obs = env.observe(env.agent_selection)
        decisions = self.web.decision_list(env.game_state, env.codec, obs["action_mask"], self.interrupt)
        return (len(self.decisions), obs["observation"].copy(), obs["action_mask"].copy(), decisions,
                env.game_state.clone(keep_events=False))

    def hint(self, question: tuple[int, Any, Any, list[dict[str, Any]], Any]) -> dict[str, Any]:
        """The hint for ``question``: the slow part, on the think pool, without the lock."""
        number, observation, mask, decisions, state = question
        if self.hinter is None:
            self.hinter = load_hinter(len(self.seats))
        answer = {"decision": number, "agent": hint_agent_spec(len(self.seats)),
                  **hint(self.hinter, observation, mask, decisions, self.to_act(), state)}
        self.hint_shown = (number, answer)
        return answer

    def undo(self) -> int:
        """Takes back the person's last decision and the agents' answers since: the game is
        rebuilt from its seed and the decisions before it (the engine is deterministic under a
        seed, so this is the very position), and the agents are made afresh. The number of
        decisions taken back. Call it holding the lock, with no agent thinking."""
        if not self.undo_allowed:
            raise WebError("undo is off in this game: choose it when starting a game", 409)
        if self.thinking is not None:
            raise WebError("an agent is thinking: undo when it has decided", 409)
        people = [m["n"] for m in self.moves[1:] if self.players[m["seat"]] is None]
        if not people:
            raise WebError("there is no decision of yours to take back", 409)
        keep = people[-1] - 1
        env = self.new_env()
        env.reset(seed=self.seed)
        for code in self.decisions[:keep]:
            env.step(env.codec.to_env(code))
        taken = len(self.decisions) - keep
        self.env, self.decisions, self.moves = env, self.decisions[:keep], self.moves[:keep + 1]
        self.seat_decisions = [sum(1 for m in self.moves[1:] if m["seat"] == s) for s in range(len(self.seats))]
        self.players = [None if p is None else make_agent(s, seed=self.agent_seeds[i])
                        for i, (p, s) in enumerate(zip(self.players, self.seats))]
        for i, a in enumerate(self.players):
            if a is not None:
                a.reset(i, self.agent_seeds[i])
        self.shown = self.hint_shown = None
        self.undone += 1
        return taken

    def record(self) -> GameRecord:
        job = GameJob(0, self.seed, tuple(self.seats), len(self.seats), self.map, self.max_steps)
        state = self.web.interface_state(self.env, load_game(VIGTAVL))
        return record_game(state, job, self.agent_seeds, list(self.decisions), self.seat_decisions, self.seat_cpu)

    def results(self) -> dict[str, Any]:
        """The game as a results file (``vigtavl replay`` and the replay page read it)."""
        return results_file("game", [self.record()])
