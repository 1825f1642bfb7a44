"""Simulated chances asked by many clients at once, and a bystander's moves (issue 22).

A six-seat table's chances are simulated (200,000 games a position, 5 to 8 living players), so
each new position costs tens of milliseconds of CPU. `--clients` processes (default 16), each
with an address of its own (`X-Forwarded-For`, which the server takes from a proxy on
127.0.0.1) and a six-bot game of its own, ask for the chances after every version of that
game in turn, as fast as they are answered (each position simulated once, then kept);
meanwhile a bystander plays a two-seat game at another table over its WebSocket (a move every
50 ms). Prints the bystander's move times (from sending to its update) alone and
during the storm, the chances answered and refused, and the load average.

Usage: .venv/bin/python benchmarks/odds_clients.py [--clients 16] [--seconds 10]
"""

from __future__ import annotations

import argparse
import json
import multiprocessing
import os
import statistics
import sys
import time
import urllib.error
import urllib.request
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from benchmarks import serve_helper
from benchmarks.long_game import _bystander


def _ask(base: str, game: str, versions: int, address: str, stop: Any, counts: Any) -> None:
    """Ask for the chances after each version in turn, from `address`, until stopped."""
    version = 0
    while not stop.is_set():
        req = urllib.request.Request(
            f"{base}/api/games/{game}/odds?version={version}",
            headers={"X-Forwarded-For": address},
        )
        try:
            with urllib.request.urlopen(req, timeout=60) as r:
                r.read()
                with counts.get_lock():
                    counts[0 if r.status == 200 else 1] += 1
        except urllib.error.HTTPError:  # refused: 429 (this address) or 503 (the queue)
            with counts.get_lock():
                counts[2] += 1
            time.sleep(0.05)
        version = (version + 1) % versions


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--clients", type=int, default=16)
    ap.add_argument("--seconds", type=float, default=10.0)
    args = ap.parse_args()
    folder = Path(os.environ.get("TMPDIR", "/tmp")) / f"robinson-odds-{os.getpid()}"
    folder.mkdir(parents=True, exist_ok=True)
    proc, base = serve_helper.start(f"sqlite:///{folder / 'odds.sqlite3'}", "--bot-delay", "0")
    try:
        six = [{"name": f"B{i}", "kind": "bot", "bot": "heuristic"} for i in range(6)]
        # one six-bot table per client: every asker's positions are its own, never kept yet
        games = [
            serve_helper.post(f"{base}/api/tables", {"seats": six}) for _ in range(args.clients)
        ]
        other = serve_helper.post(f"{base}/api/tables", {"seats": [{"name": "Cy"}, {"name": "Di"}]})
        time.sleep(5)  # the bots play their games
        versions = [
            max(1, serve_helper.get(f"{base}/api/tables/{g['table']}")["game"]["version"])
            for g in games
        ]
        print(f"{len(games)} six-seat bot games, {sum(versions)} positions in all; "
              f"load {os.getloadavg()[0]:.2f}")  # fmt: skip
        ws_base = base.replace("http", "ws", 1)
        quiet = _bystander(ws_base, other, args.seconds, None)
        stop = multiprocessing.Event()
        counts = multiprocessing.Array("i", 3)
        askers = [
            multiprocessing.Process(
                target=_ask, args=(base, g["game"], n, f"10.9.0.{i + 1}", stop, counts)
            )
            for i, (g, n) in enumerate(zip(games, versions, strict=True))
        ]
        for a in askers:
            a.start()
        try:
            busy = _bystander(ws_base, other, args.seconds, None)
        finally:
            stop.set()
            for a in askers:
                a.join()
        for name, times in (("alone", quiet), (f"while {args.clients} clients ask", busy)):
            p50 = statistics.median(times) * 1000
            p99 = sorted(times)[int(len(times) * 0.99) - 1] * 1000
            print(f"bystander's moves {name}: {len(times)}, p50 {p50:.1f} ms, p99 {p99:.1f} ms")
        print(f"chances answered {counts[0]}, computing {counts[1]}, refused {counts[2]}")
        print(f"load average at the end: {os.getloadavg()[0]:.2f}")
        print(json.dumps({"answered": counts[0], "refused": counts[2]}))
    finally:
        serve_helper.stop(proc)


if __name__ == "__main__":
    main()
