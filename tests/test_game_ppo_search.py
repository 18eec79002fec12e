"""``ppo-search:PATH[:N]`` (issue 58 item 2): a game's trained model inside the Gumbel search once
nothing is hidden, the model alone before. Tiny models of pig and Thrones are trained here."""

from __future__ import annotations

import numpy as np
import pytest

import agents.game_ppo_search as gps
from agents.kinds import AgentSpec, kinds_for, make_player
from arena.match import run_match
from games import load_game
from vigtavl.cli import main


def _tiny(tmp_path_factory, game: str):
    tmp = tmp_path_factory.mktemp(game)
    sets = ["total_timesteps=64", "eval_every=0", "n_envs=2", "n_steps=32", "batch_size=32", "n_epochs=1",
            "net.channels=4", "net.blocks=1", "net.hidden=[8]", f"run_dir={tmp}", "run_name=r", "checkpoint_minutes=0"]
    assert main(["train", "--game", game, "--no-progress", *[a for s in sets for a in ("--set", s)]]) == 0
    return tmp / "r" / "final_model.zip"


@pytest.fixture(scope="module")
def pig_model(tmp_path_factory):
    return _tiny(tmp_path_factory, "pig")


@pytest.fixture(scope="module")
def thrones_model(tmp_path_factory):
    return _tiny(tmp_path_factory, "thrones")


def test_the_argument_is_a_path_and_an_optional_budget() -> None:
    assert gps.parse_argument("runs/a/best_model.zip") == ("runs/a/best_model.zip", gps.DEFAULT_SIMULATIONS)
    assert gps.parse_argument("pretrained:32") == ("pretrained", 32)
    assert gps.parse_argument("C:/x.zip") == ("C:/x.zip", gps.DEFAULT_SIMULATIONS)  # a colon in the path
    for bad in ("", ":8", "pretrained:0", f"pretrained:{gps.MAX_SIMULATIONS + 1}"):
        with pytest.raises(ValueError) as e:
            gps.parse_argument(bad)
        assert "\n" not in str(e.value)


def test_every_game_lists_it_with_its_budget_and_vigtavl_keeps_its_own() -> None:
    row = kinds_for("thrones")["ppo-search"]
    assert row.model and row.argument == "PATH[:N]" and row.budget == "simulations"
    assert row.default_budget == gps.DEFAULT_SIMULATIONS
    assert kinds_for("vigtavl")["ppo-search"].game == "vigtavl"  # Vigtavl's search bot with a network
    with pytest.raises(ValueError, match="does not exist"):
        AgentSpec.parse("ppo-search:no/such/model.zip:8", "pig").make(0)


def test_the_evaluator_gives_legal_logits_and_a_zero_sum_value(pig_model) -> None:
    player = make_player("pig", f"ppo-search:{pig_model}:4", 0)
    state = load_game("pig").new_state(3, 1)
    logits, values = gps.PolicyEvaluator(player.model.policy, 3)([state], [state.legal_actions()])
    assert logits[0].shape == (len(state.legal_actions()),) and np.isfinite(logits[0]).all()
    assert values.shape == (1, 3) and abs(values[0].sum()) < 1e-9 and -1 <= values[0, 0] <= 1


def test_it_searches_a_game_of_full_information(pig_model, monkeypatch) -> None:
    runs = []
    real = gps.BatchedSearch.run
    monkeypatch.setattr(gps.BatchedSearch, "run", lambda self, states, **kw: runs.append(1) or real(self, states, **kw))
    records = run_match("pig", [f"ppo-search:{pig_model}:4", "random"], games=2)
    assert len(records) == 2 and all(r.returns for r in records)
    assert runs, "pig hides nothing: every decision with a choice is searched"


def test_thrones_plays_the_model_alone_until_the_reveal_then_searches(thrones_model, monkeypatch) -> None:
    searched: list[bool] = []
    real = gps.BatchedSearch.run

    def run(self, states, **kw):
        searched.append(states[0].hidden_information())
        return real(self, states, **kw)

    monkeypatch.setattr(gps.BatchedSearch, "run", run)
    player = make_player("thrones", f"ppo-search:{thrones_model}:2", 0)
    state, decisions = load_game("thrones").new_state(2, 3), 0
    while not state.is_over() and decisions < 400:
        seat, legal = state.current_player(), state.legal_actions()
        action = player(state.view_for(seat), legal)
        assert action in legal
        state.apply_action(action)
        decisions += 1
    assert searched and not any(searched), "searched only once both setups are known"
    assert decisions > len(searched)  # the setup's decisions were the model's alone
