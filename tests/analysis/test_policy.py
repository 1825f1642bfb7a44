"""The shared policy API: names, construction, and what eager decides at every decision."""

from __future__ import annotations

import pytest

from robinson.analysis.policy import (
    DECISION_KINDS,
    EAGER_OPTION,
    OTHER_OPTION,
    POLICIES,
    make_policy,
)
from robinson.engine import (
    DECISIONS,
    Choose,
    Phase,
    RobinsonError,
    Roll,
    Ruleset,
    apply,
    from_text,
    legal_actions,
    new_game,
)


def test_policy_names_are_listed() -> None:
    assert "eager" in POLICIES
    assert "optimal" in POLICIES


def test_unknown_policy_names_the_known_ones() -> None:
    with pytest.raises(RobinsonError, match="expected one of eager, optimal"):
        make_policy("greedy", Ruleset(), 2)


def test_eager_and_other_option_split_each_decision() -> None:
    assert set(DECISION_KINDS) == set(DECISIONS)
    for phase, options in DECISIONS.items():
        assert {EAGER_OPTION[phase], OTHER_OPTION[phase]} == set(options)


@pytest.mark.parametrize(
    ("position", "expected"),
    [
        ("standard,30,10,half 20 0w3 4/10/m 0/10", "move"),  # square 4: never restart
        ("standard,30,10,half 20 0t2 7/10 0/10", "move"),  # square 7: never stay
        ("standard,30,10,half 20 0b 20/10 0/10", "again"),  # square 20: always again
        ("standard,30,10,half 20 0c 23/10 0/10", "jump"),  # square 23: always jump
    ],
)
def test_eager_decides_forward(position: str, expected: str) -> None:
    state = from_text(position)
    choice = make_policy("eager", state.ruleset, 2).decide(state)
    assert choice == Choose(expected)
    assert choice in legal_actions(state)


def test_eager_refuses_to_decide_a_roll() -> None:
    state = new_game(2, Ruleset())
    with pytest.raises(RobinsonError, match="decides only at a decision"):
        make_policy("eager").decide(state)


def test_eager_decision_reached_through_play_is_legal() -> None:
    state = new_game(2, Ruleset("standard"))
    state, _ = apply(state, Roll(4))  # seat 0 lands on the shipwreck
    state, _ = apply(state, Roll(1))
    state, _ = apply(state, Roll(5))  # seat 0 sees a 5 on the shipwreck
    assert state.phase is Phase.SHIPWRECK
    choice = make_policy("eager").decide(state)
    after, _ = apply(state, choice)
    assert after.players[0].position == 9
