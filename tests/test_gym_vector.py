"""The batched vector env under gymnasium's vector API (``vigtavl_env/gym_vector.py``).

``SAME_STEP`` autoreset as gymnasium's own vector envs do it: the step that ends a game returns
the next game's first observation and mask, the finished one's last observation in
``infos["final_obs"]``; a cut-off game is truncated, not terminated; the same games as the SB3
vector env it wraps.
"""

from __future__ import annotations

import gymnasium
import numpy as np
import pytest
from gymnasium.vector import AutoresetMode

import vigtavl_env
from vigtavl_env.gym_vector import VigtavlGymVectorEnv
from vigtavl_env.vector import VigtavlVectorEnv


def _random_actions(rng: np.random.Generator, masks: np.ndarray) -> np.ndarray:
    return np.array([rng.choice(np.flatnonzero(m)) for m in masks])


def test_make_vec_gives_the_batched_env_in_same_step_mode() -> None:
    envs = gymnasium.make_vec(vigtavl_env.GYMNASIUM_ID, num_envs=3, vectorization_mode="vector_entry_point",
                              opponents=["random"])
    assert isinstance(envs.unwrapped, VigtavlGymVectorEnv)
    assert envs.metadata["autoreset_mode"] == AutoresetMode.SAME_STEP
    obs, infos = envs.reset(seed=1)
    assert obs.shape == (3,) + envs.single_observation_space.shape
    assert infos["action_mask"].dtype == np.int8 and infos["action_mask"].shape == (3, envs.single_action_space.n)
    envs.close()


def test_finished_games_hand_back_their_last_view_and_the_next_game_starts_at_once() -> None:
    envs = VigtavlGymVectorEnv(num_envs=4, opponents=["random"], max_steps=30)
    rng = np.random.default_rng(0)
    obs, infos = envs.reset(seed=5)
    ended = 0
    for _ in range(120):
        obs, rewards, terminated, truncated, infos = envs.step(_random_actions(rng, infos["action_mask"]))
        assert infos["action_mask"].any(axis=1).all()  # never an empty mask in SAME_STEP mode
        done = terminated | truncated
        assert not (terminated & truncated).any()
        if done.any():
            assert (infos["_final_obs"] == done).all()
            for i in np.flatnonzero(done):
                assert infos["final_obs"][i].shape == obs[i].shape
                assert not np.array_equal(infos["final_obs"][i], obs[i])  # a new game's first view
                assert infos["final_info"]["_game"][i] and infos["final_info"]["game"]["tokens"][i] is not None
            assert (infos["final_info"]["_game"] == done).all()  # batched, gymnasium's way
            ended += int(done.sum())
        else:
            assert "final_obs" not in infos
    assert ended > 0
    assert rewards.dtype == np.float32


def test_a_cut_off_game_is_truncated_not_terminated() -> None:
    envs = VigtavlGymVectorEnv(num_envs=2, opponents=["random"], max_steps=3)
    rng = np.random.default_rng(1)
    _, infos = envs.reset(seed=0)
    truncations = np.zeros(2, dtype=bool)
    for _ in range(6):
        _, _, terminated, truncated, infos = envs.step(_random_actions(rng, infos["action_mask"]))
        assert not terminated.any()  # no game of 2 players ends in 3 decisions
        truncations |= truncated
    assert truncations.all()


def test_it_plays_the_same_games_as_the_sb3_vector_env() -> None:
    gym_envs = VigtavlGymVectorEnv(num_envs=3, opponents=["greedy"], max_steps=40, seed=9)
    sb3_env = VigtavlVectorEnv(num_envs=3, opponents=["greedy"], max_steps=40, seed=9)
    obs_a, infos = gym_envs.reset()
    obs_b = sb3_env.reset()
    rng = np.random.default_rng(2)
    for _ in range(60):
        assert np.array_equal(obs_a, obs_b)
        assert np.array_equal(infos["action_mask"].astype(bool), sb3_env.action_masks())
        actions = _random_actions(rng, infos["action_mask"])
        obs_a, rewards_a, terminated, truncated, infos = gym_envs.step(actions)
        obs_b, rewards_b, dones, _ = sb3_env.step(actions)
        assert np.array_equal(rewards_a, rewards_b) and np.array_equal(terminated | truncated, dones)


@pytest.mark.parametrize("actions", [[0, 0, 0], [[0], [0]], 7])
def test_actions_of_the_wrong_shape_are_one_line(actions) -> None:
    envs = VigtavlGymVectorEnv(num_envs=2, opponents=["random"])
    envs.reset(seed=0)
    with pytest.raises(ValueError, match="one action per game"):
        envs.step(actions)


def test_reset_options_are_refused() -> None:
    envs = VigtavlGymVectorEnv(num_envs=1, opponents=["random"])
    with pytest.raises(ValueError, match="no options"):
        envs.reset(seed=0, options={"map": "quad"})
