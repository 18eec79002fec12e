"""The whole game state to and from JSON (schema ``vigtavl-state``, version ``vigtavl_v2``).

The version is the game's (``version.py``). Files written before it was spelled that way carry
integers: 1 was the rules-v0 engine (``vigtavl_v0``), 2 is rules v1, read as ``vigtavl_v1``
(pending choices, who built each development and wall, freighters loaded by their players).
Rules v2 added the tokens' sources, the pieces defended this turn, the questions left for the
end of a decision, and a pending choice's parent. Files of another version are refused with a
message naming both versions: a game played under other rules is not migrated.

Schema (all lists indexed by unit number, hex number or edge number)::

    {"schema": "vigtavl-state", "version": "vigtavl_v2",
     "map": {"name": str, "num_players": int, "terrain": [0 sea | 1 land | 2 mountain, ...]},
     "config": {RulesConfig fields},
     "phase": 0 placement | 1 build | 2 battle | 3 over, "round": int, "turn_player": int,
     "turns_played": int, "decisions": int, "wind": 1 clockwise | -1 counter-clockwise,
     "gold": [per player], "silver": [...], "tokens": [...], "awards": [bit flags], "sunk": [...],
     "token_src": [player * 9 + source: tokens by source, tokens.TOKEN_SOURCES order],
     "units": {"owner": [...], "type": [0..5], "cell": [hex or -1],
               "where": [0 board | 1 loaded | 2 prisoner | 3 reserve | 4 gone],
               "carrier": [freighter unit or -1], "holder": [player or -1], "flags": [bits]},
     "developments": {"type": [per hex 0..3], "owner": [per hex], "builder": [per hex]},
     "artillery": [owner per hex or -1], "walls": [owner per edge or -1],
     "wall_builders": [player who built the wall on each edge, or -1],
     "to_load": [players still to load their freighters, in order],
     "turn": {"built_units", "built_types", "wall_in_hand", "wall_relocated", "discharged",
              "recruit_type", "front": {hex: dir}, "attacks": {hex*6+dir: n},
              "breaches": {edge: n}, "seized_this_turn": [hexes], "defended": {hex: unit}},
     "interrupts": {"stack": [[unit, move, attacked, move_left, origin, [losers], rode, done]],
                    "pending": null | [kind, player, unit, cell, origin, range, extra, artillery,
                                       parent: null | a pending of the same form],
                    "asks": [[kind, player, unit, cell], ...],
                    "pending_retaliation": [...], "retaliator": int,
                    "retaliation_used": bool, "ending_turn": bool,
                    "occupy_unit": int, "occupy_cell": int},
     "dice": {"rng": "hex string", "forced": [...]},
     "events": [...]}

Occupancy and who holds each hex are not stored: they are recomputed on load, and the load
checks the rules' invariants (occupancy at most 3, one player per hex, ships at sea, knights on
land or aboard, nothing on mountains), failing with a ValueError that names the field.
"""

from __future__ import annotations

import copyreg
import json
from typing import Any

from .config import RulesConfig
from .state import (
    CHOOSE_PRISON, CHOOSE_RESCUE_SPOT, LOADED, N_PENDING_KINDS, N_TOKEN_SOURCES, ON_BOARD, PRISONER, RESERVE,
    Activation, GameState, Pending,
)
from .stats import (
    ARTILLERY_OCCUPANCY, DEV_OCCUPANCY, FREIGHTER, FREIGHTER_CAPACITY, IS_SHIP, MAX_OCCUPANCY, N_UNIT_TYPES,
)
from .version import ENV_NAME, check_file_version

SCHEMA = "vigtavl-state"
UNIT_FIELDS = ("owner", "type", "cell", "where", "carrier", "holder", "flags")


def to_dict(state: GameState) -> dict[str, Any]:
    s = state
    return {
        "schema": SCHEMA, "version": ENV_NAME,
        "map": {"name": s.gmap.name, "num_players": s.n_players, "terrain": list(s.gmap.terrain)},
        "config": s.config.to_dict(),
        "phase": s.phase, "round": s.round, "turn_player": s.turn_player,
        "turns_played": s.turns_played, "decisions": s.decisions, "wind": s.wind,
        "gold": s.gold, "silver": s.silver, "tokens": s.tokens, "awards": s.awards, "sunk": s.sunk,
        "token_src": s.token_src,
        "units": {f: list(getattr(s, "u_" + f)) for f in UNIT_FIELDS},
        "developments": {"type": list(s.dev_type), "owner": list(s.dev_owner), "builder": list(s.dev_builder)},
        "artillery": list(s.art_owner), "walls": list(s.walls), "wall_builders": list(s.wall_builder),
        "to_load": s.to_load,
        "turn": {
            "built_units": s.built_units, "built_types": s.built_types,
            "wall_in_hand": s.wall_in_hand, "wall_relocated": s.wall_relocated,
            "discharged": s.discharged, "recruit_type": s.recruit_type,
            "front": {str(k): v for k, v in s.front.items()},
            "attacks": {str(k): v for k, v in s.attacks.items()},
            "breaches": {str(k): v for k, v in s.breaches.items()},
            "seized_this_turn": sorted(s.seized_this_turn),
            "defended": {str(k): v for k, v in s.defended.items()},
        },
        "interrupts": {
            "stack": [a.to_list() for a in s.stack],
            "pending_retaliation": s.pending_retaliation, "retaliator": s.retaliator,
            "retaliation_used": s.retaliation_used, "ending_turn": s.ending_turn,
            "occupy_unit": s.occupy_unit, "occupy_cell": s.occupy_cell,
            "pending": s.pending.to_list() if s.pending is not None else None,
            "asks": s.asks,
        },
        "dice": {"rng": format(s.rng, "x"), "forced": s.forced_dice},
        "events": s.events,
    }


def to_json(state: GameState, indent: int | None = None) -> str:
    return json.dumps(to_dict(state), indent=indent)


def from_json(text: str) -> GameState:
    try:
        data = json.loads(text)
    except json.JSONDecodeError as e:
        raise ValueError(f"state JSON is not valid JSON: {e}") from None
    return from_dict(data)


class _Reader:
    """Typed access into the loaded dict; every error names the field's path."""

    def __init__(self, data: Any) -> None:
        self.data = data

    def get(self, path: str, kind: type = int) -> Any:
        cur = self.data
        for part in path.split("."):
            if not isinstance(cur, dict) or part not in cur:
                raise ValueError(f"state field '{path}' is missing")
            cur = cur[part]
        if kind is int and (not isinstance(cur, int) or isinstance(cur, bool)):
            raise ValueError(f"state field '{path}' must be an integer, got {cur!r}")
        if kind is bool and not isinstance(cur, bool):
            raise ValueError(f"state field '{path}' must be true or false, got {cur!r}")
        if kind in (list, dict) and not isinstance(cur, kind):
            raise ValueError(f"state field '{path}' must be a {kind.__name__}")
        return cur

    def ints(self, path: str, length: int | None, lo: int, hi: int) -> list[int]:
        xs = self.get(path, list)
        if length is not None and len(xs) != length:
            raise ValueError(f"state field '{path}' must have {length} entries, has {len(xs)}")
        for i, x in enumerate(xs):
            if not isinstance(x, int) or isinstance(x, bool) or not lo <= x <= hi:
                raise ValueError(f"state field '{path}[{i}]' must be an integer in {lo}..{hi}, got {x!r}")
        return list(xs)

    def int_map(self, path: str) -> dict[int, int]:
        d = self.get(path, dict)
        try:
            return {int(k): int(v) for k, v in d.items()}
        except (TypeError, ValueError):
            raise ValueError(f"state field '{path}' must map integers to integers") from None


def from_dict(data: Any) -> GameState:
    """Build a state from its dict form, or raise ValueError naming the bad field."""
    from .maps import GameMap

    r = _Reader(data)
    if not isinstance(data, dict) or data.get("schema") != SCHEMA:
        raise ValueError(f"not a Vigtavl state: field 'schema' must be {SCHEMA!r}")
    check_file_version(data.get("version"), "the state file")
    try:
        gmap = GameMap(str(r.get("map.name", str)), r.get("map.num_players"), tuple(r.ints("map.terrain", None, 0, 2)))
    except ValueError as e:
        raise ValueError(f"state field 'map': {e}") from None
    try:
        config = RulesConfig.from_dict(r.get("config", dict))
    except (TypeError, ValueError) as e:
        raise ValueError(f"state field 'config': {e}") from None
    board = gmap.board
    n, p = board.n_cells, gmap.num_players
    s = GameState(gmap, config, n, board.n_edges)
    s.phase = _ranged(r, "phase", 0, 3)
    s.round = _ranged(r, "round", 0, config.rounds_per_phase)
    s.turn_player = _ranged(r, "turn_player", 0, p - 1)
    s.turns_played = _ranged(r, "turns_played", 0, 10**9)
    s.decisions = _ranged(r, "decisions", 0, 10**12)
    s.wind = r.get("wind")
    if s.wind not in (1, -1):
        raise ValueError("state field 'wind' must be 1 or -1")
    for f in ("gold", "silver", "tokens", "awards", "sunk"):
        setattr(s, f, r.ints(f, p, 0, 10**9))
    s.token_src = r.ints("token_src", p * N_TOKEN_SOURCES, 0, 10**9)
    nu = len(r.get("units.owner", list))
    s.set_unit_count(nu)
    s.fill("u_owner", r.ints("units.owner", nu, 0, p - 1))
    s.fill("u_type", r.ints("units.type", nu, 0, N_UNIT_TYPES - 1))
    s.fill("u_cell", r.ints("units.cell", nu, -1, n - 1))
    s.fill("u_where", r.ints("units.where", nu, 0, 4))
    s.fill("u_carrier", r.ints("units.carrier", nu, -1, nu - 1))
    s.fill("u_holder", r.ints("units.holder", nu, -1, p - 1))
    s.fill("u_flags", r.ints("units.flags", nu, 0, 3))
    s.fill("dev_type", r.ints("developments.type", n, 0, 3))
    s.fill("dev_owner", r.ints("developments.owner", n, -1, p - 1))
    s.fill("dev_builder", r.ints("developments.builder", n, -1, p - 1))
    s.fill("art_owner", r.ints("artillery", n, -1, p - 1))
    s.fill("walls", r.ints("walls", board.n_edges, -1, p - 1))
    s.fill("wall_builder", r.ints("wall_builders", board.n_edges, -1, p - 1))
    s.to_load = r.ints("to_load", None, 0, p - 1)
    _load_turn(r, s, n)
    _load_interrupts(r, s, nu, p, n)
    try:
        s.rng = int(r.get("dice.rng", str), 16)
    except ValueError:
        raise ValueError("state field 'dice.rng' must be a hexadecimal string") from None
    s.forced_dice = r.ints("dice.forced", None, 1, 6)
    s.events = list(r.get("events", list))
    _rebuild_occupancy(s)
    s.touch()  # a new state, but its tables were written here by hand
    return s


def _ranged(r: _Reader, path: str, lo: int, hi: int) -> int:
    v = r.get(path)
    if not lo <= v <= hi:
        raise ValueError(f"state field '{path}' must be in {lo}..{hi}, got {v}")
    return v


def _load_turn(r: _Reader, s: GameState, n: int) -> None:
    s.built_units = _ranged(r, "turn.built_units", 0, 99)
    s.built_types = r.ints("turn.built_types", 7, 0, 99)
    s.wall_in_hand = r.get("turn.wall_in_hand", bool)
    s.wall_relocated = r.get("turn.wall_relocated", bool)
    s.discharged = r.get("turn.discharged", bool)
    s.recruit_type = _ranged(r, "turn.recruit_type", -1, 2)
    s.front = r.int_map("turn.front")
    s.attacks = r.int_map("turn.attacks")
    s.breaches = r.int_map("turn.breaches")
    s.seized_this_turn = set(r.ints("turn.seized_this_turn", None, 0, n - 1))
    s.defended = r.int_map("turn.defended")


def _load_interrupts(r: _Reader, s: GameState, nu: int, p: int, n: int) -> None:
    stack = r.get("interrupts.stack", list)
    try:
        s.stack = [Activation.from_list(x) for x in stack]
    except (TypeError, ValueError, IndexError):
        raise ValueError("state field 'interrupts.stack' entries must be "
                         "[unit, move, attacked, move_left, origin, [losers], rode, done]") from None
    if any(not 0 <= a.unit < nu for a in s.stack):
        raise ValueError("state field 'interrupts.stack' names a unit that does not exist")
    s.pending_retaliation = r.ints("interrupts.pending_retaliation", None, 0, p - 1)
    s.retaliator = _ranged(r, "interrupts.retaliator", -1, p - 1)
    s.retaliation_used = r.get("interrupts.retaliation_used", bool)
    s.ending_turn = r.get("interrupts.ending_turn", bool)
    s.occupy_unit = _ranged(r, "interrupts.occupy_unit", -1, nu - 1)
    s.occupy_cell = _ranged(r, "interrupts.occupy_cell", -1, n - 1)
    pend = r.get("interrupts.pending", object)
    s.pending = None if pend is None else _pending(pend, nu, p, depth=0)
    asks = r.get("interrupts.asks", list)
    for a in asks:
        if (not isinstance(a, list) or len(a) != 4 or not all(isinstance(x, int) and not isinstance(x, bool) for x in a)
                or a[0] not in (CHOOSE_PRISON, CHOOSE_RESCUE_SPOT) or not 0 <= a[1] < p or not 0 <= a[2] < nu
                or not 0 <= a[3] < n):
            raise ValueError("state field 'interrupts.asks' entries must be [kind, player, unit, hex] "
                             "(a prison or a rescued unit's place to choose)")
    s.asks = [list(a) for a in asks]


def _pending(x: Any, nu: int, p: int, depth: int) -> Pending:
    """A pending choice from its list form (a parent nests one level at most)."""
    if not isinstance(x, list) or len(x) != 9 or not all(
            isinstance(v, int) and not isinstance(v, bool) for v in x[:7]) or depth > 1:
        raise ValueError("state field 'interrupts.pending' must be null or "
                         "[kind, player, unit, cell, origin, range, extra, artillery, parent]")
    parent = None if x[8] is None else _pending(x[8], nu, p, depth + 1)
    pend = Pending(*x[:7], artillery=bool(x[7]), parent=parent)
    if not 0 <= pend.kind < N_PENDING_KINDS or not 0 <= pend.player < p or not -1 <= pend.unit < nu:
        raise ValueError("state field 'interrupts.pending' names a kind, player or unit out of range")
    return pend


def _rebuild_occupancy(s: GameState) -> None:
    """Recompute occupancy and hex holders from the pieces, checking the invariants."""
    gmap = s.gmap
    s.fill("occ", [DEV_OCCUPANCY[t] for t in s.dev_type])
    s.fill("cell_player", [-1] * len(s.occ))
    for c in range(len(s.occ)):
        if (s.dev_type[c] > 0) != (s.dev_owner[c] >= 0):
            raise ValueError(f"state field 'developments' hex {c}: type and owner disagree")
        if (s.dev_type[c] or s.art_owner[c] >= 0) and not gmap.is_land[c]:
            raise ValueError(f"state field 'developments' hex {c}: developments and artillery stand on land only")
        owners = {o for o in (s.dev_owner[c], s.art_owner[c]) if o >= 0}
        if len(owners) > 1:
            raise ValueError(f"state hex {c}: held by two players {sorted(owners)}")
        if s.art_owner[c] >= 0:
            s.occ[c] += ARTILLERY_OCCUPANCY
        s.cell_player[c] = owners.pop() if owners else -1
    aboard: dict[int, int] = {}  # freighter -> knights aboard
    for u, w in enumerate(s.u_where):
        c = s.u_cell[u]
        if w == ON_BOARD:
            _check_standing(s, u, c)
            s.occ[c] += 1
            if s.cell_player[c] not in (-1, s.u_owner[u]):
                raise ValueError(f"state field 'units.cell[{u}]': hex {c} is held by player {s.cell_player[c]}")
            s.cell_player[c] = s.u_owner[u]
        elif w == LOADED:
            _check_aboard(s, u, aboard)
        elif w == PRISONER and s.u_holder[u] == -1 and c >= 0 and _awaits_place(s, u):
            pass  # rescued, its place still to choose
        elif w == PRISONER and (c < 0 or s.dev_owner[c] != s.u_holder[u] or s.u_holder[u] in (-1, s.u_owner[u])):
            raise ValueError(f"state field 'units.holder[{u}]': a prisoner is held by another player "
                             "on that player's developed hex")
    for c, o in enumerate(s.occ):
        if o > MAX_OCCUPANCY:
            raise ValueError(f"state hex {c}: occupancy {o} is above {MAX_OCCUPANCY}")


def _awaits_place(s: GameState, u: int) -> bool:
    """A freed unit whose place its rescuer is still to choose (asked now, or to be asked)."""
    pend = s.pending
    if pend is not None and pend.kind == CHOOSE_RESCUE_SPOT and pend.unit == u:
        return True
    return any(a[0] == CHOOSE_RESCUE_SPOT and a[2] == u for a in s.asks)


def _check_aboard(s: GameState, u: int, aboard: dict[int, int]) -> None:
    """A loaded knight rides its own freighter, which is afloat or in reserve and not full."""
    f = s.u_carrier[u]
    if f < 0 or s.u_type[f] != FREIGHTER or s.u_owner[f] != s.u_owner[u] or IS_SHIP[s.u_type[u]]:
        raise ValueError(f"state field 'units.carrier[{u}]': a loaded knight needs its own freighter")
    if s.u_where[f] not in (ON_BOARD, RESERVE):
        raise ValueError(f"state field 'units.carrier[{u}]': freighter {f} is not afloat or in reserve")
    aboard[f] = aboard.get(f, 0) + 1
    if aboard[f] > FREIGHTER_CAPACITY:
        raise ValueError(f"state field 'units.carrier[{u}]': freighter {f} carries more than {FREIGHTER_CAPACITY}")
    s.u_cell[u] = s.u_cell[f]


def _check_standing(s: GameState, u: int, c: int) -> None:
    gmap = s.gmap
    if c < 0:
        raise ValueError(f"state field 'units.cell[{u}]': a unit on the board needs a hex")
    if IS_SHIP[s.u_type[u]] and not gmap.is_sea[c]:
        raise ValueError(f"state field 'units.cell[{u}]': a ship must be on a sea hex")
    if not IS_SHIP[s.u_type[u]] and not gmap.is_land[c]:
        raise ValueError(f"state field 'units.cell[{u}]': a knight on the board must be on land")


# ------------------------------------------------------------------ pickling
def _reduce_state(state: GameState) -> tuple:
    return (state_from_pickle, (to_dict(state), state.record_events))


def state_from_pickle(data: dict, record_events: bool) -> GameState:
    state = from_dict(data)
    state.record_events = record_events
    return state


# A state pickles (process pools, vector envs in subprocesses) through the saved-state format:
# its tables are views, which pickle cannot take apart. Registered here, with the format.
copyreg.pickle(GameState, _reduce_state)
