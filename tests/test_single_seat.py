"""One seat of any game as a gymnasium env (games/single_seat.py), and Thrones' registered ids
(games/thrones/env.py): gymnasium.make("Thrones-v1") with gymnasium's checker, PettingZoo's
api_test and parallel_api_test through pettingzoo.make("...", "vigtavl/thrones-v1")."""

from __future__ import annotations

import gymnasium
import numpy as np
import pettingzoo
import pytest
from gymnasium.utils.env_checker import check_env
from pettingzoo.test import api_test, parallel_api_test

import vigtavl_env  # noqa: F401 - importing the package registers every id, Thrones' too
from games.interface import IllegalAction
from games.single_seat import GameSingleSeatEnv
from games.thrones.env import GYMNASIUM_ID, PETTINGZOO_ID


def play_out(env: GameSingleSeatEnv, seed: int) -> tuple[float, bool, bool, int]:
    """A whole episode of the first legal action; (reward, terminated, truncated, steps)."""
    obs, info = env.reset(seed=seed)
    steps, done = 0, False
    while not done:
        assert obs.shape == env.observation_space.shape and env.observation_space.contains(obs)
        assert np.array_equal(info["action_mask"].astype(bool), env.action_masks()) and env.action_masks().any()
        obs, reward, term, trunc, info = env.step(int(np.flatnonzero(env.action_masks())[0]))
        steps, done = steps + 1, term or trunc
    return reward, term, trunc, steps


def test_the_ids_are_spelled_from_one_version():
    assert (GYMNASIUM_ID, PETTINGZOO_ID) == ("Thrones-v1", "vigtavl/thrones-v1")


def test_gymnasium_make_thrones_passes_the_env_checker():
    e = gymnasium.make(GYMNASIUM_ID)
    assert isinstance(e.unwrapped, GameSingleSeatEnv) and e.unwrapped.game.name == "thrones"
    check_env(e.unwrapped, skip_render_check=True)
    obs, info = e.reset(seed=3)
    assert obs.shape == (47, 9, 9) and info["action_mask"].any() and info["revealed"] is False


def test_pettingzoo_make_thrones_passes_the_api_tests():
    api_test(pettingzoo.make("aec", PETTINGZOO_ID, seed=5), num_cycles=200)
    parallel_api_test(pettingzoo.make("parallel", PETTINGZOO_ID, seed=5), num_cycles=200)


@pytest.mark.parametrize("game,seat,players", [("pig", 0, 2), ("pig", 2, 3), ("thrones", 1, 2)])
def test_one_seat_plays_a_whole_game_against_random(game, seat, players):
    env = GameSingleSeatEnv(game, seat=seat, num_players=players, seed=1)
    reward, term, trunc, steps = play_out(env, seed=1)
    s = env.state
    assert steps > 0 and s.is_over() and term == s.is_terminal() and trunc == s.is_truncated()
    assert reward == (s.returns()[seat] if term else 0.0)
    assert play_out(GameSingleSeatEnv(game, seat=seat, num_players=players), seed=1) == (reward, term, trunc, steps)


def test_the_opponent_policy_gets_its_own_view_and_legal_codes():
    seen = []

    def last_legal(view, legal):
        seen.append((view.current_player(), legal == view.legal_actions()))
        return legal[-1]

    env = GameSingleSeatEnv("thrones", seat=1, opponent=last_legal, seed=4)
    env.reset()
    assert seen and all(seat == 0 and same for seat, same in seen)
    assert env.state.current_player() == 1  # seat 0's whole setup laid before the learner's


def test_an_illegal_action_ends_the_episode_or_raises():
    env = GameSingleSeatEnv("pig", seed=2)
    env.reset()
    illegal = int(np.flatnonzero(~env.action_masks())[0])
    _, reward, term, trunc, info = env.step(illegal)
    assert (reward, term, trunc, info["illegal_action"]) == (-1.0, True, False, True)
    assert not env.action_masks().any()
    with pytest.raises(RuntimeError, match="reset"):
        env.step(0)
    strict = GameSingleSeatEnv("pig", seed=2, illegal_action="raise")
    strict.reset()
    before = strict.state.to_dict()
    with pytest.raises(IllegalAction):
        strict.step(illegal)
    assert strict.state.to_dict() == before


@pytest.mark.parametrize("kwargs,match", [
    ({"game": "nope"}, "unknown game"), ({"seat": 2}, "seat"), ({"seat": True}, "seat"),
    ({"opponent": "greedy"}, "opponent"), ({"illegal_action": "ignore"}, "illegal_action"),
    ({"render_mode": "human"}, "render_mode"), ({"game": "thrones", "num_players": 3}, "2-2 players"),
])
def test_bad_arguments_answer_in_one_line(kwargs, match):
    with pytest.raises(ValueError, match=match) as err:
        GameSingleSeatEnv(**kwargs)
    assert "\n" not in str(err.value)
