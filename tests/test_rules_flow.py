"""Phases, rounds, turns and the end of the game (docs/rules.md rows O1, P1, P4-P7)."""

from __future__ import annotations

import pytest
from conftest import make_map

from vigtavl_env.engine import IllegalActionError, RulesConfig, new_game, returns, to_json, winners
from vigtavl_env.engine.scenario import Scenario, act, legal
from vigtavl_env.engine.state import BATTLE, BUILD, CHOOSE_VARIANT, OVER, PLACEMENT

PHASE = {PLACEMENT: "placement", BUILD: "build", BATTLE: "battle", OVER: "over"}


def _play(state, on_turn=None):
    """Play to the end: the load decisions (S4) and the placement take the first legal
    decision (and answer "which freighter" with the first variant, V2); every turn then just
    ends, after ``on_turn(state)`` had its say. Returns who loaded, who placed and who chose
    which freighter, in order, the (phase, round, player) of each turn and the gold and silver
    of every player at the start of each turn."""
    loads, placement, variants = [], [], []
    while state.to_load:
        assert state.phase == PLACEMENT
        assert state.gold == [0] * state.n_players and state.silver == [0] * state.n_players
        loads.append(state.current_player)
        act(state, *legal(state)[0])
    while state.phase == PLACEMENT:
        assert state.gold == [0] * state.n_players and state.silver == [0] * state.n_players
        verb, where = legal(state)[0]
        if verb.startswith("choose variant"):
            # V2: which of his two unalike freighters goes first, asked next of the player
            # who is placing it; not a placement of its own.
            assert state.pending is not None and state.pending.kind == CHOOSE_VARIANT
            assert state.current_player == placement[-1]
            variants.append(state.current_player)
        else:
            assert verb.startswith("place ")
            placement.append(state.current_player)
        act(state, verb, where)
    turns, purses = [], []
    while state.phase != OVER:
        turns.append((PHASE[state.phase], state.round, state.turn_player))
        purses.append((list(state.gold), list(state.silver)))
        if on_turn is not None:
            on_turn(state)
        assert ("end turn", None) in legal(state)
        act(state, "end turn")
    return loads, placement, variants, turns, purses


def test_phase_sequence_and_round_count():
    """P1/P7: placement until every ship is placed, 2 build rounds, 2 battle rounds, then the end."""
    state = new_game(make_map(2), seed=11)
    built = []

    def build_a_camp(s):
        # Player 0 builds one camp in his first turn (next to his freighters) and keeps it.
        if s.turn_player == 0 and not built:
            site = next(at for v, at in legal(s) if v == "build camp")
            act(s, "build camp", site)
            built.append(site)

    loads, placement, variants, turns, purses = _play(state, build_a_camp)
    assert loads == [0, 1]  # each player loads his freighters, in seat order (S4)
    assert placement == [0, 1] * 6  # 12 ships, one at a time, seats alternating
    # V2: each player's loads differ, so placing his first freighter asks him which; the second
    # is then the only one left.
    assert variants == [0, 1]
    assert turns == [
        ("build", 0, 0), ("build", 0, 1), ("build", 1, 0), ("build", 1, 1),
        ("battle", 0, 0), ("battle", 0, 1), ("battle", 1, 0), ("battle", 1, 1),
    ]
    assert state.turns_played == 8  # each player has 2 + 2 turns after placement
    # Every turn starts with 6 gold and 6 silver for its player only; the rest was forfeited.
    for (_, _, p), (gold, silver) in zip(turns, purses):
        assert gold == [6 if q == p else 0 for q in range(2)]
        assert silver == [6 if q == p else 0 for q in range(2)]
    # P7: after the last battle round the game is over; end awards then the winner.
    assert state.phase == OVER and state.is_over and state.current_player == -1
    assert legal(state) == []
    with pytest.raises(IllegalActionError):
        act(state, "end turn")
    assert built
    assert state.tokens == [3, 0]  # Builder: the only player with a development
    assert winners(state) == [0]
    assert returns(state) == [1.0, -1.0]
    events = [e["event"] for e in state.events]
    assert events.index("award") < events.index("game_over") == len(events) - 1

    # The number of build and battle rounds is the option rounds_per_phase.
    state = new_game(make_map(2), RulesConfig(rounds_per_phase=3), seed=11)
    _, _, _, turns, _ = _play(state)
    assert [t[:2] for t in turns] == [("build", r) for r in (0, 0, 1, 1, 2, 2)] + [
        ("battle", r) for r in (0, 0, 1, 1, 2, 2)]
    assert state.phase == OVER and state.tokens == [0, 0]


def test_turn_order():
    """P6: seats play in order 0, 1, 2, ... in every round of every phase."""
    state = Scenario(make_map(3), phase="build").build()
    seq = []
    while not state.is_over:
        seq.append((PHASE[state.phase], state.round, state.current_player))
        act(state, "end turn")
    expected = [(ph, r, p) for ph in ("build", "battle") for r in (0, 1) for p in (0, 1, 2)]
    assert seq == expected


def test_most_tokens_wins_and_ties_share():
    """O1: the player with the most victory tokens wins; all players tied for the most share."""

    def final(tokens):
        n = len(tokens)
        sc = Scenario(make_map(n), phase="battle", turn_player=n - 1)
        state = sc.build()
        state.round = state.config.rounds_per_phase - 1  # the last battle turn of the game
        state.tokens = list(tokens)
        act(state, "end turn")
        assert state.is_over
        assert state.tokens == list(tokens)  # no end awards: nobody has a prisoner, wreck or camp
        return winners(state), returns(state)

    assert final([3, 5]) == ([1], [-1.0, 1.0])
    assert final([7, 2]) == ([0], [1.0, -1.0])
    assert final([4, 4]) == ([0, 1], [0.0, 0.0])
    assert final([2, 5, 5]) == ([1, 2], [-1.0, 1.0, 1.0])
    assert final([1, 1, 1, 0]) == ([0, 1, 2], [1.0, 1.0, 1.0, -1.0])


def _position(phase):
    """Player 0's cavalry at (0,0) next to player 1's soldier (1,0), player 1's lone camp (-1,0)
    (undefended: the soldier is not next to both), and player 1's wall on the cavalry's SE edge.
    Player 0 has a camp at (0,2) to hold prisoners."""
    sc = Scenario(make_map(2), phase=phase, gold=6, silver=6)
    sc.unit(0, "cavalry", (0, 0))
    sc.development(0, "camp", (0, 2))
    sc.unit(1, "soldier", (1, 0))
    sc.development(1, "camp", (-1, 0))
    sc.development(1, "camp", (-3, 3))
    sc.wall(1, (0, 0), "SE")
    return sc.build()


def test_build_phase_allows_no_attacks():
    """P4: "No attack actions are allowed" in the build phase (nor seizing, nor breaching)."""
    state = _position("build")
    verbs = {v for v, _ in legal(state)}
    assert "seize" not in verbs and not any(v.startswith("breach") for v in verbs)
    assert "build camp" in verbs and "build soldier" in verbs and "activate cavalry" in verbs
    for verb, at in (("seize", (-1, 0)), ("breach wall 5", (0, 0))):
        before = to_json(state)
        with pytest.raises(IllegalActionError):
            act(state, verb, at)
        assert to_json(state) == before
    act(state, "activate cavalry", (0, 0))
    verbs = {v for v, _ in legal(state)}
    assert "attack" not in verbs and "move" in verbs
    # Moving may pass the enemy soldier's hex but never stop on it (no battle move).
    moves = {at for v, at in legal(state) if v == "move"}
    assert (1, 0) not in moves and (2, 0) in moves
    before = to_json(state)
    with pytest.raises(IllegalActionError):
        act(state, "attack", (1, 0))
    with pytest.raises(IllegalActionError):
        act(state, "move", (1, 0))
    assert to_json(state) == before


def test_battle_phase_allows_building_and_attacks():
    """P5: the battle phase allows everything of the build phase, and attacks too."""
    build_state, state = _position("build"), _position("battle")
    build_verbs = {v for v, _ in legal(build_state)}
    verbs = {v for v, _ in legal(state)}
    assert build_verbs <= verbs
    assert {"seize", "breach wall 5"} <= verbs - build_verbs
    assert {at for v, at in legal(state) if v == "build camp"} == {
        at for v, at in legal(build_state) if v == "build camp"}
    act(state, "activate cavalry", (0, 0))
    legal_now = legal(state)
    assert ("attack", (1, 0)) in legal_now
    assert ("move", (1, 0)) in legal_now  # a battle move
    # Building is still open to the player with a unit active (before or after its movement).
    assert any(v == "build soldier" for v, _ in legal_now)
    state.forced_dice[:] = [6, 6, 6, 1]  # cavalry rolls 6,6,6; the soldier rolls 1
    act(state, "attack", (1, 0))
    board = state.gmap.board
    assert state.cell_player[board.index[(1, 0)]] == -1  # the soldier was captured
    assert state.tokens[0] == 1
