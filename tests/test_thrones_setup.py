"""Thrones: the secret setup as masked decisions, the reveal, and that nothing of a seat's secret
setup reaches the other seat before the reveal (issue 57 items 2 and 4)."""

from __future__ import annotations

import random

from games.thrones import codec
from games.thrones.config import DRAGON, FORTRESS, MOUNTAIN, PLAINS, THRONE, UNKNOWN
from games.thrones.game import ThronesGame
from games.thrones.setup import arrange_middle, step_kind, tile_choices
from games.thrones.soak import check_invariants

G = ThronesGame()


def setup_seat(st, seat: int, rng: random.Random, throne_on_fortress: bool = False) -> None:
    """Random legal setup decisions for ``seat`` until its setup is done."""
    while st.phase == "setup" and st.current_player() == seat:
        kind, arg = step_kind(st, st.step[seat])
        codes = st.legal_actions()
        if throne_on_fortress and kind == "piece" and arg == THRONE:
            forts = [a for a in codes if st.tile[st.board.rel(seat, a % st.board.n)] == FORTRESS]
            codes = forts or codes
        st.apply_action(rng.choice(codes))


def test_first_player_is_a_logged_public_coin():
    firsts = {G.new_state(seed=s).first for s in range(12)}
    assert firsts == {0, 1}
    ev = G.new_state(seed=3).chance_events()
    assert ev[0]["kind"] == "first_player" and ev[0]["seat"] == G.new_state(seed=3).first


def test_each_seat_decides_its_whole_setup_in_turn():
    st = G.new_state(seed=1)
    assert st.steps == 36 + 4 + 15
    setup_seat(st, 0, random.Random(0))
    assert st.step == [55, 0] and st.current_player() == 1 and not st.revealed
    setup_seat(st, 1, random.Random(1))
    assert st.revealed and st.phase == "play" and st.current_player() == st.first


def test_fortress_never_offered_on_the_board_edge_and_amounts_kept():
    st = G.new_state(seed=2)
    rng = random.Random(2)
    n = st.board.n
    while st.step[0] < len(st.board.home[0]):
        codes = st.legal_actions()
        for a in codes:
            if a // n == FORTRESS:
                assert not st.board.on_edge(a % n)
        st.apply_action(rng.choice(codes))
    counts = [sum(1 for c in st.board.home[0] if st.tile[c] == t) for t in range(5)]
    assert tuple(counts) == st.cfg.tile_amounts


def test_every_row_gets_every_type_the_mask_forces_the_missing_ones():
    st = G.new_state(seed=0)
    row = st.board.home[0][:9]
    for c in row[:6]:
        st.tile[c] = PLAINS
    assert tile_choices(st, 0, row[6]) == [1, 2, 3]  # forest, mountain, water: all still missing
    st.tile[row[6]] = MOUNTAIN
    assert tile_choices(st, 0, row[7]) == [1, 3]  # the last two cells: forest and water


def test_clashing_middle_tiles_page_and_source_shifts():
    u = UNKNOWN
    first = [0, 1, 2, 3, u, u, u, u, u]
    second = [0, u, u, u, 1, 2, 3, u, u]
    assert arrange_middle(first, second, "page", True) == [0, 1, 2, 3, 1, 2, 3, 0, FORTRESS]
    assert arrange_middle(first, second, "near", True) == [0, 1, 2, 3, 0, 1, 2, 3, FORTRESS]
    second = [u, u, u, u, u, u, u, 0, 1]
    first = [u, u, u, u, u, u, 2, 3, 1]
    F = FORTRESS
    assert arrange_middle(first, second, "page", True) == [3, 0, 1, 1, F, F, 2, F, F]
    row = arrange_middle(first, second, "first", True)
    assert sorted(row) == [0, 1, 1, 2, 3, 4, 4, 4, 4] and row[6:] == [2, 3, 1]


def test_the_dragon_may_stay_in_reserve_and_comes_out_later():
    st = G.new_state(seed=4)
    rng = random.Random(4)
    reserve = codec.global_code(codec.RESERVE, st.board.n)
    for seat in (0, 1):
        while st.phase == "setup" and st.current_player() == seat:
            kind, arg = step_kind(st, st.step[seat])
            codes = st.legal_actions()
            assert (reserve in codes) == (kind == "piece" and arg == DRAGON)
            st.apply_action(reserve if reserve in codes else rng.choice(codes))
    dragons = [q for q in range(2 * st.per) if st.ptype[q] == DRAGON]
    assert all(st.ppos[q] == -1 for q in dragons)
    me = st.current_player()
    mountains = [c for c in st.board.home[me] if st.tile[c] in (MOUNTAIN, FORTRESS)]
    placements = [a for a in st.legal_actions() if a // st.board.n == codec.DRAGON]
    assert placements and len(placements) <= len(mountains)


def test_a_throne_starting_on_a_fortress_gains_a_favor():
    st = G.new_state(seed=5)
    setup_seat(st, 0, random.Random(5), throne_on_fortress=True)
    setup_seat(st, 1, random.Random(6))
    assert st.fav[0] == 1 and st.fav[1] == 0


def snapshot(st, seat: int):
    return (st.observation(seat).tobytes(), st.public_view(seat), st.view_for(seat).to_dict(),
            st.current_player(), st.legal_actions() if st.current_player() == seat else None)


def test_two_secret_setups_look_the_same_to_the_other_seat():
    """Item 4: before the reveal, seat 0's two different setups give seat 1 the same
    observation, legal actions, public view and view_for; and the other way round."""
    a, b = G.new_state(seed=9), G.new_state(seed=9)
    ra, rb = random.Random(1), random.Random(2)
    for _ in range(30):  # part of seat 0's setup
        a.apply_action(ra.choice(a.legal_actions()))
        b.apply_action(rb.choice(b.legal_actions()))
        assert snapshot(a, 1) == snapshot(b, 1)
    setup_seat(a, 0, ra)
    setup_seat(b, 0, rb)
    assert a.tile != b.tile
    r1 = random.Random(3)
    while a.phase == "setup" and a.step[1] < a.steps - 1:
        assert snapshot(a, 1) == snapshot(b, 1)
        code = r1.choice(a.legal_actions())
        a.apply_action(code)
        b.apply_action(code)
    assert snapshot(a, 0)[0] != snapshot(a, 1)[0]
    c = G.new_state(seed=9)
    setup_seat(c, 0, random.Random(1))
    d = c.clone()
    for _ in range(20):  # seat 1's two partial setups, as seat 0 sees them
        c.apply_action(random.Random(len(c.history)).choice(c.legal_actions()))
        d.apply_action(random.Random(len(d.history) + 99).choice(d.legal_actions()))
        assert snapshot(c, 0) == snapshot(d, 0)


def test_a_view_reaches_the_reveal_with_a_sampled_setup():
    st = G.new_state(seed=11)
    setup_seat(st, 0, random.Random(11))
    view = st.view_for(1)
    assert all(t == UNKNOWN for c, t in enumerate(view.tile) if view.board.home_of[c] == 0)
    assert all(h == -1 for h in view.history)
    setup_seat(view, 1, random.Random(12))
    assert view.revealed
    check_invariants(view)
    assert [view.tile[c] for c in view.board.home[0]] != [st.tile[c] for c in st.board.home[0]]


def test_observation_marks_the_hidden_half_unknown():
    st = G.new_state(seed=13)
    setup_seat(st, 0, random.Random(13))
    obs = st.observation(1)
    unknown = obs[5]
    assert unknown[:4].all()  # seat 0's home, at the top of seat 1's picture
    assert obs[17:27].sum() == 0  # no opponent piece seen
    assert st.observation(0)[7:17].sum() == 15 and st.observation(0)[5, 5:].sum() == 0
    assert st.public_view(1)["board"][8][0] == {"tile": "unknown", "breached": False, "piece": "unknown"}
