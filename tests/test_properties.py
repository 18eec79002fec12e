"""Property tests of the whole engine: random legal play on generated maps keeps every invariant.

Hypothesis draws the map seed, the game seed (dice) and the policy seed; the player count is a
parameter so 2, 3 and 4 players are always covered. After every decision the state is checked
against the rules' invariants (see ``check_invariants``); a sample of the other listed decisions
is applied to clones (every listed decision must apply); the JSON round trip is checked every
``ROUND_TRIP_EVERY`` decisions; the decisions offered must fit the moment (``check_decisions``:
the load decisions at the start, only the answers while a choice is pending, asked of its
player). Half the examples use the eager bot of ``tools.demo`` (it
prefers attacks, seizes and builds), so battles, captures and walls happen often.

docs/rules.md cites ``test_random_play_invariants`` for: occupancy, terrain, one player per hex,
freighter cargo, money never negative, tokens never taken back, award flags never cleared.

Also here: determinism (the same seeds and decisions give the same game), events as a record
only (``record_events`` off changes nothing else), and a check that the checker itself catches
hand-broken states.
"""

from __future__ import annotations

import random
from collections import Counter

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tools.demo import eager_bot, random_bot
from vigtavl_env.engine import apply_action, from_json, legal_actions, new_game, to_dict, to_json
from vigtavl_env.engine.maps import generate_map
from vigtavl_env.engine import actions as A
from vigtavl_env.engine.state import (
    CHOOSE_BREACHER, CHOOSE_DEFENDER, CHOOSE_GUARD, CHOOSE_PRISON, CHOOSE_RESCUE_SPOT, CHOOSE_SEIZER,
    CHOOSE_SIDE, CHOOSE_VARIANT, LOADED, ON_BOARD, OVER, PLACEMENT, PRISONER, RESERVE, GameState,
)
from vigtavl_env.engine.stats import (
    ARTILLERY_OCCUPANCY, DEV_OCCUPANCY, FREIGHTER, FREIGHTER_CAPACITY, FREIGHTER_SPLITS, IS_SHIP,
    MAX_OCCUPANCY,
)

MAX_DECISIONS = 5000  # a game that is not over after this many decisions never ends
ROUND_TRIP_EVERY = 20
CLONE_SAMPLE = 2  # other listed decisions applied to clones, per decision
EXAMPLES_PER_COUNT = 20

seed = st.integers(0, 2**32 - 1)
SETTINGS = settings(max_examples=EXAMPLES_PER_COUNT, deadline=None,
                    suppress_health_check=[HealthCheck.too_slow])


def check_invariants(s: GameState, prev_tokens: list[int], prev_awards: list[int]) -> None:
    """Every invariant of the rules that a state must satisfy between decisions."""
    n = s.gmap.board.n_cells
    occ = [DEV_OCCUPANCY[t] for t in s.dev_type]
    holders: list[set[int]] = [set() for _ in range(n)]
    _check_fixtures(s, occ, holders)
    _check_units(s, occ, holders)
    assert occ == list(s.occ), "occupancy table disagrees with the pieces"
    assert max(occ) <= MAX_OCCUPANCY
    for c in range(n):
        assert len(holders[c]) <= 1, f"hex {c} held by players {sorted(holders[c])}"
        expect = next(iter(holders[c])) if holders[c] else -1
        assert s.cell_player[c] == expect, f"hex {c}: cell_player {s.cell_player[c]}, pieces say {expect}"
    assert min(s.gold) >= 0 and min(s.silver) >= 0, f"negative money: {s.gold} {s.silver}"
    assert all(t >= p for t, p in zip(s.tokens, prev_tokens)), f"tokens fell: {prev_tokens} -> {s.tokens}"
    assert all(a & p == p for a, p in zip(s.awards, prev_awards)), f"award cleared: {prev_awards} -> {s.awards}"


def _check_fixtures(s: GameState, occ: list[int], holders: list[set[int]]) -> None:
    """Developments and artillery: on land only; they count towards occupancy and hold the hex."""
    for c in range(s.gmap.board.n_cells):
        if s.dev_owner[c] >= 0:
            assert s.dev_type[c] > 0 and s.gmap.is_land[c], f"development on hex {c} not on land"
            holders[c].add(s.dev_owner[c])
        else:
            assert s.dev_type[c] == 0, f"hex {c}: development without owner"
        if s.art_owner[c] >= 0:
            assert s.gmap.is_land[c], f"artillery on hex {c} not on land"
            occ[c] += ARTILLERY_OCCUPANCY
            holders[c].add(s.art_owner[c])


def _check_units(s: GameState, occ: list[int], holders: list[set[int]]) -> None:
    """Ships at sea, knights ashore or aboard their own freighter (at most 3 aboard), prisoners on
    their holder's development (a rescued unit waits for its rescuer's "place rescued", v2)."""
    gmap, n = s.gmap, s.gmap.board.n_cells
    cargo: Counter[int] = Counter()
    for u, w in enumerate(s.u_where):
        c, owner, t = s.u_cell[u], s.u_owner[u], s.u_type[u]
        if w == ON_BOARD:
            assert 0 <= c < n, f"unit {u} on the board without a hex"
            if IS_SHIP[t]:
                assert gmap.is_sea[c], f"ship {u} on hex {c}, not at sea"
            else:
                assert gmap.is_land[c], f"knight {u} on the board on hex {c}, not on land"
            occ[c] += 1
            holders[c].add(owner)
        elif w == LOADED:
            f = s.u_carrier[u]
            assert not IS_SHIP[t], f"ship {u} is loaded"
            assert 0 <= f < len(s.u_type) and s.u_type[f] == FREIGHTER, f"unit {u} loaded on non-freighter {f}"
            # A freighter still in reserve (placement) carries its starting load.
            assert s.u_where[f] in (ON_BOARD, RESERVE), f"unit {u} aboard lost freighter {f}"
            assert s.u_owner[f] == owner, f"unit {u} aboard a foreign freighter {f}"
            assert c == s.u_cell[f], f"loaded unit {u} at {c}, its freighter {f} at {s.u_cell[f]}"
            cargo[f] += 1
        elif w == PRISONER:
            holder = s.u_holder[u]
            if holder == -1:  # v2 (F9): freed, standing nowhere until its rescuer says where
                asked = s.pending is not None and s.pending.kind == CHOOSE_RESCUE_SPOT and s.pending.unit == u
                assert asked or any(a[0] == CHOOSE_RESCUE_SPOT and a[2] == u for a in s.asks), \
                    f"freed unit {u} stands nowhere and nobody is asked where"
                continue
            assert holder >= 0 and holder != owner, f"prisoner {u} held by {holder}"
            assert 0 <= c < n and s.dev_owner[c] == holder, f"prisoner {u} not on its holder's development"
    assert all(k <= FREIGHTER_CAPACITY for k in cargo.values()), f"overloaded freighter: {cargo}"


def check_decisions(s: GameState, legal: list[int]) -> None:
    """The decisions offered fit the moment: while the players load their freighters only the
    loads (asked in seat order); while a choice is pending only its answers, asked of the
    player the question belongs to (and a question with a single answer is never asked);
    otherwise no answer to a question nobody asked."""
    n = s.gmap.board.n_cells
    decoded = [A.decode(code, n) for code in legal]
    hex_verbs = {v for v, _, g in decoded if g < 0}
    glob = {g for v, _, g in decoded if g >= 0}
    loads = {A.LOAD + i for i in range(len(FREIGHTER_SPLITS))}
    variants = set(range(A.VARIANT, A.VARIANT + A.MAX_VARIANTS))
    choose = set(range(A.CHOOSE, A.CHOOSE + 6))
    if s.to_load:
        assert s.phase == PLACEMENT and s.current_player == s.to_load[0]
        assert not hex_verbs and glob == loads
        return
    assert not glob & loads, "a load decision after the setup"
    if s.pending is None:
        assert not any(v >= A.ATTACK_FROM for v in hex_verbs) and A.NO_DEFENCE not in glob, \
            "an answer with no question pending"
        assert not glob & variants, "a variant chosen with no question pending"
        return
    assert s.current_player == s.pending.player
    kind = s.pending.kind
    assert kind in (CHOOSE_SIDE, CHOOSE_DEFENDER, CHOOSE_GUARD, CHOOSE_BREACHER, CHOOSE_SEIZER, CHOOSE_VARIANT,
                    CHOOSE_PRISON, CHOOSE_RESCUE_SPOT)
    if kind == CHOOSE_SIDE:
        assert hex_verbs == {A.ATTACK_FROM} and not glob
    elif kind == CHOOSE_VARIANT:  # v2: which of the unalike units; the first k classes, at least two
        assert not hex_verbs and glob == set(range(A.VARIANT, A.VARIANT + len(glob))) and len(glob) >= 2
    elif kind == CHOOSE_PRISON:  # v2: which of several equally near developments
        assert hex_verbs == {A.HOLD_PRISONER} and not glob and len(legal) >= 2
    elif kind == CHOOSE_RESCUE_SPOT:  # v2: which of several equally near hexes with room
        assert hex_verbs == {A.PLACE_RESCUED} and not glob and len(legal) >= 2
    else:
        assert hex_verbs and hex_verbs <= choose
        assert glob <= ({A.NO_DEFENCE} if kind == CHOOSE_GUARD else set())


def play_checked(n_players: int, map_seed: int, game_seed: int, policy_seed: int, eager: bool) -> GameState:
    """Play one game, checking the invariants after every decision."""
    state = new_game(generate_map(n_players, map_seed), seed=game_seed)
    rng = random.Random(policy_seed)
    bot = eager_bot if eager else random_bot
    check_invariants(state, state.tokens, state.awards)
    for k in range(MAX_DECISIONS):
        if state.phase == OVER:
            break
        legal = legal_actions(state)
        assert legal, f"player {state.current_player} has no legal action"
        check_decisions(state, legal)
        tokens, awards = list(state.tokens), list(state.awards)
        for other in rng.sample(legal, min(CLONE_SAMPLE, len(legal))):
            trial = state.clone()
            apply_action(trial, other)
            check_invariants(trial, tokens, awards)
        apply_action(state, bot(state, legal, rng))
        check_invariants(state, tokens, awards)
        if k % ROUND_TRIP_EVERY == 0:
            text = to_json(state)
            assert to_json(from_json(text)) == text
    assert state.phase == OVER, f"game not over after {MAX_DECISIONS} decisions"
    text = to_json(state)
    assert to_json(from_json(text)) == text
    return state


@pytest.mark.parametrize("n_players", [2, 3, 4])
@SETTINGS
@given(map_seed=st.integers(0, 10**6), game_seed=seed, policy_seed=seed, eager=st.booleans())
def test_random_play_invariants(n_players, map_seed, game_seed, policy_seed, eager):
    play_checked(n_players, map_seed, game_seed, policy_seed, eager)


def _play_recorded(n_players: int, map_seed: int, game_seed: int, policy_seed: int) -> tuple[str, list[int]]:
    state = new_game(generate_map(n_players, map_seed), seed=game_seed)
    rng = random.Random(policy_seed)
    moves = []
    while state.phase != OVER:
        a = eager_bot(state, legal_actions(state), rng)
        moves.append(a)
        apply_action(state, a)
    return to_json(state), moves


@settings(max_examples=6, deadline=None)
@given(n_players=st.sampled_from([2, 3, 4]), map_seed=st.integers(0, 10**6), game_seed=seed, policy_seed=seed)
def test_same_seed_and_decisions_give_the_same_game(n_players, map_seed, game_seed, policy_seed):
    final, moves = _play_recorded(n_players, map_seed, game_seed, policy_seed)
    # Replay the recorded decisions on a fresh game: the dice come from the same seeded stream.
    state = new_game(generate_map(n_players, map_seed), seed=game_seed)
    for a in moves:
        apply_action(state, a)
    assert to_json(state) == final
    # And the policy too is deterministic given its seed.
    assert _play_recorded(n_players, map_seed, game_seed, policy_seed)[0] == final


@pytest.mark.parametrize("n_players, seed", [(2, 8), (3, 9), (4, 10)])
def test_events_are_only_a_record(n_players, seed):
    """With ``record_events`` off the game is the same, events aside."""
    finals = []
    for record in (True, False):
        state = new_game(generate_map(n_players, seed), seed=seed)
        state.record_events = record
        rng = random.Random(seed)
        while state.phase != OVER:
            legal = legal_actions(state)
            apply_action(state, eager_bot(state, legal, rng), legal)
        d = to_dict(state)
        d.pop("events")
        finals.append(d)
    assert finals[0] == finals[1]


def test_the_invariant_checker_catches_broken_states():
    """The checker itself: each hand-broken copy of a sound mid-game state fails it."""
    state = new_game(generate_map(2, 3), seed=3)
    rng = random.Random(3)
    while state.phase != OVER and not any(o >= 0 for o in state.dev_owner):
        legal = legal_actions(state)
        apply_action(state, eager_bot(state, legal, rng), legal)
    check_invariants(state, state.tokens, state.awards)
    gmap = state.gmap
    ship = next(u for u, w in enumerate(state.u_where) if w == ON_BOARD and IS_SHIP[state.u_type[u]])
    land = next(c for c in range(gmap.board.n_cells) if gmap.is_land[c] and state.occ[c] == 0)

    def occ_off(s: GameState) -> None:
        s.occ[land] += 1

    def ship_ashore(s: GameState) -> None:
        s.u_cell[ship] = land

    def negative_gold(s: GameState) -> None:
        s.gold[0] = -1

    def holder_wrong(s: GameState) -> None:
        s.cell_player[land] = 1

    for brk in (occ_off, ship_ashore, negative_gold, holder_wrong):
        broken = state.clone()
        brk(broken)
        with pytest.raises(AssertionError):
            check_invariants(broken, state.tokens, state.awards)
    with pytest.raises(AssertionError):  # tokens fell
        check_invariants(state, [t + 1 for t in state.tokens], state.awards)
    assert state.awards != [7] * state.n_players
    with pytest.raises(AssertionError):  # an award flag was cleared
        check_invariants(state, state.tokens, [7] * state.n_players)
