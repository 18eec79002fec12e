"""ThronesState: one position of Thrones as flat lists, its coin, its logs, and the dispatch of
decisions to the setup (``setup.py``) and the turn (``turn.py``).

Pieces are ids ``0 .. 2*per-1`` (seat ``id // per``), in the order of ``piece_amounts``;
``ppos[id]`` is a cell, -1 off the board (not placed yet, or a Dragon in reserve) or -2
removed. ``tile[c]`` is -1 where unknown. The coin is xorshift64* on an integer (JSON-able);
``forced`` holds results to use before it (tests force checks with it).
"""

from __future__ import annotations

from typing import Any

import numpy as np

from games.interface import GameState, IllegalAction

from . import codec, setup, turn, views
from .board import board_for
from .config import DRAGON, FORTRESS, ODDS_LIMIT, PIECE_NAMES, THRONE, UNKNOWN, ThronesConfig
from .rules import check_win
from .serialize import state_to_dict

MASK64 = (1 << 64) - 1
REMOVED = -2


def xorshift(x: int) -> tuple[int, int]:
    """One step of xorshift64* (Marsaglia; Vigna's multiplier): (next state, output)."""
    x ^= x >> 12
    x ^= (x << 25) & MASK64
    x ^= x >> 27
    return x, ((x * 0x2545F4914F6CDD1D) & MASK64) >> 11


class ThronesState(GameState):
    """A Thrones game in progress (seats 0 and 1)."""

    def __init__(self, cfg: ThronesConfig, seed: int) -> None:
        self.cfg = cfg
        self.board = board_for(cfg.home_width, cfg.home_height)
        n = self.board.n
        self.per = sum(cfg.piece_amounts)
        self.ptype = [t for t, a in enumerate(cfg.piece_amounts) for _ in range(a)] * 2
        self.capturer_types = frozenset(PIECE_NAMES.index(c) for c in cfg.capturers)
        self.steps = len(self.board.home[0]) + sum(cfg.middle_amounts) + self.per
        self.tile = [UNKNOWN] * n
        self.breached = [False] * n
        self.occ = [-1] * n
        self.ppos = [-1] * (2 * self.per)
        self.last_fort = [-1] * (2 * self.per)
        self.mid = [[UNKNOWN] * self.board.w, [UNKNOWN] * self.board.w]
        self.step = [0, 0]  # setup decisions made by each seat
        self.hidden = [False, False]  # a seat's setup wiped (a view for the other seat)
        self.phase = "setup"
        self.revealed = False
        self.rng = (seed * 0x9E3779B97F4A7C15 + 1) & MASK64 or 1
        self.forced: list[bool] = []
        self.events: list[dict[str, Any]] = []
        self.history: list[int] = []  # codes in order; -1 for a wiped one
        self.fav, self.fav_total = [0, 0], [cfg.favor_max, cfg.favor_max]
        self.turn, self.turn_no, self.winner, self.truncated = 0, 0, -1, False
        self.guard, self.turn_guard = -1, -1
        self.first_turn = True
        self.reset_turn()
        self.first = self.roll(2)
        self.log_event({"kind": "first_player", "seat": self.first, "chance": True})

    # --- small helpers the rules use ----------------------------------------------------------
    def reset_turn(self) -> None:
        self.actor, self.moved, self.switched, self.long_moved = -1, False, False, False
        self.favor_used, self.disabled = False, []
        self.pending, self.resume, self.deceive_from = -1, None, -1
        self._legal: list[int] | None = None

    def owner(self, pid: int) -> int:
        return pid // self.per

    def pieces_of(self, seat: int) -> range:
        return range(seat * self.per, (seat + 1) * self.per)

    def dragons_in_reserve(self, seat: int) -> int:
        """``seat``'s Dragons off the board and not removed (ids follow ``piece_amounts``)."""
        first = seat * self.per + sum(self.cfg.piece_amounts[:DRAGON])
        return self.ppos[first:first + self.cfg.piece_amounts[DRAGON]].count(-1)

    def roll(self, k: int) -> int:
        self.rng, out = xorshift(self.rng)
        return out % k

    def log_event(self, ev: dict[str, Any]) -> None:
        self.events.append(ev)

    def flip(self, pid: int, kind: str) -> bool:
        """A survival check's coin: "Survive the check with an even number" (check_odds in 100)."""
        passed = self.forced.pop(0) if self.forced else self.roll(ODDS_LIMIT) < self.cfg.check_odds
        self.log_event({"kind": "check", "seat": self.owner(pid), "piece": PIECE_NAMES[self.ptype[pid]],
                        "action": kind, "passed": passed, "chance": True})
        return passed

    def force_checks(self, results: list[bool]) -> None:
        """The next survival checks' results, before the coin (tests)."""
        self.forced.extend(bool(r) for r in results)

    def relocate(self, pid: int, cell: int) -> None:
        src = self.ppos[pid]
        if src >= 0 and self.occ[src] == pid:
            self.occ[src] = -1
        self.occ[cell], self.ppos[pid] = pid, cell
        if self.ptype[pid] == THRONE and self.tile[cell] == FORTRESS:
            self.gain_favor(pid, cell)

    def swap(self, a: int, b: int) -> None:
        ca, cb = self.ppos[a], self.ppos[b]
        self.occ[ca] = self.occ[cb] = -1
        self.relocate(a, cb)
        self.relocate(b, ca)

    def remove(self, pid: int) -> None:
        cell = self.ppos[pid]
        if cell >= 0 and self.occ[cell] == pid:
            self.occ[cell] = -1
        self.ppos[pid] = REMOVED
        self.log_event({"kind": "removed", "seat": self.owner(pid), "piece": PIECE_NAMES[self.ptype[pid]], "cell": cell})

    def gain_favor(self, pid: int, cell: int) -> None:
        """Page: "when the Throne occupies a Fortress different from the one it did previously,
        it's controller gains a ... Fate's Favor" (up to the total: favor_max, favor_limit)."""
        if self.last_fort[pid] == cell:
            return
        self.last_fort[pid] = cell
        s = self.owner(pid)
        if self.fav[s] < self.fav_total[s]:
            self.fav[s] += 1
            self.log_event({"kind": "favor_gained", "seat": s})

    def spend_favor(self, name: str) -> None:
        s = self.turn
        self.fav[s] -= 1
        if self.cfg.favor_limit:
            self.fav_total[s] -= 1
        self.favor_used = True
        self.log_event({"kind": "favor", "seat": s, "favor": name})

    def end_turn(self) -> None:
        """The turn's end: breached Fortresses left empty restored (fortress_restore
        "turn_end": "The Fortress does not restore itself until it is unoccupied at a turn's
        end"), the Warhorse's guard for the next turn, the move limit."""
        if self.cfg.fortress_restore == "turn_end" and True in self.breached:  # (a scan in C first)
            for c, b in enumerate(self.breached):
                if b and self.occ[c] < 0:
                    self.breached[c] = False
        self.guard, self.turn_guard = self.turn_guard, -1
        self.first_turn = False
        self.turn = 1 - self.turn
        self.turn_no += 1
        self.reset_turn()
        if self.turn_no >= self.cfg.max_moves and self.winner < 0:
            self.truncated = True
            self.log_event({"kind": "truncated", "turns": self.turn_no})

    # --- the interface -------------------------------------------------------------------------
    @property
    def num_players(self) -> int:
        return 2

    def current_player(self) -> int:
        if self.winner >= 0 or self.truncated:  # is_over(), inlined: asked several times a step
            return -1
        return self.setup_seat() if self.phase == "setup" else self.turn

    def setup_seat(self) -> int:
        return 0 if self.step[0] < self.steps and not self.hidden[0] else 1

    def interrupt(self) -> str | None:
        return "check" if self.pending >= 0 else None

    def legal_actions(self) -> list[int]:
        if self._legal is None:
            self._legal = self._compute_legal()
        return list(self._legal)

    def _compute_legal(self) -> list[int]:
        if self.is_over():
            return []
        seat, n = self.current_player(), self.board.n
        if self.phase == "setup":
            return sorted(self._setup_codes(seat))
        (last, sign), glob = ((n - 1, -1) if seat else (0, 1)), codec.global_code(0, n)
        # a global verb g comes as -1 - g; a cell in the seat's frame is board.rel, inlined
        return sorted({glob - 1 - verb if verb < 0 else verb * n + last + sign * cell
                       for verb, cell in turn.play_options(self)})

    def _setup_codes(self, seat: int) -> list[int]:
        n, rel = self.board.n, self.board.rel
        kind, arg = setup.step_kind(self, self.step[seat])
        if kind == "tile":
            cell = self.board.home[seat][arg]
            return [t * n + rel(seat, cell) for t in setup.tile_choices(self, seat, cell)]
        if kind == "middle":
            return [arg * n + rel(seat, c) for c in setup.middle_choices(self, seat)]
        codes = [(5 + arg) * n + rel(seat, c) for c in setup.piece_choices(self, seat)]
        if arg == DRAGON:
            codes.append(codec.global_code(codec.RESERVE, n))
        return codes

    def apply_action(self, action: int) -> None:
        if self.is_over():
            raise IllegalAction("the game is over")
        if self._legal is None:
            self._legal = self._compute_legal()
        if action not in self._legal:
            raise IllegalAction(f"action {str(action)[:20]} is not legal now")
        self.history.append(action)
        self.apply_code(action)
        if len(self.history) >= self.cfg.max_decisions and not self.is_over():
            self.truncated = True  # the decision limit: a turn of endless switches ends here
            self._legal = None
            self.log_event({"kind": "truncated", "decisions": len(self.history)})

    def apply_code(self, action: int) -> None:
        """Carry out a code known to be legal (also the resumption of an asked check)."""
        seat = self.current_player()
        a = codec.decode(action, self.board.n)
        cell = self.board.rel(seat, a.cell) if a.cell >= 0 else -1
        self._legal = None
        if self.phase == "setup":
            self._apply_setup(seat, a, cell)
        else:
            turn.apply_play(self, a.verb if a.verb >= 0 else -1 - a.glob, cell, action)
        self._legal = None

    def _apply_setup(self, seat: int, a: codec.Action, cell: int) -> None:
        self._lay(seat, a, cell)
        if seat == 1 and self.step[1] == self.steps:
            views.fill_hidden(self)
            setup.reveal(self)
            check_win(self)

    def _apply_setup_silent(self, seat: int, code: int) -> None:
        """A setup decision laid without the reveal (a view's determinization)."""
        a = codec.decode(code, self.board.n)
        self._lay(seat, a, self.board.rel(seat, a.cell) if a.cell >= 0 else -1)

    def _lay(self, seat: int, a: codec.Action, cell: int) -> None:
        kind, arg = setup.step_kind(self, self.step[seat])
        if kind == "tile":
            self.tile[cell] = a.verb
        elif kind == "middle":
            self.mid[seat][self.board.middle.index(cell)] = arg
        elif a.verb >= 0:
            pid = next(q for q in self.pieces_of(seat) if self.ptype[q] == arg and self.ppos[q] == -1)
            self.occ[cell], self.ppos[pid] = pid, cell
        self.step[seat] += 1

    def action_to_string(self, action: int) -> str:
        a = codec.decode(action, self.board.n)
        seat = max(self.current_player(), 0)
        cell = self.board.rel(seat, a.cell) if a.cell >= 0 else -1
        return codec.describe(a, self.board.name(cell) if cell >= 0 else "")

    def reseed(self, seed: int) -> None:
        self.rng = (int(seed) & MASK64) or 1  # xorshift's state is never 0
        self.forced = []

    def chance_events(self, since: int = 0) -> list[dict[str, Any]]:
        return [e for e in self.events if e.get("chance")][since:]

    def is_terminal(self) -> bool:
        return self.winner >= 0

    def is_truncated(self) -> bool:
        return self.truncated and self.winner < 0

    def is_over(self) -> bool:
        return self.winner >= 0 or self.truncated  # is_terminal() or is_truncated(), in one test

    def returns(self) -> list[float]:
        if self.winner < 0:
            return [0.0, 0.0]
        return [1.0 if s == self.winner else -1.0 for s in (0, 1)]

    def scores(self) -> dict[str, list[float]]:
        on_board = [float(sum(1 for q in self.pieces_of(s) if self.ppos[q] >= 0)) for s in (0, 1)]
        if not self.revealed:
            on_board = [0.0, 0.0]
        return {"pieces": on_board, "favors": [float(x) for x in self.fav]}

    def clone(self) -> "ThronesState":
        new = object.__new__(ThronesState)
        new.__dict__.update(self.__dict__)
        for k in ("tile", "breached", "occ", "ppos", "last_fort", "step", "hidden", "forced",
                  "events", "history", "fav", "fav_total", "disabled"):
            setattr(new, k, list(getattr(self, k)))
        new.mid = [list(m) for m in self.mid]
        new._legal = None
        return new

    def hidden_information(self) -> bool:
        """Each setup is secret until the reveal."""
        return not self.revealed

    def view_for(self, seat: int) -> "ThronesState":
        return views.view_for(self, seat)

    def to_dict(self) -> dict[str, Any]:
        return state_to_dict(self)

    def observation(self, seat: int) -> np.ndarray:
        return views.observation(self, seat)

    def seat_info(self, seat: int) -> dict[str, Any]:
        """``info["revealed"]``: whether both setups have been revealed (public to both)."""
        return {"revealed": self.revealed}

    def public_view(self, seat: int | None) -> dict[str, Any]:
        return views.public_view(self, seat)

    def render(self, mode: str = "ansi", seat: int | None = None) -> Any:
        return views.render(self, mode, seat)
