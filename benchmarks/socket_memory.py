"""Memory kept by a real `robinson serve` after table sockets close (issue 22 measured 58 KB a
closed socket). Opens and closes `--sockets` sockets (each says `hello`, half with a seat's
token; 50 open at once) in several rounds and prints the server's resident memory after each:
growth in the first round is the allocator's high-water mark (arenas, buffers reused later);
growth that goes on round after round is memory kept per socket.

Usage: PYTHONPATH=src .venv/bin/python benchmarks/socket_memory.py [--sockets 1000] [--rounds 4]
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import sys
import tempfile
import time
from pathlib import Path

import websockets

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from benchmarks import serve_helper

AT_ONCE = 50


async def round_of(url: str, token: str, sockets: int) -> None:
    async def one(n: int) -> None:
        async with websockets.connect(url, max_size=None) as ws:
            tokens = [token] if n % 2 else []
            await ws.send(json.dumps({"type": "hello", "lang": "en", "tokens": tokens}))
            await ws.recv()

    for start in range(0, sockets, AT_ONCE):
        await asyncio.gather(*(one(n) for n in range(start, min(sockets, start + AT_ONCE))))


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--sockets", type=int, default=1000)
    ap.add_argument("--rounds", type=int, default=4)
    args = ap.parse_args()
    folder = Path(tempfile.mkdtemp(prefix="robinson-sockets-"))
    proc, base = serve_helper.start(f"sqlite:///{folder / 's.sqlite3'}")
    try:
        t = serve_helper.post(f"{base}/api/tables", {"seats": [{"name": "A"}, {"name": "B"}]})
        url = f"{base.replace('http', 'ws', 1)}/ws/tables/{t['table']}"
        asyncio.run(round_of(url, t["seats"][0]["token"], 20))  # the table loaded, warm
        time.sleep(1)
        rss = [serve_helper.rss_mb(proc.pid)]
        print(f"before: {rss[0]:.1f} MB (load {os.getloadavg()[0]:.2f})")
        for n in range(1, args.rounds + 1):
            began = time.perf_counter()
            asyncio.run(round_of(url, t["seats"][0]["token"], args.sockets))
            time.sleep(1)
            rss.append(serve_helper.rss_mb(proc.pid))
            per = (rss[-1] - rss[-2]) * 1024 / args.sockets
            print(
                f"round {n}: {args.sockets:,} sockets in {time.perf_counter() - began:.1f} s, "
                f"RSS {rss[-1]:.1f} MB, {per:+.1f} KB a socket (load {os.getloadavg()[0]:.2f})"
            )
        later = (rss[-1] - rss[1]) * 1024 / (args.sockets * (args.rounds - 1))
        print(f"after the first round: {later:+.2f} KB a closed socket")
    finally:
        serve_helper.stop(proc)


if __name__ == "__main__":
    main()
