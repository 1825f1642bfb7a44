"""benchmarks/service_cost.py (the game service's own cost per move, issue 17) runs in process
and counts the moves it made: a smoke test. Tests never assert on timings."""

from __future__ import annotations

import argparse
import asyncio

from benchmarks.service_cost import measure


def test_the_service_benchmark_plays_its_rounds_and_times_them() -> None:
    for alone, evict in ((False, 0), (True, 0), (False, 1)):
        args = argparse.Namespace(
            tables=3, players=3, spectators=2, langs="lv,ca", rounds=5, seed=1, profile=False,
            alone=alone, evict=evict,
        )  # fmt: skip
        out = asyncio.run(measure(args))
        # Three tables, five rounds of one move each (a finished game makes one a rematch).
        assert 3 * 5 - 3 <= out["moves"] <= 3 * 5
        assert out["cpu"] > 0 and 0 <= out["main"] <= out["cpu"] + 0.05
