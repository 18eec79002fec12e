"""Soak test: hundreds of seeded games played to the end, and proof that the rules get exercised.

``SOAK_RANDOM`` games use uniform random legal play and ``SOAK_EAGER`` the eager bot of
``tools.demo`` (it picks attacks, seizes and builds before ending the turn), spread over 2, 3
and 4 players on generated maps. Every game must end within ``MAX_DECISIONS`` without an
exception and with someone to act at every step. Across the soak, every kind of thing the rules
can make happen must happen at least once: uniform random play alone already fights battles,
captures, sinks, seizes, retaliates, breaches and builds walls (asserted on its games alone); the
rarer results (rescues, surrenders, artillery fire, every award) are asserted over the whole soak.
The players' decisions of rules v1 and v2 must be taken too (``NEW_DECISIONS``: the freighter
loads, once per player and game; "choose <unit>", "attack from", "shoot", "no defence"; v2's
"choose variant", "hold prisoner", "place rescued"), already under uniform random play, and every
kind of pending question must be answered somewhere in the soak. The heuristic bots take v2's
decisions too (``test_bots_take_the_v2_decisions``).
Overwhelm (6 attack dice) needs several attacks on one hex in a turn and does not happen under
either policy, so it is left to the scenario tests.

The narrator is tested here too: every event of every soak game narrates to a non-empty line, and
known events give the expected sentences.
"""

from __future__ import annotations

import random
from collections import Counter

from conftest import make_map

from tools.demo import eager_bot, random_bot
from vigtavl_env.engine import actions as A
from vigtavl_env.engine import apply_action, legal_actions, new_game
from vigtavl_env.engine.maps import generate_map
from vigtavl_env.engine.narrate import narrate
from vigtavl_env.engine.scenario import Scenario, act
from vigtavl_env.engine.state import OVER, GameState

SOAK_RANDOM = 200
SOAK_EAGER = 100
PLAYER_COUNTS = (2, 3, 4)
MAX_DECISIONS = 5000

# Seen in uniform random play alone.
COMMON = {
    "battle", "captured", "sunk", "seized", "retaliation", "breach", "wall", "occupy", "retreat",
    "discharge", "recruit", "wall_taken_down", "ranged", "move",
}
# Seen somewhere in the soak.
RARE = {
    "rescued", "surrender", "seized_artillery", "artillery_fire", "tow", "award:citadel",
    "award:complex", "award:great_wall", "award:general", "award:admiral", "award:builder",
}


# The decisions of rules v1 that the engine used to take itself; each must be taken in the soak.
NEW_DECISIONS = {"load", "choose", "attack from", "shoot", "no defence", "choose variant", "hold prisoner",
                 "place rescued"}
# The questions the decisions above answer, by pending kind (state.CHOOSE_*).
CHOICE_KINDS = ("side", "defender", "guard", "breacher", "seizer", "variant", "prison", "rescue")
V2_KINDS = CHOICE_KINDS[5:]


def decision_kind(state: GameState, code: int) -> str:
    """What kind of decision ``code`` is, in the words of NEW_DECISIONS (else the verb's name)."""
    verb, _, g = A.decode(code, state.gmap.board.n_cells)
    if g >= 0:
        return "choose variant" if g >= A.VARIANT else "load" if g >= A.LOAD else A.GLOBAL_NAMES[g]
    return "choose" if A.CHOOSE <= verb < A.CHOOSE + 6 else A.VERB_NAMES[verb]


def play(n_players: int, seed: int, bot, decisions: Counter | None = None) -> GameState:
    """One seeded game to the end; fails if anyone must act with nothing legal. ``decisions``
    counts the kinds of decision taken (:func:`decision_kind`), and the pending questions
    answered (``"answer:<kind>"``)."""
    state = new_game(generate_map(n_players, seed), seed=seed)
    rng = random.Random(seed)
    for _ in range(MAX_DECISIONS):
        if state.phase == OVER:
            return state
        legal = legal_actions(state)
        assert legal, f"seed {seed}: player {state.current_player} has no legal action"
        code = bot(state, legal, rng)
        if decisions is not None:
            decisions[decision_kind(state, code)] += 1
            if state.pending is not None:
                decisions["answer:" + CHOICE_KINDS[state.pending.kind]] += 1
        apply_action(state, code, legal)
    raise AssertionError(f"{n_players}-player game seed {seed} not over after {MAX_DECISIONS} decisions")


def tally(state: GameState, counts: Counter) -> None:
    """Count what happened, with finer kinds than the event names, and narrate every event."""
    for e in state.events:
        kind = e["event"]
        counts[kind] += 1
        if kind == "build" and e.get("what") == "wall":
            counts["wall"] += 1
        elif kind == "award":
            counts["award:" + e["award"]] += 1
        elif kind == "battle":
            counts["ranged"] += bool(e.get("ranged"))
            counts["artillery_fire"] += bool(e.get("artillery"))
            counts["overwhelm"] += bool(e.get("overwhelm"))
        elif kind == "move" and e.get("artillery"):
            counts["tow"] += 1
        line = narrate(e, state)
        assert isinstance(line, str) and line.strip(), f"empty narration of {e}"


def test_soak_games_end_and_exercise_the_rules():
    uniform, everything = Counter(), Counter()
    decisions, random_decisions = Counter(), Counter()
    games, seats = Counter(), 0
    for g in range(SOAK_RANDOM):
        n = PLAYER_COUNTS[g % 3]
        state = play(n, g, random_bot, random_decisions)
        assert state.events[-1]["event"] == "game_over"
        tally(state, uniform)
        games[n] += 1
        seats += n
    everything.update(uniform)
    decisions.update(random_decisions)
    for g in range(SOAK_EAGER):
        n = PLAYER_COUNTS[g % 3]
        state = play(n, 10_000 + g, eager_bot, decisions)
        tally(state, everything)
        games[n] += 1
        seats += n
    assert uniform["game_over"] == SOAK_RANDOM
    assert everything["game_over"] == SOAK_RANDOM + SOAK_EAGER
    # Many games of each player count.
    assert sorted(games) == list(PLAYER_COUNTS), games
    assert min(games.values()) >= (SOAK_RANDOM + SOAK_EAGER) // 3 - 1, games
    missing_common = sorted(k for k in COMMON if not uniform[k])
    missing_rare = sorted(k for k in RARE if not everything[k])
    assert not missing_common, f"never happened under uniform random play: {missing_common}"
    assert not missing_rare, f"never happened in the soak: {missing_rare}"
    # The players' decisions of rules v1 are taken: each player loads once a game, and the
    # questions of every kind are asked and answered.
    assert decisions["load"] == everything["load"] == seats
    never = sorted(k for k in NEW_DECISIONS if not decisions[k])
    assert not never, f"decisions never taken in the soak: {never}"
    never = sorted(k for k in CHOICE_KINDS if not decisions["answer:" + k])
    assert not never, f"questions never answered in the soak: {never}"
    never = sorted(k for k in NEW_DECISIONS if not random_decisions[k])
    assert not never, f"decisions never taken under uniform random play: {never}"


# ----------------------------------------------------------------------------- the narrator
def test_narrate_known_events():
    sc = Scenario(make_map(), phase="battle")
    sc.development(0, "camp", (-4, 0))
    cav = sc.unit(0, "cavalry", (0, 0))
    soldier = sc.unit(1, "soldier", (1, 0))
    state = sc.build()
    act(state, "activate cavalry", (0, 0))
    state.forced_dice[:] = [6, 5, 2, 3]  # three attack dice, then one defence die
    act(state, "attack", (1, 0))
    lines = [narrate(e, state) for e in state.events]
    assert lines == [
        "P0 activates a cavalry at (0,0)",
        "P0's cavalry attacks (1,0) with 3 dice against P1's soldier: rolls 6 5 2 vs 3 - wins",
        "P1's soldier is captured at (1,0) and held prisoner by P0 at (-4,0)",
    ]
    flank = dict(event="battle", player=0, unit=cav, cell=state.events[1]["cell"], defender=soldier,
                 owner=1, dice=4, ranged=0, artillery=False, rolls=[[[4, 4, 1, 2], [4]], [[5, 1, 1, 1], [2]]],
                 won=True)
    assert narrate(flank, state) == (
        "P0's cavalry attacks (1,0) with 4 dice (flank or attrition +1) against P1's soldier: "
        "rolls 4 4 1 2 vs 4 (tie, re-roll), 5 1 1 1 vs 2 - wins")
    assert narrate({"event": "award", "award": "citadel", "tokens": 2, "player": 0}, state) == "Citadel: P0 takes 2 tokens"
    assert narrate({"event": "retaliation", "player": 1, "against": 0}, state) == "P1 retaliates against P0 with 1 silver"
    breach = {"event": "breach", "player": 0, "unit": cav, "owner": 1, "edge": state.gmap.board.edge[0][0],
              "dice": [4, 2, 6], "success": True}
    assert narrate(breach, state).endswith("with 3 dice: 4 2 6 - breached")


def test_narrate_with_only_a_map_and_unknown_events():
    state = play(2, 1, random_bot)
    for e in state.events:
        assert narrate(e, state.gmap).strip()
    line = narrate({"event": "comet_sighted", "player": 1, "cell": 3}, state)
    assert "comet_sighted" in line and line.startswith("P1")
    assert narrate({"event": "battle", "player": 0}, state).strip()  # fields missing: generic line


def test_soak_counts_are_seeded():
    a, b = Counter(), Counter()
    tally(play(3, 5, eager_bot), a)
    tally(play(3, 5, eager_bot), b)
    assert a == b


def test_bots_take_the_v2_decisions():
    """The heuristic bots meet and answer every question rules v2 added (which of unalike units,
    the prison hex, a rescued unit's hex) in seeded games on the preset maps."""
    from agents.registry import make_agent
    from vigtavl_env.engine.maps import load_map

    asked = Counter()
    for seed in range(8):
        for name, styles in (("duel", ("greedy", "aggressor")), ("triad", ("builder", "greedy", "aggressor"))):
            state = new_game(load_map(name), seed=seed)
            bots = [make_agent(style, seed=seed + i) for i, style in enumerate(styles)]
            while state.phase != OVER:
                legal = legal_actions(state)
                if state.pending is not None:
                    asked[CHOICE_KINDS[state.pending.kind]] += 1
                apply_action(state, bots[state.current_player].decide(state, legal), legal)
    never = [k for k in V2_KINDS if not asked[k]]
    assert not never, f"v2 questions never asked of the bots: {never} ({dict(asked)})"
