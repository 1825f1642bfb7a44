"""Set-up (RULES.md 1), turn order and neighbours (2), a turn (3), errors."""

from __future__ import annotations

import pytest

from robinson.engine import (
    BadRuleset,
    Choose,
    IllegalAction,
    MalformedInput,
    Phase,
    Roll,
    Ruleset,
    apply,
    chance_outcomes,
    find_edition,
    legal_actions,
    new_game,
    to_text,
)
from tests.engine.helpers import kinds, play, text_after


def test_setup_stakes_purses_and_first_seat() -> None:
    state = new_game(3, Ruleset("standard"), first=2)
    assert to_text(state) == "standard,30,10,half 30 2r 0/20 0/20 0/20"


def test_setup_with_options() -> None:
    state = new_game(2, Ruleset("classic", start_tokens=12, stake=0, share="third"))
    assert to_text(state) == "classic,12,0,third 0 0r 0/12 0/12"


@pytest.mark.parametrize("n", [0, 1, 9])
def test_player_count_outside_two_to_eight_is_refused(n: int) -> None:
    with pytest.raises(BadRuleset, match="2 to 8 players"):
        new_game(n)


def test_first_seat_must_exist() -> None:
    with pytest.raises(BadRuleset, match="first must be a seat from 0 to 2"):
        new_game(3, first=3)


def test_unknown_edition_lists_the_known_ones() -> None:
    with pytest.raises(BadRuleset, match="standard, lv, cs, ca, classic"):
        find_edition("dutch")
    with pytest.raises(BadRuleset, match="unknown edition"):
        Ruleset("dutch")


@pytest.mark.parametrize(
    ("options", "message"),
    [
        ({"stake": 31}, "stake must be between 0 and start_tokens"),
        ({"stake": -1}, "stake must be between 0 and start_tokens"),
        ({"start_tokens": -5, "stake": 0}, "start_tokens must be 0 or more"),
        ({"share": "quarter"}, "share must be 'half' or 'third'"),
        ({"stake": "10"}, "stake must be a whole number"),
    ],
)
def test_bad_options_are_refused(options: dict[str, object], message: str) -> None:
    with pytest.raises(BadRuleset, match=message):
        Ruleset("standard", **options)  # type: ignore[arg-type]


def test_ruleset_from_json_defaults_and_unknown_fields() -> None:
    assert Ruleset.from_json({"edition": "lv"}) == Ruleset("lv", 30, 10, "half")
    with pytest.raises(BadRuleset, match="unknown ruleset field"):
        Ruleset.from_json({"edition": "lv", "stakes": 3})
    with pytest.raises(BadRuleset, match="needs an 'edition'"):
        Ruleset.from_json({})


def test_the_die_is_a_chance_node_with_six_equal_faces() -> None:
    state = new_game(2)
    outcomes = chance_outcomes(state)
    assert [a.face for a, _ in outcomes] == [1, 2, 3, 4, 5, 6]
    assert sum(p for _, p in outcomes) == pytest.approx(1.0)
    assert legal_actions(state) == tuple(a for a, _ in outcomes)


def test_first_roll_moves_from_zero_to_the_face() -> None:
    assert text_after("standard,30,10,half 20 0r 0/20 0/20", 5) == (
        "standard,30,10,half 20 1r 5/20 0/20"
    )


def test_play_passes_clockwise_skipping_the_dead() -> None:
    # Seat 1 is dead: after seat 0 comes seat 2, and after seat 2 comes seat 0.
    assert text_after("standard,30,10,half 30 0r 2/20 42/20/x 2/20", 3) == (
        "standard,30,10,half 30 2r 5/20 42/20/x 2/20"
    )
    assert text_after("standard,30,10,half 30 2r 2/20 42/20/x 2/20", 3) == (
        "standard,30,10,half 30 0r 2/20 42/20/x 5/20"
    )


def test_a_pending_skip_is_used_up_instead_of_a_roll() -> None:
    state, events = play("standard,30,10,half 20 0r 2/20 12/20/s1", 3)
    assert to_text(state) == "standard,30,10,half 20 0r 5/20 12/20"
    assert kinds(events) == ["rolled", "moved", "skipped", "turn_began"]


def test_a_lone_survivor_keeps_rolling() -> None:
    assert text_after("standard,30,10,half 20 1r 42/20/x 2/20", 3) == (
        "standard,30,10,half 20 1r 42/20/x 5/20"
    )


def test_a_roll_while_a_choice_is_pending_is_illegal_and_names_the_choice() -> None:
    with pytest.raises(IllegalAction, match=r"expected a choice of 'stay' or 'move'.*roll of 3"):
        play("standard,30,10,half 20 0t3 7/20 0/20", 5)


def test_a_choice_that_is_not_offered_is_illegal() -> None:
    with pytest.raises(IllegalAction, match=r"choose jump is not allowed now"):
        play("standard,30,10,half 20 0t3 7/20 0/20", "jump")
    with pytest.raises(IllegalAction, match=r"expected a roll \(1 to 6\) for seat 0"):
        play("standard,30,10,half 20 0r 7/20 0/20", "stay")


def test_nothing_is_accepted_after_the_end() -> None:
    state, _ = play("standard,30,10,half 20 0r 40/20 0/20", 5)
    assert state.over
    assert legal_actions(state) == ()
    with pytest.raises(IllegalAction, match="the game is over"):
        apply(state, Roll(1))


@pytest.mark.parametrize("face", [0, 7, -1, "3", 2.0, None])
def test_a_roll_outside_one_to_six_is_malformed(face: object) -> None:
    with pytest.raises(MalformedInput, match="a roll is a whole number from 1 to 6"):
        Roll(face)  # type: ignore[arg-type]


def test_an_unknown_option_is_malformed() -> None:
    with pytest.raises(MalformedInput, match="a choice is one of restart, move"):
        Choose("maybe")


def test_a_refused_action_leaves_the_state_as_it_was() -> None:
    state = new_game(2)
    before = to_text(state)
    with pytest.raises(IllegalAction):
        apply(state, Choose("stay"))
    assert to_text(state) == before
    assert state.phase is Phase.ROLL
