"""Hex geometry: axial coordinates, the hexagonal board, and every table the rules need per board.

This module owns all hex arithmetic in the project (nothing else loops over neighbours by hand).
Coordinates follow Red Blob Games' guide: axial ``(q, r)`` with the implied cube ``s = -q - r``;
distance is ``max(|dq|, |dr|, |ds|)``.

Directions (pointy-top hexes, screen y grows downwards)::

        2 NW   1 NE
    3 W    (q,r)    0 E
        4 SW   5 SE

``DIRECTIONS[d]`` is the axial offset of direction ``d``; ``(d + 3) % 6`` is its opposite.
Ranged attacks travel "in straight lines perpendicular to the centre of each hex edge": those are
exactly the six rays ``c + k * DIRECTIONS[d]``.

A board of ``side`` hexes a side has radius ``R = side - 1`` and ``3R(R+1)+1`` cells, numbered
row by row (r ascending, then q ascending). The tensor layout used by observations and actions is
the axial square ``(2R+1) x (2R+1)`` with ``row = r + R`` and ``col = q + R``; cells off the
hexagon are unused, so every neighbour direction is the same array offset everywhere.

All tables are computed once per board by :class:`Board` and are read-only afterwards.
"""

from __future__ import annotations

import math
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any

Axial = tuple[int, int]

DIRECTIONS: tuple[Axial, ...] = ((1, 0), (1, -1), (0, -1), (-1, 0), (-1, 1), (0, 1))
DIRECTION_NAMES = ("E", "NE", "NW", "W", "SW", "SE")
MAX_RANGE = 3  # longest ranged attack in the Stats table


def opposite(d: int) -> int:
    """The direction pointing back along ``d``."""
    return (d + 3) % 6


def neighbour(c: Axial, d: int) -> Axial:
    """The axial coordinate one step from ``c`` in direction ``d``."""
    return (c[0] + DIRECTIONS[d][0], c[1] + DIRECTIONS[d][1])


def distance(a: Axial, b: Axial) -> int:
    """Hex distance between two axial coordinates."""
    dq, dr = a[0] - b[0], a[1] - b[1]
    return max(abs(dq), abs(dr), abs(dq + dr))


def nearest(dist: Any, cells: Iterable[int]) -> list[int]:
    """The cells of ``cells`` nearest by ``dist`` (one row of a board's distances), in the order
    given: "the nearest developed hex" (a prison), the nearest free hexes (rescued prisoners)."""
    best, out = -1, []
    for c in cells:
        if best < 0 or dist[c] < best:
            best, out = dist[c], [c]
        elif dist[c] == best:
            out.append(c)
    return out


def rotate60(c: Axial, times: int = 1) -> Axial:
    """Rotate ``c`` about the centre by ``times`` x 60 degrees (clockwise on screen: E becomes SE)."""
    q, r = c
    for _ in range(times % 6):
        s = -q - r
        q, r = -r, -s  # cube (q, r, s) -> (-r, -s, -q)
    return (q, r)


def angular_gap(a: int, b: int) -> int:
    """How many 60-degree steps separate directions ``a`` and ``b`` (0..3)."""
    g = (a - b) % 6
    return min(g, 6 - g)


def pixel(c: Axial, size: float = 1.0) -> tuple[float, float]:
    """Centre of a pointy-top hex in screen coordinates (y down)."""
    q, r = c
    return (size * math.sqrt(3) * (q + r / 2), size * 1.5 * r)


def hexagon(radius: int) -> list[Axial]:
    """All axial coordinates of a hexagonal board of the given radius, row by row."""
    return [
        (q, r)
        for r in range(-radius, radius + 1)
        for q in range(-radius, radius + 1)
        if abs(q + r) <= radius
    ]


@dataclass(frozen=True, eq=False)
class Board:
    """Per-board lookup tables (geometry only; terrain lives in :class:`~vigtavl_env.engine.maps.GameMap`).

    Boards compare and hash by identity: the tables are derived from ``side`` alone.

    Attributes:
        side: hexes per side (6, 7 or 8 for 2, 3, 4 players).
        radius: ``side - 1``.
        coords: axial coordinate of each cell index.
        index: axial coordinate -> cell index.
        neighbours: ``neighbours[c][d]`` is the cell in direction ``d`` or -1 off the board.
        adjacent: the on-board neighbours of each cell; ``around``: the cell and its adjacent.
        edge: ``edge[c][d]`` is the id of the edge between ``c`` and its direction-``d`` side;
            interior edges are shared by both cells, border edges belong to one cell.
        edge_cells: for each edge id, the two cells it separates (second is -1 on the border).
        edge_first: for each edge id, ``(cell, direction)`` naming it from its first cell.
        edge_vertices: for each edge id, its two corner ids (edges sharing a corner touch).
        vertex_edges: for each corner id, the edges that meet there (3 inside, 2 on the border).
        rays: ``rays[c][d]`` is the list of ``(cell, edge_crossed)`` steps outward from ``c`` in
            direction ``d``, at most :data:`MAX_RANGE` long, stopping at the board's border.
        sides: the six border sides in clockwise order (on screen), each a tuple of cells;
            corner cells belong to two sides.
        cell_sides: for each cell, the sides it lies on (empty for inner cells).
        dist: ``dist[a][b]`` hex distance between cells.
        direction: ``direction[a][b]`` the direction of the straight ray from ``a`` that passes
            through ``b``, or -1 (:meth:`direction_between`).
        tensor_index: cell -> ``row * width + col`` in the axial square tensor.
    """

    side: int
    radius: int = field(init=False)
    coords: tuple[Axial, ...] = field(init=False)
    index: dict[Axial, int] = field(init=False)
    neighbours: tuple[tuple[int, ...], ...] = field(init=False)
    adjacent: tuple[tuple[int, ...], ...] = field(init=False)
    around: tuple[tuple[int, ...], ...] = field(init=False)
    edge: tuple[tuple[int, ...], ...] = field(init=False)
    edge_cells: tuple[tuple[int, int], ...] = field(init=False)
    edge_first: tuple[tuple[int, int], ...] = field(init=False)
    edge_vertices: tuple[tuple[int, int], ...] = field(init=False)
    vertex_edges: tuple[tuple[int, ...], ...] = field(init=False)
    rays: tuple[tuple[tuple[tuple[int, int], ...], ...], ...] = field(init=False)
    sides: tuple[tuple[int, ...], ...] = field(init=False)
    cell_sides: tuple[tuple[int, ...], ...] = field(init=False)
    dist: tuple[tuple[int, ...], ...] = field(init=False)
    direction: tuple[tuple[int, ...], ...] = field(init=False)
    tensor_index: tuple[int, ...] = field(init=False)

    def __post_init__(self) -> None:
        if not isinstance(self.side, int) or self.side < 2:
            raise ValueError(f"board side must be an int >= 2, got {self.side!r}")
        radius = self.side - 1
        coords = tuple(hexagon(radius))
        index = {c: i for i, c in enumerate(coords)}
        neighbours = tuple(
            tuple(index.get(neighbour(c, d), -1) for d in range(6)) for c in coords
        )
        edge, edge_cells = _edges(neighbours)
        set_ = object.__setattr__
        set_(self, "radius", radius)
        set_(self, "coords", coords)
        set_(self, "index", index)
        set_(self, "neighbours", neighbours)
        set_(self, "adjacent", tuple(tuple(n for n in nbs if n >= 0) for nbs in neighbours))
        set_(self, "around", tuple((c,) + self.adjacent[c] for c in range(len(coords))))
        set_(self, "edge", edge)
        set_(self, "edge_cells", edge_cells)
        set_(self, "edge_first", tuple((a, edge[a].index(e)) for e, (a, _) in enumerate(edge_cells)))
        edge_vertices = _edge_vertices(coords, edge, len(edge_cells))
        set_(self, "edge_vertices", edge_vertices)
        by_vertex: dict[int, list[int]] = {}
        for e, (v1, v2) in enumerate(edge_vertices):
            by_vertex.setdefault(v1, []).append(e)
            by_vertex.setdefault(v2, []).append(e)
        set_(self, "vertex_edges", tuple(tuple(by_vertex[v]) for v in range(len(by_vertex))))
        set_(self, "rays", _rays(coords, index, edge))
        sides = _sides(coords, radius)
        set_(self, "sides", sides)
        set_(self, "cell_sides", tuple(
            tuple(k for k, s in enumerate(sides) if i in s) for i in range(len(coords))
        ))
        set_(self, "dist", tuple(tuple(distance(a, b) for b in coords) for a in coords))
        set_(self, "direction", tuple(tuple(_ray_direction(a, b) for b in coords) for a in coords))
        width = 2 * radius + 1
        set_(self, "tensor_index", tuple((r + radius) * width + (q + radius) for q, r in coords))

    @property
    def n_cells(self) -> int:
        return len(self.coords)

    @property
    def n_edges(self) -> int:
        return len(self.edge_cells)

    @property
    def width(self) -> int:
        """Width (and height) of the axial square tensor."""
        return 2 * self.radius + 1

    def direction_between(self, a: int, b: int) -> int:
        """Direction ``d`` with ``b`` on the straight ray from ``a`` in direction ``d``, or -1."""
        return self.direction[a][b]

    def common_neighbours(self, a: int, b: int) -> list[int]:
        """Cells adjacent to both ``a`` and ``b`` (two for adjacent interior cells)."""
        nb = set(self.neighbours[b])
        return [c for c in self.neighbours[a] if c >= 0 and c in nb]


def _ray_direction(a: Axial, b: Axial) -> int:
    """Direction ``d`` with hex ``b`` on the straight ray from hex ``a`` in direction ``d``, or -1
    (``b`` is ``a``, or off every ray)."""
    (aq, ar), (bq, br) = a, b
    dq, dr = bq - aq, br - ar
    k = max(abs(dq), abs(dr), abs(dq + dr))
    if k == 0 or dq % k or dr % k:
        return -1
    try:
        return DIRECTIONS.index((dq // k, dr // k))
    except ValueError:
        return -1


def _edges(neighbours: tuple[tuple[int, ...], ...]) -> tuple[tuple[tuple[int, ...], ...], tuple[tuple[int, int], ...]]:
    edge = [[-1] * 6 for _ in neighbours]
    cells: list[tuple[int, int]] = []
    for c, nbs in enumerate(neighbours):
        for d, n in enumerate(nbs):
            if edge[c][d] >= 0:
                continue
            eid = len(cells)
            edge[c][d] = eid
            if n >= 0:
                edge[n][opposite(d)] = eid
            cells.append((c, n))
    return tuple(tuple(e) for e in edge), tuple(cells)


def _edge_vertices(coords: tuple[Axial, ...], edge: tuple[tuple[int, ...], ...], n_edges: int) -> tuple[tuple[int, int], ...]:
    # A corner is where three hexes meet: c and its neighbours in two adjacent directions.
    vid: dict[frozenset, int] = {}
    out: list[tuple[int, int]] = [(-1, -1)] * n_edges
    for c, ax in enumerate(coords):
        for d in range(6):
            ends = []
            for d2 in ((d + 5) % 6, (d + 1) % 6):
                key = frozenset((ax, neighbour(ax, d), neighbour(ax, d2)))
                ends.append(vid.setdefault(key, len(vid)))
            out[edge[c][d]] = (ends[0], ends[1])
    return tuple(out)


def _rays(coords: tuple[Axial, ...], index: dict[Axial, int], edge: tuple[tuple[int, ...], ...]):
    rays = []
    for ax in coords:
        per_dir = []
        for d in range(6):
            steps = []
            prev, cur = index[ax], ax
            for _ in range(MAX_RANGE):
                cur = neighbour(cur, d)
                nxt = index.get(cur, -1)
                if nxt < 0:
                    break
                steps.append((nxt, edge[prev][d]))
                prev = nxt
            per_dir.append(tuple(steps))
        rays.append(tuple(per_dir))
    return tuple(rays)


def _sides(coords: tuple[Axial, ...], radius: int) -> tuple[tuple[int, ...], ...]:
    """The six straight sides of the hexagon, ordered clockwise on screen."""
    lines = []
    for axis in range(3):
        for sign in (1, -1):
            cells = tuple(
                i for i, (q, r) in enumerate(coords) if (q, r, -q - r)[axis] == sign * radius
            )
            lines.append(cells)

    def angle(cells: tuple[int, ...]) -> float:
        xs = [pixel(coords[i]) for i in cells]
        x = sum(p[0] for p in xs) / len(xs)
        y = sum(p[1] for p in xs) / len(xs)
        return math.atan2(y, x)  # y points down, so increasing angle is clockwise on screen

    return tuple(sorted(lines, key=angle))
