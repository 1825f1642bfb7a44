"""Time the exact solves: 2, 3 and 4 players, `standard`, eager and optimal.

    .venv/bin/python benchmarks/exact_solve.py [--players 2 3 4] [--edition standard]

Each line: the chain sizes, the sweeps, the residual, the win chances and the seconds of the
whole solve (the chains of 1..n living players and the decision values), after one warm-up
solve so that numba's compilation is not counted (it is printed separately). Goal: 4 players
under 30 s on a 2-core machine.
"""

from __future__ import annotations

import argparse
import time

from robinson.analysis.exact import codes
from robinson.analysis.exact.game import solve_game
from robinson.engine import Ruleset


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--players", type=int, nargs="+", default=[2, 3, 4])
    parser.add_argument("--policies", nargs="+", default=["eager", "optimal"])
    parser.add_argument("--edition", default="standard")
    args = parser.parse_args()
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
                f"{args.edition} {policy:8} {players} players: {seconds:7.2f} s"
                f" ({codes.K**players:,} states, sweeps {[c.sweeps for c in game.chains]},"
                f" residual {max(c.residual for c in game.chains):.1e},"
                f" converged {game.converged}) p_win [{p_win}]"
            )


if __name__ == "__main__":
    main()
