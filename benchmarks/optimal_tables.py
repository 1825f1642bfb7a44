"""Memory and a human's move latency while 30 tables of optimal bots play.

Starts `robinson serve` with an empty optimal-bot cache (so the 4-player exact solve happens
during the run, in the worker process), creates `--tables` tables of four optimal bots, each with
other money options (start_tokens, stake, share), and meanwhile plays a two-person table
elsewhere, timing each of its moves (REST round trip). Samples the server's resident memory and
its worker's. Bounded by `--seconds`.

    .venv/bin/python benchmarks/optimal_tables.py --tables 30 --seconds 60
"""

from __future__ import annotations

import argparse
import statistics
import sys
import tempfile
import threading
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from benchmarks import serve_helper


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--tables", type=int, default=30)
    ap.add_argument("--players", type=int, default=4)
    ap.add_argument("--seconds", type=float, default=60)
    ap.add_argument("--bot-delay", default="0.2")
    args = ap.parse_args()
    folder = tempfile.mkdtemp()
    proc, base = serve_helper.start(
        f"sqlite:///{folder}/optimal.sqlite3",
        "--bot-delay",
        args.bot_delay,
        env={"ROBINSON_CACHE_DIR": f"{folder}/cache"},
    )
    peak = {"server": 0.0, "worker": 0.0}
    done = threading.Event()

    def sample() -> None:
        while not done.is_set():
            peak["server"] = max(peak["server"], serve_helper.rss_mb(proc.pid))
            for child in serve_helper.children(proc.pid):
                peak["worker"] = max(peak["worker"], serve_helper.rss_mb(child))
            time.sleep(0.1)

    sampler = threading.Thread(target=sample)
    sampler.start()
    latency: list[float] = []
    try:
        tables = []
        for i in range(args.tables):
            money = {"start_tokens": 20 + i, "stake": 1 + i % 9, "share": ("half", "third")[i % 2]}
            bots = [{"name": f"B{s}", "kind": "bot", "bot": "optimal"} for s in range(args.players)]
            tables.append(serve_helper.post(f"{base}/api/tables", {"seats": bots, **money}))
        people = {"seats": [{"name": "A"}, {"name": "B"}]}
        human = serve_helper.post(f"{base}/api/tables", people)
        end = time.monotonic() + args.seconds
        while time.monotonic() < end:
            game = serve_helper.get(f"{base}/api/tables/{human['table']}")["game"]
            if game["over"]:
                human = serve_helper.post(f"{base}/api/tables", people)
                continue
            move = next(m for m in ("roll", "move", "again", "jump") if m in game["legal"])
            body = {"token": human["seats"][game["to_move"]]["token"],
                    "version": game["version"], "move": move}  # fmt: skip
            started = time.perf_counter()
            serve_helper.post(f"{base}/api/games/{game['id']}/actions", body)
            latency.append(time.perf_counter() - started)
            time.sleep(0.05)
        versions = [
            serve_helper.get(f"{base}/api/tables/{t['table']}")["game"]["version"] for t in tables
        ]
        peak["server_hwm"] = serve_helper.rss_mb(proc.pid, "VmHWM")
    finally:
        done.set()
        sampler.join()
        out = serve_helper.stop(proc)
    solves = [line for line in out.splitlines() if "solving the optimal bot" in line]
    lat = sorted(latency)
    q = lambda p: lat[min(len(lat) - 1, int(p * len(lat)))] * 1000  # noqa: E731
    print(f"{args.tables} tables of {args.players} optimal bots, different money each; "
          f"{sum(versions)} actions played by them in {args.seconds:g} s")  # fmt: skip
    print(f"exact solves: {len(solves)} ({'; '.join(s.split(' ', 2)[-1] for s in solves)})")
    print(f"server memory: peak {peak['server_hwm']:.0f} MB (sampled max {peak['server']:.0f} MB);"
          f" solver worker peak {peak['worker']:.0f} MB (exits after its solve)")  # fmt: skip
    print(f"human move elsewhere ({len(lat)} moves): p50 {q(0.5):.1f} ms, p99 {q(0.99):.1f} ms, "
          f"max {lat[-1] * 1000:.1f} ms, mean {statistics.mean(lat) * 1000:.1f} ms")  # fmt: skip
    return 0


if __name__ == "__main__":
    sys.exit(main())
