"""Thrones' options: every ``Com::Config`` field of karwler/Thrones at ``acf30b3``, each reading
where the rules page and that source disagree, and the move limit for training.

The page's reading is each option's default; the source's reading is the other value. Names of
tiles and pieces, in the source's order, live here too (the codec and the views use them).
"""

from __future__ import annotations

from dataclasses import asdict, dataclass, fields
from typing import Any

TILE_NAMES = ("plains", "forest", "mountain", "water", "fortress")
PLAINS, FOREST, MOUNTAIN, WATER, FORTRESS = range(5)
UNKNOWN = -1  # a tile not laid yet, or hidden from the viewer
PIECE_NAMES = ("ranger", "spearman", "crossbowman", "catapult", "trebuchet",
               "lancer", "warhorse", "elephant", "dragon", "throne")
(RANGER, SPEARMAN, CROSSBOWMAN, CATAPULT, TREBUCHET,
 LANCER, WARHORSE, ELEPHANT, DRAGON, THRONE) = range(10)
FIRING_RANGE = {CROSSBOWMAN: 1, CATAPULT: 2, TREBUCHET: 3}  # Piece::firingDistance
ODDS_LIMIT = 100  # Config::randomLimit: a check passes when a roll in [0, 100) < check_odds
MIN_HOME, MAX_HOME = (5, 2), (101, 50)  # Config::minHomeSize, maxHomeSize (width, height)

# the page's 15 pieces: the source's amounts before commit 9fda44d (2019-11-22) cut one
# crossbowman and one elephant (064a4d4 has these); the source at acf30b3 has 13
PAGE_PIECES = (2, 2, 2, 1, 1, 2, 1, 2, 1, 1)
SOURCE_PIECES = (2, 2, 1, 1, 1, 2, 1, 1, 1, 1)

CHOICES = {
    "survival_mode": ("page", "finish", "disable", "kill"),
    "check_tiles": ("page", "source"),
    "middle_shift": ("page", "near", "first"),
    "deception": ("any", "allied"),
    "fortress_restore": ("turn_end", "vacated"),
    "dragon_attack": ("line", "adjacent"),
    "warhorse_guard": ("page", "source"),
    "favor_kind": ("choose", "tile"),
}


@dataclass(frozen=True)
class ThronesConfig:
    """One game's options (``ThronesGame.new_state(**options)``); defaults are the page's."""

    home_width: int = 9  #: Config::homeSize.x, the board's width
    home_height: int = 4  #: Config::homeSize.y, rows of each home; the board has 2h+1 rows
    check_odds: int = 50  #: Config::survivalPass: a check passes with check_odds in 100
    #: what a failed check does. "page": the move or shot does not happen and the turn ends; a
    #: failed attacker is removed. "finish"/"disable"/"kill": Config::Survival of the source
    #: (an attacker removed and the turn goes on; otherwise "finish" ends the turn, "disable"
    #: sets the piece aside for the turn when nothing was done yet, "kill" removes it)
    survival_mode: str = "page"
    #: which tiles a check looks at. "page": from and onto, on attack and shot alike; Rangers
    #: pass every Mountain check and Spearmen every Water check, and pass them on to the piece
    #: they switch with. "source": Game::survivalCheck (an attack looks at its own tile only, a
    #: shot at the target's only; a Ranger or Spearman passes only when it starts on its tile)
    check_tiles: str = "page"
    favor_limit: bool = True  #: Config::favorLimit: favor_max caps favors gained in a game
    favor_max: int = 4  #: Config::favorMax
    dragon_dist: int = 4  #: Config::dragonDist
    dragon_single: bool = True  #: Config::dragonSingle: the Dragon moves in one straight line
    dragon_diag: bool = True  #: Config::dragonDiag: ... diagonals included
    tile_amounts: tuple[int, ...] = (11, 10, 7, 7, 1)  #: Config::tileAmounts, per home
    middle_amounts: tuple[int, ...] = (1, 1, 1, 1)  #: Config::middleAmounts, per player
    piece_amounts: tuple[int, ...] = PAGE_PIECES  #: the page's 15; SOURCE_PIECES the 13
    win_fortress: int = 1  #: Config::winFortress: enemy fortresses to hold with a capturer
    win_throne: int = 1  #: Config::winThrone: enemy thrones to remove
    capturers: tuple[str, ...] = ("throne",)  #: Config::capturers
    shift_left: bool = True  #: Config::shiftLeft: clashes shift from the first player's left
    #: clashing middle-row tiles. "page": both move to the leftmost open spaces of the first
    #: player after the uncontested ones are down; "near"/"first": Game::rearangeMiddle with
    #: shiftNear on/off (the first player's tile stays, the second's moves)
    middle_shift: str = "page"
    dragon_uses_turn: bool = True  #: page: a Dragon put on a Mountain is the turn's action, on
    #: the Fortress it restarts the turn; False: the source (placing costs nothing)
    only_moving: bool = True  #: page: long Water/Plains moves only in a turn of moving only
    deception: str = "any"  #: page: any two adjacent pieces; "allied": the source's switch
    fortress_restore: str = "turn_end"  #: page; "vacated": the source (moved off or shot out)
    dragon_attack: str = "line"  #: page: up to dragon_dist in one line; "adjacent": source
    warhorse_guard: str = "page"  #: page: safe from attacks after a removal; "source": from
    #: attacks and shots after any attack
    favor_kind: str = "choose"  #: the favor's kind named when used; "tile": the acting
    #: piece's tile decides (the source)
    max_moves: int = 300  #: turns after the reveal before the game is cut (truncation)
    #: decisions in all (setup included) before the game is cut: a Warhorse may switch "with any
    #: number of" pieces, so one turn can go on without end (two pieces switched back and forth)
    max_decisions: int = 20_000

    @property
    def width(self) -> int:
        return self.home_width

    @property
    def height(self) -> int:
        return 2 * self.home_height + 1

    def to_dict(self) -> dict[str, Any]:
        return {k: list(v) if isinstance(v, tuple) else v for k, v in asdict(self).items()}


def option_names() -> list[str]:
    return [f.name for f in fields(ThronesConfig)]


def _int(name: str, v: Any, lo: int, hi: int) -> int:
    if isinstance(v, bool) or not isinstance(v, int) or not lo <= v <= hi:
        raise ValueError(f"option {name} must be an integer in [{lo}, {hi}], got {str(v)[:30]!r}")
    return v


def _amounts(name: str, v: Any, n: int) -> tuple[int, ...]:
    if not isinstance(v, (list, tuple)) or len(v) != n:
        raise ValueError(f"option {name} must be a list of {n} integers")
    return tuple(_int(name, x, 0, 10_000) for x in v)


def make_config(**options: Any) -> ThronesConfig:
    """A checked config (ValueError, one line, naming the option)."""
    known = set(option_names())
    for k in options:
        if k not in known:
            raise ValueError(f"unknown Thrones option {str(k)[:40]!r}; known: {', '.join(sorted(known))}")
    base = ThronesConfig()
    vals = {f.name: options.get(f.name, getattr(base, f.name)) for f in fields(ThronesConfig)}
    for k, allowed in CHOICES.items():
        if vals[k] not in allowed:
            raise ValueError(f"option {k} must be one of {', '.join(allowed)}, got {str(vals[k])[:30]!r}")
    for k in ("favor_limit", "dragon_single", "dragon_diag", "shift_left", "dragon_uses_turn", "only_moving"):
        if not isinstance(vals[k], bool):
            raise ValueError(f"option {k} must be true or false")
    w = _int("home_width", vals["home_width"], MIN_HOME[0], MAX_HOME[0])
    h = _int("home_height", vals["home_height"], MIN_HOME[1], MAX_HOME[1])
    _int("check_odds", vals["check_odds"], 0, ODDS_LIMIT)
    _int("favor_max", vals["favor_max"], 0, 255)
    _int("dragon_dist", vals["dragon_dist"], 1, 255)
    _int("max_moves", vals["max_moves"], 1, 1_000_000)
    _int("max_decisions", vals["max_decisions"], 1, 100_000_000)
    tiles = vals["tile_amounts"] = _amounts("tile_amounts", vals["tile_amounts"], 5)
    mids = vals["middle_amounts"] = _amounts("middle_amounts", vals["middle_amounts"], 4)
    pieces = vals["piece_amounts"] = _amounts("piece_amounts", vals["piece_amounts"], 10)
    if sum(tiles) != w * h:
        raise ValueError(f"tile_amounts must sum to the home's {w * h} cells, got {sum(tiles)}")
    if any(0 < a < h for a in tiles[:FORTRESS]):
        raise ValueError(f"each tile amount must be 0 or at least home_height ({h}): every row holds every type")
    if tiles[FORTRESS] > (h - 1) * (w - 2):
        raise ValueError("too many fortresses for the cells off the board's edge")
    if sum(mids) > w // 2:
        raise ValueError(f"middle_amounts may sum to at most {w // 2} (half the middle row)")
    if not 0 < sum(pieces) <= w * h:
        raise ValueError(f"piece_amounts must sum to 1..{w * h}")
    _int("win_fortress", vals["win_fortress"], 0, tiles[FORTRESS])
    _int("win_throne", vals["win_throne"], 0, pieces[THRONE])
    if not vals["win_fortress"] and not vals["win_throne"]:
        raise ValueError("win_fortress and win_throne cannot both be 0")
    caps = vals["capturers"]
    if not isinstance(caps, (list, tuple)) or not caps or any(c not in PIECE_NAMES for c in caps):
        raise ValueError(f"capturers must be a non-empty list of piece names ({', '.join(PIECE_NAMES)})")
    vals["capturers"] = tuple(caps)
    return ThronesConfig(**vals)
