"""The position value of the search bot (:func:`evaluate`): tokens, the end awards as they stand
now, and what each player's developments, prisoners and units are likely to win or lose before
the game ends, under the weights of :class:`Evaluation`.
"""

from __future__ import annotations

from vigtavl_env.engine.state import BATTLE, GameState, ON_BOARD, OVER, PRISONER
from vigtavl_env.engine.stats import DEV_COST, IS_SHIP, UNIT_COST

from .maps import MapInfo
from .odds import defender
from .threats import guards, seize_exposure, threats_of
from .values import LAST_DEVELOPMENT_BONUS, battle_turns_left, projected_awards


class Evaluation:
    """Weights of :func:`evaluate` (victory-token units)."""

    def __init__(self, unit_weight: float = 0.25, threat_weight: float = 0.8,
                 award_weight: float = 1.0, resource_weight: float = 0.1) -> None:
        self.unit_weight = unit_weight  # units other players can beat next turn
        self.threat_weight = threat_weight  # developments other players can seize next turn
        self.award_weight = award_weight  # end awards as they stand
        self.resource_weight = resource_weight  # unspent gold and silver of the turn player


DEFAULT_EVAL = Evaluation()


def player_scores(state: GameState, info: MapInfo, weights: Evaluation = DEFAULT_EVAL) -> list[float]:
    """Each player's expected final tokens, roughly: tokens, end awards as they stand, and the
    expected losses of developments, prisoners and units to the players who move before him."""
    n = state.n_players
    scores = [float(t) for t in state.tokens]
    if state.phase == OVER:
        return scores
    aw = projected_awards(state)
    for p in range(n):
        scores[p] += weights.award_weight * aw[p]
    # Gold and silver still to spend this turn (a simulation cut short mid-turn).
    tp = state.turn_player
    scores[tp] += weights.resource_weight * (state.gold[tp] + state.silver[tp])
    # Threats: what each player can take from the others on his next battle turn; the player
    # who moves next counts in full, the others (who can be answered first) at half.
    threat = {q: threats_of(state, info, q) for q in range(n) if battle_turns_left(state, q) > 0
              or (state.turn_player == q and state.phase == BATTLE)}
    if not threat:
        return scores
    order = {q: (1.0 if q == state.turn_player else 0.5) for q in threat}
    guard = [guards(state, p) for p in range(n)]
    devs = [[] for _ in range(n)]
    for c in range(len(state.dev_owner)):  # index loops: typed in the compiled build
        if state.dev_owner[c] >= 0:
            devs[state.dev_owner[c]].append(c)
    held_at: dict[int, list[int]] = {}
    for u in range(len(state.u_where)):
        if state.u_where[u] == PRISONER:
            held_at.setdefault(state.u_cell[u], []).append(u)
    tw = weights.threat_weight
    for p in range(n):
        for c in devs[p]:
            worst, by = 0.0, -1
            for q, th in threat.items():
                if q == p:
                    continue
                e = seize_exposure(state, info, c, p, th, guard[p])
                if e > worst:
                    worst, by = e, q
            if worst <= 0:
                continue
            gain = DEV_COST[state.dev_type[c]] + (LAST_DEVELOPMENT_BONUS if len(devs[p]) == 1 else 0)
            for u in held_at.get(c, ()):
                if state.u_owner[u] == by:
                    gain += UNIT_COST[state.u_type[u]]
            k = tw * order[by]
            scores[by] += k * worst * gain
            scores[p] -= k * worst * DEV_COST[state.dev_type[c]] * 0.5
    # Units: a unit another player can beat next turn is a loss to its owner, a gain to him.
    uw = weights.unit_weight
    seen_cells: set[int] = set()
    for u in range(len(state.u_where)):
        if state.u_where[u] != ON_BOARD:
            continue
        c = state.u_cell[u]
        if c in seen_cells:
            continue
        seen_cells.add(c)
        v = defender(state, c)
        if v < 0:
            continue
        p = state.u_owner[v]
        cost = UNIT_COST[state.u_type[v]]
        best, by = 0.0, -1
        for q, th in threat.items():
            if q == p:
                continue
            pr = th.attack_prob(cost, c, IS_SHIP[state.u_type[v]])
            if pr > best:
                best, by = pr, q
        if best > 0:
            k = uw * order[by]
            scores[by] += k * best * cost
            scores[p] -= k * best * cost * 0.5
    return scores


def evaluate(state: GameState, info: MapInfo, me: int, weights: Evaluation = DEFAULT_EVAL) -> float:
    """My score minus the best other player's (see :func:`player_scores`)."""
    s = player_scores(state, info, weights)
    return s[me] - max(x for p, x in enumerate(s) if p != me)
