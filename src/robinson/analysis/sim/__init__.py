"""Simulation of complete games under the full rules: a compiled simulator (numba) and the pure
engine as its reference, fed identical per-game dice (`dice.faces(seed, game)`).

    from robinson.analysis.sim import Setup, simulate
    result = simulate(Setup(Ruleset("standard"), players=4, seed=1), games=1_000_000)
    result.summary.to_json()["p_win"], result.games_per_second
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

from robinson.analysis.sim.engines import ENGINES

if TYPE_CHECKING:
    from robinson.analysis.sim.batch import Batch, Setup
    from robinson.analysis.sim.policies import PolicyError
    from robinson.analysis.sim.run import RunResult, simulate
    from robinson.analysis.sim.stats import Estimate, Summary

# Loaded on first use (PEP 562): numba, numpy and tqdm cost a second or more to import, and the
# `robinson` command registers every subcommand's options, including these, at start-up.
_LAZY = {
    "Batch": "batch",
    "Setup": "batch",
    "PolicyError": "policies",
    "RunResult": "run",
    "simulate": "run",
    "Estimate": "stats",
    "Summary": "stats",
}


def __getattr__(name: str) -> Any:
    if name in _LAZY:
        return getattr(importlib.import_module(f"{__name__}.{_LAZY[name]}"), name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


__all__ = [
    "ENGINES",
    "Batch",
    "Estimate",
    "PolicyError",
    "RunResult",
    "Setup",
    "Summary",
    "simulate",
]
