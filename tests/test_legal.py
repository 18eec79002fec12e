"""``legal_actions`` against its definition, on many states of random games.

- The list equals the product of ``open_verbs`` and ``hexes_for`` computed verb by verb, each
  verb on its own (no shared work object), sorted, global verbs last, no duplicates.
- Every listed decision applies, with and without the caller's legal list, to the same result.
- Unlisted codes (random, in range) raise IllegalActionError whose message names the decision
  (``describe``) and a reason, and leave ``to_json(state)`` unchanged.
- Whoever must act has at least one legal decision until the game is over.
- Codes out of range and codes that are not integers raise IllegalActionError.
"""

from __future__ import annotations

import random

import numpy as np
import pytest
from conftest import load_freighters

from tools.demo import eager_bot, random_bot
from vigtavl_env.engine import (
    IllegalActionError, apply_action, describe, legal_actions, n_actions, new_game, to_json,
)
from vigtavl_env.engine import actions as A
from vigtavl_env.engine.legal import hexes_for, open_verbs
from vigtavl_env.engine.maps import generate_map, load_map
from vigtavl_env.engine.state import OVER, GameState

SAMPLE_EVERY = 3  # check every third state of a game
APPLY_ALL_EVERY = 4  # of the checked states, apply every listed decision on every fourth
APPLY_SAMPLE = 6  # otherwise this many
UNLISTED_SAMPLE = 8
GAMES = [(2, 1, "random"), (2, 2, "eager"), (3, 3, "random"), (3, 4, "eager"), (4, 5, "random"),
         (4, 6, "eager"), (2, 7, "eager")]
BOTS = {"random": random_bot, "eager": eager_bot}


def expected_legal(state: GameState) -> list[int]:
    """The definition: open verbs times their hexes, each verb computed on its own."""
    n = state.gmap.board.n_cells
    verbs, glob, _ = open_verbs(state)
    codes = sorted({A.encode(v, c, n) for v in set(verbs) for c in hexes_for(state, v)})
    return codes + [A.encode_global(g, n) for g in glob]


def check_state(state: GameState, rng: random.Random, apply_all: bool) -> None:
    legal = legal_actions(state)
    assert legal, f"P{state.current_player} must act but has no legal decision"
    assert len(set(legal)) == len(legal), "duplicate codes"
    assert legal == expected_legal(state)
    before = to_json(state)
    chosen = legal if apply_all else rng.sample(legal, min(APPLY_SAMPLE, len(legal)))
    for code in chosen:
        a, b = state.clone(), state.clone()
        apply_action(a, code)
        apply_action(b, code, legal)
        assert to_json(a) == to_json(b), f"{describe(state, code)}: fast path differs"
    assert to_json(state) == before, "applying to a clone changed the original"
    listed = set(legal)
    for _ in range(UNLISTED_SAMPLE):
        code = rng.randrange(n_actions(state.gmap.board.n_cells))
        if code in listed:
            continue
        for args in ((code,), (code, legal)):
            with pytest.raises(IllegalActionError) as err:
                apply_action(state, *args)
            msg, name = str(err.value), describe(state, code)
            assert msg.startswith(name + ": ") and len(msg) > len(name) + 3, msg
        assert to_json(state) == before, f"{describe(state, code)} changed the state"


@pytest.mark.parametrize("n_players, seed, bot", GAMES)
def test_legal_actions_match_definition_and_apply(n_players, seed, bot):
    state = new_game(generate_map(n_players, seed), seed=seed)
    rng = random.Random(seed)
    k = 0
    while state.phase != OVER:
        if k % SAMPLE_EVERY == 0:
            check_state(state, rng, apply_all=(k // SAMPLE_EVERY) % APPLY_ALL_EVERY == 0)
        legal = legal_actions(state)
        apply_action(state, BOTS[bot](state, legal, rng), legal)
        k += 1
    assert legal_actions(state) == []
    assert state.current_player == -1


def test_nothing_is_legal_once_over():
    state = new_game(load_map("duel"), seed=2)
    rng = random.Random(2)
    while state.phase != OVER:
        apply_action(state, rng.choice(legal_actions(state)))
    before = to_json(state)
    for code in (0, A.encode_global(A.END_TURN, state.gmap.board.n_cells)):
        with pytest.raises(IllegalActionError, match="over"):
            apply_action(state, code)
    assert to_json(state) == before


@pytest.fixture
def fresh() -> GameState:
    """A new duel game past its load decisions (S4): the first ship is to be placed."""
    state = new_game(load_map("duel"), seed=4)
    assert load_freighters(state) == [0, 1]
    return state


@pytest.mark.parametrize("code", [-1, -5199, 5199, 10**9, None, [0], "end turn", object()])
def test_out_of_range_and_junk_codes_raise(fresh, code):
    assert n_actions(fresh.gmap.board.n_cells) == 57 * 91 + 12 == 5199
    before = to_json(fresh)
    with pytest.raises(IllegalActionError):
        apply_action(fresh, code)
    assert to_json(fresh) == before


@pytest.mark.parametrize("code", [0.5, 0.0, "0", True])
def test_non_integer_codes_raise(fresh, code):
    assert 0 in legal_actions(fresh)  # code 0 (place a caravel on hex 0) is legal here
    before = to_json(fresh)
    with pytest.raises(IllegalActionError):
        apply_action(fresh, code)
    assert to_json(fresh) == before


def test_numpy_integer_codes_are_accepted(fresh):
    """Environments hand over numpy integers; they are integers."""
    code = legal_actions(fresh)[0]
    assert fresh.decisions == 2  # the two load decisions
    apply_action(fresh, np.int64(code))
    assert fresh.decisions == 3


@pytest.mark.parametrize("form", ["numpy ints", "floats", "unsorted", "a huge int", "bools first", "a tuple"])
def test_any_legal_list_the_caller_passes_decides_as_the_full_check(form):
    """``apply_action(state, code, legal)`` reads ``legal`` by bisection when it is a list of
    plain ints (C comparisons when compiled); any other list (other numbers, out of order, an int
    past 64 bits) is read as ``code in legal`` would read it, compiled or not: listed decisions
    apply as with no list, unlisted ones are checked in full and refused."""
    state, rng = new_game(load_map("duel"), seed=7), random.Random(7)
    for _ in range(60):  # into the game: a state with many choices
        la = legal_actions(state)
        apply_action(state, rng.choice(la), la)
    legal = legal_actions(state)
    listed = legal[len(legal) // 2]
    unlisted = next(c for c in range(2, n_actions(state.n_cells)) if c not in legal)  # 0, 1 == the bools
    passed = {
        "numpy ints": [np.int64(c) for c in legal],
        "floats": [float(c) for c in legal],
        "unsorted": legal[::-1],
        "a huge int": legal + [2 ** 70],
        "bools first": [False, True] + legal,
        "a tuple": tuple(legal),
    }[form]
    done, expected = state.clone(), state.clone()
    apply_action(done, listed, passed)
    apply_action(expected, listed)
    assert to_json(done) == to_json(expected)
    before = to_json(state)
    with pytest.raises(IllegalActionError):
        apply_action(state, unlisted, passed)
    assert to_json(state) == before
