"""Looking one decision ahead in Thrones, chance included: a decision applied to copies of the
bot's view with the survival check forced each way (``ThronesState.force_checks``), weighted by
``check_odds``. The view's own coin is never used, so nothing hangs on its future flips.

``score`` is what the greedy bot maximises: the decision's expected evaluation once the turn is
done. A decision that only opens a choice (selecting a piece, the first piece of a deception, a
check asked before CUNNING or FLIP) is worth its best follow-up.
"""

from __future__ import annotations

from games.thrones import codec
from games.thrones.state import ThronesState

from .evaluate import evaluate, strike_odds

# after a SELECT, the decisions of the selected piece (the reserve's Dragon and a deception are
# scored where they are offered on their own)
PIECE_VERBS = frozenset((codec.MOVE, codec.SWITCH, codec.ATTACK, codec.FIRE, codec.HASTE, codec.AMBUSH))
OPENING_DEPTH = 2  # decisions that only open a choice, followed one after another at most


def outcomes(st: ThronesState, code: int) -> list[tuple[float, ThronesState]]:
    """``code`` applied to copies of ``st``: (chance, state) for a check passed and failed, or
    one state (chance 1) when no coin was flipped."""
    passed = st.clone()
    passed.forced = [True]
    passed.apply_code(code)
    if passed.forced:  # no check was made
        passed.forced = []
        return [(1.0, passed)]
    failed = st.clone()
    failed.forced = [False]
    failed.apply_code(code)
    odds = strike_odds(st)
    return [(odds, passed), (1.0 - odds, failed)]


def opens_choice(st: ThronesState) -> bool:
    """The last decision changed nothing yet: a piece selected, a deception begun, a check asked."""
    return st.pending >= 0 or st.deceive_from >= 0 or (st.actor >= 0 and not (st.moved or st.switched))


def considered(st: ThronesState, legal: list[int]) -> list[int]:
    """The decisions the bots weigh: a Warhorse "may switch ... with any number" of pieces, but
    the bots switch once a turn (more would let a turn go round in circles)."""
    if not st.switched:
        return legal
    n = st.board.n
    kept = [c for c in legal if c // n != codec.SWITCH or c >= codec.N_CELL_VERBS * n]
    return kept or legal


def follow_ups(st: ThronesState) -> list[int]:
    """The decisions worth looking at after one that opened a choice."""
    legal = considered(st, st.legal_actions())
    if st.actor < 0 or st.pending >= 0 or st.deceive_from >= 0:
        return legal
    n = st.board.n
    return [c for c in legal if c < codec.N_CELL_VERBS * n and c // n in PIECE_VERBS]


def settled_line(st: ThronesState, me: int, depth: int = OPENING_DEPTH) -> tuple[float, list[int]]:
    """A state after one of ``me``'s decisions: its worth once the choice it opened is made, and
    the best follow-up codes; a turn still going counts as ended (the opponent strikes next)."""
    if st.is_over() or st.current_player() != me:
        return evaluate(st, me), []
    if depth > 0 and opens_choice(st):
        codes = follow_ups(st)
        if codes:
            return max((score_line(st, c, me, depth - 1) for c in codes), key=lambda vl: vl[0])
    return evaluate(st, me, mover=1 - me), []


def score_line(st: ThronesState, code: int, me: int, depth: int = OPENING_DEPTH) -> tuple[float, list[int]]:
    """The expected worth to ``me`` of deciding ``code`` in ``st``, and the line it opens: the
    code and its best follow-ups (none after a check, whose outcomes differ)."""
    after = outcomes(st, code)
    if len(after) == 1:
        value, rest = settled_line(after[0][1], me, depth)
        return value, [code] + rest
    return sum(p * settled_line(s, me, depth)[0] for p, s in after), [code]


def settled_value(st: ThronesState, me: int, depth: int = OPENING_DEPTH) -> float:
    return settled_line(st, me, depth)[0]


def score(st: ThronesState, code: int, me: int, depth: int = OPENING_DEPTH) -> float:
    """The expected worth to ``me`` of deciding ``code`` in ``st``."""
    return score_line(st, code, me, depth)[0]


def best_line(st: ThronesState, legal: list[int] | None = None) -> list[int]:
    """The greedy decision, with the follow-ups it was chosen for: the legal code of the best
    score (the first of equals)."""
    me = st.current_player()
    legal = considered(st, st.legal_actions() if legal is None else legal)
    if len(legal) == 1:
        return legal
    return max((score_line(st, c, me) for c in legal), key=lambda vl: vl[0])[1]


def best_code(st: ThronesState, legal: list[int] | None = None) -> int:
    """The greedy decision (``best_line``'s first code)."""
    return best_line(st, legal)[0]
