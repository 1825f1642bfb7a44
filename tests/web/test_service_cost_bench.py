"""benchmarks/service_cost.py (the game service's own cost per move, issue 17) runs in process
and counts the moves it made: a smoke test. Tests never assert on timings."""

from __future__ import annotations

import argparse
import asyncio

from benchmarks.service_cost import measure

from robinson.web.service import views


def test_the_service_benchmark_plays_its_rounds_and_times_them() -> None:
    told = views.tell_update
    for alone, evict, quiet in ((False, 0, False), (True, 0, False), (False, 1, False),
                                (True, 0, True)):  # fmt: skip
        args = argparse.Namespace(
            tables=3, players=3, spectators=2, langs="lv,ca", rounds=5, seed=1, profile=False,
            alone=alone, evict=evict, no_views=quiet,
        )  # fmt: skip
        out = asyncio.run(measure(args))
        # Three tables, five rounds of one move each (a finished game makes one a rematch).
        assert 3 * 5 - 3 <= out["moves"] <= 3 * 5
        assert out["cpu"] > 0 and 0 <= out["main"] <= out["cpu"] + 0.05
        # What the listeners were handed in the window: every update, or (--no-views) nothing.
        assert out["told"] == 0 if quiet else out["told"] >= out["moves"]
        assert views.tell_update is told  # --no-views put it back
