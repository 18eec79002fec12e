"""The match runner: seat rotation, statistics, records, determinism, parallel workers, CLI."""

from __future__ import annotations

import json
from collections import Counter
from itertools import permutations

import pytest

import arena.vigtavl_match as M
from agents.generic import RandomPlayer
from arena.vigtavl_match import (
    MatchResult, agent_stats, lineup, run_match, seat_orders, stats_table, wilson_interval,
)
from arena.records import GameRecord
from vigtavl.cli import build_parser, main


@pytest.fixture
def local_agents(monkeypatch):
    """Two distinct random agents, built without agents.registry (in-process runs only)."""
    monkeypatch.setattr(M, "_registry", lambda: None)
    monkeypatch.setitem(M.BUILTIN_AGENTS, "alpha", RandomPlayer)
    monkeypatch.setitem(M.BUILTIN_AGENTS, "beta", RandomPlayer)
    monkeypatch.setitem(M.BUILTIN_AGENTS, "gamma", RandomPlayer)
    return ["alpha", "beta"]


@pytest.fixture(scope="module")
def ten_games():
    return run_match(["random", "random"], games=10, seed=3, progress=False)


# ------------------------------------------------------------------ seats
@pytest.mark.parametrize("k", [1, 2, 3, 4])
def test_seat_orders_cover_every_permutation_once(k):
    orders = seat_orders(k)
    assert sorted(orders) == sorted(permutations(range(k)))


@pytest.mark.parametrize("k", [2, 3, 4])
def test_every_block_of_k_games_puts_each_agent_in_each_seat_once(k):
    orders = seat_orders(k)
    for start in range(0, len(orders), k):
        block = orders[start:start + k]
        for seat in range(k):
            assert sorted(o[seat] for o in block) == list(range(k))


def test_two_agents_alternate_first_player():
    assert [lineup(["a", "b"], g) for g in range(4)] == [("a", "b"), ("b", "a")] * 2


def test_match_rotates_seats_fairly(local_agents):
    result = run_match(["alpha", "beta", "gamma"], games=6, seed=0, num_players=3, progress=False)
    seats = Counter((name, seat) for r in result.records for seat, name in enumerate(r.seats))
    assert set(seats.values()) == {2}  # 3 agents x 3 seats, twice each in 6 games
    assert len({tuple(r.seats) for r in result.records}) == 6


# ------------------------------------------------------------------ statistics
@pytest.mark.parametrize("k, n, lo, hi", [  # Newcombe (1998), Table I, method 3 (Wilson score)
    (81, 263, 0.2553, 0.3662), (15, 148, 0.0624, 0.1605), (0, 20, 0.0, 0.1611), (1, 29, 0.0061, 0.1718),
])
def test_wilson_interval_matches_published_values(k, n, lo, hi):
    got = wilson_interval(k, n)
    assert got == pytest.approx((lo, hi), abs=5e-5)


def test_wilson_interval_without_games_is_everything():
    assert wilson_interval(0, 0) == (0.0, 1.0)


def _record(game, seats, tokens, winners, n=10, truncated=False):
    return GameRecord(game=game, seed=game, game_seed=game, map="duel", map_text=None,
                      num_players=len(seats), rules={}, seats=list(seats), agent_seeds=[0] * len(seats),
                      decisions=[], tokens=list(tokens), winners=list(winners), n_decisions=n,
                      truncated=truncated, final_digest="")


def test_shared_wins_count_one_over_the_number_of_winners():
    records = [_record(0, ["a", "b"], [5, 5], [0, 1]), _record(1, ["b", "a"], [3, 7], [1]),
               _record(2, ["a", "b", "c"], [4, 4, 4], [0, 1, 2])]
    stats = {s.name: s for s in agent_stats(records)}
    assert stats["a"].wins == pytest.approx(0.5 + 1 + 1 / 3)
    assert stats["b"].wins == pytest.approx(0.5 + 0 + 1 / 3)
    assert stats["a"].shared == 2 and stats["b"].games == 3 and stats["c"].games == 1
    assert stats["a"].mean_tokens == pytest.approx(16 / 3)


def test_table_lines_begin_with_the_agent_names(local_agents):
    result = run_match(["alpha", "beta"], games=4, seed=0, progress=False)
    lines = result.table().splitlines()
    assert lines[0].startswith("agent")
    assert lines[1].startswith("alpha ") and lines[2].startswith("beta ")
    stats = result.stats()
    assert sum(s.wins for s in stats) == pytest.approx(4)
    assert all(s.games == 4 for s in stats)


def test_stats_table_columns_are_the_numbers():
    st = agent_stats([_record(0, ["x", "y"], [6, 2], [0], n=40)])
    line = stats_table(st).splitlines()[1].split()
    assert line[:5] == ["x", "1", "1.0", "0", "100.0"]
    assert line[-3:] == ["6.00", "40.0", "-"]  # a record without timings shows no ms/dec


def test_each_agent_is_timed_per_decision(ten_games):
    for r in ten_games.records:
        assert len(r.seat_decisions) == len(r.seat_cpu) == len(r.seats)
        assert sum(r.seat_decisions) == r.n_decisions
        assert all(c >= 0 for c in r.seat_cpu)
    stats = ten_games.stats()
    assert sum(s.decisions for s in stats) == sum(r.n_decisions for r in ten_games.records)
    assert all(s.ms_per_decision is not None and s.ms_per_decision >= 0 for s in stats)
    assert "ms/dec" in ten_games.table().splitlines()[0]


# ------------------------------------------------------------------ records
def test_records_hold_what_a_replay_needs(ten_games):
    r = ten_games.records[0]
    assert [g.seed for g in ten_games.records] == list(range(3, 13))
    assert r.n_decisions == len(r.decisions) > 0
    assert r.winners and not r.truncated
    assert r.map == "duel" and r.map_text is None and r.num_players == 2
    assert r.agent_seeds == [M.agent_seed(3, 0), M.agent_seed(3, 1)]


def test_results_json_round_trip(ten_games, tmp_path):
    path = tmp_path / "results.json"
    ten_games.save(path)
    d = json.loads(path.read_text())
    assert d["schema"] == "vigtavl-results" and len(d["games"]) == 10
    assert d["table"][0]["games"] == 20
    back = MatchResult.load(path)
    assert back.records == ten_games.records
    assert back.table() == ten_games.table()


def test_same_seed_same_results_and_another_seed_differs(ten_games):
    again = run_match(["random", "random"], games=10, seed=3, progress=False)
    assert again.records == ten_games.records
    other = run_match(["random", "random"], games=2, seed=100, progress=False)
    assert other.records[0].decisions != ten_games.records[0].decisions


def test_two_workers_give_the_same_results_as_one(ten_games):
    parallel = run_match(["random", "random"], games=10, seed=3, workers=2, progress=False)
    assert parallel.records == ten_games.records


def test_three_and_four_player_matches():
    for n in (3, 4):
        result = run_match(["random"] * n, games=2, seed=0, num_players=n, progress=False)
        r = result.records[0]
        assert len(r.tokens) == n and r.num_players == n and max(r.tokens) == r.tokens[r.winners[0]]
        assert result.stats()[0].games == 2 * n


def test_truncated_games_have_no_winner():
    result = run_match(["random", "random"], games=2, seed=0, max_steps=20, progress=False)
    assert all(r.truncated and r.winners == [] and r.n_decisions == 20 for r in result.records)
    assert result.stats()[0].wins == 0
    assert "truncated" in result.table()


def test_wrong_number_of_agents_is_explained():
    with pytest.raises(ValueError, match="3-player match needs 3 agents"):
        run_match(["random", "random"], games=1, seed=0, num_players=3, progress=False)


def test_bad_agent_name_lists_the_known_agents():
    with pytest.raises(ValueError, match="(?i)known agents: .*random"):
        run_match(["random", "no-such-bot"], games=1, seed=0, progress=False)


# ------------------------------------------------------------------ the command line
def test_every_subcommand_has_help(capsys):
    parser = build_parser()
    for command in ("match", "tournament", "replay", "play"):
        with pytest.raises(SystemExit):
            parser.parse_args([command, "--help"])
        assert "usage: vigtavl " + command in capsys.readouterr().out


def test_cli_match_prints_the_table_and_writes_results(tmp_path, capsys):
    out = tmp_path / "r.json"
    status = main(["match", "--agents", "random,random", "--games", "2", "--seed", "5",
                   "--no-progress", "--out", str(out)])
    text = capsys.readouterr().out
    assert status == 0
    assert text.splitlines()[1].startswith("random ")
    assert len(json.loads(out.read_text())["games"]) == 2


def test_cli_bad_agent_is_one_error_line(capsys):
    status = main(["match", "--agents", "random,nonsense", "--games", "1", "--no-progress"])
    err = capsys.readouterr().err
    assert status == 2
    assert "nonsense" in err and "known agents" in err


def test_cli_tournament(local_agents, capsys):
    status = main(["tournament", "--agents", "alpha,beta", "--games", "2", "--no-progress"])
    text = capsys.readouterr().out
    assert status == 0
    assert "head to head" in text and "alpha" in text and "beta" in text


def test_engine_bots_read_no_observation():
    """A Vigtavl bot that reads the engine state alone (``reads_observation`` False), seated as a
    player of the game interface (``agents.registry.SeatPlayer``), is handed no observation and
    enumerates the engine's legal list itself; an agent that reads observations still gets them."""
    from agents.registry import SeatPlayer
    from vigtavl_env.agent import EngineAgent, RandomAgent
    from vigtavl_env.engine import legal_actions

    seen: dict[str, list] = {"engine": [], "observing": []}

    class StateReader(EngineAgent):
        name = "state-reader"

        def decide(self, state, legal):
            assert legal == legal_actions(state)
            return legal[self.rng.randrange(len(legal))]

        def act(self, observation, action_mask, info):
            seen["engine"].append((observation, action_mask))
            return super().act(observation, action_mask, info)

    class Observing(RandomAgent):
        def act(self, observation, action_mask, info):
            seen["observing"].append((observation is not None, action_mask is not None))
            return super().act(observation, action_mask, info)

    job = M.GameJob(game=0, seed=5, seats=("state-reader", "random"), num_players=2, max_steps=200)
    env = M.make_env(job)
    env.reset(seed=job.seed)
    M.run_game(env, [SeatPlayer(StateReader(), 0), SeatPlayer(Observing(seed=1), 1)], job, [0, 1])
    assert seen["engine"] and all(o is None and m is None for o, m in seen["engine"])
    assert seen["observing"] and all(o and m for o, m in seen["observing"])
