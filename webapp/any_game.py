"""Any registered game in the web app, through the game interface alone (games/interface.py).

:class:`AnyGame` is a live game of any game that ``games.load_game`` finds, with a person at
most at one seat and agents at the others; :class:`AnyReplay` is a finished one opened for
replay. Both read a state only through the interface: ``public_view(seat)``,
``legal_actions()``, ``action_to_string()``, ``chance_events()``, ``seat_info(seat)`` and the
end (``is_over``, ``returns``, ``scores``), never a game's own fields, so what a seat may not see
(Thrones' secret setup, Pig's card) never reaches the page:

- the page sees the game as one seat sees it: the person's seat for the page holding the game's
  token, else a spectator's (``public_view(None)``);
- another seat's decisions are listed without their words while the viewer's ``seat_info`` says
  the secrets are not ``revealed`` yet (a setup laid in secret would read out in them); chance
  events, which the interface keeps public, are listed with the decision that drew them;
- an agent decides on ``state.view_for(seat)``, its own copy with the other seats' secrets
  replaced, thinking without the game's lock as Vigtavl's agents do
  (:mod:`webapp.sessions`).

The agents are those of the project's table of kinds (:mod:`agents.kinds`: the generic ones and
a game's own), through :func:`make_player`. Of those that load a model, only the game's shipped
one is taken (``ppo:pretrained``, ``ppo-search:pretrained[:N]`` with N at most
:data:`MAX_WEB_SIMULATIONS`), and only while its file is installed: a path sent by a page is
never opened. Vigtavl's own board and bots stay with :mod:`webapp.sessions`.
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable
from concurrent.futures import Future
from typing import Any

from agents.generic import GENERIC_KINDS, Player
from agents.shipped import pretrained_path
from agents.kinds import MODEL_KINDS, AgentKind, AgentSpec, kinds_for
from webapp.guards import HUMAN, WebError, clean_name
from webapp.sessions import GameLock
from games import game_names, load_game
from games.registry import DEFAULT_GAME
from games.interface import GameState, IllegalAction

SEED_RANGE = 2 ** 31
AGENT_SEED_STRIDE = 16  # an agent's seed: game seed * 16 + seat, as the arena's matches
MAX_WEB_ROLLOUTS = 16  # rollout:N here thinks N playouts per legal decision: bounded for a shared server
SNAPSHOT_EVERY = 32  # a replay keeps the state every this many decisions, and replays from there
# set above tracemalloc's figures for Thrones: a game 12 KB at its start (the first one made also
# loads 0.55 MB of tables, kept), 0.4-1.1 KB a decision (greedy vs random, random vs random); a replay 0.4 KB a decision
GAME_BYTES, DECISION_BYTES = 200_000, 2_000
MAX_WEB_SIMULATIONS = 16  # ppo-search's simulations a decision at most on a shared server
SHIPPED = "pretrained"


def game_of(name: Any) -> Any:
    """The registered game ``name`` (400 naming the known ones)."""
    try:
        return load_game(clean_name(name, "a game name"))
    except ValueError as e:
        raise WebError(str(e)) from None


def web_kinds(game: str) -> dict[str, AgentKind]:
    """The agent kinds a seat of ``game`` may name here, from the project's one table
    (:func:`agents.kinds.kinds_for`): none that loads a model file (a pickle: see
    :mod:`webapp.guards`), and for Vigtavl only the generic ones (its own bots play at
    ``/api/games``, where each search's time is bounded): the kinds named as generic, however
    Vigtavl makes them."""
    try:
        table = kinds_for(game)
    except ValueError as e:
        raise WebError(str(e)) from None
    return {k: v for k, v in table.items() if not v.model and (k in GENERIC_KINDS or game != DEFAULT_GAME)}


def shipped_kinds(game: str) -> dict[str, AgentKind]:
    """The generic kinds that play ``game``'s shipped model, while that model is installed (none
    for Vigtavl, whose networks play at ``/api/games``)."""
    if game == DEFAULT_GAME or not pretrained_path(game).is_file():
        return {}
    table = kinds_for(game)
    return {k: table[k] for k in MODEL_KINDS if k in table and table[k].game is None}


def agent_menu(game: str) -> list[dict[str, str]]:
    """The agents a seat of ``game`` may name here, for the page's menu."""
    return [{"spec": HUMAN, "about": "you, clicking on the board"}] + [
        {"spec": k, "about": v.description} for k, v in web_kinds(game).items()] + [
        {"spec": f"{k}:{SHIPPED}", "about": f"the shipped {game} network: " + v.description}
        for k, v in shipped_kinds(game).items()]


def _check_shipped(parsed: AgentSpec, spec: str) -> None:
    """A model kind here names the game's shipped model only (ValueError, one line)."""
    arg, _, budget = parsed.argument.partition(":")
    if arg != SHIPPED or (budget and parsed.kind != "ppo-search"):
        raise ValueError(f"agent {spec[:40]!r}: this server plays only the shipped model here "
                         f"({parsed.kind}:{SHIPPED})")
    if budget and not (budget.isdigit() and 1 <= int(budget) <= MAX_WEB_SIMULATIONS):
        raise ValueError(f"{parsed.kind} searches 1-{MAX_WEB_SIMULATIONS} simulations a decision on this "
                         f"server, got {spec[:40]!r}")


def make_player(game: str, spec: str, seed: int | None = None) -> Player:
    """The player ``spec`` names for ``game``, one of :func:`web_kinds` (``rollout`` at most
    :data:`MAX_WEB_ROLLOUTS`) or the shipped model (:func:`shipped_kinds`); a bad spec is a 400
    in one line."""
    try:
        parsed = AgentSpec.parse(spec, game)
        if parsed.kind in shipped_kinds(game):
            _check_shipped(parsed, spec)
        elif parsed.kind not in web_kinds(game):
            own = " (Vigtavl's own bots play at POST /api/games)" if game == DEFAULT_GAME else ""
            raise ValueError(f"agent {spec[:40]!r} does not play {game} here; here it plays "
                             + ", ".join(web_kinds(game)) + own)
        if parsed.kind == "rollout" and parsed.argument.isdigit() and int(parsed.argument) > MAX_WEB_ROLLOUTS:
            raise ValueError(f"rollout thinks at most rollout:{MAX_WEB_ROLLOUTS} on this server, got {spec[:40]!r}")
        return parsed.make(seed)
    except ValueError as e:
        raise WebError(str(e).splitlines()[0] if str(e) else f"bad agent spec {spec[:40]!r}") from None


def games_menu() -> list[dict[str, Any]]:
    """Every registered game with its player counts and agents (``GET /api/meta``)."""
    out = []
    for name in game_names():
        g = load_game(name)
        out.append({"name": name, "title": g.title, "min_players": g.min_players, "max_players": g.max_players,
                    "agents": agent_menu(name)})
    return out


def chance_of(state: GameState) -> list[dict[str, Any]]:
    return list(state.chance_events(0))


def moves_for(moves: list[dict[str, Any]], viewer: int | None, state: GameState) -> list[dict[str, Any]]:
    """The move entries as ``viewer`` may read them: another seat's words only once the viewer's
    ``seat_info`` says the secrets are revealed (a game without that flag has none); a spectator
    (None) reads them once every seat's does."""
    seats = range(state.num_players) if viewer is None else [viewer]
    revealed = all(state.seat_info(s).get("revealed", True) is not False for s in seats)
    return [m if m["seat"] == viewer or m["seat"] < 0 or revealed else {**m, "text": None} for m in moves]


def position(state: GameState, viewer: int | None, decider: int | None) -> dict[str, Any]:
    """What ``viewer`` sees of ``state``, with the legal decisions when it is ``decider``'s turn
    to decide and ``decider`` is the viewer."""
    seat = state.current_player()
    over = state.is_over()
    out: dict[str, Any] = {
        "viewer": viewer, "to_act": -1 if over else seat, "interrupt": None if over else state.interrupt(),
        "over": over, "truncated": state.is_truncated(), "winners": state.winners() if over else [],
        "returns": state.returns() if over else [], "scores": state.scores(),
        "info": state.seat_info(viewer) if viewer is not None else {},
        "view": state.public_view(viewer), "decisions": [],
    }
    if not over and viewer is not None and seat == viewer == decider:
        out["decisions"] = [{"action": a, "text": state.action_to_string(a)} for a in state.legal_actions()]
    return out


class AnyGame(GameLock):
    """A game of ``game`` played now: a person at the ``human`` seat (at most one), agents at
    the others. Made by :func:`new_any_game`; kept in :class:`webapp.store.Store` beside
    Vigtavl's live games (the same slots, idle rule and token)."""

    def __init__(self, game: str, seats: list[str], seed: int | None = None) -> None:
        g = game_of(game)
        if not isinstance(seats, list) or not all(isinstance(s, str) for s in seats):
            raise WebError("seats must be a list of agent specs or 'human'")
        seats = [clean_name(s, "an agent spec").strip() for s in seats]
        try:
            g.check_players(len(seats))
        except ValueError as e:
            raise WebError(str(e)) from None
        if not all(seats):
            raise WebError("every seat needs an agent spec or 'human'")
        humans = [i for i, s in enumerate(seats) if s.lower() == HUMAN]
        if len(humans) > 1:  # one page shows one seat's view: two people would see each other's secrets
            raise WebError(f"a game of {g.name} here has at most one person's seat, got {len(humans)}")
        self.name, self.title, self.seats = g.name, g.title, seats
        self.seed = random.randrange(SEED_RANGE) if seed is None else int(seed)
        self.human = humans[0] if humans else None
        self.players = [None if i == self.human else make_player(g.name, s, self.seed * AGENT_SEED_STRIDE + i)
                        for i, s in enumerate(seats)]
        try:
            self.state = g.new_state(len(seats), self.seed)
        except ValueError as e:
            raise WebError(str(e)) from None
        self.version = g.version
        self.decisions: list[int] = []
        self.moves = [{"n": 0, "seat": -1, "text": "the start", "chance": chance_of(self.state)}]
        self.init_lock()
        self.thinking: Future | None = None
        self.seat_cpu = [0.0] * len(seats)

    @property
    def nbytes(self) -> int:
        return GAME_BYTES + DECISION_BYTES * len(self.decisions)

    # ---------------------------------------------------------------- decisions
    def decide(self, action: Any) -> None:
        """The person's decision: an action code of the legal list (400 otherwise, 409 not now)."""
        if self.state.is_over():
            raise WebError("the game is over", 409)
        seat = self.state.current_player()
        if seat != self.human:
            raise WebError(f"it is not your decision: P{seat} ({self.seats[seat]}) decides now", 409)
        if isinstance(action, bool) or not isinstance(action, int) or action not in self.state.legal_actions():
            raise WebError(f"decision {str(action)[:20]} is not legal now; choose one of the decisions offered")
        self._step(seat, action)

    def start_advance(self, submit: Callable[[Callable[[], None]], Future]) -> Future | None:
        """One agent decision, thought by ``submit(job)`` on the think pool, or None when a person
        decides, the game is over or an agent thinks already. Call it holding the lock."""
        seat = self.state.current_player()
        if self.thinking is not None or self.state.is_over() or seat == self.human:
            return None
        view, legal = self.state.view_for(seat), list(self.state.legal_actions())

        def job() -> None:
            start, action = time.thread_time(), None
            try:
                action = int(self.players[seat](view, legal))
                self.seat_cpu[seat] += time.thread_time() - start
            finally:
                with self.lock:
                    self.thinking = None
                    if action is not None and action in legal and self.state.current_player() == seat:
                        self._step(seat, action)
        self.thinking = submit(job)
        return self.thinking

    def _step(self, seat: int, action: int) -> None:
        text, before = self.state.action_to_string(action), len(chance_of(self.state))
        try:
            self.state.apply_action(action)
        except IllegalAction as e:  # the legal list said yes: a bug, but the game is unchanged
            raise WebError(f"decision refused by the rules: {e}", 409) from None
        self.decisions.append(action)
        self.moves.append({"n": len(self.decisions), "seat": seat, "text": text,
                           "chance": chance_of(self.state)[before:]})

    # ---------------------------------------------------------------- views
    def view(self, viewer: int | None, since: int = 0) -> dict[str, Any]:
        """The page's view for ``viewer`` (the person's seat, or None), with the moves from
        decision ``since`` on."""
        since = max(0, min(int(since), len(self.moves)))
        return {"kind": "live", "game": self.name, "title": self.title, "seats": self.seats, "seed": self.seed,
                "human": self.human, "decisions_made": len(self.decisions), "thinking": self.thinking is not None,
                **position(self.state, viewer, self.human),
                "moves": moves_for(self.moves[since:], viewer, self.state)}


class AnyReplay:
    """A finished :class:`AnyGame` opened for replay: frame k is the game after k decisions,
    seen by one seat (or a spectator). States are kept every :data:`SNAPSHOT_EVERY` decisions
    and played forward from there; the live game's id and token stay out."""

    def __init__(self, live: AnyGame) -> None:
        if not live.state.is_over():
            raise WebError("a game is replayed once it is over", 409)
        self.name, self.title, self.seats, self.seed = live.name, live.title, list(live.seats), live.seed
        self.human, self.actions, self.moves = live.human, list(live.decisions), list(live.moves)
        self.snapshots: list[GameState] = []  # the state after decisions 0, S, 2S, ...
        state = load_game(self.name).new_state(len(self.seats), self.seed)
        for k in range(len(self.actions) + 1):
            if k % SNAPSHOT_EVERY == 0:
                self.snapshots.append(state.clone())
            if k < len(self.actions):
                state.apply_action(self.actions[k])
        self.nbytes = GAME_BYTES + DECISION_BYTES * len(self.actions)

    def summary(self) -> dict[str, Any]:
        return {"kind": "replay", "game": self.name, "title": self.title, "seats": self.seats, "seed": self.seed,
                "human": self.human, "frames": len(self.actions) + 1}

    def state_at(self, frame: int) -> GameState:
        if isinstance(frame, bool) or not isinstance(frame, int) or not 0 <= frame <= len(self.actions):
            raise WebError(f"no frame {str(frame)[:20]}: this game has frames 0-{len(self.actions)}", 404)
        base = frame // SNAPSHOT_EVERY
        state = self.snapshots[base].clone()
        for a in self.actions[base * SNAPSHOT_EVERY:frame]:
            state.apply_action(a)
        return state

    def view(self, frame: int, viewer: int | None) -> dict[str, Any]:
        """Frame ``frame`` as seat ``viewer`` saw it (None: a spectator), with the moves up to it."""
        if viewer is not None and not 0 <= viewer < len(self.seats):
            raise WebError(f"no seat {viewer}: this game has seats 0-{len(self.seats) - 1}")
        state = self.state_at(frame)
        return {**self.summary(), "frame": frame, "decisions_made": frame, **position(state, viewer, None),
                "moves": moves_for(self.moves[:frame + 1], viewer, state)}
