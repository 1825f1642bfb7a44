"""Policies: who decides what at the decision squares (the engine's `DECISION_TABLE`). Shared by
the exact analysis, the simulator and the bots.

Stable API
----------
- `POLICIES`: the policy names, in the order interfaces list them.
- `make_policy(name, ruleset, players) -> Policy`; an unknown name raises `RobinsonError`
  listing the known ones.
- `Policy.decide(state) -> Choose`: the option for `state.to_move` at the decision pending in
  `state` (a `robinson.engine.State` whose phase is SHIPWRECK, TREE, BREAD or CANOE).

`eager` never restarts, never stays, always rolls again and always jumps: `EAGER_OPTION` names
its option for each decision phase. `optimal` plays the exact solution of
`robinson.analysis.exact` (each player maximises his own probability of winning).

Decision table (for the simulator's fast path)
----------------------------------------------
`OptimalPolicy.tables[m]` (m = number of LIVING players, 1..players) is a `numpy.uint8` array of
shape `(4, 7, K ** (m - 1))`, read as `tables[m][kind, roll, others]`:

- `kind`: 0 shipwreck (square 4), 1 tree (square 7), 2 bread (square 20), 3 canoe (square 23),
  the order of `DECISION_KINDS`;
- `roll`: the roll in view, 1..6, for shipwreck and tree; 0 for bread and canoe (no roll in view);
- `others`: the mixed-radix index `sum(code[k] * K ** (m - 1 - k) for k in 1..m-1)` of the
  OTHER living players in turn order after the mover (k = 1, the next living seat clockwise, is
  the most significant digit), where `code = codes.code(position, skips)` and `K = codes.K`
  (module `robinson.analysis.exact.codes`: the square 0..44, 45 for "on 12 with a skip
  pending", 46 for "on 7 with a skip pending"; K = 47);
- value 1: take the eager option (`EAGER_OPTION`), 0: take the other one.

`OptimalPolicy.others_index(state)` computes `others` for an engine state.
"""

from __future__ import annotations

from typing import Protocol

from robinson.analysis.decisions import (
    DECISION_KINDS,
    DECISION_SQUARES,
    EAGER_OPTION,
    OTHER_OPTION,
    check_decision,
)
from robinson.engine import Choose, RobinsonError, Ruleset, State

__all__ = [
    "DECISION_KINDS",
    "DECISION_SQUARES",
    "EAGER_OPTION",
    "OTHER_OPTION",
    "POLICIES",
    "EagerPolicy",
    "Policy",
    "check_decision",
    "make_policy",
]

POLICIES: tuple[str, ...] = ("eager", "optimal")


class Policy(Protocol):
    name: str

    def decide(self, state: State) -> Choose:
        """The option for `state.to_move` at the decision pending in `state`."""
        ...


class EagerPolicy:
    """Never restart, never stay, always roll again, always jump."""

    name = "eager"

    def decide(self, state: State) -> Choose:
        return Choose(EAGER_OPTION[check_decision(state)])


def make_policy(name: str, ruleset: Ruleset | None = None, players: int = 2) -> Policy:
    """The policy called `name` for games of `players` players under `ruleset`.

    `optimal` solves the game exactly on first use for this ruleset and player count (cached);
    for 4 players that takes a while (see benchmarks/exact_solve.py)."""
    ruleset = ruleset or Ruleset()
    if name == "eager":
        return EagerPolicy()
    if name == "optimal":
        from robinson.analysis.exact.optimal import OptimalPolicy

        return OptimalPolicy.solve(ruleset, players)
    raise RobinsonError(f"unknown policy {name!r}: expected one of {', '.join(POLICIES)}")
