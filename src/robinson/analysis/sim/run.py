"""Runs of many games in batches, on either simulator, with a progress bar on long runs."""

from __future__ import annotations

import sys
import time
from dataclasses import dataclass

from tqdm import tqdm  # type: ignore[import-untyped]

from robinson.analysis.sim import fast, reference
from robinson.analysis.sim.batch import Batch, Setup
from robinson.analysis.sim.dice import check_seed
from robinson.analysis.sim.engines import ENGINES
from robinson.analysis.sim.policies import PolicyLike, fast_policy, python_decider
from robinson.analysis.sim.stats import Summary
from robinson.engine import new_game

FAST_BATCH = 1 << 20  # games per compiled call: big enough to keep both cores busy
PYTHON_BATCH = 256


@dataclass(frozen=True)
class RunResult:
    summary: Summary
    seconds: float

    @property
    def games_per_second(self) -> float:
        return self.summary.games / self.seconds if self.seconds > 0 else float("inf")


def simulate(
    setup: Setup,
    games: int,
    policy: PolicyLike = "eager",
    engine: str = "fast",
    progress: bool | None = None,
) -> RunResult:
    """Play games 0 .. games-1 of `setup` with every seat on `policy` (a name of
    `robinson.analysis.policy`, or a decision function such as a bot's `choose`), and summarise.

    `progress=None` shows a bar on stderr only when it is a terminal. The time measured excludes
    the one-off loading of the compiled code (a warm-up of a few games)."""
    if type(games) is not int or games < 1:
        raise ValueError(f"games must be a whole number of at least 1, got {games!r}")
    if engine not in ENGINES:
        raise ValueError(f"engine must be one of {', '.join(ENGINES)}, got {engine!r}")
    new_game(setup.players, setup.ruleset, setup.first)  # validates players and first seat
    check_seed(setup.seed)
    if engine == "fast":
        tables = fast_policy(policy, setup.ruleset, setup.players)
        fast.run_batch(setup, tables, 0, 8)  # compile or load the cached machine code
        rows = Batch.empty(0, min(games, FAST_BATCH), setup.players)  # reused batch after batch

        def batch(offset: int, count: int) -> Batch:
            return fast.run_batch(setup, tables, offset, count, out=rows)

        size = FAST_BATCH
    else:
        decide = python_decider(policy, setup.ruleset, setup.players)

        def batch(offset: int, count: int) -> Batch:
            return reference.run_batch(setup, decide, offset, count)

        size = PYTHON_BATCH
    summary = Summary(setup)
    show = sys.stderr.isatty() if progress is None else progress
    start = time.perf_counter()
    with tqdm(total=games, disable=not show, unit="game", unit_scale=True, file=sys.stderr) as bar:
        for offset in range(0, games, size):
            count = min(size, games - offset)
            summary.add(batch(offset, count))
            bar.update(count)
    return RunResult(summary, time.perf_counter() - start)
