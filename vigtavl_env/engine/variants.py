"""Which unit, when units of one type on one hex differ: upright or spent, and their cargo.

Rules v2. A decision names a verb, a hex and a unit type ("discharge soldier at (1,2)"); units
of that type on that hex are one choice while they are alike, and the player chooses among them
when they differ, because the difference is his to use:
- a unit stands upright, is in an activation (laid on its side, still acting) or is spent
  ("lay the piece on its side to denote that it has completed its actions");
- a freighter carries its cargo (which knights, upright or spent);
- a knight aboard a freighter rides with that freighter's cargo.

Units whose :func:`variant_key` is equal are interchangeable: the lowest-numbered stands for its
class. :func:`variant_classes` orders the classes canonically (upright first, then in an
activation, then spent; then by cargo), and the global verbs "choose variant k" name the k-th.
At most ``MAX_VARIANTS`` classes can occur: three units stand on a hex, and a knight type aboard
up to three freighters is upright or spent.
"""

from __future__ import annotations

from .actions import MAX_VARIANTS
from .state import LOADED, SPENT, GameState, in_activation
from .stats import FREIGHTER, UNIT_NAMES

__all__ = ["MAX_VARIANTS", "variant_classes", "variant_key", "variant_features", "describe_variant"]
UPRIGHT, ACTING, SPENT_STATUS = range(3)
STATUS_NAMES = ("upright", "in an activation", "spent")


def unit_status(state: GameState, u: int) -> int:
    """UPRIGHT, ACTING (in an activation this moment) or SPENT_STATUS (its actions done)."""
    if not state.u_flags[u] & SPENT:
        return UPRIGHT
    return ACTING if in_activation(state, u) else SPENT_STATUS


def cargo_key(state: GameState, freighter: int) -> tuple:
    """What a freighter carries: its knights' (type, status), sorted."""
    keys = [(state.u_type[v], unit_status(state, v)) for v in state.cargo(freighter)]
    keys.sort()
    return tuple(keys)


def variant_key(state: GameState, u: int) -> tuple:
    """What tells unit ``u`` apart from others of its type on its hex: its status, and its
    cargo (a freighter) or its freighter's status and cargo (a knight aboard)."""
    status = unit_status(state, u)
    if state.u_type[u] == FREIGHTER:
        return (status, cargo_key(state, u))
    if state.u_where[u] == LOADED:
        carrier = state.u_carrier[u]
        return (status, (unit_status(state, carrier), cargo_key(state, carrier)))
    return (status, ())


def variant_classes(state: GameState, units: list[int]) -> list[list[int]]:
    """``units`` (of one type on one hex) grouped into classes of interchangeable units, in
    canonical order; each class ascending, so its first unit stands for it."""
    if len(units) < 2:  # the common case, one unit of the type on the hex: no key to compute
        return [list(units)] if units else []
    groups: dict[tuple, list[int]] = {}
    for u in sorted(units):
        groups.setdefault(variant_key(state, u), []).append(u)
    return [groups[k] for k in sorted(groups)]


def variant_features(state: GameState, u: int) -> tuple[int, int, int, int, int]:
    """What the observation shows of a class: (in an activation, spent, soldiers, archers,
    cavalry aboard), the cargo being the unit's own (a freighter) or its freighter's."""
    status = unit_status(state, u)
    carrier = u if state.u_type[u] == FREIGHTER else (state.u_carrier[u] if state.u_where[u] == LOADED else -1)
    counts = [0, 0, 0]
    if carrier >= 0:
        for v in state.cargo(carrier):
            counts[state.u_type[v]] += 1
    return (int(status == ACTING), int(status == SPENT_STATUS), counts[0], counts[1], counts[2])


def describe_variant(state: GameState, u: int) -> str:
    """A few words for a class, e.g. "spent" or "upright, carrying soldier+archer"."""
    words = STATUS_NAMES[unit_status(state, u)]
    carrier = u if state.u_type[u] == FREIGHTER else (state.u_carrier[u] if state.u_where[u] == LOADED else -1)
    if carrier >= 0:
        load = "+".join(sorted([UNIT_NAMES[state.u_type[v]] for v in state.cargo(carrier)], key=UNIT_NAMES.index))
        where = "carrying" if carrier == u else "aboard a freighter carrying"
        words += f", {where} {load or 'nothing'}"
    return words
