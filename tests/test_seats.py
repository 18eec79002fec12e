"""vigtavl_env/seats.py: the seat loop stops at the seat the engine asks (out of turn too), on
both tables; rewards by kind agree with the AEC env's and with the rules; game summaries."""

from __future__ import annotations

import numpy as np
import pytest
from conftest import defend_scenario

from vigtavl_env import raw_env
from vigtavl_env.engine import new_game
from vigtavl_env.engine.scenario import code_for
from vigtavl_env.engine.state import OVER
from vigtavl_env.env import interrupt_kind
from vigtavl_env.seats import (
    REWARDS, AECTable, EngineTable, aec_player, game_summary, play_other_seats, seat_reward,
)

ATTACK = [("activate cavalry", (0, 0)), ("attack", (1, 0))]  # player 0's attack in defend_scenario


def scripted_engine(moves: list[tuple[str, tuple[int, int] | None]]):
    """An engine player: the moves in order, then the first legal code."""
    moves = list(moves)

    def play(state, legal):
        return code_for(state, *moves.pop(0)) if moves else legal[0]
    return play


def first_legal_engine(state, legal):
    return legal[0]


def fresh_state(num_players: int, seed: int):
    """A new game's engine state on the preset map."""
    env = raw_env(num_players=num_players)
    return new_game(env.gmap, env.config, seed=seed)


class FirstLegal:
    """An agent (act): the lowest legal action; it checks the info it is given."""

    def __init__(self, env: raw_env) -> None:
        self.env = env
        self.infos: list[dict] = []

    def act(self, observation, action_mask, info):
        assert info["state"] is self.env.game_state and "interrupt" in info  # agent.agent_info
        self.infos.append(info)
        return int(np.flatnonzero(action_mask)[0])


# ------------------------------------------------------------------ the seat loop
def test_engine_table_stops_at_the_defender_asked_out_of_turn():
    table = EngineTable(defend_scenario().build(), max_steps=100)
    assert play_other_seats(table, [scripted_engine(ATTACK), None]) == 1
    state = table.state
    assert state.turn_player == 0 and interrupt_kind(state) == "defend"
    assert table.legal and table.seat_to_decide() == 1


def test_engine_table_lets_a_seat_with_a_player_answer_its_own_defence():
    table = EngineTable(defend_scenario().build(), max_steps=100)
    assert play_other_seats(table, [None, first_legal_engine]) == 0  # seat 0's turn: nothing to play
    for verb, at in ATTACK:
        table.play_code(code_for(table.state, verb, at))
        seat = play_other_seats(table, [None, first_legal_engine])
    assert seat == 0 and interrupt_kind(table.state) == ""
    assert any(e["event"] == "defend" and e["player"] == 1 for e in table.state.events)


def test_aec_table_stops_at_the_defender_and_plays_on_through_the_env():
    env = raw_env.from_state(defend_scenario().build())
    moves = [env.encode_action(verb, at) for verb, at in ATTACK]
    attacker = FirstLegal(env)
    goes_on = aec_player(attacker)
    players = [lambda aec: moves.pop(0) if moves else goes_on(aec), None]
    assert play_other_seats(AECTable(env), players) == 1
    assert env.agent_selection == "player_1" and env.infos["player_1"]["interrupt"] == "defend"
    env.step(env.encode_action("choose soldier", (1, -1)))
    seat = play_other_seats(AECTable(env), players)  # seat 0 goes on, to the end of its turn
    assert seat == 1 and env.agent_selection == "player_1"
    assert attacker.infos  # the agent was asked through aec_player, with agent_info's info


def test_a_seat_without_a_player_stops_the_loop_and_a_full_table_plays_to_the_cut():
    state = fresh_state(2, seed=3)
    table = EngineTable(state, max_steps=40)
    first = state.current_player
    assert play_other_seats(table, [None, None]) == first and table.steps == 0  # nobody plays here
    assert play_other_seats(table, [first_legal_engine, first_legal_engine]) is None
    assert table.steps == 40 and table.cut and table.legal == [] and table.seat_to_decide() is None


def test_aec_table_plays_a_whole_game_with_every_seat_played():
    env = raw_env(num_players=3, max_steps=300)
    env.reset(seed=4)
    bots = [FirstLegal(env) for _ in range(3)]
    assert play_other_seats(AECTable(env), [aec_player(b) for b in bots]) is None
    assert env.game_state.is_over or all(env.truncations.values())
    assert all(b.infos for b in bots)


# ------------------------------------------------------------------ rewards
@pytest.mark.parametrize("kind", REWARDS)
def test_seat_reward_is_what_the_aec_env_pays_each_seat(kind: str):
    """Summed over a whole random game, every seat's AEC rewards equal its seat_reward since the
    start (the env pays through seat_reward; this checks the sums, the end and the tokens)."""
    env = raw_env(num_players=3, reward=kind, max_steps=400)
    env.reset(seed=9)
    start = list(env.game_state.tokens)
    paid = dict.fromkeys(env.possible_agents, 0.0)
    rng = np.random.default_rng(9)
    while not (env.game_state.is_over or any(env.truncations.values())):
        legal = env.legal_action_indices()
        env.step(int(legal[rng.integers(len(legal))]))
        for agent, r in env.rewards.items():
            paid[agent] += r
    for seat, agent in enumerate(env.possible_agents):
        assert paid[agent] == seat_reward(env.game_state, seat, kind, start[seat])


def test_seat_reward_by_kind_on_a_made_up_end():
    state = fresh_state(3, seed=0)
    state.tokens[:] = [5, 9, 9]
    assert [seat_reward(state, s, "win_loss", 0) for s in range(3)] == [0.0, 0.0, 0.0]  # not over
    assert seat_reward(state, 0, "margin", 0) == 0.0
    assert seat_reward(state, 0, "tokens", 2) == 3.0  # gained since it held 2, over or not
    state.phase = OVER
    assert [seat_reward(state, s, "win_loss", 0) for s in range(3)] == [-1.0, 1.0, 1.0]
    assert [seat_reward(state, s, "margin", 0) for s in range(3)] == [-0.4, 0.0, 0.0]
    state.tokens[:] = [4, 4, 4]  # a tie of everyone
    assert [seat_reward(state, s, "win_loss", 0) for s in range(3)] == [0.0, 0.0, 0.0]


# ------------------------------------------------------------------ summaries
def test_game_summary_win_shares_tokens_and_opponents():
    state = fresh_state(3, seed=0)
    state.tokens[:] = [5, 9, 9]
    cut = game_summary(state, 1, ["greedy", "greedy"])  # not over: cut at max_steps
    assert cut["truncated"] and cut["win"] == 0.0 and cut["opponent"] == "greedy"
    state.phase = OVER
    shared = game_summary(state, 1, ["greedy", "random"])
    assert shared == {"win": 0.5, "tokens": 9, "opp_tokens": 9, "length": state.decisions,
                      "truncated": False, "opponent": "mixed"}
    lost = game_summary(state, 0, ["random", "random"])
    assert (lost["win"], lost["tokens"], lost["opp_tokens"], lost["opponent"]) == (0.0, 5, 9, "random")
