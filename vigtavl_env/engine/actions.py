"""The decisions a player can make, as verbs on hexes, and their integer codes.

Every decision is small and atomic: a verb applied to one hex, or one of the global verbs that
need no hex. The engine code of a decision is ``verb * n_cells + cell`` for hex verbs and
``N_HEX_VERBS * n_cells + g`` for the global verbs ``g``. The environment maps engine cells onto
its square tensor; see ``vigtavl_env/codec.py``.

Some decisions come in two steps: a declaration (move into an enemy hex, attack, seize, breach)
and then a choice that belongs to a player, asked next (``state.pending``): the side a battle
move enters from (verb 48), who defends (verbs 49-54, asked of the defending player out of turn,
or global verb 2 to let a development or artillery go undefended), which of several units
breaches or seizes (verbs 49-54); which of several unalike units of the named type acts
(the "choose variant" globals); where a prisoner is held or a rescued unit stands (verbs 55,
56). A choice with only one option is made without asking.

Verb layout (57 hex verbs)::

     0- 2  place caravel / freighter / galleon          (placement phase)
     3- 8  build soldier archer cavalry caravel freighter galleon
     9     build artillery
    10-12  build camp / fort / castle
    13-18  build wall on edge direction 0..5 of the hex
    19-24  take down own wall on edge 0..5 (relocation; the next wall is free)
    25-30  breach the opponent wall on edge 0..5 with a unit on the hex
    31-36  activate soldier archer cavalry caravel freighter galleon on the hex
    37     move the active unit to the hex (a battle if another player holds it)
    38     move the active knight to the hex towing the artillery on its hex
    39     attack the hex with the active unit in close combat (any unit, adjacent hex)
    40     fire the artillery on the active knight's hex at the hex
    41     occupy the hex just won or seized
    42     seize the development / artillery on the hex
    43-45  discharge a soldier / archer / cavalry on the hex
    46     recruit the discharged unit's replacement onto the hex
    47     shoot at the hex with the active unit's ranged attack (archer, galleon)
    48     attack from the hex: the side a battle move enters the enemy hex from
    49-54  choose the soldier / archer / cavalry / caravel / freighter / galleon on the hex
           (to defend, to breach, to seize: whatever ``state.pending`` asks)
    55     hold the new prisoner on the hex (one of the victor's equally near developments)
    56     place the rescued unit on the hex (one of the equally near hexes with room)

Global verbs: 0 end activation, 1 end turn, 2 no defence (let the development or artillery be
seized), 3-5 load the freighters with the starting split 0, 1 or 2 (``FREIGHTER_SPLITS``), 6-11
choose variant 0-5: when the units a decision names (by hex and type) differ, upright or spent
or by cargo, the k-th of their classes in ``variants.variant_classes`` order (rules v2).

Worked example on the 2-player board (91 hexes): moving the active unit to hex 40 is
``37 * 91 + 40 = 3407``; ending the turn is ``57 * 91 + 1 = 5188``.
"""

from __future__ import annotations

from operator import index

from .stats import DEV_NAMES, FREIGHTER_SPLITS, UNIT_NAMES

PLACE = 0
BUILD_UNIT = 3
BUILD_ARTILLERY = 9
BUILD_DEV = 10  # + development type - 1
BUILD_WALL = 13
RELOCATE_WALL = 19
BREACH = 25
ACTIVATE = 31
MOVE = 37
MOVE_ARTILLERY = 38
ATTACK = 39
FIRE_ARTILLERY = 40
OCCUPY = 41
SEIZE = 42
DISCHARGE = 43
RECRUIT = 46
SHOOT = 47
ATTACK_FROM = 48
CHOOSE = 49  # + unit type
HOLD_PRISONER = 55
PLACE_RESCUED = 56
N_HEX_VERBS = 57

END_ACTIVATION = 0
END_TURN = 1
NO_DEFENCE = 2
LOAD = 3  # + index into FREIGHTER_SPLITS
VARIANT = LOAD + len(FREIGHTER_SPLITS)  # + k: the k-th of the unalike units (engine/variants.py)
MAX_VARIANTS = 6
N_GLOBAL_VERBS = VARIANT + MAX_VARIANTS
_HEX_VERBS, _GLOBAL_VERBS = N_HEX_VERBS, N_GLOBAL_VERBS  # C copies in the compiled build


def _split_name(split: tuple[tuple[int, ...], tuple[int, ...]]) -> str:
    return "load " + " | ".join("+".join(UNIT_NAMES[t] for t in load) for load in split)


GLOBAL_NAMES = (("end activation", "end turn", "no defence") + tuple(_split_name(s) for s in FREIGHTER_SPLITS)
                + tuple(f"choose variant {k}" for k in range(MAX_VARIANTS)))


def _names() -> tuple[str, ...]:
    names = [f"place {UNIT_NAMES[3 + i]}" for i in range(3)]
    names += [f"build {n}" for n in UNIT_NAMES]
    names += ["build artillery"]
    names += [f"build {DEV_NAMES[i]}" for i in (1, 2, 3)]
    names += [f"build wall {d}" for d in range(6)]
    names += [f"relocate wall {d}" for d in range(6)]
    names += [f"breach wall {d}" for d in range(6)]
    names += [f"activate {n}" for n in UNIT_NAMES]
    names += ["move", "move with artillery", "attack", "fire artillery", "occupy", "seize"]
    names += [f"discharge {UNIT_NAMES[i]}" for i in range(3)]
    names += ["recruit", "shoot", "attack from"]
    names += [f"choose {n}" for n in UNIT_NAMES]
    names += ["hold prisoner", "place rescued"]
    assert len(names) == N_HEX_VERBS
    return tuple(names)


VERB_NAMES = _names()


def encode(verb: int, cell: int, n_cells: int) -> int:
    """Engine code of a hex verb at a cell."""
    return verb * n_cells + cell


def encode_global(g: int, n_cells: int) -> int:
    return N_HEX_VERBS * n_cells + g


def as_code(code: object) -> int:
    """An action code as a plain int: ints and numpy integers pass; floats, strings and bools
    are refused rather than rounded or parsed."""
    if type(code) is int:
        return code  # the common case, at once
    if isinstance(code, bool):
        raise ValueError(f"action code {code!r} is a bool, not an integer")
    try:
        return index(code)
    except TypeError:
        raise ValueError(f"action code {code!r} is not an integer") from None


def decode(code: int, n_cells: int) -> tuple[int, int, int]:
    """``(verb, cell, global)``: a hex verb gives global -1; a global verb gives verb -1."""
    if not isinstance(code, int) or code < 0 or code >= n_actions(n_cells):
        raise ValueError(f"action code {code!r} is outside 0..{n_actions(n_cells) - 1}")
    c = code  # in range: a C integer in the compiled build
    top = _HEX_VERBS * n_cells
    if c >= top:
        return -1, -1, c - top
    return c // n_cells, c % n_cells, -1


def n_actions(n_cells: int) -> int:
    return _HEX_VERBS * n_cells + _GLOBAL_VERBS
