"""A finished self-play game as an actor sends it to the learner: its searched positions
(planes, legal actions, improved policy, the network's and the search's values, phase, the
network version that chose the move) and its end (results, tokens, seed). Compact: float16
planes, legal actions padded with -1 to the game's widest position; a plain dict of NumPy
arrays both ways (:meth:`GameRecord.pack`, :meth:`GameRecord.unpack`), so it crosses Ray or a
file as it is. The value targets (result, optionally mixed with an extra target) are made here."""

from __future__ import annotations

from dataclasses import dataclass, fields

import numpy as np

from training.az import ReplayBuffer

MARGIN_SCALE = 10.0  # token margins reach about +-10 in a decided game; /10 puts them in [-1, 1] like the results


@dataclass
class GameRecord:
    """One game. Per position (T rows): ``obs`` (T, C, H, W) float16, ``legal`` (T, L) env
    indices padded with -1, ``policy`` (T, L), ``player`` and ``phase`` (T,), ``head_value`` and
    ``search_value`` (T, n) seen from the position's player, ``versions`` (T,) the network
    version that searched it. Per game: ``seed``, ``results`` and ``tokens`` (n,) in seat
    order, ``steps`` (decisions, forced and fast ones included), ``truncated``."""

    seed: int
    obs: np.ndarray
    legal: np.ndarray
    policy: np.ndarray
    player: np.ndarray
    phase: np.ndarray
    head_value: np.ndarray
    search_value: np.ndarray
    versions: np.ndarray
    results: np.ndarray
    tokens: np.ndarray
    steps: int
    truncated: bool

    @property
    def positions(self) -> int:
        return len(self.obs)

    @property
    def version(self) -> int:
        """The oldest network that played in this game (-1: no searched position)."""
        return int(self.versions.min()) if len(self.versions) else -1

    def pack(self) -> dict[str, np.ndarray]:
        return {f.name: np.asarray(getattr(self, f.name)) for f in fields(self)}

    @classmethod
    def unpack(cls, data: dict[str, np.ndarray]) -> "GameRecord":
        names = {f.name for f in fields(cls)}
        if set(data) != names:
            raise ValueError(f"not a game record: keys {sorted(data)}")
        out = {k: np.asarray(v) for k, v in data.items()}
        return cls(**(out | {"seed": int(out["seed"]), "steps": int(out["steps"]),
                             "truncated": bool(out["truncated"])}))

    def value_targets(self, extra: str = "none", weight: float = 0.0) -> np.ndarray:
        """(T, n): each position's target seen from its player: the results (0 for all in a
        truncated game), mixed with ``extra`` ('search': the search's root value; 'margin': the
        token margins) at ``weight``."""
        n = len(self.results)
        seats = np.arange(n)
        rows = (seats[None, :] + self.player.astype(np.int64)[:, None]) % n  # entry k: k seats after
        target = self.results.astype(np.float32)[rows]
        if extra == "none" or weight == 0.0:
            return target
        if extra == "search":
            other = self.search_value.astype(np.float32)
        elif extra == "margin":
            other = margins(self.tokens)[rows]
        else:
            raise ValueError(f"value_extra must be one of none, search, margin; got {extra!r}")
        return (1.0 - weight) * target + weight * other

    def add_to(self, buffer: ReplayBuffer, extra: str = "none", weight: float = 0.0) -> None:
        values = self.value_targets(extra, weight)
        for t in range(self.positions):
            width = int((self.legal[t] >= 0).sum())
            buffer.add(self.obs[t], self.legal[t, :width], self.policy[t, :width], values[t])


def margins(tokens: np.ndarray) -> np.ndarray:
    """Each seat's tokens minus the best other seat's, / MARGIN_SCALE, clipped to [-1, 1]."""
    t = np.asarray(tokens, dtype=np.float32)
    best_other = np.array([np.max(np.delete(t, p)) for p in range(len(t))], dtype=np.float32)
    return np.clip((t - best_other) / MARGIN_SCALE, -1.0, 1.0)


def pad_rows(rows: list[np.ndarray], dtype: type, fill: float) -> np.ndarray:
    """Rows of different lengths as one (T, widest) array."""
    width = max((len(r) for r in rows), default=0)
    out = np.full((len(rows), width), fill, dtype=dtype)
    for i, r in enumerate(rows):
        out[i, : len(r)] = r
    return out
