"""One AlphaZero generation for pig through the game interface (training/az_game.py): the
search starts from the seat's view and rolls its own dice, chance edges branch on the outcomes
logged, self-play's targets are the visit counts and the returns seen from each position's
player, and training moves the network."""

from __future__ import annotations

import numpy as np
import pytest
import torch as th

from games.registry import load_game
from training.az_game import AZGameConfig, AZPlayer, PolicyValueNet, Search, generation, self_play

SMALL = AZGameConfig(games=2, simulations=8, epochs=2, batch_size=32)


pytestmark = pytest.mark.usefixtures("one_torch_thread")


def _net(seed: int = 0, players: int = 2) -> PolicyValueNet:
    th.manual_seed(seed)
    return PolicyValueNet.for_game("pig", players, channels=4, blocks=1, hidden=16)


def test_one_generation_learns_from_its_own_searched_games() -> None:
    net = _net()
    before = [p.detach().clone() for p in net.parameters()]
    stats = generation("pig", net, SMALL, seed=1)
    assert stats["games"] == 2 and stats["positions"] > 0 and stats["truncated"] == 0
    assert np.isfinite([stats["loss/policy"], stats["loss/value"]]).all()
    assert any(not th.equal(a, b) for a, b in zip(before, net.parameters()))


def test_targets_are_visits_over_the_legal_actions_and_results_from_the_player() -> None:
    data, _ = self_play("pig", _net(players=3), SMALL, seed=2, num_players=3)
    assert data.obs
    for mask, policy, value in zip(data.masks, data.policies, data.values):
        assert policy.sum() == pytest.approx(1.0) and not policy[~mask].any() and mask.sum() > 1
        assert value.max() > 0 and (np.abs(value) <= 1).all()  # a winner: no game was cut
    # every position holds its game's returns turned to its player: one ordering per game
    assert len({tuple(sorted(v)) for v in data.values}) <= SMALL.games
    assert {float(v[0]) for v in data.values} >= {-1.0, 1.0}  # winners' and losers' positions
    assert any(m[2] for m in data.masks)  # out-of-turn decisions (veto) are searched too


def test_a_network_for_another_player_count_is_refused_in_one_line() -> None:
    with pytest.raises(ValueError, match="2 players, not 3"):
        self_play("pig", _net(players=2), SMALL, seed=0, num_players=3)


def test_the_same_seed_gives_the_same_generation() -> None:
    a, b = _net(), _net()
    assert generation("pig", a, SMALL, seed=3) == generation("pig", b, SMALL, seed=3)
    assert all(th.equal(x, y) for x, y in zip(a.parameters(), b.parameters()))


def test_the_search_sees_neither_the_secrets_nor_the_dice_to_come() -> None:
    game = load_game("pig")
    s1 = game.new_state(2, seed=4)
    s1.apply_action(0)  # roll: the bank is now a choice
    while s1.current_player() != 0 or len(s1.legal_actions()) < 2:
        s1.apply_action(s1.legal_actions()[0])
    d = s1.to_dict()
    d["cards"][1], d["rng"] = (d["cards"][1] + 1) % 4, str(int(d["rng"]) ^ 0xABCDEF)
    s2 = game.load(d)  # the same position for seat 0: another secret card, other dice to come
    net, cfg = _net(), AZGameConfig(simulations=24)
    r1, r2 = Search(net, cfg, seed=5).run(s1), Search(net, cfg, seed=5).run(s2)
    assert r1[0] == r2[0] and np.array_equal(r1[1], r2[1])


def test_a_roll_is_a_chance_edge_with_several_outcomes() -> None:
    state = load_game("pig").new_state(2, seed=6)
    search = Search(_net(), AZGameConfig(simulations=32), seed=7)
    root = search._expand(state.view_for(0))[0]
    for _ in range(32):
        search._simulate(root, state.view_for(0))
    outcomes = {key for key in root.children if key[0] == root.legal.index(0)}
    assert len(outcomes) >= 3  # different faces in different simulations


def test_the_network_plays_in_the_arena_by_its_search() -> None:
    from agents.generic import make_generic
    from arena.play import play_game
    rec = play_game("pig", [AZPlayer(_net(), SMALL, 0), make_generic("random", 1)], seed=8)
    assert rec.returns and not rec.truncated
