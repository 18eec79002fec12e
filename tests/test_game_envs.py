"""The environments a game gives its trainers through the interface (issue 56): Vigtavl's own
single-seat env, vector env and seat table (``Game.single_seat_env``, ``vector_env``,
``seat_table``), none for a game without them, and the league and RLlib env refusing such a
game in one line."""

from __future__ import annotations

import numpy as np
import pytest
from stable_baselines3.common.vec_env import VecEnv

from games import load_game
from training.league import LeagueEnv, LeagueVectorEnv, OpponentPool


@pytest.mark.parametrize("name", ["pig", "thrones"])
def test_a_game_without_its_own_envs_gives_none_and_the_league_says_so(name: str) -> None:
    game = load_game(name)
    assert game.single_seat_env() is None and game.vector_env(2) is None and game.seat_table() is None
    with pytest.raises(ValueError, match=f"game {name} has no single-seat env"):
        LeagueEnv(OpponentPool([("random", 1.0)]), game=name)
    with pytest.raises(ValueError, match=f"game {name} has no vector env"):
        LeagueVectorEnv(OpponentPool([("random", 1.0)]), 2, game=name)


def test_vigtavls_envs_come_through_its_game() -> None:
    game = load_game("vigtavl")
    env = game.single_seat_env(num_players=3)
    assert env.n_players == 3 and env.seat == 0
    venv = game.vector_env(2, opponents=["random"], seed=0)
    assert isinstance(venv, VecEnv) and venv.num_envs == 2
    table = game.seat_table(num_players=2, max_steps=40)
    seat = table.reset(7, {})
    rng = np.random.default_rng(0)
    while seat is not None:
        obs, mask = table.observe(seat)
        assert obs.shape == table.observation_space.shape and mask.shape == (table.n_actions,)
        table.reward(seat)
        seat = table.step(int(rng.choice(np.flatnonzero(mask))))
    assert not table.terminated()  # cut at 40 decisions


def test_the_league_reports_each_game_through_its_env() -> None:
    env = LeagueEnv(OpponentPool([("random", 1.0)]), num_players=2, max_steps=30)
    env.reset(seed=1)
    rng = np.random.default_rng(1)
    while True:
        _, _, terminated, truncated, info = env.step(int(rng.choice(np.flatnonzero(env.action_masks()))))
        if terminated or truncated:
            break
    assert info["game"]["opponent"] == "random" and info["game"]["truncated"] == truncated
