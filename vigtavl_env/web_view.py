"""What the browser draws of Vigtavl: an engine state as a JSON-ready view (the web app reaches
it through the game's :mod:`vigtavl_env.web`, never by importing it).

The page is a plain drawer: the hex geometry (``hexgrid.pixel`` through the renderer's canvas),
the places of the pieces in a hex and the colours all come from here and from
``vigtavl_env.render``, so the web board and the PNG pictures agree. A view holds:

- ``board``: the canvas size, the hex size, and per hex its ``q, r``, terrain, centre and corners;
- ``pieces``: developments, artillery, units (letter, owner, activated, cargo) and prisoners, each
  with its place in pixels; ``walls``: the edge's two corners and the owner;
- ``marks``: the active unit's hex, the hex offered for occupation, the hex a pending choice is
  about and the hex the attack comes from;
- ``status``: phase, round, the turn counted over the whole game (:func:`game_turn`: "turn 5/8",
  the one count of turns the page, the move list and how-to-play use), wind, whose decision and
  why (out of turn or not), builds left, what a pending choice asks (:func:`asked_words`), the
  banner's words for the question asked now (:func:`banner`), the game's end; ``players``:
  purses, tokens, pieces, agents;
- ``fronts``: the front of every hex attacked this turn (the side its first attack came from,
  which decides the flanking dice), as the edge's two corners;
- ``sheet``: the score sheet, each player's tokens by source (the engine's ``token_sheet``; None
  with an engine that has none).

The legal decisions (:func:`decision_list`) are the terminal's :class:`arena.human.Menu`
choices (:func:`vigtavl_env.choices.legal_choices`): the same words, the same hexes; a rules-v2
"choose variant k" is said as the unit it picks ("the soldier spent"), and its banner word, like
the prison's and the rescued unit's, is ``status["choice_words"]`` with how to answer
(``asked_how``).
"""

from __future__ import annotations

import re
from typing import Any

from .choices import legal_choices
from .engine import actions as A
from .engine.building import unit_capacity
from .engine.legal import variant_options
from .engine.state import (
    BATTLE, BUILD, CHOOSE_PRISON, CHOOSE_RESCUE_SPOT, CHOOSE_VARIANT, LOADED, ON_BOARD, PHASE_NAMES, PRISONER,
    SPENT,
)
from .engine.stats import DEV_NAMES, FREIGHTER, UNIT_NAMES
from .render import (
    DEV_LETTERS, HEX_SIZE, PENDING_WORDS, PLAYER_COLOURS, TERRAIN_COLOURS, UNIT_LETTERS, UNIT_SLOTS,
    _Canvas, _units_by_cell, pending_text,
)

TERRAIN_NAMES = ("sea", "land", "mountain")
PLAYER_WORD = re.compile(r"\bplayer_(\d+)")
try:  # the engine's own score sheet (tokens by source), where this engine has one
    from .engine.tokens import token_sheet
except ImportError:
    token_sheet = None
INTERRUPT_WORDS = {"retaliation": "RETALIATION", "defend": "DEFEND (out of turn)", "prison": "PRISON (out of turn)"}
# the choices that rules v2 asks (a pending choice's kind): the banner's word and how to answer
CHOICE_WORDS = {CHOOSE_VARIANT: ("WHICH UNIT", "choose one under Your decision: each button names it"),
                CHOOSE_PRISON: ("PRISON", "click one of the highlighted developments"),
                CHOOSE_RESCUE_SPOT: ("RESCUED UNIT", "click one of the highlighted hexes")}


# a "which unit" question, by the verb that asked it: what the chosen unit is for ({hex}: where)
VARIANT_PURPOSES = ((A.PLACE, A.PLACE + 3, "to place at {hex}: their cargo differs"),
                    (A.ACTIVATE, A.MOVE, "at {hex} to activate: they differ (upright or spent, cargo)"),
                    (A.DISCHARGE, A.DISCHARGE + 3, "at {hex} to discharge: they differ (upright or spent, cargo)"))
VARIANT_BOARDING = "at {hex} takes the knight aboard: their cargo differs"  # a move, build or recruit onto a sea hex


def game_turn(phase: int, round_: int, player: int, n_players: int, rounds: int) -> int:
    """The turn's number over the whole game, from 1 (the first player's first build turn) to
    :func:`game_turns`; 0 in the placement. A round is one turn of each player."""
    if phase not in (BUILD, BATTLE):
        return 0
    return ((phase - BUILD) * rounds + round_) * n_players + player + 1


def game_turns(state: Any) -> int:
    """How many turns a game has: two phases of ``rounds_per_phase`` rounds, one turn a player each."""
    return 2 * state.config.rounds_per_phase * state.n_players


def turn_words(state: Any) -> str:
    """The status line's count: "build phase · round 1/2 · turn 1/8"; "placement (before turn
    1/8)"; "game over after turn 8/8"."""
    total = game_turns(state)
    if state.is_over:
        return f"game over after turn {total}/{total}"
    if state.phase not in (BUILD, BATTLE):
        return f"placement phase (before turn 1/{total})"
    turn = game_turn(state.phase, state.round, state.turn_player, state.n_players, state.config.rounds_per_phase)
    return (f"{PHASE_NAMES[state.phase]} phase · round {state.round + 1}/{state.config.rounds_per_phase} · "
            f"turn {turn}/{total}")


def one_name(text: str) -> str:
    """The page names players P0, P1 ...: the renderer's "player_0" said so."""
    return PLAYER_WORD.sub(r"P\1", text)


def colour(rgb: tuple[int, int, int]) -> str:
    return "#%02x%02x%02x" % rgb


def board_view(board: Any, terrain: Any) -> dict[str, Any]:
    """The fixed part of a game's picture: the canvas and every hex."""
    cv = _Canvas(board)
    cells = []
    for cell, (q, r) in enumerate(board.coords):
        x, y = cv.centre(cell)
        cells.append({"cell": cell, "q": q, "r": r, "terrain": TERRAIN_NAMES[terrain[cell]],
                      "x": round(x, 1), "y": round(y, 1),
                      "points": " ".join(f"{a:.1f},{b:.1f}" for a, b in cv.corners(cell))})
    return {"width": cv.map_width, "height": cv.height, "hex_size": HEX_SIZE, "cells": cells,
            "terrain_colours": {n: colour(c) for n, c in zip(TERRAIN_NAMES, TERRAIN_COLOURS)},
            "player_colours": [colour(c) for c in PLAYER_COLOURS]}


def pieces_view(state: Any) -> tuple[list[dict[str, Any]], list[dict[str, Any]]]:
    """Every piece with its place (as the PNG renderer lays them out), and every wall."""
    cv = _Canvas(state.gmap.board)
    by_cell = _units_by_cell(state)
    pieces: list[dict[str, Any]] = []
    for cell in range(state.n_cells):
        cx, cy = cv.centre(cell)
        dev, art = state.dev_type[cell], state.art_owner[cell]
        if dev:
            pieces.append({"kind": "dev", "cell": cell, "x": cx, "y": cy, "letter": DEV_LETTERS[dev],
                           "name": DEV_NAMES[dev], "owner": state.dev_owner[cell], "size": HEX_SIZE * (0.16 + 0.06 * dev)})
        slots = iter(UNIT_SLOTS)
        if art >= 0:
            sx, sy = next(slots)
            pieces.append({"kind": "artillery", "cell": cell, "x": cx + sx * HEX_SIZE, "y": cy + sy * HEX_SIZE,
                           "letter": "A", "name": "artillery", "owner": art})
        for u in by_cell.get(cell, []):
            sx, sy = next(slots, (0.0, 0.0))
            utype = state.u_type[u]
            aboard = []
            if utype == FREIGHTER:
                aboard = [UNIT_NAMES[state.u_type[v]] for v in range(state.n_units)
                          if state.u_carrier[v] == u and state.u_where[v] == LOADED]
            pieces.append({"kind": "unit", "cell": cell, "x": cx + sx * HEX_SIZE, "y": cy + sy * HEX_SIZE,
                           "letter": UNIT_LETTERS[utype], "name": UNIT_NAMES[utype], "owner": state.u_owner[u],
                           "spent": bool(state.u_flags[u] & SPENT), "cargo": len(aboard), "aboard": aboard})
        held = [u for u in range(state.n_units) if state.u_where[u] == PRISONER and state.u_cell[u] == cell]
        for i, u in enumerate(held):
            pieces.append({"kind": "prisoner", "cell": cell, "x": cx - HEX_SIZE * 0.55 + i * 10 + 4,
                           "y": cy + HEX_SIZE * 0.55, "name": f"captive {UNIT_NAMES[state.u_type[u]]}",
                           "owner": state.u_owner[u]})
    for p in pieces:
        p["x"], p["y"] = round(p["x"], 1), round(p["y"], 1)
    walls = []
    board = state.gmap.board
    for e, owner in enumerate(state.walls):
        if owner >= 0:
            cell = board.edge_cells[e][0]
            (x1, y1), (x2, y2) = cv.edge(cell, board.edge[cell].index(e))
            walls.append({"owner": owner, "x1": round(x1, 1), "y1": round(y1, 1), "x2": round(x2, 1), "y2": round(y2, 1)})
    return pieces, walls


def fronts_view(state: Any) -> list[dict[str, Any]]:
    """The front of each hex attacked this turn: the edge its first attack crossed (flanking
    counts the sides from it), as two corners."""
    cv = _Canvas(state.gmap.board)
    out = []
    for cell, d in sorted(state.front.items()):
        (x1, y1), (x2, y2) = cv.edge(cell, d)
        out.append({"cell": cell, "x1": round(x1, 1), "y1": round(y1, 1), "x2": round(x2, 1), "y2": round(y2, 1)})
    return out


def marks_view(state: Any) -> dict[str, int]:
    """The hexes the picture marks: active unit, occupation offer, a pending choice's hexes."""
    marks = {"active": -1, "occupy": -1, "pending": -1, "origin": -1}
    if state.stack:
        marks["active"] = int(state.u_cell[state.stack[-1].unit])
    if state.occupy_unit >= 0 and state.occupy_cell >= 0:
        marks["occupy"] = int(state.occupy_cell)
    if state.pending is not None:
        marks["pending"], marks["origin"] = int(state.pending.cell), int(state.pending.origin)
    return marks


def status_view(state: Any, interrupt: str = "", truncated: bool = False, seats: list[str] | None = None) -> dict[str, Any]:
    s, seats = state, seats or []
    status: dict[str, Any] = {
        "map": s.gmap.name, "phase": PHASE_NAMES[s.phase], "round": s.round + 1,
        "rounds": s.config.rounds_per_phase, "turn_words": turn_words(s), "turns": game_turns(s),
        "turn": game_turn(s.phase, s.round, s.turn_player, s.n_players, s.config.rounds_per_phase)
        if not s.is_over else game_turns(s),
        "wind": "clockwise" if s.wind > 0 else "counter-clockwise", "over": bool(s.is_over),
        "truncated": bool(truncated and not s.is_over), "winners": [], "to_act": -1, "turn_player": s.turn_player,
        "retaliator": s.retaliator, "interrupt": interrupt, "interrupt_words": INTERRUPT_WORDS.get(interrupt, ""),
        "asked": asked_words(s), "asked_kind": PENDING_WORDS.get(s.pending.kind, "") if s.pending else "",
        "active": "", "builds_left": None, "choice_words": "", "asked_how": "",
    }
    if s.pending is not None and s.pending.kind in CHOICE_WORDS and not truncated:
        status["choice_words"], status["asked_how"] = CHOICE_WORDS[s.pending.kind]
    if s.is_over:
        best = max(s.tokens)
        status["winners"] = [p for p, t in enumerate(s.tokens) if t == best]
    elif not truncated:
        status["to_act"] = s.current_player
    if s.stack:
        u = s.stack[-1].unit
        q, r = s.gmap.board.coords[s.u_cell[u]] if s.u_cell[u] >= 0 else ("?", "?")
        status["active"] = (f"P{s.u_owner[u]}'s {UNIT_NAMES[s.u_type[u]]} at {q},{r}, "
                            f"{s.stack[-1].move_left} move left")
    if s.phase == BUILD:  # units the turn's player may still build this turn
        status["builds_left"] = max(0, unit_capacity(s, s.turn_player) - s.built_units)
    status["banner"] = banner(status, seats)
    return status


def asked_words(state: Any) -> str:
    """What the pending choice asks, in the page's words: the renderer's, but a "which unit"
    question said for the decision that asked it (a freighter to place on an empty hex is not
    "his unalike units at" it)."""
    pend = state.pending
    if pend is None or pend.kind != CHOOSE_VARIANT or pend.parent is not None:
        return one_name(pending_text(state))
    options = variant_options(state)
    kind = UNIT_NAMES[state.u_type[options[0][0]]] if options and options[0] else "unit"
    q, r = state.gmap.board.coords[pend.cell]
    purpose = next((words for first, end, words in VARIANT_PURPOSES if first <= pend.extra < end), VARIANT_BOARDING)
    return f"P{pend.player} chooses which of his {kind}s " + purpose.format(hex=f"({q},{r})")


def seat_words(seats: list[str], seat: int) -> str:
    """A player's one name, as the page's seatName: "P1 greedy" (the agent when known)."""
    return f"P{seat}" + (f" {seats[seat]}" if 0 <= seat < len(seats) and seats[seat] else "")


def banner(status: dict[str, Any], seats: list[str]) -> dict[str, str]:
    """The banner over the panel: the game's end, or the question asked now in its own words
    (a choice rules v2 asks names that choice, even inside a retaliation), or the retaliation
    itself; ``kind`` "over", "interrupt" or "" (no banner)."""
    if status["over"]:
        won = " and ".join(seat_words(seats, p) for p in status["winners"])
        return {"kind": "over", "text": f"Game over: {won} win{' (shared)' if len(status['winners']) > 1 else 's'}."}
    if status["truncated"]:
        return {"kind": "over", "text": "The game was cut off (the decision limit), no winner."}
    who, interrupt = seat_words(seats, status["to_act"]), status["interrupt"]
    if status["choice_words"]:  # what is asked now, whoever's turn or retaliation it is
        when = {"": "", "retaliation": " (during the retaliation)"}.get(interrupt, " (out of turn)")
        return {"kind": "interrupt", "text": f"{status['choice_words']}{when}: {status['asked']} ({status['asked_how']})"}
    if interrupt == "retaliation":
        return {"kind": "interrupt", "text": f"{status['interrupt_words']}: {who} may activate one unit with "
                                             "retaliation silver, or end the retaliation"}
    if interrupt:
        return {"kind": "interrupt", "text": f"{status['interrupt_words']}: {status['asked'] or who + ' chooses who defends'}"}
    return {"kind": "", "text": ""}


def players_view(state: Any, seats: list[str]) -> list[dict[str, Any]]:
    return [{"seat": p, "agent": seats[p] if p < len(seats) else "", "gold": state.gold[p],
             "silver": state.silver[p], "tokens": state.tokens[p], **pieces_count(state, p),
             "colour": colour(PLAYER_COLOURS[p])} for p in range(state.n_players)]


def pieces_count(state: Any, p: int) -> dict[str, int]:
    """Player ``p``'s pieces, and his losses and gains: ``lost_captured`` his units held
    prisoner by others, ``prisoners`` others' units he holds, ``sunk`` the ships he sank."""
    where, owner = state.u_where, state.u_owner
    prisoners = [u for u in range(state.n_units) if where[u] == PRISONER]
    return {"units": sum(1 for u in range(state.n_units) if owner[u] == p and where[u] == ON_BOARD),
            "aboard": sum(1 for u in range(state.n_units) if owner[u] == p and where[u] == LOADED),
            "developments": sum(1 for o in state.dev_owner if o == p), "walls": sum(1 for o in state.walls if o == p),
            "lost_captured": sum(1 for u in prisoners if owner[u] == p),
            "prisoners": sum(1 for u in prisoners if owner[u] != p and state.dev_owner[state.u_cell[u]] == p),
            "sunk": state.sunk[p]}


def state_view(state: Any, seats: list[str], interrupt: str = "", truncated: bool = False) -> dict[str, Any]:
    """Everything the page draws for one moment of a game (not its decisions or its events)."""
    pieces, walls = pieces_view(state)
    return {"pieces": pieces, "walls": walls, "marks": marks_view(state), "fronts": fronts_view(state),
            "status": status_view(state, interrupt, truncated, seats), "players": players_view(state, seats),
            "sheet": token_sheet(state) if token_sheet is not None else None}


def decision_list(state: Any, codec: Any, mask: Any, interrupt: str = "") -> list[dict[str, Any]]:
    """The legal decisions of the moment, in the terminal's words, each on its hex (or none), and
    the ``label`` a button shows: the sentence, or the command where that says more (a wall's
    side); during a retaliation "end turn" is said as what it does."""
    index = state.gmap.board.index
    out = []
    for c in legal_choices(state, codec, mask):
        cell = -1
        if c.hex is not None:
            q, r = map(int, c.hex.split(","))
            cell = index[(q, r)]
        label = c.command if "wall" in c.kind else c.text
        g = A.decode(codec.to_engine(c.action), state.gmap.board.n_cells)[2]
        if g >= A.VARIANT:  # a "choose variant k" global: said as the unit it picks
            out.append({"action": c.action, "kind": "choose variant", "command": A.GLOBAL_NAMES[g], "cell": -1,
                        "text": c.text, "label": c.text})
            continue
        if interrupt == "retaliation" and c.command == "end turn":
            label = f"end the retaliation (back to P{state.turn_player}'s turn)"
        out.append({"action": c.action, "kind": c.kind, "command": c.command, "cell": cell, "text": c.text,
                    "label": label})
    return out


def decision_cells(state: Any, code: int) -> list[int]:
    """The hexes a decision acts on (none for a global verb), to mark the last move."""
    verb, cell, g = A.decode(code, state.gmap.board.n_cells)
    return [] if g >= 0 else [int(cell)]

