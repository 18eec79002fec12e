"""A game's step functions for self-play (agents.game_steps.GameSteps): every game meets them
through steps_for (the interface's by default, Vigtavl's engine-bound ones), and Vigtavl's agree
with its interface adapter position by position."""

from __future__ import annotations

import random

import numpy as np
import pytest

from agents.game_steps import INTERFACE_STEPS, steps_for
from games.registry import load_game
from vigtavl_env.game_steps import GAME_STEPS


@pytest.mark.parametrize("name", ["vigtavl", "pig", "thrones"])
def test_every_games_steps_play_a_game_to_its_end(name):
    game = load_game(name)
    steps = steps_for(game)
    assert steps is (GAME_STEPS if name == "vigtavl" else INTERFACE_STEPS)
    make = steps.new_games(game, 2, 7)
    state, rng, moves = make(3), random.Random(0), 0
    shape = steps.encode([state]).shape
    while not steps.is_over(state) and moves < 400:
        legal = steps.legal(state)
        idx = steps.indices(state, legal)
        assert [steps.code(state, i) for i in idx] == list(legal)
        assert 0 <= steps.phase(state) < len(steps.phase_names)
        assert steps.encode([state]).shape == shape and shape[0] == 1
        steps.apply(state, rng.choice(legal), legal)
        moves += 1
    assert len(steps.scores(state)) == 2 and len(steps.returns(state)) == 2


def test_vigtavls_engine_steps_agree_with_its_interface():
    game = load_game("vigtavl")
    make = GAME_STEPS.new_games(game, 2, 0, map="duel")
    engine, rng = make(11), random.Random(1)
    for _ in range(120):
        if GAME_STEPS.is_over(engine):
            break
        view = game.wrap(engine)  # the same position behind the interface
        legal = GAME_STEPS.legal(engine)
        assert list(GAME_STEPS.indices(engine, legal)) == view.legal_actions()
        assert np.array_equal(GAME_STEPS.encode([engine])[0], view.observation(view.current_player()))
        assert GAME_STEPS.player(engine) == view.current_player()
        GAME_STEPS.apply(engine, rng.choice(legal), legal)
    assert make(11).rng != make(12).rng  # each game its own dice
