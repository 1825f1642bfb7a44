"""Start-up time of `robinson serve` on a database holding many unfinished tables.

Writes `--tables` unfinished two-person tables straight into a temp SQLite database (as the
test tests/web/test_lazy_tables.py does), then times `robinson serve` from launch to its first
answer, and asks one table to show it loads on demand. The server loads on start only tables
waiting for a bot, so this should not grow with `--tables`.

    .venv/bin/python benchmarks/start_many_tables.py --tables 10000
"""

from __future__ import annotations

import argparse
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from benchmarks import serve_helper
from tests.web.test_lazy_tables import _fill


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--tables", type=int, default=10_000)
    args = ap.parse_args()
    folder = tempfile.mkdtemp()
    empty, url = f"sqlite:///{folder}/empty.sqlite3", f"sqlite:///{folder}/many.sqlite3"
    started = time.perf_counter()
    _fill(url, args.tables, 0)
    _fill(empty, 0, 0)
    print(f"wrote {args.tables} unfinished tables in {time.perf_counter() - started:.1f} s")
    # Launch time is mostly Python importing the server on a busy machine: the empty database
    # beside it shows that part; the difference is what the tables cost.
    for run in range(3):
        for name, database in (("empty", empty), (f"{args.tables} tables", url)):
            started = time.perf_counter()
            proc, base = serve_helper.start(database)
            ready = time.perf_counter() - started
            started = time.perf_counter()
            if database == url:
                serve_helper.get(f"{base}/api/tables/t{args.tables // 2}")
            first = time.perf_counter() - started
            out = serve_helper.stop(proc)
            note = next((line for line in out.splitlines() if "started:" in line), "no note")
            print(f"run {run + 1}, {name}: answering {ready:.2f} s after launch; "
                  f"a table first shown in {first * 1000:.0f} ms; "
                  f"{note.split(' ', 2)[-1]}")  # fmt: skip
    return 0


if __name__ == "__main__":
    sys.exit(main())
