"""Vigtavl behind the game interface (:mod:`games.interface`): the first game registered in the
``vigtavl.games`` entry-point group.

A thin adapter over the engine (:mod:`vigtavl_env.engine`), the action codec
(:mod:`vigtavl_env.codec`) and the observation encoder (:mod:`vigtavl_env.observation`).
Actions here are the environment's indices (``0 .. num_actions-1``, the mask's positions), not
the engine's codes. Vigtavl hides nothing, so every seat sees the same facts; the dice
generator's state (tomorrow's dice) is left out of every seat's view.
"""

from __future__ import annotations

import functools
import random
from types import ModuleType
from typing import Any

import numpy as np

from games.choices import Choice
from games.interface import Game, GameState, IllegalAction, json_digest

from .choices import asked, normalize, ordered_choices
from .board_tools import BoardTools, tools_for
from .engine import returns as engine_returns
from .engine.config import RulesConfig
from .engine.game import apply_action, describe, legal_actions, new_game
from .engine.maps import DEFAULT_PRESET, GameMap, format_map, list_presets, load_map, parse_map
from .engine.narrate import narrate
from .engine.serialize import from_dict, to_dict
from .engine.state import MASK64, PHASE_NAMES
from .engine.state import GameState as EngineState
from .engine.tokens import TOKEN_SOURCES, token_sheet
from .engine.version import ENV_NAME, file_version
from .env import DEFAULT_MAX_STEPS, PLAYER_COUNTS, SEED_BITS, interrupt_kind
from .game_steps import GAME_STEPS, EngineGameSteps
from .observation import ChannelLayout

# map: a preset's name, a map's text, "random" or a GameMap; map_name: the name a map's text is
# given (a results file records both); engine_seed: the engine's own seed, else drawn from seed
OPTIONS = ("map", "map_name", "rules", "max_steps", "engine_seed")


class VigtavlState(GameState):
    """An engine state, its decision count and the tools that read it (shared per map)."""

    __slots__ = ("engine", "steps", "max_steps", "_tools", "engine_seed")

    def __init__(self, engine: EngineState, tools: BoardTools, max_steps: int, steps: int = 0,
                 engine_seed: int | None = None) -> None:
        self.engine, self._tools, self.max_steps, self.steps = engine, tools, max_steps, steps
        self.engine_seed = engine_seed  # the seed new_game got (None: unknown, a loaded state)

    @property
    def num_players(self) -> int:
        return self.engine.n_players

    def current_player(self) -> int:
        return -1 if self.is_over() else self.engine.current_player

    def interrupt(self) -> str | None:
        return interrupt_kind(self.engine) or None

    def prompt(self) -> str:
        return asked(self.engine, self.interrupt() or "")

    def status(self, seat: int) -> str:
        e = self.engine
        return (f"gold {e.gold[seat]}, silver {e.silver[seat]}, tokens {e.tokens[seat]}.  "
                f"{PHASE_NAMES[e.phase]} phase, round {e.round + 1}.")

    def choices(self, legal: list[int]) -> list[Choice]:
        return ordered_choices(self.engine, self._tools.codec, legal)

    def read_command(self, text: str) -> str:
        return normalize(text)  # hexes as q,r, wall edges by name

    def legal_actions(self) -> list[int]:
        if self.is_over():
            return []
        return self._tools.codec.legal_indices(legal_actions(self.engine)).tolist()

    def apply_action(self, action: int) -> None:
        if self.is_over():
            raise IllegalAction("the game is over")
        try:
            code = self._tools.codec.to_engine(int(action))
        except (TypeError, ValueError) as e:
            raise IllegalAction(f"action {action!r}: {e}") from None
        try:
            apply_action(self.engine, code)
        except ValueError as e:
            raise IllegalAction(str(e)) from None
        self.steps += 1

    def action_to_string(self, action: int) -> str:
        try:
            return describe(self.engine, self._tools.codec.to_engine(int(action)))
        except (TypeError, ValueError) as e:
            return str(e)

    def recorded_action(self, code: int) -> int:
        """The env index of an engine code (what Vigtavl's results files record)."""
        try:
            return self._tools.codec.to_env(int(code))
        except (TypeError, ValueError) as e:
            raise IllegalAction(str(e)) from None

    def action_for_record(self, action: int) -> int:
        return self._tools.codec.to_engine(int(action))

    def narrate(self, since: int = 0) -> list[tuple[bool, str]]:
        return [(e.get("event") == "turn", narrate(e, self.engine)) for e in self.engine.events[since:]]

    def chance_events(self, since: int = 0) -> list[dict[str, Any]]:
        return [e for e in self.engine.events if e.get("event") in CHANCE_EVENTS][since:]

    def reseed(self, seed: int) -> None:
        self.engine.rng = int(seed) & MASK64
        self.engine.forced_dice = []

    def is_terminal(self) -> bool:
        return self.engine.is_over

    def is_truncated(self) -> bool:
        return not self.engine.is_over and self.steps >= self.max_steps

    def returns(self) -> list[float]:
        return engine_returns(self.engine)

    def scores(self) -> dict[str, list[float]]:
        sheet = token_sheet(self.engine)
        out: dict[str, list[float]] = {"tokens": [float(t) for t in self.engine.tokens]}
        for name in TOKEN_SOURCES:
            out[name] = [float(s[name]) for s in sheet]
        return out

    def clone(self) -> "VigtavlState":
        return VigtavlState(self.engine.clone(), self._tools, self.max_steps, self.steps, self.engine_seed)

    def view_for(self, seat: int) -> "VigtavlState":
        return self.clone()  # a game of full information

    def to_dict(self) -> dict[str, Any]:
        return {"game": VigtavlGame.name, "version": VigtavlGame.version, "steps": self.steps,
                "max_steps": self.max_steps, "state": to_dict(self.engine)}

    def digest(self) -> str:
        return engine_digest(self.engine)

    def start_options(self) -> dict[str, Any]:
        """The engine seed, the map (its name for an unchanged preset, else its text and name)
        and the rules: what a results file records to deal this game again."""
        gmap = self.engine.gmap
        preset = gmap.name in _preset_names() and _preset(gmap.name, gmap.num_players) == gmap
        where = {"map": gmap.name} if preset else {"map": format_map(gmap), "map_name": gmap.name}
        return where | {"rules": self.engine.config.to_dict(), "engine_seed": self.engine_seed}

    def observation(self, seat: int) -> np.ndarray:
        return self._tools.encoder(self.engine).encode(self.engine, seat)

    def public_view(self, seat: int | None) -> dict[str, Any]:
        d = to_dict(self.engine)
        d.pop("dice", None)  # the generator's state is tomorrow's dice: nobody's to see
        d["current_player"] = self.current_player()
        d["interrupt"] = self.interrupt()
        return d

    def render(self, mode: str = "ansi", seat: int | None = None, coords: bool = False) -> Any:
        from . import render as R  # Pillow only when drawing
        if mode == "ansi":
            return R.render_ansi(self.engine, coords=coords)
        if mode == "rgb_array":
            return R.render_rgb(self.engine, coords=coords)
        raise ValueError(f"render mode must be 'ansi' or 'rgb_array', got {mode!r}")


@functools.lru_cache(maxsize=16)
def _preset(name: str, num_players: int) -> GameMap:
    """A preset map, loaded once per process (maps are read-only): every new game and every
    game's record asks."""
    return load_map(name, num_players)


@functools.lru_cache(maxsize=1)
def _preset_names() -> frozenset[str]:
    return frozenset(list_presets())


def engine_digest(engine: EngineState) -> str:
    """A short hash of everything in an engine state but its event log (results files record
    the final state's)."""
    d = to_dict(engine)
    d.pop("events", None)
    return json_digest(d)


# The events that carry a random outcome: the winds' flip at the setup, a battle's and a breach's
# dice; the others are decisions' effects.
CHANCE_EVENTS = frozenset({"setup", "battle", "breach"})


class VigtavlGame(Game):
    """Vigtavl: 2-4 players on a hex map (``vigtavl_env/engine``)."""

    name = "vigtavl"
    title = "Vigtavl"
    version = ENV_NAME
    min_players, max_players, default_players = min(PLAYER_COUNTS), max(PLAYER_COUNTS), 2
    planar_actions = True  # verb * HW + cell over the axial tensor (codec.py)
    default_max_steps = DEFAULT_MAX_STEPS

    def option_names(self) -> list[str]:
        return list(OPTIONS)

    def file_version(self, value: Any) -> str:
        return file_version(value)  # older files wrote integers

    @property
    def web(self) -> ModuleType:
        """Vigtavl's own tools for the web app (:mod:`vigtavl_env.web`: its env, maps, board and
        move views), imported on first use: the web app's one way to Vigtavl's modules."""
        from . import web
        return web

    def search_steps(self) -> EngineGameSteps:
        """Vigtavl's engine-bound step functions (:mod:`vigtavl_env.game_steps`)."""
        return GAME_STEPS

    def single_seat_env(self, **options: Any) -> Any:
        """Vigtavl's :class:`~vigtavl_env.wrappers.SingleSeatEnv` (its reward shaping, bots and
        frozen policies as opponents, ``info["tokens"]``), the learner in seat 0 against no one
        until told; ``options`` are its keywords (num_players, map, reward, max_steps ...)."""
        from .wrappers import SingleSeatEnv
        return SingleSeatEnv(opponents=None, seat=0, **options)

    def vector_env(self, num_envs: int, **options: Any) -> Any:
        """Vigtavl's batched :class:`~vigtavl_env.vector.VigtavlVectorEnv` (a Stable-Baselines3
        ``VecEnv``); ``options`` are its keywords."""
        from .vector import VigtavlVectorEnv
        return VigtavlVectorEnv(num_envs=num_envs, **options)

    def seat_table(self, **options: Any) -> Any:
        """Vigtavl's :class:`~vigtavl_env.wrappers.SeatTable` (its bots inside, its reward
        shaping); ``options`` are :class:`~vigtavl_env.env.raw_env`'s keywords."""
        from .wrappers import SeatTable
        return SeatTable(**options)

    def new_state(self, num_players: int | None = None, seed: int = 0, **options: Any) -> VigtavlState:
        unknown = sorted(set(options) - set(OPTIONS))
        if unknown:
            raise ValueError(f"unknown {self.name} option(s) {unknown}; known: {list(OPTIONS)}")
        n = self.check_players(num_players)
        # the game the environment plays after reset(seed=seed): one seed, one game, in every layer
        game_seed = options.get("engine_seed")
        if game_seed is None:
            game_seed = random.Random(int(seed)).getrandbits(SEED_BITS)
        spec = options.get("map") or DEFAULT_PRESET[n]
        if options.get("map_name") is not None:  # a recorded map's text: as it was played
            gmap = parse_map(spec, name=options["map_name"])
        else:
            gmap = (_preset(spec, n) if isinstance(spec, str) and spec in _preset_names()
                    else spec if isinstance(spec, GameMap) else load_map(spec, n, seed=game_seed))
        rules = options.get("rules")
        config = rules if isinstance(rules, RulesConfig) else RulesConfig.from_dict(dict(rules or {}))
        max_steps = options.get("max_steps", DEFAULT_MAX_STEPS)
        if isinstance(max_steps, bool) or not isinstance(max_steps, int) or max_steps < 1:
            raise ValueError(f"max_steps must be a positive int, got {max_steps!r}")
        return self.wrap(new_game(gmap, config, seed=game_seed), max_steps, engine_seed=game_seed)

    def wrap(self, engine: EngineState, max_steps: int = DEFAULT_MAX_STEPS, steps: int = 0,
             engine_seed: int | None = None) -> VigtavlState:
        """An engine state behind the interface (no copy); ``engine_seed``: the seed it was dealt with."""
        return VigtavlState(engine, tools_for(engine), max_steps, steps, engine_seed)

    def load(self, data: Any) -> VigtavlState:
        d = self.check_version(data)
        steps, max_steps = d.get("steps", 0), d.get("max_steps", DEFAULT_MAX_STEPS)
        if not all(isinstance(x, int) and not isinstance(x, bool) and x >= 0 for x in (steps, max_steps)):
            raise ValueError("steps and max_steps must be non-negative ints")
        return self.wrap(from_dict(d.get("state")), max(1, max_steps), steps)

    def num_actions(self, state: GameState) -> int:
        return tools_for(_engine(state)).codec.n_actions

    def observation_shape(self, state: GameState) -> tuple[int, int, int]:
        eng = _engine(state)
        return tuple(tools_for(eng).encoder(eng).shape)

    def channel_names(self, num_players: int) -> list[str]:
        return ChannelLayout(self.check_players(num_players)).names


def _engine(state: GameState) -> EngineState:
    if not isinstance(state, VigtavlState):
        raise ValueError(f"not a {VigtavlGame.name} state: {type(state).__name__}")
    return state.engine
