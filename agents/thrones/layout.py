"""The Thrones bots' secret setup: a Fortress at the back with the Throne on it, guards on the
tiles that serve them, and the rest laid by each piece's terrain.

Read from the seat's own frame (its home at the bottom). The Fortress goes on the centre of the
second row from the back: off the edge (the page forbids the edge), as far from the enemy as
allowed. The Throne starts on it (it must then be breached before it can be engaged, and it
gains a Fate's Favor). Around it: Mountains on the diagonals for the Rangers (never fired upon
there), Water at its sides for the Spearmen, Plains in front and behind for the Elephants (not
engaged on Plains but by a Dragon or a Throne); an enemy that takes those cells must pass a
check to strike from Mountain or Water. The front row is Plains (Elephants, Lancers), the rest
Forest (crossbows and catapults cannot fire at it). Every choice is one the mask offers: where a
wish is not legal, the next one is taken. A coin of the player's own seed, drawn once, mirrors
the layout left to right.
"""

from __future__ import annotations

import random

from games.thrones import codec, setup
from games.thrones.config import (CATAPULT, CROSSBOWMAN, DRAGON, ELEPHANT, FOREST, FORTRESS, LANCER,
                                  MOUNTAIN, PLAINS, RANGER, SPEARMAN, THRONE, TREBUCHET, WARHORSE, WATER)
from games.thrones.state import ThronesState

# the tile wished for each kind of home cell, then the fallbacks in order
FORT_WISH = (FORTRESS,)
DIAGONAL_WISH = (MOUNTAIN, WATER, FOREST, PLAINS)
SIDE_WISH = (WATER, MOUNTAIN, FOREST, PLAINS)
FILE_WISH = (PLAINS, FOREST, MOUNTAIN, WATER)  # the cells in front of and behind the Fortress
FRONT_WISH = (PLAINS, FOREST, WATER, MOUNTAIN)
BACK_WISH = (FOREST, PLAINS, WATER, MOUNTAIN)

# each piece's tile (the bonus for standing on it) and where it stands best
TILE_OF = {RANGER: MOUNTAIN, SPEARMAN: WATER, CROSSBOWMAN: FOREST, CATAPULT: FOREST, TREBUCHET: FOREST,
           LANCER: PLAINS, WARHORSE: PLAINS, ELEPHANT: PLAINS, DRAGON: MOUNTAIN, THRONE: FORTRESS}
GUARDS = frozenset((RANGER, SPEARMAN, ELEPHANT))  # stand next to the Throne's Fortress
FRONT_LINE = frozenset((CROSSBOWMAN, TREBUCHET, LANCER, WARHORSE))  # stand in the front row
TILE_BONUS = 10.0
GUARD_BONUS = 5.0
FRONT_BONUS = 3.0
BACK_BONUS = 2.0  # the Dragon and the Catapult, kept back a row
CENTRE_PULL = 0.1  # per column off the centre: keep the army together
MIRROR_ODDS = 0.5  # a fair coin for the mirrored layout


class Layout:
    """One seat's setup wishes; ``choose`` picks among the legal setup codes."""

    def __init__(self, st: ThronesState, seat: int, mirror: bool) -> None:
        self.st, self.seat = st, seat
        b = st.board
        self.w, self.n = b.w, b.n
        self.front, self.back = b.mid_row + 1, b.h - 1
        self.fort = (self.w // 2, max(self.front, self.back - 1))
        self.mirror = mirror

    def xy(self, rel_cell: int) -> tuple[int, int]:
        x, y = rel_cell % self.w, rel_cell // self.w
        return (self.w - 1 - x if self.mirror else x), y

    def tile_wish(self, rel_cell: int) -> tuple[int, ...]:
        x, y = self.xy(rel_cell)
        dx, dy = x - self.fort[0], y - self.fort[1]
        if (dx, dy) == (0, 0):
            return FORT_WISH
        if max(abs(dx), abs(dy)) == 1:
            return DIAGONAL_WISH if dx and dy else (SIDE_WISH if dx else FILE_WISH)
        return FRONT_WISH if y == self.front else BACK_WISH

    def piece_worth(self, kind: int, rel_cell: int) -> float:
        x, y = self.xy(rel_cell)
        tile = self.st.tile[self.st.board.rel(self.seat, rel_cell)]
        worth = TILE_BONUS if tile == TILE_OF[kind] else 0.0
        near_fort = max(abs(x - self.fort[0]), abs(y - self.fort[1])) == 1
        if kind in GUARDS and near_fort:
            worth += GUARD_BONUS
        if kind in FRONT_LINE and y == self.front:
            worth += FRONT_BONUS
        if kind in (DRAGON, CATAPULT) and y == self.front + 1:
            worth += BACK_BONUS
        return worth - CENTRE_PULL * abs(x - self.fort[0])

    def choose(self, legal: list[int]) -> int:
        kind, arg = setup.step_kind(self.st, self.st.step[self.seat])
        cells = [(c // self.n, c % self.n) for c in legal if c < codec.N_CELL_VERBS * self.n]
        if kind == "tile":
            offered = {verb for verb, _ in cells}
            wish = self.tile_wish(cells[0][1])
            tile = next((t for t in wish if t in offered), min(offered - {FORTRESS}, default=FORTRESS))
            return next(c for c in legal if c // self.n == tile)
        if kind == "middle":  # the nearest free middle cell to the centre
            return min(legal, key=lambda c: abs(self.xy(c % self.n)[0] - self.fort[0]))
        return max((c for c in legal if c < codec.N_CELL_VERBS * self.n),
                   key=lambda c: self.piece_worth(arg, c % self.n))


def mirror_coin(rng: random.Random) -> bool:
    """Whether a game's layout is mirrored: drawn once per player, from its own seed."""
    return rng.random() < MIRROR_ODDS


def setup_choice(view: ThronesState, legal: list[int], mirror: bool) -> int:
    """A setup decision for the seat deciding in ``view`` (its own tiles only are read)."""
    return Layout(view, view.current_player(), mirror).choose(legal)
