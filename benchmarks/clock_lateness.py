"""Clock benchmark: how late after its deadline the server makes a timed-out move.

Starts `robinson serve` on 127.0.0.1 (a free port, a temp SQLite file), creates `--tables`
tables of two human seats with `move_seconds` 5 where nobody acts, follows each over its
WebSocket and, for every timeout move, compares the time its `update` arrived with the deadline
the game view had announced (both on this machine's clock). Bounded by `--seconds`.

    .venv/bin/python benchmarks/clock_lateness.py --tables 20 --seconds 40
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.request
from datetime import datetime
from typing import Any

import websockets


def _post(url: str, body: Any) -> Any:
    req = urllib.request.Request(
        url, json.dumps(body).encode(), {"content-type": "application/json"}
    )
    with urllib.request.urlopen(req, timeout=10) as r:
        return json.loads(r.read())


def _free_port() -> int:
    import socket

    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


async def follow(base: str, table: str, until: float, late: list[float]) -> None:
    async with websockets.connect(f"ws://{base}/ws/tables/{table}") as ws:
        await ws.send(json.dumps({"type": "hello", "lang": "en", "tokens": []}))
        deadline = None
        while time.time() < until:
            try:
                raw = await asyncio.wait_for(ws.recv(), max(0.1, until - time.time()))
            except TimeoutError:
                return
            msg = json.loads(raw)
            state = msg.get("game") if msg["type"] == "snapshot" else msg.get("state")
            timeout = msg["type"] == "update" and msg.get("notes", [])[:1] != []
            if timeout and deadline is not None and msg["notes"][0].startswith("Time ran out"):
                late.append(time.time() - deadline)
            if state and state.get("clock"):
                deadline = datetime.fromisoformat(state["clock"]["deadline"]).timestamp()


async def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--tables", type=int, default=20)
    ap.add_argument("--seconds", type=float, default=40.0)
    args = ap.parse_args()
    port = _free_port()
    folder = tempfile.mkdtemp()
    cmd = [sys.executable, "-c", "import sys, robinson.cli as c; sys.exit(c.main())"]
    cmd += ["serve", "--port", str(port)]
    cmd += ["--database", f"sqlite:///{folder}/clock.sqlite3", "--bot-delay", "0"]
    server = subprocess.Popen(cmd, env={**os.environ}, stdout=subprocess.DEVNULL)
    base = f"127.0.0.1:{port}"
    try:
        for _ in range(600):
            try:
                urllib.request.urlopen(f"http://{base}/api/meta", timeout=1)
                break
            except OSError:
                await asyncio.sleep(0.1)
        seats = [{"name": "Anna"}, {"name": "Bruno"}]
        made = [
            _post(f"http://{base}/api/tables", {"seats": seats, "move_seconds": 5})
            for _ in range(args.tables)
        ]
        until = time.time() + args.seconds
        late: list[float] = []
        await asyncio.gather(*(follow(base, t["table"], until, late) for t in made))
    finally:
        server.terminate()
        server.wait(10)
    if not late:
        print("no timeout moves seen")
        return
    late.sort()
    p99 = late[min(len(late) - 1, int(len(late) * 0.99))]
    print(
        f"{args.tables} tables, move_seconds 5, {args.seconds:g} s: {len(late)} timeout moves; "
        f"late after the deadline: median {statistics.median(late) * 1000:.0f} ms, "
        f"p99 {p99 * 1000:.0f} ms, max {late[-1] * 1000:.0f} ms"
    )


if __name__ == "__main__":
    asyncio.run(main())
