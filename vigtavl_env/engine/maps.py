"""Map terrain: the GameMap, the plain-text map format, playability checks, the fair generator, presets.

This module owns *what is where*: which hexes are sea, land or mountain, and the per-map tables the
rules read from terrain (sea/land masks, coast, border sea, the prevailing-wind exits). Geometry
(coordinates, neighbours, sides) comes from :mod:`vigtavl_env.engine.hexgrid`.

Rules quoted: "2 players - 6 hex edges, 3 players - 7, 4 players - 8"; "mountain hexes can not be
occupied or built on"; "Player's ships may enter the prevailing winds from any border sea hex, and
exit into any border sea hex on the next edge of the map".

Text format
-----------
Optional header lines ``name: <name>`` and ``players: <n>``, then the hexagon drawn row by row from
the top (``r = -R``) to the bottom (``r = R``), west to east, ``~`` sea, ``.`` land, ``^`` mountain.
Cells are separated by single spaces and rows indented so the drawing looks like the board; leading
spaces (and spaces between cells) are ignored when parsing. Lines starting with ``#`` are comments,
blank lines are skipped. Without a ``players`` header the row count decides it: 11 rows -> 2
players, 13 -> 3, 15 -> 4. The ``duel`` preset (2 players, side 6, R = 5)::

    name: duel
    players: 2
    # Two players, side 6: two ridged islands facing each other across a central channel.
         ~ ~ ~ ~ ~ ~
        ~ ~ ~ . . . ~
       ~ . . ~ . . ~ ~
      ~ . . ~ ~ ^ . . ~
     ~ . . . ~ ~ ^ ^ . ~
    ~ . . . ~ ~ ~ . . . ~
     ~ . ^ ^ ~ ~ . . . ~
      ~ . . ^ ~ ~ . . ~
       ~ ~ . . ~ . . ~
        ~ . . . ~ ~ ~
         ~ ~ ~ ~ ~ ~

Cell ``(q, r)`` is symbol number ``q - max(-R, -R - r)`` (from 0) of row ``r``. :func:`parse_map` reports
problems as ``ValueError("line N: ...")``; it accepts unplayable maps, :func:`load_map` does not.

Fair random maps (:func:`generate_map`) are symmetric between the players: 2 players 180-degree
rotation, 3 players 120-degree rotation, 4 players 180-degree rotation plus the mirror across the
west-east axis (so the four quadrants match).
"""

from __future__ import annotations

from array import array

import numbers
import random
import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path

from .actions import n_actions
from .hexgrid import Axial, Board, rotate60

SEA = 0
LAND = 1
MOUNTAIN = 2
TERRAIN_CHARS = {"~": SEA, ".": LAND, "^": MOUNTAIN}
CHAR_FOR_TERRAIN = {t: ch for ch, t in TERRAIN_CHARS.items()}
SIDE_FOR_PLAYERS = {2: 6, 3: 7, 4: 8}
PLAYERS_FOR_ROWS = {2 * side - 1: players for players, side in SIDE_FOR_PLAYERS.items()}
DEFAULT_PRESET = {2: "duel", 3: "triad", 4: "quad"}
PRESET_DIR = Path(__file__).resolve().parent / "presets"  # package data: installed with the engine
RANDOM_SPEC = "random"
DEFAULT_NAME = "custom"
MIN_COAST_PER_PLAYER = 2  # playable: at least this many coastal land hexes per player

# Generator targets, as fractions of all hexes.
LAND_FRACTION = (0.38, 0.48)
MOUNTAIN_FRACTION = (0.05, 0.09)
ACCEPT_LAND = (0.34, 0.52)  # land fraction a finished random map must have (after lake filling)
ACCEPT_MOUNTAIN = (0.04, 0.11)
MIN_OWN_COAST_ORBITS = 2  # coastal orbits of full size: each player's sector gets this many hexes
NEW_ISLAND_CHANCE = 0.12
MIN_ISLAND = 3  # smaller land regions are sunk
RIDGE_CONTINUE_CHANCE = 0.6
MAX_ATTEMPTS = 300

_HEADER = re.compile(r"^([A-Za-z_]+)\s*:\s*(.*)$")


@dataclass(frozen=True)
class GameMap:
    """A board's terrain plus the tables derived from it (computed once, read-only).

    Attributes:
        name, num_players, terrain: the map itself; ``terrain[c]`` is SEA, LAND or MOUNTAIN for
            each cell index ``c`` of ``board``. Only these three take part in ``==`` and hashing.
        board: the :class:`Board` for the player count (side 6, 7 or 8).
        is_sea, is_land: per-cell masks (mountains are neither).
        coastal: per cell, land with at least one sea neighbour.
        border_sea: per cell, sea on one of the board's six sides.
        coastal_cells, border_sea_cells: the same two sets as sorted tuples of cell indices.
        flat: neighbours, edges (both ``cell * 6 + direction``), is_sea and is_land in one
            ``array('i')``, for the compiled core (``GameState`` views it).
        codes: ``tuple(range(n_actions))``, the ints the legal lists are made of.
        wind_targets_cw, wind_targets_ccw: per cell, the border sea cells a ship on it reaches by
            riding the prevailing wind one side onward (side ``k`` -> ``k + 1`` clockwise,
            ``k - 1`` counter-clockwise, sides as in ``board.sides``); a corner cell gets the
            union for both its sides and never itself; ``()`` for inner or non-sea cells.
    """

    name: str
    num_players: int
    terrain: tuple[int, ...]
    board: Board = field(init=False, compare=False, repr=False)
    is_sea: tuple[bool, ...] = field(init=False, compare=False, repr=False)
    is_land: tuple[bool, ...] = field(init=False, compare=False, repr=False)
    coastal: tuple[bool, ...] = field(init=False, compare=False, repr=False)
    border_sea: tuple[bool, ...] = field(init=False, compare=False, repr=False)
    coastal_cells: tuple[int, ...] = field(init=False, compare=False, repr=False)
    border_sea_cells: tuple[int, ...] = field(init=False, compare=False, repr=False)
    wind_targets_cw: tuple[tuple[int, ...], ...] = field(init=False, compare=False, repr=False)
    wind_targets_ccw: tuple[tuple[int, ...], ...] = field(init=False, compare=False, repr=False)
    flat: array = field(init=False, compare=False, repr=False)
    codes: tuple[int, ...] = field(init=False, compare=False, repr=False)

    def __post_init__(self) -> None:
        _check_name(self.name)
        board = Board(side_for(self.num_players))
        terrain = _checked_terrain(self.terrain, board, self.num_players)
        is_sea = tuple(t == SEA for t in terrain)
        is_land = tuple(t == LAND for t in terrain)
        coastal = tuple(
            is_land[c] and any(n >= 0 and is_sea[n] for n in board.neighbours[c])
            for c in range(board.n_cells)
        )
        border_sea = tuple(is_sea[c] and bool(board.cell_sides[c]) for c in range(board.n_cells))
        set_ = object.__setattr__
        set_(self, "num_players", int(self.num_players))
        set_(self, "terrain", terrain)
        set_(self, "board", board)
        set_(self, "is_sea", is_sea)
        set_(self, "is_land", is_land)
        set_(self, "coastal", coastal)
        set_(self, "border_sea", border_sea)
        set_(self, "coastal_cells", tuple(c for c, x in enumerate(coastal) if x))
        set_(self, "border_sea_cells", tuple(c for c, x in enumerate(border_sea) if x))
        set_(self, "wind_targets_cw", wind_targets(board, border_sea, 1))
        set_(self, "wind_targets_ccw", wind_targets(board, border_sea, -1))
        # The tables the compiled core reads as C arrays (GameState.nbr, .nbr_edge, .sea, .land):
        # neighbour and edge per cell and direction (cell * 6 + d), then the terrain masks.
        set_(self, "flat", array("i", [n for nbs in board.neighbours for n in nbs]
                                 + [e for es in board.edge for e in es] + list(is_sea) + list(is_land)))
        # Every engine action code as one int object, shared by every legal list of the map: a
        # list of codes then allocates no ints (most codes are past CPython's small-int cache).
        set_(self, "codes", tuple(range(n_actions(board.n_cells))))


def side_for(num_players: int) -> int:
    """Board side for a player count ("2 players - 6 hex edges, 3 players - 7, 4 players - 8")."""
    if not _is_int(num_players) or int(num_players) not in SIDE_FOR_PLAYERS:
        raise ValueError(f"num_players must be 2, 3 or 4, got {num_players!r}")
    return SIDE_FOR_PLAYERS[int(num_players)]


def _is_int(x: object) -> bool:
    return isinstance(x, numbers.Integral) and not isinstance(x, bool)


def _check_name(name: object) -> None:
    if not isinstance(name, str) or not name or name != name.strip() or "\n" in name:
        raise ValueError(
            f"map name must be a non-empty one-line string without surrounding spaces, got {name!r}"
        )


def _checked_terrain(terrain: Sequence[int], board: Board, num_players: int) -> tuple[int, ...]:
    terrain = tuple(terrain)
    if len(terrain) != board.n_cells:
        raise ValueError(
            f"terrain has {len(terrain)} values but a {num_players}-player board "
            f"(side {board.side}) has {board.n_cells} cells"
        )
    for c, t in enumerate(terrain):
        if not _is_int(t) or int(t) not in CHAR_FOR_TERRAIN:
            raise ValueError(
                f"terrain[{c}] (hex {board.coords[c]}) is {t!r}; use {SEA} sea, {LAND} land, "
                f"{MOUNTAIN} mountain"
            )
    return tuple(int(t) for t in terrain)


def wind_targets(board: Board, border_sea: Sequence[bool], step: int) -> tuple[tuple[int, ...], ...]:
    """Per cell, the border sea cells on the side ``step`` sides onward (see :class:`GameMap`)."""
    side_sea = [tuple(c for c in side if border_sea[c]) for side in board.sides]
    out = []
    for c in range(board.n_cells):
        if not border_sea[c]:
            out.append(())
            continue
        reach = {t for k in board.cell_sides[c] for t in side_sea[(k + step) % 6]}
        reach.discard(c)
        out.append(tuple(sorted(reach)))
    return tuple(out)


# --------------------------------------------------------------------------------------------
# Text format


def format_map(m: GameMap, comment: str | None = None) -> str:
    """The map in the text format (see the module docstring); ``parse_map`` reads it back equal."""
    lines = [f"name: {m.name}", f"players: {m.num_players}"]
    if comment:
        lines += [f"# {line}".rstrip() for line in comment.splitlines()]
    radius = m.board.radius
    for r in range(-radius, radius + 1):
        row = [m.terrain[m.board.index[(q, r)]] for q in _row_qs(radius, r)]
        lines.append(" " * abs(r) + " ".join(CHAR_FOR_TERRAIN[t] for t in row))
    return "\n".join(lines) + "\n"


def _row_qs(radius: int, r: int) -> range:
    return range(max(-radius, -radius - r), min(radius, radius - r) + 1)


def parse_map(text: str, name: str | None = None) -> GameMap:
    """Read a map in the text format; ``name`` (if given) overrides the ``name:`` header.

    Raises ValueError naming the line and the problem (unknown character, unknown or repeated
    header, wrong number of rows, wrong row length, bad player count). Unplayable maps are accepted.
    """
    return _parse(text, name, DEFAULT_NAME)


def _parse(text: str, name: str | None, fallback_name: str) -> GameMap:
    header, rows, n_lines = _read_lines(text)
    num_players = _players_from(header, rows, n_lines)
    radius = SIDE_FOR_PLAYERS[num_players] - 1
    _check_row_count(rows, radius, num_players, n_lines)
    terrain: list[int] = []
    for i, (line_no, cells) in enumerate(rows):
        r = i - radius
        want = len(_row_qs(radius, r))
        if len(cells) != want:
            raise ValueError(f"line {line_no}: row {i + 1} (r={r}) has {len(cells)} hexes, expected {want}")
        terrain.extend(cells)
    map_name = name if name is not None else header.get("name", (0, fallback_name))[1]
    return GameMap(map_name, num_players, tuple(terrain))


def _read_lines(text: str) -> tuple[dict[str, tuple[int, str]], list[tuple[int, list[int]]], int]:
    """Split map text into headers ``{key: (line, value)}`` and rows ``[(line, terrain)]``."""
    header: dict[str, tuple[int, str]] = {}
    rows: list[tuple[int, list[int]]] = []
    lines = text.splitlines()
    for line_no, raw in enumerate(lines, start=1):
        line = raw.strip()
        if not line or line.startswith("#"):
            continue
        match = _HEADER.match(line)
        if match:
            key, value = match.group(1).lower(), match.group(2).strip()
            if key not in ("name", "players"):
                raise ValueError(f"line {line_no}: unknown header {key!r}; expected 'name:' or 'players:'")
            if key in header:
                raise ValueError(f"line {line_no}: repeated header {key!r} (first on line {header[key][0]})")
            if not value:
                raise ValueError(f"line {line_no}: header {key!r} has no value")
            header[key] = (line_no, value)
            continue
        rows.append((line_no, _row_terrain(raw, line_no)))
    return header, rows, len(lines)


def _row_terrain(raw: str, line_no: int) -> list[int]:
    cells = []
    for col, ch in enumerate(raw, start=1):
        if ch.isspace():
            continue
        if ch not in TERRAIN_CHARS:
            raise ValueError(
                f"line {line_no}, column {col}: unknown terrain {ch!r}; use '~' sea, '.' land, '^' mountain"
            )
        cells.append(TERRAIN_CHARS[ch])
    return cells


def _players_from(header: dict[str, tuple[int, str]], rows: list, n_lines: int) -> int:
    if "players" in header:
        line_no, value = header["players"]
        if not value.isdigit() or int(value) not in SIDE_FOR_PLAYERS:
            raise ValueError(f"line {line_no}: players must be 2, 3 or 4, got {value!r}")
        return int(value)
    if len(rows) in PLAYERS_FOR_ROWS:
        return PLAYERS_FOR_ROWS[len(rows)]
    line_no = rows[-1][0] if rows else max(n_lines, 1)
    raise ValueError(
        f"line {line_no}: no 'players: N' header and {len(rows)} rows match no board "
        "(11 rows = 2 players, 13 = 3, 15 = 4)"
    )


def _check_row_count(rows: list, radius: int, num_players: int, n_lines: int) -> None:
    want = 2 * radius + 1
    board = f"a {num_players}-player map (side {radius + 1}) has {want} rows"
    if len(rows) > want:
        raise ValueError(f"line {rows[want][0]}: one row too many ({len(rows)} rows); {board}")
    if len(rows) < want:
        line_no = rows[-1][0] if rows else max(n_lines, 1)
        raise ValueError(f"line {line_no}: the map ends after {len(rows)} rows; {board}")


# --------------------------------------------------------------------------------------------
# Playability


def validate_playable(m: GameMap) -> list[str]:
    """Problems that make the map unfit for a game; an empty list means playable.

    Checks: land and sea hexes all connected; the sea one body; every land region touches the sea
    (freighters can reach it); border sea on every side (the winds); at least
    ``MIN_COAST_PER_PLAYER`` coastal land hexes per player (room for coastal developments).
    """
    return _problems(m.board, m.terrain, m.num_players)


def _problems(board: Board, terrain: Sequence[int], num_players: int) -> list[str]:
    at = board.coords
    problems = []
    passable = _components(board, lambda c: terrain[c] != MOUNTAIN)
    if len(passable) > 1:
        problems.append(f"land and sea form {len(passable)} separate regions; e.g. "
                        f"{at[passable[1][0]]} cannot be reached from {at[passable[0][0]]}")
    seas = _components(board, lambda c: terrain[c] == SEA)
    if len(seas) > 1:
        problems.append(f"the sea is {len(seas)} separate bodies; e.g. the sea at "
                        f"{at[seas[1][0]]} is cut off from the sea at {at[seas[0][0]]}")
    for region in _components(board, lambda c: terrain[c] == LAND):
        if not any(n >= 0 and terrain[n] == SEA for c in region for n in board.neighbours[c]):
            problems.append(f"the land region at {at[region[0]]} ({len(region)} hexes) touches no "
                            "sea, so freighters cannot reach it")
    for k, side in enumerate(board.sides):
        if not any(terrain[c] == SEA for c in side):
            problems.append(f"side {k} (hexes {at[side[0]]} to {at[side[-1]]}) has no border sea "
                            "hex, so the winds cannot be used there")
    coast = sum(1 for c in range(board.n_cells) if terrain[c] == LAND
                and any(n >= 0 and terrain[n] == SEA for n in board.neighbours[c]))
    need = MIN_COAST_PER_PLAYER * num_players
    if coast < need:
        problems.append(f"only {coast} coastal land hexes; {num_players} players need at least {need}")
    return problems


def _components(board: Board, inside: Callable[[int], bool]) -> list[list[int]]:
    """Connected groups of cells satisfying ``inside``, largest first (ties: lowest index)."""
    seen: set[int] = set()
    groups = []
    for start in range(board.n_cells):
        if start in seen or not inside(start):
            continue
        seen.add(start)
        group, stack = [], [start]
        while stack:
            c = stack.pop()
            group.append(c)
            for n in board.neighbours[c]:
                if n >= 0 and n not in seen and inside(n):
                    seen.add(n)
                    stack.append(n)
        groups.append(sorted(group))
    return sorted(groups, key=lambda g: (-len(g), g[0]))


# --------------------------------------------------------------------------------------------
# Fair random maps


def reflect(c: Axial) -> Axial:
    """Mirror ``c`` across the west-east axis through the centre (screen y -> -y)."""
    q, r = c
    return (q + r, -r)


def symmetric_images(c: Axial, num_players: int) -> tuple[Axial, ...]:
    """The images of ``c`` under the symmetry group of a fair ``num_players`` map (``c`` first)."""
    side_for(num_players)
    if num_players == 2:
        return (c, rotate60(c, 3))
    if num_players == 3:
        return (c, rotate60(c, 2), rotate60(c, 4))
    return (c, rotate60(c, 3), reflect(c), rotate60(reflect(c), 3))


def generate_map(num_players: int, seed: int) -> GameMap:
    """A random fair map: symmetric between the players, islands with mountains, playable.

    Deterministic in ``(num_players, seed)``; attempt ``i`` uses its own ``random.Random``
    derived from both. Raises RuntimeError if no attempt gives a playable map.
    """
    board = Board(side_for(num_players))
    orbits = _orbits(board, num_players)
    for attempt in range(MAX_ATTEMPTS):
        rng = random.Random(f"vigtavl-map:{num_players}:{seed}:{attempt}")
        terrain = _random_terrain(board, orbits, rng)
        if _acceptable(board, orbits, terrain, num_players):
            return GameMap(f"random-{num_players}p-{seed}", num_players, tuple(terrain))
    raise RuntimeError(f"no playable {num_players}-player map after {MAX_ATTEMPTS} attempts (seed {seed})")


def _orbits(board: Board, num_players: int) -> list[tuple[int, ...]]:
    """Per cell, the sorted cells that must share its terrain."""
    return [
        tuple(sorted({board.index[x] for x in symmetric_images(c, num_players)}))
        for c in board.coords
    ]


def _random_terrain(board: Board, orbits: list[tuple[int, ...]], rng: random.Random) -> list[int]:
    n = board.n_cells
    terrain = [SEA] * n
    centre = board.index[(0, 0)]
    inland = [c for c in range(n) if board.dist[centre][c] < board.radius]  # outer ring stays sea
    land_goal = rng.uniform(*LAND_FRACTION) * n
    for _ in range(rng.randint(1, 3)):
        _set_orbit(terrain, orbits, rng.choice(inland), LAND)
    while terrain.count(LAND) < land_goal:
        frontier = [c for c in inland if terrain[c] == SEA and _count(board, terrain, c, LAND)]
        if not frontier or rng.random() < NEW_ISLAND_CHANCE:
            frontier = [c for c in inland if terrain[c] == SEA] or frontier
        if not frontier:
            break
        weights = [1 + _count(board, terrain, c, LAND) ** 2 for c in frontier]
        _set_orbit(terrain, orbits, rng.choices(frontier, weights)[0], LAND)
    _sink_islets(board, terrain)
    _fill_lakes(board, terrain)
    _raise_mountains(board, orbits, terrain, rng.uniform(*MOUNTAIN_FRACTION) * n, rng)
    return terrain


def _set_orbit(terrain: list[int], orbits: list[tuple[int, ...]], c: int, kind: int) -> None:
    for x in orbits[c]:
        terrain[x] = kind


def _count(board: Board, terrain: Sequence[int], c: int, kind: int) -> int:
    return sum(1 for n in board.neighbours[c] if n >= 0 and terrain[n] == kind)


def _sink_islets(board: Board, terrain: list[int]) -> None:
    """Turn land regions smaller than ``MIN_ISLAND`` back into sea (regions map to regions)."""
    for region in _components(board, lambda c: terrain[c] == LAND):
        if len(region) < MIN_ISLAND:
            for c in region:
                terrain[c] = SEA


def _fill_lakes(board: Board, terrain: list[int]) -> None:
    """Turn every sea body but the largest into land (keeps symmetry: bodies map to bodies)."""
    for lake in _components(board, lambda c: terrain[c] == SEA)[1:]:
        for c in lake:
            terrain[c] = LAND


def _raise_mountains(board: Board, orbits: list[tuple[int, ...]], terrain: list[int],
                     goal: float, rng: random.Random) -> None:
    """Grow short mountain ridges on land, preferring hexes away from the coast."""
    while terrain.count(MOUNTAIN) < goal:
        land = [c for c in range(board.n_cells) if terrain[c] == LAND]
        if not land:
            return
        weights = [1 + 3 * (_count(board, terrain, c, SEA) == 0) for c in land]
        c = rng.choices(land, weights)[0]
        _set_orbit(terrain, orbits, c, MOUNTAIN)
        while rng.random() < RIDGE_CONTINUE_CHANCE and terrain.count(MOUNTAIN) < goal:
            nexts = [n for n in board.neighbours[c] if n >= 0 and terrain[n] == LAND]
            if not nexts:
                break
            c = rng.choice(nexts)
            _set_orbit(terrain, orbits, c, MOUNTAIN)


def _acceptable(board: Board, orbits: list[tuple[int, ...]], terrain: Sequence[int],
                num_players: int) -> bool:
    """Playable, within the land/mountain targets, and coast in every player's sector."""
    n = board.n_cells
    if not ACCEPT_LAND[0] <= terrain.count(LAND) / n <= ACCEPT_LAND[1]:
        return False
    if not ACCEPT_MOUNTAIN[0] <= terrain.count(MOUNTAIN) / n <= ACCEPT_MOUNTAIN[1]:
        return False
    group = len(symmetric_images((0, 0), num_players))
    own_coast = {
        orbits[c] for c in range(n)
        if terrain[c] == LAND and _count(board, terrain, c, SEA) and len(orbits[c]) == group
    }
    if len(own_coast) < MIN_OWN_COAST_ORBITS:
        return False
    return not _problems(board, terrain, num_players)


# --------------------------------------------------------------------------------------------
# Loading


def list_presets() -> list[str]:
    """Names of the preset maps in ``vigtavl_env/engine/presets`` (sorted)."""
    if not PRESET_DIR.is_dir():
        return []
    return sorted(p.stem for p in PRESET_DIR.glob("*.txt"))


def load_map(spec: str | GameMap, num_players: int | None = None, seed: int = 0,
             allow_unplayable: bool = False) -> GameMap:
    """A map from a preset name, a ``.txt`` path, map text, ``"random"`` or a GameMap.

    ``"random"`` is ``generate_map(num_players or 2, seed)``. Raises ValueError if ``num_players``
    is given and differs from the map's, if the name is unknown (listing the presets), or if the
    map is unplayable (listing the problems) unless ``allow_unplayable``.
    """
    m = _resolve(spec, num_players, seed)
    if num_players is not None and m.num_players != num_players:
        raise ValueError(f"map {m.name!r} is for {m.num_players} players, not {num_players}")
    problems = [] if allow_unplayable else validate_playable(m)
    if problems:
        raise ValueError(f"map {m.name!r} is not playable: " + "; ".join(problems))
    return m


def _resolve(spec: str | GameMap, num_players: int | None, seed: int) -> GameMap:
    if isinstance(spec, GameMap):
        return spec
    if not isinstance(spec, (str, Path)):
        raise ValueError(f"map spec must be a name, a path, map text or a GameMap, got {spec!r}")
    spec = str(spec)
    if spec == RANDOM_SPEC:
        return generate_map(2 if num_players is None else num_players, seed)
    if "\n" in spec:
        return parse_map(spec)
    if spec in list_presets():
        return _load_file(PRESET_DIR / f"{spec}.txt")
    path = Path(spec)
    if path.is_file():
        return _load_file(path)
    if path.suffix == ".txt" or "/" in spec or "\\" in spec:
        raise ValueError(f"map file {spec!r} not found")
    raise ValueError(f"unknown map {spec!r}; presets: {', '.join(list_presets()) or '(none)'}, "
                     f"or {RANDOM_SPEC!r}, or a path to a .txt map")


def _load_file(path: Path) -> GameMap:
    try:
        return _parse(path.read_text(encoding="utf-8"), None, path.stem)
    except ValueError as err:
        raise ValueError(f"{path}: {err}") from None
