"""Any game as RLlib's MultiAgentEnv through the game interface (training/rllib_game.py; issue 57
item 3, issue 56 item 2): RLlib's own environment check, whole games with self-play roles and
with agents inside, the seat to decide selected out of turn, the returns at the end, and bad
configs in one line. Training on it (issue 58 item 2): the RLModule is the game trainer's SB3
policy, a tiny pig run on a private local Ray trains, evaluates, exports a ppo:PATH model and
resumes, SIGTERM saves a checkpoint; bad training configs are one line before any folder."""

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


# ------------------------------------------------------------------ training (vigtavl train, backend rllib)
TINY = ["backend=rllib", "env_runners=0", "n_envs=1", "n_steps=64", "batch_size=32", "n_epochs=1", "eval_games=4",
        "net.channels=4", "net.blocks=1", "net.hidden=[8]", "checkpoint_minutes=0", "policy=mlp"]


def _train(*sets: str, resume: str | None = None) -> int:
    from vigtavl.cli import main
    args = ["train", "--no-progress"] + (["--resume", resume] if resume else ["--game", "pig"])
    return main(args + [a for s in sets for a in ("--set", s)])


def test_the_game_module_is_the_game_trainers_sb3_policy():
    import torch as th

    from training.config import load_config
    from training.rllib_game import GameExporter, GameRLModule
    cfg = load_config("rllib_thrones", ["net.channels=8", "net.hidden=[16]"])
    env = GameMultiAgentEnv({"game": "thrones", "seed": 6})
    module = GameRLModule(observation_space=env.observation_spaces[LEARNER], action_space=env.action_spaces[LEARNER],
                          model_config={"channels": 8, "blocks": cfg.net.blocks, "hidden": [16]})
    exporter = GameExporter(cfg)
    exporter.model.policy.load_state_dict(exporter.state_dict(module.state_dict()))
    obs, _ = env.reset(seed=6)
    (_, o), = obs.items()
    batch = {"obs": {k: th.as_tensor(v)[None] for k, v in o.items()}}
    with th.no_grad():
        logits = module.forward_inference(batch)["action_dist_inputs"][0]
        value = module.compute_values(batch)[0]
        x = th.as_tensor(o["observations"])[None]
        dist = exporter.model.policy.get_distribution(x, action_masks=o["action_mask"][None] > 0)
        sb3_value = exporter.model.policy.predict_values(x)[0, 0]
    legal = o["action_mask"] > 0
    assert th.allclose(th.softmax(logits, -1)[legal], dist.distribution.probs[0][legal], atol=1e-5)
    assert th.softmax(logits, -1)[~legal].sum() < 1e-6 and float(value) == pytest.approx(float(sb3_value), abs=1e-5)


def test_a_pig_run_on_rllib_trains_exports_and_resumes(tmp_path, monkeypatch):
    from training.game_train import evaluate_game_model
    from training.rllib import RLLIB
    from training.runs import newest_checkpoint
    monkeypatch.chdir(tmp_path)
    assert _train(*TINY, "total_timesteps=64", "eval_every=64", "run_dir=runs", "run_name=r") == 0
    run = tmp_path / "runs" / "r"
    first = newest_checkpoint(run, RLLIB)
    log = (run / "progress.csv").read_text()
    assert first.name == "rllib_64" and "eval/win_rate_random" in log and (run / "best.json").is_file()
    result = evaluate_game_model("pig", run / "final_model.zip", "random", games=4, seed=0)
    assert result.games == 4  # the export plays as ppo:PATH of pig
    assert _train("total_timesteps=128", resume="runs/r") == 0
    assert newest_checkpoint(run, RLLIB).name == "rllib_128" and (run / "progress.csv").read_text() == log
    assert "game: pig" in (run / "config.yaml").read_text()


@pytest.mark.parametrize("sets, words", [
    (["opponents=[{name: nobody}]"], "unknown agent 'nobody' for pig"),
    (["eval_opponents=[nobody]"], "unknown agent 'nobody' for pig"),
    (["pretrain.teacher=random"], "pretrain.teacher"),
])
def test_bad_rllib_game_configs_are_one_line_before_any_folder(tmp_path, capsys, sets, words):
    assert _train(*TINY, f"run_dir={tmp_path}", *sets) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and words in err[0], err
    assert not list(tmp_path.iterdir())


def test_sigterm_saves_a_checkpoint_of_a_game_run(tmp_path):
    """The game's run stops as Vigtavl's (training/lifecycle.py): SIGTERM to the process group
    saves a checkpoint and exits 143 within 10 s."""
    from test_rllib import sigterm_after_the_first_checkpoint

    from training.rllib import RLLIB
    from training.runs import newest_checkpoint
    run = tmp_path / "r"
    sets = [*TINY, "total_timesteps=10000000", "eval_every=0", f"run_dir={tmp_path}", "run_name=r"]
    argv = ["train", "--game", "pig", "--no-progress", *[a for s in sets for a in ("--set", s)]]
    status, err, seconds, _ = sigterm_after_the_first_checkpoint(argv, run)
    assert seconds < 10 and status == 143, err[-3000:]
    assert "stopped by SIGTERM" in err.strip().splitlines()[-1]
    assert newest_checkpoint(run, RLLIB).name.startswith("rllib_")
