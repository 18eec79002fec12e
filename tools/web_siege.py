"""Siege ``vigtavl serve``: does ``/api/meta`` answer within a second through every attack at once?

    python -m tools.web_siege [--seconds 20] [--idle 260] [--uploads 4] [--games 64]

Starts the server as a user does (``vigtavl serve --port 0``, its own process), then, all at
once and for ``--seconds``: ``--idle`` connections that send nothing or half a request
(slowloris; each one reopened when the server closes it), ``--uploads`` uploads of 15 MB again
and again (a JSON bomb of ``{}``, a game whose decisions are one 15 MB list, and a real results
file repeated to 15 MB), and ``--games`` new games from one client at once, again and again.
Meanwhile it asks ``/api/meta`` four times a second on a fresh connection and prints how long
each took: the figure is the slowest. A measurement, not a test: its numbers depend on the
machine and on what else runs there.
"""

from __future__ import annotations

import argparse
import json
import os
import socket
import subprocess
import sys
import tempfile
import threading
import time
from collections import Counter
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

UPLOAD_MB = 15
META_EVERY_S = 0.25
TIMEOUT_S = 30


class Server:
    """``vigtavl serve --port 0`` in its own process; its host and port."""

    def __init__(self) -> None:
        env = {**os.environ, "PYTHONUNBUFFERED": "1", "PYTHONWARNINGS": "ignore", "OMP_NUM_THREADS": "1"}
        self.proc = subprocess.Popen([sys.executable, "-c", "from vigtavl.cli import main; main(['serve', '--port', '0'])"],
                                     stdout=subprocess.PIPE, stderr=subprocess.STDOUT, env=env, text=True)
        line = self.proc.stdout.readline()
        if " is at " not in line:
            raise SystemExit(line + self.proc.stdout.read())
        self.host, port = line.split("http://")[1].split("/")[0].rsplit(":", 1)
        self.port = int(port)

    def request(self, method: str, path: str, body: bytes = b"", timeout: float = TIMEOUT_S) -> tuple[int, float]:
        """One request on a fresh connection: its status (0: no answer) and its time."""
        head = (f"{method} {path} HTTP/1.1\r\nHost: {self.host}:{self.port}\r\nConnection: close\r\n"
                f"Content-Type: application/json\r\nContent-Length: {len(body)}\r\n\r\n").encode()
        t = time.perf_counter()
        try:
            with socket.create_connection((self.host, self.port), timeout=timeout) as s:
                s.sendall(head + body)
                status = int(s.recv(64).split()[1])
        except (OSError, IndexError, ValueError):
            status = 0
        return status, time.perf_counter() - t

    def close(self) -> None:
        self.proc.kill()
        self.proc.wait()


def payloads() -> list[bytes]:
    """Three kinds of 15 MB upload: a bomb of ``{}``, one game whose decisions are one list, a
    real results file repeated."""
    from arena.vigtavl_match import run_match
    size = UPLOAD_MB << 20
    head = b'{"schema": "vigtavl-results", "version": "vigtavl_v2", "games": ['
    bomb = head + b",".join([b"{}"] * (size // 3)) + b"]}"
    nested = head + b'{"game": 0, "decisions": [' + b",".join([b"1234"] * (size // 5)) + b"]}]}"
    with tempfile.TemporaryDirectory() as folder:
        run_match(["random", "greedy"], games=4, seed=0, workers=1, progress=False).save(Path(folder) / "r.json")
        results = json.loads((Path(folder) / "r.json").read_text())
    games = results["games"]
    each = len(json.dumps(games[0]))
    results["games"] = [dict(games[i % len(games)], game=i) for i in range(size // each)]
    return [bomb, nested, json.dumps(results).encode()]


def hold_idle(server: Server, stop: threading.Event, half: bool, closed: Counter) -> None:
    """One idle connection, reopened each time the server closes it."""
    while not stop.is_set():
        try:
            with socket.create_connection((server.host, server.port), timeout=TIMEOUT_S) as s:
                if half:
                    s.sendall(f"GET /api/meta HTTP/1.1\r\nHost: {server.host}\r\n".encode())
                s.settimeout(0.5)
                while not stop.is_set():
                    try:
                        if s.recv(1024) == b"":
                            closed["idle closed by the server"] += 1
                            break
                    except socket.timeout:
                        continue
        except OSError:
            closed["idle refused"] += 1
            time.sleep(0.1)


def repeat(stop: threading.Event, job, answers: Counter, what: str) -> None:
    while not stop.is_set():
        answers[f"{what} {job()}"] += 1


def siege(seconds: float, idle: int, uploads: int, games: int) -> None:
    bodies = payloads()
    server = Server()
    stop, answers = threading.Event(), Counter()
    pool = ThreadPoolExecutor(idle + uploads + games)
    try:
        for i in range(idle):
            pool.submit(hold_idle, server, stop, i % 2 == 1, answers)
        for i in range(uploads):
            body = bodies[i % len(bodies)]
            pool.submit(repeat, stop, lambda b=body: server.request("POST", "/api/replays/upload?name=x.json", b)[0],
                        answers, f"upload {len(body) >> 20} MB ->")
        seats = json.dumps({"seats": ["greedy", "greedy"]}).encode()
        for _ in range(games):
            pool.submit(repeat, stop, lambda: server.request("POST", "/api/games", seats)[0], answers, "new game ->")
        time.sleep(1.0)  # the crowd gathers
        times, statuses = [], Counter()
        end = time.time() + seconds
        while time.time() < end:
            status, took = server.request("GET", "/api/meta")
            times.append(took)
            statuses[status] += 1
            time.sleep(META_EVERY_S)
    finally:
        stop.set()
        server.close()
        pool.shutdown(wait=False, cancel_futures=True)
    times.sort()
    print(f"/api/meta through {idle} idle connections, {uploads} uploads of {UPLOAD_MB} MB and {games} new games "
          f"from one client at once, {seconds:.0f} s:")
    print(f"  {len(times)} asked, statuses {dict(statuses)}; slowest {times[-1]:.3f} s, median "
          f"{times[len(times) // 2]:.3f} s, over 1 s: {sum(t > 1 for t in times)}")
    print("  the attackers' answers: " + ", ".join(f"{k}: {v}" for k, v in sorted(answers.items())))


def main(argv: list[str] | None = None) -> None:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--seconds", type=float, default=20)
    p.add_argument("--idle", type=int, default=260)
    p.add_argument("--uploads", type=int, default=4)
    p.add_argument("--games", type=int, default=64)
    args = p.parse_args(argv)
    siege(args.seconds, args.idle, args.uploads, args.games)


if __name__ == "__main__":
    main()
