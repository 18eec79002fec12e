"""A moment's legal decisions as a person reads them: each decision's
:class:`games.choices.Choice` (its number, kind, command, hex and the engine's words), shared by
the terminal's menu (:class:`arena.human.Menu`, through ``VigtavlState.choices``) and the web
page's decision list (:mod:`vigtavl_env.web_view`).

:func:`asked` says what a pending choice asks, and how to answer it.
:func:`legal_choices` and :func:`ordered_choices` list them in the engine's order of the
decisions, numbered from 1;
:func:`normalize` reads a typed command as the commands are written (``(3, -1)`` as ``3,-1``,
``wall 2`` as ``wall nw``).
"""

from __future__ import annotations

import dataclasses
import re
from typing import Any

import numpy as np

from games.choices import Choice

from .codec import mask_indices
from .engine import actions as A
from .engine import describe
from .engine.hexgrid import DIRECTION_NAMES


def normalize(text: str) -> str:
    """Lower case, hexes as ``q,r`` (``(3, -1)``, ``3 -1`` and ``3,-1`` all read ``3,-1``), wall
    edges by name (``wall 2`` reads ``wall nw``)."""
    t = re.sub(r"[()]", " ", text.lower().strip())
    t = re.sub(r"\bwall\s+([0-5])\b", lambda m: f"wall {DIRECTION_NAMES[int(m.group(1))].lower()}", t)
    t = re.sub(r"\s*,\s*", ",", t)
    t = re.sub(r"(-?\d+)\s+(-?\d+)$", r"\1,\2", " ".join(t.split()))
    return t


def describe_choice(state: Any, code: int, action: int, number: int) -> Choice:
    """The :class:`Choice` of engine ``code`` (env ``action``) in ``state``."""
    text = re.sub(r"^P\d+:\s*", "", describe(state, code))
    choice = _choice(state, code, action, number, text)
    return dataclasses.replace(choice, plain=normalize(text.replace(" at ", " ")) == choice.command)


def _choice(state: Any, code: int, action: int, number: int, text: str) -> Choice:
    board = state.gmap.board
    verb, cell, g = A.decode(code, board.n_cells)
    if g >= A.VARIANT:  # "choose 1".."choose 6": which of the unalike units; the description says how it differs
        return Choice(number, action, "choose", f"choose {g - A.VARIANT + 1}", None, text)
    if g >= A.LOAD:  # "load 1".."load 3": the split itself is in the description
        return Choice(number, action, "load", f"load {g - A.LOAD + 1}", None, text)
    if g >= 0:
        name = A.GLOBAL_NAMES[g]
        return Choice(number, action, name, name, None, text)
    name = A.VERB_NAMES[verb]
    kind = name
    if "wall" in name:  # "build wall 3" -> kind "build wall", command "build wall w"
        kind, d = name.rsplit(" ", 1)
        name = f"{kind} {DIRECTION_NAMES[int(d)].lower()}"
    q, r = board.coords[cell]
    return Choice(number, action, kind, f"{name} {q},{r}", f"{q},{r}", text)


def legal_choices(state: Any, codec: Any, mask: np.ndarray) -> list[Choice]:
    """The legal decisions of ``mask`` (env action indices) as choices, in the engine's order of
    the decisions, numbered from 1."""
    return ordered_choices(state, codec, mask_indices(np.asarray(mask)).tolist())


def ordered_choices(state: Any, codec: Any, legal: list[int]) -> list[Choice]:
    """The env action indices ``legal`` as choices, in the engine's order of the decisions,
    numbered from 1."""
    actions = sorted(legal, key=codec.to_engine)
    return [describe_choice(state, codec.to_engine(a), a, i) for i, a in enumerate(actions, 1)]


RETALIATION_WORDS = "RETALIATION: you may activate one unit with your retaliation silver, or end."


def asked(state: Any, interrupt: str) -> str:
    """What the decision of engine ``state`` asks of the person beyond its list, with how to
    answer ("" for a plain decision): a retaliation, then the pending choice; ``interrupt``: the
    env's kind of out-of-turn decision (``"defend"`` ...). The game interface's ``prompt``."""
    words = _pending_words(state, interrupt)
    if interrupt == "retaliation":
        return RETALIATION_WORDS + ("\n" + words if words else "")
    return words


def _pending_words(state: Any, interrupt: str) -> str:
    from .engine.state import CHOOSE_GUARD, CHOOSE_PRISON, CHOOSE_RESCUE_SPOT, CHOOSE_SIDE, CHOOSE_VARIANT, PLACEMENT
    from .render import pending_text  # Pillow only when asked
    pend = state.pending
    if pend is None:
        if state.phase == PLACEMENT and state.to_load:
            return ("SETUP: load your two freighters with your six knights (3 soldiers, 2 archers, 1 "
                    "cavalry), 3 on each: choose a split (load 1, load 2 or load 3).")
        return ""
    text = re.sub(r"\bplayer_(\d)\b", r"P\1", pending_text(state)) + "."
    if interrupt == "defend":
        none = ", or 'no defence' to let it go" if pend.kind == CHOOSE_GUARD else ""
        return f"DEFEND (out of turn): {text} Choose the unit that defends ('choose <type> q,r'){none}."
    if pend.kind == CHOOSE_SIDE:
        return f"BATTLE MOVE: {text} The side sets the front and the flanking dice ('attack from q,r')."
    if pend.kind == CHOOSE_VARIANT:
        return f"CHOOSE: {text}: pick one of the numbered entries below."
    if pend.kind in (CHOOSE_PRISON, CHOOSE_RESCUE_SPOT):
        verb = "hold prisoner" if pend.kind == CHOOSE_PRISON else "place rescued"
        return f"CHOOSE: {text} ('{verb} q,r')."
    return f"CHOOSE: {text} ('choose <type> q,r')."
