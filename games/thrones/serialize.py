"""A Thrones state to JSON-able data and back, every field checked on the way in (ValueError,
one line, naming the field)."""

from __future__ import annotations

from typing import Any

from .config import make_config

VERSION = "thrones-2"  # 2: the decision limit (max_decisions, rules row G12)
PHASES = ("setup", "play", "over")


def state_to_dict(st: Any) -> dict[str, Any]:
    return {
        "game": "thrones", "version": VERSION, "config": st.cfg.to_dict(),
        "tile": list(st.tile), "breached": list(st.breached), "ppos": list(st.ppos),
        "last_fort": list(st.last_fort), "mid": [list(m) for m in st.mid], "step": list(st.step),
        "hidden": list(st.hidden), "phase": st.phase, "revealed": st.revealed, "rng": str(st.rng),
        "forced": list(st.forced), "events": [dict(e) for e in st.events], "history": list(st.history),
        "fav": list(st.fav), "fav_total": list(st.fav_total), "turn": st.turn, "turn_no": st.turn_no,
        "winner": st.winner, "truncated": st.truncated, "guard": st.guard, "turn_guard": st.turn_guard,
        "first_turn": st.first_turn, "first": st.first, "actor": st.actor, "moved": st.moved,
        "switched": st.switched, "long_moved": st.long_moved, "favor_used": st.favor_used,
        "disabled": list(st.disabled), "pending": st.pending, "resume": st.resume,
        "deceive_from": st.deceive_from,
    }


def _bad(name: str, why: str) -> ValueError:
    return ValueError(f"damaged Thrones state: field {name!r} {why}")


def _int(data: dict, name: str, lo: int, hi: int) -> int:
    v = data.get(name)
    if isinstance(v, bool) or not isinstance(v, int) or not lo <= v <= hi:
        raise _bad(name, f"must be an integer in [{lo}, {hi}]")
    return v


def _bool(data: dict, name: str) -> bool:
    v = data.get(name)
    if not isinstance(v, bool):
        raise _bad(name, "must be true or false")
    return v


def _ints(data: Any, name: str, n: int | None, lo: int, hi: int) -> list[int]:
    v = data.get(name) if isinstance(data, dict) else data
    if not isinstance(v, list) or (n is not None and len(v) != n):
        raise _bad(name, f"must be a list of {n if n is not None else 'some'} integers")
    if any(isinstance(x, bool) or not isinstance(x, int) or not lo <= x <= hi for x in v):
        raise _bad(name, f"must hold integers in [{lo}, {hi}]")
    return list(v)


def _bools(data: dict, name: str, n: int) -> list[bool]:
    v = data.get(name)
    if not isinstance(v, list) or len(v) != n or any(not isinstance(x, bool) for x in v):
        raise _bad(name, f"must be a list of {n} true/false values")
    return list(v)


def state_from_dict(data: dict[str, Any], state_class: Any) -> Any:
    """A state of ``state_class`` (the ThronesState, passed in so this module does not import
    the state's, which imports this one) from ``data``."""
    cfg_data = data.get("config")
    if not isinstance(cfg_data, dict):
        raise _bad("config", "must be an object")
    try:
        cfg = make_config(**cfg_data)
    except (TypeError, ValueError) as e:
        raise ValueError(f"damaged Thrones state: config: {str(e)[:150]}") from None
    st = state_class(cfg, 0)
    n, npc, w = st.board.n, 2 * st.per, st.board.w
    st.tile = _ints(data, "tile", n, -1, 4)
    st.breached = _bools(data, "breached", n)
    st.ppos = _ints(data, "ppos", npc, -2, n - 1)
    st.last_fort = _ints(data, "last_fort", npc, -1, n - 1)
    mid = data.get("mid")
    if not isinstance(mid, list) or len(mid) != 2:
        raise _bad("mid", "must be two lists")
    st.mid = [_ints(m, "mid", w, -1, 3) for m in mid]
    st.step = _ints(data, "step", 2, 0, st.steps)
    st.hidden = _bools(data, "hidden", 2)
    if data.get("phase") not in PHASES:
        raise _bad("phase", f"must be one of {', '.join(PHASES)}")
    st.phase = data["phase"]
    for name in ("revealed", "truncated", "first_turn", "moved", "switched", "long_moved", "favor_used"):
        setattr(st, name, _bool(data, name))
    rng = data.get("rng")
    if not isinstance(rng, str) or not rng.isdigit() or int(rng) >= 1 << 64:
        raise _bad("rng", "must be a decimal string of a 64-bit number")
    st.rng = int(rng)
    st.forced = _bools(data, "forced", len(data.get("forced") or []))
    events = data.get("events")
    if not isinstance(events, list) or any(not isinstance(e, dict) for e in events):
        raise _bad("events", "must be a list of objects")
    st.events = [dict(e) for e in events]
    st.history = _ints(data, "history", None, -1, 24 * n + 3)
    st.fav = _ints(data, "fav", 2, 0, 255)
    st.fav_total = _ints(data, "fav_total", 2, 0, 255)
    for name, lo, hi in (("turn", 0, 1), ("turn_no", 0, 10**9), ("winner", -1, 1), ("guard", -1, npc - 1),
                         ("turn_guard", -1, npc - 1), ("first", 0, 1), ("actor", -1, npc - 1),
                         ("pending", -1, 24 * n + 3), ("deceive_from", -1, n - 1)):
        setattr(st, name, _int(data, name, lo, hi))
    st.disabled = _ints(data, "disabled", None, 0, npc - 1)
    resume = data.get("resume")
    if resume is not None and (isinstance(resume, bool) or resume not in (2, 3)):
        raise _bad("resume", "must be null, 2 or 3")
    st.resume = resume
    st.occ = [-1] * n
    for pid, pos in enumerate(st.ppos):
        if pos >= 0:
            if st.occ[pos] >= 0:
                raise _bad("ppos", f"puts two pieces on cell {pos}")
            st.occ[pos] = pid
    st._legal = None
    return st
