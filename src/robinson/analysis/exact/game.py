"""A whole game solved: the turn trees, the chains of 1..n living players, and the decisions.

`solve_game(ruleset, players, policy)` is cached per (ruleset, players, policy): the optimal
policy, the bot, the analysis and the tests all share one solve.

Solution concept for `optimal`: every player maximises his own probability of winning. The
chains of 1, 2, ..., n living players are solved in turn, each by value iteration in which the
mover at every decision takes the option best for himself given the current values (ties go to
the eager option). At the fixed point no player can gain by changing one decision anywhere: a
stationary Markov perfect equilibrium in pure strategies. For 2 players it is the exact fixed
point of value iteration; for 3 and 4 players the same iteration is run to convergence and its
final residual is reported (`converged`).
"""

from __future__ import annotations

import functools
from dataclasses import dataclass

import numpy as np
import numpy.typing as npt

from robinson.analysis.decisions import DECISION_KINDS
from robinson.analysis.exact import codes
from robinson.analysis.exact.joint import Solution, option_values, solve_joint
from robinson.analysis.exact.kernel import DECISION_MARGIN
from robinson.analysis.exact.turns import TurnTrees, build_turn_trees
from robinson.engine import MAX_PLAYERS, BadRuleset, RobinsonError, Ruleset

EXACT_MAX_PLAYERS = 4
TOLERANCE = 1e-13
EXACT_POLICIES = ("eager", "optimal")


@dataclass(frozen=True)
class GameSolution:
    ruleset: Ruleset
    players: int
    policy: str
    trees: TurnTrees
    chains: tuple[Solution, ...]  # chains[m - 1]: m living players
    # options[m - 1][(kind, roll)][others, option, seat]: see `joint.option_values`.
    options: tuple[dict[tuple[int, int], npt.NDArray[np.float64]], ...]

    @property
    def converged(self) -> bool:
        return all(c.residual <= TOLERANCE for c in self.chains)

    @property
    def seconds(self) -> float:
        return sum(c.seconds for c in self.chains)

    def p_win(self) -> list[float]:
        """P(win) of each seat from the start, seat 0 moving first."""
        return self.chains[self.players - 1].p_win(0)

    def decision_table(self, m: int) -> npt.NDArray[np.uint8]:
        """The policy's choice for m living players: see `robinson.analysis.policy`."""
        table = np.ones((len(DECISION_KINDS), 7, codes.K ** (m - 1)), dtype=np.uint8)
        if self.policy == "optimal":
            for (kind, roll), values in self.options[m - 1].items():
                table[kind, roll] = ~(values[:, 1, 0] > values[:, 0, 0] + DECISION_MARGIN)
        return table


def check_exact(players: int, policy: str) -> None:
    if type(players) is not int or not 1 <= players <= MAX_PLAYERS:
        raise BadRuleset(f"players must be 1 to {MAX_PLAYERS}, got {players!r}")
    if players > EXACT_MAX_PLAYERS:
        raise BadRuleset(
            f"the exact chain covers 1 to {EXACT_MAX_PLAYERS} players (got {players}); "
            f"{EXACT_MAX_PLAYERS + 1} to {MAX_PLAYERS} players are for `robinson simulate`"
        )
    if policy not in EXACT_POLICIES:
        raise RobinsonError(
            f"unknown policy {policy!r}: expected one of {', '.join(EXACT_POLICIES)}"
        )


@functools.lru_cache(maxsize=16)
def solve_game(ruleset: Ruleset, players: int, policy: str) -> GameSolution:
    """Solve the chains of 1..`players` living players under `policy` (`eager` or `optimal`)."""
    check_exact(players, policy)
    trees = build_turn_trees(ruleset)
    optimal = policy == "optimal"
    chains: list[Solution] = []
    options = []
    sub: Solution | None = None
    for m in range(1, players + 1):
        chain = solve_joint(trees, m, sub, optimal, tol=TOLERANCE)
        options.append(option_values(trees, chain, sub, optimal))
        chains.append(chain)
        sub = chain
    return GameSolution(ruleset, players, policy, trees, tuple(chains), tuple(options))
