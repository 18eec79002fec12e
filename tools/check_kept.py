"""What the engine keeps between decisions changes no legal list: a check over many games.

The engine records what each decision changed -- a new stamp for a group of tables whenever one
of them is written (``GameState.unit_stamp``, ``dev_stamp``, ``wall_stamp``) -- and keeps five
facts in the state from one decision to the next, used again while their stamps are unchanged
(issue 30's first item): the hexes around each player's developments (``GameState.near_memo``),
each player's walls by direction (``GameState.walls_memo``), the hexes each player's units guard
(``GameState.guards_memo``), the deciding player's units grouped for the verbs
(``GameState.mine_memo``) and the active unit's movement search (``GameState.reach_memo``).
This plays games -- uniformly random, heuristic bots, or a mix drawn seat by seat -- and after
every decision checks both: the record (a group whose tables changed has a new stamp) and the
legal list (equal to the one a clone of the same state enumerates with nothing kept). The tests
run it on a few games (``tests/test_speed_invariants.py``); this command runs it on thousands::

    python -m tools.check_kept --games 2000 --agents random,greedy,aggressor,builder
"""

from __future__ import annotations

import argparse
import random
import sys
from collections.abc import Sequence

from tqdm import tqdm

from vigtavl_env.agent import EngineAgent, make_named_agent
from vigtavl_env.engine import GameMap, GameState, apply_action, legal_actions, load_map, new_game
from vigtavl_env.env import DEFAULT_MAX_STEPS

MAX_GAMES = 100_000
PRESETS = {2: "duel", 3: "triad", 4: "quad"}


class KeptMismatch(AssertionError):
    """A legal list that differs from a fresh enumeration of the same state, or a change the
    record missed."""


def table_groups(state: GameState) -> list[tuple[str, int, bytes]]:
    """(stamp name, stamp, contents) for each group of tables the record covers: the units (with
    who is active), the developments and artillery, the walls."""
    units = b"".join([bytes(t) for t in (state.u_owner, state.u_type, state.u_cell, state.u_where, state.u_carrier,
                                          state.u_holder, state.u_flags)])
    units += bytes(repr([a.unit for a in state.stack]), "ascii")
    devs = b"".join([bytes(state.dev_type), bytes(state.dev_owner), bytes(state.dev_builder),
                     bytes(state.art_owner)])
    walls = bytes(state.walls) + bytes(state.wall_builder)
    return [("unit_stamp", state.unit_stamp, units), ("dev_stamp", state.dev_stamp, devs),
            ("wall_stamp", state.wall_stamp, walls)]


def missed_changes(before: list[tuple[str, int, bytes]], state: GameState) -> list[str]:
    """The groups whose tables changed since ``before`` (``table_groups`` of the same state
    earlier) while their stamp stayed the same: changes the record missed."""
    return [name for (name, stamp, was), (_, now_stamp, now) in zip(before, table_groups(state))
            if was != now and stamp == now_stamp]


def forgetful_clone(state: GameState) -> GameState:
    """A copy of ``state`` that keeps nothing from earlier decisions."""
    fresh = state.clone(keep_events=False)
    fresh.near_memo = [None] * fresh.n_players
    fresh.walls_memo = [None] * fresh.n_players
    fresh.guards_memo = [None] * fresh.n_players
    fresh.mine_memo = None
    fresh.reach_memo = None
    return fresh


def check_game(gmap: GameMap, agents: Sequence[str], seed: int) -> int:
    """Play one game, ``agents[seat]`` in each seat (``"random"`` or an engine bot's name), and
    compare the legal list with a fresh one after every decision; the decisions checked. A
    :class:`KeptMismatch` names the first difference."""
    rng = random.Random(seed)
    bots: list[EngineAgent | None] = []
    for seat, name in enumerate(agents):
        if name == "random":
            bots.append(None)
            continue
        bot = make_named_agent(name, seed=seed + seat)
        if not isinstance(bot, EngineAgent):
            raise ValueError(f"{name!r} does not decide from the engine state; use random or a bot (greedy, ...)")
        bot.reset(seat, seed + seat)
        bots.append(bot)
    state = new_game(gmap, seed=seed)
    state.record_events = False
    checked = 0
    while not state.is_over and checked < DEFAULT_MAX_STEPS:  # cut off where the env truncates
        before = table_groups(state)
        legal = legal_actions(state)
        fresh = legal_actions(forgetful_clone(state))
        if legal != fresh:
            only_kept = sorted(set(legal) - set(fresh))[:5]
            only_fresh = sorted(set(fresh) - set(legal))[:5]
            raise KeptMismatch(f"game seed {seed}, decision {checked}: the kept legal list differs from a fresh one "
                               f"(only kept: {only_kept}, only fresh: {only_fresh})")
        bot = bots[state.current_player]
        code = legal[rng.randrange(len(legal))] if bot is None else bot.decide(state, legal)
        apply_action(state, code, legal=legal)
        missed = missed_changes(before, state)
        if missed:
            raise KeptMismatch(f"game seed {seed}, decision {checked}: the tables of {', '.join(missed)} "
                               "changed and the stamp did not")
        checked += 1
    return checked


def check_games(games: int, agents: Sequence[str], players: Sequence[int], seed: int,
                progress: bool = True) -> tuple[int, int]:
    """``games`` games, each with a player count from ``players`` and each seat's agent drawn
    from ``agents``; (games, decisions) checked."""
    maps = {p: load_map(PRESETS[p]) for p in players}
    draw = random.Random(seed)
    decisions = 0
    for g in tqdm(range(games), desc="games checked", unit="game", disable=not progress):
        p = players[g % len(players)]
        lineup = [draw.choice(agents) for _ in range(p)]
        decisions += check_game(maps[p], lineup, seed + g)
    return games, decisions


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="python -m tools.check_kept", description=__doc__.split("\n\n")[0])
    ap.add_argument("--games", type=int, default=200, help=f"games to play, 1..{MAX_GAMES} (default 200)")
    ap.add_argument("--agents", default="random,greedy,aggressor,builder",
                    help="comma-separated agents drawn for each seat: random or engine bots (default %(default)s)")
    ap.add_argument("--players", default="2,3,4", help="player counts, taken in turn (default %(default)s)")
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--no-progress", action="store_true", help="no progress bar")
    args = ap.parse_args(argv)
    if not 1 <= args.games <= MAX_GAMES:
        ap.error(f"--games must be 1..{MAX_GAMES}, got {args.games}")
    agents = [a.strip() for a in args.agents.split(",") if a.strip()]
    if not agents:
        ap.error("--agents needs at least one agent")
    try:
        players = [int(p) for p in args.players.split(",")]
    except ValueError:
        ap.error(f"--players takes player counts such as 2,3,4, got {args.players!r}")
    if not players or any(p not in PRESETS for p in players):
        ap.error(f"--players takes player counts among 2, 3 and 4, got {args.players!r}")
    try:
        games, decisions = check_games(args.games, agents, players, args.seed, progress=not args.no_progress)
    except (KeptMismatch, ValueError) as e:
        print(f"check_kept: {e}", file=sys.stderr)
        return 1
    print(f"{decisions:,} decisions of {games:,} games ({', '.join(agents)}; {args.players} players): "
          "every change recorded, every legal list equal to a fresh enumeration")
    return 0


if __name__ == "__main__":
    sys.exit(main())
