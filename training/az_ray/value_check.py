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

from agents.az import AZNet, NetEvaluator
from vigtavl_env.engine import apply_action, legal_actions, new_game, returns
from vigtavl_env.engine.state import PHASE_NAMES
from vigtavl_env.env import raw_env

Table = dict[str, tuple[float, int]]  # phase name -> (agreement, positions counted)


def phase_agreement(phases: Sequence[np.ndarray], players: Sequence[np.ndarray], values: Sequence[np.ndarray],
                    results: Sequence[np.ndarray]) -> Table:
    """Per phase: the share of positions whose value sign (``values[g][t, 0]``: the player to
    move's entry) is their player's result's sign (``results[g]`` in seat order), over the games
    given (one array of each per game)."""
    hits = np.zeros(len(PHASE_NAMES))
    counts = np.zeros(len(PHASE_NAMES))
    for phase, player, value, result in zip(phases, players, values, results):
        if not len(phase):
            continue
        r = np.sign(np.asarray(result)[np.asarray(player, dtype=np.int64)])
        v = np.sign(np.asarray(value)[:, 0])
        counted = r != 0
        np.add.at(counts, np.asarray(phase, dtype=np.int64)[counted], 1)
        np.add.at(hits, np.asarray(phase, dtype=np.int64)[counted], (v == r)[counted])
    return {name: (float(hits[k] / counts[k]) if counts[k] else 0.0, int(counts[k]))
            for k, name in enumerate(PHASE_NAMES) if counts[k]}


def measure(net: AZNet, games: int, seed: int, num_players: int, map: str | None = None,
            max_steps: int = 1500, parallel: int = 32) -> Table:
    """Play ``games`` games of the network alone (seeds seed .. seed + games - 1) and tabulate."""
    evaluator = NetEvaluator(net)
    probe = raw_env(num_players=num_players, map=map, seed=seed)
    rows: list[tuple[list[int], list[int], list[np.ndarray], np.ndarray]] = []
    started = 0
    live: list[tuple] = []
    while live or started < games:
        while started < games and len(live) < parallel:
            state = new_game(probe.gmap, probe.config, seed=seed + started)
            state.record_events = False
            live.append((state, [], [], [], 0))
            started += 1
        states = [g[0] for g in live]
        legal = [legal_actions(s) for s in states]
        logits, values = evaluator(states, legal)
        nxt = []
        for (s, ph, pl, vs, steps), codes, lg, v in zip(live, legal, logits, values):
            ph.append(s.phase)
            pl.append(s.current_player)
            vs.append(v)
            apply_action(s, codes[int(np.argmax(lg))], codes)
            if s.is_over or steps + 1 >= max_steps:
                rows.append((ph, pl, vs, np.asarray(returns(s))))
            else:
                nxt.append((s, ph, pl, vs, steps + 1))
        live = nxt
    return phase_agreement([np.asarray(r[0]) for r in rows], [np.asarray(r[1]) for r in rows],
                           [np.asarray(r[2]) for r in rows], [r[3] for r in rows])


def agreement_table(table: Table) -> str:
    lines = [f"{'phase':<12} {'positions':>9} {'agree':>7}"]
    lines += [f"{name:<12} {n:>9} {100 * a:>6.1f}%" for name, (a, n) in table.items()]
    return "\n".join(lines)
