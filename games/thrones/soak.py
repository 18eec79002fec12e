"""Random games with the invariants checked after every decision:
``python -m games.thrones.soak --games 10000`` (exit 1 on the first broken invariant).

The invariants: pieces (one per cell, tables agree, amounts kept, only Dragons in reserve),
tiles (after the reveal every home has its amounts, every row every type, no Fortress on the
edge, the middle row complete), fortresses (breaches only on Fortresses; none left breached and
empty at a turn's start when restored at turn end), favors (0 <= held <= total <= favor_max),
and a non-empty legal list until the end.
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from typing import Any

from .config import DRAGON, FORTRESS, UNKNOWN
from .game import ThronesGame
from .setup import rows_of
from .state import ThronesState


def check_pieces(st: ThronesState) -> None:
    for c, q in enumerate(st.occ):
        assert q < 0 or st.ppos[q] == c, f"cell {c} names piece {q} elsewhere"
    for q, c in enumerate(st.ppos):
        assert c < 0 or st.occ[c] == q, f"piece {q} on {c} not in the cell table"
        if st.phase != "setup" and c == -1:
            assert st.ptype[q] == DRAGON, f"piece {q} off the board but not in reserve"


def check_tiles(st: ThronesState) -> None:
    cfg = st.cfg
    if not st.revealed:
        return
    assert UNKNOWN not in st.tile, "a tile unknown after the reveal"
    for s in (0, 1):
        counts = [0] * 5
        for row in rows_of(st, s):
            kinds = {st.tile[c] for c in row}
            for t in range(FORTRESS):
                assert not cfg.tile_amounts[t] or t in kinds, f"seat {s}: a row lacks tile {t}"
            for c in row:
                counts[st.tile[c]] += 1
                assert st.tile[c] != FORTRESS or not st.board.on_edge(c), "a Fortress on the edge"
        assert tuple(counts) == cfg.tile_amounts, f"seat {s}: tile amounts {counts}"
    mid = [0] * 5
    for c in st.board.middle:
        mid[st.tile[c]] += 1
    for t in range(FORTRESS):
        assert mid[t] == 2 * cfg.middle_amounts[t], f"middle row holds {mid}"


def check_fortresses_and_favors(st: ThronesState) -> None:
    for c, b in enumerate(st.breached):
        assert not b or st.tile[c] == FORTRESS, f"breach on a non-fortress {c}"
        if b and st.cfg.fortress_restore == "turn_end" and st.actor < 0 and not (st.moved or st.switched):
            assert st.occ[c] >= 0 or st.pending >= 0 or st.deceive_from >= 0 or st.is_over() \
                or st.favor_used, f"fortress {c} breached and empty at a turn's start"
    for s in (0, 1):
        assert 0 <= st.fav[s] <= st.fav_total[s] <= st.cfg.favor_max, f"favors {st.fav} / {st.fav_total}"


def check_invariants(st: ThronesState) -> None:
    check_pieces(st)
    check_tiles(st)
    check_fortresses_and_favors(st)
    assert st.is_over() or st.legal_actions(), "no legal action in a game not over"
    assert (st.winner >= 0) == (st.phase == "over"), "winner and phase disagree"


def play_random(seed: int, check: bool = True, **options: Any) -> ThronesState:
    """One game of uniformly random legal decisions (seeded), invariants checked throughout."""
    st = ThronesGame().new_state(seed=seed, **options)
    pick = random.Random(seed ^ 0x7E57)
    while not st.is_over():
        st.apply_action(pick.choice(st.legal_actions()))
        if check:
            check_invariants(st)
    return st


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=int, default=100)
    ap.add_argument("--seed", type=int, default=0)
    args = ap.parse_args(argv)
    t0, decisions, wins, cut = time.time(), 0, [0, 0], 0
    for i in range(args.games):
        try:
            st = play_random(args.seed + i)
        except AssertionError as e:
            print(f"game seed {args.seed + i}: invariant broken: {e}")
            return 1
        decisions += len(st.history)
        if st.winner >= 0:
            wins[st.winner] += 1
        cut += st.is_truncated()
    dt = time.time() - t0
    print(f"{args.games} games, {decisions} decisions in {dt:.1f}s: wins {wins}, cut {cut}, "
          f"invariants held after every decision")
    return 0


if __name__ == "__main__":
    sys.exit(main())
