"""Honest statistics for match results: the Wilson score interval of a win rate."""

from __future__ import annotations

import math

Z_95 = 1.959963984540054  # the normal quantile of a two-sided 95% interval


def wilson_interval(successes: float, n: int, z: float = Z_95) -> tuple[float, float]:
    """Wilson score interval for a proportion ``successes / n`` (``(0, 1)`` when n = 0)."""
    if n <= 0:
        return 0.0, 1.0
    p = successes / n
    denom = 1 + z * z / n
    centre = (p + z * z / (2 * n)) / denom
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / denom
    return max(0.0, centre - half), min(1.0, centre + half)
