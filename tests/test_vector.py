"""The batched vector environment (vigtavl_env/vector.py) against the single-game environment.

- Self-play mode: every decision of N games, driven with the same actions through N
  ``raw_env``s seeded as the vector env seeds its games, gives the same observations, masks,
  seats, rewards and terminal observations, through auto-resets.
- Learner mode: against a scripted opponent, the learner's observations, masks and rewards
  equal what ``raw_env`` gives the learner between two of its decisions.
- sb3-contrib's MaskablePPO trains on it with no glue; bad arguments fail in one line.
"""

from __future__ import annotations

import numpy as np
import pytest

from vigtavl_env import raw_env
from vigtavl_env.vector import VigtavlVectorEnv


class FirstLegal:
    """A scripted opponent: the lowest legal env action."""

    name = "first-legal"

    def reset(self, seat: int, seed: int | None = None) -> None:
        self.seat = seat

    def act(self, observation: np.ndarray, action_mask: np.ndarray, info: dict) -> int:
        return int(np.flatnonzero(action_mask)[0])


def _pick(rng: np.random.Generator, mask: np.ndarray) -> int:
    legal = np.flatnonzero(mask)
    return int(legal[rng.integers(len(legal))])


@pytest.mark.parametrize("n_players", [2, 3])
def test_self_play_rows_match_single_games_decision_by_decision(n_players: int) -> None:
    n, seed = 3, 11
    venv = VigtavlVectorEnv(num_envs=n, num_players=n_players, self_play=True, reward="tokens",
                            max_steps=260, seed=seed)
    obs = venv.reset()
    singles = [raw_env(num_players=n_players, reward="tokens", max_steps=260) for _ in range(n)]
    for i, e in enumerate(singles):
        e.reset(seed=seed + i)
    rng = np.random.default_rng(0)
    ends = 0
    for _ in range(700):
        for i, e in enumerate(singles):
            actor = e.agent_selection
            assert venv.seats[i] == e.possible_agents.index(actor)
            assert np.array_equal(obs[i], e.observe(actor)["observation"])
            assert np.array_equal(venv.action_masks()[i], e.action_mask(actor).astype(bool))
        actions = np.array([_pick(rng, venv.action_masks()[i]) for i in range(n)])
        actors = [e.agent_selection for e in singles]
        obs, rewards, dones, infos = venv.step(actions)
        for i, e in enumerate(singles):
            e.step(int(actions[i]))
            assert rewards[i] == e.rewards[actors[i]]
            if dones[i]:
                ends += 1
                assert e.terminations[actors[i]] or e.truncations[actors[i]]
                assert np.array_equal(infos[i]["terminal_observation"], e.observe(actors[i])["observation"])
                e.reset()  # the next game of its seeder, as the vector env's auto-reset
            else:
                assert not (e.terminations[actors[i]] or e.truncations[actors[i]])
    assert ends >= 3  # several games ended and were reset on the way


def test_learner_mode_matches_the_single_game_seen_by_the_learner() -> None:
    n, seed = 2, 5
    venv = VigtavlVectorEnv(num_envs=n, opponents=[FirstLegal()], reward="tokens", max_steps=300, seed=seed)
    obs = venv.reset()
    singles = [raw_env(num_players=2, reward="tokens", max_steps=300) for _ in range(n)]
    learner = [int(s) for s in venv.seats]

    def settle(i: int) -> None:  # the opponent plays until the learner must decide
        e = singles[i]
        while e.agents and e.agent_selection != e.possible_agents[learner[i]]:
            who = e.agent_selection
            e.step(None if (e.terminations[who] or e.truncations[who]) else
                   int(np.flatnonzero(e.action_mask(who))[0]))

    for i, e in enumerate(singles):
        e.reset(seed=seed + i)
        settle(i)
    rng = np.random.default_rng(1)
    ends = 0
    for _ in range(400):
        for i, e in enumerate(singles):
            me = e.possible_agents[learner[i]]
            assert np.array_equal(obs[i], e.observe(me)["observation"])
            assert np.array_equal(venv.action_masks()[i], e.action_mask(me).astype(bool))
        actions = np.array([_pick(rng, venv.action_masks()[i]) for i in range(n)])
        obs, rewards, dones, infos = venv.step(actions)
        for i, e in enumerate(singles):
            me = e.possible_agents[learner[i]]
            e.step(int(actions[i]))
            settle(i)  # to the learner's next decision, or to its turn to see the game's end
            assert rewards[i] == e._cumulative_rewards[me]  # its action's and the opponents'
            assert dones[i] == (e.terminations[me] or e.truncations[me])
            if dones[i]:
                ends += 1
                assert infos[i]["learner_seat"] == learner[i]
                e.reset()
                learner[i] = int(venv.seats[i])
                settle(i)
    assert ends >= 2


class FirstLegalPolicy:
    """A frozen 'network': the lowest legal action of each row, one call per batch."""

    def __init__(self) -> None:
        self.batches: list[int] = []

    def predict(self, obs: np.ndarray, action_masks: np.ndarray, deterministic: bool = True):
        assert obs.shape[0] == action_masks.shape[0] and obs.dtype == np.float32
        self.batches.append(obs.shape[0])
        return action_masks.argmax(axis=1), None


def test_a_frozen_policy_decides_for_every_waiting_game_in_one_call() -> None:
    policy = FirstLegalPolicy()
    batched = VigtavlVectorEnv(num_envs=6, opponents=[policy], seed=2)
    scripted = VigtavlVectorEnv(num_envs=6, opponents=[FirstLegal()], seed=2)
    a, b = batched.reset(), scripted.reset()
    rng = np.random.default_rng(3)
    for _ in range(60):
        assert np.array_equal(a, b) and np.array_equal(batched.action_masks(), scripted.action_masks())
        actions = np.array([_pick(rng, m) for m in batched.action_masks()])
        a, ra, da, _ = batched.step(actions)
        b, rb, db, _ = scripted.step(actions)
        assert np.array_equal(ra, rb) and np.array_equal(da, db)
    assert max(policy.batches) > 1  # several games' decisions in one call
    assert sum(policy.batches) > len(policy.batches)


def test_maskable_ppo_trains_on_it_with_no_glue() -> None:
    from sb3_contrib import MaskablePPO

    venv = VigtavlVectorEnv(num_envs=4, opponents=["random"], seed=3)
    model = MaskablePPO("MlpPolicy", venv, n_steps=32, batch_size=64, n_epochs=1, seed=0,
                        policy_kwargs={"net_arch": [16]}, device="cpu")
    model.learn(total_timesteps=256)
    assert model.num_timesteps >= 256
    masks = np.stack(venv.env_method("action_masks"))
    assert masks.shape == (4, venv.action_space.n) and masks.any(axis=1).all()


@pytest.mark.parametrize("kwargs, message", [
    ({"num_envs": 0}, "num_envs must be a positive int"),
    ({"opponents": ["nobody"]}, "nobody"),
    ({"opponents": [3.5]}, "an opponent is a bot name"),
    ({"reward": "gold"}, "reward must be one of"),
    ({"num_players": 5}, "num_players must be one of"),
    ({"opponents": ["random", "greedy"], "opponent_weights": [1.0]}, "opponent_weights must be 2 weights"),
    ({"opponents": ["random"], "opponent_weights": [-1.0]}, "opponent_weights must be 1 weights >= 0"),
])
def test_bad_arguments_fail_in_one_line(kwargs: dict, message: str) -> None:
    with pytest.raises(ValueError, match=message):
        VigtavlVectorEnv(**kwargs)


def test_bad_actions_fail_in_one_line_and_change_nothing() -> None:
    venv = VigtavlVectorEnv(num_envs=2, opponents=["random"], seed=0)
    obs = venv.reset().copy()
    decisions = [t.state.decisions for t in venv.tables]
    with pytest.raises(ValueError, match=r"actions must have shape \(2,\)"):
        venv.step(np.zeros(3, dtype=np.int64))
    legal = int(np.flatnonzero(venv.action_masks()[0])[0])
    codes = set(venv.tables[1].legal)
    illegal = venv.codec.to_env(next(c for c in range(venv.codec.n_engine) if c not in codes))
    with pytest.raises(ValueError, match="game 1: action .* is not legal now"):
        venv.step(np.array([legal, illegal]))  # game 0's legal action is not played either
    with pytest.raises(ValueError, match="game 0: action 0 .* off the hexagon"):
        venv.step(np.array([0, legal]))
    assert np.array_equal(venv.observations, obs)
    assert all(t.state.decisions == d for t, d in zip(venv.tables, decisions))


def test_opponents_are_drawn_by_weight_and_games_are_summed_up() -> None:
    """A weight of 0 is never drawn; a finished game's ``info["game"]`` names its opponent and
    agrees with the terminal information; ``set_opponents`` changes the pool of later games only."""
    venv = VigtavlVectorEnv(num_envs=3, opponents=["random", "greedy"], opponent_weights=[0.0, 1.0], seed=3)
    venv.reset()
    assert all(lineup == ["greedy"] for lineup in venv._lineups)
    venv.set_opponents(["random"])  # the games under way keep greedy
    rng = np.random.default_rng(1)
    by_row: dict[int, list[dict]] = {i: [] for i in range(3)}
    while min(len(games) for games in by_row.values()) < 2:
        actions = np.array([rng.choice(np.flatnonzero(m)) for m in venv.action_masks()])
        _, _, dones, infos = venv.step(actions)
        for i in np.flatnonzero(dones):
            by_row[int(i)].append(infos[i])
    for games in by_row.values():
        assert [info["game"]["opponent"] for info in games[:2]] == ["greedy", "random"]
        for info in games:
            seat, game = info["learner_seat"], info["game"]
            assert game["tokens"] == info["tokens"][seat]
            assert game["opp_tokens"] == max(t for j, t in enumerate(info["tokens"]) if j != seat)
            if info["final_rewards"][seat] == 1.0:  # won alone
                assert game["win"] == 1.0
            if info["final_rewards"][seat] < 0:  # lost
                assert game["win"] == 0.0
            assert game["truncated"] == info["TimeLimit.truncated"]


def test_returned_arrays_are_the_callers_own() -> None:
    """SB3 keeps the last observation and done flags while it steps (it stores them after the
    next step): what reset and step return must not change under a later step. copy=False
    hands out the live arrays instead."""
    venv = VigtavlVectorEnv(num_envs=3, opponents=["random"], seed=5)
    first = venv.reset()
    kept = first.copy()
    rng = np.random.default_rng(0)
    outs = []
    for _ in range(40):
        actions = np.array([rng.choice(np.flatnonzero(m)) for m in venv.action_masks()])
        obs, rewards, dones, _ = venv.step(actions)
        outs.append((obs, obs.copy(), rewards, rewards.copy(), dones, dones.copy()))
    assert np.array_equal(first, kept)
    for obs, obs_then, rewards, rewards_then, dones, dones_then in outs:
        assert np.array_equal(obs, obs_then) and np.array_equal(rewards, rewards_then)
        assert np.array_equal(dones, dones_then)
    live = VigtavlVectorEnv(num_envs=1, opponents=["random"], seed=5, copy=False)
    assert live.reset() is live.observations


def test_get_attr_and_set_attr_honour_indices() -> None:
    """One value per game asked for; the games share the env's attributes, so set_attr sets them
    for all games or refuses a subset in one line."""
    venv = VigtavlVectorEnv(num_envs=3, opponents=["random"], seed=0)
    assert venv.get_attr("reward_kind") == ["win_loss"] * 3
    assert venv.get_attr("reward_kind", indices=[0, 2]) == ["win_loss"] * 2
    assert venv.get_attr("reward_kind", indices=1) == ["win_loss"]
    venv.set_attr("deterministic_policies", False)
    venv.set_attr("deterministic_policies", True, indices=[2, 0, 1])
    assert venv.deterministic_policies is True
    with pytest.raises(ValueError, match="share their attributes"):
        venv.set_attr("deterministic_policies", False, indices=[0])
    assert venv.deterministic_policies is True
