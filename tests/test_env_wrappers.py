"""SingleSeatEnv: Gymnasium's checker, opponents played inside, the learner's rewards, its
out-of-turn decisions (retaliation, defend) and the opponents' own defences."""

from __future__ import annotations

from conftest import defend_scenario
import numpy as np
import pytest
from gymnasium.utils.env_checker import check_env

from vigtavl_env import SingleSeatEnv
from vigtavl_env.engine import returns
from vigtavl_env.engine.hexgrid import Board
from vigtavl_env.engine.maps import GameMap
from vigtavl_env.engine.scenario import Scenario


def ring_map() -> GameMap:
    board = Board(6)
    terrain = tuple(0 if max(abs(q), abs(r), abs(q + r)) == board.radius else 1 for q, r in board.coords)
    return GameMap("ring", 2, terrain)


def play_out(env: SingleSeatEnv, seed: int) -> tuple[float, list[float], dict]:
    """Random legal learner moves to the end; (summed reward, per-step rewards, last info)."""
    _, info = env.reset(seed=seed)
    rng = np.random.default_rng(seed)
    total, rewards, done = 0.0, [], False
    while not done:
        legal = np.flatnonzero(env.action_masks())
        _, r, term, trunc, info = env.step(int(legal[rng.integers(len(legal))]))
        total += r
        rewards.append(r)
        done = term or trunc
    return total, rewards, info


@pytest.mark.parametrize("kwargs", [dict(), dict(num_players=3, seat="random")])
def test_gymnasium_check_env(kwargs):
    check_env(SingleSeatEnv(**kwargs), skip_render_check=True)


def test_spaces_and_masks():
    env = SingleSeatEnv(num_players=2)
    obs, info = env.reset(seed=0)
    assert env.observation_space.contains(obs) and obs.dtype == np.float32
    mask = env.action_masks()
    assert mask.dtype == bool and mask.shape == (env.action_space.n,) and mask.any()
    assert np.array_equal(info["action_mask"], mask) and info["action_mask"] is not mask


@pytest.mark.parametrize("seat", [0, 1])
def test_learner_sees_the_final_result(seat):
    env = SingleSeatEnv(seat=seat, num_players=2)
    total, rewards, _ = play_out(env, seed=seat)
    assert env.aec.game_state.is_over
    assert total == returns(env.aec.game_state)[seat]
    assert all(r == 0 for r in rewards[:-1])


def test_tokens_reward_adds_up_to_the_learners_tokens():
    env = SingleSeatEnv(seat=1, num_players=3, reward="tokens")
    total, _, info = play_out(env, seed=5)
    assert total == env.aec.game_state.tokens[1] == info["tokens"][1]


def test_learner_acts_only_on_its_own_decisions():
    env = SingleSeatEnv(seat="random", num_players=4)
    env.reset(seed=3)
    rng = np.random.default_rng(3)
    for _ in range(60):
        assert env.aec.agent_selection == env.agent
        legal = np.flatnonzero(env.action_masks())
        _, _, term, trunc, _ = env.step(int(legal[rng.integers(len(legal))]))
        if term or trunc:
            break


class Scripted:
    """An opponent that plays a fixed list of actions (verb, hex), then ends its turns."""

    def __init__(self, env: SingleSeatEnv, moves: list[tuple[str, tuple[int, int] | None]]) -> None:
        self.env, self.moves = env, list(moves)

    def act(self, obs, mask, info):
        assert info["state"] is self.env.aec.game_state  # the engine state, as vigtavl_env.agent.agent_info gives
        verb, at = self.moves.pop(0) if self.moves else ("end turn", None)
        action = self.env.aec.encode_action(verb, at)
        assert mask[action], f"scripted {verb} {at} is not legal"
        return action


def test_learner_is_handed_its_retaliation():
    sc = Scenario(ring_map(), phase="battle")
    sc.unit(0, "cavalry", (0, 0))
    sc.development(0, "camp", (-1, 0))
    sc.unit(1, "soldier", (1, 0))
    sc.unit(1, "soldier", (3, 0))
    sc.state.forced_dice[:] = [6, 6, 6, 1]
    env = SingleSeatEnv(seat=1, map=ring_map())
    env.opponents = [Scripted(env, [("activate cavalry", (0, 0)), ("attack", (1, 0)), ("end activation", None)])]
    _, info = env.reset(seed=0, options={"state": sc.build()})
    assert info["interrupt"] == "retaliation" and env.aec.game_state.turn_player == 0
    legal = {env.aec.decode_action(i) for i in np.flatnonzero(env.action_masks())}
    assert legal == {"player_1: activate soldier at (3, 0)", "player_1: end turn"}
    _, _, term, _, info = env.step(env.aec.encode_action("end turn"))
    # The opponent ends its turn; the learner's own turn follows.
    assert not term and info["interrupt"] == "" and env.aec.game_state.turn_player == 1


def test_opponent_forms():
    calls = []

    def first_legal(obs, mask):
        calls.append(obs.shape)
        return int(np.flatnonzero(mask)[0])

    env = SingleSeatEnv(opponents=[first_legal, "random"], seat=0, num_players=3)
    play_out(env, seed=1)
    assert calls and calls[0] == env.observation_space.shape
    with pytest.raises(ValueError, match="expected 2 policies"):
        SingleSeatEnv(opponents=[first_legal], num_players=3)
    with pytest.raises(ValueError, match="a bot name .* a callable"):
        SingleSeatEnv(opponents=42)
    with pytest.raises(ValueError, match="seat must be"):
        SingleSeatEnv(seat=2)


def test_illegal_action_ends_the_episode_with_a_penalty():
    env = SingleSeatEnv()
    env.reset(seed=0)
    illegal = int(np.flatnonzero(~env.action_masks())[0])
    with pytest.warns(UserWarning, match="mask the policy's actions"):  # the evaluate_policy trap, said
        _, r, term, trunc, info = env.step(illegal)
    assert (r, term, trunc, info["illegal_action"]) == (-1.0, True, False, True)
    with pytest.raises(RuntimeError, match="reset"):
        env.step(0)
    raising = SingleSeatEnv(illegal_action="raise")
    raising.reset(seed=0)
    with pytest.raises(ValueError):
        raising.step(illegal)


def test_render_modes():
    env = SingleSeatEnv(render_mode="ansi")
    env.reset(seed=0)
    assert isinstance(env.render(), str)
    env = SingleSeatEnv(render_mode="rgb_array")
    env.reset(seed=0)
    frame = env.render()
    assert frame.dtype == np.uint8 and frame.ndim == 3


def test_max_steps_truncates_the_episode():
    env = SingleSeatEnv(seat=1, max_steps=25)
    total, rewards, _ = play_out(env, seed=0)
    assert env.aec.truncations[env.agent] and not env.aec.game_state.is_over
    assert total == 0 and len(rewards) < 25


def test_learner_is_asked_to_defend_out_of_turn():
    env = SingleSeatEnv(seat=1, map=ring_map())
    env.opponents = [Scripted(env, [("activate cavalry", (0, 0)), ("attack", (1, 0)), ("end turn", None)])]
    _, info = env.reset(seed=0, options={"state": defend_scenario().build()})
    assert info["interrupt"] == "defend" and env.aec.game_state.turn_player == 0
    legal = {env.aec.decode_action(i) for i in np.flatnonzero(env.action_masks())}
    assert legal == {"player_1: defend with soldier at (1, 0)", "player_1: defend with archer at (1, 0)",
                     "player_1: defend with soldier at (1, -1)"}
    _, _, term, _, info = env.step(env.aec.encode_action("choose soldier", (1, -1)))
    # The opponent goes on with its turn (retaliation, if the battle was lost, comes to the learner).
    assert not term and env.aec.agent_selection == env.agent
    assert info["interrupt"] in ("", "retaliation")
    assert any(e["event"] == "defend" and e["player"] == 1 for e in env.aec.game_state.events)


def test_opponents_answer_their_own_defence():
    env = SingleSeatEnv(seat=0, map=ring_map())  # a random opponent in seat 1
    env.reset(seed=0, options={"state": defend_scenario().build()})
    env.step(env.aec.encode_action("activate cavalry", (0, 0)))
    _, _, _, _, info = env.step(env.aec.encode_action("attack", (1, 0)))
    # Player 1's choice was made inside the wrapper; the learner acts again, in turn.
    assert env.aec.agent_selection == env.agent and info["interrupt"] == ""
    assert any(e["event"] == "defend" and e["player"] == 1 for e in env.aec.game_state.events)
    assert any(e["event"] == "battle" for e in env.aec.game_state.events)
