"""Load benchmark: N concurrent games over WebSockets against a real `robinson serve`.

Starts the server on 127.0.0.1 (a free port, a temp SQLite file), then runs `--games` tables at
once; each has a client holding every seat that plays its moves (the heuristic bot's choices).
By default a client plays flat out (saturation); with `--think MS` it waits like a person
between moves (uniformly 0.5 to 1.5 times MS). Measures, per move, the time from sending it to
receiving its broadcast. Bounded: it stops after `--seconds` whatever happens.
`--profile FILE` runs the server under cProfile (event-loop thread) and writes FILE at the end.

    .venv/bin/python benchmarks/load_web.py --games 20 --seconds 60
    .venv/bin/python benchmarks/load_web.py --games 200 --think 1000 --seconds 60
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.request
from typing import Any

import websockets

from robinson.bots import make_bot
from robinson.engine import from_text


def _post(url: str, body: Any) -> Any:
    req = urllib.request.Request(
        url, json.dumps(body).encode(), {"content-type": "application/json"}
    )
    with urllib.request.urlopen(req, timeout=10) as r:
        return json.loads(r.read())


async def play(
    base: str, ws_base: str, players: int, think: float, deadline: float, out: dict[str, Any]
) -> None:
    seats = [{"name": f"P{i}"} for i in range(players)]
    t = await asyncio.to_thread(_post, f"{base}/api/tables", {"seats": seats})
    tokens = [s["token"] for s in t["seats"]]
    bot = make_bot("heuristic", 0)
    async with websockets.connect(f"{ws_base}/ws/tables/{t['table']}") as ws:
        await ws.send(json.dumps({"type": "hello", "lang": "en", "tokens": tokens}))
        game = None
        while game is None:
            msg = json.loads(await ws.recv())
            if msg["type"] == "snapshot":
                game = msg["game"]
        rng = random.Random()
        while not game["over"] and time.monotonic() < deadline:
            if think:
                await asyncio.sleep(think * rng.uniform(0.5, 1.5))
                if time.monotonic() >= deadline:
                    break
            move = game["legal"][0]
            if move != "roll":
                # the bot needs the engine state: rebuild it from the game's position summary
                move = bot.choose(from_text(_position(game))).option
            sent = time.perf_counter()
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
        out["finished"] += game["over"]


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


async def main_async(args: argparse.Namespace, base: str, ws_base: str) -> dict[str, Any]:
    out: dict[str, Any] = {"latency": [], "finished": 0}
    deadline = time.monotonic() + args.seconds
    start = time.perf_counter()
    results = await asyncio.gather(
        *(
            play(base, ws_base, args.players, args.think / 1000, deadline, out)
            for _ in range(args.games)
        ),
        return_exceptions=True,
    )
    out["errors"] = [repr(r) for r in results if isinstance(r, BaseException)]
    out["elapsed"] = time.perf_counter() - start
    return out


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawTextHelpFormatter)
    ap.add_argument("--games", type=int, default=20, help="concurrent games (default 20)")
    ap.add_argument("--players", type=int, default=3, help="seats per game (default 3)")
    ap.add_argument("--seconds", type=float, default=60, help="time limit (default 60)")
    ap.add_argument("--think", type=float, default=0, help="a person's pause per move, ms")
    ap.add_argument("--profile", help="run the server under cProfile, writing this file")
    args = ap.parse_args()
    if not 1 <= args.games <= 1000 or not 2 <= args.players <= 8 or not 0 < args.seconds <= 600:
        ap.error("expected 1..1000 games, 2..8 players, 0..600 seconds")
    if not 0 <= args.think <= 60_000:
        ap.error("expected --think from 0 to 60000 ms")
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
    lat = sorted(out["latency"])
    if not lat:
        print("no moves measured", out["errors"][:3])
        return 1
    p = lambda q: lat[min(len(lat) - 1, int(q * len(lat)))] * 1000  # noqa: E731
    print(
        f"games: {args.games} concurrent, {args.players} seats each, think {args.think:g} ms; "
        f"finished {out['finished']}"
    )
    print(
        f"moves: {len(lat)} in {out['elapsed']:.1f} s = {len(lat) / out['elapsed']:.0f} actions/s"
    )
    print(
        f"move -> broadcast latency: p50 {p(0.5):.1f} ms, p99 {p(0.99):.1f} ms, "
        f"mean {statistics.mean(lat) * 1000:.1f} ms"
    )
    if out["errors"]:
        print(f"errors: {len(out['errors'])}: {out['errors'][:3]}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
