"""The figures of the live odds (issue 10): lookups, a whole game's chart, simulated odds, the
memory of the tables shared by several processes, and the first solve.

    .venv/bin/python benchmarks/odds.py [--edition standard] [--cache DIR] [--skip-solve]
                                        [--only solve|lookups|chart|simulated|memory ...]

- the first solve of the 4-player chains (eager and optimal): seconds and peak memory of the
  process that solves (a child process, with a fresh cache directory unless --cache is given);
- one exact 4-player lookup (goal < 5 ms): median and 99th percentile over random mid-game
  positions, at a roll and at a pending decision, after a first lookup (which maps the file);
- the chart of a whole 4-player game of about 250 positions (goal < 200 ms);
- simulated odds of a 6-player position with 200,000 games (goal < 150 ms), after a warm-up;
- the memory of one edition's 4-player tables (goal <= 400 MB per machine however many
  processes): the files, and three processes that each read every value of both policies'
  tables: their resident and proportional (PSS: shared pages divided among the sharers) sizes.
Figures move with the machine's load (printed first).
"""

from __future__ import annotations

import argparse
import gc
import os
import random
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def _child(code: str, cache: Path) -> str:
    env = {**os.environ, "ROBINSON_CACHE_DIR": str(cache)}
    out = subprocess.run(
        [sys.executable, "-c", code], env=env, check=True, capture_output=True, text=True
    )
    return out.stdout.strip()


SOLVE = """
import resource, time
from robinson.analysis.odds import tables
from robinson.engine import Ruleset
began = time.perf_counter()
spent = tables.ensure(Ruleset({edition!r}), {policy!r}, 4)
wall = time.perf_counter() - began
peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
print(f"{{spent:.2f}} {{wall:.2f}} {{peak:.0f}}")
"""

READER = """
import os, sys, time
from robinson.analysis.odds import tables
from robinson.engine import Ruleset
total = 0.0
for policy in ("eager", "optimal"):
    for m in range(1, 5):
        total += float(tables.values(Ruleset({edition!r}), policy, m).sum())  # every page
print(os.getpid(), flush=True)
sys.stdin.readline()  # hold the mappings until the parent has measured
"""


def _memory(pid: int) -> tuple[float, float]:
    """(RSS, PSS) in MB of a process, from /proc/PID/smaps_rollup."""
    rss = pss = 0.0
    for line in Path(f"/proc/{pid}/smaps_rollup").read_text().splitlines():
        if line.startswith("Rss:"):
            rss = int(line.split()[1]) / 1024
        if line.startswith("Pss:"):
            pss = int(line.split()[1]) / 1024
    return rss, pss


def first_solve(edition: str, cache: Path) -> None:
    for policy in ("eager", "optimal"):
        spent, wall, peak = _child(SOLVE.format(edition=edition, policy=policy), cache).split()
        print(
            f"first solve, {edition} {policy}, chains of 1..4 living players: {float(spent):.1f} s"
            f" solving ({float(wall):.1f} s with loading and writing), peak memory {peak} MB"
        )


def lookups(edition: str) -> None:
    from robinson.analysis.odds import position_odds
    from robinson.engine import DECISIONS, Choose, Phase, Roll, Ruleset, apply, new_game

    rng = random.Random(1)
    rs = Ruleset(edition)
    at_roll, at_decision = [], []
    while len(at_roll) < 300 or len(at_decision) < 100:
        state = new_game(4, rs, 0)
        for _ in range(rng.randint(10, 200)):
            if state.over:
                break
            if state.phase is Phase.ROLL:
                state, _ = apply(state, Roll(rng.randint(1, 6)))
            else:
                if len(state.living) == 4 and len(at_decision) < 100:
                    at_decision.append(state)
                state, _ = apply(state, Choose(rng.choice(DECISIONS[state.phase])))
        if not state.over and state.phase is Phase.ROLL and len(state.living) == 4:
            at_roll.append(state)
    began = time.perf_counter()
    position_odds(at_roll[0])
    print(f"first 4-player lookup in this process (maps the file): {_ms(began)}")
    gc.collect()
    for name, states in (("at a roll", at_roll), ("at a decision (with options)", at_decision)):
        times = []
        for state in states:
            began = time.perf_counter()
            position_odds(state)
            times.append(time.perf_counter() - began)
        times.sort()
        print(
            f"exact 4-player lookup {name}: median {1000 * statistics.median(times):.3f} ms,"
            f" 99th percentile {1000 * times[int(0.99 * len(times))]:.3f} ms"
            f" ({len(times)} positions)"
        )


def chart(edition: str) -> None:
    from robinson.analysis.odds.history import chances_over_game, turn_starts
    from robinson.engine import DECISIONS, Choose, GameRecord, Phase, Roll, Ruleset, apply, new_game

    rs = Ruleset(edition)
    best = None
    # Games of 4 last about 60 to 90 turns (the issue guessed 250): the longest of 400 games
    # with random choices (restarts and staying in the tree make long ones), and the cost of
    # one position, times 250.
    for seed in range(400):
        rng = random.Random(seed)
        state, actions = new_game(4, rs), []
        while not state.over:
            action = (
                Roll(rng.randint(1, 6))
                if state.phase is Phase.ROLL
                else Choose(rng.choice(DECISIONS[state.phase]))
            )
            state, _ = apply(state, action)
            actions.append(action)
        record = GameRecord(rs, ("A", "B", "C", "D"), 0, tuple(actions))
        size = len(turn_starts(record))
        if best is None or size > best[0]:
            best = (size, record)
    assert best is not None
    size, record = best
    chances_over_game(record)  # the tables mapped, the code warm
    times = []
    for _ in range(5):
        began = time.perf_counter()
        chances_over_game(record)
        times.append(time.perf_counter() - began)
    median = statistics.median(times)
    print(
        f"chart of a whole 4-player game ({size} positions, {len(record.actions)} actions,"
        f" replay included): median {1000 * median:.1f} ms of 5;"
        f" {1000 * median / size:.3f} ms a position, {250 * 1000 * median / size:.0f} ms for 250"
    )


def simulated(edition: str) -> None:
    from robinson.analysis.odds import position_odds
    from robinson.analysis.policy import EAGER_OPTION
    from robinson.engine import Choose, Phase, Roll, Ruleset, apply, new_game

    rng = random.Random(7)
    state = new_game(6, Ruleset(edition), 0)
    while state.phase is not Phase.ROLL or sum(p.position for p in state.players) < 60:
        if state.phase is Phase.ROLL:
            state, _ = apply(state, Roll(rng.randint(1, 6)))
        else:
            state, _ = apply(state, Choose(EAGER_OPTION[state.phase]))
    position_odds(state, games=1000)  # compile or load the simulator
    for label, s in (("the opening", new_game(6, Ruleset(edition))), ("a mid-game one", state)):
        times, cpu = [], []
        for seed in range(5):
            began, began_cpu = time.perf_counter(), time.process_time()
            odds = position_odds(s, games=200_000, seed=seed)
            times.append(time.perf_counter() - began)
            cpu.append(time.process_time() - began_cpu)
        print(
            f"simulated 6-player odds of {label} (200,000 games): median"
            f" {1000 * statistics.median(times):.0f} ms of 5 by the wall clock"
            f" ({1000 * min(times):.0f} to {1000 * max(times):.0f}),"
            f" {1000 * statistics.median(cpu):.0f} ms of CPU (all threads; on 2 idle cores"
            f" about half of it is the wall clock) (method {odds['method']})"
        )


def shared_memory(edition: str, cache: Path) -> None:
    from robinson.analysis.odds import tables
    from robinson.engine import Ruleset

    files = [
        tables.table_path(Ruleset(edition), p, m)
        for p in ("eager", "optimal")
        for m in (1, 2, 3, 4)
    ]
    size = sum(f.stat().st_size for f in files) / 2**20
    print(f"tables of {edition} for 1..4 living players, both policies: {size:.0f} MB on disk")
    env = {**os.environ, "ROBINSON_CACHE_DIR": str(cache)}
    code = READER.format(edition=edition)
    readers = [
        subprocess.Popen(
            [sys.executable, "-c", code],
            env=env,
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            text=True,
        )
        for _ in range(3)
    ]
    try:
        pids = [int(r.stdout.readline()) for r in readers if r.stdout is not None]
        total_pss = 0.0
        for pid in pids:
            rss, pss = _memory(pid)
            total_pss += pss
            print(f"  reader process {pid}: resident {rss:.0f} MB, proportional (PSS) {pss:.0f} MB")
        print(
            f"  3 processes reading every value: {total_pss:.0f} MB in all (PSS), of which the"
            " tables are one shared copy"
        )
    finally:
        for r in readers:
            if r.stdin is not None:
                r.stdin.close()
            r.wait(30)


PARTS = ["solve", "lookups", "chart", "simulated", "memory"]


def _ms(began: float) -> str:
    return f"{1000 * (time.perf_counter() - began):.2f} ms"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--edition", default="standard")
    parser.add_argument("--cache", type=Path, help="a cache directory to use (default: fresh)")
    parser.add_argument("--skip-solve", action="store_true", help="the cache has the tables")
    parser.add_argument(
        "--only", nargs="+", choices=PARTS, default=PARTS, help="measure only these figures"
    )
    args = parser.parse_args()
    print(f"load average before: {' '.join(f'{x:.2f}' for x in os.getloadavg())}")
    with tempfile.TemporaryDirectory(prefix="robinson-odds-") as fresh:
        cache = args.cache or Path(fresh)
        os.environ["ROBINSON_CACHE_DIR"] = str(cache)
        began = time.perf_counter()
        import robinson.analysis.odds.exact  # noqa: F401 - numpy, numba: once per process

        print(f"imports of the odds (numpy, numba): {_ms(began)}")
        if "solve" in args.only and not args.skip_solve:
            first_solve(args.edition, cache)
        if "lookups" in args.only:
            lookups(args.edition)
        if "chart" in args.only:
            chart(args.edition)
        if "simulated" in args.only:
            simulated(args.edition)
        if "memory" in args.only:
            shared_memory(args.edition, cache)
    print(f"load average after: {' '.join(f'{x:.2f}' for x in os.getloadavg())}")


if __name__ == "__main__":
    main()
