"""Two versions of the server under the same load at the same moment: which costs less a move.

This machine's speed moves by ±10 % within minutes and by up to 2× between hours
(docs/scaling.md), so a change of a few % of a move cannot be told from runs made one after the
other, however interleaved. Here two `robinson serve` processes run at once on temp SQLite
files: "this" from this tree (or `--this`), "other" from `--other`, each with `PYTHONPATH=<its
checkout>/src` (another commit: `git worktree add /tmp/before HEAD~3`). Each gets `--tables`
tables of benchmarks/move_cost.py's load client (3 human seats, one socket a table and
`--spectators` more, a move about once every `--think` ms), from client processes of its own,
and both are measured over the same window: what the machine does meanwhile falls on both
alike. Each of
`--rounds` rounds prints the two rows (move_cost.py's format, mode "this" and "other") and the
ratio of their CPU per move; the last lines give the ratios' median and range, and the two
orders weighed alike. Which server starts first alternates from round to round: on 3 December
the order alone tilted a round by 2-4 % (the server started second cheaper), more than the
changes measured then, so an even number of rounds is best.

The two servers share the two cores with each other and with the load clients, so their
figures are not those of a server alone (move_cost.py gives those): read the ratio.

Bounded as move_cost.py: set-up within `--setup-seconds`, the window by time; every server and
client it starts is stopped on the way out; 127.0.0.1 only.

    git worktree add /tmp/before HEAD~1
    .venv/bin/python benchmarks/side_by_side.py --other /tmp/before
    .venv/bin/python benchmarks/side_by_side.py --other /tmp/before --spectators 3 --rounds 6
"""

from __future__ import annotations

import argparse
import contextlib
import os
import signal
import statistics
import sys
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from benchmarks.move_cost import (
    HEADER,
    Target,
    _expect,
    add_load_options,
    check_load_options,
    print_row,
    sample,
    single_server,
    start_clients,
    summarize,
)

ROOT = Path(__file__).resolve().parents[1]


def server(src: Path) -> contextlib.AbstractContextManager[Target]:
    """`robinson serve` from the tree whose `src` folder this is, on a temp SQLite file."""
    path = os.pathsep.join(filter(None, [str(src), os.environ.get("PYTHONPATH")]))
    return single_server(env={"PYTHONPATH": path})


def one_round(args: argparse.Namespace, order: list[tuple[str, Path]]) -> dict[str, Any]:
    """Both servers under load over one window; their rows by name."""
    with contextlib.ExitStack() as stack:
        targets = {name: stack.enter_context(server(src)) for name, src in order}
        procs: dict[str, list[Any]] = {name: [] for name in targets}
        pipes: dict[str, list[Any]] = {name: [] for name in targets}
        try:
            for name, target in targets.items():
                start_clients(args, target, args.spectators, procs[name], pipes[name])
            ready_by = time.monotonic() + args.setup_seconds + 10
            for pipe in [p for each in pipes.values() for p in each]:
                _expect(pipe, "ready", max(1.0, ready_by - time.monotonic()))
            go = time.monotonic() + 0.1
            lo = go + args.warmup
            hi = lo + args.seconds
            for pipe in [p for each in pipes.values() for p in each]:
                pipe.send((go, lo, hi))
            clients = {name: [p.pid for p in each] for name, each in procs.items()}
            time.sleep(max(0.0, lo - time.monotonic()))
            before = {name: sample(t, clients[name]) for name, t in targets.items()}
            time.sleep(max(0.0, hi - time.monotonic()))
            after = {name: sample(t, clients[name]) for name, t in targets.items()}
            records = {name: [_expect(p, "done", 30) for p in each] for name, each in pipes.items()}
        finally:
            for p in [p for each in procs.values() for p in each]:
                p.terminate()
                p.join(10)
    return {
        name: summarize(name, args.spectators, args, before[name], after[name], records[name])
        for name in targets
    }


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawTextHelpFormatter)
    ap.add_argument("--other", type=Path, required=True, help="a checkout of the other version")
    ap.add_argument("--this", type=Path, default=ROOT, help="this version's checkout (this tree)")
    ap.add_argument("--tables", type=int, default=100, help="tables per server (default 100)")
    ap.add_argument("--spectators", type=int, default=0, help="spectators per table (0)")
    ap.add_argument("--rounds", type=int, default=4, help="rounds, best even (default 4)")
    add_load_options(ap, seconds=20, clients="load-client processes per server")
    args = ap.parse_args()
    args.players = 3  # move_cost.py's tables: 3 human seats
    this, other = args.this.resolve() / "src", args.other.resolve() / "src"
    for name, src in (("--this", this), ("--other", other)):
        if not (src / "robinson").is_dir():
            ap.error(f"{name}: expected a checkout of this project, found no {src}/robinson")
    if not 1 <= args.tables <= 2500 or not 0 <= args.spectators <= 10:
        ap.error("expected 1..2500 tables per server and 0..10 spectators a table")
    if not 1 <= args.rounds <= 50:
        ap.error("expected 1..50 rounds")
    check_load_options(ap, args, most_clients=4)
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(1))  # still stops what it started
    sides = [("this", this), ("other", other)]
    print(
        f"this: {this.parent}, other: {other.parent}; {args.tables} tables each, "
        f"{args.spectators} spectators a table, a move every {args.think:g} ms (x0.5-1.5), "
        f"{args.seconds:g} s windows, both at once on {os.cpu_count()} cores; load average now "
        f"{os.getloadavg()[0]:.2f}",
        flush=True,
    )
    ratios = []
    for k in range(args.rounds):
        rows = one_round(args, sides if k % 2 == 0 else sides[::-1])
        print(HEADER, flush=True)
        for name in ("this", "other"):
            print_row(rows[name])
        ratio = rows["this"]["cpu"] / rows["other"]["cpu"]
        ratios.append(ratio)
        print(f"round {k + 1}: this / other = {ratio:.3f} (CPU per move)", flush=True)
    first, second = ratios[0::2], ratios[1::2]  # "this" started first / "other" did
    print(
        f"this / other, CPU per move: median {statistics.median(ratios):.3f}, "
        f"range {min(ratios):.3f}-{max(ratios):.3f} over {len(ratios)} rounds",
        flush=True,
    )
    if first and second:  # the order can tilt a round by a few % (docs/scaling.md)
        a, b = statistics.median(first), statistics.median(second)
        print(
            f"by which started first: this {a:.3f}, other {b:.3f}; "
            f"both orders weighed alike: {(a * b) ** 0.5:.3f}",
            flush=True,
        )
    return 0


if __name__ == "__main__":
    try:
        sys.exit(main())
    except KeyboardInterrupt:
        print("interrupted", file=sys.stderr)
        sys.exit(130)
