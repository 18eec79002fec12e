"""The Stats table of the rules: every number about units, developments, walls and artillery.

This is the one source of truth for costs, limits, ranges and movement; nothing else in the
project writes these numbers down. The rules document calls the cost-1 land unit "Knight" in the
Stats table, "Infantry" in the Units section and "soldier" in Setup, and the cost-3 ship both
"Galleon" and "Galley": they are one piece each here, named ``SOLDIER`` and ``GALLEON``.
("Knights" without a type means any land unit, as in the Units section.)

Rules table (v0.93)::

    Unit        Cost  Limit    Attack range  Movement
    Knight        1   2/turn        -            3
    Archer        2   2/turn        3            2
    Cavalry       3   2/turn        -            4
    Caravel       1   2/turn        -            6
    Freighter     2   3            NA            5   (+3 transport)
    Galley        3   1             3            4
    Wall          1   inf
    Camp          1                                  (occupancy 1)
    Fort          2                                  (occupancy 2)
    Castle        3                                  (occupancy 3)
    Artillery     2   1             3            (moved by knights)
"""

from __future__ import annotations

from dataclasses import dataclass

# Unit types: indices into UNITS. Land units ("knights") first, then ships.
SOLDIER, ARCHER, CAVALRY, CARAVEL, FREIGHTER, GALLEON = range(6)
N_UNIT_TYPES = 6
LAND_TYPES = (SOLDIER, ARCHER, CAVALRY)
SHIP_TYPES = (CARAVEL, FREIGHTER, GALLEON)

# Development types (0 = none on the hex).
NO_DEV, CAMP, FORT, CASTLE = 0, 1, 2, 3
DEV_TYPES = (CAMP, FORT, CASTLE)

WALL_COST = 1
ARTILLERY_COST = 2
ARTILLERY_OCCUPANCY = 2
ARTILLERY_RANGE = 3
ARTILLERY_LIMIT = 1  # per player, see RulesConfig.limit_scope

MAX_OCCUPANCY = 3
FREIGHTER_CAPACITY = 3
UNITS_PER_TURN = 2
UNITS_PER_TURN_WITH_CASTLE = 3
ACTIONS_PER_ACTIVATION = 2

# Ranged hits: "If any die result is 1, 2 or 3 the attack is successful ... at range 2, only a
# die roll of 1 or 2 scores a hit. At range 3, only a 1 scores a hit."
RANGED_HIT_MAX = {1: 3, 2: 2, 3: 1}
BREACH_HIT_MAX = 3


@dataclass(frozen=True)
class UnitStats:
    """One row of the Stats table."""

    name: str
    cost: int  # gold to build, silver to activate, dice in battle, tokens when defeated
    movement: int
    attack_range: int  # 0 = close combat only
    limit: int  # per turn for "2/turn" rows; pieces in play for freighter and galleon
    limit_per_turn: bool
    is_ship: bool
    can_attack: bool = True
    transport: int = 0


UNITS: tuple[UnitStats, ...] = (
    UnitStats("soldier", 1, 3, 0, 2, True, False),
    UnitStats("archer", 2, 2, 3, 2, True, False),
    UnitStats("cavalry", 3, 4, 0, 2, True, False),
    UnitStats("caravel", 1, 6, 0, 2, True, True),
    UnitStats("freighter", 2, 5, 0, 3, False, True, can_attack=False, transport=FREIGHTER_CAPACITY),
    UnitStats("galleon", 3, 4, 3, 1, False, True),
)

UNIT_NAMES = tuple(u.name for u in UNITS)
UNIT_COST = tuple(u.cost for u in UNITS)
UNIT_MOVEMENT = tuple(u.movement for u in UNITS)
UNIT_RANGE = tuple(u.attack_range for u in UNITS)
IS_SHIP = tuple(u.is_ship for u in UNITS)
IS_LAND = tuple(not u.is_ship for u in UNITS)  # the LAND_TYPES, as a flag per type
UNIT_LIMIT = tuple(u.limit for u in UNITS)
UNIT_LIMIT_PER_TURN = tuple(u.limit_per_turn for u in UNITS)

DEV_NAMES = ("", "camp", "fort", "castle")
DEV_COST = (0, 1, 2, 3)  # gold to build, tokens when seized ("the value of that development")
DEV_OCCUPANCY = (0, 1, 2, 3)

# Starting forces of each player (Setup): "3 soldiers, 2 archers, 1 cavalry; 3 caravels,
# 2 freighters, 1 galleon".
STARTING_SHIPS = (CARAVEL, CARAVEL, CARAVEL, FREIGHTER, FREIGHTER, GALLEON)
STARTING_LAND = (SOLDIER, SOLDIER, SOLDIER, ARCHER, ARCHER, CAVALRY)


def _freighter_splits() -> tuple[tuple[tuple[int, ...], tuple[int, ...]], ...]:
    """Every way to load the starting knights onto the two starting freighters, 3 each ("Each
    player must load his 2 freighters with 3 land units each"). The freighters are alike, so a
    split and its mirror are one: SSS|AAC, SSA|SAC, SSC|SAA for the standard forces."""
    from itertools import combinations
    out = []
    for first in sorted(set(combinations(STARTING_LAND, FREIGHTER_CAPACITY))):
        rest = list(STARTING_LAND)
        for t in first:
            rest.remove(t)
        pair = tuple(sorted((first, tuple(rest))))
        if pair not in out:
            out.append(pair)
    return tuple(out)


FREIGHTER_SPLITS = _freighter_splits()

# Aliases a reader of the rules may type: Knight/Infantry/Soldier and Galley/Galleon.
UNIT_ALIASES = {
    "soldier": SOLDIER, "knight": SOLDIER, "infantry": SOLDIER,
    "archer": ARCHER, "cavalry": CAVALRY,
    "caravel": CARAVEL, "freighter": FREIGHTER, "galleon": GALLEON, "galley": GALLEON,
}
DEV_ALIASES = {"camp": CAMP, "encampment": CAMP, "fort": FORT, "castle": CASTLE}
