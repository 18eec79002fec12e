"""Replays: results files read and their games rebuilt, for stepping through and analysing.

This module owns what the server does with a recorded game. A results file is read by
:func:`parse_results` (its games decoded one at a time, so other threads run between them),
after :func:`parse_cost` has counted, before parsing, what parsing would hold (the server takes
that from its budget, so memory is bounded whatever the file's shape) and :func:`measure_parts`
has had a worker process check that no one part is long (so no one call holds the server up),
and :func:`read_results`
(the schema, the version, each record's shape and its parts one per player): a record may name
a preset map or carry its map's text, nothing else, so a record never makes the server read a file.
A :class:`ReplayFile` holds an opened file's records; a :class:`ReplayGame` rebuilds one of them
once, checks it against the record, and keeps a snapshot every :data:`SNAPSHOT_EVERY` decisions:
any frame is then at most that many engine steps away, forward or back. A rebuild hands the GIL
over at each decision: on a busy machine a thread that kept it for its switch interval left the
event loop waiting (40 rebuilds at once held /api/meta 1.7-2.8 s; 0.6 s at most since). For any frame it gives
the page's view (:meth:`ReplayGame.view`) and, on asking, the same analysis as a live game's hint
(:meth:`ReplayGame.analysis_question`, :meth:`ReplayGame.analyse`): the strongest agent's top
choices for the player to move and the network's estimate of the game for him, one network pass.
Where the files and the rebuilt games are kept, and how many, is :mod:`webapp.store`.
"""

from __future__ import annotations

import subprocess
import threading
import time
from typing import Any

from webapp.json_parts import MAX_PART, PartTooLong, check_in_worker, decode_parts
from arena.vigtavl_match import DEFAULT_MAX_STEPS
from arena.records import RESULTS_SCHEMA, GameRecord, check_results_version
from arena.replay import ReplayError, check_engine, initial_state, replay_steps, verify
from webapp.guards import WebError
from webapp.hints import hint, hint_agent_spec, load_hinter
from webapp.store import RECORD_BYTES_PER_JSON_BYTE
from webapp.vigtavl_web import vigtavl_web

SNAPSHOT_EVERY = 32
MAX_REPLAY_DECISIONS = DEFAULT_MAX_STEPS  # a longer record would take seconds of a worker to rebuild
PER_PLAYER = ("seats", "agent_seeds", "tokens")  # a record's fields that hold one entry per player
PER_PLAYER_IF_ANY = ("seat_decisions", "seat_cpu")  # the same, or none in an older record
MEASURE_WAIT_S = 60.0  # a file's parts measured in the worker process within this (a 16 MB file: ~1 s)
ANALYSES_KEPT = 64  # analyses kept per rebuilt game (about 1 KB each): stepping back costs nothing

# what parsing holds, measured with tracemalloc on files of one repeated shape ({}, [], {"a":[]},
# strings, floats, emoji, and real results files): at most 64 bytes per value (a string, a float
# and its slot), 112 more per object or array (a one-key object is 184 bytes), and 8 per byte of
# the text (decoded at up to 4 bytes a character, and strings cut from it as wide)
PARSED_PER_VALUE, PARSED_PER_CONTAINER, PARSED_PER_BYTE = 64, 112, 8


def parse_cost(body: bytes) -> int:
    """What parsing ``body`` would hold at most, in bytes, counted before parsing and whatever
    its shape: its commas (a value each, after the first in each object or array) and its
    brackets (an object or an array each), those inside strings counted too, so the count is
    never low. A file of 5 million ``{}`` counts 950 MB; a real results file about 17 times
    its size (it holds about 7)."""
    containers = body.count(b"{") + body.count(b"[")
    return PARSED_PER_VALUE * body.count(b",") + PARSED_PER_CONTAINER * containers + PARSED_PER_BYTE * len(body)


def parse_results(body: bytes, name: str) -> Any:
    """A results file's JSON, decoded in parts of at most :data:`webapp.json_parts.MAX_PART`
    characters (its games one at a time), so that other threads run between them where one
    ``json.loads`` would hold the GIL throughout; a file that is not a JSON object is None (not a
    results file). The server has the parts measured in a worker process first
    (:func:`webapp.json_parts.check_in_worker`), so that no part's decoding holds it up."""
    try:
        return decode_parts(body.decode("utf-8"), MAX_PART)
    except PartTooLong as e:
        raise WebError(f"{name}: {e}", 413) from None
    except (UnicodeDecodeError, ValueError, RecursionError) as e:  # JSONDecodeError is a ValueError
        raise WebError(f"{name} is not a JSON file ({str(e)[:120]})") from None


def measure_parts(body: bytes, name: str) -> None:
    """A results file's parts measured in a worker process before the server decodes it
    (:func:`webapp.json_parts.check_in_worker`): a part longer than
    :data:`~webapp.json_parts.MAX_PART` is a 413, a file that is not JSON a 400, and no worker
    within :data:`MEASURE_WAIT_S` a 503. Call it on a worker thread: it waits for the process."""
    try:
        verdict = check_in_worker(body, timeout_s=MEASURE_WAIT_S)
    except (OSError, ValueError, subprocess.SubprocessError):  # not started, killed, too slow
        raise WebError("the server could not read the file now; try again in a moment", 503) from None
    if verdict is not None:
        too_long, why = verdict
        raise WebError(f"{name}: {why}" if too_long else f"{name} is not a JSON file ({why})", 413 if too_long else 400)


def read_results(data: Any, name: str) -> list[GameRecord]:
    """The game records of a results file's contents (a dict), or a WebError saying what is wrong."""
    if not isinstance(data, dict) or data.get("schema") != RESULTS_SCHEMA or not isinstance(data.get("games"), list):
        raise WebError(f"{name} is not a vigtavl results file (written by vigtavl match, tournament or play --out)")
    try:
        check_results_version(data, name)
    except ValueError as e:
        raise WebError(str(e)) from None
    try:
        records = [GameRecord.from_dict(g) for g in data["games"]]
    except (TypeError, ValueError) as e:
        raise WebError(f"{name}: {str(e)[:200]}") from None
    if not records:
        raise WebError(f"{name} holds no games")
    for r in records:
        check_record(r, name)
    return records


def check_record(r: GameRecord, name: str) -> None:
    """A record the server may rebuild (its fields' types were checked as it was read,
    ``GameRecord.from_dict``): a preset map or the map's own text (a map name is never read as a
    file), 2 to 4 players and one seat, seed and score for each (winners among them), and no
    more decisions than a game may have."""
    if r.map_text is None and r.map not in vigtavl_web().list_presets():
        raise WebError(f"{name}: game {r.game} names map {r.map[:40]!r}, which is not a preset, and has no map text")
    n = r.num_players
    if not 2 <= n <= 4:
        raise WebError(f"{name}: game {r.game} has {n} players; a game has 2 to 4")
    wrong = [f for f in PER_PLAYER if len(getattr(r, f)) != n]
    wrong += [f for f in PER_PLAYER_IF_ANY if len(getattr(r, f)) not in (0, n)]
    if wrong or not all(0 <= w < n for w in r.winners):
        raise WebError(f"{name}: game {r.game} is a {n}-player game, but its {', '.join(wrong) or 'winners'} "
                       "do not name its players")
    if len(r.decisions) > MAX_REPLAY_DECISIONS:
        raise WebError(f"{name}: game {r.game} has {len(r.decisions)} decisions; this server replays at most "
                       f"{MAX_REPLAY_DECISIONS}")


class ReplayFile:
    """A results file opened for replay: its records (the store keeps the games rebuilt from them).
    ``nbytes``: the size of its JSON, from which the store estimates its memory."""

    def __init__(self, records: list[GameRecord], name: str, nbytes: int) -> None:
        self.name = name
        self.records = {r.game: r for r in records}
        self.nbytes = RECORD_BYTES_PER_JSON_BYTE * nbytes

    def summary(self) -> dict[str, Any]:
        return {"name": self.name, "games": [
            {"game": r.game, "seats": r.seats, "tokens": r.tokens, "winners": r.winners, "map": r.map, "seed": r.seed,
             "decisions": r.n_decisions, "truncated": r.truncated} for r in self.records.values()]}

    def build(self, number: int) -> "ReplayGame":
        if number not in self.records:
            raise WebError(f"{self.name} has no game {number}", 404)
        return ReplayGame(self.records[number])


class ReplayGame:
    """One recorded game, rebuilt and checked, for stepping through in both directions."""

    def __init__(self, record: GameRecord) -> None:
        self.web = vigtavl_web()  # Vigtavl's env, views and words (vigtavl_env/web.py)
        self.hinter: Any = None  # the analysing agent, loaded by the first analysis (webapp.hints)
        self.hinter_lock = threading.Lock()
        self.analyses: dict[int, dict[str, Any]] = {}  # frame -> its analysis, the last ANALYSES_KEPT
        try:
            self._rebuild(record)
        except WebError:
            raise
        except ReplayError as e:
            raise WebError(str(e)) from None
        except Exception as e:  # an uploaded record can be wrong in any way: its fault, a 400
            raise WebError(f"game {record.game} cannot be replayed: {str(e)[:200] or type(e).__name__}") from None

    def _rebuild(self, record: GameRecord) -> None:
        check_engine(record)
        game_state = initial_state(record)
        state = self.web.engine_of(game_state)  # the same engine state, stepped by replay_steps
        if state.n_players != record.num_players:
            raise WebError(f"game {record.game} is a {record.num_players}-player game on a "
                           f"{state.n_players}-player map")
        self.record, web = record, self.web
        self.board = web.board_view(state.gmap.board, state.gmap.terrain)
        self.snapshots = [state.clone(keep_events=False)]
        # the setup, then per decision: its words, hexes, events, battles, outcomes (vigtavl_env.web_moves)
        self.moves = [web.move_entry(0, -1, "the setup", [], -1, state.events, state)]
        self.turns = [{"turn": 0, "frame": 0, "label": "placement"}]
        before, seat = len(state.events), state.current_player
        for i, text, _ in replay_steps(record, game_state):
            code = record.decisions[i - 1]
            move = web.move_entry(i, seat, text, web.decision_cells(state, code), code, state.events[before:], state)
            for e in move["events"]:
                if e["event"] == "turn":
                    self.turns.append({"turn": len(self.turns), "frame": i, "label": e["text"]})
            self.moves.append(move)
            if i % SNAPSHOT_EVERY == 0:
                self.snapshots.append(state.clone(keep_events=False))
            time.sleep(0)  # the GIL handed over at each decision: the event loop waits for it otherwise
            before, seat = len(state.events), state.current_player
        verify(record, game_state)

    @property
    def frames(self) -> int:
        """Frames 0..n: the state before any decision, then after each."""
        return len(self.moves) - 1

    def state_at(self, frame: int) -> Any:
        state = self.snapshots[frame // SNAPSHOT_EVERY].clone(keep_events=False)
        for code in self.record.decisions[frame - frame % SNAPSHOT_EVERY:frame]:
            self.web.apply_action(state, code)
        return state

    def summary(self) -> dict[str, Any]:
        r = self.record
        return {"game": r.game, "seats": r.seats, "tokens": r.tokens, "winners": r.winners, "seed": r.seed,
                "map": r.map, "frames": self.frames, "turns": self.turns, "board": self.board,
                "truncated": r.truncated, "moves": self.moves}

    def view(self, frame: int) -> dict[str, Any]:
        if not 0 <= frame <= self.frames:
            raise WebError(f"game {self.record.game} has frames 0 to {self.frames}, not {frame}", 404)
        state = self.state_at(frame)
        truncated = frame == self.frames and self.record.truncated
        out = self.web.state_view(state, self.record.seats, truncated=truncated)
        turn = max((t for t in self.turns if t["frame"] <= frame), key=lambda t: t["frame"])
        out.update(kind="replay", frame=frame, frames=self.frames, turn=turn["turn"],
                   last=self.moves[frame] if frame else None, decisions=[],
                   last_decisions=self.web.last_decisions(self.moves[:frame + 1], len(self.record.seats)))
        return out

    # ---------------------------------------------------------------- analysis
    def analysis_question(self, frame: int) -> dict[str, Any] | None:
        """Frame ``frame``'s analysis if it was given already, else None; a WebError (one line)
        where there is none to give: no such frame (404), the game over there (409), a player
        count the shipped networks do not play (400). Cheap: call it on the event loop."""
        if not 0 <= frame <= self.frames:
            raise WebError(f"game {self.record.game} has frames 0 to {self.frames}, not {frame}", 404)
        if frame == self.frames and not self.record.truncated:
            raise WebError(f"the game is over at frame {frame}: there is no decision to analyse", 409)
        hint_agent_spec(len(self.record.seats))
        return self.analyses.get(frame)

    def analyse(self, frame: int) -> dict[str, Any]:
        """The strongest agent's top choices for the player to move at ``frame`` and the
        network's estimate of the game for him, as a live game's hint: the frame rebuilt (at most
        :data:`SNAPSHOT_EVERY` engine steps) and one network pass. The slow part: call it on the
        think pool, after :meth:`analysis_question`."""
        state = self.state_at(frame)
        env = self.web.raw_env.from_state(state)
        name = env.agent_selection
        obs = env.observe(name)
        interrupt = env.infos.get(name, {}).get("interrupt", "")
        decisions = self.web.decision_list(env.game_state, env.codec, obs["action_mask"], interrupt)
        with self.hinter_lock:  # two analyses at once load it once
            if self.hinter is None:
                self.hinter = load_hinter(len(self.record.seats))
        answer = {"frame": frame, "decision": frame, "agent": hint_agent_spec(len(self.record.seats)),
                  **hint(self.hinter, obs["observation"], obs["action_mask"], decisions, env.possible_agents.index(name),
                        state)}
        self.analyses[frame] = answer
        while len(self.analyses) > ANALYSES_KEPT:
            self.analyses.pop(next(iter(self.analyses)))
        return answer
