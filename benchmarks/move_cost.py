"""What a move costs the server: CPU time per move, from the server processes' own CPU time.

Each configuration is one row:

- `--mode single`: one `robinson serve` on a temp SQLite file;
- `--mode cluster`: two `robinson serve --redis` processes on a throwaway PostgreSQL and
  redis-server (with nginx in front, tests/web/cluster.py, though the load goes straight to the
  processes): the players' sockets on process A, the spectators' on process B, so every move
  crosses Redis (docs/scaling.md);
- `--mode routed`: the same two processes, each table wholly on one of them (alternately A and
  B): created there and every socket of it there, as nginx's hash on the table id routes a
  table's page, sockets and API (deploy/nginx/robinson.conf). No other process follows a
  table, so its moves are not published (cluster/bus.py). In production the request that
  creates a table carries no table id and may reach another process, which then keeps a copy
  (and the moves are published to it) until it unloads the table (`--unload-after`, 10
  minutes, the sweep at most a minute later); the row leaves that out;
- each with `--spectators 0` and `3` per table (default `--mode all`: single, routed and
  cluster, six rows in that order; `--mode both`: single and cluster).

Every table has 3 human seats (`--players`) and one WebSocket holding all their tokens; with
spectators, each table also has that many spectator sockets. Each table makes a move about once a
second (a think time of 0.5 to 1.5 times `--think`, 1,000 ms), the heuristic bot choosing it
(benchmarks/load_web.py); a finished game is followed by a rematch. Rate limits are lifted and
`--bot-delay 0`, as in the performance review. Once every socket is open and has its snapshot,
the tables start; after `--warmup` seconds (3) the window of `--seconds` (30) begins. Over the
window, per row:

- moves/s: the moves whose update reached their player's socket in the window;
- server CPU per move: Δ(utime + stime) of each server process (/proc/PID/stat) ÷ the moves;
  "main" is the event loop's thread (/proc/PID/task/PID/stat), "other" = total - main: every
  other thread (the store's writer, `to_thread` workers, threads that ended in the window); in a
  cluster, per process (A, B) and over both. The kernel counts in 10 ms ticks: a short window with
  few moves reads coarse (even a slightly negative "other");
- cluster rows: PostgreSQL commits per move (`xact_commit` of the game's database in
  pg_stat_database, as the review counted them) and writing transactions per move (transaction
  ids assigned: exact), and Redis commands per move (INFO commandstats, less the benchmark's own
  INFO), with the commands that make them. PostgreSQL's backends flush xact_commit about once a
  second while busy (so ±1 s of commits) and 10 s after going idle, so the set-up's commits
  (tables, snapshots) would show up to 10 s late: PostgreSQL's figures are taken from 11 s after
  the start (the last 22 s of the default window), or over the whole window if that leaves < 5 s;
- move -> broadcast latency, p50 and p99, at the mover's socket (and at the spectators' sockets,
  which in a cluster includes the Redis hop); whether p99 is under 100 ms;
- the 1-minute load average at the start and end of the window, and the load client's own CPU
  per move and share of a core.

The load client runs on the same machine and cores as the server (its figure is printed so it
can be taken into account): `--clients K` worker processes (default 1), each one asyncio loop
with its share of the tables' sockets; its CPU is Δ(utime + stime) of those processes over the
same window (the parent only sleeps and samples). If one client process is near a full core the
latencies are partly the client's; use `--clients 2`.

The machine is shared and CPU time per move swings with its load (the review saw 1.5-3.0 ms for
one configuration at load 1-5.6): compare rows run close together, at a quiet moment. The test
PostgreSQL runs with fsync off (tests/web/postgres.py), which changes its latency, not the
commits counted nor the servers' CPU.

Bounded: every loop ends by time, setting up included (`--setup-seconds`); it listens and
connects on 127.0.0.1 only; every server, PostgreSQL, Redis, nginx and worker it starts is
stopped at the end, also on an error, Ctrl-C or SIGTERM.

    .venv/bin/python benchmarks/move_cost.py                  # the six rows, ~6 minutes
    .venv/bin/python benchmarks/move_cost.py --mode routed    # the cluster as nginx routes it
    .venv/bin/python benchmarks/move_cost.py --mode single --spectators 0 --tables 20 --seconds 5
    .venv/bin/python benchmarks/move_cost.py --mode single --tables 1000 --seconds 30  # p99 < 100?
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import multiprocessing
import os
import random
import shutil
import signal
import sys
import tempfile
import time
from collections.abc import Callable, Iterator
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from multiprocessing.connection import Connection
from pathlib import Path
from typing import Any

import websockets

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from benchmarks import serve_helper
from benchmarks.load_web import choose_move, started_cluster

from robinson.bots import make_bot

UPDATE = '{"type":"update"'  # how the server's update messages begin (game, then version)
GOAL_P99 = 0.100  # seconds: the "p99 under 100 ms"
# PostgreSQL's backends flush their counters at most once a second while busy, and 10 s after
# going idle: what the set-up did (tables, snapshots) shows in xact_commit up to 10 s later.
PG_SETTLE = 11.0  # so the commits are counted from this long after the start, if it leaves 5 s


# -- the load client (in worker processes) -------------------------------------------------------


@dataclass(frozen=True)
class Job:
    """One worker's share of the load."""

    http: str  # where tables are created
    players_ws: str  # where the players' sockets connect
    spectators_ws: str  # where the spectators' connect
    tables: int
    spectators: int
    players: int
    think: float  # seconds, the mean pause before each move
    setup_seconds: float
    # Routed: (http, ws) of each process; table i of this worker lives wholly on process
    # (first + i) % len(route). Empty: created at `http`, sockets at the two addresses above.
    route: tuple[tuple[str, str], ...] = ()
    first: int = 0


@dataclass
class Table:
    """What a table's player tells its spectators: the move in flight and when it was sent."""

    version: int = -1
    sent_at: float = 0.0


@dataclass
class Record:
    """What a worker measured in the window [lo, hi] (time.monotonic, the same in every process)."""

    lo: float
    hi: float
    latency: list[float] = field(default_factory=list)
    arrived: list[float] = field(default_factory=list)  # when each of those updates came
    spectator: list[float] = field(default_factory=list)
    finished: int = 0
    errors: list[str] = field(default_factory=list)


def worker(conn: Connection, job: Job) -> None:
    """A load-client process: set up, say "ready", wait for "go", play, send back the record."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # the parent stops it (SIGTERM)
    try:
        conn.send(("done", asyncio.run(_load(conn, job))))
    except BaseException as e:  # tell the parent whatever went wrong
        conn.send(("error", repr(e)))
    finally:
        conn.close()


async def _load(conn: Connection, job: Job) -> Record:
    loop = asyncio.get_running_loop()
    setup_end = time.monotonic() + job.setup_seconds
    seats = {"seats": [{"name": f"P{i}"} for i in range(job.players)]}
    sockets: list[Any] = []
    readers: list[asyncio.Task[None]] = []
    record = Record(0.0, 0.0)
    gate = asyncio.Semaphore(32)  # connections being opened at once

    def place(i: int) -> tuple[str, str, str]:
        """Where table i is created, and where its players' and spectators' sockets go."""
        if job.route:
            http, ws = job.route[(job.first + i) % len(job.route)]
            return http, ws, ws
        return job.http, job.players_ws, job.spectators_ws

    async def open_table(i: int, t: dict[str, Any]) -> tuple[Any, Table, list[str], dict[str, Any]]:
        table, tokens = Table(), [s["token"] for s in t["seats"]]
        _, players_ws, spectators_ws = place(i)
        async with gate:
            for _ in range(job.spectators):
                ws = await _connect(f"{spectators_ws}/ws/tables/{t['table']}", [])
                sockets.append(ws)
                readers.append(asyncio.create_task(_spectate(ws, table, record)))
            ws = await _connect(f"{players_ws}/ws/tables/{t['table']}", tokens)
            sockets.append(ws)
            game = await _snapshot(ws, None)
        return ws, table, tokens, game

    try:
        async with asyncio.timeout_at(setup_end):
            with ThreadPoolExecutor(8) as pool:
                created = await asyncio.gather(
                    *(
                        loop.run_in_executor(
                            pool, serve_helper.post, f"{place(i)[0]}/api/tables", seats
                        )
                        for i in range(job.tables)
                    )
                )
            opened = await asyncio.gather(*(open_table(i, t) for i, t in enumerate(created)))
        conn.send(("ready", len(opened)))
        if not await asyncio.to_thread(conn.poll, max(0.0, setup_end - time.monotonic())):
            raise TimeoutError("no go from the parent")
        go, record.lo, record.hi = conn.recv()
        try:
            async with asyncio.timeout_at(record.hi + 1.0):  # a move in flight may end
                await asyncio.gather(*(_play(*o, job, go, record) for o in opened))
        except TimeoutError:
            pass
    finally:
        for r in readers:
            r.cancel()
        with contextlib.suppress(TimeoutError):
            async with asyncio.timeout(10):
                await asyncio.gather(*(ws.close() for ws in sockets), return_exceptions=True)
    return record


async def _connect(url: str, tokens: list[str]) -> Any:
    """A socket that said hello (a browser's: permessage-deflate, no client pings)."""
    ws = await websockets.connect(url, ping_interval=None, open_timeout=60)
    await ws.send(json.dumps({"type": "hello", "lang": "en", "tokens": tokens}))
    return ws


async def _snapshot(ws: Any, old: str | None) -> dict[str, Any]:
    """The game of the next snapshot that is not of game `old`."""
    while True:
        msg = json.loads(await ws.recv())
        if msg["type"] == "snapshot" and msg["game"]["id"] != old:
            game: dict[str, Any] = msg["game"]
            return game
        if msg["type"] == "error":
            raise RuntimeError(msg)


async def _spectate(ws: Any, table: Table, record: Record) -> None:
    """Time each update of the move in flight (its version read without parsing the rest)."""
    with contextlib.suppress(websockets.ConnectionClosed):
        async for raw in ws:
            if isinstance(raw, str) and raw.startswith(UPDATE):
                now = time.monotonic()
                at = raw.find('"version":', len(UPDATE)) + 10
                version = int(raw[at : raw.find(",", at)]) if at >= 10 else None
                if version == table.version and record.lo <= now <= record.hi:
                    record.spectator.append(now - table.sent_at)


async def _play(
    ws: Any,
    table: Table,
    tokens: list[str],
    game: dict[str, Any],
    job: Job,
    go: float,
    record: Record,
) -> None:
    """One table's moves from `go` until the window's end, timing each until its update."""
    rng, bot = random.Random(), make_bot("heuristic", 0)
    await asyncio.sleep(go - time.monotonic())
    try:
        while True:
            await asyncio.sleep(job.think * rng.uniform(0.5, 1.5))
            if time.monotonic() >= record.hi:
                return
            if game["over"]:  # a rematch keeps the load the same
                await ws.send(json.dumps({"type": "rematch", "token": tokens[0]}))
                game = await _snapshot(ws, game["id"])
                record.finished += record.lo <= time.monotonic() <= record.hi
                continue
            move = choose_move(bot, game)
            table.version, table.sent_at = game["version"] + 1, time.monotonic()
            act = {"type": "act", "game": game["id"], "version": game["version"]}
            act.update(move=move, token=tokens[game["to_move"]])
            await ws.send(json.dumps(act))
            while True:
                msg = json.loads(await ws.recv())
                if msg["type"] == "update":
                    now = time.monotonic()
                    if record.lo <= now <= record.hi:
                        record.latency.append(now - table.sent_at)
                        record.arrived.append(now)
                    game = msg["state"]
                    break
                if msg["type"] == "error":
                    raise RuntimeError(msg)
    except (RuntimeError, websockets.ConnectionClosed) as e:  # this table stops; others go on
        record.errors.append(repr(e))


# -- the servers and what is measured of them ---------------------------------------------------


@dataclass
class Target:
    """The servers under load: where to connect, their process ids, their counters."""

    http: str
    players_ws: str
    spectators_ws: str
    pids: dict[str, int]  # label -> process id
    postgres: Any = None  # () -> PostgreSQL's counters so far (cluster)
    redis: Any = None  # a Redis client (cluster)
    route: tuple[tuple[str, str], ...] = ()  # routed: (http, ws) of each process


@contextlib.contextmanager
def single_server(env: dict[str, str] | None = None) -> Iterator[Target]:
    """One server on a temp SQLite file (`env`: more of its environment); stopped after."""
    folder = tempfile.mkdtemp()
    try:
        database = f"sqlite:///{folder}/bench.sqlite3"
        proc, base = serve_helper.start(database, "--bot-delay", "0", env=env)
        try:
            ws = base.replace("http://", "ws://")
            yield Target(base, ws, ws, {"server": proc.pid})
        finally:
            serve_helper.stop(proc)
    finally:
        shutil.rmtree(folder, ignore_errors=True)


@contextlib.contextmanager
def servers(mode: str) -> Iterator[Target]:
    """One server on SQLite, or two on PostgreSQL + Redis (`cluster`: the players on A, the
    spectators on B; `routed`: each table wholly on one); stopped on the way out."""
    if mode == "single":
        with single_server() as target:
            yield target
        return
    with started_cluster(2) as (c, counters, r):  # --bot-delay 0, rate limits lifted
        a, b = c.servers
        pids = {"A": a.proc.pid, "B": b.proc.pid}
        route = ((a.base, a.ws_base), (b.base, b.ws_base)) if mode == "routed" else ()
        yield Target(a.base, a.ws_base, b.ws_base, pids, counters, r, route)


def sample(target: Target, clients: list[int]) -> dict[str, Any]:
    """Every counter, now."""
    cpu = serve_helper.cpu_seconds
    s: dict[str, Any] = {"t": time.monotonic(), "load": os.getloadavg()[0]}
    s["t_postgres"] = s["t"]
    s["server"] = {k: (cpu(p), cpu(p, p)) for k, p in target.pids.items()}
    s["client"] = sum(cpu(p) for p in clients)
    if target.postgres is not None:
        s["postgres"] = target.postgres()
        stats = target.redis.info("commandstats")
        s["redis"] = {k.removeprefix("cmdstat_"): v["calls"] for k, v in stats.items()}
    return s


def measure(
    args: argparse.Namespace,
    mode: str,
    spectators: int,
    start: Callable[[str], contextlib.AbstractContextManager[Target]] = servers,
) -> dict[str, Any]:
    """One row: start the servers (`start(mode)`; benchmarks/floor.py passes its own) and the
    clients, run, sample the window, stop everything."""
    setup = args.setup_seconds
    with start(mode) as target:
        procs: list[Any] = []
        pipes: list[Connection] = []
        try:
            start_clients(args, target, spectators, procs, pipes)
            ready_by = time.monotonic() + setup + 10  # the clients time their set-up out first
            for pipe in pipes:
                _expect(pipe, "ready", max(1.0, ready_by - time.monotonic()))
            go = time.monotonic() + 0.1
            lo = go + args.warmup
            hi = lo + args.seconds
            for pipe in pipes:
                pipe.send((go, lo, hi))
            clients = [p.pid for p in procs]
            time.sleep(max(0.0, lo - time.monotonic()))
            before = sample(target, clients)
            settled = go + PG_SETTLE
            if target.postgres is not None and lo < settled <= hi - 5:
                time.sleep(max(0.0, settled - time.monotonic()))
                before["postgres"], before["t_postgres"] = target.postgres(), time.monotonic()
            time.sleep(max(0.0, hi - time.monotonic()))
            after = sample(target, clients)
            records = [_expect(pipe, "done", 30) for pipe in pipes]
        finally:
            for p in procs:
                p.terminate()
                p.join(10)
    return summarize(mode, spectators, args, before, after, records)


def start_clients(
    args: argparse.Namespace,
    target: Target,
    spectators: int,
    procs: list[Any],
    pipes: list[Connection],
) -> None:
    """`args.clients` load-client processes sharing `args.tables` tables of `target`, each
    added to `procs` as it starts (so that a failure midway still stops those) with the pipe
    it answers on in `pipes`."""
    ctx = multiprocessing.get_context("fork")  # the parent has no threads: forking is safe
    first = 0
    for i in range(args.clients):
        share = args.tables // args.clients + (i < args.tables % args.clients)
        job = Job(
            target.http,
            target.players_ws,
            target.spectators_ws,
            share,
            spectators,
            args.players,
            args.think / 1000,
            args.setup_seconds,
            target.route,
            first,
        )
        first += share
        mine, theirs = ctx.Pipe()
        p = ctx.Process(target=worker, args=(theirs, job), daemon=True)
        p.start()
        procs.append(p)
        pipes.append(mine)


def _expect(pipe: Connection, what: str, seconds: float) -> Any:
    if not pipe.poll(seconds):
        raise RuntimeError(f"a load client did not say {what!r} within {seconds:g} s")
    kind, value = pipe.recv()
    if kind == "error":
        raise RuntimeError(f"a load client failed: {value}")
    assert kind == what, (kind, what)
    return value


# -- the figures ---------------------------------------------------------------------------------


def _quantile(values: list[float], q: float) -> float:
    return sorted(values)[min(len(values) - 1, int(q * len(values)))] if values else float("nan")


def summarize(
    mode: str,
    spectators: int,
    args: argparse.Namespace,
    before: dict[str, Any],
    after: dict[str, Any],
    records: list[Record],
) -> dict[str, Any]:
    latency = [x for r in records for x in r.latency]
    moves = max(1, len(latency))
    seconds = after["t"] - before["t"]
    row: dict[str, Any] = {"mode": mode, "spectators": spectators, "tables": args.tables}
    row.update(moves=len(latency), rate=len(latency) / seconds, seconds=seconds)
    row["process"] = {}
    for k, (total, main) in after["server"].items():
        t0, m0 = before["server"][k]
        row["process"][k] = ((total - t0) / moves * 1000, (main - m0) / moves * 1000)
    row["cpu"] = sum(t for t, _ in row["process"].values())
    row["main"] = sum(m for _, m in row["process"].values())
    row["client"] = (after["client"] - before["client"]) / moves * 1000
    row["client_core"] = (after["client"] - before["client"]) / seconds / args.clients
    if "postgres" in after:
        since = before["t_postgres"]
        counted = max(1, sum(t >= since for r in records for t in r.arrived))
        pg = {k: (v - before["postgres"][k]) / counted for k, v in after["postgres"].items()}
        row["commits"], row["xids"] = pg["commits"], pg["xids"]
        row["pg_span"] = (
            "the window (too short to leave out the set-up's late counts)"
            if since == before["t"]
            else f"the window's last {after['t'] - since:.0f} s"
        )
        calls = {k: v - before["redis"].get(k, 0) for k, v in after["redis"].items()}
        calls.pop("info", None)  # the benchmark's own
        row["redis"] = sum(calls.values()) / moves
        top = sorted(calls.items(), key=lambda kv: -kv[1])
        row["redis_top"] = [(k, v / moves) for k, v in top if v]
    row["p50"], row["p99"] = _quantile(latency, 0.5), _quantile(latency, 0.99)
    spect = [x for r in records for x in r.spectator]
    row["spect_n"], row["spect_p50"], row["spect_p99"] = (
        len(spect),
        _quantile(spect, 0.5),
        _quantile(spect, 0.99),
    )
    row["load"] = (before["load"], after["load"])
    row["finished"] = sum(r.finished for r in records)
    row["errors"] = [e for r in records for e in r.errors]
    return row


HEADER = (
    f"{'mode':8} {'spect':>5} {'tables':>6} {'moves/s':>7} | {'server ms/move':>14} "
    f"{'main':>5} {'other':>5} | {'commits':>7} {'redis':>5} | {'p50 ms':>6} {'p99 ms':>6} "
    f"{'<100':>4} | {'load start-end':>14} | {'client ms/move':>14}"
)


def _ms(x: float) -> float:
    """Rounded for printing: no "-0.00" from the kernel's 10 ms ticks."""
    return round(x, 2) or 0.0


def print_row(row: dict[str, Any]) -> None:
    cluster = "commits" in row
    counters = f"{row['commits']:7.2f} {row['redis']:5.1f}" if cluster else f"{'-':>7} {'-':>5}"
    print(
        f"{row['mode']:8} {row['spectators']:5d} {row['tables']:6d} {row['rate']:7.1f} | "
        f"{row['cpu']:14.2f} {row['main']:5.2f} {_ms(row['cpu'] - row['main']):5.2f} | "
        f"{counters} | "
        f"{row['p50'] * 1000:6.1f} {row['p99'] * 1000:6.1f} "
        f"{'yes' if row['p99'] < GOAL_P99 else 'NO':>4} | "
        f"{row['load'][0]:6.2f} - {row['load'][1]:5.2f} | {row['client']:14.2f}",
        flush=True,
    )
    notes = []
    if cluster:
        each = ", ".join(
            f"{k} {t:.2f} (main {m:.2f} + other {_ms(t - m):.2f})"
            for k, (t, m) in row["process"].items()
        )
        notes.append(f"per process: {each}")
        notes.append(
            f"postgresql, over {row['pg_span']}: {row['commits']:.2f} "
            f"commits per move (xact_commit: ±1 s of them), {row['xids']:.2f} writing "
            "transactions per move (xids: exact)"
        )
        top = ", ".join(f"{k} {v:.2f}" for k, v in row["redis_top"][:8])
        notes.append(f"redis commands per move: {top or 'none'}")
    if row["spect_n"]:
        notes.append(
            f"spectators: p50 {row['spect_p50'] * 1000:.1f} ms, p99 {row['spect_p99'] * 1000:.1f} "
            f"ms ({row['spect_n']} updates)"
        )
    notes.append(
        f"{row['moves']} moves in {row['seconds']:.1f} s, {row['finished']} games finished; "
        f"load client {row['client_core'] * 100:.0f} % of a core per client process"
        + (
            " (near a full core: its own lag is in the latencies)"
            if row["client_core"] > 0.8
            else ""
        )
    )
    if row["errors"]:
        notes.append(f"{len(row['errors'])} tables stopped on an error, e.g. {row['errors'][0]}")
    for n in notes:
        print(f"    {n}", flush=True)


def add_load_options(ap: argparse.ArgumentParser, seconds: float, clients: str) -> None:
    """The load's pace, its window and its client processes, as the benchmarks that run
    `measure` take them (side_by_side.py too); `check_load_options` bounds them."""
    ap.add_argument("--think", type=float, default=1000, help="mean pause per move, ms (1000)")
    ap.add_argument("--warmup", type=float, default=3, help="seconds before the window (3)")
    ap.add_argument(
        "--seconds", type=float, default=seconds, help=f"the measured window ({seconds:g})"
    )
    ap.add_argument("--clients", type=int, default=1, help=f"{clients} (default 1)")
    ap.add_argument(
        "--setup-seconds", type=float, default=180, help="most time to open the tables (180)"
    )


def check_load_options(
    ap: argparse.ArgumentParser, args: argparse.Namespace, most_clients: int
) -> None:
    if not 0 < args.seconds <= 600 or not 0 <= args.warmup <= 60 or not 0 <= args.think <= 60000:
        ap.error("expected 0..600 seconds, 0..60 s of warm-up, 0..60000 ms of think time")
    if not 1 <= args.clients <= most_clients or not 1 <= args.setup_seconds <= 1200:
        ap.error(f"expected 1..{most_clients} client processes and 1..1200 setup seconds")


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawTextHelpFormatter)
    ap.add_argument("--mode", choices=["single", "routed", "cluster", "both", "all"], default="all")
    ap.add_argument(
        "--spectators", default="0,3", help="spectators per table, a comma list (default 0,3)"
    )
    ap.add_argument("--tables", type=int, default=200, help="tables (default 200)")
    ap.add_argument("--players", type=int, default=3, help="seats per table (default 3)")
    add_load_options(ap, seconds=30, clients="load-client processes")
    args = ap.parse_args()
    try:
        counts = sorted({int(x) for x in args.spectators.split(",")})
    except ValueError:
        ap.error("--spectators: numbers separated by commas, e.g. 0,3")
    if not all(0 <= n <= 10 for n in counts):
        ap.error("expected 0..10 spectators per table")
    if not 1 <= args.tables <= 5000 or not 2 <= args.players <= 8:
        ap.error("expected 1..5000 tables and 2..8 players")
    check_load_options(ap, args, most_clients=8)
    # a stop (timeout, Ctrl-C) still stops the servers, Redis, nginx, PostgreSQL and the clients
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(1))
    groups = {"both": ["single", "cluster"], "all": ["single", "routed", "cluster"]}
    modes = groups.get(args.mode, [args.mode])
    print(
        f"{args.tables} tables of {args.players} seats, a move every {args.think:g} ms (x0.5-1.5) "
        f"each, {args.warmup:g} s warm-up, {args.seconds:g} s window; load client: "
        f"{args.clients} process(es) on the same {os.cpu_count()} cores as the servers "
        f"(CPU per move: the window's Δ utime+stime ÷ moves); load average now "
        f"{os.getloadavg()[0]:.2f}",
        flush=True,
    )
    print(HEADER, flush=True)
    failed = 0
    for mode in modes:
        for n in counts:
            try:
                print_row(measure(args, mode, n))
            except Exception as e:  # this row failed: say so, go on with the next
                failed += 1
                print(f"{mode:8} {n:5d} {args.tables:6d} failed: {e}", flush=True)
    return 1 if failed else 0


if __name__ == "__main__":
    try:
        sys.exit(main())
    except KeyboardInterrupt:  # what it started is stopped by then (the `finally`s on the way)
        print("interrupted", file=sys.stderr)
        sys.exit(130)
