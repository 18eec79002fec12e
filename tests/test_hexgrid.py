"""Property tests for hexgrid: the hex metric, rotation, and every per-board table."""

from __future__ import annotations

import math

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from vigtavl_env.engine.hexgrid import (
    DIRECTIONS, MAX_RANGE, Board, distance, hexagon, neighbour, opposite, pixel, rotate60,
)

SIDES = (6, 7, 8)
BOARDS = {side: Board(side) for side in SIDES}  # read-only tables, shared by the tests

coord = st.tuples(st.integers(-30, 30), st.integers(-30, 30))
direction = st.integers(0, 5)
side_st = st.sampled_from(SIDES)


def cell_of(data: st.DataObject, board: Board) -> int:
    return data.draw(st.integers(0, board.n_cells - 1))


# --- the metric and rotation -----------------------------------------------------------------


@given(coord, coord, coord)
def test_distance_is_a_metric(a, b, c):
    assert distance(a, a) == 0
    assert distance(a, b) == distance(b, a)
    assert (distance(a, b) == 0) == (a == b)
    assert distance(a, c) <= distance(a, b) + distance(b, c)


@given(coord, direction)
def test_neighbour_is_one_step_and_opposite_comes_back(c, d):
    n = neighbour(c, d)
    assert distance(c, n) == 1
    assert neighbour(n, opposite(d)) == c
    assert opposite(opposite(d)) == d


@given(coord)
def test_six_directions_are_all_the_neighbours(c):
    ring = {neighbour(c, d) for d in range(6)}
    assert len(ring) == 6
    assert all(distance(c, n) == 1 for n in ring)


@given(coord, st.integers(-12, 12))
def test_rotate60_six_times_is_identity_and_keeps_distance_to_origin(c, k):
    assert rotate60(c, 6) == c
    assert rotate60(rotate60(c, k), -k) == c
    assert rotate60(c, k) == rotate60(c, k % 6)
    assert distance(rotate60(c, k), (0, 0)) == distance(c, (0, 0))


@given(coord, coord, st.integers(0, 5))
def test_rotate60_is_an_isometry(a, b, k):
    assert distance(rotate60(a, k), rotate60(b, k)) == distance(a, b)


@given(coord)
def test_rotate60_turns_60_degrees_about_the_centre(c):
    x, y = pixel(c)
    rx, ry = pixel(rotate60(c))
    assert math.isclose(math.hypot(x, y), math.hypot(rx, ry), abs_tol=1e-9)
    if c != (0, 0):
        cos = (x * rx + y * ry) / (math.hypot(x, y) * math.hypot(rx, ry))
        assert math.isclose(cos, 0.5, abs_tol=1e-9)


def test_rotate60_permutes_the_directions_one_step():
    images = [DIRECTIONS.index(rotate60(DIRECTIONS[d])) for d in range(6)]
    steps = {(images[d] - d) % 6 for d in range(6)}
    assert len(steps) == 1 and steps <= {1, 5}


# --- board tables ----------------------------------------------------------------------------


@pytest.mark.parametrize("side", [2, 3, 4, 5, 6, 7, 8])
def test_board_sizes(side):
    board = BOARDS.get(side) or Board(side)
    r = side - 1
    assert board.radius == r
    assert board.n_cells == 3 * r * (r + 1) + 1 == len(hexagon(r))
    assert board.n_edges == 3 * (r + 1) * (3 * r + 2)  # Euler: E = V + F - 2 with V = 6(R+1)^2
    assert len({v for e in board.edge_vertices for v in e}) == 6 * (r + 1) ** 2


@pytest.mark.parametrize("bad", [0, 1, -3, 2.0, "6"])
def test_board_rejects_bad_sides(bad):
    with pytest.raises(ValueError):
        Board(bad)


@pytest.mark.parametrize("side", SIDES)
def test_coords_and_index_agree(side):
    board = BOARDS[side]
    assert len(set(board.coords)) == board.n_cells
    assert all(board.index[c] == i for i, c in enumerate(board.coords))
    assert list(board.coords) == sorted(board.coords, key=lambda c: (c[1], c[0]))  # row by row
    assert all(distance(c, (0, 0)) <= board.radius for c in board.coords)


@pytest.mark.parametrize("side", SIDES)
def test_neighbours_are_symmetric_and_match_geometry(side):
    board = BOARDS[side]
    for a in range(board.n_cells):
        for d, b in enumerate(board.neighbours[a]):
            expected = board.index.get(neighbour(board.coords[a], d), -1)
            assert b == expected
            if b >= 0:
                assert board.neighbours[b][opposite(d)] == a
                assert board.dist[a][b] == 1


@pytest.mark.parametrize("side", SIDES)
def test_edges_shared_by_both_cells_and_edge_cells_consistent(side):
    board = BOARDS[side]
    seen = {}
    for c in range(board.n_cells):
        for d in range(6):
            e = board.edge[c][d]
            assert 0 <= e < board.n_edges
            n = board.neighbours[c][d]
            if n >= 0:
                assert board.edge[n][opposite(d)] == e
                assert set(board.edge_cells[e]) == {c, n}
            else:
                assert board.edge_cells[e] == (c, -1)
            seen.setdefault(e, set()).add(c)
    assert set(seen) == set(range(board.n_edges))
    for e, cells in seen.items():
        assert cells == {x for x in board.edge_cells[e] if x >= 0}


@pytest.mark.parametrize("side", SIDES)
def test_edge_vertices_form_a_hexagon_around_each_cell(side):
    board = BOARDS[side]
    for e, (v1, v2) in enumerate(board.edge_vertices):
        assert v1 != v2 and v1 >= 0 and v2 >= 0
    for c in range(board.n_cells):
        ring = [set(board.edge_vertices[board.edge[c][d]]) for d in range(6)]
        assert len(set().union(*ring)) == 6
        for d in range(6):
            assert len(ring[d] & ring[(d + 1) % 6]) == 1  # neighbouring edges meet at a corner
            assert not ring[d] & ring[(d + 3) % 6]


@settings(max_examples=150)
@given(side_st, st.data())
def test_rays_are_straight_and_stop_at_the_border(side, data):
    board = BOARDS[side]
    c = cell_of(data, board)
    for d in range(6):
        ray = board.rays[c][d]
        prev = c
        for k, (cell, crossed) in enumerate(ray, start=1):
            q, r = board.coords[c]
            assert board.coords[cell] == (q + k * DIRECTIONS[d][0], r + k * DIRECTIONS[d][1])
            assert board.dist[c][cell] == k
            assert crossed == board.edge[prev][d]
            prev = cell
        assert len(ray) <= MAX_RANGE
        if len(ray) < MAX_RANGE:
            assert board.neighbours[prev][d] == -1


@pytest.mark.parametrize("side", SIDES)
def test_sides_cover_the_outer_ring(side):
    board = BOARDS[side]
    ring = {i for i, c in enumerate(board.coords) if distance(c, (0, 0)) == board.radius}
    assert len(board.sides) == 6
    assert all(len(s) == side and len(set(s)) == side for s in board.sides)
    assert set().union(*map(set, board.sides)) == ring
    for c in range(board.n_cells):
        on = board.cell_sides[c]
        assert on == tuple(k for k in range(6) if c in board.sides[k])
        corner = board.coords[c] in {tuple(board.radius * x for x in dv) for dv in DIRECTIONS}
        assert len(on) == (2 if corner else 1 if c in ring else 0)


@pytest.mark.parametrize("side", SIDES)
def test_sides_are_in_clockwise_order(side):
    board = BOARDS[side]
    for k in range(6):
        a, b = set(board.sides[k]), set(board.sides[(k + 1) % 6])
        assert len(a & b) == 1  # consecutive sides share exactly one corner
        assert not a & set(board.sides[(k + 3) % 6])
    centres = []
    for s in board.sides:
        xs = [pixel(board.coords[c]) for c in s]
        centres.append((sum(x for x, _ in xs) / len(xs), sum(y for _, y in xs) / len(xs)))
    for k in range(6):
        (ax, ay), (bx, by) = centres[k], centres[(k + 1) % 6]
        assert ax * by - ay * bx > 0  # with screen y pointing down, positive cross = clockwise


@pytest.mark.parametrize("side", SIDES)
def test_tensor_index_unique_and_aligned(side):
    board = BOARDS[side]
    idx = board.tensor_index
    assert len(set(idx)) == board.n_cells
    assert all(0 <= t < board.width * board.width for t in idx)
    for c, (q, r) in enumerate(board.coords):
        assert idx[c] == (r + board.radius) * board.width + (q + board.radius)
        for d, n in enumerate(board.neighbours[c]):
            if n >= 0:  # every direction is one fixed array offset
                assert idx[n] - idx[c] == DIRECTIONS[d][1] * board.width + DIRECTIONS[d][0]


@given(side_st, st.data())
def test_direction_between_on_rays(side, data):
    board = BOARDS[side]
    c = cell_of(data, board)
    for d in range(6):
        for cell, _ in board.rays[c][d]:
            assert board.direction_between(c, cell) == d
            assert board.direction_between(cell, c) == opposite(d)


@given(side_st, st.data())
def test_direction_between_off_lines_is_minus_one(side, data):
    board = BOARDS[side]
    a, b = cell_of(data, board), cell_of(data, board)
    (aq, ar), (bq, br) = board.coords[a], board.coords[b]
    dq, dr = bq - aq, br - ar
    on_line = a != b and (dq == 0 or dr == 0 or dq == -dr)
    got = board.direction_between(a, b)
    if on_line:
        k = board.dist[a][b]
        assert got >= 0 and DIRECTIONS[got] == (dq // k, dr // k)
    else:
        assert got == -1


@given(side_st, st.data())
def test_common_neighbours(side, data):
    board = BOARDS[side]
    a, b = cell_of(data, board), cell_of(data, board)
    common = board.common_neighbours(a, b)
    assert all(board.dist[a][c] == 1 == board.dist[b][c] for c in common)
    expected = {c for c in range(board.n_cells) if board.dist[a][c] == 1 == board.dist[b][c]}
    assert set(common) == expected


@pytest.mark.parametrize("side", SIDES)
def test_dist_table_matches_distance(side):
    board = BOARDS[side]
    for a in range(0, board.n_cells, 7):
        for b in range(board.n_cells):
            assert board.dist[a][b] == distance(board.coords[a], board.coords[b])
