"""The speed-ups change nothing a caller can see.

- Results the engine remembers between calls (build sites near developments, own walls) are
  dropped when the lists they come from change, whichever state or map asks next; the hexes
  around each player's developments and the scan of the deciding player's units, kept in the
  state between decisions, equal a fresh count after every decision of random games, in clones
  that went their own way too.
- The observation encoder keeps nothing from one state to the next: its output equals a fresh
  encoder's, bit for bit, whatever order states come in (pending choices too), and
  ``encode_into`` writes exactly what ``encode`` returns into the caller's array.
- ``env()``'s wrappers read attributes straight from the environment but behave like
  PettingZoo's: the same errors before reset, the same ``str``, the same values.
"""

from __future__ import annotations

import random

import numpy as np
import pytest
from pettingzoo.utils import wrappers as pz_wrappers

from conftest import hexes, make_map
from vigtavl_env import env as make_env
from vigtavl_env import raw_env
from vigtavl_env.engine import apply_action, legal_actions, load_map, new_game
from vigtavl_env.engine.actions import BUILD_UNIT, BUILD_WALL
from vigtavl_env.engine.scenario import Scenario, act
from vigtavl_env.engine.state import CHOOSE_DEFENDER, CHOOSE_GUARD, CHOOSE_SIDE
from vigtavl_env.env import ILLEGAL_REWARD
from vigtavl_env.observation import ObservationEncoder


def random_states(preset: str, games: int, seed: int) -> list:
    gmap, rng, out = load_map(preset), random.Random(seed), []
    for g in range(games):
        state = new_game(gmap, seed=seed + g)
        while not state.is_over:
            out.append(state.clone(keep_events=False))
            legal = legal_actions(state)
            apply_action(state, legal[rng.randrange(len(legal))], legal=legal)
    return out


def test_build_sites_follow_a_new_development_on_the_same_state() -> None:
    sc = Scenario(make_map(2), phase="build", gold=6)
    sc.development(0, "camp", (0, 0))
    state = sc.build()
    before = hexes(state, "build soldier")
    assert (0, 1) in before and (3, 0) not in before
    state.set_development(state.gmap.board.index[(3, 0)], 1, 0)  # a second camp, set by hand
    after = hexes(state, "build soldier")
    assert {(3, 0), (2, 0), (4, 0)} <= after and before < after


def test_remembered_results_do_not_leak_between_maps_or_states() -> None:
    # Two maps with one layout of developments but different terrain next to them.
    land, watery = make_map(2), make_map(2, sea=[(1, 0)])
    for gmap, expect_land in ((land, True), (watery, False), (land, True)):
        sc = Scenario(gmap, phase="build", gold=6)
        sc.development(0, "camp", (0, 0))
        state = sc.build()
        assert ((1, 0) in hexes(state, "build soldier")) is expect_land


def test_a_clones_development_leaves_the_originals_kept_sites_alone() -> None:
    from vigtavl_env.engine.building import _near_sites, near_sites
    sc = Scenario(make_map(2), phase="build", gold=6)
    sc.development(0, "camp", (0, 0))
    state = sc.build()
    kept = near_sites(state, 0)
    twin = state.clone()
    assert near_sites(twin, 0) is kept  # the clone starts from what the original kept
    twin.set_development(twin.gmap.board.index[(3, 0)], 1, 0)
    assert near_sites(twin, 0) == _near_sites(twin, 0) != kept
    assert near_sites(state, 0) is kept and kept == _near_sites(state, 0)
    state.set_development(state.gmap.board.index[(-3, 0)], 1, 0)  # another hex: the two differ
    assert near_sites(state, 0) == _near_sites(state, 0) != near_sites(twin, 0)
    state.dev_owner[state.gmap.board.index[(-3, 0)]] = 1  # an owner written by hand ...
    state.touch()  # ... and recorded as its writer must
    assert near_sites(state, 0) == _near_sites(state, 0) == kept


def play_with_clones(preset: str, seed: int, check) -> None:
    """6 random games; ``check(state, kept_before)`` after every decision, on the game and on
    clones that go their own way for a few decisions now and then (``kept_before``: the state's
    kept scan of units before the decision, ``GameState.mine_memo``)."""
    gmap, rng = load_map(preset), random.Random(seed)
    for g in range(6):
        state = new_game(gmap, seed=seed * 100 + g)
        while not state.is_over:
            legal = legal_actions(state)
            if rng.random() < 0.1 and len(legal) > 1:
                twin = state.clone(keep_events=False)
                for _ in range(3):
                    if twin.is_over:
                        break
                    other, kept = legal_actions(twin), twin.mine_memo
                    apply_action(twin, other[rng.randrange(len(other))], legal=other)
                    check(twin, kept)
            kept = state.mine_memo
            apply_action(state, legal[rng.randrange(len(legal))], legal=legal)
            check(state, kept)


@pytest.mark.parametrize("preset", ["duel", "triad", "quad"])
def test_kept_near_sites_equal_a_fresh_count_after_every_decision(preset: str) -> None:
    from vigtavl_env.engine.building import _near_sites, near_sites
    checked = []

    def check(state, _kept) -> None:
        for p in range(state.n_players):
            assert near_sites(state, p) == _near_sites(state, p)
        checked.append(1)
    play_with_clones(preset, 41, check)
    assert len(checked) > 500


def _mine_fields(mine) -> tuple:
    return (mine.upright, mine.land_cells, mine.board_units, mine.board_cells, mine.cells)


@pytest.mark.parametrize("preset", ["duel", "triad", "quad"])
def test_the_kept_scan_of_units_equals_a_fresh_one_after_every_decision(preset: str) -> None:
    from vigtavl_env.engine.shared import Mine, kept_mine
    reused = []

    def check(state, kept) -> None:
        if state.is_over:
            return
        me = state.current_player
        got = kept_mine(state, me)
        reused.append(got is kept)
        for p in range(state.n_players):  # the deciding player first, then any player
            assert _mine_fields(kept_mine(state, p)) == _mine_fields(Mine(state, p))
    play_with_clones(preset, 43, check)
    assert sum(reused) > 100  # kept and used again, not only worked out afresh


@pytest.mark.parametrize("preset", ["duel", "quad"])
def test_the_kept_reach_of_the_active_unit_equals_a_fresh_one_after_every_decision(preset: str) -> None:
    """``legal.active_reach`` keeps the active unit's movement search between the legal list
    and the move (``GameState.reach_memo``): after every decision, on the game and on clones
    going their own way, it says what a fresh search says, and it is used again at times."""
    from vigtavl_env.engine.legal import active_reach, may_battle_move
    from vigtavl_env.engine.movement import reach
    from vigtavl_env.engine.state import active_of
    reused, checked = [], []

    def check(state, _kept) -> None:
        top = active_of(state)
        if state.is_over or top is None:
            return
        before = state.reach_memo
        got = active_reach(state, top)
        reused.append(before is not None and got is before[1])
        fresh = reach(state, top.unit, top.move_left, towing=False, can_attack=may_battle_move(state, top),
                      wind=not top.rode)
        assert list(got.tables) == list(fresh.tables)
        checked.append(1)
    play_with_clones(preset, 45, check)
    assert len(checked) > 200 and sum(reused) > 20


def test_the_guards_of_an_empty_hex_leave_every_players_kept_guards_alone() -> None:
    """``guard_cells`` of owner -1 (what ``seizers`` asks of an empty hex's holder) is nobody's:
    it must not read or write a player's slot of ``GameState.guards_memo`` (index -1 is the
    last player's)."""
    from vigtavl_env.engine.free_actions import guard_cells, seizers
    state = random_states("duel", 1, 7)[60]
    last = state.n_players - 1
    truth = tuple(set(x) for x in guard_cells(state, last))
    assert truth[0]  # the last player has units on the board
    empty = next(c for c in range(state.n_cells) if state.cell_player[c] < 0)
    state.mark_units()  # every kept guard stale: the next asker works them out and keeps them
    assert guard_cells(state, -1) == (set(), set())
    assert seizers(state, 0, empty) == []
    assert guard_cells(state, last) == truth


def test_bot_games_keep_no_legal_list_different_from_a_fresh_one() -> None:
    """``python -m tools.check_kept`` over a few games: random and heuristic bots seat by
    seat, on the three presets, every legal list equal to a clone's with nothing kept."""
    from tools.check_kept import check_games
    games, decisions = check_games(9, ["random", "greedy", "aggressor", "builder"], [2, 3, 4], seed=11,
                                   progress=False)
    assert games == 9 and decisions > 900


def test_the_check_sees_a_kept_fact_written_wrong() -> None:
    """The check can fail: kept sites emptied under the same key change the legal list, and a
    clone with nothing kept does not."""
    from tools.check_kept import check_game, forgetful_clone
    builds = range(BUILD_UNIT, BUILD_WALL)  # verbs whose hexes start from the kept sites

    def builds_near_a_development(s) -> bool:  # (legal_actions fills the state's kept sites)
        return any(c // s.n_cells in builds for c in legal_actions(s)) and any(s.near_memo[s.current_player][1])

    state = next(s for s in random_states("duel", 2, 4) if builds_near_a_development(s))
    want = legal_actions(forgetful_clone(state))
    assert legal_actions(state) == want
    owners, _ = state.near_memo[state.current_player]
    state.near_memo[state.current_player] = (owners, ([], [], []))
    assert legal_actions(state) != want and legal_actions(forgetful_clone(state)) == want
    assert check_game(load_map("duel"), ["greedy", "random"], seed=3) > 50


@pytest.mark.parametrize("argv", [["--games", "0"], ["--players", "5"], ["--players", "two"], ["--agents", ","]])
def test_check_kept_refuses_bad_options_in_one_line(argv, capsys) -> None:
    from tools.check_kept import main
    with pytest.raises(SystemExit) as e:
        main(argv)
    assert e.value.code == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert err[-1].startswith("python -m tools.check_kept: error:")


def test_check_kept_names_an_agent_it_cannot_use_in_one_line(capsys) -> None:
    from tools.check_kept import main
    assert main(["--games", "1", "--players", "2", "--agents", "nobody", "--no-progress"]) == 1
    assert capsys.readouterr().err.strip().startswith("check_kept: unknown agent 'nobody'")


def test_a_unit_written_by_hand_and_touched_is_seen_by_the_kept_scan() -> None:
    from vigtavl_env.engine.shared import Mine, kept_mine
    from vigtavl_env.engine.state import SPENT
    sc = Scenario(make_map(2), phase="battle")
    sc.unit(0, "soldier", (0, 0))
    state = sc.build()
    kept = kept_mine(state, 0)
    assert kept_mine(state, 0) is kept and kept.upright[0]
    state.u_flags[0] |= SPENT  # laid on its side by hand ...
    state.touch()  # ... and recorded
    assert _mine_fields(kept_mine(state, 0)) == _mine_fields(Mine(state, 0)) and not kept_mine(state, 0).upright[0]


def test_the_record_check_sees_a_change_left_unrecorded() -> None:
    """check_kept's record check can fail: a wall written by hand, not recorded, is named; once
    touched it is not. A group left alone is never named."""
    from tools.check_kept import missed_changes, table_groups
    sc = Scenario(make_map(2), phase="build", gold=6)
    sc.unit(0, "soldier", (0, 0))
    state = sc.build()
    before = table_groups(state)
    board = state.gmap.board
    state.walls[board.edge[board.index[(0, 0)]][0]] = 0
    assert missed_changes(before, state) == ["wall_stamp"]
    state.touch()
    assert missed_changes(before, state) == []


@pytest.mark.parametrize("preset", ["duel", "quad"])
def test_every_decision_records_what_it_changed_and_clones_part_ways(preset: str) -> None:
    """The record of changes (issue 30's first item): after every decision of random games, and
    of clones that go their own way, a group of tables that changed has a new stamp; stamps
    are never handed out twice, so an original and its clone part ways at their first change."""
    from tools.check_kept import missed_changes, table_groups
    seen, parted = [], []

    def check(state, _kept) -> None:
        seen.append((state.unit_stamp, state.dev_stamp, state.wall_stamp))
    gmap, rng = load_map(preset), random.Random(47)
    for g in range(4):
        state = new_game(gmap, seed=4700 + g)
        while not state.is_over:
            before, legal = table_groups(state), legal_actions(state)
            twin = None
            if rng.random() < 0.1:
                twin = state.clone(keep_events=False)
                assert table_groups(twin) == before  # same tables, same stamps
                other = legal_actions(twin)
                apply_action(twin, other[rng.randrange(len(other))], legal=other)
                assert missed_changes(before, twin) == []
                check(twin, None)
            apply_action(state, legal[rng.randrange(len(legal))], legal=legal)
            assert missed_changes(before, state) == []
            check(state, None)
            if twin is not None:
                for (_, was, _t), (_, a, _ta), (_, b, _tb) in zip(before, table_groups(state), table_groups(twin)):
                    if a != was and b != was:
                        parted.append(a != b)  # both changed the group: two new stamps
    stamps = [s for group in seen for s in group]
    assert len(seen) > 300 and max(stamps) > min(stamps)
    assert len(parted) > 10 and all(parted)


def test_own_walls_follow_the_walls() -> None:
    sc = Scenario(make_map(2), phase="build", gold=6)
    sc.unit(0, "soldier", (0, 0))
    state = sc.build()
    assert not hexes(state, "relocate wall 0")
    board = state.gmap.board
    state.walls[board.edge[board.index[(0, 0)]][0]] = 0  # a wall of player 0, set by hand ...
    state.touch()  # ... and recorded (the own walls are kept under the walls' stamp)
    assert hexes(state, "relocate wall 0") == {(0, 0)}
    state.walls[board.edge[board.index[(0, 0)]][0]] = -1
    state.touch()
    assert not hexes(state, "relocate wall 0")


@pytest.mark.parametrize("preset", ["duel", "triad"])
def test_incremental_encoder_matches_a_fresh_one(preset: str) -> None:
    states = random_states(preset, 2, seed=5)
    rng = random.Random(1)
    order = states[:]
    rng.shuffle(order[len(order) // 2:])  # half in game order, half jumping about
    kept = ObservationEncoder(states[0].gmap, states[0].config.rounds_per_phase)
    for s in order:
        seat = rng.randrange(s.n_players)
        fresh = ObservationEncoder(s.gmap, s.config.rounds_per_phase).encode(s, seat)
        got = kept.encode(s, seat)
        assert got.tobytes() == fresh.tobytes()  # bit for bit (signed zeros included)


def test_wrappers_behave_like_pettingzoos() -> None:
    ours = make_env(num_players=2, seed=3)
    theirs = pz_wrappers.OrderEnforcingWrapper(pz_wrappers.AssertOutOfBoundsWrapper(
        pz_wrappers.TerminateIllegalWrapper(raw_env(num_players=2, seed=3), illegal_reward=ILLEGAL_REWARD)))
    assert str(ours) == str(theirs)
    for name in ("agent_selection", "infos", "rewards", "agents"):
        for e in (ours, theirs):
            with pytest.raises(AttributeError, match="cannot be accessed before reset"):
                getattr(e, name)
    ours.reset(seed=9)
    theirs.reset(seed=9)
    rng = np.random.default_rng(0)
    for _ in range(150):
        for name in ("agent_selection", "agents", "rewards", "terminations", "truncations",
                     "_cumulative_rewards"):
            assert getattr(ours, name) == getattr(theirs, name)
        a, b = ours.last(), theirs.last()
        assert a[0]["observation"].tobytes() == b[0]["observation"].tobytes()
        assert (a[0]["action_mask"] == b[0]["action_mask"]).all() and a[1:4] == b[1:4]
        if a[2] or a[3]:
            break
        legal = np.flatnonzero(a[0]["action_mask"])
        action = int(legal[rng.integers(len(legal))])
        ours.step(action)
        theirs.step(action)
    assert ours.action_space("player_0") is ours.unwrapped.action_space("player_0")
    assert ours.observation_space("player_1") is ours.unwrapped.observation_space("player_1")


def test_a_step_without_an_observation_reads_the_mask_and_encodes_nothing() -> None:
    """PettingZoo's TerminateIllegalWrapper observes the agent before a step when the caller
    did not (``last(observe=False)``), only for the mask; ours reads the raw env's mask: the same
    game and the same penalty for an illegal action, and no observation encoded."""
    ours = make_env(num_players=2, seed=3)
    theirs = pz_wrappers.OrderEnforcingWrapper(pz_wrappers.AssertOutOfBoundsWrapper(
        pz_wrappers.TerminateIllegalWrapper(raw_env(num_players=2, seed=3), illegal_reward=ILLEGAL_REWARD)))
    ours.reset(seed=5)
    theirs.reset(seed=5)
    raw, observed = ours.unwrapped, []
    real_observe = raw.observe
    raw.observe = lambda agent: observed.append(agent) or real_observe(agent)
    rng = random.Random(0)
    for _ in range(80):
        a, b = ours.last(observe=False), theirs.last(observe=False)
        assert a[1:4] == b[1:4] and a[4]["interrupt"] == b[4]["interrupt"]
        legal = raw.legal_action_indices()
        action = int(legal[rng.randrange(len(legal))])
        ours.step(action)
        theirs.step(action)
    assert observed == []
    illegal = int(np.flatnonzero(raw.action_mask() == 0)[0])
    ours.last(observe=False)
    theirs.last(observe=False)
    ours.step(illegal)
    theirs.step(illegal)
    assert observed == []
    for name in ("rewards", "_cumulative_rewards", "terminations", "truncations"):
        assert getattr(ours, name) == getattr(theirs, name)
    assert ILLEGAL_REWARD in ours._cumulative_rewards.values() and all(ours.terminations.values())


@pytest.mark.parametrize("action", [-1, 10**6, 2.0, "3", np.int64(-1), np.int64(10**6)])
def test_out_of_bounds_actions_are_refused_as_pettingzoo_refuses_them(action) -> None:
    ours = make_env(num_players=2, seed=3)
    theirs = pz_wrappers.AssertOutOfBoundsWrapper(raw_env(num_players=2, seed=3))
    # the same exception class (an AssertionError), ours with a message that says what is allowed
    for e, message in ((ours, r"an action is an int in 0\.\.6908"), (theirs, "action is not in action space")):
        e.reset(seed=1)
        with pytest.raises(AssertionError, match=message):
            e.step(action)
    # an in-range numpy integer passes the check in both and is played
    legal = int(np.flatnonzero(ours.last()[0]["action_mask"])[0])
    for e in (ours, theirs):
        e.step(np.int64(legal))
        assert e.unwrapped.game_state.decisions == 1


def test_incremental_encoder_matches_a_fresh_one_through_pending_choices() -> None:
    """The pending choice's marks and scalars (defend, guard, side, load) are redrawn and cleared
    like the rest, whatever order the states come in."""
    from test_env_api import defend_position, guard_position, ring_map

    states = []
    for build, moves in ((defend_position, [("activate cavalry", (0, 0)), ("attack", (1, 0)),
                                            ("choose archer", (1, 0))]),
                         (guard_position, [("seize", (0, 0)), ("no defence", None)])):
        state = build().build()
        states.append(state.clone())
        for verb, at in moves:
            act(state, verb, at)
            states.append(state.clone())
    side = Scenario(ring_map(), phase="battle")
    side.development(0, "camp", (-4, 0))
    side.unit(0, "cavalry", (0, 0))
    side.unit(1, "soldier", (2, 0))
    state = side.build()
    act(state, "activate cavalry", (0, 0))
    act(state, "move", (2, 0))
    states.append(state.clone())
    assert {s.pending.kind for s in states if s.pending is not None} == {CHOOSE_SIDE, CHOOSE_DEFENDER, CHOOSE_GUARD}
    rng = random.Random(2)
    kept = ObservationEncoder(states[0].gmap, states[0].config.rounds_per_phase)
    for s in states + rng.sample(states, len(states)):
        seat = rng.randrange(s.n_players)
        fresh = ObservationEncoder(s.gmap, s.config.rounds_per_phase).encode(s, seat)
        assert kept.encode(s, seat).tobytes() == fresh.tobytes()
    load = new_game(load_map("duel"), seed=1)  # the setup's load decisions
    encoder = ObservationEncoder(load.gmap, load.config.rounds_per_phase)
    while load.to_load or load.decisions < 6:
        fresh = ObservationEncoder(load.gmap, load.config.rounds_per_phase).encode(load, 0)
        assert encoder.encode(load, 0).tobytes() == fresh.tobytes()
        apply_action(load, legal_actions(load)[0])


def test_encode_into_writes_what_encode_returns_and_refuses_a_wrong_array() -> None:
    states = random_states("triad", games=1, seed=4)[::7]
    enc = ObservationEncoder(states[0].gmap, states[0].config.rounds_per_phase)
    batch = np.full((2,) + enc.shape, 9.0, dtype=np.float32)  # rows of a batch, dirty beforehand
    for s in states:
        for seat in range(s.n_players):
            enc.encode_into(s, seat, batch[1])
            assert batch[1].tobytes() == enc.encode(s, seat).tobytes()
            assert (batch[0] == 9.0).all()  # the other row untouched
    off_hexagon = enc.board_row.reshape(enc.height, enc.width) == 0
    assert not batch[1][:, off_hexagon].any()  # cells off the hexagon are 0 in every channel
    for bad in (np.zeros(enc.shape, dtype=np.float64), np.zeros(enc.shape[::-1], dtype=np.float32),
                np.zeros(enc.shape[:-1] + (enc.width * 2,), dtype=np.float32)[..., ::2]):
        with pytest.raises(ValueError, match="C-contiguous float32 array of shape"):
            enc.encode_into(states[0], 0, bad)


def test_the_bots_position_key_tells_positions_apart_exactly_as_the_tables_do() -> None:
    """The heuristic's position cache is keyed by ``pieces_key()`` (bytes) instead of tuples of
    the tables: equal keys exactly when the tables it stands for are equal."""
    states = random_states("duel", 2, seed=5)[::5] + random_states("triad", 1, seed=9)[::5]

    def tables(s) -> tuple:
        return (id(s.gmap), tuple(s.art_owner), tuple(s.walls), tuple(s.u_owner), tuple(s.u_type),
                tuple(s.u_cell), tuple(s.u_where), tuple(s.u_carrier))

    by_key: dict[tuple, set] = {}
    by_tables: dict[tuple, set] = {}
    for i, s in enumerate(states):
        by_key.setdefault((id(s.gmap), s.pieces_key()), set()).add(i)
        by_tables.setdefault(tables(s), set()).add(i)
    assert sorted(map(sorted, by_key.values())) == sorted(map(sorted, by_tables.values()))
    assert len(by_key) > len(states) // 2  # the games move: most sampled positions differ
    moved = states[40].clone()
    moved.u_cell[0] = (moved.u_cell[0] + 1) % moved.n_cells
    assert moved.pieces_key() != states[40].pieces_key()


def _longest_wall_by_definition(state, player: int) -> int:
    """The Great Wall's run as first written: every corner's longest trail of the player's own
    built walls, walked with a dict of corners and a set of walls in use."""
    verts = state.gmap.board.edge_vertices
    at: dict[int, list[int]] = {}
    for e in range(state.n_edges):
        if state.walls[e] == player and state.wall_builder[e] == player:
            for v in verts[e]:
                at.setdefault(v, []).append(e)

    def run(v: int, used: set[int]) -> int:
        best = 0
        for e in at[v]:
            if e not in used:
                used.add(e)
                a, b = verts[e]
                best = max(best, 1 + run(b if a == v else a, used))
                used.discard(e)
        return best

    return max([run(v, set()) for v in at], default=0)


@pytest.mark.parametrize("preset", ["duel", "quad"])
def test_longest_wall_equals_its_definition_on_random_walls(preset) -> None:
    """``tokens.longest_wall`` (typed arrays) equals the dict-and-set walk on random walls: some
    built by the player, some by others, some taken from them, from none to a crowded board."""
    from vigtavl_env.engine.tokens import longest_wall
    state = new_game(load_map(preset), seed=5)
    rng = random.Random(97000)
    long_runs = 0
    for trial in range(300):
        density = rng.choice([0.0, 0.05, 0.1, 0.2, 0.3, 0.45])
        for e in range(state.n_edges):
            state.walls[e] = state.wall_builder[e] = -1
            if rng.random() < density:
                state.walls[e] = rng.choice([0, 0, 0, 1])
                state.wall_builder[e] = state.walls[e] if rng.random() < 0.8 else 1 - state.walls[e]
        for player in (0, 1):
            expected = _longest_wall_by_definition(state, player)
            assert longest_wall(state, player) == expected, (trial, player)
            long_runs += expected >= 5
    assert long_runs > 10  # the walls made Great Wall runs, not only short ones


@pytest.mark.parametrize("preset", ["duel", "triad"])
def test_reach_arrays_and_dicts_tell_the_same(preset) -> None:
    """``Reach`` keeps typed arrays and makes its dicts from them on first use: the dicts hold
    the reached hexes in the order the search reached them (the bots' ties follow it), and the
    array queries the engine uses (cost, stop, battle, wind, destinations) say the same, for every
    unit of random states, with and without its attack and the winds."""
    from vigtavl_env.engine.movement import BATTLE_HEX, STOP, reach
    from vigtavl_env.engine.stats import UNIT_MOVEMENT
    states = random_states(preset, 2, 97100)[::7]
    seen_battle = seen_wind = 0
    for s in states:
        for u in range(s.n_units):
            if s.u_cell[u] < 0:
                continue
            for can_attack, wind in ((True, True), (False, False)):
                r = reach(s, u, UNIT_MOVEMENT[s.u_type[u]], can_attack=can_attack, wind=wind)
                order = [r.order_at(i) for i in range(r.count)]
                assert list(r.cost) == order and len(set(order)) == len(order)
                assert all(r.cost[c] == r.cost_of(c) >= 0 for c in order)
                assert all(r.cost_of(c) == -1 for c in range(s.n_cells) if c not in r.cost)
                assert list(r.stops) == r.in_order(STOP) == [c for c in order if r.is_stop(c)]
                assert list(r.battles) == r.in_order(BATTLE_HEX) == [c for c in order if r.is_battle(c)]
                assert r.destinations(STOP | BATTLE_HEX) == sorted(list(r.stops) + list(r.battles))
                assert r.windy == {c for c in order if r.is_windy(c)}
                assert all(r.stops[c] == r.cost[c] for c in r.stops)
                seen_battle += bool(r.battles)
                seen_wind += bool(r.windy)
    assert seen_battle and seen_wind  # the states had battles to move into and winds to ride
