"""A seeded demo game between two simple bots, printed turn by turn in the rules' words.

    python -m tools.demo [--seed S] [--players N] [--map NAME] [--bot eager|random]

Each turn gets a header (phase, round, player, gold, silver, tokens) and the narrated events of
the turn; the end shows the end awards, the final tokens and the winner(s).

The bots live here for now (a real bot ladder comes later); both have the signature
``bot(state, legal, rng) -> action``:

- ``random_bot`` picks uniformly among the legal decisions.
- ``eager_bot`` first picks a *verb* with a weight that prefers attacking, seizing, occupying,
  building and activating over ending the turn, then a uniform hex for that verb. Choosing the
  verb first keeps verbs with many hexes (moves) from drowning the rest. The answers to choices
  (the setup loads, who defends, the battle side, which unit breaches or seizes) weigh 1: when
  one is asked nothing else is legal, so the pick among them is uniform ("no defence" too).
"""

from __future__ import annotations

import argparse
import random
from collections.abc import Callable

from vigtavl_env.engine import actions as A
from vigtavl_env.engine import apply_action, legal_actions, new_game
from vigtavl_env.engine.maps import DEFAULT_PRESET, load_map
from vigtavl_env.engine.narrate import narrate
from vigtavl_env.engine.state import GameState

Bot = Callable[[GameState, list[int], random.Random], int]

# Verb weights of the eager bot (unlisted verbs weigh 1).
EAGER_WEIGHTS = {
    A.OCCUPY: 30.0, A.SEIZE: 30.0, A.ATTACK: 20.0, A.SHOOT: 20.0, A.FIRE_ARTILLERY: 20.0, A.MOVE: 6.0,
    A.MOVE_ARTILLERY: 2.0, A.BUILD_ARTILLERY: 3.0, A.RECRUIT: 1.0,
    **{A.BUILD_DEV + i: 6.0 for i in range(3)},
    **{A.BUILD_UNIT + i: 4.0 for i in range(6)},
    **{A.BUILD_WALL + i: 1.5 for i in range(6)},
    **{A.BREACH + i: 8.0 for i in range(6)},
    **{A.ACTIVATE + i: 5.0 for i in range(6)},
    **{A.RELOCATE_WALL + i: 0.1 for i in range(6)},
    **{A.DISCHARGE + i: 0.1 for i in range(3)},
}
END_ACTIVATION_WEIGHT = 1.0
END_TURN_WEIGHT = 0.3
QUIET_EVENTS = frozenset({"end_activation", "retaliation_over", "setup", "turn", "game_over"})
END_AWARDS = frozenset({"general", "admiral", "builder"})


def random_bot(state: GameState, legal: list[int], rng: random.Random) -> int:
    """Any legal decision, uniformly."""
    return rng.choice(legal)


def eager_bot(state: GameState, legal: list[int], rng: random.Random) -> int:
    """A verb by weight (attacks and seizes first, ending the turn last), then a random hex."""
    n = state.gmap.board.n_cells
    by_verb: dict[int, list[int]] = {}
    for code in legal:
        verb, _, g = A.decode(code, n)
        by_verb.setdefault(verb if g < 0 else -1 - g, []).append(code)
    keys = list(by_verb)
    weights = [_eager_weight(k) for k in keys]
    choice = rng.choices(keys, weights)[0]
    return rng.choice(by_verb[choice])


def _eager_weight(key: int) -> float:
    if key == -1 - A.END_TURN:
        return END_TURN_WEIGHT
    if key == -1 - A.END_ACTIVATION:
        return END_ACTIVATION_WEIGHT
    return EAGER_WEIGHTS.get(key, 1.0)


BOTS: dict[str, Bot] = {"eager": eager_bot, "random": random_bot}


def play(state: GameState, bots: list[Bot], rng: random.Random, out: Callable[[str], None] = print) -> None:
    """Play ``state`` to the end, printing each turn's header and narrated events."""
    seen = 0
    in_end = False
    out(f"Map {state.gmap.name!r}, {state.n_players} players; {narrate(state.events[0], state)}")
    out("\n=== Setup: each player loads his two freighters, then in turn places one ship on a sea hex ===")
    seen = 1
    while not state.is_over:
        p = state.current_player
        apply_action(state, bots[p % len(bots)](state, legal_actions(state), rng))
        for e in state.events[seen:]:
            kind = e["event"]
            if kind == "turn":
                out("")
                out(_header(state, e))
            elif kind == "award" and e.get("award") in END_AWARDS and not in_end:
                in_end = True
                out("\n=== End of the game: end awards ===")
            if kind not in QUIET_EVENTS:
                out(f"  {narrate(e, state)}")
        seen = len(state.events)
    _summary(state, out)


def _header(state: GameState, e: dict) -> str:
    p = e["player"]
    tokens = " ".join(f"P{q}:{t}" for q, t in enumerate(state.tokens))
    return (f"=== {str(e['phase']).capitalize()} phase, round {e['round'] + 1}: P{p}'s turn "
            f"(gold {state.gold[p]}, silver {state.silver[p]}; tokens {tokens}) ===")


def _summary(state: GameState, out: Callable[[str], None]) -> None:
    over = state.events[-1]
    out("\n=== Result ===")
    won: dict[int, list[str]] = {p: [] for p in range(state.n_players)}
    for e in state.events:
        if e["event"] == "award":
            won[e["player"]].append(f"{str(e['award']).replace('_', ' ')} {e['tokens']}")
    for p, t in enumerate(state.tokens):
        awards = f" (awards: {', '.join(won[p])})" if won[p] else ""
        out(f"  P{p}: {t} victory tokens{awards}")
    w = over.get("winners", [])
    out("  Winner: " + (f"P{w[0]}" if len(w) == 1 else "tie between " + " and ".join(f"P{p}" for p in w)))
    out(f"  ({state.decisions} decisions, {state.turns_played} turns)")


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--seed", type=int, default=1, help="game, map and bot seed")
    ap.add_argument("--players", type=int, default=2, choices=(2, 3, 4))
    ap.add_argument("--map", default=None, help="preset name, map file or 'random' (default: the preset)")
    ap.add_argument("--bot", default="eager", choices=sorted(BOTS), help="the bot every player uses")
    args = ap.parse_args(argv)
    gmap = load_map(args.map or DEFAULT_PRESET[args.players], args.players, seed=args.seed)
    state = new_game(gmap, seed=args.seed)
    play(state, [BOTS[args.bot]] * args.players, random.Random(args.seed))


if __name__ == "__main__":
    main()
