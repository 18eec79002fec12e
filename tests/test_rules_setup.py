"""Setup and placement rules (docs/rules.md rows S3-S6, U1/ST1/ST2, P2, P3)."""

from __future__ import annotations

from collections import Counter

import pytest
from conftest import load_freighters, make_map, refused

from vigtavl_env.engine import IllegalActionError, RulesConfig, legal_actions, new_game, to_json
from vigtavl_env.engine import actions as A
from vigtavl_env.engine import stats
from vigtavl_env.engine.scenario import Scenario, act, legal
from vigtavl_env.engine.state import CHOOSE_VARIANT, LOADED, ON_BOARD, PLACEMENT, RESERVE, BUILD
from vigtavl_env.engine.stats import (
    ARCHER, CAVALRY, CARAVEL, FREIGHTER, GALLEON, SOLDIER, UNIT_ALIASES, UNIT_NAMES,
)


def _types(state, player, where=None):
    return Counter(
        UNIT_NAMES[state.u_type[u]] for u in range(len(state.u_owner))
        if state.u_owner[u] == player and (where is None or state.u_where[u] == where)
    )


def _coords(state, cell):
    return state.gmap.board.coords[cell]


def test_starting_units():
    """S3: "3 soldiers, 2 archers, 1 cavalry; 3 caravels, 2 freighters, 1 galleon" each."""
    for n in (2, 3, 4):
        state = new_game(make_map(n), seed=1)
        assert state.phase == PLACEMENT
        # The ships are there from the start; the knights come aboard with each player's load
        # decision (S4).
        for p in range(n):
            assert _types(state, p) == Counter(caravel=3, freighter=2, galleon=1)
        assert load_freighters(state) == list(range(n))
        for p in range(n):
            assert _types(state, p) == Counter(
                soldier=3, archer=2, cavalry=1, caravel=3, freighter=2, galleon=1)
            # Ships wait in reserve for placement; the knights start aboard the freighters.
            assert _types(state, p, RESERVE) == Counter(caravel=3, freighter=2, galleon=1)
            assert _types(state, p, LOADED) == Counter(soldier=3, archer=2, cavalry=1)
        assert len(state.u_owner) == 12 * n
        assert all(c == -1 for c, w in zip(state.u_cell, state.u_where) if w == RESERVE)


def test_freighters_start_loaded():
    """S4: "Each player must load his 2 freighters with 3 land units each" (option freighter_loads)."""
    # The option fixes the split (here the rules-v0 engine's constant): no load decision.
    cfg = RulesConfig(freighter_loads=((SOLDIER, SOLDIER, ARCHER), (SOLDIER, ARCHER, CAVALRY)))
    state = new_game(make_map(2), cfg, seed=0)
    assert state.to_load == []
    for p in range(2):
        freighters = [u for u in range(len(state.u_owner))
                      if state.u_owner[u] == p and state.u_type[u] == FREIGHTER]
        assert len(freighters) == 2
        loads = [sorted(state.u_type[x] for x in state.cargo(f)) for f in freighters]
        assert all(len(load) == 3 for load in loads)
        # The fixed split: soldier+soldier+archer and soldier+archer+cavalry.
        assert sorted(loads) == sorted([[SOLDIER, SOLDIER, ARCHER], [SOLDIER, ARCHER, CAVALRY]])
        for f in freighters:
            assert all(state.u_owner[x] == p for x in state.cargo(f))

    # Another split through the option.
    cfg = RulesConfig(freighter_loads=((SOLDIER, SOLDIER, SOLDIER), (ARCHER, ARCHER, CAVALRY)))
    state = new_game(make_map(2), cfg, seed=0)
    loads = sorted(sorted(state.u_type[x] for x in state.cargo(f))
                   for f in range(len(state.u_owner))
                   if state.u_owner[f] == 0 and state.u_type[f] == FREIGHTER)
    assert loads == [[SOLDIER] * 3, [ARCHER, ARCHER, CAVALRY]]
    # A split that does not carry the six starting knights is refused.
    with pytest.raises(ValueError):
        RulesConfig(freighter_loads=((SOLDIER, SOLDIER, SOLDIER), (SOLDIER, ARCHER, CAVALRY)))

    # The cargo sails with its freighter when the freighter is placed. The two loads differ, so
    # which freighter goes first is asked next (V2, "choose variant k": the classes in canonical
    # order, soldier+soldier+archer before soldier+archer+cavalry); nothing is placed until then.
    state = new_game(make_map(2), seed=0)
    load_freighters(state)
    sea = next(c for v, c in legal(state) if v == "place freighter")
    act(state, "place freighter", sea)
    assert state.pending is not None and state.pending.kind == CHOOSE_VARIANT and state.current_player == 0
    assert legal(state) == [(A.GLOBAL_NAMES[A.VARIANT + k], None) for k in range(2)]
    assert not any(state.u_type[u] == FREIGHTER and state.u_where[u] == ON_BOARD for u in range(len(state.u_owner)))
    act(state, A.GLOBAL_NAMES[A.VARIANT + 1])
    placed = next(u for u in range(len(state.u_owner))
                  if state.u_type[u] == FREIGHTER and state.u_where[u] == ON_BOARD)
    assert sorted(state.u_type[x] for x in state.cargo(placed)) == [SOLDIER, ARCHER, CAVALRY]  # the one chosen
    cell = state.gmap.board.index[sea]
    assert state.u_cell[placed] == cell
    assert len(state.cargo(placed)) == 3
    assert all(state.u_cell[x] == cell and state.u_where[x] == LOADED for x in state.cargo(placed))


LOADS = [A.GLOBAL_NAMES[A.LOAD + i] for i in range(len(stats.FREIGHTER_SPLITS))]


def _cargo(state, player):
    """The two loads of a player's freighters, each sorted, the pair sorted."""
    return sorted(sorted(state.u_type[x] for x in state.cargo(f)) for f in range(len(state.u_owner))
                  if state.u_owner[f] == player and state.u_type[f] == FREIGHTER)


def test_players_load_their_freighters():
    """S4: "Each player must load his 2 freighters with 3 land units each": the game opens with
    one load decision per player, in seat order, before the placement; each of the three splits
    loads what it says; the option freighter_loads fixes a split and skips the decision."""
    # The three splits of 3 soldiers, 2 archers, 1 cavalry into two loads of 3.
    assert sorted(stats.FREIGHTER_SPLITS) == [
        ((SOLDIER,) * 3, (ARCHER, ARCHER, CAVALRY)),
        ((SOLDIER, SOLDIER, ARCHER), (SOLDIER, ARCHER, CAVALRY)),
        ((SOLDIER, SOLDIER, CAVALRY), (SOLDIER, ARCHER, ARCHER)),
    ]
    for n in (2, 3, 4):
        state = new_game(make_map(n), seed=n)
        n_cells = state.gmap.board.n_cells
        assert state.phase == PLACEMENT and state.to_load == list(range(n))
        order = []
        for p in range(n):
            # The only decisions are the three loads, asked of the next seat.
            assert state.current_player == p
            assert legal_actions(state) == [A.encode_global(A.LOAD + i, n_cells) for i in range(3)]
            assert legal(state) == [(name, None) for name in LOADS]
            assert _types(state, p, LOADED) == Counter()  # nothing aboard before his decision
            assert refused(state, "place caravel", _sea(state))  # no placement before the loads
            split = p % 3  # with three players or more, every split is chosen once
            order.append(state.current_player)
            act(state, LOADS[split])
            assert _cargo(state, p) == sorted(sorted(load) for load in stats.FREIGHTER_SPLITS[split])
            assert _types(state, p, LOADED) == Counter(soldier=3, archer=2, cavalry=1)
            assert state.events[-1]["event"] == "load" and state.events[-1]["player"] == p
            # Later seats have nothing aboard yet.
            assert all(_types(state, q, LOADED) == Counter() for q in range(p + 1, n))
        assert order == list(range(n))
        # Then the placement, seat 0 first; no more load decisions.
        assert state.to_load == [] and state.phase == PLACEMENT and state.current_player == 0
        assert {v for v, _ in legal(state)} == {"place caravel", "place freighter", "place galleon"}
        assert refused(state, LOADS[0])
        # Each player keeps the split he chose.
        for p in range(n):
            assert _cargo(state, p) == sorted(sorted(load) for load in stats.FREIGHTER_SPLITS[p % 3])

    # A load decision is refused in the build phase, with or without knights aboard.
    state = new_game(make_map(2), seed=7)
    load_freighters(state, split=2)
    while state.phase == PLACEMENT:
        act(state, *legal(state)[0])
    assert state.phase == BUILD
    for name in LOADS:
        assert refused(state, name)
    sc = Scenario(make_map(2), phase="build")
    sc.unit(0, "freighter", (0, -5))
    for name in LOADS:
        assert refused(sc.build(), name)

    # The fixed split: no decision, the knights are aboard from the start, placement at once.
    cfg = RulesConfig(freighter_loads=stats.FREIGHTER_SPLITS[0])
    state = new_game(make_map(3), cfg, seed=1)
    assert state.to_load == [] and state.current_player == 0
    assert {v for v, _ in legal(state)} == {"place caravel", "place freighter", "place galleon"}
    assert not any(v.startswith("load") for v, _ in legal(state))
    assert refused(state, LOADS[1])
    for p in range(3):
        assert _cargo(state, p) == [[SOLDIER] * 3, [ARCHER, ARCHER, CAVALRY]]


def _sea(state):
    """A sea hex (where a ship could be placed once the loads are decided)."""
    board = state.gmap.board
    return next(board.coords[c] for c in range(board.n_cells) if state.gmap.is_sea[c])


def test_wind_is_seeded_coin_flip():
    """S5: the prevailing wind is flipped like a coin, and the same seed gives the same wind."""
    gmap = make_map(2)
    winds = {seed: new_game(gmap, seed=seed).wind for seed in range(60)}
    assert set(winds.values()) == {1, -1}  # both sides of the coin come up
    # Neither side dominates over 60 flips (a fair coin gives 30 +- 12 well over 99.9% of the time).
    assert 15 <= sum(1 for w in winds.values() if w == 1) <= 45
    for seed, w in winds.items():
        assert new_game(gmap, seed=seed).wind == w
    # The wind is recorded in the setup event in words.
    state = new_game(gmap, seed=5)
    setup = next(e for e in state.events if e["event"] == "setup")
    assert setup["wind"] == ("clockwise" if state.wind == 1 else "counter-clockwise")


def test_unit_aliases():
    """S6: Knight/Infantry/Soldier and Galleon/Galley name the same pieces."""
    assert UNIT_ALIASES["knight"] == UNIT_ALIASES["infantry"] == UNIT_ALIASES["soldier"] == SOLDIER
    assert UNIT_ALIASES["galley"] == UNIT_ALIASES["galleon"] == GALLEON
    assert stats.DEV_ALIASES["encampment"] == stats.DEV_ALIASES["camp"] == stats.CAMP
    # One piece each: six unit types in all.
    assert len(stats.UNITS) == 6 and len(set(UNIT_ALIASES.values())) == 6
    gmap = make_map(2, sea=[(2, 0)])
    sc = Scenario(gmap, phase="build")
    k = sc.unit(0, "Knight", (0, 0))
    i = sc.unit(0, "infantry", (0, 1))
    g = sc.unit(0, "Galley", (2, 0))
    sc.development(0, "encampment", (-1, 0))
    state = sc.build()
    assert state.u_type[k] == state.u_type[i] == SOLDIER
    assert state.u_type[g] == GALLEON
    assert state.dev_type[state.gmap.board.index[(-1, 0)]] == stats.CAMP
    with pytest.raises(ValueError):
        Scenario(gmap).unit(0, "dragon", (0, 0))


def test_stats_table():
    """U1/ST1/ST2: the Stats table: cost, limit, attack range, movement of every piece."""
    # name: (cost, limit, per turn, attack range, movement)
    table = {
        SOLDIER: (1, 2, True, 0, 3),
        ARCHER: (2, 2, True, 3, 2),
        CAVALRY: (3, 2, True, 0, 4),
        CARAVEL: (1, 2, True, 0, 6),
        FREIGHTER: (2, 3, False, 0, 5),
        GALLEON: (3, 1, False, 3, 4),
    }
    for t, (cost, limit, per_turn, rng, mv) in table.items():
        row = stats.UNITS[t]
        assert (row.cost, row.limit, row.limit_per_turn, row.attack_range, row.movement) == (
            cost, limit, per_turn, rng, mv), UNIT_NAMES[t]
        assert stats.UNIT_COST[t] == cost and stats.UNIT_MOVEMENT[t] == mv
        assert stats.UNIT_RANGE[t] == rng
    # Freighter: +3 transport, -attack; ships and knights.
    assert stats.UNITS[FREIGHTER].transport == 3 and not stats.UNITS[FREIGHTER].can_attack
    assert [stats.IS_SHIP[t] for t in range(6)] == [False, False, False, True, True, True]
    # Wall 1 / unlimited; Camp 1; Fort 2; Castle 3; Artillery 2 / 1 / range 3.
    assert stats.WALL_COST == 1
    assert stats.DEV_COST[stats.CAMP] == 1
    assert stats.DEV_COST[stats.FORT] == 2
    assert stats.DEV_COST[stats.CASTLE] == 3
    assert (stats.ARTILLERY_COST, stats.ARTILLERY_LIMIT, stats.ARTILLERY_RANGE) == (2, 1, 3)
    # Occupancy: camp 1, fort 2, castle 3, artillery 2, at most 3 a hex.
    assert stats.DEV_OCCUPANCY[1:] == (1, 2, 3) and stats.ARTILLERY_OCCUPANCY == 2
    assert stats.MAX_OCCUPANCY == 3
    # Ranged hits: 1-3 at range 1, 1-2 at range 2, 1 at range 3.
    assert stats.RANGED_HIT_MAX == {1: 3, 2: 2, 3: 1}


def _players_in_placement(state):
    """Who places each ship, in order, taking the first legal decision; "which freighter"
    (V2, asked next of the placing player when his freighters differ) is not a placement."""
    seq = []
    while state.phase == PLACEMENT:
        verb, at = legal(state)[0]
        if verb.startswith("choose variant"):
            assert state.pending.kind == CHOOSE_VARIANT and state.current_player == seq[-1]
        else:
            assert verb.startswith("place ")
            seq.append(state.current_player)
        act(state, verb, at)
    return seq


def test_placement_alternates_one_ship():
    """P2: "Each player in turn sequentially places one of any of his ships" (seat 0 first)."""
    state = new_game(make_map(2), seed=3)
    load_freighters(state)  # S4 comes first
    before = _types(state, 0, RESERVE) + _types(state, 1, RESERVE)
    assert state.current_player == 0
    # One decision places exactly one ship, then the other player places.
    verb, at = next(x for x in legal(state) if x[0] == "place galleon")
    act(state, verb, at)
    assert state.current_player == 1
    after = _types(state, 0, RESERVE) + _types(state, 1, RESERVE)
    assert sum(before.values()) - sum(after.values()) == 1
    assert _types(state, 0, ON_BOARD) == Counter(galleon=1)
    seq = [0] + _players_in_placement(state)
    assert seq == [0, 1] * 6
    assert state.phase == BUILD and state.turn_player == 0 and state.round == 0
    assert all(w != RESERVE for w in state.u_where)

    # A seat with no ships left is skipped: seat 1 of three has only one ship to place.
    state = new_game(make_map(3), seed=3)
    for u in range(len(state.u_owner)):
        if state.u_owner[u] == 1 and state.u_type[u] in (CARAVEL, GALLEON):
            state.remove(u)  # seat 1 keeps only its two freighters
    load_freighters(state)
    seq = _players_in_placement(state)
    assert seq == [0, 1, 2, 0, 1, 2] + [0, 2] * 4
    assert state.phase == BUILD and state.turn_player == 0


def test_placement_restrictions():
    """P3: not on another player's hex, not on land, knights stay aboard, at most 3 a hex."""
    gmap = make_map(2)
    state = new_game(gmap, seed=0)
    load_freighters(state)
    board = gmap.board
    places = legal(state)
    assert {v for v, _ in places} == {"place caravel", "place freighter", "place galleon"}
    hexes = {at for _, at in places}
    sea = {board.coords[c] for c in range(board.n_cells) if gmap.is_sea[c]}
    assert hexes == sea  # every sea hex, and no land hex
    land = (0, 0)
    assert gmap.is_land[board.index[land]]
    before = to_json(state)
    with pytest.raises(IllegalActionError):
        act(state, "place caravel", land)
    assert to_json(state) == before

    # Player 0 places a freighter: its knights stay loaded; player 1 may not share the hex.
    spot = (0, -5)
    act(state, "place freighter", spot)
    assert state.pending.kind == CHOOSE_VARIANT and state.current_player == 0  # V2: which freighter
    act(state, A.GLOBAL_NAMES[A.VARIANT + 0])
    assert _types(state, 0, LOADED) == Counter(soldier=3, archer=2, cavalry=1)
    assert _types(state, 0, ON_BOARD) == Counter(freighter=1)
    assert state.current_player == 1
    assert all(at != spot for _, at in legal(state))
    before = to_json(state)
    with pytest.raises(IllegalActionError):
        act(state, "place caravel", spot)
    assert to_json(state) == before

    # Occupancy: player 0 fills the hex to 3 ships (cargo does not count), then it is closed.
    act(state, "place caravel", (1, -5))
    act(state, "place freighter", spot)
    assert state.pending is None  # his last freighter: no choice left
    act(state, "place caravel", (2, -5))
    assert spot in {at for _, at in legal(state)}
    act(state, "place caravel", spot)
    cell = board.index[spot]
    assert state.occ[cell] == 3
    assert len(state.units_at(cell, 0, LOADED)) == 6  # 6 knights aboard do not count
    act(state, "place caravel", (3, -5))
    assert state.current_player == 0
    assert spot not in {at for _, at in legal(state)}
    before = to_json(state)
    with pytest.raises(IllegalActionError):
        act(state, "place caravel", spot)
    assert to_json(state) == before
