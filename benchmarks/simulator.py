"""Games per second of the compiled simulator and of the pure engine, on 4-player `standard`
games with every seat eager, and their ratio. Bounded: a few seconds each.

    .venv/bin/python benchmarks/simulator.py [--seconds 3]

Both sides play the same games (game g rolls `dice.faces(seed, g)`). The fast figure is the whole
`simulate()` run, statistics included, after loading the compiled code once; the raw kernel alone
is also shown. The engine figure is the bare loop of `robinson.engine.apply` with eager decisions.
"""

from __future__ import annotations

import argparse
import os
import time

import numba

from robinson.analysis.sim import Setup, simulate
from robinson.analysis.sim import fast as fast_sim
from robinson.analysis.sim.dice import faces
from robinson.analysis.sim.policies import fast_tables
from robinson.engine import Choose, Phase, Roll, Ruleset, apply, new_game

EAGER = {Phase.SHIPWRECK: "move", Phase.TREE: "move", Phase.BREAD: "again", Phase.CANOE: "jump"}
SETUP = Setup(Ruleset("standard"), players=4, seed=20261130)


def engine_rate(seconds: float) -> tuple[float, float]:
    """Games per second of the pure engine (apply() with eager decisions, same dice), by the
    wall clock and per CPU-second."""
    games = 0
    start, cpu = time.perf_counter(), time.process_time()
    while time.perf_counter() - start < seconds:
        state = new_game(SETUP.players, SETUP.ruleset, SETUP.first)
        dice = faces(SETUP.seed, games)
        while not state.over:
            if state.phase is Phase.ROLL:
                action: Roll | Choose = Roll(next(dice))
            else:
                action = Choose(EAGER[state.phase])
            state, _ = apply(state, action)
        games += 1
    return games / (time.perf_counter() - start), games / (time.process_time() - cpu)


def kernel_rate(games: int) -> tuple[float, float]:
    """Games per second of the compiled kernel alone: wall clock, and per CPU-second (all
    threads' CPU time, so the figure one core would reach with no other load)."""
    tables = fast_tables("eager", SETUP.ruleset, SETUP.players)
    fast_sim.run_batch(SETUP, tables, 0, 8)
    start, cpu = time.perf_counter(), time.process_time()
    for offset in range(0, games, 1 << 20):
        fast_sim.run_batch(SETUP, tables, offset, min(1 << 20, games - offset))
    return games / (time.perf_counter() - start), games / (time.process_time() - cpu)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=3.0, help="time per measurement")
    args = parser.parse_args()
    probe = simulate(SETUP, 1 << 20, progress=False).games_per_second  # sizes the real run
    games = max(1 << 20, int(probe * args.seconds) >> 20 << 20)
    result = simulate(SETUP, games, progress=False)
    fast = result.games_per_second
    kernel, kernel_cpu = kernel_rate(games)
    engine, engine_cpu = engine_rate(args.seconds)
    load = ", ".join(f"{x:.2f}" for x in os.getloadavg())
    threads = numba.get_num_threads()
    print(f"4-player standard games, eager policy, {threads} threads, load average {load}")
    print(f"fast simulator (simulate, with statistics): {fast:>12,.0f} games/s ({games:,} games)")
    print(f"fast simulator (compiled kernel only):      {kernel:>12,.0f} games/s")
    print(f"pure engine (apply loop):                   {engine:>12,.1f} games/s")
    print(f"ratio fast / engine:                        {fast / engine:>12,.0f} x")
    print("per CPU-second (what one core does when nothing else runs on it):")
    print(
        f"  fast kernel {kernel_cpu:,.0f} games, pure engine {engine_cpu:,.1f} games, "
        f"ratio {kernel_cpu / engine_cpu:,.0f} x; x{threads} cores: {threads * kernel_cpu:,.0f}"
    )


if __name__ == "__main__":
    main()
