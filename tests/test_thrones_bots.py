"""The Thrones bots (issue 57, item 5): legal decisions everywhere, the greedy bot beats random,
the search bot never peeks (its decisions before the reveal do not change with the opponent's
secret setup, and it never rolls the view's coin), bad specs answer in one line."""

from __future__ import annotations

import random

import pytest

from agents.generic import RandomPlayer
from agents.kinds import kinds_for
from agents.thrones import KINDS
from arena.play import play_game
from games.thrones.game import ThronesGame
from games.thrones.scenario import SMALL
from tools import thrones_bots

G = ThronesGame()
FAST_SEARCH = "2"  # search:2, enough lines to exercise the search in a test's time


def make(spec: str, seed: int):
    kind, _, arg = spec.partition(":")
    return KINDS[kind].factory(arg, seed)


def random_setup(st, seat: int, rng: random.Random) -> None:
    while st.phase == "setup" and st.current_player() == seat:
        st.apply_action(rng.choice(st.legal_actions()))


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_search_setup_does_not_change_with_the_opponents_secret_setup(seed):
    """Two true states that differ only in seat 0's secret setup: seat 1's search bot, handed
    seat 1's view of each, decides its whole setup the same way."""
    states = [G.new_state(seed=seed), G.new_state(seed=seed)]
    for st, opponent_seed in zip(states, (100 + seed, 200 + seed)):
        random_setup(st, 0, random.Random(opponent_seed))
    assert states[0].tile != states[1].tile and states[0].ppos != states[1].ppos
    bots = [make(f"search:{FAST_SEARCH}", seed), make(f"search:{FAST_SEARCH}", seed)]
    decisions: list[list[int]] = [[], []]
    while not states[0].revealed:
        for st, bot, made in zip(states, bots, decisions):
            assert st.current_player() == 1
            code = bot(st.view_for(1), st.legal_actions())
            made.append(code)
            st.apply_action(code)
    assert decisions[0] == decisions[1] and len(decisions[0]) == states[0].steps
    assert states[1].revealed


def play_position(seed: int, options: dict) -> object:
    """A revealed position some random decisions into a game."""
    rng = random.Random(seed)
    st = G.new_state(seed=seed, **options)
    target = rng.randrange(st.steps * 2, st.steps * 2 + 40)
    while not st.is_over() and len(st.history) < target:
        st.apply_action(rng.choice(st.legal_actions()))
    return st


def test_search_never_rolls_the_views_coin():
    """After the reveal: two views of one position with different coins get the same decision."""
    for seed in range(4):
        st = play_position(seed, {})
        if st.is_over():
            continue
        seat = st.current_player()
        views = [st.view_for(seat), st.view_for(seat)]
        views[1].rng ^= 0x9E3779B97F4A7C15
        legal = st.legal_actions()
        picks = {make(f"search:{FAST_SEARCH}", seed)(v, list(legal)) for v in views}
        assert len(picks) == 1


@pytest.mark.parametrize("options", [{}, SMALL], ids=["9x9", "7x7"])
def test_bots_only_return_legal_actions(options):
    """Every bot decision at many random points of random games (setup and play) is legal."""
    checked = 0
    for seed in range(4):
        rng = random.Random(seed)
        st = G.new_state(seed=seed, **options)
        bots = {spec: make(spec, seed) for spec in ("greedy", f"search:{FAST_SEARCH}")}
        while not st.is_over() and len(st.history) < st.steps * 2 + 50:
            legal = st.legal_actions()
            if rng.random() < 0.12:
                seat = st.current_player()
                for bot in bots.values():
                    assert bot(st.view_for(seat), list(legal)) in legal
                    checked += 1
            st.apply_action(rng.choice(legal))
    assert checked > 30


def test_greedy_beats_random_in_a_small_seeded_match():
    wins = 0
    for g in range(10):
        seat = g % 2
        players = [RandomPlayer(1000 + g), RandomPlayer(1000 + g)]
        players[seat] = make("greedy", g)
        rec = play_game("thrones", players, seed=g)
        wins += seat in rec.winners and not rec.truncated
    assert wins >= 8


@pytest.mark.parametrize("spec", ["search:x", "search:0", "search:201", "search:-3", "search:2.5",
                                  "search:\u00b2", "greedy:1", "greedy:fast"])
def test_bad_specs_answer_in_one_line(spec):
    kind, _, arg = spec.partition(":")
    with pytest.raises(ValueError) as err:
        KINDS[kind].factory(arg, 0)
    assert "\n" not in str(err.value) and kind in str(err.value)


def test_kinds_are_table_rows_and_the_arena_finds_them():
    for name, kind in KINDS.items():
        assert kind.name == name and kind.game == "thrones" and "\n" not in kind.description
        assert callable(kind.factory("", 0))
    assert KINDS["search"].argument and KINDS["search"].budget and not KINDS["greedy"].argument
    assert {"greedy", "search"} <= set(kinds_for("thrones"))  # the vigtavl.game_agents entry point


def test_the_benchmark_command_plays_and_refuses_bad_input(capsys):
    assert thrones_bots.main(["--games", "2", "--pairing", "greedy,random", "--seed", "3"]) == 0
    out = capsys.readouterr().out
    assert "greedy vs random: 2 games" in out and "95% CI" in out and "ms CPU per decision" in out
    for bad in (["--pairing", "greedy"], ["--pairing", "greedy,bob"], ["--pairing", "search:x,greedy"],
                ["--games", "0"], ["--workers", "0"]):
        assert thrones_bots.main(bad) == 2
        err = capsys.readouterr().err
        assert err.startswith("error: ") and err.count("\n") == 1
