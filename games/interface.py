"""The game interface: what every game gives the layers above it.

Modelled on OpenSpiel's Game/State split. A :class:`Game` holds the static facts (name, player
counts, options) and makes states; a :class:`GameState` is one position of one game, mutable,
with a cheap :meth:`GameState.clone` for search. Seats are ``0 .. num_players-1``: the engine
speaks of seats, never of PettingZoo agent names.

Nothing above the games may reach into a state's insides: the arena, training, search and the
web app use these methods only. What a seat may not see (a secret setup, a hidden card) is
reached only through the seat-aware views, :meth:`GameState.observation` and
:meth:`GameState.public_view`, which never contain another seat's secrets; agents are handed
:meth:`GameState.view_for`, a copy in which the secrets of other seats are replaced (a
determinization placeholder), never the true state.

Chance is inside the state: a state rolls its own seeded dice and logs each outcome in
:meth:`GameState.chance_events`, so the same seed and decisions give the same game.
"""

from __future__ import annotations

import hashlib
import json
from abc import ABC, abstractmethod
from typing import Any, ClassVar

import numpy as np

from .choices import Choice


def json_digest(data: Any, chars: int = 16) -> str:
    """The first ``chars`` hex digits of the SHA-256 of ``data`` as sorted JSON: how results
    files fingerprint a position."""
    return hashlib.sha256(json.dumps(data, sort_keys=True).encode()).hexdigest()[:chars]


class IllegalAction(ValueError):
    """An action that is not legal now: the state is left unchanged."""


class GameState(ABC):
    """One position of a game. Seats are ints; ``current_player()`` is ``-1`` once over."""

    game: ClassVar["Game"]

    # --- who, what, apply -------------------------------------------------------------------
    @property
    @abstractmethod
    def num_players(self) -> int: ...

    @abstractmethod
    def current_player(self) -> int:
        """The seat that decides now, out of turn included; -1 when the game is over."""

    def interrupt(self) -> str | None:
        """The kind of out-of-turn decision being asked now (e.g. ``"retaliation"``), or None on
        the turn player's own turn."""
        return None

    def prompt(self) -> str:
        """What the decision now asks of the seat to move, in words, beyond its list of legal
        actions (a pending choice and how to answer it, a setup step); "" for a plain decision."""
        return ""

    def status(self, seat: int) -> str:
        """``seat``'s standing in one line, as a terminal shows it to that seat's person before
        a decision (a purse, the phase, the round); "" by default."""
        return ""

    def choices(self, legal: list[int]) -> list[Choice]:
        """The legal actions ``legal`` as a person reads and types them, numbered from 1, in the
        game's order of the decisions; by default in the given order, each its words."""
        out = []
        for i, a in enumerate(legal, 1):
            text = self.action_to_string(a)
            out.append(Choice(i, a, self.read_command(text), self.read_command(text), None, text))
        return out

    def read_command(self, text: str) -> str:
        """A typed command as :meth:`choices` writes commands; by default lower case, single spaces."""
        return " ".join(text.lower().split())

    def seat_info(self, seat: int) -> dict[str, Any]:
        """Extra facts for ``seat``'s ``info`` in an environment (e.g. ``{"revealed": False}``);
        only what that seat may know."""
        return {}

    @abstractmethod
    def legal_actions(self) -> list[int]:
        """The legal action codes now, ascending; never empty while the game is not over."""

    @abstractmethod
    def apply_action(self, action: int) -> None:
        """Apply one legal action; raise :class:`IllegalAction` (state unchanged) otherwise."""

    @abstractmethod
    def action_to_string(self, action: int) -> str:
        """The action in words, for the seat that takes it."""

    # --- chance, end, returns ---------------------------------------------------------------
    @abstractmethod
    def chance_events(self, since: int = 0) -> list[dict[str, Any]]:
        """The chance outcomes logged so far but the first ``since`` of them (each a JSON-able
        dict with at least ``"kind"``), in order; public outcomes only. ``since`` counts chance
        outcomes: ``chance_events(k) == chance_events()[k:]``, so a caller that has seen
        ``len(chance_events())`` of them asks for the new ones with that number."""

    def reseed(self, seed: int) -> None:
        """Draw the chance outcomes to come from ``seed``: a search samples them anew in each
        simulation of a copy (:mod:`training.az_game`). A game that does not offer it raises
        NotImplementedError (a search then keeps the copy's dice, the view's, never the game's)."""
        raise NotImplementedError(f"{type(self).__name__} does not reseed its chance")

    def search_copy(self, seed: int) -> "GameState":
        """The copy a search simulates on: :meth:`clone` with its chance to come drawn from
        ``seed`` (:meth:`reseed`; a game without it keeps this state's dice: a search hands
        in a view, never the true state)."""
        copy = self.clone()
        try:
            copy.reseed(seed)
        except NotImplementedError:
            pass
        return copy

    def hidden_information(self) -> bool:
        """Whether some seat's secret is still hidden from another (Thrones' setup before the
        reveal). A search that needs a position of full information plays only once this is
        False; a game of full information never has any."""
        return False

    @abstractmethod
    def is_terminal(self) -> bool:
        """The game ended by its rules."""

    def is_truncated(self) -> bool:
        """The game was stopped by a move limit (not by its rules)."""
        return False

    def is_over(self) -> bool:
        return self.is_terminal() or self.is_truncated()

    @abstractmethod
    def returns(self) -> list[float]:
        """Each seat's return: +1 for a sole winner, -1 for a loser, shares for a tie (sums to
        zero over seats for a zero-sum game); zeros while not over."""

    def winners(self) -> list[int]:
        """The seats with the highest return, once over; empty before."""
        if not self.is_over():
            return []
        r = self.returns()
        best = max(r)
        return [i for i, x in enumerate(r) if x == best]

    def narrate(self, since: int = 0) -> list[tuple[bool, str]]:
        """What has happened, in words, but the first ``since`` entries: one ``(opens_turn,
        text)`` per event, ``opens_turn`` True for an event that starts a new turn (its text
        then names the turn). ``narrate(k) == narrate()[k:]``, as for :meth:`chance_events`.
        Public events only; by default the chance outcomes, key and value."""
        return [(False, ", ".join(f"{k} {v}" for k, v in e.items())) for e in self.chance_events(since)]

    @abstractmethod
    def scores(self) -> dict[str, list[float]]:
        """The game's own score fields per seat (victory tokens, pieces left, ...), for records
        and the web app. Public information only."""

    # --- copies and files -------------------------------------------------------------------
    @abstractmethod
    def clone(self) -> "GameState":
        """An independent copy: applying actions to it leaves this state alone."""

    @abstractmethod
    def view_for(self, seat: int) -> "GameState":
        """A copy safe to hand to ``seat``'s agent: every secret of the other seats replaced
        by a placeholder (or sampled later by the agent itself). Equal to :meth:`clone` for a
        game of full information."""

    @abstractmethod
    def to_dict(self) -> dict[str, Any]:
        """The whole state as JSON-able data with ``"game"`` and ``"version"`` fields
        (:meth:`Game.load` reads it back)."""

    def digest(self) -> str:
        """A short hash of the position (results files record the final one, and a replay checks
        it); by default of :meth:`to_dict`."""
        return json_digest(self.to_dict())

    def start_options(self) -> dict[str, Any]:
        """The options of :meth:`Game.new_state` that deal this game again from its start, with
        what its seed drew fixed (Vigtavl's: ``engine_seed``, the map, the rules): what a results
        file records beside the seed. Empty by default (the seed and the options a game was made
        with deal it again)."""
        return {}

    def recorded_action(self, code: int) -> int:
        """The action code for a decision as this game's results files record it (Vigtavl's
        record its engine's codes); the same code by default. IllegalAction for a code that
        names no action."""
        return code

    def action_for_record(self, action: int) -> int:
        """The inverse of :meth:`recorded_action`: what a results file records for ``action``."""
        return action

    # --- what a seat sees -------------------------------------------------------------------
    @abstractmethod
    def observation(self, seat: int) -> np.ndarray:
        """The float32 board tensor ``(C, H, W)`` as ``seat`` sees it (its own side first)."""

    @abstractmethod
    def public_view(self, seat: int | None) -> dict[str, Any]:
        """What ``seat`` may see (None: a spectator, who sees only what is public), as
        JSON-able data for the web app and agent APIs."""

    @abstractmethod
    def render(self, mode: str = "ansi", seat: int | None = None, **options: Any) -> Any:
        """A picture of the board: ``"ansi"`` a str, ``"rgb_array"`` a uint8 (H, W, 3) array;
        what ``seat`` may see (None: everything public). ``options`` are the game's own drawing
        options, if it has any (Vigtavl's ``coords``: each hex's q,r in its place)."""


class Game(ABC):
    """A game's static facts and its factory of states."""

    name: ClassVar[str]
    title: ClassVar[str]
    version: ClassVar[str]
    min_players: ClassVar[int]
    max_players: ClassVar[int]
    default_players: ClassVar[int] = 2
    # The action codec is verb planes over the observation's board: ``code = verb * H * W + cell``
    # for the cell verbs, then the global verbs (fewer than the cells). A fully convolutional
    # policy head (agents.network, ``policy: cnn``) then lands each logit on its cell.
    planar_actions: ClassVar[bool] = False
    # Decisions after which a game is cut (truncated) unless its options say otherwise; None: the
    # game's own rules bound it (a trainer then keeps its own limit).
    default_max_steps: ClassVar[int | None] = None

    @abstractmethod
    def new_state(self, num_players: int | None = None, seed: int = 0,
                  **options: Any) -> GameState:
        """A new game; ``options`` are the game's own (ValueError, one line, on a bad one)."""

    @abstractmethod
    def load(self, data: Any) -> GameState:
        """A state from :meth:`GameState.to_dict`'s data; ValueError (one line) on a file of
        another game or version, or a damaged one."""

    @abstractmethod
    def num_actions(self, state: GameState) -> int:
        """The size of the action codec for this state's configuration."""

    @abstractmethod
    def observation_shape(self, state: GameState) -> tuple[int, int, int]:
        """``(C, H, W)`` of :meth:`GameState.observation` for this configuration."""

    def option_names(self) -> list[str]:
        """The options :meth:`new_state` takes (for error messages and ``--help``)."""
        return []

    def channel_names(self, num_players: int) -> list[str]:
        """The names of :meth:`GameState.observation`'s channels, in order, for a game of
        ``num_players`` (a network moves between layouts by them: a channel keeps its weights
        where its name goes). By default ``channel_0``, ``channel_1``, ...: the channels of a new
        game, unnamed."""
        return [f"channel_{i}" for i in range(self.observation_shape(self.new_state(num_players))[0])]

    def search_steps(self) -> Any:
        """The game's own step functions for a search and a self-play loop, faster than the
        interface's (``agents.game_steps.GameSteps``, over the game's own states and codes);
        None: the interface's (``agents.game_steps.INTERFACE_STEPS``) serve."""
        return None

    def single_seat_env(self, **options: Any) -> Any:
        """The game's own env of one learner seat (a ``gymnasium.Env``, the other seats played
        inside ``step``), faster or with its own rewards, as a league trains on it
        (:mod:`training.league`: it reads the env's ``n_players``, sets its ``seat`` and
        ``opponents`` before each game and reads ``game_summary(opponent names)`` once it
        ends); ``options`` are the env's. None: the game has none (:mod:`training.game_train`
        trains any game on :class:`training.vec.GameVecEnv`)."""
        return None

    def vector_env(self, num_envs: int, **options: Any) -> Any:
        """The game's own batch of ``num_envs`` games of one learner seat each as a
        Stable-Baselines3 ``VecEnv``, their opponents drawn per game by weight (``opponents``,
        ``opponent_weights``; ``set_opponents`` changes them for the games to come), as a league
        trains on it (:mod:`training.league`). None: the game has none (any game's batch is
        :class:`training.vec.GameVecEnv`)."""
        return None

    def seat_table(self, **options: Any) -> Any:
        """The game's own table of every seat for a multi-agent env (:mod:`training.rllib`'s),
        with its own rewards: ``reset(seed, bots)`` (seat -> agent played inside) and
        ``step(action)`` return the seat to decide next (None once over or cut), ``observe(seat)``
        its observation and mask, ``reward(seat)`` what it earned since it last observed,
        ``terminated()``, ``seat_to_decide()``, ``n_players``, ``n_actions`` and
        ``observation_space``; ``options`` are the table's. None: the game has none
        (:class:`training.rllib_game.GameMultiAgentEnv` trains any game through this interface)."""
        return None

    def check_players(self, num_players: int | None) -> int:
        """The player count, checked (ValueError, one line)."""
        n = self.default_players if num_players is None else num_players
        if isinstance(n, bool) or not isinstance(n, int) or not self.min_players <= n <= self.max_players:
            raise ValueError(f"{self.name} is played by {self.min_players}-{self.max_players} "
                             f"players, got {num_players!r}")
        return n

    def file_version(self, value: Any) -> str:
        """The version a saved file's ``version`` field names, whichever way this game once wrote
        it (a game that wrote other spellings maps them here); the value, shortened, if none."""
        return value if isinstance(value, str) and len(value) <= 40 else repr(value)[:20]

    def check_file_version(self, value: Any, what: str) -> None:
        """ValueError (one line naming both versions) unless a file whose ``version`` field holds
        ``value`` (``what``: e.g. "the results file x.json") was written for this version."""
        found = self.file_version(value)
        if found != self.version:
            raise ValueError(f"{what} is of version {found}; this engine reads version {self.version} only "
                             "(other rules, other action codes: play the games again to replay them)")

    def check_version(self, data: Any) -> dict[str, Any]:
        """``data`` as a dict written by this game at this version (ValueError otherwise)."""
        if not isinstance(data, dict):
            raise ValueError(f"a {self.name} state must be a JSON object")
        if data.get("game") != self.name:
            raise ValueError(f"this state is of game {str(data.get('game'))[:20]!r}, not {self.name!r}")
        if data.get("version") != self.version:
            raise ValueError(f"this {self.name} state is of version {str(data.get('version'))[:20]!r}; "
                             f"this engine reads {self.version!r} only")
        return data
