"""Victory tokens that are not paid out by a battle or a seizure (Objective section).

- Citadel: "1 token per hex for completely enclosing one or more hexes with walls. Note that you
  do not have to build walls on edges bordering mountain hexes." (once per game)
- Complex: "3 tokens for building a Military Complex ... a Castle, Fort, and Encampment on
  adjacent hexes." (once per game; the three must be built by the player, not seized)
- Great Wall: "1 token for building a wall of length 5 or more" (once per game; one continuous
  run of walls the player built)
- General, Admiral, Builder: 3 tokens each at the end for the most prisoners, sunken ships and
  developments ("if a tie exists both players receive tokens").

Battle, Conquer and Rescue tokens are paid where those things happen (combat.py, free_actions.py).
"""

from __future__ import annotations

from .state import (
    CITADEL, COMPLEX, GREAT_WALL, N_TOKEN_SOURCES, PRISONER, SRC_ADMIRAL, SRC_BUILDER, SRC_CITADEL, SRC_COMPLEX,
    SRC_GENERAL, SRC_GREAT_WALL, GameState, count_of, positions, zero_flags,
)
from .maps import MOUNTAIN
from .stats import CAMP, CASTLE, FORT

CITADEL_PER_HEX = 1
COMPLEX_TOKENS = 3
GREAT_WALL_TOKENS = 1
GREAT_WALL_LENGTH = 5
END_AWARD_TOKENS = 3


# The names of the token sources, in the order of ``state.SRC_*``.
TOKEN_SOURCES = ("conquer", "battle", "rescue", "citadel", "complex", "great wall", "general", "admiral", "builder")
_AWARD_SOURCE = {CITADEL: SRC_CITADEL, COMPLEX: SRC_COMPLEX, GREAT_WALL: SRC_GREAT_WALL}
_END_SOURCE = {"general": SRC_GENERAL, "admiral": SRC_ADMIRAL, "builder": SRC_BUILDER}


def token_sheet(state: GameState) -> list[dict[str, int]]:
    """The score sheet: for each player, his victory tokens by source (``TOKEN_SOURCES``), from
    the engine's own accounting; each sheet sums to the player's tokens."""
    k = N_TOKEN_SOURCES
    return [{name: state.token_src[p * k + i] for i, name in enumerate(TOKEN_SOURCES)}
            for p in range(state.n_players)]


def _award(state: GameState, player: int, flag: int, tokens: int, name: str) -> None:
    state.awards[player] |= flag
    state.earn(player, _AWARD_SOURCE[flag], tokens)
    state.emit("award", dict(award=name, tokens=tokens, player=player))


def enclosed_hexes(state: GameState, player: int) -> int:
    """Hexes fully enclosed by ``player``'s walls (edges to mountains need no wall).

    Hexes join through every edge without one of the player's walls; a group that reaches the
    map's border through an unwalled border edge is open. Mountains are not hexes one can stand
    on, so an edge to a mountain closes the group; but a group closed by mountains alone, with
    none of the player's walls around it, is not enclosed "with walls".
    """
    seen = [False] * state.n_cells
    total = 0
    for s in range(state.n_cells):
        if seen[s] or not (state.land[s] or state.sea[s]):
            continue
        seen[s], stack, size, open_, walled = True, [s], 0, False, False
        while stack:
            a = stack.pop()
            size += 1
            for d in range(6):
                if state.walls[state.nbr_edge[a * 6 + d]] == player:
                    walled = True
                    continue
                b = state.nbr[a * 6 + d]
                if b < 0:
                    open_ = True
                elif (state.land[b] or state.sea[b]) and not seen[b]:
                    seen[b] = True
                    stack.append(b)
        if walled and not open_:
            total += size
    return total


def longest_wall(state: GameState, player: int) -> int:
    """The longest continuous wall the player built: one run of walls joined end to end (a
    trail through the corners, never branching), counting only walls he built and still owns
    (Great Wall is "for building a wall": walls that came to him by a seizure do not count)."""
    board = state.gmap.board
    verts, at_corner = board.edge_vertices, board.vertex_edges
    free = zero_flags(state.n_edges)  # 1: a wall of his, not in the run being walked
    for e in range(state.n_edges):
        if state.walls[e] == player and state.wall_builder[e] == player:
            free[e] = 1
    started = zero_flags(len(at_corner))  # corners a run was walked from
    best = 0
    for e in range(state.n_edges):
        if free[e]:
            for v in verts[e]:
                if not started[v]:
                    started[v] = 1
                    best = max(best, _longest_run(free, verts, at_corner, v))
    return best


def _longest_run(free: bytearray, verts: tuple, at_corner: tuple, v: int) -> int:
    """The longest trail of free walls from corner ``v`` (depth-first, each wall once)."""
    best = 0
    for e in at_corner[v]:
        if free[e]:
            free[e] = 0
            a, b = verts[e]
            best = max(best, 1 + _longest_run(free, verts, at_corner, b if a == v else a))
            free[e] = 1
    return best


def has_complex(state: GameState, player: int) -> bool:
    """A castle, a fort and a camp the player built and owns, on connected adjacent hexes
    (Complex is "for building" them: a seized piece does not complete it)."""
    board = state.gmap.board
    by_type = {CASTLE: [], FORT: [], CAMP: []}
    for c in positions(state.dev_owner, player):
        if state.dev_type[c] in by_type and state.dev_builder[c] == player:
            by_type[state.dev_type[c]].append(c)
    for a in by_type[CASTLE]:
        for b in by_type[FORT]:
            for m in by_type[CAMP]:
                links = (board.dist[a][b] == 1) + (board.dist[a][m] == 1) + (board.dist[b][m] == 1)
                if links >= 2:
                    return True
    return False


def may_close_enclosure(state: GameState, player: int, edge: int) -> bool:
    """A new wall can only complete an enclosure if both of its ends continue into another of
    the player's walls or an edge that needs no wall (one next to a mountain)."""
    board = state.gmap.board
    for v in board.edge_vertices[edge]:
        if not _wall_continues(state, player, edge, board.vertex_edges[v]):
            return False
    return True


def _wall_continues(state: GameState, player: int, edge: int, edges: tuple[int, ...]) -> bool:
    """One of ``edges`` (those meeting at an end of ``edge``) is the player's wall or needs none."""
    for e in edges:
        if e != edge and (state.walls[e] == player or _mountain_edge(state, e)):
            return True
    return False


def _mountain_edge(state: GameState, edge: int) -> bool:
    a, b = state.gmap.board.edge_cells[edge]
    terrain = state.gmap.terrain
    return terrain[a] == MOUNTAIN or (b >= 0 and terrain[b] == MOUNTAIN)


def check_wall_awards(state: GameState, player: int, new_edge: int = -1) -> None:
    """After the player's walls change: Great Wall and Citadel, once per game each.

    ``new_edge``: the one wall just built, which lets the Citadel check skip walls that cannot
    close anything; -1 when several walls changed hands at once (seizure). The Great Wall counts
    only walls the player built (:func:`longest_wall`), so walls taken from others never earn
    it, while his own built walls taken back may complete it.
    """
    if (not state.awards[player] & GREAT_WALL
            and count_of(state.walls, player) >= GREAT_WALL_LENGTH  # cheap test first
            and longest_wall(state, player) >= GREAT_WALL_LENGTH):
        _award(state, player, GREAT_WALL, GREAT_WALL_TOKENS, "great_wall")
    if not state.awards[player] & CITADEL:
        if new_edge >= 0 and not may_close_enclosure(state, player, new_edge):
            return
        n = enclosed_hexes(state, player)
        if n:
            _award(state, player, CITADEL, n * CITADEL_PER_HEX, "citadel")


def check_complex(state: GameState, player: int) -> None:
    if not state.awards[player] & COMPLEX and has_complex(state, player):
        _award(state, player, COMPLEX, COMPLEX_TOKENS, "complex")


def end_counts(state: GameState) -> dict[str, list[int]]:
    """What the end awards compare: prisoners held, ships sunk, developments owned."""
    p = state.n_players
    prisoners = [0] * p
    for u in range(state.n_units):  # indexed, not iterated: Cython 3.3.0 miscompiles a loop over a memoryview
        if state.u_where[u] == PRISONER:
            prisoners[state.u_holder[u]] += 1
    devs = [0] * p
    for c in range(state.n_cells):
        if state.dev_owner[c] >= 0:
            devs[state.dev_owner[c]] += 1
    return {"general": prisoners, "admiral": list(state.sunk), "builder": devs}


def end_awards(state: GameState) -> None:
    """General, Admiral and Builder: 3 tokens to each player tied for the most."""
    for name, counts in end_counts(state).items():
        best = max(counts)
        if best == 0 and state.config.end_awards_need_one:
            continue
        for p, n in enumerate(counts):
            if n == best:
                state.earn(p, _END_SOURCE[name], END_AWARD_TOKENS)
                state.emit("award", dict(award=name, tokens=END_AWARD_TOKENS, player=p))
