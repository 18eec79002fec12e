"""The engine's legal codes grouped by verb: the verbs that take several codes (a unit type, a
development, a wall's side, a freighter split) collapse to one group each, which the bots score
with one function.
"""

from __future__ import annotations

from vigtavl_env.engine import actions as A


# Verb groups (the engine's verbs that take several codes collapse to one group each).
GROUPS = {
    "place": range(A.PLACE, A.PLACE + 3),
    "build_unit": range(A.BUILD_UNIT, A.BUILD_UNIT + 6),
    "build_artillery": range(A.BUILD_ARTILLERY, A.BUILD_ARTILLERY + 1),
    "build_dev": range(A.BUILD_DEV, A.BUILD_DEV + 3),
    "build_wall": range(A.BUILD_WALL, A.BUILD_WALL + 6),
    "relocate_wall": range(A.RELOCATE_WALL, A.RELOCATE_WALL + 6),
    "breach": range(A.BREACH, A.BREACH + 6),
    "activate": range(A.ACTIVATE, A.ACTIVATE + 6),
    "move": range(A.MOVE, A.MOVE + 1),
    "move_artillery": range(A.MOVE_ARTILLERY, A.MOVE_ARTILLERY + 1),
    "attack": range(A.ATTACK, A.ATTACK + 1),
    "fire": range(A.FIRE_ARTILLERY, A.FIRE_ARTILLERY + 1),
    "occupy": range(A.OCCUPY, A.OCCUPY + 1),
    "seize": range(A.SEIZE, A.SEIZE + 1),
    "discharge": range(A.DISCHARGE, A.DISCHARGE + 3),
    "recruit": range(A.RECRUIT, A.RECRUIT + 1),
    "shoot": range(A.SHOOT, A.SHOOT + 1),
    "attack_from": range(A.ATTACK_FROM, A.ATTACK_FROM + 1),
    "choose": range(A.CHOOSE, A.CHOOSE + 6),
    "hold_prisoner": range(A.HOLD_PRISONER, A.HOLD_PRISONER + 1),
    "place_rescued": range(A.PLACE_RESCUED, A.PLACE_RESCUED + 1),
}


# The global verbs by number: end activation, end turn, no defence, the freighter splits, then
# "choose variant k".
GLOBAL_GROUPS = (("end_activation", "end_turn", "no_defence") + ("load",) * (A.VARIANT - A.LOAD)
                 + ("variant",) * A.MAX_VARIANTS)


VERB_GROUP = tuple(next(g for g, vs in GROUPS.items() if v in vs) for v in range(A.N_HEX_VERBS))


def split_legal(legal: list[int], n_cells: int) -> dict[str, list[tuple[int, int, int]]]:
    """Legal codes grouped by verb group: ``{group: [(verb, cell, code), ...]}``. A global verb
    comes in its :data:`GLOBAL_GROUPS` group as ``(-1, g, code)``: no verb, and its number ``g``
    (``A.LOAD + i`` for the split ``i``) where a hex verb has its cell."""
    out: dict[str, list[tuple[int, int, int]]] = {}
    top = A.N_HEX_VERBS * n_cells
    groups, verbs = GLOBAL_GROUPS, VERB_GROUP  # module tuples, read once
    for code in legal:
        if code >= top:
            g = code - top
            key = groups[g]
            item = (-1, g, code)
        else:
            verb = code // n_cells
            key = verbs[verb]
            item = (verb, code - verb * n_cells, code)
        items = out.get(key)
        if items is None:
            out[key] = [item]
        else:
            items.append(item)
    return out


def verb_group(code: int, n_cells: int) -> str:
    """The group name of one engine code (see :data:`GROUPS`, :data:`GLOBAL_GROUPS`)."""
    top = A.N_HEX_VERBS * n_cells
    if code >= top:
        return GLOBAL_GROUPS[code - top]
    return VERB_GROUP[code // n_cells]
