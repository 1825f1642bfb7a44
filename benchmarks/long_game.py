"""What a very long game costs the server, and a bystander (issue 22).

Both players of a two-seat table may stay on the tree for ever, so a game can run to tens of
thousands of actions. This writes such a game (`--actions`, default 20,000: stay on the tree
while fewer have been played, then forward to the end) straight into a SQLite database with
the fair dice of a seed that puts a pawn on the tree, starts `robinson serve` on it, and
measures against the real server:

- the server's CPU time (Δ utime + stime from /proc, in clock ticks of 10 ms: the repeats are
  timed together) of a `hello` (a spectator's snapshot), `GET /record`, `GET /odds`,
  `GET /odds/history` (of a game going on), `GET /replay` (of a finished one: a first page of
  200 steps, and the whole), the first time and then the mean of repeats; and of the chart
  after each new move;
- a bystander playing a two-seat game over its WebSocket (a move every 50 ms): its moves'
  median and p99 round trip, first alone, then while one client repeats those requests as
  fast as the server answers.

Usage: .venv/bin/python benchmarks/long_game.py [--actions 20000] [--seconds 10]
"""

from __future__ import annotations

import argparse
import asyncio
import functools
import json
import multiprocessing
import os
import statistics
import sys
import tempfile
import time
import urllib.request
from pathlib import Path
from typing import Any

import websockets

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from benchmarks import serve_helper

from robinson import fairdice
from robinson.engine import (
    DECISION_OF,
    Action,
    Choose,
    Roll,
    Ruleset,
    apply,
    legal_actions,
    new_game,
    to_text,
)

TICKS = os.sysconf("SC_CLK_TCK")


def cpu_seconds(pid: int) -> float:
    with open(f"/proc/{pid}/stat") as f:
        fields = f.read().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / TICKS


def long_actions(seed: bytes, staying: int, finish: bool = True) -> list[Action]:
    """The actions of a two-player game with these dice: stay on the tree while fewer than
    `staying` actions have been played, then the forward option to the end (or stop there,
    the game unfinished, when not `finish`)."""
    state, rolls = new_game(2, Ruleset(), 0), 0
    actions: list[Action] = []
    while not state.over and (finish or len(actions) < staying):
        legal = legal_actions(state)
        if isinstance(legal[0], Roll):
            action: Any = Roll(fairdice.face(seed, rolls))
            rolls += 1
        else:
            decision = DECISION_OF[state.phase]
            stay = len(actions) < staying and "stay" in decision.options
            want = "stay" if stay else decision.forward
            action = next(a for a in legal if isinstance(a, Choose) and a.option == want)
        state, _ = apply(state, action)
        actions.append(action)
    return actions


def a_long_seed(staying: int) -> bytes:
    """The first of seeds 0, 1, ... whose game stays on the tree for `staying` actions."""
    for k in range(10_000):
        seed = k.to_bytes(32, "big")
        if len(long_actions(seed, staying)) > staying:
            return seed
    raise RuntimeError("no seed found")


def fill(url: str, game_id: str, staying: int, key: bytes | None, finish: bool) -> int:
    from sqlalchemy import create_engine, insert, update

    from robinson.web.store.schema_tables import actions as actions_table
    from robinson.web.store.schema_tables import games
    from robinson.web.store.seeds import SeedBox

    seed = a_long_seed(staying)
    actions = long_actions(seed, staying, finish)
    state, movers = new_game(2, Ruleset(), 0), []
    for a in actions:
        movers.append(state.to_move)
        state, _ = apply(state, a)
    now = int(time.time())
    engine = create_engine(url)
    with engine.begin() as conn:
        conn.execute(
            insert(actions_table),
            [
                {
                    "game_id": game_id,
                    "seq": i,
                    "action": json.dumps(a.to_json()),
                    "seat": seat,
                    "created": now,
                }
                for i, (a, seat) in enumerate(zip(actions, movers, strict=True))
            ],
        )
        conn.execute(
            update(games)
            .where(games.c.id == game_id)
            .values(
                seed=SeedBox(key).seal(game_id, seed.hex()),
                dice_scheme=None,  # the first scheme (the server's seed alone): still valid
                seed_sha256=fairdice.commitment(seed),
                version=len(actions),
                over=int(state.over),
                summary=to_text(state),
                to_move=state.to_move,
                first=0,
            )
        )
    engine.dispose()
    return len(actions)


class Bystander:
    """Two seats of another table played over one WebSocket, a move every `pause` s."""

    def __init__(self, ws: str, table: dict[str, Any], pause: float = 0.05) -> None:
        self.url = f"{ws}/ws/tables/{table['table']}"
        self.tokens = [s["token"] for s in table["seats"]]
        self.pause = pause
        self.times: list[float] = []
        self.recording = False

    async def run(self, stop: asyncio.Event) -> None:
        async with websockets.connect(self.url) as ws:
            await ws.send(json.dumps({"type": "hello", "lang": "en", "tokens": self.tokens}))
            state: dict[str, Any] = {}
            n = 0
            waiting: tuple[int, float] | None = None  # (the version a move makes, sent at)
            while not stop.is_set():
                msg = json.loads(await ws.recv())
                if msg["type"] == "snapshot":
                    state = msg["game"]
                elif msg["type"] == "update":  # a move's time: from its sending to its update
                    state = msg["state"]
                    if waiting is not None and msg["version"] >= waiting[0]:
                        if self.recording:
                            self.times.append(time.perf_counter() - waiting[1])
                        waiting = None
                else:
                    continue
                if state.get("over"):
                    await ws.send(json.dumps({"type": "rematch", "token": self.tokens[0]}))
                    continue
                await asyncio.sleep(self.pause)
                legal = state["legal"]
                move = "roll" if "roll" in legal else legal[-1]
                n += 1
                waiting = (state["version"] + 1, time.perf_counter())
                token = self.tokens[state["to_move"]]
                act = {"type": "act", "id": n, "game": state["id"], "token": token}
                await ws.send(json.dumps({**act, "version": state["version"], "move": move}))


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--actions", type=int, default=20_000, help="staying on the tree this long")
    ap.add_argument("--seconds", type=float, default=10.0, help="each bystander window")
    ap.add_argument("--repeats", type=int, default=10, help="repeats of each request")
    args = ap.parse_args()
    folder = Path(tempfile.mkdtemp(prefix="robinson-long-"))
    path = folder / "long.sqlite3"
    url = f"sqlite:///{path}"
    proc, base = serve_helper.start(url)
    seats = {"seats": [{"name": "Anna"}, {"name": "Bo"}]}
    going, ended = (serve_helper.post(f"{base}/api/tables", seats) for _ in range(2))
    other = serve_helper.post(f"{base}/api/tables", {"seats": [{"name": "Cy"}, {"name": "Di"}]})
    serve_helper.stop(proc)
    from robinson.web.store.seeds import key_path, load_key

    key = load_key(key_path(str(path), None))
    for table, finish in ((going, False), (ended, True)):
        began = time.perf_counter()
        n = fill(url, table["game"], args.actions, key, finish)
        done = "finished" if finish else "going on"
        print(f"a game of {n:,} actions, {done}, written in {time.perf_counter() - began:.1f} s")
    proc, base = serve_helper.start(url)
    ws_base = base.replace("http", "ws", 1)
    try:
        game = f"{base}/api/games/{going['game']}"
        _solved(f"{game}/odds")  # the chances' first solve on this machine is not measured
        print(f"load average at the start: {os.getloadavg()[0]:.2f}")
        reads = {
            "hello (a snapshot)": functools.partial(_hello, ws_base, going["table"]),
            "GET /record": functools.partial(_get, f"{game}/record"),
            "GET /odds (the position now)": functools.partial(_get, f"{game}/odds"),
            "GET /odds/history": functools.partial(_get, f"{game}/odds/history"),
            "GET /replay, 200 steps": functools.partial(
                _get, f"{base}/api/games/{ended['game']}/replay?count=200"
            ),
            "GET /replay, whole": functools.partial(
                _get, f"{base}/api/games/{ended['game']}/replay"
            ),
        }
        print(f"| request | first: server CPU | then: server CPU, mean of {args.repeats} | bytes |")
        print("|---|---|---|---|")
        for name, read in reads.items():
            first, size = _cpu(proc.pid, read)
            then = _cpu(proc.pid, lambda r=read: [r() for _ in range(args.repeats)])[0]
            mean = then / args.repeats * 1000
            print(f"| {name} | {first * 1000:.0f} ms | {mean:.1f} ms | {size:,} |")
        # the chart after each new move: grown by one turn, not made again
        spent = 0.0
        for _ in range(args.repeats):
            _move(base, going)
            spent += _cpu(proc.pid, reads["GET /odds/history"])[0]
        print(f"| GET /odds/history after a new move | | {spent / args.repeats * 1000:.1f} ms | |")
        quiet = _bystander(ws_base, other, args.seconds, None)
        busy = _bystander(ws_base, other, args.seconds, list(reads.values()))
        for name, times in (("alone", quiet), ("while one client repeats them", busy)):
            p50 = statistics.median(times) * 1000
            p99 = sorted(times)[int(len(times) * 0.99) - 1] * 1000
            print(f"bystander's moves {name}: {len(times)}, p50 {p50:.1f} ms, p99 {p99:.1f} ms")
        print(f"load average at the end: {os.getloadavg()[0]:.2f}")
    finally:
        serve_helper.stop(proc)


def _move(base: str, table: dict[str, Any]) -> None:
    """The next move of the game going on: roll, or stay on the tree."""
    state = serve_helper.get(f"{base}/api/tables/{table['table']}")["game"]
    legal = state["legal"]
    move = "roll" if "roll" in legal else "stay" if "stay" in legal else legal[0]
    token = table["seats"][state["to_move"]]["token"]
    body = {"token": token, "version": state["version"], "move": move}
    serve_helper.post(f"{base}/api/games/{state['id']}/actions", body)


def _solved(address: str) -> None:
    """Wait while the chances answer 202 (their chains being solved, once per machine)."""
    deadline = time.monotonic() + 300
    while serve_helper.get(address).get("status") == "computing":
        if time.monotonic() > deadline:
            raise RuntimeError("the chances were not solved within 300 s")
        time.sleep(0.5)


def _get(address: str) -> int:
    with urllib.request.urlopen(address, timeout=60) as r:
        return len(r.read())


def _hello(ws_base: str, table: str) -> int:
    return asyncio.run(_hello_once(ws_base, table))


async def _hello_once(ws_base: str, table: str) -> int:
    async with websockets.connect(f"{ws_base}/ws/tables/{table}", max_size=None) as ws:
        await ws.send(json.dumps({"type": "hello", "lang": "en", "tokens": []}))
        return len(await ws.recv())


def _cpu(pid: int, read: Any) -> tuple[float, int]:
    before = cpu_seconds(pid)
    size = read()
    return cpu_seconds(pid) - before, size


def _hammer(reads: list[Any], stop: Any) -> None:
    while not stop.is_set():
        for read in reads:
            try:
                read()
            except OSError:  # refused (429/503): the benchmark's server allows a lot
                time.sleep(0.01)


def _bystander(ws_base: str, other: dict[str, Any], seconds: float, reads: Any) -> list[float]:
    """The bystander's move times over `seconds`, with `reads` repeated meanwhile by another
    process (its own GIL: only the server is shared)."""
    stop = multiprocessing.Event()
    hammer = multiprocessing.Process(target=_hammer, args=(reads, stop)) if reads else None

    async def run() -> list[float]:
        bystander = Bystander(ws_base, other)
        done = asyncio.Event()
        task = asyncio.create_task(bystander.run(done))
        await asyncio.sleep(1.0)  # connected and playing
        bystander.recording = True
        await asyncio.sleep(seconds)
        done.set()
        task.cancel()
        await asyncio.gather(task, return_exceptions=True)
        return bystander.times

    if hammer:
        hammer.start()
    try:
        return asyncio.run(run())
    finally:
        stop.set()
        if hammer:
            hammer.join()


if __name__ == "__main__":
    main()
