"""Engine events as one readable English line each, in the words of the rules document.

``narrate(event, state_or_map)`` turns one entry of ``state.events`` into a sentence such as::

    P0 loads his freighters: soldier, soldier, soldier | archer, archer, cavalry
    P1 activates a cavalry at (2,-1)
    P1's cavalry attacks (1,0), entering from (0,0) (2 movement points)
    P0 is asked who defends (1,0) against P1's cavalry from (0,0)
    P0 chooses his soldier at (1,-1) to defend
    P1's cavalry attacks (1,0) with 4 dice (flank +1) against P0's soldier from (1,-1): rolls 6 5 2 1 vs 3 - wins
    P1's soldier is captured at (1,0) and held prisoner by P0 at (-4,0)
    P1 retaliates against P0 with 1 silver
    P0's cavalry breaches P1's wall between (1,0) and (2,0) with 3 dice: 4 2 6 - breached
    Citadel: P0 takes 2 tokens

"flank +N" and "attrition +N" are the dice flanking and attrition added to the unit's own
(:func:`dice_bonus`, the one way the project says them); an event from an engine that recorded
the total only says "flank or attrition +N".

Hexes are axial coordinates ``(q,r)``. Given a state, units are named by type and owner (unit
numbers never change, so a later state names an earlier event's units correctly); given only a
map, units are named by number. Unknown event kinds fall back to a generic line, so a new event
in the engine never breaks a log reader.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from .config import RulesConfig
from .hexgrid import DIRECTION_NAMES
from .stats import ARTILLERY_COST, DEV_NAMES, IS_SHIP, RANGED_HIT_MAX, UNIT_COST, UNIT_NAMES

AWARD_TITLES = {
    "citadel": "Citadel", "complex": "Complex", "great_wall": "Great Wall",
    "general": "General (most prisoners)", "admiral": "Admiral (most sunken ships)",
    "builder": "Builder (most developments)",
}
DASH = "-"


class _Ctx:
    """What a narration can look up: the map always, the units when a state is given."""

    def __init__(self, state_or_map: Any) -> None:
        self.state = state_or_map if hasattr(state_or_map, "gmap") else None
        self.gmap = self.state.gmap if self.state is not None else state_or_map
        self.board = self.gmap.board
        self.config = self.state.config if self.state is not None else RulesConfig()

    def hex(self, cell: Any) -> str:
        if not isinstance(cell, int) or not 0 <= cell < self.board.n_cells:
            return "(off the board)"
        q, r = self.board.coords[cell]
        return f"({q},{r})"

    def unit_type(self, u: Any) -> int:
        s = self.state
        if s is None or not isinstance(u, int) or not 0 <= u < len(s.u_type):
            return -1
        return s.u_type[u]

    def unit(self, u: Any, with_owner: bool = True) -> str:
        """"P1's cavalry" (or "unit 7" without a state)."""
        t = self.unit_type(u)
        if t < 0:
            return f"unit {u}"
        name = UNIT_NAMES[t]
        return f"P{self.state.u_owner[u]}'s {name}" if with_owner else name

    def edge(self, e: Any) -> str:
        if not isinstance(e, int) or not 0 <= e < self.board.n_edges:
            return f"edge {e}"
        a, b = self.board.edge_cells[e]
        if b < 0:
            return f"the border edge of {self.hex(a)}"
        return f"between {self.hex(a)} and {self.hex(b)}"


def _who(p: Any) -> str:
    return f"P{p}" if isinstance(p, int) and p >= 0 else "the game"


def _article(word: str) -> str:
    return ("an " if word[:1] in "aeiou" else "a ") + word


def _dice(xs: list[int]) -> str:
    return " ".join(str(x) for x in xs)


def n_dice(n: int) -> str:
    """"1 die", "3 dice"."""
    return "1 die" if n == 1 else f"{n} dice"


def _plural(n: int, word: str) -> str:
    return f"{n} {word}" if n == 1 else f"{n} {word}s"


# ------------------------------------------------------------------ setup and turn flow
def _setup(e: dict, cx: _Ctx) -> str:
    return f"Setup: the prevailing winds blow {e.get('wind')} (seed {e.get('seed')})"


def _load(e: dict, cx: _Ctx) -> str:
    loads = " | ".join(", ".join(str(t) for t in load) for load in e.get("loads", []))
    return f"{_who(e['player'])} loads his freighters: {loads}"


def _turn(e: dict, cx: _Ctx) -> str:
    rounds = cx.config.rounds_per_phase
    return f"P{e['player']}'s turn: {e.get('phase')} phase, round {int(e.get('round', 0)) + 1}/{rounds}"


def _game_over(e: dict, cx: _Ctx) -> str:
    tokens = ", ".join(f"P{p} {t}" for p, t in enumerate(e.get("tokens", [])))
    w = e.get("winners", [])
    if len(w) == 1:
        result = f"P{w[0]} wins"
    else:
        result = " and ".join(f"P{p}" for p in w) + " share the win"
    return f"Game over. Victory tokens: {tokens}. {result}"


def _retaliation(e: dict, cx: _Ctx) -> str:
    silver = cx.config.retaliation_silver
    return f"{_who(e['player'])} retaliates against P{e.get('against')} with {silver} silver"


def _retaliation_over(e: dict, cx: _Ctx) -> str:
    return f"{_who(e['player'])}'s retaliation is over"


def _end_activation(e: dict, cx: _Ctx) -> str:
    return f"{cx.unit(e.get('unit'))} has finished its actions and is laid on its side"


# ------------------------------------------------------------------ placement and building
def _place(e: dict, cx: _Ctx) -> str:
    return f"{_who(e['player'])} places {_article(str(e.get('type')))} at {cx.hex(e.get('cell'))}"


def _build(e: dict, cx: _Ctx) -> str:
    what, cell = str(e.get("what")), e.get("cell")
    who = _who(e["player"])
    if what == "wall":
        d = e.get("direction")
        side = DIRECTION_NAMES[d] if isinstance(d, int) and 0 <= d < 6 else "?"
        return f"{who} builds a wall on the {side} edge of {cx.hex(cell)}"
    aboard = ""
    if what in UNIT_NAMES and not IS_SHIP[UNIT_NAMES.index(what)] and _is_sea(cx, cell):
        aboard = " aboard a freighter"
    return f"{who} builds {_article(what)}{aboard} at {cx.hex(cell)}"


def _is_sea(cx: _Ctx, cell: Any) -> bool:
    return isinstance(cell, int) and 0 <= cell < cx.board.n_cells and cx.gmap.is_sea[cell]


def _wall_taken_down(e: dict, cx: _Ctx) -> str:
    d = e.get("direction")
    side = DIRECTION_NAMES[d] if isinstance(d, int) and 0 <= d < 6 else "?"
    return (f"{_who(e['player'])} takes down his wall on the {side} edge of {cx.hex(e.get('cell'))}"
            " to rebuild it for free")


# ------------------------------------------------------------------ units
def _activate(e: dict, cx: _Ctx) -> str:
    return f"{_who(e['player'])} activates {_article(str(e.get('type')))} at {cx.hex(e.get('cell'))}"


def _move(e: dict, cx: _Ctx) -> str:
    cost = e.get("cost", 0)
    tow = " towing its artillery" if e.get("artillery") else ""
    aboard = ""
    if cx.unit_type(e.get("unit")) in (0, 1, 2) and _is_sea(cx, e.get("to")):
        aboard = ", boarding a freighter"
    return (f"{cx.unit(e.get('unit'))} moves {cx.hex(e.get('frm'))} -> {cx.hex(e.get('to'))}"
            f"{tow} ({_plural(cost, 'movement point')}){aboard}")


def _retreat(e: dict, cx: _Ctx) -> str:
    return f"{cx.unit(e.get('unit'))} cannot advance and stays at {cx.hex(e.get('to'))}"


def _occupy(e: dict, cx: _Ctx) -> str:
    return f"{cx.unit(e.get('unit'))} occupies {cx.hex(e.get('to'))}"


def _discharge(e: dict, cx: _Ctx) -> str:
    return f"{_who(e['player'])} discharges {_article(str(e.get('type')))} at {cx.hex(e.get('cell'))}"


def _recruit(e: dict, cx: _Ctx) -> str:
    aboard = " aboard a freighter" if _is_sea(cx, e.get("cell")) else ""
    return f"{_who(e['player'])} recruits a new {e.get('type')}{aboard} at {cx.hex(e.get('cell'))}"


# ------------------------------------------------------------------ battles
def _battle_move(e: dict, cx: _Ctx) -> str:
    cost = int(e.get("cost", 0))
    return (f"{cx.unit(e.get('unit'))} attacks {cx.hex(e.get('cell'))}, entering from "
            f"{cx.hex(e.get('side'))} ({_plural(cost, 'movement point')})")


def _defend_asked(e: dict, cx: _Ctx) -> str:
    who, cell = _who(e["player"]), e.get("cell")
    if e.get("seize"):
        return (f"{who} is asked who defends his {_piece(cx, cell)} at {cx.hex(cell)} against "
                f"seizure by {cx.unit(e.get('unit'))}, or none")
    return f"{who} is asked who defends {cx.hex(cell)} against {cx.unit(e.get('unit'))} from {cx.hex(e.get('origin'))}"


def _piece(cx: _Ctx, cell: Any) -> str:
    """The development (or artillery) standing on a hex now; "piece" without a state."""
    s = cx.state
    if s is None or not isinstance(cell, int) or not 0 <= cell < len(s.dev_type):
        return "piece"
    if s.dev_type[cell]:
        return DEV_NAMES[s.dev_type[cell]]
    return "artillery" if s.art_owner[cell] >= 0 else "piece"


def _defend(e: dict, cx: _Ctx) -> str:
    unit = cx.unit(e.get("unit"), with_owner=False)
    if e.get("seize"):
        return (f"{_who(e['player'])} defends his {_piece(cx, e.get('target'))} at {cx.hex(e.get('target'))} "
                f"with his {unit} at {cx.hex(e.get('cell'))}: it must be defeated before the seizure")
    return f"{_who(e['player'])} chooses his {unit} at {cx.hex(e.get('cell'))} to defend"


def _no_defence(e: dict, cx: _Ctx) -> str:
    return f"{_who(e['player'])} does not defend {cx.hex(e.get('cell'))}"


def _battle(e: dict, cx: _Ctx) -> str:
    who, target = _who(e["player"]), cx.hex(e.get("cell"))
    dice = int(e.get("dice", 0))
    if e.get("artillery"):
        actor, verb, base = f"{who}'s artillery", "fires at", ARTILLERY_COST
    else:
        t = cx.unit_type(e.get("unit"))
        actor = cx.unit(e.get("unit")) if t >= 0 else who
        verb = "shoots at" if e.get("ranged") else "fights for" if e.get("seize") else "attacks"
        base = UNIT_COST[t] if t >= 0 else dice
    extra = dice_bonus(e.get("flank"), e.get("attrition"), dice - base)
    reach = e.get("ranged") or 0
    at_range = f" at range {reach}" if reach else ""
    head = f"{actor} {verb} {target}{at_range} with {n_dice(dice)}{extra}"
    defender = cx.unit(e.get("defender"))
    at = e.get("at")
    if isinstance(at, int) and at != e.get("cell"):
        defender += f" from {cx.hex(at)}"  # a unit next to both defends (Defend)
    if e.get("overwhelm"):
        return f"{head}: overwhelming odds, {defender} surrenders"
    outcome = "wins" if e.get("won") else "loses"
    if reach:
        need = RANGED_HIT_MAX.get(reach, 0)
        hit = "hits" if e.get("won") else "misses"
        return f"{head}: rolls {_dice(e.get('rolls', []))} ({_hit_range(need)} hits) - {hit} {defender}"
    rounds = e.get("rolls", [])
    parts = []
    for i, (a, d) in enumerate(rounds):
        tie = " (tie, re-roll)" if i < len(rounds) - 1 else ""
        parts.append(f"{_dice(a)} vs {_dice(d)}{tie}")
    return f"{head} against {defender}: rolls {', '.join(parts)} - {outcome}"


def dice_bonus(flank: Any, attrition: Any, total: int) -> str:
    """The dice an attack gets beyond its unit's own: " (flank +1, attrition +2)", " (flank +1)";
    " (flank or attrition +2)" when the event does not tell them apart; "" when none."""
    if not (isinstance(flank, int) and isinstance(attrition, int)):
        return f" (flank or attrition +{total})" if total > 0 else ""
    parts = [f"flank +{flank}" if flank else "", f"attrition +{attrition}" if attrition else ""]
    return f" ({', '.join(p for p in parts if p)})" if flank or attrition else ""


def _hit_range(need: int) -> str:
    return "1" if need == 1 else f"1-{need}"


def _captured(e: dict, cx: _Ctx) -> str:
    return (f"{cx.unit(e.get('unit'))} is captured at {cx.hex(e.get('cell'))} and held prisoner by "
            f"P{e.get('by')} at {cx.hex(e.get('prison'))}")


def _sunk(e: dict, cx: _Ctx) -> str:
    return f"P{e.get('by')} sinks {cx.unit(e.get('unit'))} at {cx.hex(e.get('cell'))}"


def _surrender(e: dict, cx: _Ctx) -> str:
    units = e.get("units", [])
    names = ", ".join(cx.unit(u, with_owner=False) for u in units) or "nothing"
    return (f"P{e.get('owner')}'s units at {cx.hex(e.get('cell'))} are surrounded and surrender to "
            f"{_who(e['player'])}: {names}")


# ------------------------------------------------------------------ free actions and tokens
def _seized(e: dict, cx: _Ctx) -> str:
    dev = e.get("dev")
    name = DEV_NAMES[dev] if isinstance(dev, int) and 0 < dev < len(DEV_NAMES) else "development"
    tokens = int(e.get("tokens", 0))
    last = " (P{}'s last development)".format(e.get("owner")) if e.get("last") else ""
    return (f"{_who(e['player'])} seizes P{e.get('owner')}'s {name} at {cx.hex(e.get('cell'))}{last}: "
            f"{_plural(tokens, 'token')}")


def _seized_artillery(e: dict, cx: _Ctx) -> str:
    return f"{_who(e['player'])} seizes P{e.get('owner')}'s artillery at {cx.hex(e.get('cell'))}"


def _rescued(e: dict, cx: _Ctx) -> str:
    u, spot, tokens = e.get("unit"), e.get("cell"), int(e.get("tokens", 0))
    kind = cx.unit(u, with_owner=False)
    where = f"it stands at {cx.hex(spot)}" if isinstance(spot, int) and spot >= 0 else "with no room to stand, it leaves the board"
    return f"{_who(e['player'])} rescues his {kind} ({_plural(tokens, 'token')}); {where}"


def _rescued_stands(e: dict, cx: _Ctx) -> str:
    return f"{_who(e['player'])}'s rescued {cx.unit(e.get('unit'), with_owner=False)} stands at {cx.hex(e.get('cell'))}"


def _prison(e: dict, cx: _Ctx) -> str:
    return f"{_who(e['player'])} holds {cx.unit(e.get('unit'))} prisoner at {cx.hex(e.get('cell'))}"


def _breach(e: dict, cx: _Ctx) -> str:
    rolls = e.get("dice", [])
    result = "breached" if e.get("success") else "the wall holds"
    return (f"{cx.unit(e.get('unit'))} breaches P{e.get('owner')}'s wall {cx.edge(e.get('edge'))} "
            f"with {n_dice(len(rolls))}: {_dice(rolls)} - {result}")


def _award(e: dict, cx: _Ctx) -> str:
    name = str(e.get("award"))
    title = AWARD_TITLES.get(name, name.replace("_", " ").title())
    return f"{title}: {_who(e['player'])} takes {_plural(int(e.get('tokens', 0)), 'token')}"


def _generic(e: dict, cx: _Ctx) -> str:
    fields = ", ".join(f"{k}={v}" for k, v in e.items() if k not in ("event", "player"))
    return f"{_who(e.get('player'))}: {e.get('event', 'event')}" + (f" ({fields})" if fields else "")


NARRATORS: dict[str, Callable[[dict, _Ctx], str]] = {
    "setup": _setup, "load": _load, "turn": _turn, "game_over": _game_over, "retaliation": _retaliation,
    "retaliation_over": _retaliation_over, "end_activation": _end_activation, "place": _place,
    "build": _build, "wall_taken_down": _wall_taken_down, "activate": _activate, "move": _move,
    "retreat": _retreat, "occupy": _occupy, "discharge": _discharge, "recruit": _recruit,
    "battle_move": _battle_move, "defend_asked": _defend_asked, "defend": _defend,
    "no_defence": _no_defence, "rescued_stands": _rescued_stands, "prison": _prison,
    "battle": _battle, "captured": _captured, "sunk": _sunk, "surrender": _surrender,
    "seized": _seized, "seized_artillery": _seized_artillery, "rescued": _rescued,
    "breach": _breach, "award": _award,
}


def narrate(event: dict, state_or_map: Any) -> str:
    """One English line for an engine event; ``state_or_map`` is a GameState or a GameMap."""
    cx = _Ctx(state_or_map)
    fn = NARRATORS.get(event.get("event", ""), _generic)
    try:
        return fn(event, cx)
    except (KeyError, TypeError, ValueError, IndexError):
        return _generic(event, cx)
