"""Any game as RLlib's MultiAgentEnv through the game interface (training/rllib_game.py; issue 57
item 3, issue 56 item 2): RLlib's own environment check, whole games with self-play roles and
with agents inside, the seat to decide selected out of turn, the returns at the end, and bad
configs in one line. No Ray cluster is started."""

from __future__ import annotations

import numpy as np
import pytest

pytest.importorskip("ray.rllib")

from ray.rllib.utils.pre_checks.env import check_multiagent_environments  # noqa: E402

from training.rllib_game import LEARNER, GameMultiAgentEnv  # noqa: E402


def play_out(env: GameMultiAgentEnv, seed: int) -> tuple[dict, int]:
    rng = np.random.default_rng(seed)
    obs, _ = env.reset(seed=seed)
    total: dict[str, float] = {}
    for steps in range(1, 20_000):
        (role, o), = obs.items()  # one role decides at a time
        assert env.state.current_player() in env._role and env._role[env.state.current_player()] == role
        legal = np.flatnonzero(o["action_mask"])
        assert sorted(legal.tolist()) == env.state.legal_actions()
        obs, rewards, done, cut, _ = env.step({role: int(rng.choice(legal))})
        for r, v in rewards.items():
            total[r] = total.get(r, 0.0) + v
        if done["__all__"] or cut["__all__"]:
            return total, steps
    raise AssertionError("the game never ended")


@pytest.mark.parametrize("game", ["pig", "thrones"])
def test_rllibs_own_check_passes(game):
    check_multiagent_environments(GameMultiAgentEnv({"game": game, "seed": 1}))


def test_self_play_roles_get_the_games_returns_at_the_end():
    env = GameMultiAgentEnv({"game": "pig", "num_players": 3, "seed": 2})
    total, _ = play_out(env, 2)
    assert set(total) == {LEARNER, "opponent_1", "opponent_2"}
    returns = env.state.returns()
    assert all(total[role] == returns[seat] for seat, role in env._role.items())


def test_agents_inside_play_their_seats_on_their_views(monkeypatch):
    import training.rllib_game as R
    seen: list[bool] = []
    made = R.make_player

    def watched(game, spec, seed):
        player = made(game, spec, seed)
        return lambda view, legal: (seen.append(view is env.state), player(view, legal))[1]
    monkeypatch.setattr(R, "make_player", watched)
    env = GameMultiAgentEnv({"game": "thrones", "opponents": {"random": 1.0}, "seed": 3})
    play_out(env, 3)
    assert env.agents == [LEARNER] and seen and not any(seen)


def test_an_illegal_action_ends_the_game_with_a_penalty_or_raises():
    env = GameMultiAgentEnv({"game": "pig", "seed": 4})
    obs, _ = env.reset(seed=4)
    (role, o), = obs.items()
    illegal = int(np.flatnonzero(o["action_mask"] == 0)[0])
    _, rewards, done, _, info = env.step({role: illegal})
    assert done["__all__"] and rewards[role] == -1.0 and info[role]["illegal"]
    strict = GameMultiAgentEnv({"game": "pig", "seed": 4, "illegal_action": "raise"})
    strict.reset(seed=4)
    from games import IllegalAction
    with pytest.raises(IllegalAction):
        strict.step({role: illegal})


@pytest.mark.parametrize("config", [{"game": "chess"}, {"game": "pig", "num_players": 9},
                                    {"game": "pig", "opponents": {"nobody": 1}},
                                    {"game": "pig", "opponents": {"random": -1}}, {"game": "pig", "colour": 1},
                                    {"game": "pig", "illegal_action": "ignore"}])
def test_bad_configs_are_refused_in_one_line(config):
    with pytest.raises(ValueError) as e:
        GameMultiAgentEnv(config)
    assert "\n" not in str(e.value)
