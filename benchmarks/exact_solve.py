"""Time the exact solves: 2, 3 and 4 players, `standard`, eager and optimal.

    .venv/bin/python benchmarks/exact_solve.py [--players 2 3 4] [--edition standard]

Each line: the chain sizes, the work (state updates per state, i.e. whole-chain sweeps: about 1
for the acyclic part plus the sweeps of the cyclic groups), the most sweeps any group needed,
the Bellman residual over every state, the win chances and the seconds of the whole solve (the
chains of 1..n living players and the decision values), after one warm-up solve so that numba's
compilation is not counted (it is printed separately). Then the optimal policy's decision
tables: the first use on a machine (solve and write the disk cache, here a temporary
directory) against a later one (read the cache), and the two solves of `analysis/length.py`
(expected turns and the occupation measure, eager). Goal: 4 players under 30 s on a 2-core
machine.
"""

from __future__ import annotations

import argparse
import os
import tempfile
import time

from robinson.analysis.exact import codes, store
from robinson.analysis.exact.game import solve_game
from robinson.analysis.exact.optimal import OptimalPolicy
from robinson.analysis.length import eager_length
from robinson.engine import Ruleset


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--players", type=int, nargs="+", default=[2, 3, 4])
    parser.add_argument("--policies", nargs="+", default=["eager", "optimal"])
    parser.add_argument("--edition", default="standard")
    args = parser.parse_args()
    print(f"load average before: {' '.join(f'{x:.2f}' for x in os.getloadavg())}")
    began = time.perf_counter()
    solve_game(Ruleset(args.edition, stake=11), 2, "eager")  # warm-up: compile or load numba
    print(f"warm-up (numba compile or cache load): {time.perf_counter() - began:.2f} s")
    for policy in args.policies:
        for players in args.players:
            began = time.perf_counter()
            game = solve_game(Ruleset(args.edition), players, policy)
            seconds = time.perf_counter() - began
            p_win = ", ".join(f"{p:.6f}" for p in game.p_win())
            print(
                f"{args.edition} {policy:8} {players} players: {seconds:6.2f} s"
                f" ({codes.K**players:,} states, work {[round(c.updates, 2) for c in game.chains]}"
                f" sweeps, at most {[c.sweeps for c in game.chains]} in a group,"
                f" residual {max(c.residual for c in game.chains):.1e},"
                f" converged {game.converged}) p_win [{p_win}]"
            )
    solve_game.cache_clear()
    for players in args.players:  # the expected length and occupation measure (analysis/length)
        began = time.perf_counter()
        length = eager_length(Ruleset(args.edition), players)
        print(
            f"{args.edition} length   {players} players: {time.perf_counter() - began:6.2f} s"
            f" ({length.turns:.6f} turns; the visits sum to {length.total_visits:.6f};"
            f" sweeps at most {list(length.sweeps)} in a group)"
        )
    players = max(args.players)
    with tempfile.TemporaryDirectory() as cache:
        os.environ[store.CACHE_ENV] = cache
        for when in ("first use (solve, write the cache)", "next use (read the cache)"):
            began = time.perf_counter()
            OptimalPolicy(Ruleset(args.edition), players)
            print(f"optimal policy, {players} players, {when}: {time.perf_counter() - began:.2f} s")
    print(f"load average after: {' '.join(f'{x:.2f}' for x in os.getloadavg())}")


if __name__ == "__main__":
    main()
