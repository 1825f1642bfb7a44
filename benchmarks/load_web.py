"""Load benchmark: N concurrent games over WebSockets against a real `robinson serve`.

Starts the server on 127.0.0.1 (a free port, a temp SQLite file), then runs `--games` tables at
once; each has a client holding every seat that plays its moves (the heuristic bot's choices).
By default a client plays flat out (saturation); with `--think MS` it waits like a person
between moves (uniformly 0.5 to 1.5 times MS). A finished game is followed by a rematch, so
the load stays the same until the end. Measures, per move, the time from sending it to
receiving its broadcast. Bounded: it stops after `--seconds` whatever happens.
`--profile FILE` runs the server under cProfile (event-loop thread) and writes FILE at the end.

`--cluster N` measures the scale-out instead (docs/scaling.md): a throwaway PostgreSQL, a
redis-server and N `robinson serve --redis` processes behind nginx (tests/web/cluster.py, the
same parts as the tests). Players connect through nginx; each table also has a spectator
connected straight to one of the processes in turn, so most spectators are on another process
than the move was made on and their latency includes the Redis pub/sub hop. It prints, besides
the latencies, the CPU seconds per move of the server processes, and Redis commands and bytes
and PostgreSQL commits per move.

    .venv/bin/python benchmarks/load_web.py --games 20 --seconds 60
    .venv/bin/python benchmarks/load_web.py --games 200 --think 1000 --seconds 60
    .venv/bin/python benchmarks/load_web.py --cluster 3 --games 300 --think 1000 --seconds 30
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import os
import random
import shutil
import signal
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.request
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import websockets

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # benchmarks.*, tests.web.*

from benchmarks import serve_helper

from robinson.bots import make_bot
from robinson.engine import from_text


def _post(url: str, body: Any) -> Any:
    req = urllib.request.Request(
        url, json.dumps(body).encode(), {"content-type": "application/json"}
    )
    with urllib.request.urlopen(req, timeout=10) as r:
        return json.loads(r.read())


async def watch(
    url: str, sent: dict[tuple[str, int], float], deadline: float, out: dict[str, Any]
) -> None:
    """A spectator: the latency from a move's sending to its update reaching this socket."""
    async with websockets.connect(url) as ws:
        await ws.send(json.dumps({"type": "hello", "lang": "en", "tokens": []}))
        while time.monotonic() < deadline:
            try:
                raw = await asyncio.wait_for(ws.recv(), max(0.1, deadline - time.monotonic()))
            except TimeoutError:
                return
            msg = json.loads(raw)
            key = (msg.get("game"), msg.get("version"))
            if msg["type"] == "update" and key in sent:
                out["spectator"].append(time.perf_counter() - sent.pop(key))


async def play(
    base: str,
    ws_base: str,
    players: int,
    think: float,
    deadline: float,
    out: dict[str, Any],
    spectator: str | None = None,
) -> None:
    seats = [{"name": f"P{i}"} for i in range(players)]
    t = await asyncio.to_thread(_post, f"{base}/api/tables", {"seats": seats})
    tokens = [s["token"] for s in t["seats"]]
    bot = make_bot("heuristic", 0)
    sent_at: dict[tuple[str, int], float] = {}  # (game, version after the move) -> when sent
    if spectator is not None:
        watcher = asyncio.create_task(
            watch(f"{spectator}/ws/tables/{t['table']}", sent_at, deadline, out)
        )
        out["watchers"].append(watcher)
        await asyncio.sleep(0.2)  # let it subscribe
    async with websockets.connect(f"{ws_base}/ws/tables/{t['table']}") as ws:
        await ws.send(json.dumps({"type": "hello", "lang": "en", "tokens": tokens}))
        game = None
        while game is None:
            msg = json.loads(await ws.recv())
            if msg["type"] == "snapshot":
                game = msg["game"]
        out["ready"] += 1
        if out["ready"] == out["games"] and out.get("mark"):
            out["marked"] = (len(out["latency"]), out["mark"]())  # all tables are playing
            out["marked_at"] = time.monotonic()
            out["marked_spectator"] = len(out["spectator"])
        rng = random.Random()
        while time.monotonic() < deadline:
            if game["over"]:  # a rematch keeps the load the same until the end
                out["finished"] += 1
                await ws.send(json.dumps({"type": "rematch", "token": tokens[0]}))
                game = await _next_game(ws, game["id"], deadline)
                if game is None:
                    return
                continue
            if think:
                await asyncio.sleep(think * rng.uniform(0.5, 1.5))
                if time.monotonic() >= deadline:
                    break
            move = choose_move(bot, game)
            sent = time.perf_counter()
            sent_at[(game["id"], game["version"] + 1)] = sent
            await ws.send(
                json.dumps(
                    {
                        "type": "act",
                        "game": game["id"],
                        "version": game["version"],
                        "move": move,
                        "token": tokens[game["to_move"]],
                    }
                )
            )
            while True:
                try:
                    raw = await asyncio.wait_for(ws.recv(), max(0.1, deadline - time.monotonic()))
                except TimeoutError:
                    if time.monotonic() >= deadline:
                        return  # time is up with a move in flight: not an error
                    raise
                msg = json.loads(raw)
                if msg["type"] == "update":
                    out["latency"].append(time.perf_counter() - sent)
                    game = msg["state"]
                    break
                if msg["type"] == "error":
                    raise RuntimeError(msg)


async def _next_game(ws: Any, old: str, deadline: float) -> dict[str, Any] | None:
    """The new game's state from the snapshot a rematch sends (None when time is up)."""
    while time.monotonic() < deadline:
        try:
            raw = await asyncio.wait_for(ws.recv(), max(0.1, deadline - time.monotonic()))
        except TimeoutError:
            return None
        msg = json.loads(raw)
        if msg["type"] == "snapshot" and msg["game"]["id"] != old:
            game: dict[str, Any] = msg["game"]
            return game
        if msg["type"] == "error":
            raise RuntimeError(msg)
    return None


def choose_move(bot: Any, game: dict[str, Any]) -> str:
    """The heuristic bot's move in a game view (a roll needs no engine state)."""
    move: str = game["legal"][0]
    if move != "roll":
        # the bot needs the engine state: rebuild it from the game's position summary
        move = bot.choose(from_text(_position(game))).option
    return move


def _position(game: dict[str, Any]) -> str:
    r = game["ruleset"]
    letters = {"shipwreck": "w", "tree": "t", "bread": "b", "canoe": "c"}
    status = f"{game['to_move']}{letters[game['phase']]}{game['pending_roll'] or ''}"
    seats = []
    for p in game["players"]:
        parts = [str(p["position"]), str(p["purse"])]
        parts += [f"f{p['friday']}"] if p["friday"] is not None else []
        parts += [f"s{p['skips']}"] if p["skips"] else []
        parts += ["m"] if p["shipwrecked"] else []
        parts += ["x"] if not p["alive"] else []
        seats.append("/".join(parts))
    rules = f"{r['edition']},{r['start_tokens']},{r['stake']},{r['share']}"
    return " ".join([rules, str(game["bank"]), status, *seats])


async def main_async(
    args: argparse.Namespace,
    base: str,
    ws_base: str,
    direct: list[str] | None = None,
    mark: Any = None,
) -> dict[str, Any]:
    """`mark()`: called once every table is playing; what it returns is kept in out["marked"]."""
    out: dict[str, Any] = {"latency": [], "spectator": [], "watchers": [], "finished": 0}
    out.update(ready=0, games=args.games, mark=mark)
    deadline = time.monotonic() + args.seconds
    start = time.perf_counter()
    results = await asyncio.gather(
        *(
            play(
                base,
                ws_base,
                args.players,
                args.think / 1000,
                deadline,
                out,
                direct[i % len(direct)] if direct else None,
            )
            for i in range(args.games)
        ),
        return_exceptions=True,
    )
    out["errors"] = [repr(r) for r in results if isinstance(r, BaseException)]
    out["elapsed"] = time.perf_counter() - start
    await asyncio.gather(*out.pop("watchers"), return_exceptions=True)
    return out


@contextlib.contextmanager
def started_cluster(size: int) -> Iterator[tuple[Any, Callable[[], dict[str, int]], Any]]:
    """A throwaway PostgreSQL, redis-server, `size` processes and nginx (tests/web/cluster.py),
    all stopped on the way out (also on an error or Ctrl-C). Yields the cluster, a function
    giving PostgreSQL's counters so far and a Redis client. The counters: "commits", of the
    cluster's database (pg_stat_database's xact_commit, which backends flush about once a
    second), and "xids", the next transaction id (exact: one per transaction that wrote)."""
    import psycopg
    import redis
    from tests.web.cluster import Cluster, missing
    from tests.web.postgres import cluster as postgres_cluster

    reason = missing()
    if reason:
        raise SystemExit(f"cannot run a cluster: {reason}")
    with postgres_cluster() as pg:
        if pg is None:
            raise SystemExit("cannot run a cluster: PostgreSQL is not installed")
        url = pg.new_database()
        dbname = url.rsplit("/", 1)[1]

        def counters() -> dict[str, int]:
            with psycopg.connect(
                host="127.0.0.1", port=pg.port, user="robinson", dbname="postgres"
            ) as conn:
                row = conn.execute(
                    "SELECT xact_commit, pg_snapshot_xmax(pg_current_snapshot())::text::bigint "
                    "FROM pg_stat_database WHERE datname = %s",
                    (dbname,),
                ).fetchone()
                return {"commits": int(row[0]), "xids": int(row[1])} if row else {}

        folder = tempfile.mkdtemp()
        try:
            # one load client holds every socket: lift the cap per address
            lifted = ("--sockets-per-address", "1000000")
            c = Cluster(Path(folder), url, size=size, extra=lifted)  # stops what it started
            r = redis.Redis.from_url(c.redis.url)
            try:
                yield c, counters, r
            finally:
                r.close()
                c.stop()
        finally:
            shutil.rmtree(folder, ignore_errors=True)


def run_cluster(args: argparse.Namespace) -> dict[str, Any]:
    """Start PostgreSQL, Redis, N processes and nginx; run the load; measure; stop them all."""
    with started_cluster(args.cluster) as (c, counters, r):
        pids = [s.proc.pid for s in c.servers if s.proc is not None]

        def sample() -> tuple[list[float], dict[str, Any], int]:
            return (
                [serve_helper.cpu_seconds(p) for p in pids],
                r.info("stats"),
                counters()["commits"],
            )

        direct = [s.ws_base for s in c.servers]
        out = asyncio.run(main_async(args, c.front.base, c.front.ws_base, direct, sample))
        after = sample()
        if "marked" not in out:
            raise SystemExit("not every table started: no steady state to measure")
        out["steady_moves"], before = len(out["latency"]) - out["marked"][0], out["marked"][1]
        out["steady_seconds"] = time.monotonic() - out["marked_at"]
        out["cpu"] = [b - a for a, b in zip(before[0], after[0], strict=True)]
        for key in ("total_commands_processed", "total_net_input_bytes"):
            out[key] = after[1][key] - before[1][key]
        out["commits"] = after[2] - before[2]
    return out


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawTextHelpFormatter)
    ap.add_argument("--games", type=int, default=20, help="concurrent games (default 20)")
    ap.add_argument("--players", type=int, default=3, help="seats per game (default 3)")
    ap.add_argument("--seconds", type=float, default=60, help="time limit (default 60)")
    ap.add_argument("--think", type=float, default=0, help="a person's pause per move, ms")
    ap.add_argument("--profile", help="run the server under cProfile, writing this file")
    ap.add_argument(
        "--cluster",
        type=int,
        default=0,
        metavar="N",
        help="N processes on PostgreSQL + Redis behind nginx (1..8)",
    )
    args = ap.parse_args()
    if not 1 <= args.games <= 1000 or not 2 <= args.players <= 8 or not 0 < args.seconds <= 600:
        ap.error("expected 1..1000 games, 2..8 players, 0..600 seconds")
    if not 0 <= args.cluster <= 8:
        ap.error("expected --cluster from 1 to 8 processes")
    if not 0 <= args.think <= 60_000:
        ap.error("expected --think from 0 to 60000 ms")
    # a stop (timeout, Ctrl-C) still stops the servers, Redis, nginx and PostgreSQL
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(1))
    print(f"load average before: {os.getloadavg()[0]:.2f}")
    if args.cluster:
        out = run_cluster(args)
        report(args, out)
        return 0
    import socket

    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    folder = tempfile.mkdtemp()
    code = "import sys, robinson.cli as c; sys.exit(c.main())"
    if args.profile:
        # uvicorn re-raises SIGTERM after its shutdown: turn it into SystemExit so the profile
        # is written on the way out
        code = (
            "import cProfile, signal, sys, robinson.cli as c\n"
            "signal.signal(signal.SIGTERM, lambda *_: sys.exit(0))\n"
            "pr = cProfile.Profile(); pr.enable()\n"
            f"try: c.main()\nfinally: pr.disable(); pr.dump_stats({args.profile!r})"
        )
    cmd = [
        sys.executable,
        "-c",
        code,
        "serve",
        "--port",
        str(port),
        "--database",
        f"sqlite:///{folder}/load.sqlite3",
        "--bot-delay",
        "0",
        # one address makes every table and move here: lift the per-address limits
        "--rate-tables",
        "1000000/minute",
        "--rate-actions",
        "100000000/minute",
        "--rate-sockets",
        "1000000/minute",
        "--sockets-per-address",
        "1000000",
    ]
    proc = subprocess.Popen(cmd, stdout=subprocess.DEVNULL, env={**os.environ})
    base, ws_base = f"http://127.0.0.1:{port}", f"ws://127.0.0.1:{port}"
    try:
        for _ in range(300):
            try:
                urllib.request.urlopen(f"{base}/api/meta", timeout=1)
                break
            except OSError:
                time.sleep(0.05)
        out = asyncio.run(main_async(args, base, ws_base))
    finally:
        proc.terminate()
        proc.wait(10)
    return report(args, out)


def report(args: argparse.Namespace, out: dict[str, Any]) -> int:
    if "marked" in out:  # only the steady state: every table started and playing
        out["latency"] = out["latency"][out["marked"][0] :]
        out["spectator"] = out["spectator"][out["marked_spectator"] :]
    lat = sorted(out["latency"])
    if not lat:
        print("no moves measured", out["errors"][:3])
        return 1
    p = lambda q: lat[min(len(lat) - 1, int(q * len(lat)))] * 1000  # noqa: E731
    print(
        f"games: {args.games} concurrent, {args.players} seats each, think {args.think:g} ms; "
        f"finished {out['finished']}"
    )
    seconds = out.get("steady_seconds", out["elapsed"])
    steady = " (steady state: every table playing)" if "steady_seconds" in out else ""
    print(f"moves: {len(lat)} in {seconds:.1f} s = {len(lat) / seconds:.0f} actions/s{steady}")
    print(
        f"move -> broadcast latency: p50 {p(0.5):.1f} ms, p99 {p(0.99):.1f} ms, "
        f"mean {statistics.mean(lat) * 1000:.1f} ms"
    )
    spect = sorted(out["spectator"])
    if spect:
        q = lambda x: spect[min(len(spect) - 1, int(x * len(spect)))] * 1000  # noqa: E731
        print(
            f"move -> spectator on a given process: p50 {q(0.5):.1f} ms, p99 {q(0.99):.1f} ms "
            f"({len(spect)} seen)"
        )
    if "cpu" in out and not out["steady_moves"]:
        print("server costs: no move after every table started; run longer (--seconds)")
    elif "cpu" in out:
        moves = out["steady_moves"]  # counted since every table was playing
        cpu = ", ".join(f"{c:.1f}" for c in out["cpu"])
        print(
            f"server CPU: {cpu} s ({sum(out['cpu']) / moves * 1000:.2f} ms per move, all "
            f"processes); redis: {out['total_commands_processed'] / moves:.1f} commands and "
            f"{out['total_net_input_bytes'] / moves:.0f} bytes in per move; "
            f"postgresql: {out['commits'] / moves:.2f} commits per move"
        )
    print(f"load average after: {os.getloadavg()[0]:.2f}")
    if out["errors"]:
        print(f"errors: {len(out['errors'])}: {out['errors'][:3]}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
