"""The JSON state file (schema ``vigtavl-state``, version ``vigtavl_v2``): round trips, corrupt
files, save and resume, files of the rules-v0 and rules-v1 engines refused.

- Round trip: ``from_json(to_json(s))`` reproduces ``to_json(s)`` exactly, and the loaded state
  offers the same decisions, at many points of random games.
- Corrupt files: each corruption of a good mid-game file fails with a ValueError that names the
  field (or the hex) at fault; the input is not modified; random corruptions of single values
  either fail the same way or load a state that keeps every invariant (never a half-loaded one).
- Save and resume: loading and playing on gives the very game of not saving (the dice state is
  saved).
- Files of older rules (integer version 1: rules v0; integer 2 or ``vigtavl_v1``: rules v1) are
  refused with a message naming both versions; a state waiting on a pending choice
  (state.pending) round-trips exactly.
"""

from __future__ import annotations

import copy
import json
import random

import pytest
from conftest import load_freighters, make_map
from test_properties import check_invariants

from tools.demo import eager_bot, random_bot
from vigtavl_env.engine import apply_action, from_dict, from_json, legal_actions, new_game, to_dict, to_json
from vigtavl_env.engine.maps import generate_map, load_map
from vigtavl_env.engine.scenario import Scenario, act
from vigtavl_env.engine.state import (
    BATTLE, CHOOSE_DEFENDER, CHOOSE_SIDE, GONE, LOADED, ON_BOARD, OVER, PRISONER, GameState,
)
from vigtavl_env.engine.stats import FREIGHTER, IS_SHIP, LAND_TYPES

ROUND_TRIP_EVERY = 7


def play_until(state: GameState, rng: random.Random, stop, bot=eager_bot) -> GameState:
    while state.phase != OVER and not stop(state):
        legal = legal_actions(state)
        apply_action(state, bot(state, legal, rng), legal)
    return state


@pytest.mark.parametrize("n_players, seed", [(2, 1), (2, 2), (3, 3), (4, 4), (2, 5), (3, 6)])
def test_round_trip_throughout_random_games(n_players, seed):
    state = new_game(generate_map(n_players, seed), seed=seed)
    rng = random.Random(seed)
    bot = eager_bot if seed % 2 else random_bot
    k = 0
    while state.phase != OVER:
        if k % ROUND_TRIP_EVERY == 0:
            text = to_json(state)
            loaded = from_json(text)
            assert to_json(loaded) == text
            assert to_dict(loaded) == to_dict(state)
            assert legal_actions(loaded) == legal_actions(state)
            assert loaded.current_player == state.current_player
        legal = legal_actions(state)
        apply_action(state, bot(state, legal, rng), legal)
        k += 1
    text = to_json(state)
    assert to_json(from_json(text)) == text


def test_json_is_plain_and_versioned():
    state = new_game(load_map("duel"), seed=3)
    d = json.loads(to_json(state, indent=2))
    assert d["schema"] == "vigtavl-state" and d["version"] == "vigtavl_v2"  # the game's one spelling
    assert d["dice"]["rng"] == format(state.rng, "x")


@pytest.mark.parametrize("n_players, seed, cut", [(2, 11, 40), (2, 12, 120), (3, 13, 90), (4, 14, 150)])
def test_save_and_resume_gives_the_same_game(n_players, seed, cut):
    """Saving at decision ``cut`` and playing on from the file gives the same game, dice included."""
    gmap = generate_map(n_players, seed)
    straight = new_game(gmap, seed=seed)
    play_until(straight, random.Random(seed), lambda s: s.decisions >= cut)
    saved = to_json(straight)
    policy = random.Random(seed * 31)
    resumed = from_json(saved)
    play_until(straight, copy.deepcopy(policy), lambda s: False)
    play_until(resumed, policy, lambda s: False)
    assert to_json(resumed) == to_json(straight)
    assert resumed.tokens == straight.tokens


# ----------------------------------------------------------------------------- corrupt files
@pytest.fixture(scope="module")
def good() -> dict:
    """A battle-phase file with ships at sea, knights ashore and developments on the board."""
    state = new_game(generate_map(2, 21), seed=21)
    play_until(state, random.Random(21), lambda s: s.phase == BATTLE and s.retaliator < 0)
    d = to_dict(state)
    assert any(w == ON_BOARD and not IS_SHIP[t] for w, t in zip(state.u_where, state.u_type))
    assert any(o >= 0 for o in state.dev_owner)
    return json.loads(json.dumps(d))


def _first(d: dict, want) -> int:
    u = d["units"]
    return next(i for i in range(len(u["owner"])) if want(u["where"][i], u["type"][i], u["owner"][i], u["cell"][i]))


def _terrain_cell(d: dict, terrain: int, free: bool = True) -> int:
    units = d["units"]
    used = {c for c, w in zip(units["cell"], units["where"]) if w == ON_BOARD}
    used |= {c for c, t in enumerate(d["developments"]["type"]) if t}
    used |= {c for c, o in enumerate(d["artillery"]) if o >= 0}
    return next(c for c, t in enumerate(d["map"]["terrain"]) if t == terrain and (not free or c not in used))


def _ship_on_land(d):
    u = _first(d, lambda w, t, o, c: w == ON_BOARD and IS_SHIP[t])
    d["units"]["cell"][u] = _terrain_cell(d, 1)
    return f"units.cell[{u}]"


def _knight_at_sea(d):
    u = _first(d, lambda w, t, o, c: w == ON_BOARD and not IS_SHIP[t])
    d["units"]["cell"][u] = _terrain_cell(d, 0)
    return f"units.cell[{u}]"


def _knight_on_mountain(d):
    u = _first(d, lambda w, t, o, c: w == ON_BOARD and not IS_SHIP[t])
    d["units"]["cell"][u] = _terrain_cell(d, 2, free=False)
    return f"units.cell[{u}]"


def _occupancy_four(d):
    """Four of player 0's knights on one free land hex."""
    cell = _terrain_cell(d, 1)
    units = d["units"]
    knights = [i for i in range(len(units["owner"]))
               if units["owner"][i] == 0 and not IS_SHIP[units["type"][i]] and units["where"][i] in (ON_BOARD, LOADED)]
    assert len(knights) >= 4
    for i in knights[:4]:
        units["where"][i], units["cell"][i], units["carrier"][i] = ON_BOARD, cell, -1
    return "occupancy 4"


def _two_players(d):
    a = _first(d, lambda w, t, o, c: w == ON_BOARD and o == 0)
    b = _first(d, lambda w, t, o, c: w == ON_BOARD and o == 1 and IS_SHIP[t] == IS_SHIP[d["units"]["type"][a]])
    d["units"]["cell"][b] = d["units"]["cell"][a]
    return "held by"


def _set(path, value):
    def corrupt(d):
        *parents, last = path.split(".")
        cur = d
        for p in parents:
            cur = cur[p]
        cur[last] = value
        return path
    return corrupt


def _delete(path):
    def corrupt(d):
        *parents, last = path.split(".")
        cur = d
        for p in parents:
            cur = cur[p]
        del cur[last]
        return path
    return corrupt


def _cell_out_of_range(d):
    u = _first(d, lambda w, t, o, c: w == ON_BOARD)
    d["units"]["cell"][u] = len(d["map"]["terrain"])
    return f"units.cell[{u}]"


def _prisoner_nowhere(d):
    u = _first(d, lambda w, t, o, c: w == ON_BOARD and not IS_SHIP[t])
    d["units"]["where"][u], d["units"]["holder"][u] = PRISONER, 1 - d["units"]["owner"][u]
    d["units"]["cell"][u] = _terrain_cell(d, 1)  # a land hex with no development
    return f"units.holder[{u}]"


def _unit_lists_disagree(d):
    d["units"]["type"].pop()
    return "units.type"


CORRUPTIONS = {
    "missing gold": _delete("gold"),
    "missing units.cell": _delete("units.cell"),
    "missing dice": _delete("dice"),
    "missing turn.front": _delete("turn.front"),
    "round is a string": _set("round", "1"),
    "wall_in_hand is an int": _set("turn.wall_in_hand", 1),
    "units is a list": _set("units", []),
    "gold negative": _set("gold", [-1, 0]),
    "too few players' tokens": _set("tokens", [0]),
    "phase out of range": _set("phase", 7),
    "wind zero": _set("wind", 0),
    "turn_player out of range": _set("turn_player", 5),
    "rng not hex": _set("dice.rng", "xyz"),
    "forced die of 7": _set("dice.forced", [7]),
    "unit cell out of range": _cell_out_of_range,
    "unit lists of different lengths": _unit_lists_disagree,
    "ship on land": _ship_on_land,
    "knight at sea": _knight_at_sea,
    "knight on a mountain": _knight_on_mountain,
    "occupancy 4": _occupancy_four,
    "two players on a hex": _two_players,
    "prisoner not on a development": _prisoner_nowhere,
    "stack names no unit": _set("interrupts.stack", [[999, 0, 0, 3, 0, [], 0, 0]]),
    "terrain wrong length": _set("map.terrain", [1, 0, 1]),
    "unknown config key": _set("config.extra_rule", True),
    "bad config value": _set("config.limit_scope", "sometimes"),
}
EXPECTED_WORDS = {
    "wrong version": "version", "wrong schema": "schema", "unknown config key": "extra_rule",
    "terrain wrong length": "map", "bad config value": "limit_scope",
}


@pytest.mark.parametrize("name", sorted(CORRUPTIONS))
def test_corrupt_file_fails_naming_the_field(good, name):
    d = copy.deepcopy(good)
    field = CORRUPTIONS[name](d)
    before = copy.deepcopy(d)
    with pytest.raises(ValueError) as err:
        from_dict(d)
    msg = str(err.value)
    assert EXPECTED_WORDS.get(name, field) in msg, f"{name}: {msg!r} does not name {field!r}"
    assert d == before, "from_dict modified its input"


@pytest.mark.parametrize("name, corrupt, word", [
    ("wrong version", lambda d: d.update(version=3), "version"),
    ("version 1", lambda d: d.update(version=1), "version"),
    ("wrong schema", lambda d: d.update(schema="chess"), "schema"),
    ("not a dict", None, "schema"),
])
def test_wrong_kind_of_file(good, name, corrupt, word):
    d = copy.deepcopy(good)
    if corrupt is None:
        d = [d]
    else:
        corrupt(d)
    with pytest.raises(ValueError, match=word):
        from_dict(d)


@pytest.mark.parametrize("text", ["{not json", "", "[1, 2", '{"schema": "vigtavl-state", "version": 1'])
def test_bad_json_fails_with_value_error(text):
    with pytest.raises(ValueError, match="JSON"):
        from_json(text)


def _leaves(d, path=()):
    if isinstance(d, dict):
        for k, v in d.items():
            yield from _leaves(v, path + (k,))
    elif isinstance(d, list) and d and not isinstance(d[0], (dict, list)):
        for i in range(len(d)):
            yield path + (i,)
    elif not isinstance(d, list):
        yield path


def test_random_corruptions_fail_cleanly_or_load_a_sound_state(good):
    """One value replaced at random: a ValueError, or a state that keeps every invariant and
    round-trips. Never another exception, never a half-loaded state."""
    rng = random.Random(5)
    leaves = [p for p in _leaves(good) if p[0] != "events"]
    values = [-2, -1, 0, 1, 2, 3, 5, 90, 10**6, "x", None, True, 1.5, [], {}]
    for _ in range(400):
        d = copy.deepcopy(good)
        path = rng.choice(leaves)
        cur = d
        for p in path[:-1]:
            cur = cur[p]
        cur[path[-1]] = rng.choice(values)
        try:
            s = from_dict(d)
        except ValueError:
            continue
        check_invariants(s, [0] * s.n_players, [0] * s.n_players)
        text = to_json(s)
        assert to_json(from_json(text)) == text


# ----------------------------------------------------------------------------- loader gaps
@pytest.fixture(scope="module")
def placement() -> dict:
    """A fresh game's file once the players loaded their freighters (S4): every freighter in
    reserve with its three knights aboard."""
    state = new_game(load_map("duel"), seed=1)
    load_freighters(state)
    assert sum(w == LOADED for w in state.u_where) == 12
    return json.loads(to_json(state))


def _own(d: dict, player: int, types) -> list[int]:
    u = d["units"]
    return [i for i, (o, t) in enumerate(zip(u["owner"], u["type"])) if o == player and t in types]


def test_loader_refuses_an_overloaded_freighter(placement):
    d = copy.deepcopy(placement)
    freighter = _own(d, 0, (FREIGHTER,))[0]
    for k in _own(d, 0, LAND_TYPES):  # all six of P0's knights aboard one freighter
        d["units"]["carrier"][k] = freighter
    with pytest.raises(ValueError, match="units.carrier"):
        from_dict(d)


def test_loader_refuses_cargo_aboard_a_sunk_freighter(placement):
    d = copy.deepcopy(placement)
    d["units"]["where"][_own(d, 0, (FREIGHTER,))[0]] = GONE
    with pytest.raises(ValueError, match="units.carrier"):
        from_dict(d)


def test_loader_refuses_a_player_holding_his_own_prisoner(placement):
    d = copy.deepcopy(placement)
    land = d["map"]["terrain"].index(1)
    d["developments"]["type"][land], d["developments"]["owner"][land] = 1, 0
    k = _own(d, 0, LAND_TYPES)[0]
    u = d["units"]
    u["where"][k], u["cell"][k], u["holder"][k], u["carrier"][k] = PRISONER, land, 0, -1
    with pytest.raises(ValueError, match="units.holder"):
        from_dict(d)


# ----------------------------------------------------------------------------- files of older rules
def test_version_1_file_is_refused_naming_both_versions(good):
    """A file of the rules-v0 engine (schema version 1) is not migrated: the game was played
    under other rules. The message names its version and rules and the version read."""
    d = copy.deepcopy(good)
    # What a version-1 file looked like: none of the v2 fields, six-entry activation records.
    d["version"] = 1
    for key in ("to_load", "wall_builders"):
        del d[key]
    del d["developments"]["builder"]
    del d["interrupts"]["pending"]
    d["interrupts"]["stack"] = [x[:6] for x in d["interrupts"]["stack"]]
    d["config"]["freighter_loads"] = [[0, 0, 1], [0, 1, 2]]
    before = copy.deepcopy(d)
    with pytest.raises(ValueError) as err:
        from_dict(d)
    msg = str(err.value)
    assert "of version vigtavl_v0" in msg and "reads version vigtavl_v2 only" in msg and "\n" not in msg, msg
    assert d == before
    # The same words through the JSON reader.
    with pytest.raises(ValueError, match=r"version vigtavl_v0.*reads version vigtavl_v2 only"):
        from_json(json.dumps(d))


@pytest.mark.parametrize("version", [2, "vigtavl_v1"])
def test_rules_v1_files_are_refused_naming_both_versions(good, version):
    """A file of the rules-v1 engine (the integer 2 before the version was spelled, then
    ``"vigtavl_v1"``) is not migrated either: other rules, other action codes. The message,
    one line, names its version and the version read."""
    d = copy.deepcopy(good)
    # What a rules-v1 file looked like: none of the v2 fields.
    d["version"] = version
    del d["token_src"]
    del d["turn"]["defended"]
    del d["interrupts"]["asks"]
    before = copy.deepcopy(d)
    with pytest.raises(ValueError) as err:
        from_dict(d)
    msg = str(err.value)
    assert "of version vigtavl_v1" in msg and "reads version vigtavl_v2 only" in msg and "\n" not in msg, msg
    assert d == before
    with pytest.raises(ValueError, match=r"version vigtavl_v1.*reads version vigtavl_v2 only"):
        from_json(json.dumps(d))


def test_files_of_this_version_read(good):
    """A ``vigtavl_v2`` file loads and saves back exactly."""
    assert good["version"] == "vigtavl_v2"
    assert to_dict(from_dict(copy.deepcopy(good))) == good
    assert to_json(from_json(json.dumps(good))) == to_json(from_dict(good))


def _defend_position() -> GameState:
    """P0's cavalry attacks a hex holding P1's soldier and archer: P1 is asked who defends."""
    sc = Scenario(make_map(), phase="battle")
    sc.development(0, "camp", (-3, 0))
    sc.unit(0, "cavalry", (0, 0))
    sc.unit(1, "soldier", (1, 0))
    sc.unit(1, "archer", (1, 0))
    state = sc.build()
    act(state, "activate cavalry", (0, 0))
    act(state, "attack", (1, 0))
    return state


def _side_position() -> GameState:
    """P0's cavalry moves into P1's hex, which it can enter from several sides: P0 is asked."""
    sc = Scenario(make_map(), phase="battle")
    sc.development(0, "camp", (-3, 0))
    sc.unit(0, "cavalry", (-2, 0))
    sc.unit(1, "soldier", (1, 0))
    state = sc.build()
    act(state, "activate cavalry", (-2, 0))
    act(state, "move", (1, 0))
    return state


@pytest.mark.parametrize("position, kind, asked", [
    (_defend_position, CHOOSE_DEFENDER, 1), (_side_position, CHOOSE_SIDE, 0)])
def test_pending_choice_round_trips(position, kind, asked):
    """A state waiting on a pending choice saves and loads exactly: the question, who is asked
    (out of turn for a defender), the decisions offered, and the game after the answer."""
    state = position()
    assert state.pending is not None and state.pending.kind == kind
    assert state.current_player == asked
    text = to_json(state)
    assert json.loads(text)["interrupts"]["pending"] == state.pending.to_list()
    loaded = from_json(text)
    assert to_json(loaded) == text
    assert loaded.pending.to_list() == state.pending.to_list()
    assert loaded.current_player == asked
    legal = legal_actions(state)
    assert legal_actions(loaded) == legal and len(legal) >= 2
    # Every answer gives the same game from the original and from the loaded copy.
    for code in legal:
        a, b = state.clone(), from_json(text)
        a.forced_dice[:] = b.forced_dice[:] = [6, 1] * 4
        apply_action(a, code)
        apply_action(b, code)
        assert a.pending is None
        assert to_json(a) == to_json(b)


def test_a_state_pickles_and_copies_whole() -> None:
    """GameState's tables are views of one buffer: pickle and copy go through clone or the
    saved-state format, and give the same position (and the same game from there)."""
    import copy
    import pickle
    import random as _random

    from vigtavl_env.game import engine_digest as state_digest
    from vigtavl_env.engine import apply_action, legal_actions, load_map, new_game

    state = new_game(load_map("duel"), seed=3)
    rng = _random.Random(3)
    for _ in range(60):
        legal = legal_actions(state)
        apply_action(state, rng.choice(legal), legal)
    for other in (pickle.loads(pickle.dumps(state)), copy.deepcopy(state), copy.copy(state)):
        assert state_digest(other) == state_digest(state) and other.events == state.events
        a, b = state.clone(), other
        for _ in range(40):
            if a.is_over:
                break
            legal = legal_actions(a)
            assert legal_actions(b) == legal
            code = legal[len(legal) // 2]
            apply_action(a, code, legal)
            apply_action(b, code, legal)
        assert state_digest(a) == state_digest(b)
