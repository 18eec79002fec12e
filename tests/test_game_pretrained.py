"""``ppo:pretrained`` per game (issue 58 item 3): the spec names each game's shipped model,
``agents/pretrained/<game>/<game>_ppo.zip`` (Thrones': ``thrones/thrones_ppo.zip``), as it names
Vigtavl's without ``--game``; a game that ships none is refused in one line. The shipped folder is
pointed at a temporary one holding a tiny pig model trained here."""

from __future__ import annotations

import shutil

import pytest

import agents.game_ppo as game_ppo
import agents.shipped as shipped_files
from agents.kinds import kinds_for, make_player
from arena.match import run_match
from games import load_game
from vigtavl.cli import main


@pytest.fixture(scope="module")
def tiny_pig_model(tmp_path_factory):
    tmp = tmp_path_factory.mktemp("pig")
    sets = ["total_timesteps=64", "eval_every=0", "n_envs=2", "n_steps=32", "batch_size=32", "n_epochs=1",
            "net.channels=4", "net.blocks=1", "net.hidden=[8]", f"run_dir={tmp}", "run_name=r", "checkpoint_minutes=0"]
    assert main(["train", "--game", "pig", "--no-progress", *[a for s in sets for a in ("--set", s)]]) == 0
    return tmp / "r" / "final_model.zip"


@pytest.fixture
def shipped(tmp_path, monkeypatch, tiny_pig_model):
    """A shipped folder with pig's model only."""
    monkeypatch.setattr(shipped_files, "PRETRAINED_DIR", tmp_path)
    (tmp_path / "pig").mkdir()
    shutil.copy(tiny_pig_model, tmp_path / "pig" / "pig_ppo.zip")
    return tmp_path


def test_ppo_pretrained_plays_the_games_own_shipped_model(shipped) -> None:
    player = make_player("pig", "ppo:pretrained", 0)
    assert player.model is game_ppo.load_game_model(str(shipped / "pig" / "pig_ppo.zip"))
    state = load_game("pig").new_state(2, 5)
    assert player(state.view_for(state.current_player()), state.legal_actions()) in state.legal_actions()
    records = run_match("pig", ["ppo:pretrained", "random"], games=2)
    assert len(records) == 2 and all(r.returns for r in records)


def test_a_game_that_ships_no_model_is_refused_in_one_line(shipped, capsys) -> None:
    with pytest.raises(ValueError, match=r"no pretrained model of thrones .*thrones/thrones_ppo\.zip") as e:
        make_player("thrones", "ppo:pretrained", 0)  # pig's model is not taken for thrones
    assert "\n" not in str(e.value)
    assert main(["match", "--game", "thrones", "--agents", "ppo:pretrained,greedy", "--games", "2",
                 "--no-progress"]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and "no pretrained model of thrones" in err[0] and "Traceback" not in err[0]
    assert main(["match", "--game", "pig", "--agents", "ppo:pretrained,random", "--games", "2", "--no-progress"]) == 0


def test_vigtavls_pretrained_stays_its_own_and_a_path_stays_a_path(shipped, tiny_pig_model) -> None:
    from agents.registry import KINDS
    assert kinds_for("vigtavl")["ppo"] is KINDS["ppo"]  # Vigtavl's table: agents.ppo's shipped networks
    assert make_player("pig", f"ppo:{tiny_pig_model}", 0).model is game_ppo.load_game_model(str(tiny_pig_model))
    with pytest.raises(ValueError, match="does not exist"):
        game_ppo.PPOPlayer("pretrained")  # no game: a file named 'pretrained', which there is not


def test_evaluate_takes_another_games_model_and_its_search(shipped, capsys, tmp_path) -> None:
    out = tmp_path / "eval.json"
    assert main(["evaluate", "--game", "pig", "--model", "pretrained", "--opponents", "random,rollout:2",
                 "--games", "4", "--search", "4", "--no-progress", "--out", str(out)]) == 0
    text = capsys.readouterr().out
    assert "ppo-search:pretrained:4 (pig)" in text and "rollout:2" in text
    import json
    data = json.loads(out.read_text())
    assert [o["opponent"] for o in data["opponents"]] == ["random", "rollout:2"]
    assert all(o["games"] == 4 and 0 <= o["win_rate"] <= 1 for o in data["opponents"])


@pytest.mark.parametrize("argv", [
    ["--opponents", "greedy"],            # not an agent of pig: refused before any game
    ["--search", "0"], ["--search", "100000"],
    ["--model", "no/such.zip"],
    ["--max-steps", "50"],                # Vigtavl's cut: another game keeps its own move limit
])
def test_evaluate_of_another_game_refuses_bad_input_in_one_line(shipped, capsys, argv) -> None:
    args = ["evaluate", "--game", "pig", "--model", "pretrained", "--games", "2", "--no-progress"]
    if "--model" in argv:
        args = args[:3] + args[5:]  # no --model pretrained
    assert main(args + argv) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and "Traceback" not in err[0]


def test_a_shipped_or_exploiter_model_is_a_training_opponent(shipped, tmp_path, tiny_pig_model) -> None:
    """The league takes any spec of the game: the shipped network, or an exploiter's model."""
    sets = ["total_timesteps=64", "eval_every=0", "n_envs=2", "n_steps=32", "batch_size=32", "n_epochs=1",
            "net.channels=4", "net.blocks=1", "net.hidden=[8]", f"run_dir={tmp_path}", "run_name=league",
            "checkpoint_minutes=0",
            f"opponents=[{{name: 'ppo:pretrained', weight: 1}}, {{name: 'ppo:{tiny_pig_model}', weight: 1}}]"]
    assert main(["train", "--game", "pig", "--no-progress", *[a for s in sets for a in ("--set", s)]]) == 0
    assert (tmp_path / "league" / "final_model.zip").is_file()
    sets[-1] = "opponents=[{name: 'ppo:no/such/model.zip', weight: 1}]"
    sets[sets.index("run_name=league")] = "run_name=bad"
    assert main(["train", "--game", "pig", "--no-progress", *[a for s in sets for a in ("--set", s)]]) == 2
    assert not (tmp_path / "bad" / "final_model.zip").exists()
