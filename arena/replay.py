"""Replays: rebuild a recorded game exactly, check it, and show it turn by turn.

A game record (``arena.records.GameRecord``, one entry of ``results.json["games"]``) holds the
engine seed, the map, the rules and every decision as the game records it. Replaying is the
game alone, through the game interface: ``new_state`` with the record's map, rules and engine
seed, and ``apply_action`` for each decision -- no agent runs again -- and the result must match
the record's tokens and final-state digest (:func:`rebuild` raises :class:`ReplayError`
otherwise).

Only games of this version replay: a record names the game's version that played it
(``state_version``, ``"vigtavl_v2"``; older files wrote 1 for rules v0 and 2 for v1), and a
results file of another version (``vigtavl_v0``: other rules, other action codes) is refused
with a :class:`ReplayError` saying so, before any decision is applied::

    from arena.replay import load_record, print_replay
    print_replay(load_record("results.json", game=17), png_dir="frames")

:class:`TurnPrinter` writes a game as it unfolds: every event narrated in English (dice
included, ``GameState.narrate``), grouped by turn (the placement phase is "turn 0"), the text
map (``render("ansi")``) after each turn, and optionally one picture per turn
(``render("rgb_array")``) as ``DIR/turn_000.png``, ``turn_001.png``, ... Human play's
``--watch`` uses it live.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

from arena.records import GameRecord, check_results_version, load_results, partial_note, results_game
from games import GameState, IllegalAction

PrintFn = Callable[[str], Any]
INDENT = "      "


class ReplayError(ValueError):
    """The record cannot be replayed, or the replay does not reproduce it."""


def load_record(path: str | Path, game: int) -> GameRecord:
    """Game number ``game`` of a match or tournament results file (of this engine's rules)."""
    return pick_record(load_results(path), path, game)


def pick_record(results: dict[str, Any], path: str | Path, game: int) -> GameRecord:
    """Game number ``game`` of ``results``, the contents of the results file ``path``
    (``arena.records.load_results``; a partial file holds the games its run finished)."""
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


def check_engine(record: GameRecord) -> None:
    """Raise ReplayError unless ``record`` was made by this game's version (same rules, same codes)."""
    version = results_game().version
    if record.state_version != version:
        raise ReplayError(f"game {record.game} was played under {record.state_version}; this engine "
                          f"({version}) cannot replay it (other rules, other action codes): play the "
                          "game again to replay it")


def initial_state(record: GameRecord) -> GameState:
    """The game's state before its first decision (ReplayError for another engine's record)."""
    check_engine(record)
    where = {"map": record.map_text, "map_name": record.map} if record.map_text else {"map": record.map}
    return results_game().new_state(record.num_players, seed=record.seed, engine_seed=record.game_seed,
                                    rules=record.rules, max_steps=max(1, len(record.decisions)), **where)


def replay_steps(record: GameRecord, state: GameState | None = None) -> Iterator[tuple[int, str, GameState]]:
    """Apply the decisions one by one, yielding ``(number, description, state after)``."""
    state = initial_state(record) if state is None else state
    for i, code in enumerate(record.decisions, 1):
        if state.is_terminal():
            raise ReplayError(f"game {record.game}: the game ended before decision {i} of {record.n_decisions}")
        try:
            action = state.recorded_action(code)
        except IllegalAction as e:
            raise ReplayError(f"game {record.game}: decision {i} ({code}) is no action: {e}") from None
        text = state.action_to_string(action)
        try:
            state.apply_action(action)
        except IllegalAction as e:
            raise ReplayError(f"game {record.game}: decision {i} ({text}) is illegal in the replay: {e}") from None
        yield i, text, state


def final_tokens(state: GameState) -> list[int]:
    """The victory tokens per seat (the record's ``tokens``)."""
    return [int(t) for t in state.scores()["tokens"]]


def verify(record: GameRecord, state: GameState) -> None:
    """Raise ReplayError unless ``state`` ends the game as the record says."""
    problems = []
    tokens = final_tokens(state)
    if tokens != list(record.tokens):
        problems.append(f"tokens {tokens} != recorded {record.tokens}")
    if state.is_terminal() == record.truncated:
        problems.append("the game is " + ("over" if state.is_terminal() else "not over") + " but the record says "
                        + ("truncated" if record.truncated else "finished"))
    digest = state.digest()
    if digest != record.final_digest:
        problems.append(f"final state digest {digest} != recorded {record.final_digest}")
    if problems:
        raise ReplayError(f"game {record.game} does not replay: " + "; ".join(problems))


def rebuild(record: GameRecord) -> GameState:
    """The final state of a recorded game, checked against the record."""
    state = None
    for _, _, state in replay_steps(record):
        pass
    state = initial_state(record) if state is None else state
    verify(record, state)
    return state


# ------------------------------------------------------------------ narration
def text_map(state: GameState, coords: bool = False) -> str:
    """The text map and status (``coords``: every hex's q,r in its place)."""
    return state.render("ansi", coords=True) if coords else state.render("ansi")


def save_picture(state: GameState, path: Path, coords: bool = False) -> None:
    from PIL import Image
    picture = state.render("rgb_array", coords=True) if coords else state.render("rgb_array")
    Image.fromarray(picture).save(path)


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
        self.seen = 0
        self.turn = 0
        self.pictures: list[Path] = []

    def start(self, state: GameState) -> None:
        """Show what happened at setup (the winds) and open turn 0, the placement phase."""
        self.print("=== turn 0: placement phase ===")
        self._events(state, 0)

    def after(self, state: GameState, number: int, description: str = "") -> None:
        """Show the events of decision ``number`` (just applied to ``state``); a decision whose
        only event starts the next turn (ending the turn) is shown by its ``description``."""
        self._events(state, number, description)

    def finish(self, state: GameState) -> None:
        """Close the last turn: its map and picture, then the result."""
        self._close_turn(state)
        self.print(f"final tokens: {final_tokens(state)}" + ("" if state.is_terminal() else " (game not over)"))

    def _events(self, state: GameState, number: int, description: str = "") -> None:
        label = f"{number:>4}. " if number else INDENT
        told = state.narrate(self.seen)
        for opens_turn, text in told:
            if opens_turn:
                if label != INDENT and description:
                    self.print(label + description)
                label = INDENT
                self._close_turn(state)
                self.turn += 1
                self.print(f"=== turn {self.turn}: {text} ===")
                continue
            self.print(label + text)
            label = INDENT
        self.seen += len(told)

    def _close_turn(self, state: GameState) -> None:
        if self.maps:
            self.print(text_map(state))
        if self.png_dir is not None:
            path = self.png_dir / f"turn_{self.turn:03d}.png"
            save_picture(state, path, self.coords)
            self.pictures.append(path)


def print_replay(record: GameRecord, print_fn: PrintFn = print, png_dir: str | Path | None = None,
                 maps: bool = True, coords: bool = False) -> GameState:
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
    print_fn(f"replay check: tokens {final_tokens(state)} and final state match the record")
    if printer.pictures:
        print_fn(f"wrote {len(printer.pictures)} pictures to {printer.png_dir}")
    return state
