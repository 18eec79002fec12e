"""Seats: who decides for each seat of a game, and what a game is worth to one seat.

Three adapters put some seats of a game before a learner and play the others themselves:
:class:`~vigtavl_env.wrappers.SingleSeatEnv` (one seat as a gymnasium env),
:class:`~vigtavl_env.vector.VigtavlVectorEnv` (N games on bare engine states) and
``training.rllib.VigtavlMultiAgentEnv`` (the seats RLlib plays). What they share is here, once:

- :func:`play_other_seats`, the seat loop. ``players[seat]`` decides for that seat, or is
  ``None``: the caller decides for it (the learner, a seat RLlib plays, or a frozen policy whose
  decisions the vector env batches across games). The loop plays every seat that has a player
  until a seat without one must decide and returns that seat, or ``None`` once the game has
  stopped (over, or cut at ``max_steps``). It follows the engine's ``current_player``, so the
  out-of-turn decisions (a retaliation, a defence: whoever the engine asks) go to the seat they
  belong to, the learner's own included.
- The tables it plays on: :class:`AECTable`, a ``raw_env`` stepped through its API (its
  rewards, infos and truncations stay right), whose players are :func:`aec_player` s; and
  :class:`EngineTable`, an engine state with its decision count and the legal list of the seat
  to decide, whose players are functions ``(state, legal codes) -> engine code``.
- :func:`seat_reward`: what a seat earned since it last looked, for each of :data:`REWARDS`
  (``raw_env(reward=...)``; the AEC env gives every seat its reward through it).
- :func:`game_summary`: a finished game, seen from one seat, as training statistics read it.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from typing import Any, Protocol

from .agent import agent_info
from .engine import returns, winners
from .engine.game import apply_action, legal_actions
from .engine.state import GameState

REWARDS = ("win_loss", "tokens", "margin")
MARGIN_SCALE = 10.0  # "margin": own tokens minus the best opponent's, divided by this

AECPlayer = Callable[[Any], int]  # (raw_env) -> the env action of its selected agent
EnginePlayer = Callable[[GameState, list[int]], int]  # (state, legal codes) -> an engine code


class Table(Protocol):
    """A game the seat loop can play: who must decide now, and play one player's decision."""

    def seat_to_decide(self) -> int | None: ...

    def play(self, player: Any) -> None: ...


def play_other_seats(table: Table, players: Sequence[Any | None]) -> int | None:
    """Play every seat that has a player until a seat without one (``None``) must decide;
    that seat, or ``None`` once the game has stopped."""
    seat = table.seat_to_decide()
    while seat is not None:
        player = players[seat]
        if player is None:
            return seat
        table.play(player)
        seat = table.seat_to_decide()
    return None


# ------------------------------------------------------------------ tables
class AECTable:
    """A ``raw_env`` as the seat loop plays it: every decision through ``step``."""

    def __init__(self, aec: Any) -> None:
        self.aec = aec

    def seat_to_decide(self) -> int | None:
        aec = self.aec
        if aec.game_state.is_over or any(aec.truncations.values()):
            return None
        return aec.possible_agents.index(aec.agent_selection)

    def play(self, player: AECPlayer) -> None:
        self.aec.step(player(self.aec))


class EngineTable:
    """An engine state as the seat loop plays it, with its decisions counted against
    ``max_steps``; ``legal`` is the legal list of the seat to decide (empty once stopped)."""

    __slots__ = ("state", "max_steps", "steps", "legal")

    def __init__(self, state: GameState, max_steps: int) -> None:
        self.state, self.max_steps, self.steps = state, max_steps, 0
        self.legal = self._legal_now()

    def seat_to_decide(self) -> int | None:
        return self.state.current_player if self.legal else None

    def play(self, player: EnginePlayer) -> None:
        self.play_code(player(self.state, self.legal))

    def play_code(self, code: int) -> None:
        """Apply the deciding seat's engine code (one of ``legal``)."""
        apply_action(self.state, code, self.legal)
        self.steps += 1
        self.legal = self._legal_now()

    @property
    def cut(self) -> bool:
        """Stopped at ``max_steps`` before the game was over."""
        return not self.state.is_over and self.steps >= self.max_steps

    def _legal_now(self) -> list[int]:
        state = self.state
        return legal_actions(state) if not state.is_over and self.steps < self.max_steps else []


def aec_player(policy: Any) -> AECPlayer:
    """An opponent as a player of an :class:`AECTable`: an agent's ``act(observation,
    action_mask, info)`` (``info``: :func:`~vigtavl_env.agent.agent_info`) or a callable
    ``(observation, action_mask) -> action``, asked for the env's selected agent."""
    def play(aec: Any) -> int:
        agent = aec.agent_selection
        obs = aec.observe(agent)
        if hasattr(policy, "act"):
            return int(policy.act(obs["observation"], obs["action_mask"], agent_info(aec, agent)))
        return int(policy(obs["observation"], obs["action_mask"]))
    return play


# ------------------------------------------------------------------ what a game is worth
def seat_reward(state: GameState, seat: int, kind: str, tokens_before: int) -> float:
    """What ``seat`` earned since it held ``tokens_before`` victory tokens, by reward ``kind``:

    - ``"win_loss"``: once the game is over, +1 to each winner, -1 to the others, 0 to all on a
      tie of everyone (the engine's ``returns``); 0 before.
    - ``"tokens"``: the tokens gained since, acting or not.
    - ``"margin"``: once the game is over, own tokens minus the best opponent's, / 10; 0 before.
    """
    if kind == "tokens":
        return float(state.tokens[seat] - tokens_before)
    if not state.is_over:
        return 0.0
    if kind == "win_loss":
        return float(returns(state)[seat])
    best_other = max(t for j, t in enumerate(state.tokens) if j != seat)
    return (state.tokens[seat] - best_other) / MARGIN_SCALE


def game_summary(state: GameState, seat: int, opponents: Iterable[str]) -> dict[str, Any]:
    """A finished game (over, or cut at ``max_steps``) seen from ``seat``, as training
    statistics read it (``training/train.py``): its win share (1 / the number of winners when
    it is one), its tokens, the best opponent's tokens, the length in decisions, whether it was
    cut short, and the opponents' name (``"mixed"`` when the other seats had different ones)."""
    won = winners(state) if state.is_over else []
    names = set(opponents)
    return {"win": (1.0 / len(won)) if seat in won else 0.0, "tokens": state.tokens[seat],
            "opp_tokens": max(t for j, t in enumerate(state.tokens) if j != seat),
            "length": state.decisions, "truncated": not state.is_over,
            "opponent": names.pop() if len(names) == 1 else "mixed"}
