"""Tests for maps: the GameMap tables, the text format, playability, the fair generator, presets."""

from __future__ import annotations

import re

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from vigtavl_env.engine import maps
from vigtavl_env.engine.hexgrid import Board, distance
from vigtavl_env.engine.maps import (
    DEFAULT_PRESET, LAND, MOUNTAIN, SEA, SIDE_FOR_PLAYERS, GameMap, format_map, generate_map,
    list_presets, load_map, parse_map, reflect, symmetric_images, validate_playable,
)

PLAYERS = (2, 3, 4)
PRESETS = {name: load_map(name) for name in DEFAULT_PRESET.values()}
fast = settings(max_examples=25, deadline=None)


def sea_ring_map(num_players: int, inner: int = LAND) -> list[int]:
    """Terrain with a sea outer ring and ``inner`` everywhere else."""
    board = Board(SIDE_FOR_PLAYERS[num_players])
    return [SEA if distance(c, (0, 0)) == board.radius else inner for c in board.coords]


def assert_symmetric(m: GameMap) -> None:
    board = m.board
    for c, axial in enumerate(board.coords):
        for image in symmetric_images(axial, m.num_players):
            assert m.terrain[board.index[image]] == m.terrain[c], (axial, image)


def error_line(err: pytest.ExceptionInfo) -> int:
    match = re.search(r"line (\d+)", str(err.value))
    assert match, str(err.value)
    return int(match.group(1))


# --- GameMap ---------------------------------------------------------------------------------


def test_gamemap_tables():
    m = PRESETS["duel"]
    nb = m.board.neighbours
    for c in range(m.board.n_cells):
        assert m.is_sea[c] == (m.terrain[c] == SEA)
        assert m.is_land[c] == (m.terrain[c] == LAND)
        assert m.coastal[c] == (m.is_land[c] and any(n >= 0 and m.is_sea[n] for n in nb[c]))
        assert m.border_sea[c] == (m.is_sea[c] and bool(m.board.cell_sides[c]))
    assert m.coastal_cells == tuple(c for c in range(m.board.n_cells) if m.coastal[c])
    assert m.border_sea_cells == tuple(c for c in range(m.board.n_cells) if m.border_sea[c])


def test_gamemap_equality_and_hash_ignore_derived_tables():
    a = PRESETS["duel"]
    b = GameMap("duel", 2, list(a.terrain))
    assert a == b and hash(a) == hash(b) and isinstance(b.terrain, tuple)
    assert a != GameMap("other", 2, a.terrain)


@pytest.mark.parametrize("args, words", [
    (("m", 5, (SEA,) * 91), "num_players"),
    (("m", 2, (SEA,) * 90), "90 values"),
    (("m", 2, (SEA,) * 90 + (7,)), "terrain[90]"),
    (("", 2, (SEA,) * 91), "name"),
    (("m", 3, (SEA,) * 91), "127 cells"),
])
def test_gamemap_rejects_bad_input(args, words):
    with pytest.raises(ValueError, match=re.escape(words)):
        GameMap(*args)


# --- winds -----------------------------------------------------------------------------------


@pytest.mark.parametrize("name", sorted(PRESETS))
@pytest.mark.parametrize("step, attr", [(1, "wind_targets_cw"), (-1, "wind_targets_ccw")])
def test_wind_targets_lie_on_the_next_side(name, step, attr):
    m = PRESETS[name]
    board = m.board
    targets = getattr(m, attr)
    for c in range(board.n_cells):
        if not m.border_sea[c]:
            assert targets[c] == ()
            continue
        onward = {(k + step) % 6 for k in board.cell_sides[c]}
        expected = {t for k in onward for t in board.sides[k] if m.is_sea[t]} - {c}
        assert set(targets[c]) == expected and expected
        assert all(m.is_sea[t] and m.border_sea[t] for t in targets[c])
        assert c not in targets[c]


@pytest.mark.parametrize("name", sorted(PRESETS))
def test_clockwise_and_counter_clockwise_winds_are_inverse(name):
    m = PRESETS[name]
    for c in range(m.board.n_cells):
        for t in m.wind_targets_cw[c]:
            assert c in m.wind_targets_ccw[t]
        for t in m.wind_targets_ccw[c]:
            assert c in m.wind_targets_cw[t]


def test_corner_cell_gets_both_sides():
    m = GameMap("open", 2, tuple(sea_ring_map(2)))
    board = m.board
    corner = next(c for c in range(board.n_cells) if len(board.cell_sides[c]) == 2)
    k1, k2 = board.cell_sides[corner]
    wanted = (set(board.sides[(k1 + 1) % 6]) | set(board.sides[(k2 + 1) % 6])) - {corner}
    assert set(m.wind_targets_cw[corner]) == wanted


# --- text format -----------------------------------------------------------------------------


@pytest.mark.parametrize("name", sorted(PRESETS))
def test_presets_round_trip(name):
    m = PRESETS[name]
    assert parse_map(format_map(m)) == m
    assert parse_map(format_map(m, comment="a note\nover two lines")) == m


@fast
@given(st.sampled_from(PLAYERS), st.integers(0, 10**6))
def test_generated_maps_round_trip(num_players, seed):
    m = generate_map(num_players, seed)
    text = format_map(m)
    assert parse_map(text) == m
    assert parse_map(text, name="renamed").name == "renamed"


def test_docstring_example_parses():
    example = maps.__doc__.split("::", 1)[1].split("Cell ``(q, r)``")[0]
    m = parse_map(example)
    assert m == PRESETS["duel"]


def test_parse_infers_players_from_rows_and_ignores_spacing():
    text = format_map(PRESETS["triad"])
    rows = [line for line in text.splitlines() if not line.startswith(("name", "players", "#"))]
    m = parse_map("\n".join(line.replace(" ", "") for line in rows))
    assert m.num_players == 3 and m.terrain == PRESETS["triad"].terrain and m.name == "custom"


def test_parse_accepts_unplayable_maps():
    m = parse_map("\n".join(_row(n, ".") for n in _row_lengths(2)))
    assert m.num_players == 2 and validate_playable(m)


def _row_lengths(num_players: int) -> list[int]:
    side = SIDE_FOR_PLAYERS[num_players]
    return [2 * side - 1 - abs(i) for i in range(1 - side, side)]


def _row(n: int, ch: str = "~") -> str:
    return " ".join(ch * n)


def _duel_lines() -> list[str]:
    return ["name: test", "players: 2", "# comment"] + [_row(n) for n in _row_lengths(2)]


def test_parse_error_unknown_char_names_line_and_column():
    lines = _duel_lines()
    lines[6] = lines[6][:4] + "x" + lines[6][5:]
    with pytest.raises(ValueError, match="unknown terrain 'x'") as err:
        parse_map("\n".join(lines))
    assert error_line(err) == 7 and "column 5" in str(err.value)


def test_parse_error_row_length():
    lines = _duel_lines()
    lines[8] += " ~"
    with pytest.raises(ValueError, match=r"has \d+ hexes, expected") as err:
        parse_map("\n".join(lines))
    assert error_line(err) == 9


def test_parse_error_too_few_rows():
    lines = _duel_lines()[:-1]
    with pytest.raises(ValueError, match="ends after 10 rows") as err:
        parse_map("\n".join(lines))
    assert error_line(err) == len(lines)


def test_parse_error_too_many_rows():
    lines = _duel_lines() + ["", _row(6)]
    with pytest.raises(ValueError, match="too many") as err:
        parse_map("\n".join(lines))
    assert error_line(err) == len(lines)


def test_parse_error_missing_players_and_odd_row_count():
    lines = _duel_lines()[2:-1]
    with pytest.raises(ValueError, match="no 'players: N' header") as err:
        parse_map("\n".join(lines))
    assert error_line(err) == len(lines)


@pytest.mark.parametrize("headers, words", [
    (["players: 5"], "players must be 2, 3 or 4"),
    (["players: two"], "players must be 2, 3 or 4"),
    (["colour: red"], "unknown header"),
    (["name: once", "# note", "name: again"], "repeated header"),
    (["name:"], "no value"),
])
def test_parse_error_headers(headers, words):
    lines = _duel_lines()[2:]  # the comment and the rows, no headers
    lines[1:1] = headers
    with pytest.raises(ValueError, match=words) as err:
        parse_map("\n".join(lines))
    assert error_line(err) == 1 + len(headers)


# --- playability -----------------------------------------------------------------------------


@pytest.mark.parametrize("name", sorted(PRESETS))
def test_presets_are_playable_and_symmetric(name):
    m = PRESETS[name]
    assert validate_playable(m) == []
    assert m.name == name and m.num_players == {v: k for k, v in DEFAULT_PRESET.items()}[name]
    assert_symmetric(m)


def _with(terrain: list[int], board: Board, cells: dict[tuple[int, int], int]) -> list[int]:
    for axial, kind in cells.items():
        terrain[board.index[axial]] = kind
    return terrain


def test_validate_reports_each_problem():
    board = Board(6)
    lake = _with(sea_ring_map(2), board, {(0, 0): SEA})
    assert any("separate bodies" in p for p in validate_playable(GameMap("m", 2, lake)))
    ringed = _with(sea_ring_map(2), board, {c: MOUNTAIN for c in [(1, 0), (1, -1), (0, -1),
                                                                  (-1, 0), (-1, 1), (0, 1)]})
    problems = validate_playable(GameMap("m", 2, ringed))
    assert any("separate regions" in p for p in problems)
    assert any("touches no sea" in p for p in problems)
    side0 = {board.coords[c]: LAND for c in board.sides[0]}
    assert any("side 0" in p for p in validate_playable(GameMap("m", 2, _with(sea_ring_map(2), board, side0))))
    all_sea = [SEA] * board.n_cells
    assert any("coastal" in p for p in validate_playable(GameMap("m", 2, all_sea)))
    assert validate_playable(GameMap("m", 2, sea_ring_map(2))) == []


# --- generator -------------------------------------------------------------------------------


@fast
@given(st.sampled_from(PLAYERS), st.integers(-10**6, 10**6))
def test_generated_maps_are_fair_and_playable(num_players, seed):
    m = generate_map(num_players, seed)
    assert m.num_players == num_players and m.board.side == SIDE_FOR_PLAYERS[num_players]
    assert validate_playable(m) == []
    assert_symmetric(m)
    board = m.board
    for c, axial in enumerate(board.coords):  # the symmetry the spec names, checked directly
        if num_players == 2:
            assert m.terrain[board.index[maps.rotate60(axial, 3)]] == m.terrain[c]
        elif num_players == 3:
            assert m.terrain[board.index[maps.rotate60(axial, 2)]] == m.terrain[c]
        else:
            assert m.terrain[board.index[maps.rotate60(axial, 3)]] == m.terrain[c]
            assert m.terrain[board.index[reflect(axial)]] == m.terrain[c]
    n = board.n_cells
    assert 0.33 <= m.terrain.count(LAND) / n <= 0.53
    assert 0.04 <= m.terrain.count(MOUNTAIN) / n <= 0.11
    ring = [c for c in range(n) if board.cell_sides[c]]
    assert sum(m.is_sea[c] for c in ring) >= 0.8 * len(ring)
    assert len(m.coastal_cells) >= 4 * num_players


@pytest.mark.parametrize("num_players", PLAYERS)
def test_generator_is_deterministic_and_varied(num_players):
    assert generate_map(num_players, 7) == generate_map(num_players, 7)
    terrains = {generate_map(num_players, seed).terrain for seed in range(12)}
    assert len(terrains) >= 11


def test_generator_rejects_bad_player_count():
    with pytest.raises(ValueError, match="num_players"):
        generate_map(5, 0)


def test_reflect_is_a_board_symmetry():
    board = Board(8)
    for axial in board.coords:
        image = reflect(axial)
        assert image in board.index and reflect(image) == axial
        assert distance(image, (0, 0)) == distance(axial, (0, 0))


# --- loading ---------------------------------------------------------------------------------


def test_list_presets():
    assert set(DEFAULT_PRESET.values()) <= set(list_presets())


@pytest.mark.parametrize("num_players, name", sorted(DEFAULT_PRESET.items()))
def test_load_each_preset(num_players, name):
    m = load_map(name, num_players)
    assert m.num_players == num_players and m.name == name


def test_load_mismatched_players_raises():
    with pytest.raises(ValueError, match="2 players, not 3"):
        load_map("duel", 3)
    with pytest.raises(ValueError, match="not 2"):
        load_map(PRESETS["quad"], 2)


def test_load_unknown_name_lists_presets():
    with pytest.raises(ValueError) as err:
        load_map("atlantis")
    assert all(name in str(err.value) for name in list_presets())


def test_load_random_and_gamemap_and_text():
    assert load_map("random", 3, seed=5) == generate_map(3, 5)
    assert load_map("random").num_players == 2
    assert load_map(PRESETS["triad"]) is PRESETS["triad"]
    assert load_map(format_map(PRESETS["quad"])) == PRESETS["quad"]


def test_load_path(tmp_path):
    text = format_map(PRESETS["duel"]).replace("name: duel\n", "")
    path = tmp_path / "island.txt"
    path.write_text(text)
    m = load_map(str(path), 2)
    assert m.name == "island" and m.terrain == PRESETS["duel"].terrain
    with pytest.raises(ValueError, match="not found"):
        load_map(str(tmp_path / "missing.txt"))
    path.write_text(text.replace("~", "?", 1))
    with pytest.raises(ValueError, match=r"island\.txt: line \d+"):
        load_map(str(path))


def test_load_unplayable_raises_unless_allowed():
    text = "\n".join(_row(n, ".") for n in _row_lengths(2))
    with pytest.raises(ValueError, match="not playable: .*side"):
        load_map(text)
    assert load_map(text, allow_unplayable=True).num_players == 2
