"""Ratings: the Bradley-Terry Elo fit, the Weng-Lin Plackett-Luce update, head to head, tournaments."""

from __future__ import annotations

import random

import pytest

import arena.vigtavl_match as M
from agents.generic import RandomPlayer
from arena.records import GameRecord
from arena.vigtavl_tournament import run_tournament
from arena.ratings import (
    MU, SIGMA, PlackettLuce, elo_ratings, head_to_head, ranks_by, ratings,
    weng_lin_ratings,
)


def _game(i: int, seats: list[str], tokens: list[int]) -> GameRecord:
    best = max(tokens)
    return GameRecord(game=i, seed=i, game_seed=i, map="duel", map_text=None, num_players=len(seats),
                      rules={}, seats=seats, agent_seeds=[0] * len(seats), decisions=[], tokens=tokens,
                      winners=[p for p, t in enumerate(tokens) if t == best], n_decisions=1,
                      truncated=False, final_digest="")


def _duels(n: int, p_strong: float, seed: int = 0) -> list[GameRecord]:
    """``n`` synthetic games; "strong" wins each with probability ``p_strong``; seats alternate."""
    rng = random.Random(seed)
    out = []
    for i in range(n):
        strong_wins = rng.random() < p_strong
        seats = ["strong", "weak"] if i % 2 == 0 else ["weak", "strong"]
        tokens = [1 if (s == "strong") == strong_wins else 0 for s in seats]
        out.append(_game(i, seats, tokens))
    return out


def test_ranks_by_outcome_share_ties():
    assert ranks_by([3, 9, 3, 1]) == [2, 1, 2, 4]


def test_stronger_player_gets_the_higher_elo_near_the_true_gap():
    elo = elo_ratings(_duels(2000, 0.8), ["strong", "weak"])
    gap = elo["strong"][0] - elo["weak"][0]
    assert gap == pytest.approx(241, abs=40)  # 400 * log10(0.8 / 0.2)
    assert elo["strong"][0] + elo["weak"][0] == pytest.approx(3000)  # centred on 1500


def test_elo_uncertainty_shrinks_with_more_games():
    few = elo_ratings(_duels(50, 0.7), ["strong", "weak"])["strong"][1]
    many = elo_ratings(_duels(2000, 0.7), ["strong", "weak"])["strong"][1]
    assert many < few / 4


def test_unbeaten_player_keeps_a_finite_rating():
    elo = elo_ratings(_duels(100, 1.0), ["strong", "weak"])
    assert 1500 < elo["strong"][0] < 3500


# Reference: openskill 6.2.0, PlackettLuce(tau=0.0).rate(teams, ranks=ranks), one player per team.
PLAYERS = [(25.0, 25 / 3), (30.0, 6.0), (20.0, 7.0), (27.0, 5.0)]
OPENSKILL = {
    (1, 2, 3, 4): [(28.362804, 8.221848), (30.574419, 5.923047), (20.658941, 6.828248), (25.054294, 4.947036)],
    (2, 1, 1, 4): [(26.301204, 8.065377), (30.401455, 5.96374), (21.018961, 6.956335), (25.7329, 4.964445)],
    (4, 3, 2, 1): [(20.686559, 7.928882), (29.211968, 5.88173), (21.84246, 6.900826), (28.160052, 4.984364)],
    (1, 1, 1, 1): [(25.06142, 8.221848), (29.830976, 5.96374), (20.242476, 6.956335), (26.971554, 4.984364)],
}


@pytest.mark.parametrize("ranks", list(OPENSKILL))
def test_plackett_luce_matches_openskill(ranks):
    got = PlackettLuce().rate(PLAYERS, ranks)
    for (mu, sigma), (ref_mu, ref_sigma) in zip(got, OPENSKILL[ranks]):
        assert mu == pytest.approx(ref_mu, abs=1e-5) and sigma == pytest.approx(ref_sigma, abs=1e-5)


@pytest.mark.parametrize("n", [2, 3, 4])
def test_plackett_luce_update_is_sane(n):
    before = [(MU, SIGMA)] * n
    after = PlackettLuce().rate(before, list(range(1, n + 1)))
    mus = [m for m, _ in after]
    assert mus == sorted(mus, reverse=True) and mus[0] > MU > mus[-1]
    assert all(s < SIGMA for _, s in after)
    tie = PlackettLuce().rate(before, [1] * n)
    assert all(m == pytest.approx(MU) for m, _ in tie)


def test_multiplayer_ratings_order_the_players_by_their_finishes():
    rng = random.Random(1)
    names = ["a", "b", "c", "d"]
    games = []
    for i in range(200):
        seats = names[:]
        rng.shuffle(seats)
        tokens = [10 - names.index(s) * 3 + rng.randint(0, 4) for s in seats]  # a usually best
        games.append(_game(i, seats, tokens))
    elo = elo_ratings(games, names)
    wl = weng_lin_ratings(games)
    assert sorted(names, key=lambda n: -elo[n][0]) == names
    assert sorted(names, key=lambda n: -wl[n][0]) == names
    assert [r.name for r in ratings(games, names)] == names


def test_head_to_head_is_complementary():
    h2h = head_to_head(_duels(30, 0.7), ["strong", "weak"])
    assert h2h["strong"]["weak"] + h2h["weak"]["strong"] == pytest.approx(1)
    assert h2h["strong"]["strong"] is None


@pytest.fixture
def local_agents(monkeypatch):
    monkeypatch.setattr(M, "_registry", lambda: None)
    for name in ("alpha", "beta", "gamma"):
        monkeypatch.setitem(M.BUILTIN_AGENTS, name, RandomPlayer)


def test_two_player_tournament_plays_every_pairing(local_agents, tmp_path):
    result = run_tournament(["alpha", "beta", "gamma"], games_per_pairing=2, seed=0, progress=False)
    assert result.pairings == [["alpha", "beta"], ["alpha", "gamma"], ["beta", "gamma"]]
    assert len(result.records) == 6 and [r.game for r in result.records] == list(range(6))
    assert [r.seed for r in result.records] == [0, 1] * 3  # every pairing sees the same seeds
    table = result.table()
    assert "elo" in table and "head to head" in table
    result.save(tmp_path / "t.json")
    assert (tmp_path / "t.json").stat().st_size > 0


def test_three_player_tournament(local_agents):
    result = run_tournament(["alpha", "beta", "gamma"], games_per_pairing=3, seed=0, num_players=3,
                            progress=False)
    assert result.pairings == [["alpha", "beta", "gamma"]]
    assert all(len(r.seats) == 3 for r in result.records)
    assert {r.name for r in result.ratings()} == {"alpha", "beta", "gamma"}


def test_tournament_needs_enough_agents(local_agents):
    with pytest.raises(ValueError, match="at least 3 distinct"):
        run_tournament(["alpha", "beta"], games_per_pairing=1, seed=0, num_players=3, progress=False)
