"""When a run's periodic actions fall due, for both trainers: checkpoints, evaluations, league
snapshots. One small object per action, asked once per rollout (SB3) or iteration (RLlib).

- :class:`Every`: at each multiple of N timesteps, counted so that a resumed run keeps the
  same multiples (a run resumed at 130k with ``eval_every: 50000`` evaluates next at 150k).
- :class:`Clock`: when N minutes of wall time have passed.
- :class:`CheckpointSchedule`: a run's checkpoints: after the first rollout of every start, so
  that a run killed early (even with ``kill -9``) has something to resume from within about a
  minute; then every ``checkpoint_every`` timesteps and every ``checkpoint_minutes``.
"""

from __future__ import annotations

import time


def next_multiple(steps: int, every: int) -> int | None:
    """The first multiple of ``every`` past ``steps`` (None when ``every`` is 0: never)."""
    return (steps // every + 1) * every if every else None


class Every:
    """Due at each multiple of ``every`` timesteps past ``steps`` (never when ``every`` is 0);
    several multiples passed in one rollout make it due once."""

    def __init__(self, every: int, steps: int = 0) -> None:
        self.every = every
        self.next_at = next_multiple(steps, every)

    def due(self, steps: int) -> bool:
        """Whether ``steps`` reached the next multiple (then the one after becomes next)."""
        if self.next_at is None or steps < self.next_at:
            return False
        self.next_at = next_multiple(steps, self.every)
        return True


class Clock:
    """Due when ``minutes`` of wall time have passed since it was started (never when 0)."""

    def __init__(self, minutes: float) -> None:
        self.seconds = minutes * 60.0
        self.restart()

    def restart(self) -> None:
        self.started = time.monotonic()

    def due(self) -> bool:
        return bool(self.seconds) and time.monotonic() - self.started >= self.seconds


class CheckpointSchedule:
    """A run's checkpoints: after the first rollout of each start, then every ``every``
    timesteps and every ``minutes`` of wall time (the clock starts again at each checkpoint).
    With both 0 a run saves only when it is stopped."""

    def __init__(self, every: int, minutes: float, steps: int = 0) -> None:
        self.by_steps, self.clock = Every(every, steps), Clock(minutes)
        self.first = bool(every or minutes)

    def due(self, steps: int) -> bool:
        reasons = [self.by_steps.due(steps), self.clock.due(), self.first]  # each asked: they advance
        if not any(reasons):
            return False
        self.first = False
        self.clock.restart()
        return True
