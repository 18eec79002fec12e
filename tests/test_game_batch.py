"""The batch core over the game interface (games/batch.py) and its two adapters: gymnasium's
``VectorEnv`` (games/vector.py) and SB3's ``VecEnv`` (training/vec.py), with pig and thrones.

Shapes and masks, the seat loop (the learner decides only for its seat, opponents get views),
auto-reset in ``SAME_STEP`` mode, truncation, determinism under a seed, bad input in one line.
"""

from __future__ import annotations

import numpy as np
import pytest
from gymnasium.vector import AutoresetMode
from sb3_contrib.common.maskable.utils import get_action_masks, is_masking_supported
from stable_baselines3.common.vec_env import VecMonitor

from agents.generic import make_generic
from games.batch import GameBatch
from games.registry import load_game
from games.vector import GameVectorEnv
from training.vec import GameVecEnv


def _random_actions(rng: np.random.Generator, masks: np.ndarray) -> np.ndarray:
    return np.array([rng.choice(np.flatnonzero(m)) for m in masks])


@pytest.mark.parametrize("game,shape,actions", [("pig", (6, 1, 4), 4), ("thrones", (47, 9, 9), 1948)])
def test_shapes_and_masks_are_the_learners(game: str, shape: tuple, actions: int) -> None:
    batch = GameBatch(game, num_envs=3, seed=1, make_player=make_generic)
    obs, masks = batch.reset()
    assert obs.shape == (3, *shape) and obs.dtype == np.float32
    assert masks.shape == (3, actions) and masks.dtype == bool
    rng = np.random.default_rng(0)
    for _ in range(20):
        for i, s in enumerate(batch.states):
            assert s.current_player() == batch.seats[i]  # the learner decides, out of turn included
            assert np.flatnonzero(masks[i]).tolist() == s.legal_actions()
            assert np.array_equal(obs[i], s.observation(int(batch.seats[i])))
        step = batch.step(_random_actions(rng, masks))
        obs, masks = step.obs, step.masks
        assert masks.any(axis=1).all()


def test_opponents_are_handed_views_never_the_true_state() -> None:
    seen: list[tuple[object, int]] = []

    def spy(spec: str, seed: int):
        inner = make_generic(spec, seed)

        def play(view, legal):
            seen.append((view, view.current_player()))
            return inner(view, legal)
        return play

    batch = GameBatch("pig", num_envs=2, num_players=3, seed=2, make_player=spy)
    _, masks = batch.reset()
    rng = np.random.default_rng(1)
    for _ in range(10):
        masks = batch.step(_random_actions(rng, masks)).masks
    assert seen
    for view, seat in seen:
        assert all(view is not s for s in batch.states)
        assert view.to_dict()["hidden"] == [k != seat for k in range(3)]  # others' cards replaced


def test_finished_games_restart_at_once_with_their_last_view_and_summary() -> None:
    batch = GameBatch("pig", num_envs=4, seed=3, target=8, make_player=make_generic)
    _, masks = batch.reset()
    rng = np.random.default_rng(2)
    ended = 0
    for _ in range(200):
        step = batch.step(_random_actions(rng, masks))
        masks = step.masks
        done = step.dones
        assert sorted(step.final_obs) == sorted(step.games) == np.flatnonzero(done).tolist()
        assert (step.rewards[~done] == 0).all()
        for i in np.flatnonzero(done):
            g = step.games[i]
            assert step.rewards[i] == g["return"] and g["return"] in (-1.0, 0.0, 0.5, 1.0)
            assert g["win"] == (1.0 if g["return"] == 1.0 else g["win"]) and g["opponent"] == "random"
            assert step.final_obs[i].shape == (6, 1, 4)
            assert batch.lengths[i] < g["length"]  # row i holds a new game
        ended += int(done.sum())
    assert ended > 20


def test_a_game_cut_at_its_move_limit_is_truncated_with_no_reward() -> None:
    batch = GameBatch("pig", num_envs=2, seed=4, max_steps=3, make_player=make_generic)
    _, masks = batch.reset()
    truncated = 0
    for _ in range(6):
        step = batch.step(masks.argmax(axis=1))  # roll (or veto) forever: pig's max_steps cuts it
        masks = step.masks
        truncated += int(step.truncated.sum())
        assert not step.terminated.any() and (step.rewards == 0).all()
        assert all(g["truncated"] for g in step.games.values())
    assert truncated > 0


@pytest.mark.parametrize("game", ["pig", "thrones"])
def test_the_same_seed_gives_the_same_games(game: str) -> None:
    def play(seed: int) -> list[np.ndarray]:
        batch = GameBatch(game, num_envs=3, seed=seed, make_player=make_generic)
        obs, masks = batch.reset()
        rng, out = np.random.default_rng(9), [obs]
        for _ in range(25):
            step = batch.step(_random_actions(rng, masks))
            masks = step.masks
            out += [step.obs, step.rewards, batch.seats.copy()]
        return out

    a, b, c = play(5), play(5), play(6)
    assert all(np.array_equal(x, y) for x, y in zip(a, b))
    assert not all(np.array_equal(x, y) for x, y in zip(a, c))


def test_a_fixed_seat_and_weights_are_kept() -> None:
    batch = GameBatch("pig", num_envs=8, num_players=3, seat=2, opponents=["random", "rollout:1"],
                      weights=[0, 1], seed=0, make_player=make_generic)
    batch.reset()
    assert (batch.seats == 2).all() and set(batch.names) == {"rollout:1"}


@pytest.mark.parametrize("kwargs,words", [
    (dict(opponents=["nobody"]), "unknown agent"), (dict(opponents=[]), "at least one"),
    (dict(num_envs=0), "num_envs"), (dict(seat=5), "seat"), (dict(weights=[1, 2]), "weights"),
    (dict(num_players=9), "players"), (dict(target="x"), "target"),
])
def test_bad_input_is_one_line(kwargs: dict, words: str) -> None:
    with pytest.raises(ValueError, match=words) as e:
        GameBatch("pig", **kwargs, make_player=make_generic)
    assert "\n" not in str(e.value)


def test_a_wrong_number_of_actions_is_refused() -> None:
    batch = GameBatch("pig", num_envs=2, make_player=make_generic)
    batch.reset()
    with pytest.raises(ValueError, match="one action per game"):
        batch.step(np.zeros(3, dtype=int))


# ------------------------------------------------------------------ gymnasium's VectorEnv
def test_gymnasium_vector_conventions() -> None:
    envs = GameVectorEnv("pig", num_envs=4, target=8, make_player=make_generic)
    assert envs.metadata["autoreset_mode"] == AutoresetMode.SAME_STEP
    assert envs.observation_space.shape == (4, 6, 1, 4) and envs.action_space.shape == (4,)
    obs, infos = envs.reset(seed=1)
    assert obs in envs.observation_space
    assert infos["action_mask"].dtype == np.int8 and infos["action_mask"].shape == (4, 4)
    rng, ended = np.random.default_rng(0), 0
    for _ in range(100):
        obs, rewards, terminated, truncated, infos = envs.step(_random_actions(rng, infos["action_mask"]))
        assert rewards.dtype == np.float32 and terminated.dtype == bool and not (terminated & truncated).any()
        assert infos["action_mask"].any(axis=1).all()
        done = terminated | truncated
        if done.any():
            assert (infos["_final_obs"] == done).all() and (infos["_final_info"] == done).all()
            for i in np.flatnonzero(done):
                assert infos["final_obs"][i].shape == obs[i].shape
                assert infos["final_info"]["_game"][i] and infos["final_info"]["game"]["return"][i] == rewards[i]
            ended += int(done.sum())
        else:
            assert "final_obs" not in infos
    assert ended > 0
    with pytest.raises(ValueError, match="no options"):
        envs.reset(options={"x": 1})
    envs.close()


def test_gymnasium_reset_seed_replays() -> None:
    envs = GameVectorEnv("thrones", num_envs=2, make_player=make_generic)
    a, _ = envs.reset(seed=3)
    envs.reset(seed=4)
    b, _ = envs.reset(seed=3)
    assert np.array_equal(a, b)


# ------------------------------------------------------------------ SB3's VecEnv
def test_sb3_vecenv_conventions_and_masks() -> None:
    venv = VecMonitor(GameVecEnv("pig", num_envs=3, target=8))
    assert is_masking_supported(venv)
    venv.seed(7)
    first = venv.reset()
    assert first.shape == (3, 6, 1, 4)
    masks = get_action_masks(venv)
    assert masks.shape == (3, 4) and masks.dtype == bool
    rng, ended = np.random.default_rng(0), 0
    for _ in range(60):
        obs, rewards, dones, infos = venv.step(_random_actions(rng, get_action_masks(venv)))
        for i in np.flatnonzero(dones):
            assert infos[i]["terminal_observation"].shape == (6, 1, 4)
            assert infos[i]["game"]["return"] == rewards[i] and "episode" in infos[i]
            ended += 1
    assert ended > 0
    venv.seed(7)
    assert np.array_equal(venv.reset(), first)


def test_a_model_plays_as_its_sb3_policy_predicts() -> None:
    """agents.game_ppo's one pass of the actor (no SB3 predict bookkeeping) gives SB3's decisions."""
    import torch as th

    from agents.game_ppo import PPOPlayer, policy_probs

    game, player = load_game("thrones"), PPOPlayer("pretrained", game="thrones")
    model, n = player.model, 0
    for seed in range(3):
        s, rng = game.new_state(2, seed), np.random.default_rng(seed)
        while not s.is_over() and n < 150 * (seed + 1):  # setups and moves after the reveal
            legal, view = s.legal_actions(), s.view_for(s.current_player())
            obs = view.observation(view.current_player())
            mask = np.zeros(int(model.action_space.n), dtype=bool)
            mask[legal] = True
            expected, _ = model.predict(obs[None], action_masks=mask[None], deterministic=True)
            assert player(view, legal) == int(expected[0])
            with th.no_grad():
                dist = model.policy.get_distribution(th.as_tensor(obs[None]), action_masks=mask[None])
            np.testing.assert_allclose(policy_probs(model.policy, obs[None], [legal])[0],
                                       dist.distribution.probs[0].numpy()[legal], atol=1e-5)
            s.apply_action(int(rng.choice(legal)))
            n += 1
