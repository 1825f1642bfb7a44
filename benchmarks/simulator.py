"""Games per second of the compiled simulator and of the pure engine, on 4-player `standard`
games with every seat eager, and their ratio. Bounded: a few seconds each.

    .venv/bin/python benchmarks/simulator.py [--seconds 3]

Both sides play the same games (game g rolls `dice.faces(seed, g)`). The fast figure is the whole
`simulate()` run, statistics included, after loading the compiled code once; the compiled kernel
alone is also shown. The engine figure is the bare loop of `robinson.engine.apply` with eager
decisions.

The machine may be shared: wall-clock rates then depend on what else runs. Rates per CPU-second
(the CPU time this process got, all its threads together) say what the code does with a core; the
best of several short repetitions filters out the moments when another process shared the core.
The load average is printed with the figures.
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
REPEAT_GAMES = 1 << 18  # games per repetition of the kernel timing


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


def kernel_rate(seconds: float, threads: int) -> tuple[float, float]:
    """Games per second of the compiled kernel alone on `threads` threads, best of repetitions
    of REPEAT_GAMES games for `seconds`: by the wall clock, and per CPU-second."""
    before = numba.get_num_threads()
    numba.set_num_threads(threads)
    tables = fast_tables("eager", SETUP.ruleset, SETUP.players)
    fast_sim.run_batch(SETUP, tables, 0, 8)
    best_wall = best_cpu = 0.0
    end = time.perf_counter() + seconds
    offset = 0
    while time.perf_counter() < end:
        start, cpu = time.perf_counter(), time.process_time()
        fast_sim.run_batch(SETUP, tables, offset, REPEAT_GAMES)
        wall, used = time.perf_counter() - start, time.process_time() - cpu
        best_wall = max(best_wall, REPEAT_GAMES / wall)
        best_cpu = max(best_cpu, REPEAT_GAMES / max(used, 1e-9))
        offset += REPEAT_GAMES
    numba.set_num_threads(before)
    return best_wall, best_cpu


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=3.0, help="time per measurement")
    args = parser.parse_args()
    load_before = os.getloadavg()[0]
    threads = numba.get_num_threads()
    probe = simulate(SETUP, 1 << 20, progress=False).games_per_second  # sizes the real run
    games = max(1 << 20, int(probe * args.seconds) >> 20 << 20)
    result = simulate(SETUP, games, progress=False)
    fast = result.games_per_second
    kernel, kernel_cpu = kernel_rate(args.seconds, threads)
    _, one_core = kernel_rate(args.seconds, 1)
    engine, engine_cpu = engine_rate(args.seconds)
    load = ", ".join(f"{x:.2f}" for x in os.getloadavg())
    print(f"4-player standard games, eager policy, {threads} threads on {os.cpu_count()} cores")
    print(f"load average {load_before:.2f} before, {load} after (1, 5, 15 min)")
    print("by the wall clock:")
    print(f"  fast simulator (simulate, with statistics): {fast:>12,.0f} games/s ({games:,} games)")
    print(f"  fast simulator (compiled kernel, best):     {kernel:>12,.0f} games/s")
    print(f"  pure engine (apply loop):                   {engine:>12,.1f} games/s")
    print(f"  ratio fast simulate / engine:               {fast / engine:>12,.0f} x")
    print("per CPU-second (what the code does with one core, best of repetitions):")
    print(f"  fast kernel, 1 thread:                      {one_core:>12,.0f} games")
    print(f"  fast kernel, {threads} threads:                    {kernel_cpu:>12,.0f} games")
    print(f"  pure engine:                                {engine_cpu:>12,.1f} games")
    print(f"  ratio fast kernel (1 thread) / engine:      {one_core / engine_cpu:>12,.0f} x")
    print(
        f"  a whole idle {os.cpu_count()}-core machine at that rate: "
        f"{(os.cpu_count() or 1) * one_core:,.0f} games/s"
    )


if __name__ == "__main__":
    main()
