"""What each Vigtavl decision did, as the web page shows it (reached through the game's
:mod:`vigtavl_env.web`): the move list's entries, each battle's dice with a
one-line why, and the outcomes the board marks.

Everything here is read from the engine's own event list (``state.events``, the entries that
:mod:`vigtavl_env.engine.narrate` tells in words), so it follows the rules as the engine changes:
an event kind this module does not know is still narrated, only not drawn.

- :func:`move_entry`: one decision (number ``n``, counted from 1; 0 is the game's setup): who
  made it, its words, its hexes, its events narrated, its battles and its outcomes. Decisions
  are the move list's one numbering; events are lines under their decision. A new turn is said
  with the game's one count of turns (:func:`vigtavl_env.web_view.game_turn`): "turn 5/8: P0, battle
  phase, round 1/2", the words of the status line and of the replay's menu of turns.
- :func:`battle_view`: a ``battle`` event as dice: the attacker's (those that flanking and those
  that attrition added marked apart, from the event's ``flank`` and ``attrition``) and the
  defender's, every round of a close combat, what a ranged shot needed, and the why
  ("3 dice (flank +1) against 1: 6 beats 4"; "5 dice (flank +1, attrition +2) ..."). Flanking
  has one name everywhere: "flank +N", N the dice it adds.
- :func:`outcomes`: captured, sunk, retreated (a battle move lost) or stays (won, but the hex
  cannot be entered), occupied, breached (or held), seized, surrendered, rescued: a word on a hex
  (or a wall) of the board, and whose gain or loss it was.
- :func:`last_decisions`: each player's last meaningful decision (not an "end turn" or "end
  activation"), for the players' panel.
"""

from __future__ import annotations

import re
from typing import Any

from .engine import actions as A
from .engine.narrate import dice_bonus, n_dice, narrate
from .engine.stats import ARTILLERY_COST, RANGED_HIT_MAX, UNIT_COST, UNIT_NAMES
from .engine.state import PHASE_NAMES
from .render import _Canvas
from .web_view import game_turn

# decisions that only close something: "Last:" skips them for the decision before
PLAIN_VERBS = (A.END_ACTIVATION, A.END_TURN)
# the engine's own seed, drawn from the game's: the page shows one seed, the game's
ENGINE_SEED = re.compile(r" \(seed -?\d+\)")
# event kind -> the word on the board
OUTCOME_WORDS = {"captured": "captured", "sunk": "sunk", "retreat": "retreated", "occupy": "occupied",
                 "seized": "seized", "seized_artillery": "seized", "surrender": "surrendered",
                 "rescued": "rescued", "breach": "breached"}
STAYS_WORD = "stays"  # a battle move won whose unit may not enter the hex (the engine's "retreat")


def move_entry(n: int, seat: int, text: str, cells: list[int], code: int, events: list[dict],
               state: Any) -> dict[str, Any]:
    """Decision ``n`` (0: the setup, before any decision) and the ``events`` it caused, read in
    ``state`` (any state after them: unit numbers never change)."""
    verb, _, g = A.decode(code, state.gmap.board.n_cells) if code >= 0 else (-1, -1, -1)
    if g >= A.VARIANT:  # "P0: the soldier spent": the unit he chose, said as a choice
        text = re.sub(r"^(P\d+): (?!chooses )", r"\1: chooses ", text)
    return {"n": n, "seat": seat, "text": text, "cells": cells, "plain": g in PLAIN_VERBS,
            "events": [{"event": e.get("event", ""), "player": e.get("player", -1),
                        "text": event_words(e, state)} for e in events],
            "battles": [battle_view(e, state) for e in events if e.get("event") == "battle"],
            "outcomes": outcomes(events, state)}


def event_words(e: dict, state: Any) -> str:
    """An event in the move list's words: the engine's narration (without the engine's seed), a
    new turn counted over the game."""
    if e.get("event") == "turn" and e.get("phase") in PHASE_NAMES and isinstance(e.get("round"), int):
        rounds, n = state.config.rounds_per_phase, state.n_players
        turn = game_turn(PHASE_NAMES.index(e["phase"]), e["round"], int(e.get("player", 0)), n, rounds)
        return f"turn {turn}/{2 * rounds * n}: P{e.get('player')}, {e['phase']} phase, round {e['round'] + 1}/{rounds}"
    return ENGINE_SEED.sub("", narrate(e, state))


def _unit_name(state: Any, u: Any) -> str:
    if isinstance(u, int) and 0 <= u < len(state.u_type):
        return UNIT_NAMES[state.u_type[u]]
    return "unit"


def battle_view(e: dict, state: Any) -> dict[str, Any]:
    """A battle's dice, rounds and why (see the module's docstring)."""
    dice = int(e.get("dice", 0))
    attacker = "artillery" if e.get("artillery") else _unit_name(state, e.get("unit"))
    u = e.get("unit")
    base = ARTILLERY_COST if e.get("artillery") else (
        UNIT_COST[state.u_type[u]] if isinstance(u, int) and 0 <= u < len(state.u_type) else dice)
    flank, attrition = e.get("flank"), e.get("attrition")
    if not (isinstance(flank, int) and isinstance(attrition, int)):  # an engine before the event told them apart
        flank, attrition = None, None
    tactics = flank + attrition if flank is not None else max(0, dice - base)
    defender = _unit_name(state, e.get("defender"))
    reach = int(e.get("ranged") or 0)
    rolls = e.get("rolls") or []
    out: dict[str, Any] = {
        "cell": e.get("cell", -1), "attacker": {"seat": e.get("player", -1), "unit": attacker, "dice": dice,
                                                "tactics": tactics, "flank": flank, "attrition": attrition},
        "defender": {"seat": e.get("owner", -1), "unit": defender}, "won": bool(e.get("won")),
        "overwhelm": bool(e.get("overwhelm")), "ranged": reach, "seize": bool(e.get("seize")), "rounds": [],
    }
    extra = dice_bonus(flank, attrition, tactics)
    if out["overwhelm"]:
        out["why"] = (f"{n_dice(dice)}{extra} against the {defender}: overwhelming odds "
                      f"({state.config.overwhelm_dice} dice or more), it surrenders without a roll")
    elif reach:
        need = RANGED_HIT_MAX.get(reach, 0)
        hits = "a 1 hits" if need == 1 else f"a 1 to {need} hits"
        out["rounds"] = [{"attack": list(rolls), "defend": []}]
        out["need"] = need
        low = min(rolls) if rolls else "-"
        out["why"] = (f"{n_dice(dice)}{extra} at range {reach}, {hits}: lowest {low} - "
                      f"{'hit' if out['won'] else 'miss'}")
    else:
        out["rounds"] = [{"attack": list(a), "defend": list(d)} for a, d in rolls]
        defend = len(rolls[0][1]) if rolls else UNIT_COST[state.u_type[e["defender"]]]
        steps = []
        for i, (a, d) in enumerate(rolls):
            best_a, best_d = max(a), max(d)
            verb = "ties" if best_a == best_d else "beats" if best_a > best_d else "loses to"
            steps.append(f"{best_a} {verb} {best_d}" + (", re-rolled" if i < len(rolls) - 1 else ""))
        out["defender"]["dice"] = defend
        out["why"] = f"{n_dice(dice)}{extra} against {defend}: " + "; then ".join(steps)
    return out


def outcomes(events: list[dict], state: Any) -> list[dict[str, Any]]:
    """The outcomes of ``events`` as words on the board: hex (or the wall's middle), whose gain
    (``by``) and whose loss (``of``), -1 where none."""
    cv = _Canvas(state.gmap.board)
    out = []
    won = False  # the last battle's result: a battle move's unit that won and stays did not retreat
    for e in events:
        kind = e.get("event", "")
        won = bool(e.get("won")) if kind == "battle" else won
        word = OUTCOME_WORDS.get(kind)
        if word is None:
            continue
        by, of = e.get("player", -1), e.get("owner", -1)
        cell = e.get("cell", -1)
        if kind in ("captured", "sunk"):
            by, of = e.get("by", by), _owner(state, e.get("unit"))
        elif kind == "retreat":  # nobody gains by it: the unit stays where its move began
            word = STAYS_WORD if won else word
            cell, by, of = e.get("to", -1), -1, -1
        elif kind == "occupy":
            cell, of = e.get("to", -1), -1
        elif kind == "rescued":
            of = -1
        elif kind == "breach":
            word = "breached" if e.get("success") else "wall holds"
            edge = e.get("edge", -1)
            if not isinstance(edge, int) or not 0 <= edge < state.gmap.board.n_edges:
                continue
            cell = state.gmap.board.edge_cells[edge][0]
            (x1, y1), (x2, y2) = cv.edge(cell, state.gmap.board.edge[cell].index(edge))
            out.append({"what": word, "cell": cell, "x": round((x1 + x2) / 2, 1), "y": round((y1 + y2) / 2, 1),
                        "by": by, "of": of if e.get("success") else -1})
            continue
        if not isinstance(cell, int) or not 0 <= cell < state.n_cells:
            continue
        x, y = cv.centre(cell)
        out.append({"what": word, "cell": cell, "x": round(x, 1), "y": round(y, 1), "by": by, "of": of})
    return out


def _owner(state: Any, u: Any) -> int:
    return state.u_owner[u] if isinstance(u, int) and 0 <= u < len(state.u_owner) else -1


def last_decisions(moves: list[dict[str, Any]], n_players: int) -> list[str]:
    """Each player's last meaningful decision in ``moves`` (a plain one only when he made no
    other), as ``"12. activate cavalry at (2, -1)"``; "" for a player who has made none."""
    out, plain = [""] * n_players, [""] * n_players
    for m in reversed(moves):
        seat = m["seat"]
        if 0 <= seat < n_players and m["n"] > 0:
            words = f"{m['n']}. {m['text'].removeprefix(f'P{seat}: ')}"
            if not m["plain"] and not out[seat]:
                out[seat] = words
            elif m["plain"] and not plain[seat]:
                plain[seat] = words
        if all(out):
            break
    return [a or b for a, b in zip(out, plain)]
