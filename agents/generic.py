"""Agents that play any game of the registry, through the game interface alone.

A player is called with the view of the state its seat may see (``state.view_for(seat)``:
other seats' secrets replaced, the dice reseeded) and the legal actions, and returns one:

- ``random``: uniform over the legal actions (seeded).
- ``rollout`` / ``rollout:N``: flat Monte Carlo: each legal action is tried in N random
  playouts (default 8) of the view and the one with the best mean return for its seat is
  played. It plays on the view, so it never sees what its seat may not.
- ``ppo:PATH``: a MaskablePPO model trained on the game (:mod:`agents.game_ppo`); ``ppo:pretrained``
  the game's shipped one, where the table of that game's kinds binds the game (:func:`game_bound`).
- ``ppo-search:PATH[:N]``: that model inside the Gumbel search, N simulations per decision, once
  nothing is hidden (:mod:`agents.game_ppo_search`); before, the model alone.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

from agents.shipped import PPO_SEARCH_SIMULATIONS
from games.interface import GameState

Player = Callable[[GameState, list[int]], int]
DEFAULT_ROLLOUTS = 8
MAX_ROLLOUTS = 1000
ROLLOUT_DEPTH = 400  # decisions per playout before it is scored as it stands


class GameStopped(Exception):
    """A player ends the game early (a person quits); the runner attaches the record of the game
    so far as ``record`` before it passes the exception on (``arena.vigtavl_match.run_game``)."""

    record: Any = None


class RandomPlayer:
    """Uniform over the legal actions."""

    def __init__(self, seed: int | None = None) -> None:
        self.rng = random.Random(seed)

    def __call__(self, view: GameState, legal: list[int]) -> int:
        return self.rng.choice(legal)


class RolloutPlayer:
    """Flat Monte Carlo over the legal actions (module docstring)."""

    def __init__(self, rollouts: int = DEFAULT_ROLLOUTS, seed: int | None = None) -> None:
        self.rollouts, self.rng = rollouts, random.Random(seed)

    def __call__(self, view: GameState, legal: list[int]) -> int:
        if len(legal) == 1:
            return legal[0]
        seat = view.current_player()
        best, best_value = legal[0], float("-inf")
        for a in legal:
            total = 0.0
            for _ in range(self.rollouts):
                s = view.clone()
                s.apply_action(a)
                for _ in range(ROLLOUT_DEPTH):
                    if s.is_over():
                        break
                    s.apply_action(self.rng.choice(s.legal_actions()))
                total += s.returns()[seat]
            if total > best_value:
                best, best_value = a, total
        return best


def _rollouts(arg: str) -> int:
    if not arg:
        return DEFAULT_ROLLOUTS
    if not arg.isdigit() or not 1 <= int(arg) <= MAX_ROLLOUTS:
        raise ValueError(f"rollout:N takes N in 1-{MAX_ROLLOUTS}, got {arg[:20]!r}")
    return int(arg)


# One table of the generic kinds: description, and a factory (argument text, seed) -> player.
GENERIC_KINDS: dict[str, tuple[str, Callable[[str, int | None], Player]]] = {
    "random": ("uniform over the legal actions", lambda arg, seed: RandomPlayer(seed)),
    "rollout": ("flat Monte Carlo, N random playouts per action (rollout:N, default 8)",
                lambda arg, seed: RolloutPlayer(_rollouts(arg), seed)),
    "ppo": ("a MaskablePPO model trained on this game, its most likely action (ppo:PATH, or ppo:pretrained "
            "for the game's shipped one)", lambda arg, seed: _ppo_player(arg, seed)),
    "ppo-search": ("that model inside the Gumbel search, N simulations a decision once nothing is hidden "
                   "(ppo-search:PATH[:N], ppo-search:pretrained[:N]); before, the model alone",
                   lambda arg, seed: _ppo_search_player(arg, seed)),
}


def _ppo_player(arg: str, seed: int | None, game: str | None = None) -> Player:
    from agents.game_ppo import PPOPlayer  # torch and SB3 only when a model plays
    return PPOPlayer(arg, game=game)


def _ppo_search_player(arg: str, seed: int | None, game: str | None = None) -> Player:
    from agents.game_ppo_search import PPOSearchPlayer, parse_argument
    path, simulations = parse_argument(arg)
    return PPOSearchPlayer(path, simulations, seed=seed, game=game)


# the kinds whose ``pretrained`` names the game's shipped model: their factory knows the game
_GAME_BOUND = {"ppo": _ppo_player, "ppo-search": _ppo_search_player}


def game_bound(name: str, game: str) -> Callable[[str, int | None], Player] | None:
    """The factory of generic kind ``name`` in ``game``'s table, where it reads the game's shipped
    model (``ppo:pretrained``); None for a kind that needs no game."""
    factory = _GAME_BOUND.get(name)
    return None if factory is None else (lambda arg, seed: factory(arg, seed, game))


def make_generic(spec: str, seed: int | None = None) -> Player:
    """A generic player from its spec (``random``, ``rollout:16``); ValueError in one line."""
    if not isinstance(spec, str):
        raise ValueError(f"an agent spec is a string, got {type(spec).__name__}")
    kind, _, arg = spec.partition(":")
    if kind not in GENERIC_KINDS:
        raise ValueError(f"unknown agent {spec[:40]!r} for this game; known: {', '.join(GENERIC_KINDS)}")
    if kind == "random" and arg:
        raise ValueError("random takes no argument")
    return GENERIC_KINDS[kind][1](arg, seed)


def describe_kinds() -> dict[str, Any]:
    return {k: d for k, (d, _) in GENERIC_KINDS.items()}
