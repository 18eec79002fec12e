"""Gold and silver (docs/rules.md rows G1-G4)."""

from __future__ import annotations

import pytest
from conftest import make_map

from vigtavl_env.engine import IllegalActionError, RulesConfig, new_game, to_json
from vigtavl_env.engine.scenario import Scenario, act, legal
from vigtavl_env.engine.state import BUILD, PLACEMENT

# A coastal position: sea at (2,0) and (2,-1) next to land (1,0), where player 0 has a camp.
SEA = [(2, 0), (2, -1), (3, -1), (3, 0)]


def _verbs(state):
    return {v for v, _ in legal(state)}


def test_gold_and_silver_each_turn():
    """G1/G4: at the beginning of each player's turn he receives 6 gold and 6 silver."""
    # None during placement; the first build turn brings seat 0 his 6 and 6.
    state = new_game(make_map(2), seed=2)
    while state.phase == PLACEMENT:
        assert state.gold == [0, 0] and state.silver == [0, 0]
        act(state, *legal(state)[0])
    assert state.phase == BUILD
    assert (state.gold, state.silver) == ([6, 0], [6, 0])
    act(state, "end turn")
    assert (state.gold, state.silver) == ([0, 6], [0, 6])
    act(state, "end turn")
    assert (state.gold, state.silver) == ([6, 0], [6, 0])

    # The amounts are the options gold_per_turn and silver_per_turn.
    cfg = RulesConfig(gold_per_turn=4, silver_per_turn=9)
    state = Scenario(make_map(2), phase="build", config=cfg).build()
    assert (state.gold, state.silver) == ([4, 0], [9, 0])
    act(state, "end turn")
    assert (state.gold, state.silver) == ([0, 4], [0, 9])


def _builder(gold=30):
    sc = Scenario(make_map(2, sea=SEA), phase="build", gold=gold, silver=6)
    sc.development(0, "camp", (1, 0))
    sc.unit(0, "soldier", (0, 0))
    return sc


def test_gold_pays_for_builds():
    """G2: "Gold is used to build developments, combat units, walls and artillery" (at cost)."""
    builds = [
        ("build camp", (0, 1), 1), ("build fort", (0, 1), 2), ("build castle", (0, 1), 3),
        ("build wall 3", (0, 0), 1), ("build artillery", (1, 1), 2),
        ("build soldier", (1, 1), 1), ("build archer", (1, 1), 2), ("build cavalry", (1, 1), 3),
        ("build caravel", (2, 0), 1), ("build freighter", (2, 0), 2), ("build galleon", (2, 0), 3),
    ]
    for verb, at, cost in builds:
        state = _builder().build()
        assert (verb, at) in legal(state), verb
        act(state, verb, at)
        assert state.gold == [30 - cost, 0], verb
        assert state.silver == [6, 0], verb  # silver is not spent on building

        # With one gold too few the build is not offered and is refused.
        state = _builder(gold=cost - 1).build()
        assert verb not in _verbs(state), verb
        before = to_json(state)
        with pytest.raises(IllegalActionError):
            act(state, verb, at)
        assert to_json(state) == before

    # Exactly enough gold is enough, and it is then spent.
    state = _builder(gold=3).build()
    act(state, "build castle", (0, 1))
    assert state.gold == [0, 0]
    assert not any(v.startswith("build") for v in _verbs(state))


def test_unspent_gold_and_silver_forfeited():
    """G3: "Players must spend all gold and silver on their turn or forfeit any unused."""
    state = _builder(gold=6).build()
    act(state, "build camp", (0, 1))
    act(state, "activate soldier", (0, 0))
    assert (state.gold, state.silver) == ([5, 0], [5, 0])
    act(state, "end turn")
    assert state.gold[0] == 0 and state.silver[0] == 0  # forfeited, not kept for later
    assert (state.gold[1], state.silver[1]) == (6, 6)
    act(state, "end turn")
    assert (state.gold, state.silver) == ([6, 0], [6, 0])  # 6 again, not 5 + 6
    turns = [e for e in state.events if e["event"] == "turn"]
    assert [e["player"] for e in turns] == [1, 0]


def test_activation_costs_silver():
    """G4/U11: activating a unit costs its build cost, paid in silver (gold is untouched)."""
    units = [("soldier", (0, 0), 1), ("archer", (0, 0), 2), ("cavalry", (0, 0), 3),
             ("caravel", (2, 0), 1), ("freighter", (2, 0), 2), ("galleon", (2, 0), 3)]
    for kind, at, cost in units:
        sc = Scenario(make_map(2, sea=SEA), phase="build", gold=6, silver=6)
        sc.unit(0, kind, at)
        state = sc.build()
        act(state, f"activate {kind}", at)
        assert state.silver == [6 - cost, 0], kind
        assert state.gold == [6, 0], kind

        # One silver short: the activation is not offered and is refused.
        sc = Scenario(make_map(2, sea=SEA), phase="build", gold=6, silver=cost - 1)
        sc.unit(0, kind, at)
        state = sc.build()
        assert f"activate {kind}" not in _verbs(state)
        before = to_json(state)
        with pytest.raises(IllegalActionError):
            act(state, f"activate {kind}", at)
        assert to_json(state) == before

    # Six silver pay for a cavalry (3), an archer (2) and a soldier (1), then nothing more.
    sc = Scenario(make_map(2), phase="build", gold=0, silver=6)
    sc.unit(0, "cavalry", (0, 0))
    sc.unit(0, "archer", (-2, 0))
    sc.unit(0, "soldier", (-2, 2))
    sc.unit(0, "soldier", (2, -2))
    state = sc.build()
    for kind, at, left in (("cavalry", (0, 0), 3), ("archer", (-2, 0), 1), ("soldier", (-2, 2), 0)):
        act(state, f"activate {kind}", at)
        act(state, "end activation")
        assert state.silver[0] == left
    assert not any(v.startswith("activate") for v in _verbs(state))
