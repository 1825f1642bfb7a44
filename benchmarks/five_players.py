"""Whether the exact chain of five players fits this machine: the figures, not a solve.

    .venv/bin/python benchmarks/five_players.py [--edition standard] [--measure] [--budget 6]

The solver (`analysis/exact/joint.py`) stores V densely, K**m rows of m float64 values, and its
solve order (`levels.solve_order`) keeps three int64 arrays over every state a pawn can hold
(index, group, place) and a sorted copy. This prints those sizes for m = 5 from the code's own
constants (K, the codes the edition's pawns can hold), the memory this machine has available
(/proc/meminfo), and, with `--measure`, the time of the 4-player solve scaled to five by the
number of states and values per state, and whether that fits the memory one process may take
(`--budget`). The exact analysis stops at four players (`EXACT_MAX_PLAYERS`); this says what
five would take, and why it is not solved here.
"""

from __future__ import annotations

import argparse
import os
import time

from robinson.analysis.exact import codes
from robinson.analysis.exact.game import EXACT_MAX_PLAYERS, solve_game
from robinson.analysis.exact.levels import reachable_codes
from robinson.analysis.exact.turns import build_turn_trees
from robinson.engine import Ruleset

GB = 1e9


def available_memory() -> float:
    with open("/proc/meminfo") as f:
        fields = dict(line.split(":", 1) for line in f)
    return int(fields["MemAvailable"].split()[0]) * 1024 / GB


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--edition", default="standard")
    parser.add_argument("--measure", action="store_true", help="time the 4-player solve too")
    parser.add_argument(
        "--budget",
        type=float,
        default=6.0,
        help="GB one process may take on this shared machine (default 6: 24 GB, 4 engineers)",
    )
    args = parser.parse_args()
    rules = Ruleset(args.edition)
    held = int(reachable_codes(build_turn_trees(rules)).sum())
    m = EXACT_MAX_PLAYERS + 1
    rows, states = codes.K**m, held**m
    values = rows * m * 8 / GB
    order = states * 8 * 4 / GB  # index, group, place and the sorted states
    print(f"load average: {' '.join(f'{x:.2f}' for x in os.getloadavg())}")
    print(f"{args.edition}: {held} codes a pawn can hold; {m} players: {states:,} states"
          f" ({rows:,} rows in the dense layout)")  # fmt: skip
    print(f"  V, float64 dense: {values:.1f} GB (float32: {values / 2:.1f} GB)")
    print(f"  solve order arrays: {order:.1f} GB; with V: {values + order:.1f} GB at least")
    print(f"  this machine has {available_memory():.1f} GB available now")
    # The peak also holds the sort's two temporary copies of the states (eager; the optimal
    # policy's option values of every decision come on top: docs/analysis.md "Five players").
    peak = values + order + 2 * states * 8 / GB
    if peak <= min(args.budget, available_memory()):
        print(f"  fits: about {peak:.1f} GB at the peak, within the {args.budget:.0f} GB budget")
    else:
        print(f"  not solved: about {peak:.1f} GB at the peak, over the {args.budget:.0f} GB one"
              " process may take here (--budget); the float32 level-by-level plan of"
              " docs/analysis.md would need a few GB")  # fmt: skip
    if args.measure:
        solve_game(rules, 2, "eager")  # warm-up (numba)
        began = time.perf_counter()
        solve_game(rules, 4, "eager")
        four = time.perf_counter() - began
        scale = (held**5 * 5) / (held**4 * 4)
        print(f"  4-player eager solve: {four:.1f} s; five scaled by states x values:"
              f" about {four * scale / 60:.0f} min per policy")  # fmt: skip


if __name__ == "__main__":
    main()
