"""Human play in the terminal for any registered game, and watching agents play it.

The person is one more player: at each decision he sees what chance did since his last one
(the state's public chance events), the board from his seat (``render("ansi", seat)``: what
his seat may not see stays hidden) and the legal decisions numbered, in the game's own words.
He answers with a number, or with the words of a decision (``move e2 e3``), or a unique start
of them; ``list`` shows every decision again, ``quit`` leaves (the game so far is kept).
Input and output are injectable, so tests drive whole games with scripted lines.
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable, Sequence
from typing import Any

from agents.generic import GameStopped
from agents.kinds import make_player
from games import load_game
from games.interface import GameState

from .match import AGENT_SEED_STRIDE
from .play import GameRecord, play_game, replay_record

InputFn = Callable[[str], str]
PrintFn = Callable[[str], Any]
LIST_AT_MOST = 40  # decisions listed in full; beyond, a person types words to narrow them
PROMPT = "your decision (number, words, list, quit): "
SEED_RANGE = 2 ** 31
MAX_INPUT = 200


class TerminalPlayer:
    """A person at the terminal choosing among the legal decisions (module docstring)."""

    def __init__(self, input_fn: InputFn = input, print_fn: PrintFn = print, show_board: bool = True) -> None:
        self.input, self.print, self.show_board = input_fn, print_fn, show_board
        self.seen_events = 0

    def __call__(self, view: GameState, legal: list[int]) -> int:
        for event in view.chance_events(self.seen_events):
            self.print("chance: " + ", ".join(f"{k} {v}" for k, v in event.items() if k != "chance"))
        self.seen_events = len(view.chance_events())
        seat = view.current_player()
        if self.show_board:
            self.print(str(view.render("ansi", seat=seat)))
        if view.prompt():
            self.print(view.prompt())
        words = [view.action_to_string(a) for a in legal]
        self._list(words)
        while True:
            line = self.input(PROMPT)[:MAX_INPUT].strip().lower()
            if line in ("quit", "q", "exit"):
                raise GameStopped("the person left the game")
            if line in ("list", "l", "?"):
                self._list(words, every=True)
                continue
            choice = _choose(line, words)
            if isinstance(choice, int):
                return legal[choice]
            self.print(choice)

    def _list(self, words: list[str], every: bool = False) -> None:
        shown = words if every or len(words) <= LIST_AT_MOST else words[:LIST_AT_MOST]
        for i, w in enumerate(shown):
            self.print(f"  {i:>3}  {w}")
        if len(shown) < len(words):
            self.print(f"  ... {len(words) - len(shown)} more: type words to narrow them, or list")


def _choose(line: str, words: list[str]) -> int | str:
    """The decision a person's line names (its number, its words, or a unique start of them),
    or a message saying why none."""
    if line.isdigit():
        n = int(line)
        return n if n < len(words) else f"no decision {n}: they are numbered 0-{len(words) - 1}"
    if not line:
        return "type a number, the words of a decision, list or quit"
    exact = [i for i, w in enumerate(words) if w.lower() == line]
    if exact:
        return exact[0]
    fits = [i for i, w in enumerate(words) if w.lower().startswith(line)]
    if len(fits) == 1:
        return fits[0]
    if not fits:
        return f"no decision starts with {line[:40]!r}; type list to see them"
    return "several decisions fit: " + "; ".join(f"{i} {words[i]}" for i in fits[:8])


def _seeds(seed: int, n: int) -> list[int]:
    return [seed * AGENT_SEED_STRIDE + i for i in range(n)]


def play(game: str, opponents: Sequence[str], seat: int = 0, seed: int | None = None,
         num_players: int | None = None, input_fn: InputFn = input, print_fn: PrintFn = print,
         show_board: bool = True) -> GameRecord:
    """A person plays ``seat`` of ``game``; the other seats get ``opponents`` in turn. Returns
    the record (replayable); after ``quit``, the record of the game so far (truncated)."""
    g = load_game(game)
    n = g.check_players(num_players or 2)
    if isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < n:
        raise ValueError(f"seat must be 0-{n - 1}, got {seat!r}")
    if not opponents:
        raise ValueError("name at least one opponent")
    seed = random.randrange(SEED_RANGE) if seed is None else seed
    specs = [opponents[i % len(opponents)] for i in range(n - 1)]
    specs.insert(seat, "human")
    seeds = _seeds(seed, n)
    players = [TerminalPlayer(input_fn, print_fn, show_board) if i == seat else make_player(game, s, seeds[i])
               for i, s in enumerate(specs)]
    print_fn(f"{game}, game seed {seed}: " + ", ".join(f"P{i} {s}" for i, s in enumerate(specs)))
    try:
        record = play_game(game, players, seed, 0, specs, seeds)
    except GameStopped as stop:
        print_fn("You left the game.")
        return stop.record
    print_fn(_result_line(record))
    return record


def watch(game: str, agents: Sequence[str], seed: int | None = None, print_fn: PrintFn = print,
          show_board: bool = True, delay: float = 0.0) -> GameRecord:
    """Narrate a game between ``agents`` (one spec per seat): each decision in words, chance
    events, and the board from no seat (what every seat may see)."""
    load_game(game).check_players(len(agents))
    seed = random.randrange(SEED_RANGE) if seed is None else seed
    seeds = _seeds(seed, len(agents))
    players = [make_player(game, s, sd) for s, sd in zip(agents, seeds)]
    print_fn(f"{game}, game seed {seed}: " + ", ".join(f"P{i} {s}" for i, s in enumerate(agents)))
    narrate = Narrator(print_fn, show_board, delay)
    record = play_game(game, players, seed, 0, list(agents), seeds, observe=narrate.after)
    print_fn(_result_line(record))
    return record


class Narrator:
    """Prints each decision (in the words of the seat that took it), then chance's outcomes."""

    def __init__(self, print_fn: PrintFn = print, show_board: bool = True, delay: float = 0.0) -> None:
        self.print, self.show_board, self.delay = print_fn, show_board, delay
        self.seen_events, self.number = 0, 0

    def after(self, state: GameState, seat: int, action: int, words: str) -> None:
        self.number += 1
        self.print(f"{self.number:>4}  P{seat}: {words}")
        for event in state.chance_events(self.seen_events):
            self.print("      chance: " + ", ".join(f"{k} {v}" for k, v in event.items() if k != "chance"))
        self.seen_events = len(state.chance_events())
        if self.show_board and (state.is_over() or state.current_player() != seat):
            self.print(str(state.render("ansi", seat=None)))  # at each change of hands
        if self.delay > 0:
            time.sleep(self.delay)


def narrate_record(record: GameRecord, print_fn: PrintFn = print, show_board: bool = True) -> None:
    """A recorded game told decision by decision, as :func:`watch` tells a live one; checked
    against the record's final state (ValueError, one line, if it does not replay)."""
    replay_record(record)
    g = load_game(record.game)
    state = g.new_state(record.num_players, record.seed, **record.options)
    print_fn(f"{record.game}, game {record.number}, seed {record.seed}: "
             + ", ".join(f"P{i} {s}" for i, s in enumerate(record.seats)))
    narrate = Narrator(print_fn, show_board)
    for action in record.actions:
        seat, words = state.current_player(), state.action_to_string(action)
        state.apply_action(action)
        narrate.after(state, seat, action, words)
    print_fn(_result_line(record))


def _result_line(record: GameRecord) -> str:
    if record.truncated and not record.returns:
        return f"left after {len(record.actions)} decisions: no winner"
    if record.truncated:
        return f"stopped by the move limit after {len(record.actions)} decisions: no winner"
    names = ", ".join(f"P{w} {record.seats[w]}" for w in record.winners)
    return f"won by {names} after {len(record.actions)} decisions"
