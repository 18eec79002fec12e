"""What things are worth in victory tokens: a defeated unit (its cost), a seized development
(its value, +3 for an owner's last one, plus the prisoners rescued there), the end awards
(General, Admiral, Builder) as they stand, and how many turns (and battle turns) a player has
left to change them.
"""

from __future__ import annotations

from vigtavl_env.engine.state import BATTLE, OVER, PLACEMENT, PRISONER, GameState, count_of
from vigtavl_env.engine.stats import DEV_COST, NO_DEV, UNIT_COST
from vigtavl_env.engine.tokens import end_counts as engine_end_counts


LAST_DEVELOPMENT_BONUS = 3  # "the victor receives 3 victory tokens in addition"


END_AWARD = 3  # General, Admiral, Builder


COMPLEX_TOKENS = 3


def unit_value(state: GameState, u: int) -> int:
    """Battle tokens for defeating unit ``u`` (its cost)."""
    return UNIT_COST[state.u_type[u]]


def dev_count(state: GameState, player: int) -> int:
    """Developments ``player`` owns."""
    return count_of(state.dev_owner, player)


def seize_value(state: GameState, me: int, cell: int) -> float:
    """Tokens for seizing ``cell`` now: development value (+3 for the owner's last one) and
    the value of my prisoners rescued there. Artillery alone is worth no tokens."""
    dev = state.dev_type[cell]
    if dev == NO_DEV:
        return 0.0
    owner = state.dev_owner[cell]
    v = float(DEV_COST[dev])
    if dev_count(state, owner) == 1:
        v += LAST_DEVELOPMENT_BONUS
    for u in range(len(state.u_where)):
        if state.u_where[u] == PRISONER and state.u_cell[u] == cell and state.u_owner[u] == me:
            v += UNIT_COST[state.u_type[u]]
    return v


def end_counts(state: GameState) -> tuple[list[int], list[int], list[int]]:
    """(prisoners held, ships sunk, developments) per player: what the end awards compare (the
    engine's count, :func:`vigtavl_env.engine.tokens.end_counts`)."""
    counts = engine_end_counts(state)
    return counts["general"], counts["admiral"], counts["builder"]


def award_shares(counts: list[int], need_one: bool = True) -> list[float]:
    """End-award tokens each player would get for these counts (ties all get it)."""
    best = max(counts)
    if best == 0 and need_one:
        return [0.0] * len(counts)
    return [float(END_AWARD) if c == best else 0.0 for c in counts]


def projected_awards(state: GameState) -> list[float]:
    """General + Admiral + Builder tokens per player if the game ended now."""
    if state.phase == OVER:
        return [0.0] * state.n_players
    need = state.config.end_awards_need_one
    out = [0.0] * state.n_players
    for counts in end_counts(state):
        for p, v in enumerate(award_shares(counts, need)):
            out[p] += v
    return out


def battle_turns_left(state: GameState, player: int) -> int:
    """Battle-phase turns ``player`` still starts (his current turn not counted)."""
    if state.phase in (OVER,):
        return 0
    rounds = state.config.rounds_per_phase
    p = state.n_players
    # Turns are numbered in play order from the first build turn.
    if state.phase == PLACEMENT:
        now = -1
    else:
        now = (state.round + (rounds if state.phase == BATTLE else 0)) * p + state.turn_player
    first_battle = rounds * p
    last = 2 * rounds * p - 1
    n = 0
    for t in range(max(now + 1, first_battle), last + 1):
        if t % p == player:
            n += 1
    return n


def turns_left(state: GameState, player: int) -> int:
    """Turns (build or battle) ``player`` still starts after now."""
    if state.phase == OVER:
        return 0
    rounds = state.config.rounds_per_phase
    p = state.n_players
    now = -1 if state.phase == PLACEMENT else (state.round + (rounds if state.phase == BATTLE else 0)) * p + state.turn_player
    last = 2 * rounds * p - 1
    n = 0
    for t in range(now + 1, last + 1):  # a loop: the compiled function has no closures
        if t % p == player:
            n += 1
    return n
