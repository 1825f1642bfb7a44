"""Policies for the simulators: who decides at squares 4, 7, 20 and 23.

The compiled simulator takes a decision table per seat (see `kernel.py`): `table[seat, decision,
face]`, the index of the option taken in `DECISIONS` order. A *local* policy decides from its own
square and the roll in view only, so one 4 x 7 table captures it; `eager` and the `heuristic` bot
are local, and their tables are read off the bots themselves by asking them every decision once.
`optimal` (`robinson.analysis.policy`) decides from the other pawns too and comes as its joint
table. The pure-engine runner asks the policy (or any bot) directly.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import numpy as np
import numpy.typing as npt

from robinson.bots import BOT_NAMES, make_bot
from robinson.engine import (
    DECISIONS,
    FACES,
    Choose,
    Phase,
    Player,
    RobinsonError,
    Ruleset,
    State,
)

Decide = Callable[[State], Choose]

# Decision rows of a table, in kernel order, with the square each is taken on.
DECISION_ROWS = (Phase.SHIPWRECK, Phase.TREE, Phase.BREAD, Phase.CANOE)
_SQUARE = {Phase.SHIPWRECK: 4, Phase.TREE: 7, Phase.BREAD: 20, Phase.CANOE: 23}
_WITH_FACE = (Phase.SHIPWRECK, Phase.TREE)
LOCAL_POLICIES = ("eager", "heuristic")
FAST_POLICIES = (*LOCAL_POLICIES, "optimal")


class PolicyError(ValueError):
    """A policy name the chosen simulator cannot play."""


def _probe_state(ruleset: Ruleset, phase: Phase, face: int | None) -> State:
    """Seat 0 facing `phase` on its square with `face` in view, seat 1 at the start."""
    me = Player(position=_SQUARE[phase], purse=ruleset.start_tokens - ruleset.stake)
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


def fast_tables(name: str, ruleset: Ruleset, players: int) -> npt.NDArray[np.int8]:
    """The per-seat tables (players x 4 x 7) of a local policy."""
    if name not in LOCAL_POLICIES:
        raise PolicyError(
            f"the fast simulator plays the policies {', '.join(FAST_POLICIES)}; "
            f"got {name!r}: use --engine python for other policies"
        )
    table = table_of(make_bot(name).choose, ruleset)
    return np.ascontiguousarray(np.broadcast_to(table, (players, *table.shape)))


def fast_policy(name: str, ruleset: Ruleset, players: int) -> FastPolicy:
    """The policy `name` in the compiled simulator's form; `optimal` is solved exactly first
    (`robinson.analysis.policy`; 1 to 4 players)."""
    if name != "optimal":
        return FastPolicy(fast_tables(name, ruleset, players))
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


def python_decider(name: str, ruleset: Ruleset, players: int) -> Decide:
    """How the pure engine decides for `name`: the analysis policies first, then the bots."""
    from robinson.analysis.policy import POLICIES, make_policy

    if name in POLICIES:
        return make_policy(name, ruleset, players).decide
    try:
        return make_bot(name).choose
    except RobinsonError:
        raise PolicyError(
            f"unknown policy {name!r}: expected a policy or a bot ({', '.join(BOT_NAMES)})"
        ) from None
