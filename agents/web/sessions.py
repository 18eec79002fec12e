"""The games a web server holds: live games (play, watch) and replays of results files.

A :class:`LiveGame` is a ``raw_env`` with one agent per seat, or a person (``"human"``): a
person's decision comes from a click (:meth:`LiveGame.decide`), an agent's from
:meth:`LiveGame.advance`, one decision per call, so the page shows each move and can pause, step
and set the speed. Seeds follow ``agents.match`` (agent seed ``seed * 16 + seat``), so a live
game's record (:meth:`LiveGame.record`) replays like a match's.

A :class:`ReplayGame` rebuilds a recorded game once, checks it against the record, and keeps a
snapshot every :data:`SNAPSHOT_EVERY` decisions: any decision of it is then at most that many
engine steps away, forward or back.

Every request error is a :class:`WebError` with its HTTP status (400 bad input, 404 unknown,
409 not now); the server answers it with the message, never with a traceback.
"""

from __future__ import annotations

import random
import secrets
import threading
import time
from collections import OrderedDict
from pathlib import Path
from typing import Any

from vigtavl_env.agent import agent_info
from agents.match import (
    DEFAULT_MAX_STEPS, RESULTS_SCHEMA, RESULTS_VERSION, GameJob, GameRecord, agent_seed, check_agents,
    make_agent, record_game,
)
from agents.registry import spec_model
from agents.replay import ReplayError, check_engine, initial_state, replay_steps, verify
from agents.web.view import (
    board_view, decision_cells, decision_list, narrate_events, state_view,
)
from vigtavl_env.engine import IllegalActionError, apply_action, describe

HUMAN = "human"
SEED_RANGE = 2 ** 31
SNAPSHOT_EVERY = 32
MAX_LIVE_GAMES = 64  # the oldest are dropped past this many
MAX_REPLAYS = 16


class WebError(Exception):
    """A request the server refuses, with its HTTP status and a message for the page."""

    def __init__(self, message: str, status: int = 400) -> None:
        super().__init__(message)
        self.status = status


def new_id() -> str:
    return secrets.token_urlsafe(8)


class ModelGuard:
    """Model files are pickles, and loading one runs code in it: only the shipped ``pretrained``
    models and the files the person named when starting the server are loaded."""

    def __init__(self, models: list[str | Path] = ()) -> None:
        self.allowed = {Path(m).resolve() for m in models}

    def check(self, spec: str) -> None:
        model = spec_model(spec)
        if model is None or model.startswith("pretrained"):
            return
        if Path(model).resolve() not in self.allowed:
            named = ", ".join(sorted(str(p) for p in self.allowed)) or "none"
            raise WebError(f"agent {spec!r}: this server loads only the model files named with "
                           f"'vigtavl serve --model PATH' (named: {named}) and the pretrained ones")


class LiveGame:
    """A game played now: people at the ``human`` seats, agents at the others."""

    def __init__(self, seats: list[str], seed: int | None = None, map: str | None = None,
                 max_steps: int = DEFAULT_MAX_STEPS, guard: ModelGuard | None = None) -> None:
        from vigtavl_env import raw_env
        n = len(seats)
        if not 2 <= n <= 4:
            raise WebError(f"a game has 2 to 4 players, got {n} seats")
        seats = [s.strip() for s in seats]
        agents = [s for s in seats if s.lower() != HUMAN]
        for spec in agents:
            if not spec:
                raise WebError("every seat needs an agent spec or 'human'")
            (guard or ModelGuard()).check(spec)
        try:
            check_agents(agents)
            env = raw_env(num_players=n, map=map or None, max_steps=max_steps)
        except (ValueError, FileNotFoundError) as e:
            raise WebError(str(e)) from None
        self.seed = random.randrange(SEED_RANGE) if seed is None else int(seed)
        env.reset(seed=self.seed)
        self.env, self.seats, self.map, self.max_steps = env, seats, map, max_steps
        self.agent_seeds = [agent_seed(self.seed, i) for i in range(n)]
        self.players = [None if s.lower() == HUMAN else make_agent(s, seed=self.agent_seeds[i])
                        for i, s in enumerate(seats)]
        for i, a in enumerate(self.players):
            if a is not None:
                a.reset(i, self.agent_seeds[i])
        self.board = board_view(env.game_state.gmap.board, env.game_state.gmap.terrain)
        self.decisions: list[int] = []
        self.seat_decisions, self.seat_cpu = [0] * n, [0.0] * n
        self.last: dict[str, Any] | None = None
        self.lock = threading.Lock()

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

    def advance(self) -> bool:
        """One agent decision; False when a person decides now or the game is over."""
        seat = self.to_act()
        if seat < 0 or self.players[seat] is None:
            return False
        obs = self.env.observe(self.env.agent_selection)
        start = time.process_time()
        action = int(self.players[seat].act(obs["observation"], obs["action_mask"],
                                            agent_info(self.env, self.env.agent_selection)))
        self.seat_cpu[seat] += time.process_time() - start
        self._step(seat, action)
        return True

    def _step(self, seat: int, action: int) -> None:
        env = self.env
        state = env.game_state
        code = env.codec.to_engine(action)
        text, cells, before = describe(state, code), decision_cells(state, code), len(state.events)
        try:
            env.step(action)
        except IllegalActionError as e:  # the mask said legal: a bug, but the game is unchanged
            raise WebError(f"decision refused by the rules: {e}", 409) from None
        self.decisions.append(code)
        self.seat_decisions[seat] += 1
        self.last = {"number": len(self.decisions), "seat": seat, "text": text, "cells": cells,
                     "events_from": before}

    # ---------------------------------------------------------------- views
    def view(self, since: int = 0) -> dict[str, Any]:
        env, state = self.env, self.env.game_state
        seat = self.to_act()
        out = state_view(state, self.seats, self.interrupt, truncated=self.over and not state.is_over)
        since = max(0, min(int(since), len(state.events)))
        out.update(kind="live", seats=self.seats, seed=self.seed, to_act=seat,
                   human=seat >= 0 and self.players[seat] is None, decisions_made=len(self.decisions),
                   last=self.last, events_total=len(state.events),
                   events=narrate_events(state.events[since:], state, since), decisions=[])
        if out["human"]:
            mask = env.observe(env.agent_selection)["action_mask"]
            out["decisions"] = decision_list(state, env.codec, mask)
        return out

    def record(self) -> GameRecord:
        job = GameJob(0, self.seed, tuple(self.seats), len(self.seats), self.map, self.max_steps)
        return record_game(self.env, job, self.agent_seeds, list(self.decisions), self.seat_decisions, self.seat_cpu)

    def results(self) -> dict[str, Any]:
        """The game as a results file (``vigtavl replay`` and the replay page read it)."""
        return {"schema": RESULTS_SCHEMA, "version": RESULTS_VERSION, "kind": "game",
                "games": [self.record().to_dict()]}


# -------------------------------------------------------------------- replays
def read_results(data: Any, name: str) -> list[GameRecord]:
    """The game records of a results file's contents (a dict), or a WebError saying what is wrong."""
    if not isinstance(data, dict) or data.get("schema") != RESULTS_SCHEMA or not isinstance(data.get("games"), list):
        raise WebError(f"{name} is not a vigtavl results file (written by vigtavl match, tournament or play --out)")
    if data.get("version") != RESULTS_VERSION:
        raise WebError(f"{name} is a results file of version {data.get('version')!r}; this engine replays "
                       f"version {RESULTS_VERSION} only: play the games again to replay them")
    try:
        records = [GameRecord.from_dict(g) for g in data["games"]]
    except (TypeError, ValueError) as e:
        raise WebError(f"{name}: {e}") from None
    if not records:
        raise WebError(f"{name} holds no games")
    return records


class ReplayFile:
    """A results file opened for replay: its games, each rebuilt when first asked for."""

    def __init__(self, records: list[GameRecord], name: str) -> None:
        self.name = name
        self.records = {r.game: r for r in records}
        self.games: dict[int, ReplayGame] = {}
        self.lock = threading.Lock()

    def summary(self) -> dict[str, Any]:
        return {"name": self.name, "games": [
            {"game": r.game, "seats": r.seats, "tokens": r.tokens, "winners": r.winners, "map": r.map,
             "decisions": r.n_decisions, "truncated": r.truncated} for r in self.records.values()]}

    def game(self, number: int) -> "ReplayGame":
        with self.lock:
            if number not in self.records:
                raise WebError(f"{self.name} has no game {number}", 404)
            if number not in self.games:
                self.games[number] = ReplayGame(self.records[number])
            return self.games[number]


class ReplayGame:
    """One recorded game, rebuilt and checked, for stepping through in both directions."""

    def __init__(self, record: GameRecord) -> None:
        try:
            check_engine(record)
            state = initial_state(record)
        except (ReplayError, ValueError, KeyError) as e:
            raise WebError(f"game {record.game} cannot be replayed: {e}") from None
        self.record = record
        self.board = board_view(state.gmap.board, state.gmap.terrain)
        self.snapshots = [state.clone(keep_events=False)]
        self.moves: list[dict[str, Any]] = []  # per decision: its words, hexes, events, turn
        self.turns = [{"turn": 0, "frame": 0, "label": "placement"}]
        before, seat = len(state.events), state.current_player
        try:
            for i, text, state in replay_steps(record, state):
                events = narrate_events(state.events[before:], state, before)
                for e in events:
                    if e["event"] == "turn":
                        self.turns.append({"turn": len(self.turns), "frame": i, "label": e["text"]})
                self.moves.append({"number": i, "seat": seat, "text": text, "events": events,
                                   "cells": decision_cells(state, record.decisions[i - 1])})
                if i % SNAPSHOT_EVERY == 0:
                    self.snapshots.append(state.clone(keep_events=False))
                before, seat = len(state.events), state.current_player
            verify(record, state)
        except ReplayError as e:
            raise WebError(str(e)) from None

    @property
    def frames(self) -> int:
        """Frames 0..n: the state before any decision, then after each."""
        return len(self.moves)

    def state_at(self, frame: int) -> Any:
        state = self.snapshots[frame // SNAPSHOT_EVERY].clone(keep_events=False)
        for code in self.record.decisions[frame - frame % SNAPSHOT_EVERY:frame]:
            apply_action(state, code)
        return state

    def summary(self) -> dict[str, Any]:
        r = self.record
        return {"game": r.game, "seats": r.seats, "tokens": r.tokens, "winners": r.winners, "seed": r.seed,
                "map": r.map, "frames": self.frames, "turns": self.turns, "board": self.board,
                "truncated": r.truncated}

    def view(self, frame: int) -> dict[str, Any]:
        if not 0 <= frame <= self.frames:
            raise WebError(f"game {self.record.game} has frames 0 to {self.frames}, not {frame}", 404)
        state = self.state_at(frame)
        truncated = frame == self.frames and self.record.truncated
        out = state_view(state, self.record.seats, truncated=truncated)
        move = self.moves[frame - 1] if frame else None
        turn = max((t for t in self.turns if t["frame"] <= frame), key=lambda t: t["frame"])
        out.update(kind="replay", frame=frame, frames=self.frames, turn=turn["turn"], last=move,
                   events=move["events"] if move else [], decisions=[])
        return out


# -------------------------------------------------------------------- the store
class Store:
    """Live games and opened results files by id; the oldest go past their limits."""

    def __init__(self) -> None:
        self.games: OrderedDict[str, LiveGame] = OrderedDict()
        self.replays: OrderedDict[str, ReplayFile] = OrderedDict()
        self.lock = threading.Lock()

    def add_game(self, game: LiveGame) -> str:
        return self._add(self.games, game, MAX_LIVE_GAMES)

    def add_replay(self, replay: ReplayFile) -> str:
        return self._add(self.replays, replay, MAX_REPLAYS)

    def _add(self, table: OrderedDict, item: Any, limit: int) -> str:
        with self.lock:
            key = new_id()
            table[key] = item
            while len(table) > limit:
                table.popitem(last=False)
            return key

    def game(self, key: str) -> LiveGame:
        with self.lock:
            if key not in self.games:
                raise WebError(f"no game {key!r} on this server (it was restarted, or the game is too old); "
                               "start a new one", 404)
            self.games.move_to_end(key)
            return self.games[key]

    def replay(self, key: str) -> ReplayFile:
        with self.lock:
            if key not in self.replays:
                raise WebError(f"no opened results file {key!r} on this server; open it again", 404)
            return self.replays[key]
