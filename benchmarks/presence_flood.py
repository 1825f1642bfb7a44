"""A presence flood against a real `robinson serve` (issue 22, "What must hold").

One seated player's socket alternates `hello` with and without his token (`--flips`, default
10,000, at `--rate` a second, default 1,000: the issue's flood made 1,111 `state`s a second; he
plays his own moves at once); the server is given generous rate limits, so the flood
is served, not refused). Meanwhile, measured:

- a spectator of the flooded table: the `state` messages a second that reach it (over the
  flood, and in its busiest second);
- the other player of the flooded table, on a 5-s clock (`--clock`): he clicks `--click` s
  (default 2) after he sees his turn; how late he sees it (the server's turn start, read from
  the clock's deadline, to its arrival), and whether the clock ever made a move for him;
- a bystander playing a two-seat game at another table (a move every 50 ms): its moves'
  median and p99 round trip, alone and during the flood.

Every figure is printed with `os.getloadavg()` (the machine is shared).

Usage: .venv/bin/python benchmarks/presence_flood.py [--flips 10000] [--clock 5] [--click 2]
(the server runs the code on PYTHONPATH: PYTHONPATH=src for a checkout's own)
"""

from __future__ import annotations

import argparse
import asyncio
import json
import multiprocessing
import os
import statistics
import sys
import tempfile
import time
from datetime import datetime
from pathlib import Path
from typing import Any

import websockets

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from benchmarks import serve_helper
from benchmarks.long_game import Bystander

BATCH = 50  # the flooder's hellos between two pings


def load() -> str:
    one, five, _ = os.getloadavg()
    return f"(load {one:.2f} / {five:.2f})"


def _ms(stamp: str) -> float:
    return datetime.fromisoformat(stamp.replace("Z", "+00:00")).timestamp()


def flood(ws_base: str, table: str, token: str, flips: int, rate: float, done: Any) -> None:
    """In a process of its own: `flips` hellos, alternately without and with `token`, at most
    `rate` a second (and Anna's moves played at once when they come), in batches of BATCH,
    each followed by a ping whose pong it waits for (a client that does not read its replies is
    cut off by the server: 4408)."""

    async def run() -> None:
        async with websockets.connect(f"{ws_base}/ws/tables/{table}", max_size=None) as ws:
            began = time.perf_counter()
            state: dict[str, Any] = {}
            for flip in range(flips):
                tokens = [token] if flip % 2 else []
                await ws.send(json.dumps({"type": "hello", "lang": "en", "tokens": tokens}))
                if flip % BATCH == BATCH - 1 or flip == flips - 1:
                    await ws.send(json.dumps({"type": "ping", "id": flip}))
                    while True:
                        msg = json.loads(await ws.recv())
                        if msg["type"] in ("snapshot", "update", "state"):
                            state = msg["game"] if msg["type"] == "snapshot" else msg["state"]
                        if msg["type"] == "pong" and msg["id"] == flip:
                            break
                    if state.get("to_move") == 0 and state["legal"] and not state["over"]:
                        move = "roll" if "roll" in state["legal"] else state["legal"][-1]
                        act = {"type": "act", "game": state["id"], "version": state["version"]}
                        await ws.send(json.dumps({**act, "token": token, "move": move}))
                    ahead = (flip + 1) / rate - (time.perf_counter() - began)
                    await asyncio.sleep(max(0.0, ahead))  # at `rate` flips a second
            spent = time.perf_counter() - began
            print(f"flooder: {flips:,} hellos answered in {spent:.1f} s {load()}", flush=True)

    try:
        asyncio.run(run())
    finally:
        done.set()


class Watcher:
    """The spectator: when each `state` reached it."""

    def __init__(self) -> None:
        self.states: list[float] = []
        self.last: dict[str, Any] | None = None

    async def run(self, url: str, stop: asyncio.Event) -> None:
        async with websockets.connect(url, max_size=None) as ws:
            await ws.send(json.dumps({"type": "hello", "lang": "en", "tokens": []}))
            while not stop.is_set():
                try:
                    msg = json.loads(await asyncio.wait_for(ws.recv(), 0.5))
                except TimeoutError:
                    continue
                if msg["type"] == "state":
                    self.states.append(time.perf_counter())
                    self.last = msg["state"]


class Victim:
    """The flooded table's other player: clicks `click` s after he sees his turn."""

    def __init__(self, url: str, token: str, seat: int, click: float) -> None:
        self.url, self.token, self.seat, self.click = url, token, seat, click
        self.late: list[float] = []  # seconds from the server's turn start to seeing it
        self.moves = 0
        self.clock_moves = 0  # timeouts of his seat seen in any state

    async def run(self, stop: asyncio.Event, clock: int) -> None:
        async with websockets.connect(self.url, max_size=None) as ws:
            await ws.send(json.dumps({"type": "hello", "lang": "en", "tokens": [self.token]}))
            turn: tuple[str, int] | None = None
            while not stop.is_set():
                try:
                    msg = json.loads(await asyncio.wait_for(ws.recv(), 0.5))
                except TimeoutError:
                    continue
                if msg["type"] not in ("snapshot", "update", "state"):
                    continue
                state = msg["game"] if msg["type"] == "snapshot" else msg["state"]
                me = state["players"][self.seat]
                self.clock_moves = max(self.clock_moves, me["timeouts"])
                if state["over"] or state["to_move"] != self.seat:
                    continue
                if turn == (state["id"], state["version"]) or state["clock"] is None:
                    continue
                turn = (state["id"], state["version"])
                started = _ms(state["clock"]["deadline"]) - clock
                self.late.append(time.time() - started)
                await asyncio.sleep(max(0.0, self.click - (time.time() - started)))
                move = "roll" if "roll" in state["legal"] else state["legal"][-1]
                body = {"type": "act", "id": self.moves, "game": state["id"], "move": move}
                await ws.send(json.dumps({**body, "token": self.token, **_v(state)}))
                self.moves += 1


def _v(state: dict[str, Any]) -> dict[str, Any]:
    return {"version": state["version"]}


async def measure(
    ws_base: str, flooded: dict[str, Any], other: dict[str, Any], args: Any, flooding: bool
) -> dict[str, Any]:
    stop = asyncio.Event()
    url = f"{ws_base}/ws/tables/{flooded['table']}"
    watcher = Watcher()
    victim = Victim(url, flooded["seats"][1]["token"], 1, args.click)
    bystander = Bystander(ws_base, other)
    tasks = [
        asyncio.create_task(watcher.run(url, stop)),
        asyncio.create_task(victim.run(stop, args.clock)),
        asyncio.create_task(bystander.run(stop)),
    ]
    await asyncio.sleep(1.0)
    bystander.recording = True
    began = time.perf_counter()
    seen_before = len(watcher.states)
    done = multiprocessing.Event()
    flooder = None
    if flooding:
        token = flooded["seats"][0]["token"]
        flooder = multiprocessing.Process(
            target=flood, args=(ws_base, flooded["table"], token, args.flips, args.rate, done)
        )
        flooder.start()
        while not done.is_set():
            await asyncio.sleep(0.1)
    else:
        await asyncio.sleep(args.seconds)
    spent = time.perf_counter() - began
    await asyncio.sleep(1.5)  # the last coalesced state
    stop.set()
    for task in tasks:
        task.cancel()
    for outcome in await asyncio.gather(*tasks, return_exceptions=True):
        if isinstance(outcome, Exception):
            print(f"  a client failed: {outcome!r}")
    if flooder is not None:
        flooder.join()
    states = [t for t in watcher.states[seen_before:] if t <= began + spent]
    busiest = max((sum(1 for u in states if t <= u < t + 1) for t in states), default=0)
    return {
        "seconds": spent,
        "states": len(states),
        "busiest": busiest,
        "last": watcher.last,
        "bystander": bystander.times,
        "victim": victim,
    }


def report(name: str, got: dict[str, Any]) -> None:
    times = got["bystander"]
    p50 = statistics.median(times) * 1000 if times else float("nan")
    p99 = sorted(times)[max(0, int(len(times) * 0.99) - 1)] * 1000 if times else float("nan")
    rate = got["states"] / got["seconds"]
    print(f"{name}, {got['seconds']:.1f} s:")
    print(
        f"  states to a spectator of the flooded table: {got['states']}, {rate:.1f}/s, "
        f"busiest second {got['busiest']} {load()}"
    )
    print(f"  bystander's moves: {len(times)}, p50 {p50:.1f} ms, p99 {p99:.1f} ms {load()}")
    victim: Victim = got["victim"]
    late = victim.late or [float("nan")]
    print(
        f"  victim (clock {victim.click:g} s click): {victim.moves} moves, sees his turn "
        f"p50 {statistics.median(late) * 1000:.0f} ms / max {max(late) * 1000:.0f} ms late, "
        f"moves made by the clock for him: {victim.clock_moves} {load()}"
    )
    if got["last"] is not None:
        present = [p["present"] for p in got["last"]["players"]]
        print(f"  the spectator's last state: present {present}")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--flips", type=int, default=10_000)
    ap.add_argument("--rate", type=float, default=1000.0, help="flips a second, at most")
    ap.add_argument("--clock", type=int, default=5, help="the flooded table's move clock, s")
    ap.add_argument("--click", type=float, default=2.0, help="the victim clicks within, s")
    ap.add_argument("--seconds", type=float, default=10.0, help="the quiet window")
    args = ap.parse_args()
    folder = Path(tempfile.mkdtemp(prefix="robinson-flood-"))
    proc, base = serve_helper.start(f"sqlite:///{folder / 'flood.sqlite3'}")
    ws_base = base.replace("http", "ws", 1)
    try:
        print(f"load at the start {load()}")
        seats = [{"name": "Anna"}, {"name": "Bruno"}]
        flooded = serve_helper.post(
            f"{base}/api/tables", {"seats": seats, "move_seconds": args.clock}
        )
        other = serve_helper.post(f"{base}/api/tables", {"seats": [{"name": "C"}, {"name": "D"}]})
        report("quiet", asyncio.run(measure(ws_base, flooded, other, args, False)))
        report(
            f"a flood of {args.flips:,} flips",
            asyncio.run(measure(ws_base, flooded, other, args, True)),
        )
        print(f"load at the end {load()}")
    finally:
        serve_helper.stop(proc)


if __name__ == "__main__":
    main()
