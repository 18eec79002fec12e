"""How well a network's value head predicts the result, phase by phase (``vigtavl az value``;
the Ray loop logs the same for its self-play games as ``value/agree_<phase>``).

A position agrees when the sign of the value head's entry for the player to move is the sign of
that player's result (+1 won, -1 lost). Games with no winner among them (a tie of all, a game
cut at ``max_steps``) have no sign to agree with and are left out.

:func:`measure` plays the network alone (its most likely legal action) in every seat, many
games together with one network call per move, on seeds of its own."""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from agents.az import AZ_GAME, AZNet, NetEvaluator, az_steps
from agents.game_steps import steps_for
from games import load_game

Table = dict[str, tuple[float, int]]  # phase name -> (agreement, positions counted)


def az_phase_names() -> Sequence[str]:
    """The phases of the game ``vigtavl az`` trains (its steps' ``phase_names``)."""
    return az_steps().phase_names


def phase_agreement(phases: Sequence[np.ndarray], players: Sequence[np.ndarray], values: Sequence[np.ndarray],
                    results: Sequence[np.ndarray], phase_names: Sequence[str] | None = None) -> Table:
    """Per phase: the share of positions whose value sign (``values[g][t, 0]``: the player to
    move's entry) is their player's result's sign (``results[g]`` in seat order), over the games
    given (one array of each per game); ``phase_names`` indexed by the phases (default
    :func:`az_phase_names`)."""
    names = az_phase_names() if phase_names is None else phase_names
    hits = np.zeros(len(names))
    counts = np.zeros(len(names))
    for phase, player, value, result in zip(phases, players, values, results):
        if not len(phase):
            continue
        r = np.sign(np.asarray(result)[np.asarray(player, dtype=np.int64)])
        v = np.sign(np.asarray(value)[:, 0])
        counted = r != 0
        np.add.at(counts, np.asarray(phase, dtype=np.int64)[counted], 1)
        np.add.at(hits, np.asarray(phase, dtype=np.int64)[counted], (v == r)[counted])
    return {name: (float(hits[k] / counts[k]) if counts[k] else 0.0, int(counts[k]))
            for k, name in enumerate(names) if counts[k]}


def measure(net: AZNet, games: int, seed: int, num_players: int, map: str | None = None,
            max_steps: int = 1500, parallel: int = 32) -> Table:
    """Play ``games`` games of the network alone (seeds seed .. seed + games - 1) and tabulate."""
    evaluator = NetEvaluator(net)
    game = load_game(AZ_GAME)
    steps = steps_for(game)
    new_game = steps.new_games(game, num_players, seed, map=map)
    rows: list[tuple[list[int], list[int], list[np.ndarray], np.ndarray]] = []
    started = 0
    live: list[tuple] = []
    while live or started < games:
        while started < games and len(live) < parallel:
            live.append((new_game(seed + started), [], [], [], 0))
            started += 1
        states = [g[0] for g in live]
        legal = [steps.legal(s) for s in states]
        logits, values = evaluator(states, legal)
        nxt = []
        for (s, ph, pl, vs, moves), codes, lg, v in zip(live, legal, logits, values):
            ph.append(steps.phase(s))
            pl.append(steps.player(s))
            vs.append(v)
            steps.apply(s, codes[int(np.argmax(lg))], codes)
            if steps.is_over(s) or moves + 1 >= max_steps:
                rows.append((ph, pl, vs, np.asarray(steps.returns(s))))
            else:
                nxt.append((s, ph, pl, vs, moves + 1))
        live = nxt
    return phase_agreement([np.asarray(r[0]) for r in rows], [np.asarray(r[1]) for r in rows],
                           [np.asarray(r[2]) for r in rows], [r[3] for r in rows], steps.phase_names)


def agreement_table(table: Table) -> str:
    lines = [f"{'phase':<12} {'positions':>9} {'agree':>7}"]
    lines += [f"{name:<12} {n:>9} {100 * a:>6.1f}%" for name, (a, n) in table.items()]
    return "\n".join(lines)
