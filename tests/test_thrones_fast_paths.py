"""Thrones' fast paths say what their plain definitions say (the speed-ups of the AEC loop,
docs/benchmarks.md#thrones): the tile mask against ``tiles_feasible`` type by type, SELECT's
``has_options`` against ``piece_options``, the win tests against counting cells, and the
observation against one built cell by cell from what the seat sees. Over the states of seeded
random games, both seats, views included. (The golden games check the same end to end.)"""

from __future__ import annotations

import random

import numpy as np
import pytest

from games.thrones import codec, rules, setup, turn, views
from games.thrones.config import DRAGON, FORTRESS, THRONE, UNKNOWN
from games.thrones.game import ThronesGame


def states(seeds: range, every: int = 1):
    for seed in seeds:
        st, rng, k = ThronesGame().new_state(seed=seed), random.Random(seed), 0
        while not st.is_over():
            if k % every == 0:
                yield st
            st.apply_action(rng.choice(st.legal_actions()))
            k += 1
        yield st


def test_the_tile_mask_is_tiles_feasible_type_by_type():
    checked = 0
    for st in states(range(6)):
        if st.phase != "setup":
            continue
        seat = st.current_player()
        kind, arg = setup.step_kind(st, st.step[seat])
        if kind != "tile":
            continue
        cell, plain = st.board.home[seat][arg], []
        for t in range(FORTRESS + 1):
            st.tile[cell] = t
            if setup.tiles_feasible(st, seat):
                plain.append(t)
        st.tile[cell] = UNKNOWN
        assert setup.tile_choices(st, seat, cell) == plain
        checked += 1
    assert checked == 6 * 2 * 36


def test_select_asks_has_options_as_piece_options_answers():
    checked = 0
    for st in states(range(4, 8)):
        if st.revealed and not st.is_over() and st.actor < 0 and st.pending < 0:
            for p in st.pieces_of(st.turn):
                if st.ppos[p] >= 0:
                    assert turn.has_options(st, p) == bool(turn.piece_options(st, p))
                    checked += 1
    assert checked > 1000


def test_the_win_tests_count_as_the_cells_say():
    for st in states(range(8, 12), every=3):
        for seat in (0, 1):
            held = sum(1 for c in st.board.home[1 - seat] if st.tile[c] == FORTRESS and st.occ[c] >= 0
                       and st.owner(st.occ[c]) == seat and st.ptype[st.occ[c]] in st.capturer_types)
            assert rules.fortresses_held(st, seat) == (held >= st.cfg.win_fortress)
            lost = sum(1 for q in st.pieces_of(seat) if st.ptype[q] == THRONE and st.ppos[q] == -2)
            assert rules.thrones_lost(st, seat) == (lost >= st.cfg.win_throne)
            reserve = sum(1 for q in st.pieces_of(seat) if st.ptype[q] == DRAGON and st.ppos[q] == -1)
            assert st.dragons_in_reserve(seat) == reserve


def plain_observation(st, seat: int) -> np.ndarray:
    """The observation as views' docstring describes it, cell by cell."""
    b, cfg = st.board, st.cfg
    obs = np.zeros((views.N_CHANNELS, b.n), dtype=np.float32)
    for c in range(b.n):
        r = b.rel(seat, c)
        t = views.tile_seen(st, seat, c)
        obs[t if t >= 0 else views.UNKNOWN_CH, r] = 1.0
        obs[views.BREACHED_CH, r] = float(st.breached[c])
        q = views.piece_seen(st, seat, c)
        if q >= 0:
            obs[(views.OWN_CH if st.owner(q) == seat else views.OPP_CH) + st.ptype[q], r] = 1.0
        obs[30, r] = float(b.home_of[c] == seat)
    for ch, q in ((views.ACTOR_CH, st.actor), (28, st.guard)):
        if q >= 0 and st.ppos[q] >= 0:
            obs[ch, b.rel(seat, st.ppos[q])] = 1.0
    if st.deceive_from >= 0:
        obs[29, b.rel(seat, st.deceive_from)] = 1.0
    fmax, dragons = max(cfg.favor_max, 1), max(cfg.piece_amounts[DRAGON], 1)
    values = (st.current_player() == seat, st.revealed, st.first_turn and st.revealed, st.moved,
              st.switched, st.favor_used, st.pending >= 0, st.fav[seat] / fmax, st.fav[1 - seat] / fmax,
              views.reserve(st, seat) / dragons,
              views.reserve(st, 1 - seat) / dragons if st.revealed else 0.0, st.step[seat] / st.steps)
    for i, v in enumerate(values):
        obs[31 + i, :] = float(v)
    if st.revealed and not st.is_over():
        for side, ch in ((seat, views.STRIKE_CH), (1 - seat, views.STRIKE_CH + 2)):
            for src, cell, chance in plain_strikes(st, side):
                for k, c in ((ch, src), (ch + 1, cell)):
                    obs[k, b.rel(seat, c)] = max(obs[k, b.rel(seat, c)], chance)
    return obs.reshape(views.N_CHANNELS, b.h, b.w)


def plain_strikes(st, side: int) -> set[tuple[int, int, float]]:
    """The strike planes' definition, by the legal actions: a turn of ``side``'s starts now;
    every piece it may select, and the cells it may then attack or fire at (absolute)."""
    s = st.clone()
    s.turn, s.first_turn = side, False
    s.reset_turn()
    n, odds, out = s.board.n, s.cfg.check_odds / 100, set()
    for code in s.legal_actions():
        if codec.decode(code, n).verb != codec.SELECT:
            continue
        t = s.clone()
        t.apply_action(code)
        p = t.actor
        for c2 in t.legal_actions():
            a = codec.decode(c2, n)
            kind = {codec.ATTACK: rules.KIND_ATTACK, codec.FIRE: rules.KIND_FIRE}.get(a.verb)
            if kind is not None:
                cell = s.board.rel(side, a.cell)
                out.add((s.ppos[p], cell, odds if rules.check_needed(t, kind, p, cell) else 1.0))
    return out


def test_the_strike_planes_are_the_strikes_a_turn_may_make():
    checked = 0
    for st in states(range(16, 19), every=7):
        if not st.revealed or st.is_over():
            continue
        for side in (0, 1):
            odds = st.cfg.check_odds / 100
            got = {(st.ppos[p], c, odds if checked else 1.0) for p, _, c, checked in rules.strikes(st, side)}
            assert got == plain_strikes(st, side)
            checked += len(got)
    assert checked > 200


@pytest.mark.parametrize("seeds", [range(12, 14), range(14, 16)])
def test_the_observation_is_the_one_built_cell_by_cell(seeds):
    checked = 0
    for st in states(seeds, every=2):
        for seat in (0, 1):
            for s in (st, st.view_for(seat)):
                got = s.observation(seat)
                assert got.flags.c_contiguous and got.tobytes() == plain_observation(s, seat).tobytes()
                checked += 1
    assert checked > 1000
