"""The web stack's floor: the least server CPU a move costs here, with no Robinson code in it.

Issue 17's goal, "at most 0.8 ms of server CPU per move in one process (the stack's floor here)",
comes from the performance review's throwaway floor server (section 2 of ../shared/reviews/
server-performance-review.md). CPU per move swings with this shared machine's load, so the floor
is measured here, the same day and the same way as `benchmarks/move_cost.py`: this runs
move_cost.py's own `measure` (its load client, its /proc accounting, its row) against a floor
server instead of `robinson serve`.

The floor server, a child process (`floor.py --serve`): FastAPI on uvicorn with `robinson
serve`'s options (src/robinson/cli/serve.py): the "auto" WebSocket implementation
(websockets-sansio), permessage-deflate, `ws_max_size=65536`, a ping every
`Settings().ping_interval` s, the "auto" loop (uvloop when importable). `POST /api/tables` makes
a table (three seat tokens); one WebSocket route per table, `/ws/tables/{table}`, answers a
`hello` with the game's snapshot. For an `act` (docs/protocol.md) the server parses the JSON
(orjson), checks its type, game, version and token, writes one INSERT into `actions` + one
UPDATE of `games` + COMMIT in SQLite (WAL, `synchronous=FULL`, as web/store/dialects.py; the
columns of web/store/writer.py) on ONE writer thread that commits whatever was queued meanwhile
together (group commit, as web/store/writer.py), then sends one real `update` text to every
socket of the table, each send awaited in turn (the project gives each socket a queue and a task
of its own, so a slow client holds nobody back: the floor does not), and an ack to the mover. A
`rematch` after the last update of a game starts the next one (a row in `games`, its snapshot).

The texts are real Robinson messages: first, a forked process plays `--corpus` (4) tables of 3
human seats in a real `GameService` in process (a temp SQLite file, the heuristic bot choosing
each move, a rematch after each game) and keeps what a listener holding all three seats is sent
in English: each game's snapshot and its successive `update` texts, `--games` (2) whole games per
table. Each floor table plays one real table's games in turn, over and over, so permessage-
deflate sees a game's successive updates, and the load client (which chooses its moves from the
states it is sent, as against `robinson serve`) plays them as it plays real ones.

The figures are move_cost.py's: `--tables` (200) of 3 seats, one player socket each and
`--spectators` (0) more, a move per table every `--think` ms (1000, x0.5-1.5), `--warmup` (3) s
then a window of `--seconds` (30); server CPU per move = Δ(utime + stime) of the server process
(/proc) over the window ÷ the moves, "main" the event loop's thread and "other" the rest (the
writer); p50/p99 move -> update; the load average at the window's start and end; the load
client's own CPU. One row in move_cost.py's format, mode "floor": run the two close together.

Bounded: set-up within `--setup-seconds`, the window by time; the server ends itself after all
of that (SIGALRM), dies with this process (PR_SET_PDEATHSIG) and is killed on any exit;
127.0.0.1 only.

    .venv/bin/python benchmarks/floor.py                    # 200 tables, about a minute
    .venv/bin/python benchmarks/floor.py --spectators 3
    .venv/bin/python benchmarks/move_cost.py --mode single --spectators 0   # side by side
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import ctypes
import json
import multiprocessing
import os
import secrets
import signal
import socket
import sqlite3
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from fastapi import FastAPI, WebSocket, WebSocketDisconnect

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from benchmarks.move_cost import HEADER, Target, measure, print_row
from benchmarks.serve_helper import free_port

PRAGMAS = ["busy_timeout=10000", "journal_mode=WAL", "synchronous=FULL", "foreign_keys=ON"]
SCHEMA = [  # the columns a move writes (web/store/writer.py)
    "CREATE TABLE games (id TEXT PRIMARY KEY, version INTEGER NOT NULL, over INTEGER NOT NULL, "
    "summary TEXT NOT NULL, deadline INTEGER, to_move INTEGER, moved INTEGER)",
    "CREATE TABLE actions (game_id TEXT NOT NULL REFERENCES games (id), seq INTEGER NOT NULL, "
    "action TEXT NOT NULL, seat INTEGER, created INTEGER NOT NULL, PRIMARY KEY (game_id, seq))",
]
NEW_GAME = "INSERT INTO games (id, version, over, summary) VALUES (?, 0, 0, '')"
ACTION = "INSERT INTO actions (game_id, seq, action, seat, created) VALUES (?, ?, ?, ?, ?)"
GAME = "UPDATE games SET version = ?, over = 0, summary = ?, deadline = NULL, to_move = ?, "
GAME += "moved = ? WHERE id = ?"
Statements = list[tuple[str, tuple[Any, ...]]]


def capture(path: str, tables: int, games: int) -> None:
    """Play `tables` real tables of 3 seats in a GameService, `games` games each, and write to
    `path` what a viewer holding every seat was sent: per table, per game, its id, its snapshot
    and its update texts."""
    from benchmarks.load_web import choose_move

    from robinson.bots import make_bot
    from robinson.web.service import GameService, SeatSpec, views
    from robinson.web.settings import Settings
    from robinson.web.store import Store

    class Catch(list[dict[str, Any]]):  # a listener holding every seat, as a player's socket
        lang, seats, __hash__ = "en", {0, 1, 2}, object.__hash__

        def send(self, message: dict[str, Any] | str) -> None:
            if isinstance(message, str) and message.startswith('{"type":"update"'):
                self[-1]["updates"].append(message)
            elif isinstance(message, dict) and message["type"] == "snapshot":
                text = json.dumps(message, ensure_ascii=False, separators=(",", ":"))
                self.append({"id": message["game"]["id"], "snapshot": text, "updates": []})

    async def play(service: GameService) -> list[dict[str, Any]]:
        seats = [SeatSpec(f"P{i}") for i in range(3)]
        made = await service.create_table(seats, {"edition": "standard"})
        table, tokens = await service.table(made["table"]), [s["token"] for s in made["seats"]]
        catch, bot = Catch(), make_bot("heuristic", 0)
        service.hold(table, catch, {0, 1, 2})
        service.subscribe(table, catch)
        while len(catch) <= games:
            game = views.game_view(table, "en")
            if game["over"]:
                await service.rematch(made["table"], tokens[0])
            else:
                move = choose_move(bot, game)
                await service.act(game["id"], tokens[game["to_move"]], game["version"], move)
        for g in catch[:games]:  # what the floor server relies on: versions 1, 2, ... of a game
            head = '{"type":"update","game":"%s","version":%d,'
            assert all(u.startswith(head % (g["id"], i + 1)) for i, u in enumerate(g["updates"]))
        return catch[:games]

    async def main(folder: str) -> list[list[dict[str, Any]]]:
        store = Store(f"sqlite:///{folder}/capture.sqlite3")
        service = GameService(store, Settings(bot_delay=0.0))
        await service.start()
        try:
            return list(await asyncio.gather(*(play(service) for _ in range(tables))))
        finally:
            await service.stop()
            store.close()

    with tempfile.TemporaryDirectory() as folder:
        Path(path).write_text(json.dumps(asyncio.run(main(folder))))


class Writer:
    """One thread and its connection; what is queued during a commit goes in the next one."""

    def __init__(self, database: str) -> None:
        self.database, self.connection = database, None  # opened and used on the thread only
        self.thread = ThreadPoolExecutor(1, thread_name_prefix="floor-writer")
        self.waiting: list[tuple[Statements, asyncio.Future[None]]] = []
        self.flushing: asyncio.Task[None] | None = None

    async def write(self, statements: Statements) -> None:
        done = asyncio.get_running_loop().create_future()
        self.waiting.append((statements, done))
        if self.flushing is None or self.flushing.done():
            self.flushing = asyncio.create_task(self._flush())
        await done

    async def _flush(self) -> None:
        while self.waiting:
            group, self.waiting = self.waiting, []
            job = asyncio.get_running_loop().run_in_executor(self.thread, self._commit, group)
            await asyncio.wait([job])
            for _, done in group:
                if not done.done():
                    done.set_exception(e) if (e := job.exception()) else done.set_result(None)

    def _commit(self, group: list[tuple[Statements, Any]]) -> None:
        if self.connection is None:  # the project's settings (web/store/dialects.py)
            self.connection = sqlite3.connect(self.database, check_same_thread=False)
            for sql in [f"PRAGMA {p}" for p in PRAGMAS] + SCHEMA:
                self.connection.execute(sql)
        for statements, _ in group:
            for sql, params in statements:
                self.connection.execute(sql, params)
        self.connection.commit()


@dataclass
class Table:
    id: str
    games: list[dict[str, Any]]  # the real games it plays in turn: id, snapshot, updates
    tokens: list[str]
    sockets: list[WebSocket] = field(default_factory=list)
    played: int = 0  # games started before this one
    version: int = 0  # moves of this game so far

    @property
    def game(self) -> dict[str, Any]:
        return self.games[self.played % len(self.games)]


def serve(port: int, database: str, corpus: str, lifetime: float) -> None:
    signal.alarm(max(1, int(lifetime)))  # bounded even if nobody stops it
    import orjson
    import uvicorn

    from robinson.web.settings import Settings

    real: list[list[dict[str, Any]]] = json.loads(Path(corpus).read_text())
    writer, tables, app = Writer(database), dict[str, Table](), FastAPI()

    async def send_all(table: Table, text: str) -> None:
        for ws in list(table.sockets):
            with contextlib.suppress(WebSocketDisconnect, RuntimeError):
                await ws.send_text(text)

    @app.post("/api/tables")
    async def create() -> dict[str, Any]:
        tokens = [secrets.token_urlsafe(16) for _ in range(3)]
        table = Table(secrets.token_urlsafe(9), real[len(tables) % len(real)], tokens)
        tables[table.id] = table
        await writer.write([(NEW_GAME, (f"{table.id}.0",))])
        return {"table": table.id, "seats": [{"token": t} for t in tokens]}

    @app.websocket("/ws/tables/{table_id}")
    async def table_socket(ws: WebSocket, table_id: str) -> None:
        await ws.accept()
        table = tables[table_id]
        orjson.loads(await ws.receive_text())  # the hello
        table.sockets.append(ws)
        await ws.send_text(table.game["snapshot"])
        try:
            while True:
                msg = orjson.loads(await ws.receive_text())
                game, seq, stored = table.game, table.version, f"{table.id}.{table.played}"
                last, act = seq == len(game["updates"]), ("act", game["id"], seq)
                if msg.get("token") not in table.tokens or not isinstance(msg.get("move", ""), str):
                    await ws.send_text('{"type":"error","code":"malformed"}')
                elif msg.get("type") == "rematch" and last:
                    table.played, table.version = table.played + 1, 0
                    await writer.write([(NEW_GAME, (f"{table.id}.{table.played}",))])
                    await send_all(table, table.game["snapshot"])
                    await ws.send_text('{"type":"ack"}')
                elif last or (msg.get("type"), msg.get("game"), msg.get("version")) != act:
                    await ws.send_text('{"type":"error","code":"stale_version"}')
                else:
                    table.version, now, seat = seq + 1, int(time.time()), seq % 3
                    move, summary = orjson.dumps(msg.get("move")).decode(), f"standard {seq}"
                    row = (ACTION, (stored, seq, move, seat, now))
                    await writer.write([row, (GAME, (seq + 1, summary, seat, now, stored))])
                    await send_all(table, game["updates"][seq])
                    await ws.send_text(orjson.dumps({"type": "ack", "version": seq + 1}).decode())
        except WebSocketDisconnect:
            pass
        finally:
            table.sockets.remove(ws)

    options: dict[str, Any] = {"ws": "auto", "loop": "auto", "log_level": "warning"}
    options.update(ws_max_size=65536, ws_per_message_deflate=True)  # as robinson serve
    options.update(ws_ping_interval=Settings().ping_interval)
    uvicorn.Server(uvicorn.Config(app, host="127.0.0.1", port=port, **options)).run()


def _die_with_parent() -> None:
    ctypes.CDLL(None).prctl(1, signal.SIGKILL)  # PR_SET_PDEATHSIG


@contextlib.contextmanager
def floor_server(args: argparse.Namespace) -> Iterator[Target]:
    """The real texts captured, then the floor server started; killed on the way out."""
    with tempfile.TemporaryDirectory() as folder:
        corpus, port = f"{folder}/real.json", free_port()
        ctx = multiprocessing.get_context("fork")  # the parent has no threads: forking is safe
        p = ctx.Process(target=capture, args=(corpus, args.corpus, args.games), daemon=True)
        p.start()
        p.join(args.setup_seconds)
        if p.exitcode != 0:
            p.kill()
            raise RuntimeError(f"capturing the texts failed or took over {args.setup_seconds} s")
        lifetime = 2 * args.setup_seconds + args.warmup + args.seconds + 100
        cmd = [__file__, "--serve", str(port), f"{folder}/floor.sqlite3", corpus, str(lifetime)]
        proc = subprocess.Popen([sys.executable, *cmd], preexec_fn=_die_with_parent)
        try:
            deadline = time.monotonic() + 60
            while proc.poll() is None and time.monotonic() < deadline:
                with contextlib.suppress(OSError), socket.create_connection(("127.0.0.1", port)):
                    break
                time.sleep(0.05)
            else:
                raise RuntimeError(f"the floor server did not listen ({proc.poll()})")
            ws = f"ws://127.0.0.1:{port}"
            yield Target(f"http://127.0.0.1:{port}", ws, ws, {"floor": proc.pid})
        finally:
            proc.kill()
            proc.wait(30)


OPTIONS = {  # --name: (default, lowest, highest, what)
    "tables": (200, 1, 5000, "tables of 3 seats, a player socket each"),
    "spectators": (0, 0, 10, "more sockets per table, receiving its updates"),
    "think": (1000.0, 0, 60000, "ms, the mean pause before each move of a table (x0.5-1.5)"),
    "warmup": (3.0, 0, 60, "seconds played before the window"),
    "seconds": (30.0, 0.1, 600, "seconds measured"),
    "clients": (1, 1, 8, "load-client processes"),
    "corpus": (4, 1, 20, "real tables played for the texts"),
    "games": (2, 2, 20, "real games kept per table (2 at least: a rematch starts another)"),
    "setup_seconds": (180.0, 1, 1200, "most seconds to capture the texts, to open the tables"),
}


def main() -> int:
    if sys.argv[1:2] == ["--serve"]:  # the child: PORT DATABASE CORPUS LIFETIME
        serve(int(sys.argv[2]), sys.argv[3], sys.argv[4], float(sys.argv[5]))
        return 0
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawTextHelpFormatter)
    for name, (default, _, _, what) in OPTIONS.items():
        flag, kind = f"--{name.replace('_', '-')}", type(default)
        ap.add_argument(flag, type=kind, default=default, help=f"{what} (default {default:g})")
    args = ap.parse_args()
    for name, (_, low, high, _) in OPTIONS.items():
        if not low <= getattr(args, name) <= high:
            ap.error(f"--{name.replace('_', '-')}: expected {low:g} to {high:g}")
    args.players = 3  # the real games' seats
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(1))  # the `finally`s stop what started
    print(
        f"the floor: {args.tables} tables of 3 seats, {args.spectators} spectators each, a move "
        f"every {args.think:g} ms (x0.5-1.5) each, {args.warmup:g} s warm-up, {args.seconds:g} s "
        f"window; {args.corpus}x{args.games} real games; load client: {args.clients} process(es) "
        f"on the same {os.cpu_count()} cores; load average now {os.getloadavg()[0]:.2f}",
        flush=True,
    )
    print(HEADER, flush=True)
    try:
        print_row(measure(args, "floor", args.spectators, lambda _: floor_server(args)))
    except Exception as e:
        print(f"{'floor':8} {args.spectators:5d} {args.tables:6d} failed: {e}", flush=True)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
