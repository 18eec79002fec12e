"""Thrones as a PettingZoo AEC environment through the game interface (games/aec.py, issue 57
item 3): PettingZoo's own tests, and that nothing of one seat's secret setup reaches the other
seat's observation, mask or info before the reveal (item 4)."""

from __future__ import annotations

import random

from pettingzoo.test import api_test, seed_test

from games.aec import game_env, raw_game_env


def test_thrones_passes_pettingzoo_api_and_seed_tests():
    api_test(game_env("thrones", seed=5), num_cycles=300)
    seed_test(lambda: game_env("thrones"), num_cycles=150)


def seen_by(env, agent):
    obs = env.observe(agent)
    return obs["observation"].tobytes(), obs["action_mask"].tobytes(), env.infos[agent]


def test_another_secret_setup_gives_the_other_seat_the_same_view():
    """player_0 lays out two different setups (the same first decisions, then others): at every
    step of it, player_1's observation, mask and info are the same, and say not revealed."""
    envs = [raw_game_env("thrones", seed=11) for _ in range(2)]
    for e in envs:
        e.reset()
    rngs = [random.Random(1), random.Random(2)]
    differed = False
    while envs[0].agent_selection == "player_0" and envs[1].agent_selection == "player_0":
        views = [seen_by(e, "player_1") for e in envs]
        assert views[0] == views[1] and views[0][2]["revealed"] is False
        acts = [r.choice(e.game_state.legal_actions()) for e, r in zip(envs, rngs)]
        differed |= acts[0] != acts[1]
        for e, a in zip(envs, acts):
            e.step(a)
    assert differed and seen_by(envs[0], "player_1") == seen_by(envs[1], "player_1")
    assert envs[0].game_state.to_dict() != envs[1].game_state.to_dict()


def test_revealed_turns_true_once_both_setups_are_done():
    env = raw_game_env("thrones", seed=3)
    env.reset()
    rng = random.Random(0)
    for _ in range(2000):
        if env.infos[env.agent_selection]["revealed"]:
            break
        env.step(rng.choice(env.game_state.legal_actions()))
    assert all(env.infos[a]["revealed"] is True for a in env.agents)


def test_no_agent_facing_view_differs_with_the_opponents_secret_setup():
    """Before the reveal, everything handed to seat 1 about the game (the state its agent plays on,
    view_for; the web app's public_view; the board drawn for it; its chance events and seat info)
    is the same whichever setup seat 0 laid out in secret."""
    from games import load_game
    states = [load_game("thrones").new_state(2, seed=11) for _ in range(2)]
    rngs = [random.Random(1), random.Random(2)]
    differed = False
    while all(s.current_player() == 0 for s in states):
        for s, r in zip(states, rngs):
            s.apply_action(r.choice(s.legal_actions()))
        differed |= states[0].to_dict() != states[1].to_dict()
        seen = [(s.view_for(1).to_dict(), s.public_view(1), str(s.render("ansi", seat=1)),
                 s.chance_events(), s.seat_info(1)) for s in states]
        assert seen[0] == seen[1]
    assert differed
