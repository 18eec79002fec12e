"""Replays: rebuild a recorded game exactly, check it, and show it turn by turn.

A game record (``agents.records.GameRecord``, one entry of ``results.json["games"]``) holds the
engine seed, the map, the rules and every decision as an engine code. Replaying is the engine
alone: ``new_game(map, rules, seed=game_seed)`` and ``apply_action`` for each decision -- no
agent runs again -- and the result must match the record's tokens and final-state digest
(:func:`rebuild` raises :class:`ReplayError` otherwise).

Only games of this engine replay: a record names the game's version that played it
(``state_version``, ``"vigtavl_v2"``; older files wrote 1 for rules v0 and 2 for v1), and a
results file of another version (``vigtavl_v0``: other rules, other action codes) is refused
with a :class:`ReplayError` saying so, before any decision is applied::

    from agents.replay import load_record, print_replay
    print_replay(load_record("results.json", game=17), png_dir="frames")

:class:`TurnPrinter` writes a game as it unfolds: every event narrated in English (dice
included), grouped by turn (the placement phase is "turn 0"), the text map (the env's ``ansi``
renderer) after each turn, and optionally one picture per turn (the env's ``rgb_array``
renderer) as ``DIR/turn_000.png``, ``turn_001.png``, ... Human play's ``--watch`` uses it live.
"""

from __future__ import annotations

import importlib.util
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

from agents.match import state_digest
from agents.records import GameRecord, check_results_version, load_results, partial_note
from vigtavl_env.engine.version import ENV_NAME

PrintFn = Callable[[str], Any]
INDENT = "      "


class ReplayError(ValueError):
    """The record cannot be replayed, or the replay does not reproduce it."""


def load_record(path: str | Path, game: int) -> GameRecord:
    """Game number ``game`` of a match or tournament results file (of this engine's rules)."""
    return pick_record(load_results(path), path, game)


def pick_record(results: dict[str, Any], path: str | Path, game: int) -> GameRecord:
    """Game number ``game`` of ``results``, the contents of the results file ``path``
    (``agents.records.load_results``; a partial file holds the games its run finished)."""
    try:
        check_results_version(results, path)
    except ValueError as e:
        raise ReplayError(str(e)) from None
    games = results["games"]
    for g in games:
        if g["game"] == game:
            return GameRecord.from_dict(g)
    numbers = [g["game"] for g in games]
    span = f"{min(numbers)}..{max(numbers)}" if numbers else "none"
    note = partial_note(results)
    raise ReplayError(f"{path} has no game {game} (games {span})" + (f"; {note}" if note else ""))


def record_map(record: GameRecord) -> Any:
    from vigtavl_env.engine.maps import load_map, parse_map
    if record.map_text:
        return parse_map(record.map_text, name=record.map)
    return load_map(record.map, record.num_players)


def check_engine(record: GameRecord) -> None:
    """Raise ReplayError unless ``record`` was made by this engine (same rules, same codes)."""
    if record.state_version != ENV_NAME:
        raise ReplayError(f"game {record.game} was played under {record.state_version}; this engine "
                          f"({ENV_NAME}) cannot replay it (other rules, other action codes): play the "
                          "game again to replay it")


def initial_state(record: GameRecord) -> Any:
    """The game's state before its first decision (ReplayError for another engine's record)."""
    from vigtavl_env.engine import RulesConfig, new_game
    check_engine(record)
    return new_game(record_map(record), RulesConfig.from_dict(record.rules), seed=record.game_seed)


def replay_steps(record: GameRecord, state: Any | None = None) -> Iterator[tuple[int, str, Any]]:
    """Apply the decisions one by one, yielding ``(number, description, state after)``."""
    from vigtavl_env.engine import IllegalActionError, apply_action, describe
    state = initial_state(record) if state is None else state
    for i, code in enumerate(record.decisions, 1):
        if state.is_over:
            raise ReplayError(f"game {record.game}: the game ended before decision {i} of {record.n_decisions}")
        text = describe(state, code)
        try:
            apply_action(state, code)
        except IllegalActionError as e:
            raise ReplayError(f"game {record.game}: decision {i} ({text}) is illegal in the replay: {e}") from None
        yield i, text, state


def verify(record: GameRecord, state: Any) -> None:
    """Raise ReplayError unless ``state`` ends the game as the record says."""
    problems = []
    if list(state.tokens) != list(record.tokens):
        problems.append(f"tokens {state.tokens} != recorded {record.tokens}")
    if state.is_over == record.truncated:
        problems.append("the game is " + ("over" if state.is_over else "not over") + " but the record says "
                        + ("truncated" if record.truncated else "finished"))
    digest = state_digest(state)
    if digest != record.final_digest:
        problems.append(f"final state digest {digest} != recorded {record.final_digest}")
    if problems:
        raise ReplayError(f"game {record.game} does not replay: " + "; ".join(problems))


def rebuild(record: GameRecord) -> Any:
    """The final state of a recorded game, checked against the record."""
    state = None
    for _, _, state in replay_steps(record):
        pass
    state = initial_state(record) if state is None else state
    verify(record, state)
    return state


# ------------------------------------------------------------------ narration
def _plain(event: dict, _state: Any) -> str:
    rest = ", ".join(f"{k}={v}" for k, v in event.items() if k not in ("event", "player"))
    return f"{event.get('event')} (player {event.get('player')}): {rest}"


def narrator() -> Callable[[dict, Any], str]:
    """``vigtavl_env.engine.narrate.narrate`` when present, else a plain key=value line."""
    if importlib.util.find_spec("vigtavl_env.engine.narrate") is None:
        return _plain
    from vigtavl_env.engine.narrate import narrate
    return narrate


def text_map(state: Any, coords: bool = False) -> str:
    """The text map and status (``coords``: every hex's q,r in its place)."""
    from vigtavl_env.render import render_ansi
    return render_ansi(state, coords=coords)


def save_picture(state: Any, path: Path, coords: bool = False) -> None:
    from PIL import Image

    from vigtavl_env.render import render_rgb
    Image.fromarray(render_rgb(state, coords=coords)).save(path)


class TurnPrinter:
    """Narrates a game as its decisions are applied; a map (and picture) after each turn."""

    def __init__(self, print_fn: PrintFn = print, maps: bool = True, png_dir: str | Path | None = None,
                 coords: bool = False) -> None:
        self.coords = coords
        self.print = print_fn
        self.maps = maps
        self.png_dir = Path(png_dir) if png_dir is not None else None
        if self.png_dir is not None:
            self.png_dir.mkdir(parents=True, exist_ok=True)
        self.narrate = narrator()
        self.seen = 0
        self.turn = 0
        self.pictures: list[Path] = []

    def start(self, state: Any) -> None:
        """Show what happened at setup (the winds) and open turn 0, the placement phase."""
        self.print("=== turn 0: placement phase ===")
        self._events(state, 0)

    def after(self, state: Any, number: int, description: str = "") -> None:
        """Show the events of decision ``number`` (just applied to ``state``); a decision whose
        only event starts the next turn (ending the turn) is shown by its ``description``."""
        self._events(state, number, description)

    def finish(self, state: Any) -> None:
        """Close the last turn: its map and picture, then the result."""
        self._close_turn(state)
        self.print(f"final tokens: {list(state.tokens)}" + ("" if state.is_over else " (game not over)"))

    def _events(self, state: Any, number: int, description: str = "") -> None:
        label = f"{number:>4}. " if number else INDENT
        for event in state.events[self.seen:]:
            if event.get("event") == "turn":
                if label != INDENT and description:
                    self.print(label + description)
                label = INDENT
                self._close_turn(state)
                self.turn += 1
                self.print(f"=== turn {self.turn}: {self.narrate(event, state)} ===")
                continue
            self.print(label + self.narrate(event, state))
            label = INDENT
        self.seen = len(state.events)

    def _close_turn(self, state: Any) -> None:
        if self.maps:
            self.print(text_map(state))
        if self.png_dir is not None:
            path = self.png_dir / f"turn_{self.turn:03d}.png"
            save_picture(state, path, self.coords)
            self.pictures.append(path)


def print_replay(record: GameRecord, print_fn: PrintFn = print, png_dir: str | Path | None = None,
                 maps: bool = True, coords: bool = False) -> Any:
    """Replay a record turn by turn through ``print_fn``, check it, and return the final state."""
    print_fn(f"game {record.game}: seed {record.seed} (engine seed {record.game_seed}), map {record.map}, "
             f"{record.num_players} players, {record.n_decisions} decisions")
    print_fn("seats: " + ", ".join(f"player_{i} = {name}" for i, name in enumerate(record.seats)))
    state = initial_state(record)
    printer = TurnPrinter(print_fn, maps=maps, png_dir=png_dir, coords=coords)
    printer.start(state)
    for number, description, state in replay_steps(record, state):
        printer.after(state, number, description)
    printer.finish(state)
    verify(record, state)
    print_fn(f"replay check: tokens {list(state.tokens)} and final state match the record")
    if printer.pictures:
        print_fn(f"wrote {len(printer.pictures)} pictures to {printer.png_dir}")
    return state
