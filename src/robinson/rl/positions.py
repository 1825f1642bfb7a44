"""What a policy of `robinson.rl.score` is asked and how its answer is read: the pawn position
at a decision, the opponents a policy is scored against, and an answer (an option, a `Choose`
or the two options' probabilities) as the share of the eager option. Shared by the exact score
(scoring.py) and the tokens objective (tokens.py)."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from robinson.engine import (
    DECISION_OF,
    DECISIONS,
    GALLOWS,
    Choose,
    Phase,
    Player,
    RobinsonError,
    Ruleset,
    State,
)

OPPONENTS = ("eager", "optimal", "random")


@dataclass(frozen=True, slots=True)
class PawnPosition:
    """What a policy sees at a decision: the pawns only."""

    decision: str  # "shipwreck" (square 4), "tree" (7), "bread" (20) or "canoe" (23)
    roll: int | None  # the roll in view (shipwreck and tree), else None
    square: int  # the mover's square
    # (square, pending skips) of each other living player, in turn order after the mover.
    others: tuple[tuple[int, int], ...]

    @property
    def options(self) -> tuple[str, str]:
        """The two options, in the engine's order (`DECISIONS`)."""
        return DECISIONS[Phase(self.decision)]

    @classmethod
    def of(cls, state: State) -> PawnPosition:
        """The pawn position of an engine state waiting for a decision."""
        if state.phase not in DECISIONS or state.to_move is None:
            raise RobinsonError(
                f"a pawn position is taken at a decision, got phase {state.phase.value!r}"
            )
        n, mover = len(state.players), state.to_move
        after = [state.players[(mover + k) % n] for k in range(1, n)]
        return cls(
            decision=state.phase.value,
            roll=state.pending_roll,
            square=state.players[mover].position,
            others=tuple((p.position, p.skips) for p in after if p.alive),
        )

    def to_state(self, players: int, ruleset: Ruleset) -> State:
        """An engine state with these pawns: the mover in seat 0, the other living pawns in
        seats 1.. in turn order, the dead (players - 1 - len(others) of them) after them on the
        gallows; purses and the bank as at the start, no Fridays."""
        dead = players - 1 - len(self.others)
        if dead < 0:
            raise RobinsonError(f"{len(self.others) + 1} living pawns do not fit {players} seats")
        purse = ruleset.start_tokens - ruleset.stake
        wreck = ruleset.board.square_of(DECISION_OF[Phase.SHIPWRECK].effect)  # the mark's square
        seats = [Player(self.square, purse, shipwrecked=self.decision == "shipwreck")]
        seats += [Player(sq, purse, skips=sk, shipwrecked=sq == wreck) for sq, sk in self.others]
        seats += [Player(GALLOWS, purse, alive=False)] * dead
        phase = Phase(self.decision)
        return State(ruleset, tuple(seats), players * ruleset.stake, 0, phase, self.roll)


def _eager_share(answer: Any, phase: Phase, position: PawnPosition) -> float:
    eager, other = DECISION_OF[phase].forward, DECISION_OF[phase].other
    if isinstance(answer, Choose):
        answer = answer.option
    if isinstance(answer, str):
        if answer not in (eager, other):
            raise RobinsonError(
                f"the policy answered {answer!r} at {position}: expected {eager!r} or {other!r}"
            )
        return 1.0 if answer == eager else 0.0
    if isinstance(answer, Mapping):
        unknown = set(answer) - {eager, other}
        shares = [answer.get(eager, 0.0), answer.get(other, 0.0)]
        if (
            unknown
            or not all(isinstance(x, int | float) and 0 <= x <= 1 for x in shares)
            or abs(sum(shares) - 1) > 1e-9
        ):
            raise RobinsonError(
                f"the policy answered {answer!r} at {position}: expected probabilities of "
                f"{eager!r} and {other!r} summing to 1"
            )
        return float(shares[0])
    raise RobinsonError(
        f"the policy answered {answer!r} at {position}: expected an option "
        f"({eager!r} or {other!r}) or a mapping of them to probabilities"
    )
