"""Ratings and round-robin tournaments, for 2, 3 and 4-player games.

Two ratings are computed from the same game records (``arena.records.GameRecord``):

- **Elo** (:func:`elo_ratings`): the maximum-likelihood Bradley-Terry fit that Elo approximates
  online, ``P(a beats b) = 1 / (1 + 10 ** ((R_b - R_a) / 400))``, fitted to all games at once
  (so the order of the games does not matter) by Newton's method, with a weak Gaussian prior
  (``PRIOR_SD_ELO``) that keeps an unbeaten agent's rating finite and centres the ratings on
  ``ELO_MEAN``. Uncertainty is analytic: the standard deviation, from the inverse Hessian of the
  penalised log-likelihood, of each rating relative to the mean of the field (only differences
  of ratings are measured), shown as a 95% interval (``± 1.96 sd``). A game of ``n`` players is
  split into its ``n (n - 1) / 2`` pairs, each decided by victory tokens (equal tokens: half a
  win each) and weighted ``1 / (n - 1)``, so every player contributes one game's worth of
  evidence per game whatever the player count.
- **Weng-Lin** (:class:`PlackettLuce`): the Bayesian online rating of Weng & Lin (2011, "A
  Bayesian Approximation Method for Online Ranking"), Plackett-Luce model -- the model behind
  OpenSkill -- implemented here in a few lines (no dependency; it reproduces openskill 6.2's
  ``PlackettLuce(tau=0)`` to the last digit: there is no additive dynamics factor, since agents'
  strength does not drift between games). Each game ranks its players by
  tokens (equal tokens share a rank); ratings are ``mu ± sigma`` (defaults ``mu = 25``,
  ``sigma = 25 / 3``) and the conservative ``ordinal = mu - 3 sigma``. Games are applied in
  game-number order. An agent sitting in several seats of one game gets the mean of its seats'
  updates.

The head-to-head matrix (:func:`head_to_head`) scores, for each pair of agents, the games in
which both sat: the row agent's share of their pairwise token contests (ties half).

Vigtavl's round robin (``run_tournament``) is in :mod:`arena.vigtavl_tournament`; any game's in
:mod:`arena.tournament`. Records are any objects with ``seats`` and ``outcomes`` (what ranks
the seats: victory tokens, or a game's returns).
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

import numpy as np

if TYPE_CHECKING:
    from arena.records import GameRecord

ELO_MEAN = 1500.0
ELO_SCALE = 400.0 / math.log(10.0)  # Elo points per natural-log unit of strength
PRIOR_SD_ELO = 350.0
NEWTON_STEPS = 50
NEWTON_TOL = 1e-10
Z_95 = 1.959963984540054

MU = 25.0
SIGMA = MU / 3.0
BETA = SIGMA / 2.0
KAPPA = 1e-4  # floor of the sigma shrink factor


# ------------------------------------------------------------------ pairwise results
def ranks_by(outcomes: Sequence[float]) -> list[int]:
    """Rank per seat, 1 best; equal outcomes share a rank (1 + number of players with more)."""
    return [1 + sum(t > mine for t in outcomes) for mine in outcomes]


def pairwise_scores(records: Sequence[GameRecord]) -> dict[tuple[str, str], list[float]]:
    """``{(a, b): [score of a, weight]}`` over the pairwise token contests of all games."""
    out: dict[tuple[str, str], list[float]] = {}
    for r in records:
        n = len(r.seats)
        w = 1.0 / (n - 1)
        for i, j in itertools.combinations(range(n), 2):
            a, b = r.seats[i], r.seats[j]
            if a == b:
                continue
            o = r.outcomes  # what ranks the seats: tokens (Vigtavl), returns (any game)
            s = 1.0 if o[i] > o[j] else 0.0 if o[i] < o[j] else 0.5
            for key, score in (((a, b), s), ((b, a), 1.0 - s)):
                acc = out.setdefault(key, [0.0, 0.0])
                acc[0] += w * score
                acc[1] += w
    return out


# ------------------------------------------------------------------ Elo (Bradley-Terry fit)
@dataclass
class Rating:
    """One agent's ratings: Elo with its standard deviation, and Weng-Lin mu and sigma."""

    name: str
    elo: float = ELO_MEAN
    elo_sd: float = 0.0
    mu: float = MU
    sigma: float = SIGMA

    @property
    def ordinal(self) -> float:
        return self.mu - 3.0 * self.sigma


def elo_ratings(records: Sequence[GameRecord], names: Sequence[str]) -> dict[str, tuple[float, float]]:
    """``{name: (elo, sd)}``: the penalised Bradley-Terry maximum-likelihood fit (module doc)."""
    names = list(dict.fromkeys(names))
    k = len(names)
    idx = {n: i for i, n in enumerate(names)}
    wins = np.zeros((k, k))  # wins[a, b]: a's weighted score against b
    games = np.zeros((k, k))
    for (a, b), (score, weight) in pairwise_scores(records).items():
        if a in idx and b in idx:
            wins[idx[a], idx[b]] += score
            games[idx[a], idx[b]] += weight
    prior = (ELO_SCALE / PRIOR_SD_ELO) ** 2  # precision of the prior in natural units
    r = np.zeros(k)
    hess = np.eye(k) * prior
    for _ in range(NEWTON_STEPS):
        p = 1.0 / (1.0 + np.exp(-(r[:, None] - r[None, :])))  # p[a, b] = P(a beats b)
        grad = (games * p - wins).sum(axis=1) + prior * r
        c = games * p * (1.0 - p)
        hess = np.diag(c.sum(axis=1)) - c + np.eye(k) * prior
        step = np.linalg.solve(hess, grad)
        r -= step
        if np.max(np.abs(step)) < NEWTON_TOL:
            break
    centre = np.eye(k) - 1.0 / k  # each rating relative to the field's mean
    sd = np.sqrt(np.clip(np.diag(centre @ np.linalg.inv(hess) @ centre), 0.0, None))
    return {n: (ELO_MEAN + ELO_SCALE * float(r[i]), ELO_SCALE * float(sd[i])) for n, i in idx.items()}


# ------------------------------------------------------------------ Weng-Lin Plackett-Luce
class PlackettLuce:
    """Weng-Lin Bayesian ratings under the Plackett-Luce model, one player per team."""

    def __init__(self, mu: float = MU, sigma: float = SIGMA, beta: float = BETA, kappa: float = KAPPA) -> None:
        self.mu0, self.sigma0, self.beta, self.kappa = mu, sigma, beta, kappa
        self.ratings: dict[str, tuple[float, float]] = {}

    def get(self, name: str) -> tuple[float, float]:
        return self.ratings.get(name, (self.mu0, self.sigma0))

    def rate(self, players: Sequence[tuple[float, float]], ranks: Sequence[int]) -> list[tuple[float, float]]:
        """New ``(mu, sigma)`` for players ``(mu, sigma)`` finishing at ``ranks`` (1 best, ties equal)."""
        n = len(players)
        mus = [m for m, _ in players]
        var = [s * s for _, s in players]
        c = math.sqrt(sum(v + self.beta ** 2 for v in var))
        e = [math.exp(m / c) for m in mus]
        # sum_q[q]: strength of everyone ranked at or below q; a[q]: players sharing q's rank.
        sum_q = [sum(e[s] for s in range(n) if ranks[s] >= ranks[q]) for q in range(n)]
        a = [sum(1 for s in range(n) if ranks[s] == ranks[q]) for q in range(n)]
        out = []
        for i in range(n):
            omega = delta = 0.0
            for q in range(n):
                if ranks[q] > ranks[i]:
                    continue
                quotient = e[i] / sum_q[q]
                omega += ((1.0 - quotient) if q == i else -quotient) / a[q]
                delta += quotient * (1.0 - quotient) / a[q]
            gamma = math.sqrt(var[i]) / c
            mu = mus[i] + var[i] / c * omega
            new_var = var[i] * max(1.0 - gamma * var[i] / (c * c) * delta, self.kappa)
            out.append((mu, math.sqrt(new_var)))
        return out

    def update(self, seats: Sequence[str], tokens: Sequence[float]) -> None:
        """Rate one game: seats' agent names and their outcomes (tokens, returns)."""
        new = self.rate([self.get(s) for s in seats], ranks_by(tokens))
        by_name: dict[str, list[tuple[float, float]]] = {}
        for name, rating in zip(seats, new):
            by_name.setdefault(name, []).append(rating)
        for name, rs in by_name.items():
            self.ratings[name] = (sum(m for m, _ in rs) / len(rs), math.sqrt(sum(s * s for _, s in rs) / len(rs)))


def weng_lin_ratings(records: Sequence[GameRecord]) -> dict[str, tuple[float, float]]:
    """``{name: (mu, sigma)}`` after every game, in game-number order."""
    model = PlackettLuce()
    for r in sorted(records, key=lambda r: r.game):
        model.update(r.seats, r.outcomes)
    return dict(model.ratings)


def ratings(records: Sequence[GameRecord], names: Sequence[str]) -> list[Rating]:
    """Both ratings per agent, best Elo first."""
    elo = elo_ratings(records, names)
    wl = weng_lin_ratings(records)
    out = [Rating(n, *elo[n], *wl.get(n, (MU, SIGMA))) for n in dict.fromkeys(names)]
    return sorted(out, key=lambda x: -x.elo)


def head_to_head(records: Sequence[GameRecord], names: Sequence[str]) -> dict[str, dict[str, float | None]]:
    """``h2h[a][b]``: a's share of pairwise token contests against b (None if they never met)."""
    scores = pairwise_scores(records)
    out: dict[str, dict[str, float | None]] = {}
    for a in names:
        out[a] = {}
        for b in names:
            s = scores.get((a, b))
            out[a][b] = None if a == b or s is None or s[1] == 0 else s[0] / s[1]
    return out


def rating_table(rows: Sequence[Rating], games: dict[str, int]) -> str:
    """The ratings as a text table; ``games``: games played per agent."""
    width = max([len("agent")] + [len(r.name) for r in rows])
    lines = [f"{'agent':<{width}} {'elo':>7} {'±95%':>6} {'mu':>6} {'sigma':>6} {'ordinal':>7} {'games':>6}"]
    for r in rows:
        lines.append(f"{r.name:<{width}} {r.elo:>7.0f} {Z_95 * r.elo_sd:>6.0f} {r.mu:>6.2f} "
                     f"{r.sigma:>6.2f} {r.ordinal:>7.2f} {games.get(r.name, 0):>6}")
    return "\n".join(lines)


def h2h_table(h2h: dict[str, dict[str, float | None]]) -> str:
    names = list(h2h)
    width = max([len("row vs col")] + [len(n) for n in names])
    col = max(6, *(len(n) for n in names))
    lines = [f"{'row vs col':<{width}} " + " ".join(f"{n:>{col}}" for n in names)]
    for a in names:
        cells = ["-" if h2h[a][b] is None else f"{100 * h2h[a][b]:.1f}" for b in names]
        lines.append(f"{a:<{width}} " + " ".join(f"{c:>{col}}" for c in cells))
    return "\n".join(lines)
