"""The engine's decision table as the analysis reads it: the decisions in table order, and the
forward ("eager") and other option of each. Derived, never written out: the engine's
`DECISION_TABLE` is the one home of these facts. A leaf module, so that the policies and the
exact solver both read it without importing each other."""

from __future__ import annotations

from robinson.engine import DECISION_OF, DECISION_TABLE, Phase, RobinsonError, State

# Decision phases in the order of a decision table's first axis (the engine's table order).
DECISION_KINDS: tuple[Phase, ...] = tuple(d.phase for d in DECISION_TABLE)
# The square each decision belongs to (on the standard board).
DECISION_SQUARES: dict[Phase, int] = {d.phase: d.square for d in DECISION_TABLE}
# Always forward.
EAGER_OPTION: dict[Phase, str] = {d.phase: d.forward for d in DECISION_TABLE}
# The option that is not the eager one.
OTHER_OPTION: dict[Phase, str] = {d.phase: d.other for d in DECISION_TABLE}


def check_decision(state: State) -> Phase:
    """The decision phase pending in `state`, or `RobinsonError` if none is."""
    if state.phase not in DECISION_OF:
        raise RobinsonError(
            f"a policy decides only at a decision ({', '.join(p.value for p in DECISION_OF)}), "
            f"got phase {state.phase.value!r}"
        )
    return state.phase
