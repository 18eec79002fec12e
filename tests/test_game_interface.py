"""The game interface (issue 56): every registered game meets it, and the layers above read
only it. Proved with Vigtavl and with the small test game ``pig`` (games/pig.py: dice, 2-4
players, an out-of-turn veto, a secret card), through the registry's entry points."""

from __future__ import annotations

import ast
import json
import random
from importlib.metadata import entry_points
from pathlib import Path

import numpy as np
import pytest
from pettingzoo.test import api_test, seed_test

from arena.match import load_results, report, run_match, save_results, standings
from arena.play import replay_record
from games import IllegalAction, game_names, load_game
from games.aec import game_env

ROOT = Path(__file__).resolve().parent.parent


def test_games_are_found_through_the_entry_point_group():
    names = {ep.name for ep in entry_points(group="vigtavl.games")}
    assert {"vigtavl", "pig"} <= names and {"vigtavl", "pig"} <= set(game_names())
    with pytest.raises(ValueError, match="unknown game 'chess'; known: .*pig"):
        load_game("chess")


@pytest.mark.parametrize("name", ["vigtavl", "pig", "thrones"])
def test_a_random_game_through_the_interface_alone(name):
    game = load_game(name)
    state = game.new_state(2, seed=3)
    shape, n_actions = game.observation_shape(state), game.num_actions(state)
    rng = random.Random(0)
    copy = None
    for step in range(400):
        if state.is_over():
            break
        legal = state.legal_actions()
        assert legal and all(0 <= a < n_actions for a in legal)
        assert state.observation(state.current_player()).shape == shape
        if step == 20:
            copy = state.clone()
        state.apply_action(rng.choice(legal))
    # chance_events(k) counts chance outcomes, as every caller reads it
    chance = state.chance_events()
    assert chance and all(state.chance_events(k) == chance[k:] for k in range(len(chance) + 1))
    # clone is independent, and save/load round-trips
    assert copy is not None and copy.to_dict() != state.to_dict()
    again = game.load(json.loads(json.dumps(state.to_dict())))
    assert again.to_dict() == state.to_dict()
    with pytest.raises(ValueError, match="not"):
        game.load(dict(state.to_dict(), game="other"))
    with pytest.raises(ValueError, match="version"):
        game.load(dict(state.to_dict(), version="x_v0"))


def test_an_illegal_action_changes_nothing():
    state = load_game("pig").new_state(2, seed=1)
    before = state.to_dict()
    with pytest.raises(IllegalAction):
        state.apply_action(1)  # bank with an empty pot
    assert state.to_dict() == before


def play_pig_to_a_bank(state) -> int:
    """Roll until the pot holds something (a 1 passes the turn), then bank: the seat that
    banked; the player before him is asked to veto."""
    while True:
        state.apply_action(0)
        if state.pot > 0:
            banker = state.turn
            state.apply_action(1)
            return banker


def test_pig_asks_the_veto_out_of_turn_and_logs_its_dice():
    state = load_game("pig").new_state(3, seed=2)
    banker = play_pig_to_a_bank(state)
    before = (banker - 1) % 3
    assert state.turn == banker and state.current_player() == before and state.interrupt() == "veto"
    assert state.legal_actions() == [2, 3]
    state.apply_action(2)  # veto: the pot is lost, the turn passes
    assert state.scores_ == [0, 0, 0] and state.turn == (banker + 1) % 3 and not state.vetoes[before]
    rolls = [e for e in state.chance_events() if e["kind"] == "roll"]
    assert rolls and all(1 <= e["value"] <= 6 for e in rolls) and rolls[-1]["value"] > 1


@pytest.mark.parametrize("num_players", [2, 3, 4])
def test_pig_passes_pettingzoo_api_test(num_players):
    api_test(game_env("pig", num_players=num_players, seed=5), num_cycles=300)


def test_pig_and_vigtavl_pass_pettingzoo_seed_test_through_the_generic_env():
    seed_test(lambda: game_env("pig", num_players=3), num_cycles=100)
    api_test(game_env("vigtavl", seed=5), num_cycles=60)


def test_the_veto_selects_that_seats_agent_out_of_turn():
    env = game_env("pig", num_players=2, seed=2)
    env.reset()
    while True:
        env.step(0)
        if env.unwrapped.game_state.pot > 0:
            break
        assert env.agent_selection in env.agents
    turn = env.agent_selection
    env.step(1)
    assert env.agent_selection != turn and env.infos[env.agent_selection]["interrupt"] == "veto"
    assert env.observe(env.agent_selection)["action_mask"].tolist() == [0, 0, 1, 1]


@pytest.mark.parametrize("secret", [0, 3])
def test_a_secret_card_never_reaches_the_other_seat(secret):
    """Two different secret cards of seat 1: seat 0's observation, mask, info, public view and
    agent view are the same, before the game ends."""
    def seen(card):
        state = load_game("pig").new_state(2, seed=4)
        state.cards[1] = card
        state.apply_action(0)
        view = state.view_for(0).to_dict()
        return (state.observation(0).tobytes(), state.legal_actions(), state.seat_info(0),
                state.public_view(0), {k: v for k, v in view.items()})
    assert seen(secret) == seen(1)
    assert load_game("pig").new_state(2, seed=4).public_view(0)["cards"][1] is None


def test_a_match_with_ratings_and_a_results_file_that_replays(tmp_path):
    records = run_match("pig", ["rollout:4", "random"], games=12, seed=100)
    table = standings(records)
    assert table["rollout:4"].games == table["random"].games == 12
    assert table["rollout:4"].wins + table["random"].wins <= 12
    text = report(records)
    assert "elo" in text and "rollout:4" in text
    path = tmp_path / "pig.json"
    save_results(records, path)
    loaded = load_results(path)
    assert [r.final_digest for r in loaded] == [r.final_digest for r in records]
    for r in loaded:
        replay_record(r)
    loaded[0].actions[-1] = 0 if loaded[0].actions[-1] else 1
    with pytest.raises(ValueError):
        replay_record(loaded[0])


@pytest.mark.parametrize("bad", [["nobody", "random"], ["rollout:x", "random"], ["random"] * 5])
def test_bad_specs_and_player_counts_are_refused_in_one_line(bad):
    with pytest.raises(ValueError) as e:
        run_match("pig", bad, games=1)
    assert "\n" not in str(e.value)


def test_a_results_file_that_is_not_one_is_refused(tmp_path):
    (tmp_path / "x.json").write_text("[1, 2]")
    for p in (tmp_path / "x.json", tmp_path, tmp_path / "missing.json"):
        with pytest.raises(ValueError):
            load_results(p)


GENERIC = ("arena", "games/aec.py", "games/interface.py", "games/registry.py", "agents/generic.py")
ENGINES = ("vigtavl_env", "games.thrones", "games.pig")


def test_the_generic_layers_import_no_games_engine():
    """No module of the arena, the generic env or the generic agents imports a game's module;
    games are reached through the registry only."""
    paths = []
    for g in GENERIC:
        p = ROOT / g
        paths += sorted(p.rglob("*.py")) if p.is_dir() else [p]
    assert len(paths) >= 6
    for path in paths:
        for node in ast.walk(ast.parse(path.read_text())):
            names = [a.name for a in node.names] if isinstance(node, ast.Import) else \
                [node.module or ""] if isinstance(node, ast.ImportFrom) else []
            for n in names:
                assert not n.startswith(ENGINES), f"{path.relative_to(ROOT)} imports {n}"


def test_pig_observation_is_from_the_seats_own_side():
    state = load_game("pig").new_state(3, seed=9)
    play_pig_to_a_bank(state)
    state.apply_action(3)  # allow: the bank stands
    for seat in range(3):
        obs = state.observation(seat)
        assert obs[0, 0, 0] == state.scores_[seat] / state.target
        assert obs[4, 0, 0] == state.cards[seat] / 3 and not np.any(obs[4, 0, 1:])


def test_vigtavl_match_takes_another_game_by_name(capsys, tmp_path):
    from vigtavl.cli import main
    out = tmp_path / "pig.json"
    assert main(["match", "--game", "pig", "--agents", "rollout:2,random", "--games", "4", "--no-progress",
                 "--out", str(out)]) == 0
    assert "rollout:2" in capsys.readouterr().out and len(load_results(out)) == 4
    for bad in (["--game", "chess", "--agents", "random,random"], ["--game", "pig", "--agents", "rollout:0,random"]):
        assert main(["match", *bad, "--games", "1", "--no-progress"]) == 2
        err = capsys.readouterr().err.strip()
        assert err.count("\n") == 0 and "error" in err


@pytest.mark.parametrize("name", ["vigtavl", "pig", "thrones"])
def test_the_record_and_replay_hooks_agree_with_the_game(name):
    """What results files and replays read of any game (arena.replay): the narration counts
    like chance_events, a copy has the same digest, a recorded action reads back, and a file of
    another version is refused in one line; the prompt is words (or none)."""
    game = load_game(name)
    state, rng = game.new_state(seed=5), random.Random(5)
    for _ in range(40):
        if state.is_over():
            break
        legal = state.legal_actions()
        assert [state.recorded_action(state.action_for_record(a)) for a in legal] == legal
        assert isinstance(state.prompt(), str)
        state.apply_action(rng.choice(legal))
    told = state.narrate()
    assert all(isinstance(t, str) and t for _, t in told) and state.narrate(len(told) // 2) == told[len(told) // 2:]
    assert state.clone().digest() == state.digest()
    assert game.file_version(game.version) == game.version
    game.check_file_version(game.version, "x")
    other = game.version + "9"
    with pytest.raises(ValueError, match=f"^x is of version {other}; this engine reads version {game.version} only"):
        game.check_file_version(other, "x")


def test_vigtavl_reads_the_integer_versions_of_its_older_files_and_takes_a_recorded_engine_seed():
    from vigtavl_env.env import SEED_BITS
    game = load_game("vigtavl")
    assert game.file_version(1) == "vigtavl_v0" and game.file_version(2) == "vigtavl_v1"
    engine_seed = random.Random(9).getrandbits(SEED_BITS)  # what a results file records as game_seed
    assert game.new_state(2, seed=0, engine_seed=engine_seed).digest() == game.new_state(2, seed=9).digest()
    assert game.new_state(2, seed=0).digest() != game.new_state(2, seed=9).digest()


@pytest.mark.parametrize("name", ["vigtavl", "pig", "thrones"])
def test_the_channel_names_count_the_observations_channels(name):
    game = load_game(name)
    for players in range(game.min_players, game.max_players + 1):
        names = game.channel_names(players)
        assert len(names) == game.observation_shape(game.new_state(players))[0] == len(set(names))
    assert load_game("vigtavl").channel_names(2)[0] == "board"  # Vigtavl names its own
