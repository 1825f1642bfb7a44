"""Policies for the simulators: who decides at the decision squares (the engine's table).

The compiled simulator takes a decision table per seat (see `kernel.py`): `table[seat, decision,
face]`, the index of the option taken in `DECISIONS` order. A *local* policy decides from its own
square and the roll in view only, so one 4 x 7 table captures it; `eager` and the `heuristic` bot
are local, and their tables are read off their decision functions by asking them every decision
once. `optimal` (`robinson.analysis.policy`) decides from the other pawns too and comes as its
joint table. The pure-engine runner asks the decision function directly.

A policy is named (`eager`, `optimal`: the analysis' own) or given as a decision function
(`Decide`, e.g. a bot's `choose`): the bots sit above the analysis and are resolved by the caller
(`robinson.cli.simulate`), so nothing here imports them.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import numpy as np
import numpy.typing as npt

from robinson.engine import (
    DECISION_TABLE,
    DECISIONS,
    FACES,
    Choose,
    Phase,
    Player,
    Ruleset,
    State,
)

Decide = Callable[[State], Choose]
PolicyLike = str | Decide  # a policy name of `robinson.analysis.policy`, or a decision function

# Decision rows of a table, in kernel order (the engine's table order).
DECISION_ROWS: tuple[Phase, ...] = tuple(d.phase for d in DECISION_TABLE)
_WITH_FACE = tuple(d.phase for d in DECISION_TABLE if d.roll_in_view)
LOCAL_POLICIES = ("eager", "heuristic")
FAST_POLICIES = (*LOCAL_POLICIES, "optimal")


class PolicyError(ValueError):
    """A policy name the chosen simulator cannot play."""


def _probe_state(ruleset: Ruleset, phase: Phase, face: int | None) -> State:
    """Seat 0 facing `phase` on its square with `face` in view, seat 1 at the start."""
    square = ruleset.board.square_of(next(d.effect for d in DECISION_TABLE if d.phase is phase))
    me = Player(position=square, purse=ruleset.start_tokens - ruleset.stake)
    other = Player(purse=ruleset.start_tokens - ruleset.stake)
    return State(ruleset, (me, other), 2 * ruleset.stake, 0, phase, face)


def table_of(decide: Decide, ruleset: Ruleset) -> npt.NDArray[np.int8]:
    """The 4 x 7 table of a local policy, by asking it every decision once."""
    table = np.zeros((len(DECISION_ROWS), 7), np.int8)
    for row, phase in enumerate(DECISION_ROWS):
        for face in FACES if phase in _WITH_FACE else (None,):
            option = decide(_probe_state(ruleset, phase, face)).option
            table[row, face or 0] = DECISIONS[phase].index(option)
    return table


@dataclass(frozen=True)
class FastPolicy:
    """What the compiled simulator plays: per-seat local tables, or (`optimal`) a joint table,
    all tables for 1..players living pawns raveled one after the other (`offsets[m]`)."""

    tables: npt.NDArray[np.int8]
    joint: npt.NDArray[np.uint8] = field(default_factory=lambda: np.zeros(0, np.uint8))
    offsets: npt.NDArray[np.int64] = field(default_factory=lambda: np.zeros(1, np.int64))


def fast_tables(policy: PolicyLike, ruleset: Ruleset, players: int) -> npt.NDArray[np.int8]:
    """The per-seat tables (players x 4 x 7) of a local policy: `eager`, or a decision function
    the caller knows to be local (it decides from its own square and roll only)."""
    if isinstance(policy, str):
        if policy != "eager":
            raise PolicyError(
                f"the fast simulator plays the policies {', '.join(FAST_POLICIES)}; "
                f"got {policy!r}: use --engine python for other policies"
            )
        from robinson.analysis.policy import EagerPolicy

        policy = EagerPolicy().decide
    table = table_of(policy, ruleset)
    return np.ascontiguousarray(np.broadcast_to(table, (players, *table.shape)))


def fast_policy(policy: PolicyLike, ruleset: Ruleset, players: int) -> FastPolicy:
    """The policy in the compiled simulator's form; `optimal` is solved exactly first
    (`robinson.analysis.policy`; 1 to 4 players)."""
    if policy != "optimal":
        return FastPolicy(fast_tables(policy, ruleset, players))
    from robinson.analysis.policy import make_policy

    solved: Any = make_policy("optimal", ruleset, players)
    parts = [
        np.ascontiguousarray(solved.tables[m], np.uint8).ravel() for m in range(1, players + 1)
    ]
    offsets = np.zeros(players + 1, np.int64)
    offsets[1:] = np.cumsum([0] + [len(p) for p in parts[:-1]])
    return FastPolicy(fast_tables("eager", ruleset, players), np.concatenate(parts), offsets)


def table_decider(tables: npt.NDArray[np.int8]) -> Decide:
    """The engine-side reading of per-seat tables (the reference for the compiled one)."""

    def decide(state: State) -> Choose:
        seat = state.to_move
        assert seat is not None
        row = DECISION_ROWS.index(state.phase)
        return Choose(DECISIONS[state.phase][tables[seat, row, state.pending_roll or 0]])

    return decide


def python_decider(policy: PolicyLike, ruleset: Ruleset, players: int) -> Decide:
    """How the pure engine decides for `policy`: an analysis policy by name, or the function."""
    from robinson.analysis.policy import POLICIES, make_policy

    if not isinstance(policy, str):
        return policy
    if policy in POLICIES:
        return make_policy(policy, ruleset, players).decide
    raise PolicyError(
        f"unknown policy {policy!r}: expected one of {', '.join(POLICIES)} or a bot's decisions"
    )
