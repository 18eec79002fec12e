"""A turn as decisions: what may be chosen now and what each choice does (page "Your Turn",
"Survival", "Then a Dragon Showed Up", "Breaching Fortresses", "Fate's Favor").

A turn: SELECT a piece, then MOVE and/or SWITCH with it (one each; a Warhorse any number of
switches), or ATTACK or FIRE; END_TURN once it has moved or switched. A check that a favor could
pass asks CUNNING or FLIP first. Favors (HASTE, AMBUSH, DECEIVE, CUNNING) count as no action:
one a turn. The Dragon comes out of reserve with DRAGON.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from . import rules as R
from .codec import (AMBUSH, ATTACK, CUNNING, DECEIVE, DRAGON, END_TURN, FIRE, FLIP, HASTE, MOVE,
                    SELECT, SWITCH)
from .config import DRAGON as DRAGON_PIECE
from .config import FOREST, FORTRESS, MOUNTAIN, PLAINS, THRONE, WARHORSE, WATER

if TYPE_CHECKING:
    from .state import ThronesState

FAVOR_TILE = {HASTE: PLAINS, AMBUSH: FOREST, CUNNING: MOUNTAIN, DECEIVE: WATER}


def favor_ready(st: "ThronesState", verb: int, cell: int) -> bool:
    """Page: "Only one FF tile may be spent by each player per turn"; favor_kind "tile": the
    kind is the tile under the acting piece (source)."""
    s = st.turn
    if st.fav[s] <= 0 or st.favor_used:
        return False
    return st.cfg.favor_kind == "choose" or st.tile[cell] == FAVOR_TILE[verb]


def haste_targets(st: "ThronesState", p: int) -> list[int]:
    """Haste (Plains): "Adds 1 tile of movement to an allied piece": one more step."""
    if not favor_ready(st, HASTE, st.ppos[p]):
        return []
    return [c for c in st.board.adj[st.ppos[p]] if st.occ[c] < 0]


def ambush_targets(st: "ThronesState", p: int) -> list[int]:
    """Ambush (Forest): "Switches positions of two allied pieces on Forests"."""
    src = st.ppos[p]
    if st.tile[src] != FOREST or not favor_ready(st, AMBUSH, src):
        return []
    return [st.ppos[q] for q in st.pieces_of(st.turn)
            if q != p and st.ppos[q] >= 0 and st.tile[st.ppos[q]] == FOREST and st.ptype[q] != st.ptype[p]]


def deceive_pair_ok(st: "ThronesState", a: int, b: int) -> bool:
    """Deception (Water): "Switches positions of any two adjacent pieces" (deception "any");
    "allied": the source's switch of two allied pieces. Never two pieces alike of one side (no
    switch at all), never a Warhorse with an enemy Warhorse."""
    same_side = st.owner(a) == st.owner(b)
    if st.ptype[a] == st.ptype[b] and (same_side or st.ptype[a] == WARHORSE):
        return False
    return st.cfg.deception == "any" or (same_side and st.owner(a) == st.turn)


def deceive_partners(st: "ThronesState", cell: int) -> list[int]:
    a = st.occ[cell]
    return [c for c in st.board.adj[cell] if st.occ[c] >= 0 and deceive_pair_ok(st, a, st.occ[c])]


def deceive_starts(st: "ThronesState") -> list[int]:
    if st.fav[st.turn] <= 0 or st.favor_used:  # favor_ready's answer for every cell (the common case)
        return []
    out = []
    for c, q in enumerate(st.occ):
        if q >= 0 and favor_ready(st, DECEIVE, c) and deceive_partners(st, c):
            out.append(c)
    return out


def piece_options(st: "ThronesState", p: int) -> list[tuple[int, int]]:
    """(verb, cell) pairs the acting piece may do now."""
    out = [(MOVE, c) for c in R.move_targets(st, p)]
    out += [(SWITCH, c) for c in R.switch_targets(st, p)]
    out += [(ATTACK, c) for c in R.attack_targets(st, p)]
    out += [(FIRE, c) for c in R.fire_targets(st, p)]
    out += [(HASTE, c) for c in haste_targets(st, p)]
    out += [(AMBUSH, c) for c in ambush_targets(st, p)]
    return out


def has_options(st: "ThronesState", p: int) -> bool:
    """``piece_options(st, p)`` is not empty: the same answer, found sooner, as most pieces may
    step to a free neighbour (a move target of every piece but the Dragon while not moved)."""
    if not st.moved and st.ptype[p] != DRAGON_PIECE:
        occ = st.occ
        for c in st.board.adj[st.ppos[p]]:
            if occ[c] < 0:
                return True
    return bool(piece_options(st, p))


def dragon_cells(st: "ThronesState") -> list[int]:
    """Page: "place their Dragon on any unoccupied, homeland Mountain. Alternately ... in their
    homeland Fortress ... removing any piece (opponent or allied) occupying that Fortress"."""
    s = st.turn
    if not st.dragons_in_reserve(s):
        return []
    fresh = not (st.moved or st.switched)
    out = []
    for c in st.board.home[s]:
        t = st.tile[c]
        if t == FORTRESS or (t == MOUNTAIN and st.occ[c] < 0 and (fresh or not st.cfg.dragon_uses_turn)):
            out.append(c)
    return out


def play_options(st: "ThronesState") -> list[tuple[int, int]]:
    """Every (verb, absolute cell) legal now; (global, -1) pairs use verb ``-1 - g``."""
    if st.pending >= 0:
        return [(-1 - CUNNING, -1), (-1 - FLIP, -1)]
    if st.deceive_from >= 0:
        return [(DECEIVE, c) for c in deceive_partners(st, st.deceive_from)]
    if st.actor >= 0:
        out = piece_options(st, st.actor)
    else:
        out = [(SELECT, st.ppos[p]) for p in st.pieces_of(st.turn)
               if st.ppos[p] >= 0 and p not in st.disabled and has_options(st, p)]
    out += [(DRAGON, c) for c in dragon_cells(st)]
    out += [(DECEIVE, c) for c in deceive_starts(st)]
    if st.moved or st.switched or not out:
        out.append((-1 - END_TURN, -1))
    return out


def survive(st: "ThronesState", kind: str, p: int, dst: int, code: int) -> bool | None:
    """The check of an action: True passed, False failed, None asked (CUNNING or FLIP first)."""
    if not R.check_needed(st, kind, p, dst):
        return True
    if st.resume is not None:
        how, st.resume = st.resume, None
        return True if how == CUNNING else st.flip(p, kind)
    if favor_ready(st, CUNNING, st.ppos[p]):
        st.pending = code
        return None
    return st.flip(p, kind)


def fail_check(st: "ThronesState", p: int, kind: str) -> None:
    """Page: "the move/firing does not occur, and the player ends their turn. If the check
    failed during an attack, the piece is removed from the game." (survival_mode: the source's
    Game::failSurvivalCheck.)"""
    mode, throne = st.cfg.survival_mode, st.ptype[p] == THRONE
    if mode == "page":
        if kind == R.KIND_ATTACK and not throne:
            st.remove(p)
        st.end_turn()
    elif not throne and (kind == R.KIND_ATTACK or mode == "kill"):
        st.remove(p)
        st.actor = -1
        if st.moved or st.switched:
            st.end_turn()
    elif st.moved or st.switched or mode == "finish":
        st.end_turn()
    else:
        st.disabled.append(p)
        st.actor = -1


def checked(st: "ThronesState", kind: str, p: int, dst: int, code: int) -> bool:
    """The action goes ahead: its check passed (or none was needed); else the check was asked
    (CUNNING or FLIP next) or failed (and its failure carried out)."""
    ok = survive(st, kind, p, dst, code)
    if ok is False:
        fail_check(st, p, kind)
    return bool(ok)


def do_move(st: "ThronesState", p: int, dst: int, code: int, haste: bool) -> None:
    kind = R.KIND_MOVE
    if not checked(st, kind, p, dst, code):
        return
    src = st.ppos[p]
    long = R.is_long(st, p, dst)
    st.relocate(p, dst)
    if st.cfg.fortress_restore == "vacated" and st.breached[src]:
        st.breached[src] = False
    if not haste:
        st.moved = True
        st.long_moved = long
    if not R.check_win(st) and R.turn_over_after(st, p, kind):
        st.end_turn()


def do_switch(st: "ThronesState", p: int, dst: int, code: int) -> None:
    kind = R.KIND_SWITCH
    if not checked(st, kind, p, dst, code):
        return
    st.swap(p, st.occ[dst])
    st.switched = True
    if not R.check_win(st) and R.turn_over_after(st, p, kind):
        st.end_turn()


def do_strike(st: "ThronesState", p: int, dst: int, code: int, kind: str) -> None:
    """An attack or a shot: a breach of an unbreached Fortress ("A Throne's attack will breach
    the Fortress AND remove it's occupier in one move"), else the piece removed (the attacker
    takes its tile)."""
    if not checked(st, kind, p, dst, code):
        return
    q = st.occ[dst]
    attack = kind == R.KIND_ATTACK
    removed = False
    if st.tile[dst] == FORTRESS and not st.breached[dst]:
        st.breached[dst] = True
        st.log_event({"kind": "breach", "cell": dst})
        if attack and st.ptype[p] == THRONE:
            st.remove(q)
            st.relocate(p, dst)
            removed = True
    else:
        if not attack and st.breached[dst] and st.cfg.fortress_restore == "vacated":
            st.breached[dst] = False
        st.remove(q)
        removed = True
        if attack:
            st.relocate(p, dst)
    if attack and st.ptype[p] == WARHORSE and (removed or st.cfg.warhorse_guard == "source"):
        st.turn_guard = p
    st.moved = True
    if not R.check_win(st):
        st.end_turn()


def do_dragon(st: "ThronesState", cell: int) -> None:
    """Page: on a Mountain the Dragon uses the turn; on the Fortress the turn restarts
    (dragon_uses_turn; off: the source, where placing costs nothing)."""
    s = st.turn
    pid = next(q for q in st.pieces_of(s) if st.ppos[q] == -1 and st.ptype[q] == DRAGON_PIECE)
    on_fortress = st.tile[cell] == FORTRESS
    if st.occ[cell] >= 0:
        if st.occ[cell] == st.actor:
            st.actor = -1
        st.remove(st.occ[cell])
    st.relocate(pid, cell)
    if R.check_win(st) or not st.cfg.dragon_uses_turn:
        return
    if on_fortress:
        st.actor, st.moved, st.switched, st.long_moved = -1, False, False, False
        st.disabled.clear()
    else:
        st.end_turn()


def do_favor_switch(st: "ThronesState", a: int, b: int, name: str) -> None:
    st.spend_favor(name)
    st.swap(a, b)
    R.check_win(st)


def apply_play(st: "ThronesState", verb: int, cell: int, code: int) -> None:
    """One legal play decision (``verb < 0``: global ``-1 - verb``)."""
    if verb == -1 - END_TURN:
        st.end_turn()
        return
    if verb in (-1 - CUNNING, -1 - FLIP):
        code, st.pending = st.pending, -1
        st.resume = CUNNING if verb == -1 - CUNNING else FLIP
        if st.resume == CUNNING:
            st.spend_favor("cunning")
        st.apply_code(code)
        return
    occ = st.occ[cell]
    if verb == SELECT:
        st.actor = occ
    elif verb == DRAGON:
        do_dragon(st, cell)
    elif verb == DECEIVE:
        if st.deceive_from < 0:
            st.deceive_from = cell
        else:
            a, st.deceive_from = st.occ[st.deceive_from], -1
            do_favor_switch(st, a, occ, "deception")
    elif verb == AMBUSH:
        do_favor_switch(st, st.actor, occ, "ambush")
    elif verb in (MOVE, HASTE):
        if verb == HASTE and st.resume is None:
            st.spend_favor("haste")
        do_move(st, st.actor, cell, code, verb == HASTE)
    elif verb == SWITCH:
        do_switch(st, st.actor, cell, code)
    else:
        do_strike(st, st.actor, cell, code, R.KIND_ATTACK if verb == ATTACK else R.KIND_FIRE)
