"""The bots under rules v1 (and v2 where it differs): the decisions the engine now asks of the players (who defends, from
which side a battle move attacks, close combat or a shot, a defended seizure, which unit seizes
or breaches, the freighter loads), the search bot asked out of turn, and full games of every bot.

Positions are built with :class:`~vigtavl_env.engine.scenario.Scenario` on the all-land test
board (``conftest.make_map``); dice are forced where a battle is resolved."""

from __future__ import annotations

import random

import pytest
from conftest import make_map

from agents.heuristic import HeuristicAgent
from agents.heuristic.search import SearchAgent
from agents.registry import make_agent
from agents.heuristic.agent import state_key
from agents.heuristic.seizures import guard_holds
from agents import tactics as T
from agents.heuristic import AGGRESSOR, BUILDER, GREEDY
from arena.vigtavl_match import GameJob, make_env, play_game
from vigtavl_env.engine import actions as A
from vigtavl_env.engine import apply_action, legal_actions, load_map, new_game
from vigtavl_env.engine.config import RulesConfig
from vigtavl_env.engine.scenario import Scenario, act, code_for
from vigtavl_env.engine.state import (
    CHOOSE_BREACHER, CHOOSE_DEFENDER, CHOOSE_GUARD, CHOOSE_SEIZER, CHOOSE_SIDE, OVER, PLACEMENT,
)
from vigtavl_env.engine.stats import ARCHER, FREIGHTER_SPLITS, SOLDIER

STYLES = (GREEDY, AGGRESSOR, BUILDER)


def decision(bot, state) -> tuple[str, tuple[int, int] | None]:
    """The bot's decision as (verb name, axial hex or None)."""
    n = state.gmap.board.n_cells
    verb, cell, g = A.decode(bot.decide(state, legal_actions(state)), n)
    return (A.GLOBAL_NAMES[g], None) if g >= 0 else (A.VERB_NAMES[verb], state.gmap.board.coords[cell])


# ------------------------------------------------------------------------------ who defends
def attacked_cavalry(soldier_on_camp: bool = False) -> Scenario:
    """Player 0's cavalry at (-1, 0) attacks player 1's cavalry at (0, 0); player 1's soldier
    at (-1, 1) is next to both, so it may defend instead (player 1 is asked)."""
    sc = Scenario(make_map(), phase="battle")
    sc.development(0, "camp", (-4, 0))
    if not soldier_on_camp:
        sc.development(1, "camp", (4, -4))
    sc.unit(0, "cavalry", (-1, 0))
    sc.unit(1, "cavalry", (0, 0))
    sc.unit(1, "soldier", (-1, 1))
    if soldier_on_camp:  # his only development, held by that soldier alone
        sc.development(1, "camp", (-1, 1))
    return sc


@pytest.mark.parametrize("style", STYLES, ids=lambda s: s.name)
def test_a_cheap_soldier_defends_the_cavalry_against_a_strong_attack(style):
    state = attacked_cavalry().build()
    act(state, "activate cavalry", (-1, 0))
    act(state, "attack", (0, 0))
    assert state.pending.kind == CHOOSE_DEFENDER and state.current_player == 1
    bot = HeuristicAgent(style, seed=1)
    # Three dice against the cavalry's three (lose 1/2 x 3 tokens) or the soldier's one
    # (lose 0.79 x 1): the soldier steps in.
    assert decision(bot, state) == ("choose soldier", (-1, 1))
    state.forced_dice[:] = [6, 6, 6, 1]
    apply_action(state, bot.decide(state, legal_actions(state)))
    battle = next(e for e in state.events if e["event"] == "battle")
    assert state.u_type[battle["defender"]] == SOLDIER and battle["won"]
    assert state.units_at(state.gmap.board.index[(0, 0)], 1)  # the cavalry is still there


def test_the_cavalry_defends_itself_rather_than_strip_the_last_camp():
    """The soldier alone holds its owner's last camp: if it fell, the camp would be open."""
    state = attacked_cavalry(soldier_on_camp=True).build()
    act(state, "activate cavalry", (-1, 0))
    act(state, "attack", (0, 0))
    assert state.pending.kind == CHOOSE_DEFENDER
    assert decision(HeuristicAgent(GREEDY, seed=1), state) == ("choose cavalry", (0, 0))


def test_the_cheapest_unit_takes_a_shot():
    """Against a shot every defender's odds are the same: the cheapest defends, even when it is
    not the unit shot at."""
    sc = Scenario(make_map(), phase="battle")
    sc.development(0, "camp", (-4, 0))
    sc.unit(0, "archer", (-2, 0))
    sc.unit(1, "archer", (0, 0))
    sc.unit(1, "cavalry", (0, 0))
    sc.unit(1, "soldier", (-1, 1))
    state = sc.build()
    act(state, "activate archer", (-2, 0))
    act(state, "shoot", (0, 0))
    assert state.pending.kind == CHOOSE_DEFENDER and state.pending.reach == 2
    # The soldier at (-1, 1) is not next to the archer: only the two units on the hex may.
    assert decision(HeuristicAgent(AGGRESSOR, seed=2), state) == ("choose archer", (0, 0))


def test_attack_odds_expect_the_defender_the_attacked_player_chooses():
    state = attacked_cavalry().build()
    index = state.gmap.board.index
    cav = state.units_at(index[(-1, 0)], 0)[0]
    p, victim = T.attack_odds(state, cav, index[(0, 0)])
    assert state.u_type[victim] == SOLDIER and p == pytest.approx(T.close_win_prob(3, 1))


# ------------------------------------------------------------------------------ battle moves
def battle_move_position() -> tuple:
    """Player 0's soldier attacked (0, 0) from the west and lost (the front is west); his
    cavalry at (-2, 1) then moves into (0, 0): six sides are possible, the rear (east) gives
    +3 dice, an overwhelm."""
    sc = Scenario(make_map(), phase="battle")
    sc.development(0, "camp", (-4, 0))
    sc.development(1, "camp", (4, -4))
    sc.unit(0, "soldier", (-1, 0))
    sc.unit(0, "cavalry", (-2, 1))
    sc.unit(1, "soldier", (0, 0))
    state = sc.build()
    act(state, "activate soldier", (-1, 0))
    state.forced_dice[:] = [1, 6]
    act(state, "attack", (0, 0))
    act(state, "end activation")
    act(state, "activate cavalry", (-2, 1))
    act(state, "move", (0, 0))
    return state


@pytest.mark.parametrize("style", STYLES, ids=lambda s: s.name)
def test_battle_move_attacks_from_the_flank_with_most_dice(style):
    state = battle_move_position()
    assert state.pending.kind == CHOOSE_SIDE and len(legal_actions(state)) == 6
    # The cheapest side, (-1, 1), is next to the cavalry; the rear is three steps away.
    assert decision(HeuristicAgent(style, seed=3), state) == ("attack from", (1, 0))
    act(state, "attack from", (1, 0))
    battle = [e for e in state.events if e["event"] == "battle"][-1]
    assert battle["dice"] == 6 and battle.get("overwhelm")


# ------------------------------------------------------------------------------ close or shot
def archer_next_to_a_soldier(config: RulesConfig | None = None):
    """Player 0's soldier attacked (1, 0) from the east and lost (the front is east); his
    archer at (0, 0), in its rear, is active next to it: close combat or a shot."""
    sc = Scenario(make_map(), phase="battle", config=config)
    sc.development(0, "camp", (-4, 0))
    sc.development(1, "camp", (4, -4))
    sc.unit(0, "soldier", (2, 0))
    sc.unit(0, "archer", (0, 0))
    sc.unit(1, "soldier", (1, 0))
    state = sc.build()
    act(state, "activate soldier", (2, 0))
    state.forced_dice[:] = [1, 6]
    act(state, "attack", (1, 0))
    act(state, "end activation")
    act(state, "activate archer", (0, 0))
    return state


@pytest.mark.parametrize("style", STYLES, ids=lambda s: s.name)
def test_archer_shoots_or_fights_whichever_is_better(style):
    # Flanking counts for shots too: 5 dice hitting on 1-3 (0.97) beat 5 dice against 1 (0.89).
    state = archer_next_to_a_soldier()
    assert decision(HeuristicAgent(style, seed=4), state) == ("shoot", (1, 0))
    # Without tactics for ranged attacks the shot keeps its 2 dice (0.75): close combat from
    # the rear (5 dice against 1) is better.
    state = archer_next_to_a_soldier(RulesConfig(ranged_tactics=False))
    assert decision(HeuristicAgent(style, seed=4), state) == ("attack", (1, 0))
    state.forced_dice[:] = [6, 1, 1, 1, 1, 1]
    act(state, "attack", (1, 0))
    battle = [e for e in state.events if e["event"] == "battle"][-1]
    assert battle["dice"] == 5 and battle["won"] and not battle["ranged"]


# ------------------------------------------------------------------------------ seizures
def seizure(seizer: str, guard: str, last: bool = False):
    """Player 0's ``seizer`` at (1, 0) seizes player 1's camp at (0, 0); player 1's ``guard``
    at (1, -1) is next to both, so player 1 is asked to defend it, or not."""
    sc = Scenario(make_map(), phase="battle")
    sc.development(0, "camp", (-4, 0))
    sc.development(1, "camp", (0, 0))
    if not last:
        sc.development(1, "camp", (4, -4))
    sc.unit(0, seizer, (1, 0))
    sc.unit(1, guard, (1, -1))
    state = sc.build()
    act(state, "seize", (0, 0))
    assert state.pending.kind == CHOOSE_GUARD and state.current_player == 1
    return state


@pytest.mark.parametrize("style", STYLES, ids=lambda s: s.name)
def test_even_a_weak_guard_defends_the_camp_and_stops_the_seizure(style):
    """Rules v2 (F6): a defender named against a seizure rolls no dice; it stops the seizure
    until attacks defeat it, so no defence is hopeless and the bots defend whenever they can,
    even with a soldier against a cavalry (under v1 it held 1 time in 5 and they let the camp go)."""
    state = seizure("cavalry", "soldier")
    camp = state.gmap.board.index[(0, 0)]
    guard = next(u for u in range(state.n_units) if state.u_owner[u] == 1)
    assert guard_holds(state, state.pending.unit, guard) == 1.0
    bot = HeuristicAgent(style, seed=5)
    assert decision(bot, state) == ("choose soldier", (1, -1))
    state.forced_dice[:] = [6, 6, 6, 1]
    apply_action(state, bot.decide(state, legal_actions(state)))
    assert state.forced_dice == [6, 6, 6, 1]  # no dice rolled
    assert state.dev_owner[camp] == 1 and state.defended == {camp: guard}
    assert state.pending is None and state.current_player == 0
    assert code_for(state, "seize", (0, 0)) not in legal_actions(state)  # stopped while the guard stands


@pytest.mark.parametrize("style", STYLES, ids=lambda s: s.name)
def test_a_strong_guard_defends_the_camp(style):
    # A cavalry against a soldier holds 4 times in 5.
    state = seizure("soldier", "cavalry")
    bot = HeuristicAgent(style, seed=5)
    assert decision(bot, state) == ("choose cavalry", (1, -1))
    state.forced_dice[:] = [1, 6, 1, 1]
    apply_action(state, bot.decide(state, legal_actions(state)))
    assert state.dev_owner[state.gmap.board.index[(0, 0)]] == 1 and state.current_player == 0


def test_the_last_camp_is_worth_a_long_shot():
    """The owner's last development: the +3 bonus makes even the soldier's chance worth it."""
    state = seizure("cavalry", "soldier", last=True)
    assert decision(HeuristicAgent(GREEDY, seed=5), state) == ("choose soldier", (1, -1))


def test_guard_outcome_defends_while_it_pays():
    # P(hold) x stake > P(lose) x value: 0.2 x 1 < 0.8 x 1 -> let it go.
    assert T.guard_outcome([(0.2, 1.0)], 1.0) == (1.0, 1.0, 0.0)
    loss, seized, lost = T.guard_outcome([(0.8, 3.0)], 1.5)
    assert loss == pytest.approx(0.2 * 4.5) and seized == pytest.approx(0.2) and lost == pytest.approx(0.2 * 3.0)
    # Two guards: the better one first, the second only if it still pays.
    loss2, seized2, _ = T.guard_outcome([(0.5, 1.0), (0.8, 3.0)], 1.5)
    assert loss2 <= loss and seized2 < seized


def test_seizer_chosen_where_no_defender_can_step_in():
    """Two units could seize player 1's last camp; his cavalry at (1, -1) can defend against the
    one at (1, 0) (next to both), not against the soldier at (-1, 0)."""
    sc = Scenario(make_map(), phase="battle")
    sc.development(0, "camp", (-4, 0))
    sc.development(1, "camp", (0, 0))
    sc.unit(0, "cavalry", (1, 0))
    sc.unit(0, "soldier", (-1, 0))
    sc.unit(1, "cavalry", (1, -1))
    state = sc.build()
    act(state, "seize", (0, 0))
    assert state.pending.kind == CHOOSE_SEIZER
    for style in STYLES:
        assert decision(HeuristicAgent(style, seed=6), state) == ("choose soldier", (-1, 0)), style.name


def test_seizer_chosen_that_can_occupy():
    """A caravel or a soldier may seize the coastal camp; only the soldier can then occupy."""
    sc = Scenario(make_map(sea=[(1, 0)]), phase="battle")
    sc.development(0, "camp", (-4, 0))
    sc.development(1, "camp", (0, 0))
    sc.development(1, "camp", (4, -4))
    sc.unit(0, "caravel", (1, 0))
    sc.unit(0, "soldier", (-1, 0))
    state = sc.build()
    act(state, "seize", (0, 0))
    assert state.pending.kind == CHOOSE_SEIZER
    assert decision(HeuristicAgent(GREEDY, seed=6), state) == ("choose soldier", (-1, 0))


def test_breacher_with_the_most_dice():
    sc = Scenario(make_map(), phase="battle")
    sc.development(0, "camp", (-4, 0))
    sc.development(1, "camp", (1, 0))
    sc.wall(1, (1, 0), "W")
    sc.unit(0, "soldier", (0, 0))
    sc.unit(0, "cavalry", (0, 0))
    state = sc.build()
    act(state, "breach wall 0", (0, 0))
    assert state.pending.kind == CHOOSE_BREACHER
    assert decision(HeuristicAgent(GREEDY, seed=7), state) == ("choose cavalry", (0, 0))


# ------------------------------------------------------------------------------ setup
def test_load_decision_follows_the_style_and_the_seed():
    splits = {}
    for style in STYLES:
        state = new_game(load_map("duel"), seed=1)
        codes = {HeuristicAgent(style, seed=s).decide(state, legal_actions(state)) for s in range(5)}
        assert len(codes) == 1, style.name  # the style's preference, whatever the seed
        g = A.decode(codes.pop(), state.gmap.board.n_cells)[2]
        splits[style.name] = FREIGHTER_SPLITS[g - A.LOAD]
    # Greedy splits the archers so that both landings can shoot; the styles differ.
    assert all(ARCHER in load for load in splits["greedy"])
    assert len(set(splits.values())) == 3


# ------------------------------------------------------------------------------ caches
def test_state_key_reads_the_pending_choice_and_the_loads():
    state = attacked_cavalry().build()
    act(state, "activate cavalry", (-1, 0))
    act(state, "attack", (0, 0))
    other = state.clone()
    assert state_key(other) == state_key(state)
    other.pending.reach = 2
    assert state_key(other) != state_key(state)
    fresh = new_game(load_map("duel"), seed=1)
    loaded = fresh.clone()
    loaded.to_load.pop(0)
    assert state_key(loaded) != state_key(fresh)
    moved = state.clone()
    moved.stack[-1].rode = True
    assert state_key(moved) != state_key(state)


def test_remembered_scores_match_fresh_ones_at_pending_choices():
    """A bot that remembers scores answers each pending choice as a fresh bot does, also after
    seeing a state that differs only in the choice asked."""
    kept = HeuristicAgent(GREEDY, remember_scores=True)
    for state in (seizure("cavalry", "soldier"), seizure("soldier", "cavalry")):
        for s in (state, state):
            legal = legal_actions(s)
            kept.rng.seed(1)
            assert kept.scored(s, legal) == HeuristicAgent(GREEDY, seed=1).scored(s, legal)


# ------------------------------------------------------------------------------ search
def test_search_answers_out_of_turn_and_simulates_others_choices(monkeypatch):
    """Asked to defend out of turn, the search bot answers (with its policy: the exact odds);
    searching its own attack, its simulations hand the defender's choice to the policy of the
    player asked, not of the turn's player."""
    state = attacked_cavalry().build()
    act(state, "activate cavalry", (-1, 0))
    act(state, "attack", (0, 0))
    bot = SearchAgent(iterations=4, seed=1)
    bot.reset(1, 1)
    assert A.decode(bot.decide(state, legal_actions(state)), state.gmap.board.n_cells)[1] == \
        state.gmap.board.index[(-1, 1)]
    assert bot.last_simulations == 0
    # Proposed candidates are searched even at a pending choice, from player 1's point of view.
    legal = legal_actions(state)
    assert bot.choose(state, legal, proposed=[legal[-1]]) in legal and bot.last_simulations > 0

    state = attacked_cavalry().build()
    act(state, "activate cavalry", (-1, 0))
    legal = legal_actions(state)
    attack = code_for(state, "attack", (0, 0))
    searcher = SearchAgent(iterations=12, seed=2)
    searcher.reset(0, 2)
    asked = []
    real = HeuristicAgent.decide

    def spy(self, s, legal):
        if s.pending is not None and s.current_player != s.turn_player:
            asked.append((self is searcher.rollout_policy, s.current_player, s.pending.kind))
        return real(self, s, legal)

    monkeypatch.setattr(HeuristicAgent, "decide", spy)
    searcher.choose(state, legal, proposed=[attack])
    assert searcher.last_simulations > 0
    # Player 1 defends in my turn: the rollout policy (the "others" of my turn) answers for him.
    assert (True, 1, CHOOSE_DEFENDER) in asked


# ------------------------------------------------------------------------------ full games
def play_engine(specs: list[str], map_name: str, seed: int):
    """A game on the engine: ``random`` picks uniformly among the legal codes (seeded), the
    other bots decide; every decision must be legal. Returns the state and the number of
    decisions taken out of turn (by a player other than the turn's)."""
    state = new_game(load_map(map_name), seed=seed)
    state.record_events = False
    rng = random.Random(seed)
    bots = []
    for i, spec in enumerate(specs):
        bot = None if spec == "random" else make_agent(spec, seed=seed * 10 + i)
        if bot is not None:
            bot.reset(i, seed * 10 + i)
        bots.append(bot)
    out_of_turn = steps = 0
    while not state.is_over:
        legal = legal_actions(state)
        p = state.current_player
        bot = bots[p]
        code = rng.choice(legal) if bot is None else bot.decide(state, legal)
        assert code in legal, f"{specs[p]} chose an illegal code"
        out_of_turn += state.pending is not None and p != state.turn_player
        apply_action(state, code, legal)
        steps += 1
        assert steps < 5000
    return state, out_of_turn


LINEUPS = [
    (["greedy", "random"], "duel"), (["random", "aggressor"], "duel"), (["builder", "search:2"], "duel"),
    (["search:2", "random"], "duel"), (["aggressor", "builder"], "duel"),
    (["random", "greedy", "aggressor"], "triad"), (["builder", "search:2", "random"], "triad"),
]


@pytest.mark.parametrize("seed", [1, 2])
@pytest.mark.parametrize("specs,map_name", LINEUPS, ids=lambda x: "-".join(x) if isinstance(x, list) else x)
def test_every_bot_plays_full_games(specs, map_name, seed):
    state, _ = play_engine(specs, map_name, seed)
    assert state.phase == OVER and max(state.tokens) > 0


def test_full_games_ask_out_of_turn():
    """Between them, a few games ask players to defend out of turn (and the bots answer)."""
    asked = sum(play_engine(["aggressor", "greedy"], "duel", seed)[1] for seed in range(3))
    assert asked > 0


@pytest.mark.parametrize("specs", [["random", "greedy"], ["search:2", "aggressor", "random"]])
def test_bots_play_through_the_environment(specs):
    """The match runner's path: every decision through ``agent.act`` on the env's mask, the
    defend interrupts included."""
    job = GameJob(game=0, seed=3, seats=tuple(specs), num_players=len(specs))
    record = play_game(make_env(job), job)
    assert not record.truncated and record.winners


def test_setup_is_the_first_decision_of_every_bot():
    state = new_game(load_map("duel"), seed=4)
    assert state.phase == PLACEMENT and state.to_load == [0, 1]
    for bot in (make_agent("greedy", seed=1), make_agent("search:2", seed=1)):
        code = bot.decide(state, legal_actions(state))
        assert A.decode(code, state.gmap.board.n_cells)[2] >= A.LOAD
