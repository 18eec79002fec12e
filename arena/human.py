"""Human play in the terminal: a person against any agents, or watching agents play.

``play("greedy", seat=0)`` seats a :class:`HumanAgent` among agents built from their specs;
``watch(["greedy", "random"])`` narrates a game between agents live. Input and output are
injectable (``input_fn``, ``print_fn``), so tests drive a whole game with scripted lines.

At each decision the person sees what happened since his last decision (every event narrated,
dice included: the opponents' moves, battles, retaliations), the text map (the env's ``ansi``
renderer, with everyone's gold, silver and tokens), his own purse, and the legal decisions,
numbered. When there are more than ``LIST_ALL`` of them they are shown by kind (``place
caravel``, ``build wall``, ``move`` ...) with their number ranges; typing a kind lists it.

The commands are in ``HELP`` (shown by ``?``): a number, a command such as ``move 3,-1``,
``end``, a kind to list, ``list``, ``map``, ``quit``. Anything else gets a message saying what
went wrong, and the game goes on.

The game is read through the game interface alone (``games.load_game("vigtavl")``): the menu is
the state's :meth:`~games.interface.GameState.choices`, typed text is read by its
``read_command``, the purse line is its ``status`` and what a decision asks its ``prompt``.
Choices in the middle of a decision are said in words before the menu (Vigtavl's prompt): the setup split of the six knights over the two freighters (``load
1``-``load 3``); who defends a hex of yours that is attacked, or a development or artillery about
to be seized, asked out of turn with the attacker, the hex it attacks from and its dice (``choose
<type> q,r``, or ``no defence`` for a seizure); the side a battle move enters the enemy hex from
(``attack from q,r``); which of several units breaches or seizes (``choose <type> q,r``). Next to
an enemy, ``attack q,r`` is close combat (any unit) and ``shoot q,r`` the ranged attack.
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable, Sequence
from typing import Any

from agents.generic import GameStopped
from arena.vigtavl_match import DEFAULT_MAX_STEPS, GAME, GameJob, agent_seed, check_agents, make_env, make_player, run_game
from arena.records import GameRecord
from arena.replay import TurnPrinter, text_map
from games import load_game
from games.choices import Choice
from games.interface import GameState

InputFn = Callable[[str], str]
PrintFn = Callable[[str], Any]
LIST_ALL = 30  # list every decision up to this many; more are shown by kind
PACK_AT = 8  # a kind with this many plain decisions is listed packed, PACK_COLUMNS to a line
PACK_COLUMNS = 6
PROMPT = "your decision (number, command, ? for help): "
SEED_RANGE = 2 ** 31
HELP = """commands:
    12                    decision number 12
    move 3,-1             a decision by its command: the verb, then the hex q,r ("3 -1" and
    build camp 0,2          "(3, -1)" work too; walls name the edge: build wall ne 0,2)
    activate 2,-1         words may be shortened or left out when one decision still fits
    act cav 2,-1            (the unit type here); several fits are listed
    end                   end the activation, or the turn when no unit is active
    attack 1,0            close combat on a next hex (any unit); shoot 2,0: the ranged attack
                            (archers, galleons) along a straight line
    choose sol 1,0        answer a choice: the soldier on 1,0 defends (or breaches, seizes)
    no defence            let a development or artillery be seized undefended
    attack from 0,0       the side a battle move attacks from
    load 2                setup: the second split of the knights over your two freighters
    choose 2              which unit, where yours differ (upright or spent, the cargo): the
                            second of those listed
    build wall            a kind or any start of a command: lists the decisions that fit
    list [text]           every decision (or those fitting text)
    map                   the map and the purses again (rows are labelled r=..., with their q range)
    coords                the map with every hex's q,r written in its place
    ?  help               this help
    quit                  leave the game
"""


def _console_input(prompt: str) -> str:
    return input(prompt)  # looked up at call time, so a replaced builtins.input is used


def _console_print(text: str) -> None:
    print(text)


class QuitGame(GameStopped):
    """The person typed ``quit`` (or closed the input); ``record``: the game so far."""


class Menu:
    """The legal decisions of one moment, numbered, grouped by kind, found by typed text."""

    def __init__(self, state: GameState, legal: list[int]) -> None:
        self.choices = state.choices(legal)
        self.read = state.read_command
        self.places = {c.hex for c in self.choices if c.hex}
        self.kinds: dict[str, list[Choice]] = {}
        for c in self.choices:
            self.kinds.setdefault(c.kind, []).append(c)

    def by_number(self, n: int) -> Choice | None:
        return self.choices[n - 1] if 1 <= n <= len(self.choices) else None

    def find(self, text: str) -> tuple[Choice | None, list[Choice]]:
        """``(the choice, fits)``: every decision ``text`` fits, and the one it names, if any.

        Each typed word must begin a word of the command, in order; words may be left out from
        anywhere (``caravel`` fits ``place caravel``); a typed hex must be the decision's hex. A
        single fit is the choice. ``end`` alone, with both "end activation" and "end turn" legal,
        ends the activation (the smaller step; "end turn" says the other).
        """
        t = self.read(text)
        exact = [c for c in self.choices if c.command == t]
        if exact:
            return exact[0], exact
        words = t.split()
        hex_ = words.pop() if words and words[-1] in self.places else None
        fits = [c for c in self.choices if _words_fit(words, c.command.split()[:-1] if c.hex else c.command.split())
                and (hex_ is None or c.hex == hex_)]
        if len(fits) == 1:
            return fits[0], fits
        if words == ["end"] and {c.command for c in fits} == {"end activation", "end turn"}:
            return next(c for c in fits if c.command == "end activation"), fits
        return None, fits

    def overview(self) -> list[str]:
        """Every decision when few, else one line per kind with its number range."""
        n = len(self.choices)
        if n <= LIST_ALL:
            return [f"{n} legal decision{'s' if n != 1 else ''}:"] + [c.line() for c in self.choices]
        lines = [f"{n} legal decisions, by kind (type a kind to list it, e.g. '{next(iter(self.kinds))}'):"]
        width = max(len(k) for k in self.kinds)
        for kind, cs in self.kinds.items():
            span = f"{cs[0].number}" if len(cs) == 1 else f"{cs[0].number}-{cs[-1].number}"
            example = f"e.g. {cs[0].command}" if cs[0].hex else ""
            lines.append(f"  {kind:<{width}} {len(cs):>4}  ({span})  {example}".rstrip())
        return lines


def listing(choices: Sequence[Choice]) -> list[str]:
    """Choices one per line; runs of decisions that differ only by hex (``place caravel``,
    ``build wall ne``) are packed as ``number) q,r`` cells, several to a line."""
    lines: list[str] = []
    groups: dict[str, list[Choice]] = {}
    for c in choices:
        groups.setdefault(c.stem, []).append(c)
    for stem, cs in groups.items():
        if len(cs) < PACK_AT or not all(c.plain for c in cs):
            lines += [c.line() for c in cs]
            continue
        lines.append(f"  {stem} at:")
        cells = [f"{c.number:>5}) {c.hex:<7}" for c in cs]
        lines += ["".join(cells[i:i + PACK_COLUMNS]).rstrip() for i in range(0, len(cells), PACK_COLUMNS)]
    return lines


def _words_fit(typed: list[str], words: list[str]) -> bool:
    """Each typed word begins one of ``words``, in order (a subsequence of prefixes)."""
    rest = iter(words)
    return all(any(w.startswith(t) for w in rest) for t in typed)


class HumanAgent:
    """A player whose decisions a person types (see the module docstring for the commands)."""

    name = "human"

    def __init__(self, input_fn: InputFn | None = None, print_fn: PrintFn | None = None,
                 show_map: bool = True) -> None:
        self.input = input_fn or _console_input
        self.print = print_fn or _console_print
        self.show_map = show_map
        self.seen = 0
        self.seat = 0

    def reset(self, seat: int, seed: int | None = None) -> None:
        self.seat, self.seen = seat, 0

    def show_news(self, state: GameState) -> None:
        """Narrate every event since the person's last decision."""
        news = state.narrate(self.seen)
        if news:
            self.print(f"--- since your last decision ({len(news)} events) ---")
            for _, text in news:
                self.print("  " + text)
        self.seen += len(news)

    def show_status(self, state: GameState) -> None:
        me = self.seat
        if self.show_map:
            self.print(text_map(state))
        self.print(f"You are P{me} (player_{me}): {state.status(me)}")
        asked = state.prompt()
        if asked:
            self.print(asked)

    def __call__(self, view: GameState, legal: list[int]) -> int:
        """The person's decision for the seat to move in ``view`` among ``legal`` (a player of
        the game interface, as ``arena.vigtavl_match.run_game`` seats it)."""
        self.show_news(view)
        self.show_status(view)
        menu = Menu(view, legal)
        for line in menu.overview():
            self.print(line)
        while True:
            choice = self._ask(menu, view)
            if choice is not None:
                self.print(f"you: {choice.text}")
                return choice.action

    def _ask(self, menu: Menu, state: GameState) -> Choice | None:
        try:
            raw = self.input(PROMPT)
        except EOFError:
            raise QuitGame() from None
        t = menu.read(raw)
        if t in ("q", "quit", "exit"):
            raise QuitGame()
        if t in ("?", "h", "help"):
            self.print(HELP)
        elif t in ("map", "m"):
            self.show_status(state)
        elif t in ("coords", "coordinates", "c"):
            self.print(text_map(state, coords=True))
        elif t in ("list", "l", "ls"):
            for line in listing(menu.choices):
                self.print(line)
        elif t.startswith(("list ", "ls ")):
            self._show_fits(menu, t.split(" ", 1)[1], menu.find(t.split(" ", 1)[1])[1], listing_only=True)
        elif t.isdigit():
            choice = menu.by_number(int(t))
            if choice is None:
                self.print(f"there is no decision {t}: choose a number from 1 to {len(menu.choices)}")
            return choice
        elif not t:
            self.print("type a number, a command such as 'end', or ? for help")
        else:
            choice, fits = menu.find(t)
            if choice is None:
                self._show_fits(menu, raw.strip(), fits)
            return choice
        return None

    def _show_fits(self, menu: Menu, typed: str, fits: list[Choice], listing_only: bool = False) -> None:
        if not fits:
            self.print(f"'{typed}' fits no legal decision. Legal kinds now: {', '.join(menu.kinds)}. "
                       "Type ? for help.")
            return
        n = len(fits)
        what = "decision fits" if n == 1 else "decisions fit"
        self.print(f"{n} {what} '{typed}'" + (":" if listing_only else " (type the number, or the whole command):"))
        for line in listing(fits):
            self.print(line)

    def finish(self, state: GameState) -> None:
        """The last events, the final map and the result."""
        self.show_news(state)
        if self.show_map:
            self.print(text_map(state))
        self.print(result_line(state, self.seat))


def result_line(state: GameState, seat: int) -> str:
    tokens = [int(t) for t in state.scores()["tokens"]]
    if not state.is_terminal():
        return f"The game was cut off; tokens {tokens}."
    w = state.winners()
    verdict = ("You win!" if w == [seat] else "You share the win." if seat in w else "You lose.")
    return f"{verdict} Tokens: " + ", ".join(f"P{p} {t}" for p, t in enumerate(tokens)) + "."


def play(opponents: str | Sequence[str] = "greedy", seat: int = 0, seed: int | None = None,
         num_players: int = 2, map: str | None = None, input_fn: InputFn | None = None,
         print_fn: PrintFn | None = None, show_map: bool = True,
         max_steps: int = DEFAULT_MAX_STEPS) -> GameRecord | None:
    """A person plays seat ``seat``; the other seats get ``opponents`` in turn (a spec or a list).

    Returns the game's record (replayable with ``arena.replay``); if the person quit, the record
    of the game so far (``truncated``, no winner).
    """
    specs = [opponents] if isinstance(opponents, str) else list(opponents)
    print_fn = print_fn or _console_print
    if not 0 <= seat < num_players:
        raise ValueError(f"seat must be 0..{num_players - 1}, got {seat}")
    check_agents(specs)
    seed = random.randrange(SEED_RANGE) if seed is None else seed
    seats = [specs[i % len(specs)] for i in range(num_players - 1)]
    seats.insert(seat, "human")
    job = GameJob(0, seed, tuple(seats), num_players, map, max_steps)
    env = make_env(job)
    env.reset(seed=seed)
    human = HumanAgent(input_fn, print_fn, show_map)
    seeds = [agent_seed(seed, i) for i in range(num_players)]
    human.reset(seat, seeds[seat])
    players = [human if s == seat else make_player(spec, seed=seeds[s]) for s, spec in enumerate(seats)]
    print_fn(f"{load_game(GAME).title}, game seed {seed}: " + ", ".join(f"P{i} {name}" for i, name in enumerate(seats)))
    try:
        record = run_game(env, players, job, seeds)
    except QuitGame as stop:
        print_fn("You left the game.")
        return stop.record
    human.finish(env.game_state)
    return record


def watch(agents: Sequence[str], seed: int | None = None, map: str | None = None,
          print_fn: PrintFn | None = None, show_map: bool = True, delay: float = 0.0,
          max_steps: int = DEFAULT_MAX_STEPS) -> GameRecord:
    """Narrate a game between ``agents`` (one spec per seat) live, a map after every turn."""
    check_agents(agents)
    print_fn = print_fn or _console_print
    seed = random.randrange(SEED_RANGE) if seed is None else seed
    n = len(agents)
    job = GameJob(0, seed, tuple(agents), n, map, max_steps)
    env = make_env(job)
    env.reset(seed=seed)
    seeds = [agent_seed(seed, i) for i in range(n)]
    players = [make_player(spec, seed=s) for spec, s in zip(agents, seeds)]
    print_fn(f"{load_game(GAME).title}, game seed {seed}: " + ", ".join(f"P{i} {name}" for i, name in enumerate(agents)))
    printer = TurnPrinter(print_fn, maps=show_map)
    printer.start(env.game_state)

    def observe(state: Any, number: int, text: str) -> None:
        printer.after(state, number, text)
        if delay > 0:
            time.sleep(delay)

    record = run_game(env, players, job, seeds, observe)
    printer.finish(env.game_state)
    return record
