"""One game between players, as a record that replays exactly, for any registered game."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import asdict, dataclass, field
from typing import Any

from agents.generic import GameStopped, Player
from games import load_game
from games.interface import GameState, json_digest


@dataclass
class GameRecord:
    """One played game: enough to replay it (:func:`replay_record`) and to rate its seats.

    ``actions`` are the game's action indices in order; ``returns`` and ``scores`` are the
    game's at the end (scores: its own fields, e.g. victory tokens); ``final_digest`` hashes
    the final state's data.
    """

    game: str
    version: str
    number: int
    seed: int
    num_players: int
    options: dict[str, Any]
    seats: list[str]
    agent_seeds: list[int]
    actions: list[int] = field(default_factory=list)
    returns: list[float] = field(default_factory=list)
    scores: dict[str, list[float]] = field(default_factory=dict)
    truncated: bool = False
    final_digest: str = ""

    @property
    def outcomes(self) -> list[float]:
        """What ranks the seats (ratings): the returns."""
        return self.returns

    @property
    def winners(self) -> list[int]:
        if self.truncated or not self.returns:
            return []
        best = max(self.returns)
        return [i for i, r in enumerate(self.returns) if r == best]

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)


def state_digest(state: GameState) -> str:
    return json_digest(state.to_dict(), 24)  # arena files since their first: 24 digits


Observer = Callable[[GameState, int, int, str], Any]  # (state after, seat, action, its words)


def play_game(game: str, players: list[Player], seed: int, number: int = 0, seats: list[str] | None = None,
              agent_seeds: list[int] | None = None, observe: Observer | None = None,
              **options: Any) -> GameRecord:
    """Play one game; each player decides on its own seat's view (``view_for``), and
    ``observe`` sees the true state after each decision (a narrator, not a player)."""
    g = load_game(game)
    state = g.new_state(len(players), seed, **options)
    rec = GameRecord(g.name, g.version, number, seed, len(players), dict(options),
                     seats or [f"seat{i}" for i in range(len(players))], agent_seeds or [0] * len(players))
    while not state.is_over():
        seat = state.current_player()
        legal = state.legal_actions()
        try:
            action = players[seat](state.view_for(seat), list(legal))
        except GameStopped as stop:
            rec.truncated, rec.final_digest = True, state_digest(state)
            stop.record = rec
            raise
        words = state.action_to_string(action) if observe is not None else ""
        state.apply_action(action)
        rec.actions.append(int(action))
        if observe is not None:
            observe(state, seat, int(action), words)
    rec.returns, rec.scores = state.returns(), state.scores()
    rec.truncated, rec.final_digest = state.is_truncated(), state_digest(state)
    return rec


def replay_record(rec: GameRecord) -> GameState:
    """The record's game played again from its seed and actions; ValueError (one line) if it
    does not end in the recorded state."""
    g = load_game(rec.game)
    if rec.version != g.version:
        raise ValueError(f"the record is of {rec.game} {rec.version!r}; this engine plays {g.version!r}")
    state = g.new_state(rec.num_players, rec.seed, **rec.options)
    for i, a in enumerate(rec.actions):
        if state.is_over():
            raise ValueError(f"the game ended before decision {i} of {len(rec.actions)}")
        state.apply_action(a)
    if state_digest(state) != rec.final_digest:
        raise ValueError("the replayed game does not end in the recorded state")
    return state
