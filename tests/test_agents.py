"""The bots: the agent interface, the registry, full games at every player count, silver spent,
determinism, the search budget, the battle odds, and the rules' objectives in small positions."""

from __future__ import annotations

import random
import sys

import numpy as np
import pytest
from conftest import make_map

from agents.heuristic import HeuristicAgent
from agents.heuristic.search import SearchAgent
from agents.registry import AgentUnavailableError, list_agents, make_agent
from vigtavl_env.agent import agent_info
from agents import tactics as T
from agents.heuristic import AGGRESSOR, BUILDER, GREEDY
from vigtavl_env import raw_env
from vigtavl_env.engine import actions as A
from vigtavl_env.engine import apply_action, legal_actions, load_map, new_game
from vigtavl_env.engine.scenario import Scenario, act, code_for
from vigtavl_env.engine.state import BATTLE, LOADED, ON_BOARD, OVER
from vigtavl_env.engine.stats import FREIGHTER, FREIGHTER_SPLITS, IS_SHIP, UNIT_MOVEMENT

HEURISTICS = ("greedy", "aggressor", "builder")


def play(specs: list[str], map_name: str, seed: int, record: bool = False, turns: int = 10**6):
    """An engine-level game (or its first ``turns`` turns): each seat's bot decides on the
    engine's legal codes."""
    state = new_game(load_map(map_name), seed=seed)
    state.record_events = record
    bots = [make_agent(s, seed=seed * 10 + i) for i, s in enumerate(specs)]
    for i, b in enumerate(bots):
        b.reset(i, seed * 10 + i)
    codes = []
    while not state.is_over and state.turns_played < turns:
        legal = legal_actions(state)
        code = bots[state.current_player].decide(state, legal)
        assert code in legal, f"{specs[state.current_player]} chose an illegal code"
        apply_action(state, code, legal)
        codes.append(code)
        assert len(codes) < 5000
    return state, codes


# ------------------------------------------------------------------------------ registry
def test_registry_names():
    assert set(list_agents()) >= {"random", "greedy", "aggressor", "builder", "search", "ppo"}
    for name in HEURISTICS:
        bot = make_agent(name, seed=1)
        assert isinstance(bot, HeuristicAgent) and bot.name == name
    assert make_agent("search").iterations > 0
    s = make_agent("search:200")
    assert isinstance(s, SearchAgent) and s.iterations == 200 and s.ms is None
    s = make_agent("search:20:15ms")
    assert s.iterations == 20 and s.ms == 15.0
    assert make_agent("random").name == "random"


@pytest.mark.parametrize("spec", ["nobody", "search:abc", "search:0", "greedy:3", "", "ppo:", "search:infms",
                                  "search:nanms", "search:-5ms"])
def test_registry_rejects_bad_specs(spec):
    with pytest.raises(ValueError) as err:
        make_agent(spec)
    assert "search" in str(err.value) or "ppo" in str(err.value)


def test_ppo_without_training_package_says_how(monkeypatch):
    monkeypatch.setitem(sys.modules, "agents.ppo", None)  # as if torch were not installed
    with pytest.raises(AgentUnavailableError, match="vigtavl train"):
        make_agent("ppo:pretrained")


# ------------------------------------------------------------------------------ interface
@pytest.mark.parametrize("spec", ["random", "greedy", "aggressor", "builder", "search:4"])
def test_act_returns_legal_env_action(spec):
    env = raw_env(num_players=2, seed=3)
    env.reset(seed=3)
    bot = make_agent(spec, seed=0)
    bot.reset(0, 0)
    for step, name in enumerate(env.agent_iter()):
        obs, _, term, trunc, _ = env.last()
        if term or trunc or step >= 80:
            break
        action = bot.act(obs["observation"], obs["action_mask"], agent_info(env, name))
        assert obs["action_mask"][action] == 1
        env.step(action)


def test_engine_agent_needs_the_state():
    bot = make_agent("greedy")
    mask = np.ones(10, dtype=np.int8)
    with pytest.raises(ValueError, match="info\\['state'\\]"):
        bot.act(np.zeros((1, 1, 1), np.float32), mask, {})


# ------------------------------------------------------------------------------ full games
@pytest.mark.parametrize("players,map_name", [(2, "duel"), (3, "triad"), (4, "quad")])
def test_heuristics_play_full_games(players, map_name):
    specs = [HEURISTICS[i % 3] for i in range(players)]
    state, _ = play(specs, map_name, seed=players)
    assert state.phase == OVER and max(state.tokens) > 0


@pytest.mark.parametrize("players,map_name", [(2, "duel"), (3, "triad"), (4, "quad")])
def test_search_plays_full_games(players, map_name):
    specs = ["search:2"] + ["greedy"] * (players - 1)
    state, _ = play(specs, map_name, seed=players + 10)
    assert state.phase == OVER


def test_bots_beat_random_in_a_few_games():
    for i, name in enumerate(HEURISTICS):
        me = i % 2
        state = _vs_random(name, seat=me, seed=40 + i)
        assert state.tokens[me] > state.tokens[1 - me], f"{name} lost to random: {state.tokens}"


def _vs_random(name: str, seat: int, seed: int):
    state = new_game(load_map("duel"), seed=seed)
    state.record_events = False
    bot = make_agent(name, seed=seed)
    rng = random.Random(seed)
    while not state.is_over:
        legal = legal_actions(state)
        code = bot.decide(state, legal) if state.current_player == seat else rng.choice(legal)
        apply_action(state, code, legal)
    return state


@pytest.mark.parametrize("name", HEURISTICS)
def test_heuristics_spend_their_silver(name):
    """Silver is forfeited at the end of a turn: every bot activates units in most turns."""
    state, _ = play([name, name], "duel", seed=5, record=True)
    turns = []
    for e in state.events:
        if e["event"] == "turn":
            turns.append({"player": e["player"], "activations": 0})
        elif e["event"] == "activate" and turns and e["player"] == turns[-1]["player"]:
            turns[-1]["activations"] += 1
    busy = sum(1 for t in turns if t["activations"] > 0)
    assert len(turns) == 8 and busy >= 6, turns


def test_same_seed_same_game():
    _, a = play(["greedy", "search:4"], "duel", seed=9, turns=6)
    _, b = play(["greedy", "search:4"], "duel", seed=9, turns=6)
    assert a == b
    _, c = play(["builder", "aggressor"], "duel", seed=9)
    _, d = play(["builder", "aggressor"], "duel", seed=9)
    assert c == d


def test_remembered_scores_match_fresh_ones():
    """The heuristic remembers scores, positions and threat tables across decisions: a bot that
    has seen every earlier state (and this one, and one in the same position) scores exactly as
    a fresh bot does."""
    state = new_game(load_map("duel"), seed=4)
    bots = [HeuristicAgent(GREEDY, seed=1), HeuristicAgent(AGGRESSOR, seed=2)]
    kept = HeuristicAgent(GREEDY, remember_scores=True)
    while not state.is_over and state.turns_played < 8:
        legal = legal_actions(state)
        poor = state.clone()  # the same position, but no gold or silver left
        poor.gold[poor.current_player] = poor.silver[poor.current_player] = 0
        for s in (state, poor, state):
            kept.rng.seed(3)
            assert kept.scored(s, legal) == HeuristicAgent(GREEDY, seed=3).scored(s, legal)
        info = kept.map_info(state)
        for q in range(state.n_players):
            th, fresh = T.threats_of(state, info, q), T.Threats(state, info, q)
            public = [k for k in th.__slots__ if not k.startswith("_")]  # _ranged: ranged's C view
            assert [getattr(th, k) for k in public] == [getattr(fresh, k) for k in public]
        apply_action(state, bots[state.current_player].decide(state, legal), legal)


def test_decide_picks_the_best_scored_pair_and_scored_follows_the_legal_order():
    """``decide`` is ``max(scored(...))[1]`` without the list of pairs: the same noise, drawn
    in the same order, for each style; ``scored`` lists the codes in the order of ``legal``."""
    for style, seed in ((GREEDY, 5), (AGGRESSOR, 6), (BUILDER, 7)):
        state = new_game(load_map("duel"), seed=seed)
        picker, lister = HeuristicAgent(style, seed=seed), HeuristicAgent(style, seed=seed)
        while not state.is_over and state.turns_played < 12:
            legal = legal_actions(state)
            if len(legal) > 1:
                pairs = lister.scored(state, legal)
                assert [code for _, code in pairs] == legal
                assert picker.decide(state, legal) == max(pairs)[1]
            else:
                assert picker.decide(state, legal) == legal[0]
            apply_action(state, legal[(state.decisions * 7919) % len(legal)], legal)


def test_bots_share_the_tables_of_equal_maps():
    """A bot made for each game finds its map's tables already built (equal maps share them),
    and keeps the map it met alive, so its id-keyed caches cannot mistake another map for it."""
    duel, again = load_map("duel"), load_map("duel")
    assert duel is not again and duel == again
    a, b = HeuristicAgent(GREEDY, seed=1), HeuristicAgent(AGGRESSOR, seed=2)
    info = a.map_info(new_game(duel, seed=1))
    assert b.map_info(new_game(again, seed=2)) is info
    assert a.map_info(new_game(load_map("triad"), seed=1)) is not info
    assert all(kept[0] is m for kept, m in zip(a._maps.values(), (duel,)))


def test_approach_risk_is_each_units_own_risk_at_most():
    """approach_risk (one numpy pass over all units) equals its definition unit by unit: per
    hex, the most any other player's fighting unit threatens to come next to it."""
    gmap = load_map("duel")
    info = T.MapInfo(gmap)
    state, bots = new_game(gmap, seed=5), [HeuristicAgent(GREEDY, seed=1), HeuristicAgent(AGGRESSOR, seed=2)]
    seen = 0
    while not state.is_over and state.turns_played < 14:
        for me in range(state.n_players):
            turns, scale = (1, 0.8) if state.phase == BATTLE else (2, 0.6)
            want = np.zeros(info.n, dtype=np.float32)
            for u in range(state.n_units):
                t, o = state.u_type[u], state.u_owner[u]
                if (o == me or state.u_where[u] not in (ON_BOARD, LOADED)
                        or T.battle_turns_left(state, o) <= 0 or t == FREIGHTER):
                    continue
                row = (info.SEA_APPROACH(state.wind)[state.u_cell[u]].astype(np.float32) if IS_SHIP[t]
                       else info.reach_row(state, u).astype(np.float32) - 1.0)
                span = float(UNIT_MOVEMENT[t]) + 1.0
                risk = 1.0 - np.maximum(0.0, row - span) / (span * turns + 1.0)
                np.maximum(want, np.clip(risk, 0.0, 1.0) * scale, out=want)
                seen += 1
            assert list(T.approach_risk(state, info, me)) == want.tolist()
        legal = legal_actions(state)
        apply_action(state, bots[state.current_player].decide(state, legal), legal)
    assert seen > 100


def test_recent_positions_can_be_shared_between_threads():
    """The map tables (and their threat cache) are shared by every bot of the process, the
    web server's thinking threads included: racing look-ups never raise or mix up values."""
    import threading
    kept = T.Recent(8)
    errors: list[BaseException] = []

    def hammer(seed: int) -> None:
        rng = random.Random(seed)
        try:
            for _ in range(20_000):
                k = rng.randrange(24)
                assert kept.get(("key", k), lambda: k * k) == k * k
        except BaseException as e:  # noqa: BLE001 - reported below
            errors.append(e)

    threads = [threading.Thread(target=hammer, args=(i,)) for i in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert not errors
    assert len(kept._d) <= 8


# ------------------------------------------------------------------------------ search
def test_the_kinds_table_holds_each_searchs_default_budget():
    # the web app's guard reads these; each must be the default its agent runs at
    pytest.importorskip("torch")
    from agents.az import AZSearchAgent
    from agents.heuristic.search import PPO_SEARCH_ITERATIONS
    from agents.heuristic.ppo_search import PPOSearchAgent
    from agents.registry import KINDS
    import inspect
    defaults = {"search": inspect.signature(SearchAgent).parameters["iterations"].default,
                "ppo-search": inspect.signature(PPOSearchAgent).parameters["iterations"].default,
                "az-search": inspect.signature(AZSearchAgent).parameters["simulations"].default}
    assert {k: KINDS[k].default_budget for k in defaults} == defaults
    assert defaults["ppo-search"] == PPO_SEARCH_ITERATIONS
    assert all(KINDS[k].default_budget == 0 for k in KINDS if not KINDS[k].budget)


def test_search_respects_its_budget():
    state = new_game(load_map("duel"), seed=2)
    state.record_events = False
    bot = SearchAgent(iterations=6, seed=1)
    other = make_agent("greedy", seed=2)
    searched = 0
    while not state.is_over and state.turns_played < 6:
        legal = legal_actions(state)
        if state.current_player == 0:
            before = bot.simulations
            code = bot.decide(state, legal)
            assert bot.last_simulations == bot.simulations - before <= 6
            searched += bot.last_simulations > 0
            if len(legal) == 1:
                assert bot.last_simulations == 0
        else:
            code = other.decide(state, legal)
        apply_action(state, code, legal)
    assert searched > 5


def test_search_time_limit():
    state = new_game(load_map("duel"), seed=4)
    bot = SearchAgent(iterations=10**6, ms=20, seed=1)
    # Play to the battle phase with the heuristic, then ask the search bot.
    greedy = make_agent("greedy", seed=1)
    while state.phase != BATTLE:
        legal = legal_actions(state)
        apply_action(state, greedy.decide(state, legal), legal)
    import time
    t = time.perf_counter()
    legal = legal_actions(state)
    assert bot.decide(state, legal) in legal
    assert time.perf_counter() - t < 1.0


def _searched_positions(bot: SearchAgent, seed: int, monkeypatch, turns: int = 12) -> list:
    """Play ``bot`` (seat 0) against greedy into the battle phase; for every decision it searched,
    (turns played then, the states its simulations evaluated, its candidates' policy scores)."""
    import agents.heuristic.search as S
    seen: list = []
    scores: list = []
    real_eval, real_search = S.evaluate, SearchAgent._search

    def spy_eval(s, info, me, weights=T.DEFAULT_EVAL):
        seen.append((s.turns_played, s.is_over))
        return real_eval(s, info, me, weights)

    def spy_search(self, state, cands, legal, policy_score):
        scores.append([policy_score[c] for c in cands])
        return real_search(self, state, cands, legal, policy_score)

    monkeypatch.setattr(S, "evaluate", spy_eval)
    monkeypatch.setattr(SearchAgent, "_search", spy_search)
    state = new_game(load_map("duel"), seed=seed)
    state.record_events = False
    bot.reset(0, seed)
    other = make_agent("greedy", seed=seed + 1)
    out = []
    while not state.is_over and state.turns_played < turns:
        legal = legal_actions(state)
        if state.current_player == 0:
            seen.clear()
            scores.clear()
            now = state.turns_played
            code = bot.decide(state, legal)
            if state.phase == BATTLE and bot.last_simulations:
                out.append((now, list(seen), scores[-1]))
        else:
            code = other.decide(state, legal)
        apply_action(state, code, legal)
    return out


def test_search_simulates_the_next_players_turn(monkeypatch):
    """By default a simulation goes on through the next player's turn; without a reply
    policy it stops at the end of mine."""
    # Game seed 4: a game whose searched decisions come before the last turns (seed 3's did
    # until surrender in the build phase was judged with that phase's movement, rules T7).
    searched = _searched_positions(SearchAgent(iterations=4, seed=1), seed=4,
                                   monkeypatch=monkeypatch)
    assert searched
    assert any(t == now + 2 for now, seen, _ in searched for t, over in seen if not over)
    assert all(t <= now + 2 for now, seen, _ in searched for t, _ in seen)
    short = _searched_positions(SearchAgent(iterations=4, seed=1, reply_style=None), seed=4,
                                monkeypatch=monkeypatch)
    assert short and all(t <= now + 1 for now, seen, _ in short for t, _ in seen)


def test_search_leaves_out_what_the_policy_scores_below_min_score(monkeypatch):
    bot = SearchAgent(iterations=4, seed=2, min_score=0.0)
    searched = _searched_positions(bot, seed=5, monkeypatch=monkeypatch)
    assert searched and all(min(sc) >= 0.0 and len(sc) >= 2 for _, _, sc in searched)


def _a_searched_decision(seed: int):
    """A battle-phase state, its legal codes, and the greedy heuristic's scores of them, at a
    decision with several choices."""
    state = new_game(load_map("duel"), seed=seed)
    state.record_events = False
    greedy = make_agent("greedy", seed=seed)
    while True:
        legal = legal_actions(state)
        if state.phase == BATTLE and len(legal) > 6:
            return state, legal, sorted(greedy.scored(state, legal), reverse=True)
        apply_action(state, greedy.decide(state, legal), legal)


def test_search_plays_a_proposed_candidate_when_its_simulations_are_best(monkeypatch):
    """``choose(..., proposed)``: another policy's proposal joins the candidates even when the
    heuristic ranks it last, with no prior handicap, so the simulations alone decide."""
    state, legal, ranked = _a_searched_decision(seed=7)
    outsider = ranked[-1][1]  # the heuristic's worst code: never among its own candidates
    bot = SearchAgent(iterations=8, seed=1)
    assert bot.decide(state, legal) != outsider
    tried: list[int] = []

    def fake_simulate(self, s, code, legal, me, seed, info):
        tried.append(code)
        return 5.0 if code == outsider else 0.0
    monkeypatch.setattr(SearchAgent, "_simulate", fake_simulate)
    assert bot.choose(state, legal, proposed=[outsider]) == outsider
    assert outsider in tried and len(set(tried)) >= 2  # searched beside the heuristic's own
    monkeypatch.setattr(SearchAgent, "_simulate", lambda *a: 0.0)  # a tie: the heuristic's order wins
    assert bot.choose(state, legal, proposed=[outsider]) == ranked[0][1]


def test_search_without_proposals_is_the_search_bot():
    state, legal, _ = _a_searched_decision(seed=8)
    a, b = SearchAgent(iterations=6, seed=3), SearchAgent(iterations=6, seed=3)
    assert a.decide(state, legal) == b.choose(state, legal, proposed=[])
    assert a.last_simulations == b.last_simulations


# ------------------------------------------------------------------------------ tactics
def test_close_combat_odds():
    assert T.close_win_prob(1, 1) == pytest.approx(0.5)
    assert T.close_win_prob(2, 2) == pytest.approx(0.5)
    # 3 dice against 1: P(A > D) / (1 - P(A = D)), by enumeration.
    win = tie = 0
    for a in range(6 ** 3):
        da = [a % 6 + 1, a // 6 % 6 + 1, a // 36 + 1]
        for d in range(1, 7):
            win += max(da) > d
            tie += max(da) == d
    total = 6 ** 4
    assert T.close_win_prob(3, 1) == pytest.approx((win / total) / (1 - tie / total))
    assert T.close_win_prob(6, 3) == 1.0  # overwhelm
    assert T.close_win_prob(1, 3) < 0.25 < T.close_win_prob(3, 1) - 0.5


def test_ranged_and_breach_odds():
    assert T.ranged_hit_prob(1, 1) == pytest.approx(0.5)
    assert T.ranged_hit_prob(2, 2) == pytest.approx(1 - (4 / 6) ** 2)
    assert T.ranged_hit_prob(3, 3) == pytest.approx(1 - (5 / 6) ** 3)
    assert T.breach_prob(3) == pytest.approx(0.875)


def test_preview_dice_reads_flanking_without_recording():
    sc = Scenario(make_map(), phase="battle")
    sc.development(0, "camp", (-4, 0))
    sc.unit(0, "soldier", (-1, 0))
    sc.unit(0, "cavalry", (1, 0))
    sc.unit(1, "soldier", (0, 0))
    state = sc.build()
    target = state.gmap.board.index[(0, 0)]
    west, east = 3, 0  # directions from the target towards each attacker
    assert T.preview_dice(state, 3, target, east, ranged=False) == 3
    act(state, "activate soldier", (-1, 0))
    state.forced_dice[:] = [1, 6]
    act(state, "attack", (0, 0))  # the feint: sets the front to the west
    front, attacks = dict(state.front), dict(state.attacks)
    assert T.preview_dice(state, 3, target, east, ranged=False) == 6  # from the rear
    assert T.preview_dice(state, 3, target, west, ranged=False) == 3  # from the front: no bonus
    assert state.front == front and state.attacks == attacks
    victim = T.defender(state, target)
    cav = state.gmap.board.index[(1, 0)]
    assert T.attack_prob(state, 3, target, cav, 0, victim) == 1.0  # overwhelm


def test_split_legal_groups_codes():
    state = new_game(load_map("duel"), seed=1)
    n = state.gmap.board.n_cells
    legal = legal_actions(state)
    groups = T.split_legal(legal, n)
    # The game opens with the freighter loads: global verbs, numbered where a cell would be.
    assert set(groups) == {"load"}
    assert [g for _, g, _ in groups["load"]] == [A.LOAD + i for i in range(len(FREIGHTER_SPLITS))]
    assert all(T.verb_group(code, n) == "load" for code in legal)
    for _ in range(state.n_players):
        apply_action(state, legal_actions(state)[0])
    legal = legal_actions(state)
    groups = T.split_legal(legal, n)
    assert set(groups) == {"place"}
    assert sum(len(v) for v in groups.values()) == len(legal)
    assert T.verb_group(A.encode_global(A.NO_DEFENCE, n), n) == "no_defence"
    assert T.verb_group(A.encode(A.CHOOSE + 2, 5, n), n) == "choose"
    assert T.verb_group(A.encode(A.SHOOT, 5, n), n) == "shoot"
    assert T.verb_group(A.encode(A.ATTACK_FROM, 5, n), n) == "attack_from"


# ------------------------------------------------------------------------------ objectives
def test_bots_seize_an_undefended_development():
    sc = Scenario(make_map(), phase="battle")
    sc.development(0, "camp", (-4, 0))
    sc.unit(0, "soldier", (0, 0))
    sc.development(1, "fort", (1, 0))
    sc.development(1, "camp", (3, -3))
    sc.unit(1, "soldier", (3, -2))
    state = sc.build()
    for style in (GREEDY, AGGRESSOR, BUILDER):
        bot = HeuristicAgent(style, seed=1)
        code = bot.decide(state, legal_actions(state))
        assert code == code_for(state, "seize", (1, 0)), style.name


def test_aggressor_plays_the_feint_for_an_overwhelm():
    """A soldier attacks first (sets the front), then the cavalry strikes from the rear."""
    sc = Scenario(make_map(), phase="battle", silver=4)
    sc.development(0, "camp", (-4, 0))
    sc.unit(0, "soldier", (-1, 0))
    sc.unit(0, "cavalry", (1, 0))
    sc.unit(1, "cavalry", (0, 0))
    state = sc.build()
    bot = HeuristicAgent(AGGRESSOR, seed=0)
    state.forced_dice[:] = [1, 6]  # the soldier loses its feint
    seen = []
    for _ in range(12):
        legal = legal_actions(state)
        code = bot.decide(state, legal)
        apply_action(state, code, legal)
        seen.append(code)
        if state.current_player != 0 or code == A.encode_global(A.END_TURN, state.gmap.board.n_cells):
            break
    battles = [e for e in state.events if e["event"] == "battle"]
    assert any(e.get("overwhelm") for e in battles), battles


def test_retaliation_attacks_or_declines():
    sc = Scenario(make_map(), phase="battle")
    sc.development(0, "camp", (-4, 0))
    sc.development(1, "camp", (4, -4))
    sc.unit(0, "cavalry", (0, 0))
    sc.unit(1, "soldier", (1, 0))
    sc.unit(1, "soldier", (0, 1))
    state = sc.build()
    act(state, "activate cavalry", (0, 0))
    state.forced_dice[:] = [6, 6, 6, 1]
    act(state, "attack", (1, 0))
    act(state, "end activation")
    assert state.retaliator == 1
    bot = HeuristicAgent(GREEDY, seed=0)
    code = bot.decide(state, legal_actions(state))
    assert code == code_for(state, "activate soldier", (0, 1))
    # With nothing to attack, the retaliation is declined.
    sc = Scenario(make_map(), phase="battle")
    sc.development(0, "camp", (-4, 0))
    sc.development(1, "camp", (4, -4))
    sc.unit(0, "archer", (0, 0))
    sc.unit(1, "soldier", (0, 3))
    sc.unit(1, "soldier", (-3, 4))
    state = sc.build()
    act(state, "activate archer", (0, 0))
    state.forced_dice[:] = [1, 1]
    act(state, "shoot", (0, 3))
    act(state, "end activation")
    assert state.retaliator == 1
    code = bot.decide(state, legal_actions(state))
    verb, _, g = A.decode(code, state.gmap.board.n_cells)
    assert g == A.END_TURN or A.ACTIVATE <= verb < A.MOVE


def test_builder_builds_the_complex_in_one_turn():
    sc = Scenario(make_map(), phase="build")
    sc.unit(0, "soldier", (0, 0))
    sc.unit(1, "soldier", (4, -4))
    state = sc.build()
    bot = HeuristicAgent(BUILDER, seed=0)
    for _ in range(20):
        legal = legal_actions(state)
        apply_action(state, bot.decide(state, legal), legal)
        if state.turn_player != 0:
            break
    assert any(e["event"] == "award" and e["award"] == "complex" for e in state.events)


def test_expected_attack_tokens():
    sc = Scenario(make_map(), phase="battle")
    sc.development(0, "camp", (-4, 0))
    cav = sc.unit(0, "cavalry", (0, 0))
    arch = sc.unit(0, "archer", (0, 3))
    sc.unit(1, "soldier", (1, 0))
    sc.unit(1, "archer", (0, 1))
    state = sc.build()
    index = state.gmap.board.index
    p, victim = T.attack_odds(state, cav, index[(1, 0)])
    assert p == pytest.approx(T.close_win_prob(3, 1)) and victim >= 0
    assert T.expected_attack_tokens(state, cav, index[(1, 0)]) == pytest.approx(p * 1)
    # Two hexes down the archer's ray: range 2, two dice, hits on 1-2; an archer is worth 2.
    p, _ = T.attack_odds(state, arch, index[(0, 1)])
    assert p == pytest.approx(T.ranged_hit_prob(2, 2))
    assert T.expected_attack_tokens(state, arch, index[(0, 1)]) == pytest.approx(2 * p)


def test_a_time_limited_search_stops_within_one_simulation_of_its_limit():
    """``search:Mms`` checks its clock after every simulation, not after a round over all the
    candidates: the web app's cap on thinking (``--think-ms``) holds to one simulation."""
    import time

    state = new_game(load_map("duel"), seed=0)
    legal = legal_actions(state)
    bot = SearchAgent(iterations=10**9, ms=5, seed=0)
    bot.reset(0, 0)
    calls = []

    def slow_simulation(*args):
        calls.append(1)
        time.sleep(0.02)
        return 0.0

    bot._simulate = slow_simulation
    cands = legal[:6]
    start = time.perf_counter()
    bot._search(state, cands, legal, {c: 0.0 for c in cands})
    assert len(calls) == 1 and bot.last_simulations == 1  # a round over 6 would be 6
    assert time.perf_counter() - start < 0.5
