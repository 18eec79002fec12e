"""The Thrones search bot, ``search`` / ``search:N``: it never peeks.

Before the reveal it plays the greedy bot's setup (``layout.py``), from its own tiles and its own
seed only: the opponent's setup is hidden in the view it is handed, and nothing it decides then
reads the view's placeholder for it (tests/test_thrones_bots.py checks that two different
secret setups of the opponent give the same decisions).

After the reveal the game is one of full information, and it searches the state as it stands:
every way to play its turn (a piece selected and what it does, or a decision on its own) is
scored by the greedy bot's one-decision lookahead; the ``N`` best of these lines are each played
on through the rest of its turn and the opponent's whole reply, both sides choosing as the
greedy bot would, every survival check's two outcomes weighted by ``check_odds`` (the view's coin
is never rolled). The line of the best evaluation at the end of the reply is played; the rest of
it is kept as the plan for the turn's next decisions while the position is the one it expected.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass

from games.thrones.state import ThronesState

from .evaluate import evaluate
from .greedy import GreedyPlayer
from .lookahead import best_line, considered, follow_ups, opens_choice, outcomes, score, settled_value

DEFAULT_LINES = 4  # lines searched per decision: about 3 s of CPU for a whole game against greedy
MAX_LINES = 200
REPLY_TURNS = 2  # the line's own turn, then the opponent's reply
# per earlier time a line's end was a position this bot already faced at its turn's start: two
# bots that parry each other otherwise go round in circles until the move limit
REPEAT_PENALTY = 0.25


@dataclass
class Line:
    """One way to go on: its codes in order, the greedy's score, the searched value."""

    codes: list[int]
    greedy: float
    value: float = float("-inf")


def candidate_lines(st: ThronesState, legal: list[int]) -> list[Line]:
    """Every decision now; a SELECT with each decision of the piece selected."""
    me = st.current_player()
    lines = []
    for code in considered(st, legal):
        after = outcomes(st, code)
        if len(after) == 1 and opens_choice(after[0][1]) and after[0][1].current_player() == me:
            opened = after[0][1]
            lines += [Line([code, c], score(opened, c, me, 0)) for c in follow_ups(opened)]
            continue
        lines.append(Line([code], sum(p * settled_value(s, me) for p, s in after)))
    return lines


def position_key(st: ThronesState) -> tuple[int, ...]:
    return tuple(st.occ)


def played_on(st: ThronesState, me: int, until_turn: int, seen: Counter[tuple[int, ...]]) -> float:
    """The expected evaluation once both sides play as the greedy bot until turn ``until_turn``
    (less the repeat penalty of a position faced before)."""
    if st.is_over() or st.turn_no >= until_turn:
        return evaluate(st, me) - REPEAT_PENALTY * seen[position_key(st)]
    return line_value(st, best_line(st), me, until_turn, seen)


def line_value(st: ThronesState, codes: list[int], me: int, until_turn: int,
               seen: Counter[tuple[int, ...]]) -> float:
    if not codes:
        return played_on(st, me, until_turn, seen)
    return sum(p * line_value(s, codes[1:], me, until_turn, seen) for p, s in outcomes(st, codes[0]))


class SearchPlayer(GreedyPlayer):
    """The greedy bot's setup; after the reveal, searches the ``lines`` best lines of the greedy
    bot to the end of the opponent's reply."""

    def __init__(self, lines: int = DEFAULT_LINES, seed: int | None = None) -> None:
        super().__init__(seed)
        self.lines = lines
        self.plan: list[int] = []
        self.plan_at: tuple[int, int] = (-1, -1)
        self.seen: Counter[tuple[int, ...]] = Counter()  # positions at the start of its turns
        self.turn_seen = -1

    def after_reveal(self, view: ThronesState, legal: list[int]) -> int:
        if view.turn_no != self.turn_seen:
            self.turn_seen = view.turn_no
            self.seen[position_key(view)] += 1
        here = (view.turn_no, len(view.history))
        if self.plan and here == self.plan_at and self.plan[0] in legal:
            code = self.plan.pop(0)
        else:
            code, self.plan = self.search(view, legal)
        self.plan_at = (view.turn_no, len(view.history) + 1)
        return code

    def search(self, st: ThronesState, legal: list[int]) -> tuple[int, list[int]]:
        """The first code of the best line, and the rest of it."""
        me = st.current_player()
        lines = sorted(candidate_lines(st, legal), key=lambda ln: -ln.greedy)[:self.lines]
        until = st.turn_no + REPLY_TURNS
        for ln in lines:
            ln.value = line_value(st, ln.codes, me, until, self.seen)
        best = max(lines, key=lambda ln: ln.value)
        return best.codes[0], best.codes[1:]


def lines_arg(arg: str) -> int:
    """``search:N``'s N (ValueError in one line)."""
    if not arg:
        return DEFAULT_LINES
    if not (arg.isascii() and arg.isdigit()) or not 1 <= int(arg) <= MAX_LINES:
        raise ValueError(f"search:N takes N in 1-{MAX_LINES} (lines searched per decision), got {arg[:20]!r}")
    return int(arg)
