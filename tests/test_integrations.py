"""Vigtavl as other libraries find it: registered ids, PettingZoo's state(), infos of one type,
bots by name, PettingZoo's names for options (issue #16, "friendly to other libraries")."""

from __future__ import annotations

import gymnasium
import numpy as np
import pettingzoo
import pytest
from gymnasium.utils.env_checker import check_env
from pettingzoo.test import api_test

import vigtavl_env
from vigtavl_env import GYMNASIUM_ID, PETTINGZOO_ID, SingleSeatEnv, raw_env
from vigtavl_env.engine import GameState


def test_gymnasium_make_builds_the_single_seat_env():
    e = gymnasium.make(GYMNASIUM_ID, opponents="greedy", seat="random")
    assert isinstance(e.unwrapped, SingleSeatEnv)
    check_env(e.unwrapped, skip_render_check=True)
    obs, info = e.reset(seed=3)
    assert obs.shape == e.observation_space.shape and info["action_mask"].any()


def test_pettingzoo_make_builds_the_aec_env_and_takes_max_cycles():
    e = pettingzoo.make("aec", PETTINGZOO_ID, max_cycles=30, num_players=3)
    assert e.unwrapped.max_steps == 30 and len(e.possible_agents) == 3
    e.reset(seed=1)
    steps = 0
    for agent in e.agent_iter():
        obs, _, term, trunc, _ = e.last()
        action = None if term or trunc else int(np.flatnonzero(obs["action_mask"])[0])
        e.step(action)
        steps += action is not None
    assert steps == 30  # truncated by max_cycles, every agent stepped out


def test_max_steps_and_max_cycles_must_agree():
    assert raw_env(max_cycles=12).max_steps == 12
    assert raw_env(max_steps=12, max_cycles=12).max_steps == 12
    with pytest.raises(ValueError, match="not both"):
        raw_env(max_steps=10, max_cycles=12)


def test_state_is_pettingzoos_method_and_game_state_the_engine_state():
    e = vigtavl_env.env(seed=4)
    e.reset(seed=4)
    assert isinstance(e.unwrapped.game_state, GameState)
    s = e.state()
    assert s.shape == e.unwrapped.state_space.shape and e.unwrapped.state_space.contains(s)
    assert np.array_equal(s, e.observe("player_0")["observation"])  # the board as seat 0 sees it
    with pytest.raises(RuntimeError, match="reset"):
        raw_env().state()


def test_interrupt_is_always_a_string_and_the_mask_can_leave_the_infos():
    for mask_in_info in (True, False):
        e = raw_env(seed=9, mask_in_info=mask_in_info)
        e.reset(seed=9)
        rng = np.random.default_rng(0)
        kinds = set()
        for agent in e.agent_iter():
            obs, _, term, trunc, info = e.last()
            for i in e.infos.values():
                assert isinstance(i["interrupt"], str)
                assert ("action_mask" in i) == mask_in_info
            kinds.add(info["interrupt"])
            e.step(None if term or trunc else int(rng.choice(np.flatnonzero(obs["action_mask"]))))
        assert "" in kinds
    api_test(raw_env(seed=5, mask_in_info=False), num_cycles=100)


def test_interrupt_codes_are_ints_for_tensor_libraries():
    from vigtavl_env.env import INTERRUPT_CODES
    e = raw_env(seed=2, interrupt_codes=True, mask_in_info=False)
    e.reset(seed=2)
    rng = np.random.default_rng(2)
    seen = set()
    for agent in e.agent_iter():
        obs, _, term, trunc, info = e.last()
        assert type(info["interrupt"]) is int and info["interrupt"] in INTERRUPT_CODES.values()
        seen.add(info["interrupt"])
        e.step(None if term or trunc else int(rng.choice(np.flatnonzero(obs["action_mask"]))))
    assert 0 in seen


def test_bots_are_taken_by_name_as_opponents():
    e = SingleSeatEnv(opponents=["greedy"], seed=2)
    assert type(e.opponents[0]).__name__ == "HeuristicAgent"
    obs, info = e.reset(seed=2)
    done = False
    rng = np.random.default_rng(1)
    while not done:
        obs, _, term, trunc, info = e.step(int(rng.choice(np.flatnonzero(e.action_masks()))))
        done = term or trunc
    assert e.aec.game_state.is_over or trunc
    with pytest.raises(ValueError, match="unknown agent 'nosuch'"):
        SingleSeatEnv(opponents="nosuch")
