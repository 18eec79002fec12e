"""The results-file format: one game's record, and the file of many that match, tournament,
``play --out`` and the web app write and that replays read.

A results file is JSON: ``{"schema": "vigtavl-results", "version": "vigtavl_v2", "kind":
"match" | "tournament" | "game", ...the writer's own fields..., "games": [GameRecord, ...]}``
(:func:`results_file`). A run stopped early marks its file partial (:func:`partial_fields`).
Files are written whole or not at all (:func:`write_file`) and read with every record's fields
checked (:func:`load_results`): a damaged file is one line, never a traceback.
"""

from __future__ import annotations

import json
import os
from collections.abc import Sequence
from dataclasses import MISSING, asdict, dataclass, field, fields
from pathlib import Path
from typing import Any

from games import Game, load_game
from games.outfiles import check_out_path, write_file  # noqa: F401  (re-exported)

RESULTS_SCHEMA = "vigtavl-results"
RESULTS_GAME = "vigtavl"  # the game whose results these files hold
# Results files carry the game's version (``Game.version``), as does each game record
# (``state_version``); older files wrote integers (1: rules v0, whose records had no field; 2: v1),
# which the game reads as its versions (``Game.file_version``).
V0_RECORD_STATE_VERSION = "vigtavl_v0"  # what a record without ``state_version`` was made with


def results_game() -> Game:
    """The game these results files are of, through the game interface."""
    return load_game(RESULTS_GAME)



@dataclass
class GameRecord:
    """One played game, enough to replay it exactly (``arena.replay``).

    Attributes:
        game: game number in its match or tournament; ``seed``: the env reset seed.
        game_seed: the engine seed ``new_game`` got (drawn by the env from ``seed``).
        map: the map's name; ``map_text``: the map itself unless it is an unchanged preset.
        num_players, rules: the player count and the ``RulesConfig`` options.
        seats: agent spec per seat; ``agent_seeds``: the seed each agent got.
        decisions: engine action codes in order; ``n_decisions`` their number.
        tokens: victory tokens per seat at the end; ``winners``: winning seats (empty if truncated).
        truncated: the game hit ``max_steps``; ``final_digest``: hash of the final state.
        state_version: the game's version that played it (``"vigtavl_v2"``: its rules and action
            codes); read from older files, 1 (or no field) is ``vigtavl_v0`` and 2 ``vigtavl_v1``.
            A replay needs the same version (``arena.replay`` refuses another).
        seat_decisions, seat_cpu: per seat, the decisions its agent made and the CPU seconds
            (process time) its agent spent making them. A measurement, not part of the game:
            records that differ only there are equal, and older records have none.
    """

    game: int
    seed: int
    game_seed: int
    map: str
    map_text: str | None
    num_players: int
    rules: dict[str, Any]
    seats: list[str]
    agent_seeds: list[int]
    decisions: list[int]
    tokens: list[int]
    winners: list[int]
    n_decisions: int
    truncated: bool
    final_digest: str
    state_version: str = field(default_factory=lambda: results_game().version)
    seat_decisions: list[int] = field(default_factory=list, compare=False)
    seat_cpu: list[float] = field(default_factory=list, compare=False)

    @property
    def outcomes(self) -> list[int]:
        """What ranks the seats (ratings): Vigtavl's victory tokens."""
        return self.tokens

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)

    @classmethod
    def from_dict(cls, d: dict[str, Any]) -> "GameRecord":
        """A record from its dict; one without ``state_version`` was made by the rules-v0 engine.
        A record with fields missing or unknown raises ValueError naming them."""
        if not isinstance(d, dict):
            raise ValueError(f"a game record is a JSON object, got {type(d).__name__}")
        names = {f.name for f in fields(cls)}
        required = {f.name for f in fields(cls) if f.default is MISSING and f.default_factory is MISSING}
        missing, unknown = sorted(required - d.keys()), sorted(d.keys() - names)
        wrong = [_not_held(k, v) for k, v in d.items() if k in names and not _holds(k, v)]
        if missing or unknown or wrong:
            what = "; ".join(x for x in (f"missing {', '.join(missing)}" if missing else "",
                                          f"unknown {', '.join(unknown)}" if unknown else "",
                                          ", ".join(wrong)) if x)
            raise ValueError(f"game record {d.get('game', '?')!s:.20} is not a vigtavl game record ({what})")
        d = {"state_version": V0_RECORD_STATE_VERSION, **d}
        return cls(**dict(d, state_version=results_game().file_version(d["state_version"])))

    def win_share(self, seat: int) -> float:
        return 1.0 / len(self.winners) if seat in self.winners else 0.0


# What each field of a record holds (a list: of what), checked as a record is read, so that a
# damaged file is refused in one line rather than failing deep inside a replay.
NUMBER = (int, float)
RECORD_FIELD_TYPES: dict[str, tuple[type, ...]] = {
    "game": (int,), "seed": (int,), "game_seed": (int,), "map": (str,), "map_text": (str, type(None)),
    "num_players": (int,), "rules": (dict,), "n_decisions": (int,), "truncated": (bool,),
    "final_digest": (str,), "state_version": (int, str)}
RECORD_LIST_TYPES: dict[str, tuple[type, ...]] = {
    "seats": (str,), "agent_seeds": (int,), "decisions": (int,), "tokens": (int,), "winners": (int,),
    "seat_decisions": (int,), "seat_cpu": NUMBER}


def _holds(name: str, value: Any) -> bool:
    """Whether ``value`` is what the record field ``name`` holds (:data:`RECORD_FIELD_TYPES`)."""
    if name in RECORD_LIST_TYPES:
        return isinstance(value, list) and all(isinstance(x, RECORD_LIST_TYPES[name]) for x in value)
    return isinstance(value, RECORD_FIELD_TYPES.get(name, object))


def _not_held(name: str, value: Any) -> str:
    if name in RECORD_LIST_TYPES:
        return f"{name} is not a list of {' or '.join(t.__name__ for t in RECORD_LIST_TYPES[name])}"
    return f"{name} is {type(value).__name__}"


def results_file(kind: str, records: Sequence[GameRecord], **fields: Any) -> dict[str, Any]:
    """A results file's contents, the one format every writer uses: schema, version, ``kind``
    (``match``, ``tournament``, ``game``), the writer's own ``fields``, then the games."""
    return {"schema": RESULTS_SCHEMA, "version": results_game().version, "kind": kind, **fields,
            "games": [r.to_dict() for r in records]}


def check_results_version(results: dict[str, Any], name: str | Path) -> None:
    """ValueError (one line naming both versions) unless ``results`` were written for this
    game's version: another version's decisions are other rules' action codes."""
    results_game().check_file_version(results.get("version"), f"the results file {name}")


def partial_fields(played: int, planned: int | None) -> dict[str, Any]:
    """What marks a results file as partial (a run stopped early): nothing for a complete run."""
    if planned is None:
        return {}
    return {"partial": True, "games_planned": planned, "games_played": played}


def partial_note(results: dict[str, Any]) -> str | None:
    """One line for a results dict marked partial (:func:`partial_fields`), else None."""
    if results.get("partial") is not True:
        return None
    played, planned = results.get("games_played", len(results.get("games", []))), results.get("games_planned", "?")
    return f"partial: the run was interrupted after {played} of {planned} games"


def save_results(d: dict[str, Any], path: str | Path) -> None:
    """Write a results dict as JSON, whole or not at all (:func:`write_file`)."""
    write_file(path, json.dumps(d))


def load_results(path: str | Path) -> dict[str, Any]:
    """A results file (match or tournament) as a dict, checked for its schema and its games
    (ValueError naming the file for anything else)."""
    try:
        text = Path(path).read_text(encoding="utf-8")
    except FileNotFoundError:
        raise FileNotFoundError(f"no results file at {path}") from None
    except (OSError, UnicodeDecodeError) as e:
        raise ValueError(f"cannot read results file {path}: {getattr(e, 'strerror', None) or e}") from None
    try:
        d = json.loads(text)
    except json.JSONDecodeError as e:
        raise ValueError(f"{path} is not valid JSON ({e.msg}, line {e.lineno} column {e.colno}): "
                         "a truncated or damaged results file") from None
    if not isinstance(d, dict) or d.get("schema") != RESULTS_SCHEMA:
        raise ValueError(f"{path} is not a vigtavl results file (schema {RESULTS_SCHEMA!r})")
    games = d.get("games")
    if not isinstance(games, list) or not all(isinstance(g, dict) for g in games):
        raise ValueError(f"{path} has no list of games (\"games\"): a damaged results file")
    for g in games:
        try:
            GameRecord.from_dict(g)
        except (TypeError, ValueError) as e:
            raise ValueError(f"{path}: {e}") from None
    return d
