"""The action codec and the mask: exact on random positions of 2, 3 and 4 player games.

Every masked-in action is applied through the engine to a clone of the state and must work;
sampled masked-out actions -- near misses (a legal verb on another hex), off-hexagon cells and
arbitrary indices -- must be refused by ``raw_env.step`` with the game unchanged.
"""

from __future__ import annotations

import numpy as np
import pytest

from vigtavl_env import raw_env
from vigtavl_env.codec import NO_CODE, ActionCodec, mask_indices
from vigtavl_env.engine import IllegalActionError, apply_action, legal_actions, to_json
from vigtavl_env.engine import actions as A
from vigtavl_env.engine.hexgrid import Board
from vigtavl_env.engine.maps import SIDE_FOR_PLAYERS
from vigtavl_env.engine.scenario import code_for

PLAYERS = (2, 3, 4)
GAMES_PER_COUNT = 3
CHECK_EVERY = 3  # decisions between two checked positions
REFUSALS_PER_POSITION = 12
BUSY = 0.85  # chance of preferring a hex action over ending the activation or turn


def busy_choice(legal: np.ndarray, global0: int, rng: np.random.Generator) -> int:
    """A random legal action that ends activations and turns only now and then, so games
    reach battles, captures and retaliations instead of passing."""
    hex_actions = legal[legal < global0]
    pool = hex_actions if len(hex_actions) and rng.random() < BUSY else legal
    return int(pool[rng.integers(len(pool))])


def random_positions(n: int, games: int = GAMES_PER_COUNT, every: int = CHECK_EVERY):
    """Yield (env, legal indices, rng) at every ``every``-th decision of seeded busy games."""
    e = raw_env(num_players=n)
    global0 = A.N_HEX_VERBS * e.codec.hw
    for g in range(games):
        e.reset(seed=100 * n + g)
        rng = np.random.default_rng(g)
        k = 0
        while not e.game_state.is_over:
            legal = np.flatnonzero(e.action_mask())
            if k % every == 0:
                yield e, legal, rng
            e.step(busy_choice(legal, global0, rng))
            k += 1


# ---------------------------------------------------------------------- codec
@pytest.mark.parametrize("n", PLAYERS)
def test_codec_round_trips_every_engine_code(n):
    codec = ActionCodec(Board(SIDE_FOR_PLAYERS[n]))
    codes = np.arange(codec.n_engine)
    env_idx = codec.env_of_engine[codes]
    assert len(set(env_idx.tolist())) == codec.n_engine
    assert np.all(np.diff(env_idx) > 0)  # both numberings ascend together (the random bot relies on it)
    assert np.array_equal(codec.engine_of_env[env_idx], codes)
    assert all(codec.to_engine(codec.to_env(int(c))) == c for c in codes)
    off = np.flatnonzero(codec.engine_of_env == NO_CODE)
    assert len(off) == codec.n_actions - codec.n_engine
    with pytest.raises(ValueError, match="off the hexagon"):
        codec.to_engine(int(off[0]))
    with pytest.raises(ValueError, match="outside the action space"):
        codec.to_engine(codec.n_actions)


def test_the_codecs_mask_writers_agree_with_numpys_fancy_indexing():
    codec = ActionCodec(Board(SIDE_FOR_PLAYERS[3]))
    rng = np.random.default_rng(5)
    for size in (0, 1, 40, 300):
        codes = sorted(rng.choice(codec.n_engine, size=size, replace=False).tolist())
        want = np.zeros(codec.n_actions, dtype=bool)
        want[codec.env_of_engine[codes]] = True
        assert np.array_equal(codec.legal_indices(codes), codec.env_of_engine[codes])
        assert np.array_equal(codec.new_mask(codes), want.astype(np.int8))
        assert codec.new_mask(codes).dtype == np.int8
        for dtype in (bool, np.int8, np.uint8, np.float32):  # one-byte rows take the typed loop
            row = np.ones(codec.n_actions, dtype=dtype)
            assert codec.fill_mask(row, codes) is row
            assert np.array_equal(row, want.astype(dtype))
        batch = np.ones((2, codec.n_actions), dtype=bool)
        codec.fill_mask(batch[1], codes)
        assert np.array_equal(batch[1], want) and batch[0].all()  # one row written, in place


def test_mask_indices_are_numpys_flatnonzero_for_every_mask_kind():
    rng = np.random.default_rng(6)
    for size in (0, 1, 40, 6661):
        want = np.sort(rng.choice(6661, size=size, replace=False))
        for dtype in (bool, np.int8, np.uint8, np.int64, np.float32):  # one-byte masks read as bool
            mask = np.zeros(6661, dtype=dtype)
            mask[want] = 1
            assert np.array_equal(mask_indices(mask), want)
            batch = np.zeros((3, 6661), dtype=dtype)
            batch[:, want] = 1
            assert np.array_equal(mask_indices(batch[2]), want)
            assert np.array_equal(mask_indices(batch[:, ::-1][1]), np.sort(6660 - want))  # a strided row


def test_codec_layout_is_verb_times_hw_plus_tensor_cell():
    board = Board(6)
    codec = ActionCodec(board)
    hw = board.width ** 2
    for cell in (0, 37, 90):
        for verb in (0, 37, A.N_HEX_VERBS - 1):
            assert codec.to_env(A.encode(verb, cell, board.n_cells)) == verb * hw + board.tensor_index[cell]
    assert codec.to_env(A.encode_global(A.END_TURN, board.n_cells)) == A.N_HEX_VERBS * hw + 1


# ---------------------------------------------------------------------- mask exactness
@pytest.mark.parametrize("n", PLAYERS)
def test_every_masked_in_action_applies(n):
    checked = 0
    for e, legal, _ in random_positions(n):
        codes = legal_actions(e.game_state)
        assert len(legal) == len(codes) >= 1
        assert sorted(e.codec.to_env(c) for c in codes) == legal.tolist()
        for index in legal:
            code = e.codec.to_engine(int(index))
            assert e.encode_action(code) == index  # decode(encode(a)) == a
            apply_action(e.game_state.clone(keep_events=False), code)  # raises if the mask lied
            checked += 1
    assert checked > 100


def near_misses(e, legal: np.ndarray, rng: np.random.Generator, k: int) -> list[int]:
    """Masked-out actions: legal verbs on other tensor cells, plus arbitrary indices."""
    hw, mask = e.codec.hw, e.action_mask()
    out: list[int] = []
    for index in rng.choice(legal, size=min(k, len(legal)), replace=False):
        verb = int(index) // hw
        if verb < A.N_HEX_VERBS:
            out.append(verb * hw + int(rng.integers(hw)))
    out += rng.integers(e.codec.n_actions, size=k).tolist()
    return [int(i) for i in out if not mask[i]]


@pytest.mark.parametrize("n", PLAYERS)
def test_masked_out_actions_are_refused_and_change_nothing(n):
    refused = 0
    for e, legal, rng in random_positions(n, games=1, every=CHECK_EVERY * 2):
        before, agent = to_json(e.game_state), e.agent_selection
        for index in near_misses(e, legal, rng, REFUSALS_PER_POSITION):
            with pytest.raises(IllegalActionError, match=f"{agent} chose action {index}"):
                e.step(index)
            refused += 1
        assert to_json(e.game_state) == before and e.agent_selection == agent
    assert refused > 50


def test_from_verb_agrees_with_the_engine_names():
    e = raw_env(num_players=2)
    e.reset(seed=0)
    board = e.gmap.board
    for verb in A.VERB_NAMES:
        for at in ((0, 0), (-5, 5), (3, -1)):
            code = code_for(e.game_state, verb, at)
            assert e.encode_action(verb, at) == e.codec.to_env(code)
    with pytest.raises(ValueError, match="unknown verb"):
        e.encode_action("fly", (0, 0))
    with pytest.raises(ValueError, match="needs a hex on the board"):
        e.encode_action("move", (9, 9))
    assert board.n_cells == 91


def test_mask_is_exact_for_an_out_of_turn_choice():
    """Asked who defends, the defender may name exactly the units the rules allow: every other
    choose verb, hex or unit type, and every other decision, is refused with the game unchanged."""
    from test_env_api import defend_env
    e = defend_env()
    agent, mask = e.agent_selection, e.action_mask()
    legal = np.flatnonzero(mask)
    for index in legal:
        apply_action(e.game_state.clone(keep_events=False), e.codec.to_engine(int(index)))
    hw, before = e.codec.hw, to_json(e.game_state)
    board = e.gmap.board
    choose_everywhere = [v * hw + board.tensor_index[c] for v in range(A.CHOOSE, A.CHOOSE + 6)
                         for c in range(board.n_cells)]
    others = [i for i in choose_everywhere if not mask[i]]
    others += [A.N_HEX_VERBS * hw + g for g in range(A.N_GLOBAL_VERBS)]  # no end turn, no "no defence"
    assert len(legal) == 3 and len(others) == 6 * board.n_cells - 3 + A.N_GLOBAL_VERBS
    for index in others:
        with pytest.raises(IllegalActionError, match=f"{agent} chose action {index}"):
            e.step(index)
    assert to_json(e.game_state) == before and e.agent_selection == agent
