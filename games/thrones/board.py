"""The square board's geometry, precomputed once per size: neighbours, rays, homes.

Cells are numbered row-major in seat 0's frame: row 0 is the top, seat 1's back row; seat 0's
home is the bottom ``home_height`` rows, the middle row between. Seat 1 sees the board turned by
half a turn, which is the same numbering read backwards (``N - 1 - cell``)::

    width 5, home_height 2 (N = 25):      row
       0  1  2  3  4    seat 1's home      0   (its back row: the board's edge)
       5  6  7  8  9    seat 1's home      1   (its front row)
      10 11 12 13 14    middle row         2
      15 16 17 18 19    seat 0's home      3   (its front row)
      20 21 22 23 24    seat 0's home      4   (its back row: the board's edge)

Directions, as ``DIRS`` (dx, dy): 0 up-left, 1 up, 2 up-right, 3 left, 4 right, 5 down-left,
6 down, 7 down-right; the four straight ones are ``STRAIGHT``.
"""

from __future__ import annotations

from functools import cache

from .config import FIRING_RANGE

DIRS = ((-1, -1), (0, -1), (1, -1), (-1, 0), (1, 0), (-1, 1), (0, 1), (1, 1))
STRAIGHT = (1, 3, 4, 6)


class Board:
    """Tables of one board size. ``rays[c][d]`` lists the cells from ``c`` outward in
    direction ``d``; ``adj[c]`` the up-to-8 neighbours."""

    def __init__(self, width: int, home_height: int) -> None:
        self.w, self.hh = width, home_height
        self.h = 2 * home_height + 1
        self.n = self.w * self.h
        self.mid_row = home_height
        self.rays: list[tuple[tuple[int, ...], ...]] = []
        for c in range(self.n):
            x, y = c % self.w, c // self.w
            per_dir = []
            for dx, dy in DIRS:
                ray, cx, cy = [], x + dx, y + dy
                while 0 <= cx < self.w and 0 <= cy < self.h:
                    ray.append(cy * self.w + cx)
                    cx, cy = cx + dx, cy + dy
                per_dir.append(tuple(ray))
            self.rays.append(tuple(per_dir))
        self.adj = [tuple(r[0] for r in rs if r) for rs in self.rays]
        self.middle = tuple(range(self.mid_row * self.w, (self.mid_row + 1) * self.w))
        # each seat's home cells in its own reading order: its front row first, left to right
        own0 = [c for y in range(self.mid_row + 1, self.h) for c in range(y * self.w, (y + 1) * self.w)]
        self.home = (tuple(own0), tuple(self.n - 1 - c for c in own0))
        self.home_of = [-1] * self.n
        for s in (0, 1):
            for c in self.home[s]:
                self.home_of[c] = s
        # each home's rows in its reading order, and the edge cells (the setup's masks ask often)
        self.rows = tuple(tuple(h[i:i + self.w] for i in range(0, len(h), self.w)) for h in self.home)
        self.edge = tuple(self.on_edge(c) for c in range(self.n))
        # bit masks for "is an enemy within reach" tests: the cells next to each cell, and the
        # cells exactly r down one of its rays (r a firing range)
        self.near_mask = tuple(sum(1 << a for a in self.adj[c]) for c in range(self.n))
        self.ring_mask = {r: tuple(sum(1 << ray[r - 1] for ray in self.rays[c] if len(ray) >= r)
                                   for c in range(self.n)) for r in set(FIRING_RANGE.values())}

    def rel(self, seat: int, cell: int) -> int:
        """A cell in ``seat``'s frame from the absolute one (and back: the map is its own inverse)."""
        return cell if seat == 0 else self.n - 1 - cell

    def xy(self, cell: int) -> tuple[int, int]:
        return cell % self.w, cell // self.w

    def on_edge(self, cell: int) -> bool:
        """The cell borders the board's boundary (page: no Fortress there)."""
        x, y = self.xy(cell)
        return x in (0, self.w - 1) or y in (0, self.h - 1)

    def name(self, cell: int) -> str:
        """``a1``-style name in seat 0's frame: column letter(s), row counted from the bottom."""
        x, y = self.xy(cell)
        col = chr(ord("a") + x) if x < 26 else f"c{x}"
        return f"{col}{self.h - y}"


@cache
def board_for(width: int, home_height: int) -> Board:
    return Board(width, home_height)
