"""The Gumbel search (agents/gumbel.py) on games other than Vigtavl, through the game interface
alone (agents/game_steps.py): pig (dice, a veto out of turn, a secret card) and Thrones (a
secret setup, then full information with coin flips). Legal choices, the same results for a
seed, chance edges with sampled outcomes, and nothing read that the player may not see: neither
the other seats' secrets nor the true state's future dice."""

from __future__ import annotations

import random

import numpy as np
import pytest
import torch as th

from agents.game_steps import INTERFACE_STEPS
from agents.gumbel import BatchedSearch, SearchConfig, SearchResult
from games.interface import GameState
from games.registry import load_game
from training.az_game import PolicyValueNet

PIG, THRONES = load_game("pig"), load_game("thrones")
ROLL, BANK, VETO = 0, 1, 2  # pig's action codes


pytestmark = pytest.mark.usefixtures("one_torch_thread")


class InterfaceEvaluator:
    """:class:`agents.gumbel.Evaluator` over interface states: a small untrained network of
    :mod:`training.az_game` on each position's observation for its player to move."""

    def __init__(self, game: str, players: int = 2, seed: int = 0) -> None:
        th.manual_seed(seed)
        self.net = PolicyValueNet.for_game(game, players, channels=4, blocks=1, hidden=16)

    def __call__(self, states, legal):
        obs = np.stack([s.observation(s.current_player()) for s in states])
        with th.no_grad():
            logits, values = self.net(th.as_tensor(obs))
        return [logits[k, codes].double().numpy() for k, codes in enumerate(legal)], values.double().numpy()


def search(game: str, cfg: SearchConfig, seed: int, players: int = 2) -> BatchedSearch:
    return BatchedSearch(InterfaceEvaluator(game, players), players, cfg, seed=seed, steps=INTERFACE_STEPS)


def same(a: SearchResult, b: SearchResult) -> bool:
    return (a.action, a.legal, a.simulations) == (b.action, b.legal, b.simulations) and \
        np.array_equal(a.policy, b.policy) and np.array_equal(a.visits, b.visits)


def pig_position(players: int, seed: int, until) -> GameState:
    """A pig game played by a seeded random player until ``until(state)`` holds."""
    rng, s = random.Random(seed), PIG.new_state(players, seed=seed)
    while not until(s):
        assert not s.is_over(), "no such position in this game"
        s.apply_action(rng.choice(s.legal_actions()))
    return s


@pytest.mark.parametrize("players", [2, 3])
def test_pig_a_veto_out_of_turn_is_searched_by_the_seat_asked(players):
    s = pig_position(players, 1, lambda s: s.interrupt() == "veto")
    before = s.to_dict()
    result = search("pig", SearchConfig(simulations=12), seed=2, players=players).run([s])[0]
    assert result.legal == s.legal_actions() == [VETO, 3] and result.action in result.legal
    assert result.simulations == 12 and result.policy.sum() == pytest.approx(1.0)
    again = search("pig", SearchConfig(simulations=12), seed=2, players=players).run([s])[0]
    assert same(result, again)  # the same seed, the same search
    assert s.to_dict() == before  # the true state is not touched


def test_pig_a_roll_is_a_chance_edge_with_sampled_outcomes():
    s = pig_position(2, 3, lambda s: len(s.legal_actions()) == 2 and s.interrupt() is None)
    gumbel = search("pig", SearchConfig(simulations=16, considered=2, gumbel_scale=0.0), seed=4)
    gumbel.run([s])
    root = gumbel.last_roots[0]
    a = root.legal.index(ROLL)
    assert root.player == s.current_player() and root.chance[a] is True and root.visits[a] > 0
    assert isinstance(root.children[a], dict) and len(root.children[a]) >= 2  # several faces drawn


def test_pig_the_search_sees_neither_the_secret_cards_nor_the_dice_to_come():
    """Seat 0 can end the game by banking, and the cards then decide: the other seat's card is
    0 in one true state (seat 0 would win) and 3 in the other (seat 0 would lose), whose dice to
    come differ too. The search handed either gives the same result, to the last bit of every
    value backed up: it copies only seat 0's view (that card a placeholder), dice reseeded."""
    d = PIG.new_state(2, seed=5).to_dict()
    d.update(scores=[27, 29], pot=3, cards=[1, 0], vetoes=[True, False])
    s1 = PIG.load(d)
    d.update(cards=[1, 3], rng=str(int(d["rng"]) ^ 0xABCDEF))
    s2 = PIG.load(d)
    cfg = SearchConfig(simulations=24, considered=2)
    trees = []
    for state, seed in ((s1, 6), (s2, 6), (s1, 7)):
        gumbel = search("pig", cfg, seed=seed)
        trees.append((gumbel.run([state])[0], gumbel.last_roots[0].totals))
    (r1, t1), (r2, t2), (_, t3) = trees
    assert r1.legal == [ROLL, BANK] and r1.visits[1] > 0  # the bank that ends the game is searched
    assert same(r1, r2) and np.array_equal(t1, t2)
    assert not np.array_equal(t1, t3)  # while another seed draws other dice


def thrones_revealed(seed: int, extra: int) -> GameState:
    """A Thrones game after the reveal: random setups, then ``extra`` random decisions."""
    rng, s = random.Random(seed), THRONES.new_state(seed=seed)
    while not s.seat_info(0)["revealed"] or extra > 0:
        extra -= s.seat_info(0)["revealed"]
        s.apply_action(rng.choice(s.legal_actions()))
        assert not s.is_over()
    return s


def chance_edges(root) -> int:
    """Chance edges anywhere in a searched tree."""
    count, stack = 0, [root]
    while stack:
        node = stack.pop()
        for child in node.children:
            if isinstance(child, dict):
                count += 1
                stack.extend(child.values())
            elif child is not None:
                stack.append(child)
    return count


def test_thrones_after_the_reveal_legal_repeatable_and_blind_to_the_coins_to_come():
    cfg = SearchConfig(simulations=16, considered=8, leaves_per_round=8)
    states = [thrones_revealed(seed, extra) for seed, extra in ((1, 3), (2, 10), (3, 25))]
    first = search("thrones", cfg, seed=8)
    results = first.run(states)
    for s, r in zip(states, results):
        assert r.action in s.legal_actions() and r.legal == s.legal_actions()
    assert all(same(a, b) for a, b in zip(results, search("thrones", cfg, seed=8).run(states)))
    for s in states:  # other coins to come in the true state: the same search
        twin = s.clone()
        twin.rng ^= 0x5DEECE66D
        assert same(search("thrones", cfg, seed=9).run([s])[0], search("thrones", cfg, seed=9).run([twin])[0])
    assert sum(chance_edges(root) for root in first.last_roots) > 0  # the coin flips are searched


def test_thrones_before_the_reveal_the_search_does_not_see_the_opponents_setup():
    """Two true states that differ only in seat 0's secret setup, seat 1 one decision from the
    reveal: seat 1's search, handed either, decides the same and backs up the same values (its
    root is seat 1's view: past the reveal its simulations lay a setup of their own for seat 0)."""
    states = [THRONES.new_state(seed=4), THRONES.new_state(seed=4)]
    for s, setup_seed in zip(states, (100, 200)):
        mine, theirs = random.Random(0), random.Random(setup_seed)
        while s.current_player() == 0:
            s.apply_action(theirs.choice(s.legal_actions()))
        for _ in range(s.steps - 1):
            s.apply_action(mine.choice(s.legal_actions()))
    assert states[0].to_dict() != states[1].to_dict() and states[0].current_player() == 1
    assert not states[0].seat_info(1)["revealed"]
    cfg = SearchConfig(simulations=8, considered=4)
    trees = []
    for s in states:
        gumbel = search("thrones", cfg, seed=10)
        trees.append((gumbel.run([s])[0], gumbel.last_roots[0].totals))
    (r0, t0), (r1, t1) = trees
    assert same(r0, r1) and np.array_equal(t0, t1) and r0.action in states[0].legal_actions()


def rolls(s: GameState, action: int) -> bool:
    """Whether ``action`` rolls dice in ``s`` (tried on a copy)."""
    copy, seen = s.clone(), len(s.chance_events())
    copy.apply_action(action)
    return len(copy.chance_events()) > seen


def test_vigtavl_through_the_interface_is_blind_to_the_dice_to_come():
    """Vigtavl's interface states too (its own engine steps are test_az's): two true states that
    differ only in the dice to come, at a choice of a few actions one of which rolls dice, give
    the same search and the same values backed up."""
    rng, s = random.Random(11), load_game("vigtavl").new_state(2, seed=11)
    while not 2 <= len(s.legal_actions()) <= 4 or not any(rolls(s, a) for a in s.legal_actions()):
        s.apply_action(rng.choice(s.legal_actions()))
    twin = s.clone()
    twin.engine.rng ^= 0xABCDEF
    cfg = SearchConfig(simulations=8, considered=4)
    trees = []
    for x in (s, twin):
        gumbel = search("vigtavl", cfg, seed=12)
        trees.append((gumbel.run([x])[0], gumbel.last_roots[0]))
    (r1, root1), (r2, root2) = trees
    assert same(r1, r2) and np.array_equal(root1.totals, root2.totals) and r1.action in s.legal_actions()
    a = root1.chance.index(True)  # the dice were searched: the same rolls drawn in both
    assert list(root1.children[a]) == list(root2.children[a])
