"""Engine speed: random legal play with the rules engine, beside two peer engines in the same run.

    python -m tools.bench [--rounds R] [--seconds T] [--games N] [--seed S]   (also ``make bench``)

The project's machines are shared and noisy, so every figure is measured beside a peer in the
same run, in alternating rounds (the load of the moment falls on every engine alike), and the
verdict is read from the medians and from the ratios. Three parts:

1. **Beside the peers** (2-player ``duel``): ``R`` rounds; in each, every engine plays whole
   seeded games of uniform random legal play for about ``T`` seconds, one after the other:
   Vigtavl (``new_game``; ``legal_actions``, a pick with ``random.Random``, ``apply_action`` with
   the legal list, as an environment would; events recorded, the engine's default), Catanatron's
   pure-Python Catan engine (2 ``RandomPlayer`` seats, its own ``play_tick`` loop: validation of
   the action against its playable list included, as ``Game.play`` runs it; a game ends with a
   winner or at its turn limit) and OpenSpiel's C++ chess through ``pyspiel``
   (``legal_actions``, a pick, ``apply_action``). Reported: medians over the rounds of
   decisions (actions, moves) per wall second and per CPU second, games/s, and the ratios
   Vigtavl / peer as the median of the per-round ratios of the CPU rates.
2. **Every preset map** (2, 3 and 4 players): ``N`` seeded games each, once (thousands of games
   are also a check that every game finishes).
3. **Single operations** on the 2-player map, over states sampled from random play, ``R``
   rounds alternating with the peers' own: ``clone()``, ``legal_actions``, ``apply_action`` (on
   a prepared clone, so the copy is not counted) and the observation encoder
   (``ObservationEncoder.encode(state, observer)`` with no cache key, so nothing is reused
   between calls; it still draws each state over the planes of the state encoded before it, as
   in an environment); beside them OpenSpiel chess's ``State.clone()`` and ``legal_actions()``
   and Catanatron's ``Game.copy()``.

The aims are the project's performance targets (``docs/benchmarks.md``): the engine >= 60,000
decisions/s and >= 3x Catanatron's engine in the same run; ``clone()`` <= 5 us, the legal list
<= 15 us, the observation <= 15 us. The verdicts use the CPU figures (the wall figures fall when
other work shares the machine). A peer that is not installed is skipped with one line saying how
to install it (``pip install -e '.[bench]'`` installs both).
"""

from __future__ import annotations

import argparse
import os
import random
import statistics
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from tqdm import tqdm

from vigtavl_env import compiled
from vigtavl_env.engine import apply_action, legal_actions, new_game
from vigtavl_env.engine.maps import DEFAULT_PRESET, load_map
from vigtavl_env.engine.state import GameState
from vigtavl_env.observation import ObservationEncoder

# The performance aims for the 2-player map (docs/benchmarks.md).
TARGET_DECISIONS_PER_S = 60_000
TARGET_VS_CATANATRON = 3.0  # Vigtavl decisions/s over Catanatron actions/s, same run
TARGET_CLONE_US = 5
TARGET_LEGAL_US = 15
TARGET_OBSERVATION_US = 15
SAMPLE_EVERY = 5  # decisions between sampled states for the micro-benchmarks
MICRO_REPEATS = 3  # passes over the sampled states per micro-benchmark and round
PEER_SAMPLE_GAMES = 4  # peer games whose states the peer micro-benchmarks use
CATAN_PLAYERS = 2
CATAN_SAMPLE_EVERY = 50  # its games are long (about 850 actions): fewer samples each
CATAN_MAX_TICKS = 10_000  # a bound on a sampled game
GAME_OVER = 3  # GameState.phase when the game is over

PlayOne = Callable[[int], int]  # game number -> decisions made in that seeded game
Timers = dict[str, Callable[[], tuple[float, float]]]  # name -> a run giving (wall, CPU) us per call


# ------------------------------------------------------------------ the engines' random play
def vigtavl_game(gmap: Any, seed: int) -> PlayOne:
    """Uniform random legal play of game ``g`` (engine seed and pick seed ``seed + g``)."""
    def play(g: int) -> int:
        rng = random.Random(seed + g)
        state = new_game(gmap, seed=seed + g)
        n = 0
        while state.phase != GAME_OVER:
            legal = legal_actions(state)
            apply_action(state, rng.choice(legal), legal)
            n += 1
        return n
    return play


def catanatron_game(seed: int) -> PlayOne | None:
    """Catanatron random play (None when it is not installed). Its ``Game`` seeds the process's
    global ``random`` (its players draw from it); game ``g`` gets seed ``seed + g + 1``, as 0
    would mean "unseeded" to it."""
    try:
        from catanatron import Color, Game, RandomPlayer
        from catanatron.game import TURNS_LIMIT
    except ImportError:
        return None
    colors = list(Color)[:CATAN_PLAYERS]

    def play(g: int) -> int:
        game = Game([RandomPlayer(c) for c in colors], seed=seed + g + 1)
        n = 0
        while game.winning_color() is None and game.state.num_turns < TURNS_LIMIT:
            game.play_tick()
            n += 1
        return n
    return play


def pyspiel_chess(seed: int) -> PlayOne | None:
    """OpenSpiel chess random play through ``pyspiel`` (None when it is not installed)."""
    try:
        import pyspiel
    except ImportError:
        return None
    game = pyspiel.load_game("chess")

    def play(g: int) -> int:
        rng = random.Random(seed + g)
        state = game.new_initial_state()
        n = 0
        while not state.is_terminal():
            legal = state.legal_actions()
            state.apply_action(legal[rng.randrange(len(legal))])
            n += 1
        return n
    return play


PEERS = {  # name -> (figure's unit, how to install it)
    "Catanatron": ("actions", "pip install catanatron"),
    "pyspiel chess": ("moves", "pip install open-spiel"),
}


# ------------------------------------------------------------------ rounds
@dataclass
class Rates:
    """One engine's rounds: decisions, games, wall and CPU seconds of each."""

    name: str
    unit: str
    rounds: list[tuple[int, int, float, float]] = field(default_factory=list)
    next_game: int = 0

    def play_for(self, play: PlayOne, seconds: float = 0.0, games: int | None = None) -> None:
        """One round: whole games from ``next_game`` on, until ``seconds`` of wall time have
        passed (at least one game), or exactly ``games`` games when given."""
        decisions = played = 0
        t0, c0 = time.perf_counter(), time.process_time()
        while True:
            decisions += play(self.next_game)
            self.next_game += 1
            played += 1
            if played == games or (games is None and time.perf_counter() - t0 >= seconds):
                break
        self.rounds.append((decisions, played, time.perf_counter() - t0, time.process_time() - c0))

    def wall(self) -> list[float]:
        return [d / w for d, _, w, _ in self.rounds]

    def cpu(self) -> list[float]:
        return [d / c for d, _, _, c in self.rounds]

    def games_per_s(self) -> float:
        return statistics.median(g / w for _, g, w, _ in self.rounds)

    def per_game(self) -> float:
        return sum(r[0] for r in self.rounds) / sum(r[1] for r in self.rounds)


def alternate(engines: dict[str, tuple[str, PlayOne]], rounds: int, seconds: float) -> dict[str, Rates]:
    """``rounds`` rounds; in each, every engine plays for ``seconds`` in turn."""
    out = {name: Rates(name, unit) for name, (unit, _) in engines.items()}
    quiet = not sys.stderr.isatty()
    for _ in tqdm(range(rounds), desc="alternating rounds", file=sys.stderr, leave=False, disable=quiet):
        for name, (_, play) in engines.items():
            out[name].play_for(play, seconds)
    return out


def ratio(a: Rates, b: Rates) -> float:
    """Median over the rounds of a's CPU rate over b's in the same round."""
    return statistics.median(x / y for x, y in zip(a.cpu(), b.cpu()))


# ------------------------------------------------------------------ single operations
def sample_states(gmap: Any, games: int, seed: int) -> list[GameState]:
    """States met in random play, every SAMPLE_EVERY decisions (game over excluded)."""
    rng = random.Random(seed)
    out = []
    for g in range(games):
        state = new_game(gmap, seed=seed + g)
        k = 0
        while state.phase != GAME_OVER:
            legal = legal_actions(state)
            if k % SAMPLE_EVERY == 0:
                out.append(state.clone())
            apply_action(state, rng.choice(legal), legal)
            k += 1
    return out


def per_call(fn: Callable[[Any], Any], items: list[Any], repeats: int = MICRO_REPEATS) -> tuple[float, float]:
    """(wall, CPU) microseconds per call of ``fn`` over ``items``, ``repeats`` passes."""
    t0, c0 = time.perf_counter(), time.process_time()
    for _ in range(repeats):
        for x in items:
            fn(x)
    n = repeats * len(items)
    return (time.perf_counter() - t0) / n * 1e6, (time.process_time() - c0) / n * 1e6


def vigtavl_micro(states: list[GameState], seed: int) -> Timers:
    """The engine's single operations, each a timer over the sampled states."""
    rng = random.Random(seed)
    enc = ObservationEncoder(states[0].gmap, states[0].config.rounds_per_phase)

    def applies() -> tuple[float, float]:
        work = []
        for _ in range(MICRO_REPEATS):
            for s in states:
                codes = legal_actions(s)
                work.append((s.clone(), rng.choice(codes), codes))
        return per_call(lambda w: apply_action(*w), work, repeats=1)

    return {
        "clone": lambda: per_call(GameState.clone, states),
        "legal": lambda: per_call(legal_actions, states),
        "apply": applies,
        "observation": lambda: per_call(lambda s: enc.encode(s, max(s.current_player, 0)), states),
    }


def peer_micro(seed: int) -> Timers:
    """The peers' clone (and chess's legal list) over states sampled from their random play."""
    out: Timers = {}
    try:
        import pyspiel
        chess, rng, states = pyspiel.load_game("chess"), random.Random(seed), []
        for _ in range(PEER_SAMPLE_GAMES):
            s = chess.new_initial_state()
            while not s.is_terminal():
                if len(s.history()) % SAMPLE_EVERY == 0:
                    states.append(s.clone())
                s.apply_action(rng.choice(s.legal_actions()))
        out["pyspiel chess State.clone()"] = lambda: per_call(lambda s: s.clone(), states)
        out["pyspiel chess legal_actions()"] = lambda: per_call(lambda s: s.legal_actions(), states)
    except ImportError:
        pass
    try:
        from catanatron import Color, Game, RandomPlayer
        games = []
        for g in range(PEER_SAMPLE_GAMES):
            game = Game([RandomPlayer(c) for c in list(Color)[:CATAN_PLAYERS]], seed=seed + g + 1)
            for k in range(CATAN_MAX_TICKS):
                if game.winning_color() is not None:
                    break
                if k % CATAN_SAMPLE_EVERY == 0:
                    games.append(game.copy())
                game.play_tick()
        out["Catanatron Game.copy()"] = lambda: per_call(lambda g: g.copy(), games)
    except ImportError:
        pass
    return out


def micro_rounds(timers: Timers, rounds: int) -> dict[str, tuple[float, float]]:
    """Every timer once per round, in turn; the (wall, CPU) medians over the rounds."""
    got: dict[str, list[tuple[float, float]]] = {k: [] for k in timers}
    for _ in range(rounds):
        for name, timer in timers.items():
            got[name].append(timer())
    return {k: (statistics.median(w for w, _ in v), statistics.median(c for _, c in v)) for k, v in got.items()}


# ------------------------------------------------------------------ report
def _mark(ok: bool | None) -> str:
    return "" if ok is None else ("ok" if ok else "misses the aim")


def _row(name: str, wall: float | str, cpu: float | str, fmt: str, aim: str = "", ok: bool | None = None) -> str:
    w = wall if isinstance(wall, str) else format(wall, fmt)
    c = cpu if isinstance(cpu, str) else format(cpu, fmt)
    return f"  {name:<40}{w:>12}{c:>12}   {aim:<12}{_mark(ok)}"


def report_peers(rates: dict[str, Rates], missing: list[str], rounds: int, seconds: float,
                 main: str = "Vigtavl") -> None:
    """The medians of each engine and the ratios of ``main`` (the engine measured) to each peer."""
    print(f"\nBeside the peers: random legal play, {rounds} alternating rounds of ~{seconds:g} s per engine "
          "(medians)")
    print(f"  {'engine':<32}{'per wall s':>12}{'per CPU s':>12}{'games/s':>10}{'per game':>10}")
    for r in rates.values():
        print(f"  {r.name + ' ' + r.unit:<32}{statistics.median(r.wall()):>12,.0f}"
              f"{statistics.median(r.cpu()):>12,.0f}{r.games_per_s():>10.1f}{r.per_game():>10.1f}")
    vig = rates[main]
    for name in rates:
        if name != main:
            per_round = ", ".join(f"{x / y:.2f}" for x, y in zip(vig.cpu(), rates[name].cpu()))
            print(f"  ratio {main} / {name}: {ratio(vig, rates[name]):.2f}x (median; rounds {per_round})")
    for name in missing:
        print(f"  {name} not installed, skipped: {PEERS[name][1]} (or pip install -e '.[bench]')")


def report_maps(results: list[Rates], games: int, seed: int) -> None:
    print(f"\nEvery preset map, random legal play ({games} games per map, seeds {seed}..{seed + games - 1})")
    print(f"  {'map':<10}{'players':>8}{'decisions/s':>14}{'games/s':>10}{'decisions/game':>16}"
          f"{'(per CPU-s)':>14}")
    for p, r in zip((2, 3, 4), results):
        print(f"  {DEFAULT_PRESET[p]:<10}{p:>8}{r.wall()[0]:>14,.0f}{r.games_per_s():>10.1f}"
              f"{r.per_game():>16.1f}{r.cpu()[0]:>14,.0f}")


def report_verdict(rates: dict[str, Rates], micro: dict[str, tuple[float, float]], n_states: int,
                   rounds: int) -> None:
    vig = rates["Vigtavl"]
    dps = statistics.median(vig.cpu())
    print(f"\n2-player map ({DEFAULT_PRESET[2]}) against the performance aims (verdict on the CPU figure)")
    print(f"  {'':<40}{'wall':>12}{'CPU':>12}   {'aim':<12}")
    print(_row("decisions/s", statistics.median(vig.wall()), dps, ",.0f", f">= {TARGET_DECISIONS_PER_S:,}",
               dps >= TARGET_DECISIONS_PER_S))
    if "Catanatron" in rates:
        x = ratio(vig, rates["Catanatron"])
        print(_row("x Catanatron, same run", "", f"{x:.2f}x", "", f">= {TARGET_VS_CATANATRON:g}x",
                   x >= TARGET_VS_CATANATRON))
    else:
        print(_row("x Catanatron, same run", "", "-", "", f">= {TARGET_VS_CATANATRON:g}x") + "not measured")
    aims = (("clone", "clone() us", TARGET_CLONE_US), ("legal", "legal_actions() us", TARGET_LEGAL_US),
            ("observation", "observation encode us", TARGET_OBSERVATION_US))
    for key, label, aim in aims:
        print(_row(label, *micro[key], ".1f", f"<= {aim}", micro[key][1] <= aim))
    print(_row("apply_action() us", *micro["apply"], ".1f"))
    for name, (w, c) in micro.items():
        if name not in ("clone", "legal", "apply", "observation"):
            print(_row(f"peer: {name} us", w, c, ".1f"))
    print(f"  (single operations: medians of {rounds} rounds, each {MICRO_REPEATS} passes over {n_states} "
          "states sampled from random play, alternating with the peers' operations)")


def main(argv: list[str] | None = None) -> dict[str, Any]:
    ap = argparse.ArgumentParser(description="Engine speed under random legal play, beside peer engines.")
    ap.add_argument("--rounds", type=int, default=5, help="alternating rounds with the peers")
    ap.add_argument("--seconds", type=float, default=1.5, help="seconds per engine and round")
    ap.add_argument("--games", type=int, default=100, help="games per preset map (part 2)")
    ap.add_argument("--seed", type=int, default=0)
    args = ap.parse_args(argv)
    if args.rounds < 1 or args.games < 1 or args.seconds < 0:
        ap.error("--rounds and --games must be at least 1, --seconds at least 0")
    load_at_start = _load()
    maps = {p: load_map(DEFAULT_PRESET[p], p) for p in (2, 3, 4)}
    print(f"engine under random play ({compiled.core_summary()})")

    engines: dict[str, tuple[str, PlayOne]] = {"Vigtavl": ("decisions", vigtavl_game(maps[2], args.seed))}
    missing = []
    for name, make in (("Catanatron", catanatron_game), ("pyspiel chess", pyspiel_chess)):
        play = make(args.seed)
        if play is None:
            missing.append(name)
        else:
            engines[name] = (PEERS[name][0], play)
    rates = alternate(engines, args.rounds, args.seconds)
    report_peers(rates, missing, args.rounds, args.seconds)

    per_map = []
    for p in (2, 3, 4):
        r = Rates(DEFAULT_PRESET[p], "decisions")
        r.play_for(vigtavl_game(maps[p], args.seed), games=args.games)
        per_map.append(r)
    report_maps(per_map, args.games, args.seed)

    states = sample_states(maps[2], max(4, args.games // 4), args.seed + 1)
    micro = micro_rounds({**vigtavl_micro(states, args.seed), **peer_micro(args.seed)}, args.rounds)
    report_verdict(rates, micro, len(states), args.rounds)
    print(f"  (load average {load_at_start} at the start, {_load()} at the end, on {os.cpu_count() or 1} cores: "
          "wall-clock figures fall when other work shares the machine; CPU figures and ratios less)")
    return {"rates": rates, "per_map": per_map, "micro": micro, "missing": missing}


def _load() -> str:
    """The 1-minute load average, as text ("?" where the system has none)."""
    return f"{os.getloadavg()[0]:.1f}" if hasattr(os, "getloadavg") else "?"


if __name__ == "__main__":
    main()
