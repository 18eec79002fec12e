"""The Ray instance an RLlib run trains on, and the processes it leaves when the run is killed.

- ``--ray-address`` (``auto``, ``HOST:PORT``, ``ray://HOST:10001``): the run joins that cluster.
- Without it, the run starts a private local instance (``ray.init(address="local")``): its own
  ports and session folder, with ``env_runners + 1`` CPUs. Another Ray cluster on the machine
  (``ray start``, or one named by ``RAY_ADDRESS``) neither receives the run nor refuses it.
  Its head processes start in sessions of their own (the env runners and agents the raylet
  starts go with it): a SIGTERM to the run's process group (Slurm, ``timeout``, ``kill -TERM
  -PGID``) would otherwise end the raylet, and Ray then ends the driver before it can save.
- The run shuts its instance down when it ends or is stopped. Killed with SIGKILL, the driver
  cannot: Ray's head processes die with it (Linux: PR_SET_PDEATHSIG), but the agents the raylet
  starts (``ray::DashboardAgent``, ``ray::RuntimeEnvAgent``) would live on. A watchdog -- this
  file run as a script, in a session of its own so that a signal to the run's process group
  passes it by -- follows the tree of the instance's processes while the driver lives, and ends
  what is left of it once the driver is gone (it sees the pipe from the driver close). Linux
  only (it reads /proc); elsewhere nothing watches. A SIGKILL to the watchdog itself, too,
  leaves those agents behind: ``ps -ef | grep ray::`` finds them.

This module imports nothing of the project, so the watchdog starts in a fraction of a second.
"""

from __future__ import annotations

import os
import select
import signal
import subprocess
import sys
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

RAY_INIT = {"include_dashboard": False, "log_to_driver": False, "ignore_reinit_error": True,
            "configure_logging": False}
PROC = Path("/proc")
POLL_S = 1.0  # how often the watchdog refreshes the tree while the driver lives
GRACE_S = 3.0  # SIGTERM, then SIGKILL after this long

Process = tuple[int, int]  # (pid, start time in clock ticks): a pid that was reused is another process


class RaySession:
    """Ray as a run uses it: ``initialized_here`` when this run called ``ray.init`` (then
    :meth:`close` shuts it down), ``private`` when that started a local instance of its own."""

    def __init__(self, initialized_here: bool, private: bool, watchdog: subprocess.Popen | None = None) -> None:
        self.initialized_here, self.private, self.watchdog = initialized_here, private, watchdog

    def close(self) -> None:
        import ray
        if self.initialized_here:
            ray.shutdown()
        if self.watchdog is not None:  # its stdin closes: it ends what shutdown left, then itself
            self.watchdog.stdin.close()  # type: ignore[union-attr]  (not waited for: a stop must be quick)
            self.watchdog = None


def start_ray(address: str | None, num_cpus: int) -> RaySession:
    """Join the cluster at ``address``, or start a private local instance with ``num_cpus``
    (and its watchdog). A Ray already initialized in this process (tests, a notebook) is used
    as it is."""
    import ray
    if ray.is_initialized():
        return RaySession(initialized_here=False, private=False)
    if address:
        ray.init(address=address, **RAY_INIT)
        return RaySession(initialized_here=True, private=False)
    before = children(os.getpid())
    with children_in_own_sessions():
        ray.init(address="local", num_cpus=num_cpus, **RAY_INIT)
    started = children(os.getpid()) - before  # the head processes ray.init started
    return RaySession(initialized_here=True, private=True, watchdog=start_watchdog(started))


@contextmanager
def children_in_own_sessions() -> Iterator[None]:
    """Inside, every ``subprocess.Popen`` of this process starts its child in a session of its
    own (``ray.init`` offers no option for it; each head process then leads its own process
    group, out of reach of a signal to ours). POSIX only; elsewhere nothing changes."""
    if os.name != "posix":
        yield
        return
    original = subprocess.Popen.__init__

    def popen_init(self: subprocess.Popen, *args: Any, **kwargs: Any) -> None:
        kwargs.setdefault("start_new_session", True)
        original(self, *args, **kwargs)

    subprocess.Popen.__init__ = popen_init  # type: ignore[method-assign]
    try:
        yield
    finally:
        subprocess.Popen.__init__ = original  # type: ignore[method-assign]


def start_watchdog(roots: set[Process]) -> subprocess.Popen | None:
    """The watchdog over ``roots`` and their descendants (None where there is no /proc)."""
    if not PROC.is_dir() or not roots:
        return None
    args = [f"{pid}:{start}" for pid, start in sorted(roots)]
    return subprocess.Popen([sys.executable, __file__, *args], stdin=subprocess.PIPE,
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, start_new_session=True)


# ------------------------------------------------------------------ processes, from /proc
def processes() -> dict[int, tuple[int, int]]:
    """Every process: pid -> (parent pid, start time)."""
    out = {}
    for entry in PROC.iterdir():
        if entry.name.isdigit():
            stat = _stat(int(entry.name))
            if stat is not None:
                out[int(entry.name)] = stat
    return out


def _stat(pid: int) -> tuple[int, int] | None:
    """(parent pid, start time) of ``pid`` (None: gone, or a zombie waiting to be reaped).
    Fields after the ``(command)``: state, ppid, ... starttime (the 20th)."""
    try:
        text = (PROC / str(pid) / "stat").read_text()
    except OSError:
        return None
    fields = text[text.rindex(")") + 2:].split()
    return None if fields[0] in ("Z", "X") else (int(fields[1]), int(fields[19]))


def children(pid: int) -> set[Process]:
    return {(p, start) for p, (parent, start) in processes().items() if parent == pid}


def alive(proc: Process) -> bool:
    stat = _stat(proc[0])
    return stat is not None and stat[1] == proc[1]


def descendants(known: set[Process]) -> set[Process]:
    """``known`` (those still alive) and every process below them."""
    table = processes()
    found = {p for p in known if p[0] in table and table[p[0]][1] == p[1]}
    frontier = {pid for pid, _ in found}
    while frontier:
        below = {(p, start) for p, (parent, start) in table.items() if parent in frontier} - found
        found |= below
        frontier = {pid for pid, _ in below}
    return found


def end(procs: set[Process]) -> None:
    """SIGTERM each process still alive, SIGKILL those alive ``GRACE_S`` later."""
    for sig, wait in ((signal.SIGTERM, GRACE_S), (signal.SIGKILL, 0.0)):
        left = {p for p in procs if alive(p)}
        for pid, _ in left:
            try:
                os.kill(pid, sig)
            except OSError:
                pass
        deadline = time.monotonic() + wait
        while left and time.monotonic() < deadline:
            time.sleep(0.1)
            left = {p for p in left if alive(p)}
        if not left:
            return


def watch(roots: set[Process], driver_pipe: Any) -> None:
    """Follow the tree under ``roots`` until ``driver_pipe`` closes, then end what is left."""
    known = set(roots)
    while True:
        known |= descendants(known)  # an orphan keeps its place: it is why we watch
        readable, _, _ = select.select([driver_pipe], [], [], POLL_S)
        if readable and not os.read(driver_pipe.fileno(), 1024):
            break  # the driver is gone, or done with Ray
    end({p for p in known | descendants(known) if p[0] != os.getpid()})


if __name__ == "__main__":  # the watchdog: python raylocal.py PID:START ...
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # its own session already; Ctrl-C in a terminal too
    watch({(int(a), int(b)) for a, b in (arg.split(":") for arg in sys.argv[1:])}, sys.stdin)
