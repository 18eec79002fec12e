"""Per-map tables, built once per map by whoever owns the cache (a bot keeps one :class:`MapInfo`
per map it has seen): neighbours, shores, land distances, sea distances under each wind, where
a unit can reach; and :class:`Recent`, the small cache of the last positions seen (their
threats, tables and scores).
"""

from __future__ import annotations

import threading
from array import array
from collections import OrderedDict
from typing import Any, Callable

import numpy as np

from vigtavl_env.engine.state import GameState, LOADED
from vigtavl_env.engine.stats import IS_SHIP



INF = 99


class Recent:
    """The values of the last ``size`` keys used, the least recently used dropped first."""

    def __init__(self, size: int) -> None:
        self.size = size
        # hash(key) -> (key, value): a big key is hashed once per look-up, not twice.
        self._d: OrderedDict[int, tuple] = OrderedDict()

    def get(self, key: Any, make: Callable[[], Any]) -> Any:
        """The value for ``key``, made by ``make()`` if it is not kept.

        Safe to share between threads (the map tables are, :func:`map_info`): a race can drop
        or make again an entry, never raise."""
        d = self._d
        h = hash(key)
        e = d.get(h)
        if e is not None and e[0] == key:
            if d.pop(h, None) is not None:
                d[h] = e  # now the most recently used
            return e[1]
        v = make()
        d.pop(h, None)  # a different key with the same hash is replaced
        d[h] = (key, v)
        while len(d) > self.size:
            try:
                d.popitem(last=False)
            except KeyError:  # emptied by another thread meanwhile
                break
        return v


# MapInfo of the maps met lately, shared by every bot of the process: equal maps (name, player
# count and terrain) have equal tables, and a bot made for each game (a match, the vector env's
# opponents) would otherwise build them again each time, about a tenth of a heuristic game.
_MAPS_KEPT = 8
_maps: OrderedDict = OrderedDict()
_maps_lock = threading.Lock()


def map_info(gmap: Any) -> "MapInfo":
    """The :class:`MapInfo` of ``gmap``, built once per process for equal maps (the last
    ``_MAPS_KEPT`` maps are kept)."""
    with _maps_lock:
        info = _maps.get(gmap)
        if info is not None:
            _maps.move_to_end(gmap)
            return info
    info = MapInfo(gmap)  # outside the lock: another thread's map need not wait
    with _maps_lock:
        info = _maps.setdefault(gmap, info)
        while len(_maps) > _MAPS_KEPT:
            _maps.popitem(last=False)
    return info


class MapInfo:
    """Static per-map tables, computed once per map: distances over land (knights), over sea
    (ships, with the winds of either direction), from a freighter's deck to land, adjacency
    and the straight rays of ranged attacks (stopped by mountains), as numpy matrices."""

    def __init__(self, gmap: Any) -> None:
        self.gmap = gmap
        board = gmap.board
        self.n = n = board.n_cells
        self.nb = [tuple(x for x in board.neighbours[c] if x >= 0) for c in range(n)]
        self.is_land = gmap.is_land
        self.is_sea = gmap.is_sea
        self.coastal = gmap.coastal
        self.dist = board.dist  # steps between two hexes, [a][b]
        self.dist_flat = array("i", [d for row in board.dist for d in row])  # the same, [a * n + b]
        # the direction from a to b along a ray, -1 off every ray ([a * n + b]: Board.direction_between)
        self.direction_flat = array("i", [d for row in board.direction for d in row])
        self.shore = [tuple(x for x in self.nb[c] if gmap.is_land[x]) for c in range(n)]
        self.sea_nb = [tuple(x for x in self.nb[c] if gmap.is_sea[x]) for c in range(n)]
        self.land_dist = [self._bfs(c, gmap.is_land, None) for c in range(n)]
        self.land_order = [sorted((d, x) for x, d in enumerate(row) if d < INF) for row in self.land_dist]
        self.LD = np.array(self.land_dist, dtype=np.int16)
        # From a freighter on sea hex c: one step ashore, then over land.
        deck = np.full((n, n), INF, dtype=np.int16)
        for c in range(n):
            for y in self.shore[c]:
                deck[c] = np.minimum(deck[c], self.LD[y] + 1)
        self.DECK = deck
        self.deck_list = deck.tolist()
        # The same tables as flat C int arrays (row * n + column), for the typed loops of
        # tactics.threats (the neighbours are the state's own ``nbr``); the rays as
        # (hex * 6 + direction) * 3 + range - 1 -> hex, -1 past a ray's end (mountains and the
        # board's edge stop it).
        self.land_flat = array("i", self.LD.ravel().tolist())
        self.deck_flat = array("i", deck.ravel().tolist())
        rays, crossed = array("i", [-1]) * (n * 18), array("i", [-1]) * (n * 18)
        for c in range(n):
            for d in range(6):
                for k, (x, e) in enumerate(board.rays[c][d], start=1):
                    if not (gmap.is_land[x] or gmap.is_sea[x]):
                        break
                    rays[(c * 6 + d) * 3 + k - 1] = x
                    crossed[(c * 6 + d) * 3 + k - 1] = e
        self.rays_flat = rays
        self.ray_edges_flat = crossed  # the edge each step of a ray crosses (a wall there stops it)
        self._sea: dict[int, tuple] = {}
        # Threats of the last positions seen: a search evaluates many futures of one turn, in
        # which most of one player's units stand where they stood.
        self.threat_cache = Recent(64)

    def _bfs(self, start: int, terrain: list[bool], wind: list | None) -> list[int]:
        """Steps from ``start`` to every hex of ``terrain`` (a step costs 1, a wind ride 2)."""
        dist = [INF] * self.n
        if not terrain[start]:
            return dist
        dist[start] = 0
        nb = self.nb
        buckets: list[list[int]] = [[start], [], []]  # hexes to expand, by distance
        k = 0
        while buckets[k] or buckets[k + 1]:
            for a in buckets[k]:
                if dist[a] != k:
                    continue
                for b in nb[a]:
                    if terrain[b] and dist[b] > k + 1:
                        dist[b] = k + 1
                        buckets[k + 1].append(b)
                if wind is not None:
                    for b in wind[a]:
                        if dist[b] > k + 2:
                            dist[b] = k + 2
                            buckets[k + 2].append(b)
            k += 1
            buckets.append([])
        return dist

    def _sea_tables(self, wind: int) -> tuple:
        if wind not in self._sea:
            gm = self.gmap
            targets = gm.wind_targets_cw if wind > 0 else gm.wind_targets_ccw
            rows = [self._bfs(c, gm.is_sea, targets) for c in range(self.n)]
            sd = np.array(rows, dtype=np.int16)
            # Distance for a ship to come next to hex x (on any sea hex beside it, or onto it).
            approach = np.full((self.n, self.n), INF, dtype=np.int16)
            for x in range(self.n):
                cols = list(self.sea_nb[x]) + ([x] if gm.is_sea[x] else [])
                if cols:
                    approach[:, x] = sd[:, cols].min(axis=1)
            self._sea[wind] = (rows, sd, approach, array("i", sd.ravel().tolist()),
                               array("i", approach.ravel().tolist()))
        return self._sea[wind]

    def sea_dist(self, wind: int) -> list[list[int]]:
        return self._sea_tables(wind)[0]

    def SD(self, wind: int) -> np.ndarray:
        return self._sea_tables(wind)[1]

    def SEA_APPROACH(self, wind: int) -> np.ndarray:
        return self._sea_tables(wind)[2]

    def sea_flat(self, wind: int) -> array:
        """:meth:`SD` as a flat C int array."""
        return self._sea_tables(wind)[3]

    def approach_flat(self, wind: int) -> array:
        """:meth:`SEA_APPROACH` as a flat C int array."""
        return self._sea_tables(wind)[4]

    def reach_list(self, state: GameState, u: int) -> list[int]:
        """:meth:`reach_row` as a plain list (fast to index one hex at a time)."""
        t = state.u_type[u]
        c = state.u_cell[u]
        if IS_SHIP[t]:
            return self.sea_dist(state.wind)[c]
        if state.u_where[u] == LOADED:
            return self.deck_list[c]
        return self.land_dist[c]

    def reach_row(self, state: GameState, u: int) -> np.ndarray:
        """Static distance from unit ``u`` to every hex it could stand on."""
        return self.distance_row(state.u_type[u], state.u_cell[u], state.u_where[u], state.wind)

    def distance_row(self, t: int, c: int, where: int, wind: int) -> np.ndarray:
        """:meth:`reach_row` of a unit of type ``t`` on hex ``c`` (``where``: on the board or
        aboard), for a caller that has read those already."""
        if IS_SHIP[t]:
            return self.SD(wind)[c]
        if where == LOADED:
            return self.DECK[c]
        return self.LD[c]
