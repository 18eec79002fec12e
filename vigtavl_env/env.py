"""Vigtavl as a PettingZoo AEC environment (``vigtavl_v2``): the specification.

Vigtavl is a hex-map medieval strategy board game for 2-4 players (rules v0.93 as the engine's
"rules v2" reads them, engine in ``vigtavl_env.engine``; docs/rules.md). ``env()`` is :class:`raw_env` inside
PettingZoo's standard wrappers, as in PettingZoo's classic environments::

    from vigtavl_env import env
    e = env(num_players=2, seed=7)
    e.reset()
    for agent in e.agent_iter():
        obs, reward, terminated, truncated, info = e.last()
        action = None if terminated or truncated else e.action_space(agent).sample(obs["action_mask"])
        e.step(action)

Arguments (both ``env`` and ``raw_env``; a bad value raises ValueError listing what is allowed):

- ``num_players``: 2, 3 or 4 (default: the map's, or 2).
- ``map``: a preset name (``duel``, ``triad``, ``quad``), a path to a ``.txt`` map, map text, a
  ``GameMap``, or ``"random"`` (a fresh fair map each reset, drawn from the reset's seed).
  Default: the preset for the player count.
- ``seed``: seeds the stream of game seeds used by ``reset()`` without a seed.
- ``render_mode``: ``None``, ``"human"``, ``"ansi"`` or ``"rgb_array"`` (see ``render.py``).
- ``reward``: ``"win_loss"`` (default: at the end +1 to each winner, -1 to the others, 0 to all
  on a tie of everyone), ``"tokens"`` (each step, every player gets the victory tokens he
  gained in it, acting or not) or ``"margin"`` (at the end: own tokens minus the best
  opponent's, / 10).
- ``max_steps``: decisions after which every agent is truncated (default 5000);
  ``max_cycles`` is accepted as PettingZoo's name for it.
- ``mask_in_info``: ``True`` (default) also puts the selected agent's mask in
  ``infos[agent]["action_mask"]`` (PettingZoo's classic envs do); ``False`` leaves it out, for
  libraries that build a spec from every info key (TorchRL): the mask is always in the
  observation.
- ``interrupt_codes``: ``False`` (default) gives ``infos[agent]["interrupt"]`` as text (``""``,
  ``"retaliation"``, ``"defend"``); ``True`` as an int code (0, 1, 2: ``INTERRUPT_CODES``), for
  libraries that turn every info value into a tensor (TorchRL).
- ``illegal_action``: ``env()`` takes ``"penalty"`` (default: PettingZoo's
  TerminateIllegalWrapper ends the game, -1 to the offender) or ``"raise"``; ``raw_env``
  always raises :class:`~vigtavl_env.engine.IllegalActionError` (a ValueError) naming the
  decision and the rule's reason, with the game unchanged.
- ``rules``: a dict of rule options for :class:`~vigtavl_env.engine.RulesConfig` (e.g.
  ``{"freighter_loads": [[0, 0, 0], [1, 1, 2]]}`` fixes the starting loads and skips the load
  decisions).

Agents are ``player_0`` ... ``player_{n-1}`` (seat order, ``possible_agents`` fixed).
``agent_selection`` is always the agent of the engine's ``current_player``: the player who must
decide now. Most decisions are the turn player's; two kinds come **out of turn**, and the
deciding player's own agent is then selected out of order (as in PettingZoo's card games):

- ``infos[agent]["interrupt"] == "retaliation"``: a player who lost a battle or a development
  to the active player retaliates (Retaliation section): he may activate one unit with 1 silver
  (and answer its own choices), or decline with "end turn".
- ``infos[agent]["interrupt"] == "defend"``: the owner of an attacked hex chooses which unit
  defends it (Defend: a unit on the hex, or a weaker one on a hex next to both the attacker and
  the hex), or the owner of a development or artillery about to be seized chooses a defender
  next to both, or "no defence" (the engine's ``Pending`` kinds CHOOSE_DEFENDER and
  CHOOSE_GUARD), and, when his possible defenders of the chosen type on that hex differ, which
  one (CHOOSE_VARIANT). The mask then holds only the ``choose <type>`` verbs (and "no defence" for
  a seizure), or the "choose variant" globals. With a single possible defender nobody is asked.
- ``infos[agent]["interrupt"] == "prison"``: a player who took prisoners when another player's
  decision closed a ring around that player's own units (docs/rules.md T6) chooses which of his
  equally near developments holds each (CHOOSE_PRISON), out of turn.

``interrupt`` is ``""`` (never ``None``) for every in-turn decision, including the acting player's own
follow-up choices (the side a battle move attacks from, which unit breaches or seizes, which of
several unalike units acts, where his prisoner is held or his rescued unit stands, the setup
load). When the interrupt is answered the engine hands the decision back and the
selection follows. When the game ends all agents are terminated; each is then stepped with
``None`` and removed, as in chess.

Spaces (the same objects on every call):

- action: ``Discrete(57 * HW + 12)`` over the axial tensor, ``HW = (2R + 1) ** 2``:
  6909 / 9645 / 12837 actions for 2 / 3 / 4 players (layout in ``codec.py``).
- observation: ``Dict(observation=Box(-1, 16, (C, H, W), float32),
  action_mask=Box(0, 1, (N,), int8))``; ``C = 86 + 30 P`` = 146 / 176 / 206 channels,
  ``H = W`` = 11 / 13 / 15. The mask (1 = legal) is exact and also in
  ``infos[agent]["action_mask"]``; it is all zeros for agents not to act.

Hex verbs (``index = verb * HW + tensor_cell``; ``engine/actions.py`` has the full table)::

     0- 2  place caravel / freighter / galleon (placement)   31-36  activate <type> on the hex
     3- 8  build soldier ... galleon                         37     move the active unit there
     9     build artillery                                   38     move towing the artillery
    10-12  build camp / fort / castle                        39     attack: close combat, any
    13-18  build wall on edge E NE NW W SW SE                       unit, on an adjacent hex
    19-24  take down own wall on that edge (relocation)      40     fire the artillery there
    25-30  breach the opponent wall on that edge             41     occupy the hex won / seized
    43-45  discharge soldier / archer / cavalry              42     seize the development /
    46     recruit the discharged unit's replacement                artillery on the hex
    47     shoot: the ranged attack (archer, galleon)
    48     attack from: the hex a battle move enters the enemy hex from (asked of the mover
           when several sides are possible)
    49-54  choose the soldier / archer / cavalry / caravel / freighter / galleon on the hex:
           the answer to a pending choice (who defends, who breaches, who seizes)
    55     hold prisoner: the victor's developed hex that holds his new prisoner
    56     place rescued: where the rescuer's freed unit stands

Global verbs (``index = 57 * HW + g``): 0 end activation, 1 end turn, 2 no defence (let the
development or artillery be seized), 3-5 load the two freighters with one of the three splits
of the six starting knights (``engine.stats.FREIGHTER_SPLITS``; in seat order, the first
decisions of the game, unless the rule option ``freighter_loads`` fixes them), 6-11 choose
variant 0-5: which of the unalike units of the type a decision named (upright, acting or spent;
by cargo), in the order of ``engine/variants.py``; the observation's ``variant_*`` scalars say
what each is.

Observation channels, from the observer's side (``[P]``: one per player in relative seat
order ``self, opp1, ...``; scales and details in ``observation.py`` and ``docs/observation.md``;
``env.unwrapped.channel_names`` names all ``C``)::

    board, terrain_{sea,land,mountain}                                  4 static planes
    unit_{soldier,archer,cavalry,caravel,freighter,galleon} [P]         units on the hex
    aboard_{soldier,archer,cavalry} [P]                                 knights on freighters
    spent [P], prisoner [P], dev_{camp,fort,castle} [P], artillery [P]
    wall_{E,NE,NW,W,SW,SE} [P]                                          walls by edge
    front_{E..SE}, attacks_{E..SE}, active, occupy, seized, defended    this turn's marks
    pending_cell, pending_origin, pending_attacker                      the pending choice's hexes
    wind, phase_{placement,build,battle,over}, round, builds_left,      broadcast scalars
    recruit_{soldier,archer,cavalry},
    flag_{wall_in_hand,wall_relocated,discharged,retaliation_used},
    active_move_left, active_can_attack, active_type_{6 types},
    pending_{side,defend,guard,breacher,seizer,variant,prison,rescue,load}, pending_dice,
    pending_range, variant_{0..5}_{acting,spent,soldiers,archers,cavalry},
    turn [P], retaliator [P], gold [P], silver [P], tokens [P], sunk [P],
    reserve_{caravel,freighter,galleon} [P]

A player asked to defend sees the attacked (or seized) hex, the hex the attack comes from, the
attacker's hex, the attack dice he faces (flanking and attrition included) and the range.

Worked decode (2 players, R = 5, W = 11, HW = 121): action 4529 = 37 * 121 + 52 is verb 37
(move) on tensor cell 52 = row 4, column 8, i.e. axial (q, r) = (8 - 5, 4 - 5) = (3, -1); with a
cavalry active on (2, -1), ``env.unwrapped.decode_action(4529)`` reads
``"player_0: move cavalry (2, -1) -> (3, -1)"``. Action 6898 = 57 * 121 + 1 is "end turn";
6897 + 3 = 6900 is the first load split, 6897 + 6 = 6903 "choose variant 0". ``encode_action("move", (3, -1))``,
``encode_action("choose soldier", (1, 0))``, ``encode_action("no defence")`` and
``encode_action(engine_code)`` go the other way.

Starting from a given position: ``raw_env.from_state(state, **kwargs)`` or
``reset(options={"state": state})`` (the state is cloned; its map and rules config apply).
``env.unwrapped.game_state`` is the live engine state: read it, change it only through ``step``
(legal actions are cached per step). Earlier code of this project called it
``env.unwrapped.state``; that name is now PettingZoo's ``state()`` method: the global state
tensor, the board as seat 0 sees it, for centralised critics (the game hides nothing, so it is
one of the observations). ``env.unwrapped.game_seed`` is the engine seed of the game.

Version history:

- v0: first release (rules v0.93 engine, 47 hex verbs + 2 global verbs, 41 + 30 P
  observation channels, one interrupt: retaliation).
- v1: rules v1: close combat (ATTACK, any unit) apart from the ranged attack (SHOOT, new verb
  47); the battle move's side (ATTACK_FROM, 48); answers to pending choices (CHOOSE + type,
  49-54); global verbs NO_DEFENCE (2) and the setup loads LOAD + split (3-5); the "defend"
  interrupt (who defends an attacked hex or a development about to be seized, out of turn);
  11 new observation channels for the pending choice (``pending_*``): 52 + 30 P channels,
  ``Discrete(55 * HW + 6)`` actions.
- v2: rules v2 (docs/rules.md, "What changed in v2"): which of several unalike units of one type
  acts is the player's (global verbs "choose variant 0-5", 6-11), the prison hex and a rescued
  unit's hex are the players' (hex verbs 55, 56), cross-coast defence, a defended seizure fought
  by attacks, retaliation in turn order, self-closed rings; 34 new channels (``defended``,
  ``pending_{variant,prison,rescue}``, ``variant_*``): 86 + 30 P channels, ``Discrete(57 * HW +
  12)`` actions; the "prison" interrupt.
"""

from __future__ import annotations

import random
import re
from typing import Any

import gymnasium
import numpy as np
from gymnasium import spaces
from gymnasium.utils import EzPickle
from pettingzoo import AECEnv

from . import aec_wrappers as wrappers
from .codec import ActionCodec
from .engine import IllegalActionError, RulesConfig, apply_action, describe, legal_actions, new_game
from .engine.maps import DEFAULT_PRESET, RANDOM_SPEC, GameMap, load_map
from .engine.state import CHOOSE_DEFENDER, CHOOSE_GUARD, CHOOSE_VARIANT, GameState
from .engine.version import ENV_NAME
from .observation import OBS_HIGH, OBS_LOW, ObservationEncoder
from .seats import REWARDS, seat_reward

PLAYER_COUNTS = (2, 3, 4)
ILLEGAL_ACTIONS = ("penalty", "raise")
DEFAULT_MAX_STEPS = 5000
ILLEGAL_REWARD = -1
RETALIATION = "retaliation"
DEFEND = "defend"
PRISON = "prison"
IN_TURN = ""  # info["interrupt"] of an in-turn decision
INTERRUPT_CODES = {IN_TURN: 0, RETALIATION: 1, DEFEND: 2, PRISON: 3}  # with interrupt_codes=True
DEFEND_KINDS = (CHOOSE_DEFENDER, CHOOSE_GUARD)  # pending choices asked of the defending player
SEED_BITS = 63


def env(**kwargs: Any) -> AECEnv:
    """The wrapped environment (``illegal_action="penalty"`` by default, as classic envs)."""
    illegal = kwargs.pop("illegal_action", "penalty")
    if illegal not in ILLEGAL_ACTIONS:
        raise ValueError(f"illegal_action must be one of {ILLEGAL_ACTIONS}, got {illegal!r}")
    e: AECEnv = raw_env(**kwargs)
    if illegal == "penalty":
        e = wrappers.TerminateIllegalWrapper(e, illegal_reward=ILLEGAL_REWARD)
    e = wrappers.AssertOutOfBoundsWrapper(e)
    return wrappers.OrderEnforcingWrapper(e)


class raw_env(AECEnv, EzPickle):
    """The unwrapped Vigtavl AEC environment (see the module docstring)."""

    metadata = {
        "name": ENV_NAME,
        "render_modes": ["human", "ansi", "rgb_array"],
        "is_parallelizable": False,
        "render_fps": 2,
    }

    def __init__(self, num_players: int | None = None, map: Any = None, seed: int | None = None,
                 render_mode: str | None = None, reward: str = "win_loss",
                 max_steps: int = DEFAULT_MAX_STEPS, illegal_action: str = "raise",
                 rules: dict[str, Any] | None = None, max_cycles: int | None = None,
                 mask_in_info: bool = True, interrupt_codes: bool = False) -> None:
        EzPickle.__init__(self, num_players=num_players, map=map, seed=seed, render_mode=render_mode,
                          reward=reward, max_steps=max_steps, illegal_action=illegal_action, rules=rules,
                          max_cycles=max_cycles, mask_in_info=mask_in_info, interrupt_codes=interrupt_codes)
        super().__init__()
        max_steps = _step_limit(max_steps, max_cycles)
        _check_options(render_mode, reward, max_steps, illegal_action, self.metadata["render_modes"])
        for name, flag in (("mask_in_info", mask_in_info), ("interrupt_codes", interrupt_codes)):
            if not isinstance(flag, bool):
                raise ValueError(f"{name} must be True or False, got {flag!r}")
        self.mask_in_info, self.interrupt_codes = mask_in_info, interrupt_codes
        self.render_mode, self.reward_kind, self.max_steps = render_mode, reward, int(max_steps)
        self.config = _rules_config(rules)
        self._map_spec = map
        self.gmap = self._home_map = self._first_map(num_players, map, seed)
        n = self.gmap.num_players
        self.possible_agents = [f"player_{i}" for i in range(n)]
        self.agents = self.possible_agents[:]
        self.codec = ActionCodec(self.gmap.board)
        self.encoder = ObservationEncoder(self.gmap, self.config.rounds_per_phase)
        self.channel_names: list[str] = list(self.encoder.channel_names)
        self._action_space = spaces.Discrete(self.codec.n_actions)
        self._observation_space = spaces.Dict({
            "observation": spaces.Box(OBS_LOW, OBS_HIGH, self.encoder.shape, dtype=np.float32),
            "action_mask": spaces.Box(0, 1, (self.codec.n_actions,), dtype=np.int8),
        })
        self._no_mask = np.zeros(self.codec.n_actions, dtype=np.int8)
        self._no_mask.setflags(write=False)
        self._seeder = random.Random(seed)
        self.game_state: GameState | None = None
        self.game_seed: int | None = None
        self._version = 0
        self._legal_version = -1
        self._legal: list[int] = []
        self._mask = self._no_mask
        self._steps = 0
        self._viewer: Any = None  # render.HumanViewer, made on the first human render
        self.render_coords = False  # True: rgb_array and human frames write each hex's q,r
        self.last_frame: np.ndarray | None = None

    # ------------------------------------------------------------------ construction helpers
    @staticmethod
    def _first_map(num_players: int | None, spec: Any, seed: int | None) -> Any:
        if num_players is not None and (isinstance(num_players, bool) or num_players not in PLAYER_COUNTS):
            raise ValueError(f"num_players must be one of {PLAYER_COUNTS}, got {num_players!r}")
        if spec is None:
            spec = DEFAULT_PRESET[num_players or 2]
        if isinstance(spec, GameMap):  # taken as it is (hand-made test maps need not be "playable")
            if num_players is not None and spec.num_players != num_players:
                raise ValueError(f"map {spec.name!r} is for {spec.num_players} players, not {num_players}")
            return spec
        map_seed = 0 if seed is None else int(seed)
        return load_map(spec, num_players, seed=map_seed)

    @classmethod
    def from_state(cls, state: GameState, **kwargs: Any) -> "raw_env":
        """An environment reset to (a clone of) an engine state, e.g. a Scenario position."""
        kwargs.setdefault("map", state.gmap)
        kwargs.setdefault("rules", state.config.to_dict())
        e = cls(num_players=state.n_players, **kwargs)
        e.reset(options={"state": state})
        return e

    # ------------------------------------------------------------------ spaces
    def observation_space(self, agent: str) -> spaces.Space:
        return self._observation_space

    def action_space(self, agent: str) -> spaces.Space:
        return self._action_space

    @property
    def state_space(self) -> spaces.Space:
        """The space of :meth:`state`: one observation tensor."""
        return self._observation_space["observation"]

    def state(self) -> np.ndarray:
        """PettingZoo's global state: the board as seat 0 sees it (the game hides nothing, so
        every seat's observation holds the same facts). The engine state is ``game_state``."""
        if self.game_state is None:
            raise RuntimeError("call reset() before state()")
        return self.encoder.encode(self.game_state, 0)

    # ------------------------------------------------------------------ reset
    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        """Start a new game, or with ``options={"state": state}`` play from a clone of that
        position (its map and rules; later plain resets return to this env's own map and rules).
        Other option keys are ignored."""
        if seed is not None:
            self._seeder = random.Random(seed)
        options = options or {}
        self.game_seed = self._seeder.getrandbits(SEED_BITS)
        if options.get("state") is not None:
            self.game_state = self._adopt(options["state"])
        else:
            home = self._home_map
            if self._map_spec == RANDOM_SPEC:
                home = load_map(RANDOM_SPEC, len(self.possible_agents), seed=self.game_seed)
            self._set_map(home, self.config.rounds_per_phase)
            self.game_state = new_game(self.gmap, self.config, seed=self.game_seed)
        self.agents = self.possible_agents[:]
        self.rewards = dict.fromkeys(self.agents, 0)
        self._cumulative_rewards = dict.fromkeys(self.agents, 0)
        self.terminations = dict.fromkeys(self.agents, False)
        self.truncations = dict.fromkeys(self.agents, False)
        self._steps = 0
        self._version += 1
        self._update_selection_and_infos()
        if self.render_mode == "human":
            self.render()

    def _adopt(self, state: GameState) -> GameState:
        if not isinstance(state, GameState):
            raise ValueError(f"options['state'] must be a vigtavl GameState, got {type(state).__name__}")
        if state.n_players != len(self.possible_agents):
            raise ValueError(f"the state is a {state.n_players}-player game; this env has "
                             f"{len(self.possible_agents)} players")
        if state.is_over:
            raise ValueError("the state is a finished game")
        self._set_map(state.gmap, state.config.rounds_per_phase)
        return state.clone()

    def _set_map(self, gmap: Any, rounds_per_phase: int) -> None:
        """Play on ``gmap`` (same board size): a random map, or an adopted state's map."""
        if gmap != self.gmap or rounds_per_phase != self.encoder.rounds_per_phase:
            self.gmap = gmap
            self.encoder = ObservationEncoder(gmap, rounds_per_phase)

    # ------------------------------------------------------------------ legal actions and masks
    def _legal_codes(self) -> list[int]:
        """Engine codes legal now, enumerated once per state version."""
        if self._legal_version != self._version:
            self._legal = legal_actions(self.game_state) if not self.game_state.is_over else []
            mask = self.codec.new_mask(self._legal)
            mask.setflags(write=False)
            self._mask = mask
            self._legal_version = self._version
        return self._legal

    def action_mask(self, agent: str | None = None) -> np.ndarray:
        """Read-only int8 mask of ``agent``'s legal actions (all zeros unless it must act)."""
        agent = self.agent_selection if agent is None else agent
        if agent != self.agent_selection or self._done(agent):
            return self._no_mask
        self._legal_codes()
        return self._mask

    def legal_codes(self) -> list[int]:
        """Engine codes of the selected agent's legal decisions: the list its mask was written
        from (shared, not a copy: read it, never change it)."""
        return self._legal_codes() if not self._done(self.agent_selection) else []

    def legal_action_indices(self) -> np.ndarray:
        """Env indices of the selected agent's legal actions."""
        return self.codec.legal_indices(self._legal_codes())

    def _done(self, agent: str) -> bool:
        return bool(self.terminations.get(agent, True) or self.truncations.get(agent, True))

    def _update_selection_and_infos(self) -> None:
        s = self.game_state
        if not s.is_over and self._steps < self.max_steps:  # not truncated (step's own test)
            self.agent_selection = self.possible_agents[s.current_player]
            if not self._legal_codes():
                raise RuntimeError(f"engine listed no legal action for seat {s.current_player} "
                                   f"(phase {s.phase}, round {s.round}); this is an engine bug")
        in_turn = INTERRUPT_CODES[IN_TURN] if self.interrupt_codes else IN_TURN
        if self.mask_in_info:
            self.infos = {a: {"interrupt": in_turn, "action_mask": self._no_mask} for a in self.agents}
        else:
            self.infos = {a: {"interrupt": in_turn} for a in self.agents}
        sel = self.agent_selection
        if sel in self.infos and not self._done(sel):
            kind = interrupt_kind(s)
            info: dict[str, Any] = {"interrupt": INTERRUPT_CODES[kind] if self.interrupt_codes else kind}
            if self.mask_in_info:
                info["action_mask"] = self._mask
            self.infos[sel] = info

    # ------------------------------------------------------------------ observe
    def observe(self, agent: str) -> dict[str, np.ndarray]:
        seat = self.possible_agents.index(agent)
        obs = self.encoder.encode(self.game_state, seat, key=self._version)
        return {"observation": obs, "action_mask": self.action_mask(agent).copy()}

    # ------------------------------------------------------------------ step
    def step(self, action: Any) -> None:
        agent = self.agent_selection
        if self._done(agent):
            self._was_dead_step(action)
            return
        code = self._engine_code(action)
        s = self.game_state
        tokens_before = s.tokens[:] if self.reward_kind == "tokens" else None
        legal = self._legal if self._legal_version == self._version else None
        try:
            apply_action(s, code, legal=legal)  # the mask's own list: no second enumeration
        except IllegalActionError as e:
            raise IllegalActionError(f"{agent} chose action {int(action)}: {self._named(e)}") from None
        self._version += 1
        self._steps += 1
        self._cumulative_rewards[agent] = 0
        rewards = self.rewards
        for a in rewards:  # AECEnv._clear_rewards, here where the compiled env runs it in C
            rewards[a] = 0
        if tokens_before is not None or s.is_over:  # no reward to give before the end otherwise
            self._set_rewards(tokens_before)
        if s.is_over:
            self.terminations = dict.fromkeys(self.agents, True)
        elif self._steps >= self.max_steps:
            self.truncations = dict.fromkeys(self.agents, True)
        cumulative = self._cumulative_rewards
        for a in rewards:  # AECEnv._accumulate_rewards, likewise
            cumulative[a] += rewards[a]
        if s.is_over or self._steps >= self.max_steps:
            self._deads_step_first()
        self._update_selection_and_infos()
        if self.render_mode == "human":
            self.render()

    def _engine_code(self, action: Any) -> int:
        if isinstance(action, (bool, np.bool_)):  # int(True) is 1: a bool is a caller's mistake
            raise IllegalActionError(f"{self.agent_selection} chose {action!r}: an action is an int, not a bool")
        try:
            index = int(action)
        except (TypeError, ValueError):
            raise IllegalActionError(f"{self.agent_selection} chose {action!r}: an action is an int") from None
        try:
            return self.codec.to_engine(index)
        except ValueError as e:
            raise IllegalActionError(f"{self.agent_selection} chose action {index}: {e}") from None

    def _named(self, err: Exception) -> str:
        return _agent_names(str(err))

    def _set_rewards(self, tokens_before: list[int] | None) -> None:
        """Every seat's reward for this step (``seats.seat_reward``): tokens each step, the
        other kinds once the game is over."""
        s, kind = self.game_state, self.reward_kind
        if kind != "tokens" and not s.is_over:
            return
        for i, a in enumerate(self.possible_agents):
            if a in self.rewards:
                self.rewards[a] = seat_reward(s, i, kind, tokens_before[i] if tokens_before is not None else 0)

    # ------------------------------------------------------------------ actions in words
    def decode_action(self, action: int) -> str:
        """A readable description of an env action in the current state."""
        try:
            code = self.codec.to_engine(int(action))
        except ValueError as e:
            return str(e)
        return _agent_names(describe(self.game_state, code))

    def encode_action(self, verb: str | int, at: tuple[int, int] | None = None) -> int:
        """Env action for a verb name and axial hex (``"move", (3, -1)``; ``"end turn"``), or for
        an engine code (an int)."""
        if isinstance(verb, (int, np.integer)) and not isinstance(verb, bool):
            return self.codec.to_env(int(verb))
        return self.codec.from_verb(verb, at)

    # ------------------------------------------------------------------ rendering
    def render(self) -> Any:
        from . import render as R  # Pillow is imported only by environments that draw

        if self.render_mode is None:
            gymnasium.logger.warn("You are calling render without a render_mode; pass render_mode=...")
            return None
        if self.render_mode == "ansi":
            return R.render_ansi(self.game_state)
        frame = R.render_rgb(self.game_state, coords=self.render_coords)
        if self.render_mode == "rgb_array":
            return frame
        self.last_frame = frame
        self._viewer = self._viewer or R.HumanViewer()
        self._viewer.show(frame)
        return None

    def close(self) -> None:
        if self._viewer is not None:
            self._viewer.close()


def interrupt_kind(state: GameState) -> str:
    """The kind of out-of-turn decision ``state`` asks for: ``"defend"`` (who defends an
    attacked hex or a development about to be seized), ``"retaliation"`` (the retaliating
    player's decisions, his own follow-up choices included), or ``""`` (an in-turn decision:
    a string like the others, so libraries that build specs from infos see one type)."""
    pend = state.pending
    if pend is not None:
        asked = pend.parent.kind if pend.kind == CHOOSE_VARIANT and pend.parent is not None else pend.kind
        if asked in DEFEND_KINDS:
            return DEFEND
        if pend.player not in (state.turn_player, state.retaliator):
            return PRISON  # prisoners taken out of turn (a ring another player closed)
        return RETALIATION if pend.player == state.retaliator else IN_TURN
    return RETALIATION if state.retaliator >= 0 else IN_TURN


def _agent_names(text: str) -> str:
    """Engine descriptions say "P0"; the environment says "player_0"."""
    return re.sub(r"\bP(\d)\b", r"player_\1", text)


def _step_limit(max_steps: Any, max_cycles: Any) -> Any:
    """``max_cycles`` (PettingZoo's name) in place of ``max_steps``; both only when they agree."""
    if max_cycles is None:
        return max_steps
    if max_steps not in (DEFAULT_MAX_STEPS, max_cycles):
        raise ValueError(f"give max_steps or max_cycles (the same limit), not both: "
                         f"max_steps={max_steps!r}, max_cycles={max_cycles!r}")
    return max_cycles


def _check_options(render_mode: Any, reward: Any, max_steps: Any, illegal_action: Any, modes: list[str]) -> None:
    if render_mode is not None and render_mode not in modes:
        raise ValueError(f"render_mode must be None or one of {modes}, got {render_mode!r}")
    if reward not in REWARDS:
        raise ValueError(f"reward must be one of {REWARDS}, got {reward!r}")
    if isinstance(max_steps, bool) or not isinstance(max_steps, (int, np.integer)) or max_steps < 1:
        raise ValueError(f"max_steps must be a positive int, got {max_steps!r}")
    if illegal_action != "raise":
        raise ValueError(f"raw_env always raises on illegal actions (illegal_action='raise'); "
                         f"got {illegal_action!r}: use env(illegal_action='penalty') for the "
                         "TerminateIllegalWrapper")


def _rules_config(rules: Any) -> RulesConfig:
    if rules is None:
        return RulesConfig()
    if isinstance(rules, RulesConfig):
        return rules
    if not isinstance(rules, dict):
        raise ValueError(f"rules must be a dict of RulesConfig options, got {type(rules).__name__}")
    return RulesConfig.from_dict(rules)
