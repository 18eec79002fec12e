"""Pig with a secret card and a veto: a small game written to prove the game interface.

It has what a game may have that the layers above must handle, in a few lines each: dice,
2-4 players, one decision out of turn, and one piece of hidden information.

Rules:
- Each player is dealt a secret card worth 0-3 points at the start (only he sees it).
- On his turn a player ROLLs a die, as often as he likes: a 1 loses the turn's pot and ends
  the turn; any other face is added to the pot. Or he BANKs the pot (once it holds something):
  it is added to his score, and his turn ends.
- Each player holds one veto. When a player banks, the player before him in turn order, if he
  still holds his veto, is asked out of turn: VETO (the pot is lost, the veto spent) or ALLOW.
- The first to bank a score of ``target`` (30) or more ends the game. Score plus card decides:
  the highest total wins (+1), the others lose (-1); a tie among everyone is 0 for all, a tie
  among some shares the win. The game is cut (truncated) after ``max_steps`` decisions.

Actions: 0 ROLL, 1 BANK, 2 VETO, 3 ALLOW. The observation is a (6, 1, 4) tensor, one column per
seat counted from the observer (column 0 is himself): score, pot, turn, veto held, own card
(zero in other columns: unknown), and 1 in the columns of seats in play.
"""

from __future__ import annotations

import hashlib
from typing import Any

import numpy as np

from .interface import Game, GameState, IllegalAction

ROLL, BANK, VETO, ALLOW = range(4)
ACTION_NAMES = ("roll", "bank", "veto", "allow")
MAX_CARD = 3
TARGET = 30
MAX_STEPS = 500
MASK64 = (1 << 64) - 1
N_PLANES, MAX_SEATS = 6, 4


def _mix(x: int) -> tuple[int, int]:
    """One step of splitmix64: (new state, output)."""
    x = (x + 0x9E3779B97F4A7C15) & MASK64
    z = ((x ^ (x >> 30)) * 0xBF58476D1CE4E5B9) & MASK64
    z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & MASK64
    return x, z ^ (z >> 31)


class PigState(GameState):
    """The whole game: scores, pot, cards, vetoes, the dice generator and its log."""

    def __init__(self, n: int, target: int, max_steps: int, rng: int) -> None:
        self.n, self.target, self.max_steps, self.rng = n, target, max_steps, rng
        self.scores_ = [0] * n
        self.cards = [self.draw(MAX_CARD + 1) - 1 for _ in range(n)]
        self.vetoes = [True] * n
        self.turn, self.pot, self.steps = 0, 0, 0
        self.asked = -1  # the seat asked to veto, or -1
        self.over = False
        self.hidden = [False] * n  # True: that card is a placeholder (a view for another seat)
        self.log: list[dict[str, Any]] = [{"kind": "deal"}]

    def draw(self, sides: int) -> int:
        self.rng, z = _mix(self.rng)
        return z % sides + 1

    @property
    def num_players(self) -> int:
        return self.n

    def current_player(self) -> int:
        if self.is_over():
            return -1
        return self.asked if self.asked >= 0 else self.turn

    def interrupt(self) -> str | None:
        return "veto" if self.asked >= 0 and not self.is_over() else None

    def legal_actions(self) -> list[int]:
        if self.is_over():
            return []
        if self.asked >= 0:
            return [VETO, ALLOW]
        return [ROLL, BANK] if self.pot > 0 else [ROLL]

    def apply_action(self, action: int) -> None:
        if isinstance(action, bool) or action not in self.legal_actions():
            raise IllegalAction(f"action {action!r} is not legal now; legal: {self.legal_actions()}")
        self.steps += 1
        p = self.current_player()
        if action == ROLL:
            face = self.draw(6)
            self.log.append({"kind": "roll", "player": p, "value": face})
            if face == 1:
                self._pass_turn()
            else:
                self.pot += face
        elif action == BANK:
            before = (p - 1) % self.n
            if self.vetoes[before] and before != p:
                self.asked = before
            else:
                self._bank()
        elif action == VETO:
            self.vetoes[p] = False
            self.asked = -1
            self._pass_turn()
        else:
            self.asked = -1
            self._bank()

    def _bank(self) -> None:
        self.scores_[self.turn] += self.pot
        if self.scores_[self.turn] >= self.target:
            self.over = True
            self.log.append({"kind": "reveal", "cards": list(self.cards)})
            return
        self._pass_turn()

    def _pass_turn(self) -> None:
        self.pot = 0
        self.turn = (self.turn + 1) % self.n

    def action_to_string(self, action: int) -> str:
        name = ACTION_NAMES[action] if isinstance(action, int) and 0 <= action < len(ACTION_NAMES) else "?"
        return name  # the seat is said by whoever shows it (menus, narrators)

    def reseed(self, seed: int) -> None:
        self.rng = int(seed) & MASK64

    def chance_events(self, since: int = 0) -> list[dict[str, Any]]:
        return [dict(e) for e in self.log[since:]]

    def is_terminal(self) -> bool:
        return self.over

    def is_truncated(self) -> bool:
        return not self.over and self.steps >= self.max_steps

    def totals(self) -> list[int]:
        return [s + c for s, c in zip(self.scores_, self.cards)]

    def returns(self) -> list[float]:
        if not self.over:
            return [0.0] * self.n
        t = self.totals()
        best = max(t)
        if t.count(best) == self.n:
            return [0.0] * self.n
        return [1.0 if x == best else -1.0 for x in t]

    def scores(self) -> dict[str, list[float]]:
        out = {"score": [float(s) for s in self.scores_]}
        if self.over:
            out["total"] = [float(t) for t in self.totals()]
        return out

    def clone(self) -> "PigState":
        c = object.__new__(PigState)
        c.__dict__.update(self.__dict__)
        for k in ("scores_", "cards", "vetoes", "hidden"):
            setattr(c, k, list(getattr(self, k)))
        c.log = [dict(e) for e in self.log]
        return c

    def view_for(self, seat: int) -> "PigState":
        """Other seats' cards become 0 placeholders (``hidden``), their reveal is dropped from
        the log, and the dice are reseeded from a hash: nothing of the secrets or the coming
        dice survives."""
        c = self.clone()
        if not self.over:
            for q in range(self.n):
                if q != seat:
                    c.cards[q], c.hidden[q] = 0, True
        c.log = [e for e in c.log if e["kind"] != "reveal" or self.over]
        digest = hashlib.sha256(f"{self.rng}:{self.steps}:{seat}".encode()).digest()
        c.rng = int.from_bytes(digest[:8], "little")
        return c

    def to_dict(self) -> dict[str, Any]:
        return {"game": PigGame.name, "version": PigGame.version, "n": self.n, "target": self.target,
                "max_steps": self.max_steps, "rng": str(self.rng), "scores": self.scores_, "cards": self.cards,
                "vetoes": self.vetoes, "turn": self.turn, "pot": self.pot, "steps": self.steps,
                "asked": self.asked, "over": self.over, "hidden": self.hidden, "log": self.log}

    def observation(self, seat: int) -> np.ndarray:
        obs = np.zeros((N_PLANES, 1, MAX_SEATS), dtype=np.float32)
        for k in range(self.n):
            q = (seat + k) % self.n
            obs[0, 0, k] = self.scores_[q] / self.target
            obs[1, 0, k] = self.pot / self.target if q == self.turn else 0.0
            obs[2, 0, k] = 1.0 if q == self.current_player() else 0.0
            obs[3, 0, k] = float(self.vetoes[q])
            obs[5, 0, k] = 1.0
        obs[4, 0, 0] = self.cards[seat] / MAX_CARD
        return obs

    def public_view(self, seat: int | None) -> dict[str, Any]:
        cards = [c if (self.over or q == seat) else None for q, c in enumerate(self.cards)]
        return {"scores": list(self.scores_), "pot": self.pot, "turn": self.turn, "vetoes": list(self.vetoes),
                "cards": cards, "current_player": self.current_player(), "interrupt": self.interrupt(),
                "over": self.is_over(), "rolls": [e for e in self.log if e["kind"] == "roll"][-5:]}

    def seat_info(self, seat: int) -> dict[str, Any]:
        return {"revealed": self.over}

    def render(self, mode: str = "ansi", seat: int | None = None) -> Any:
        v = self.public_view(seat)
        if mode == "ansi":
            rows = [f"P{q}: score {s}{' *' if q == v['turn'] else ''}  card {'?' if c is None else c}"
                    f"  veto {'yes' if vt else 'no'}"
                    for q, (s, c, vt) in enumerate(zip(v["scores"], v["cards"], v["vetoes"]))]
            return "\n".join(rows + [f"pot {v['pot']}"])
        if mode == "rgb_array":
            img = np.full((40, 20 * self.n, 3), 255, dtype=np.uint8)
            for q, s in enumerate(self.scores_):
                h = min(40, 40 * s // self.target)
                img[40 - h:, 20 * q + 2:20 * q + 18] = (200, 60, 60) if q == self.turn else (60, 60, 200)
            return img
        raise ValueError(f"render mode must be 'ansi' or 'rgb_array', got {mode!r}")


class PigGame(Game):
    """The test game (see the module docstring)."""

    name = "pig"
    title = "Pig with a secret card and a veto"
    version = "pig_v1"
    min_players, max_players, default_players = 2, 4, 2
    default_max_steps = MAX_STEPS

    def option_names(self) -> list[str]:
        return ["target", "max_steps"]

    def new_state(self, num_players: int | None = None, seed: int = 0, **options: Any) -> PigState:
        unknown = sorted(set(options) - set(self.option_names()))
        if unknown:
            raise ValueError(f"unknown pig option(s) {unknown}; known: {self.option_names()}")
        n = self.check_players(num_players)
        target, max_steps = options.get("target", TARGET), options.get("max_steps", MAX_STEPS)
        for k, v in (("target", target), ("max_steps", max_steps)):
            if isinstance(v, bool) or not isinstance(v, int) or v < 1:
                raise ValueError(f"{k} must be a positive int, got {v!r}")
        return PigState(n, target, max_steps, int(seed) & MASK64)

    def load(self, data: Any) -> PigState:
        d = self.check_version(data)
        try:
            n = int(d["n"])
            s = PigState(self.check_players(n), int(d["target"]), int(d["max_steps"]), int(d["rng"]))
            s.scores_, s.cards = [int(x) for x in d["scores"]], [int(x) for x in d["cards"]]
            s.vetoes, s.hidden = [bool(x) for x in d["vetoes"]], [bool(x) for x in d["hidden"]]
            s.turn, s.pot, s.steps, s.asked = int(d["turn"]), int(d["pot"]), int(d["steps"]), int(d["asked"])
            s.over, s.log, s.rng = bool(d["over"]), [dict(e) for e in d["log"]], int(d["rng"]) & MASK64
        except (KeyError, TypeError, ValueError) as e:
            raise ValueError(f"a damaged pig state: {type(e).__name__} {str(e)[:60]}") from None
        if not (len(s.scores_) == len(s.cards) == len(s.vetoes) == len(s.hidden) == n
                and 0 <= s.turn < n and -1 <= s.asked < n and s.pot >= 0
                and all(0 <= c <= MAX_CARD for c in s.cards)):
            raise ValueError("a damaged pig state: its fields disagree")
        return s

    def num_actions(self, state: GameState) -> int:
        return len(ACTION_NAMES)

    def observation_shape(self, state: GameState) -> tuple[int, int, int]:
        return (N_PLANES, 1, MAX_SEATS)
