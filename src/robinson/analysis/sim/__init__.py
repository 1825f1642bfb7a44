"""Simulation of complete games under the full rules: a compiled simulator (numba) and the pure
engine as its reference, fed identical per-game dice (`dice.faces(seed, game)`).

    from robinson.analysis.sim import Setup, simulate
    result = simulate(Setup(Ruleset("standard"), players=4, seed=1), games=1_000_000)
    result.summary.to_json()["p_win"], result.games_per_second
"""

from robinson.analysis.sim.batch import Batch, Setup
from robinson.analysis.sim.policies import PolicyError
from robinson.analysis.sim.run import ENGINES, RunResult, simulate
from robinson.analysis.sim.stats import Estimate, Summary

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
