"""The decisions table and the board as data: the engine reads both, and an edition's own board
changes the game without a line of rules code."""

from __future__ import annotations

from dataclasses import replace

import pytest

from robinson.engine import (
    DECISION_OF,
    DECISION_TABLE,
    DECISIONS,
    EDITIONS,
    OPTIONS,
    SQUARES,
    STANDARD_BOARD,
    BadRuleset,
    Board,
    Choices,
    Choose,
    Chose,
    Edition,
    Effect,
    Fever,
    Moved,
    Phase,
    Roll,
    Ruleset,
    Square,
    apply,
    legal_actions,
    new_game,
)


def test_each_decision_phase_has_one_row_and_its_forward_option_is_one_of_its_two() -> None:
    assert len({d.phase for d in DECISION_TABLE}) == len(DECISION_TABLE)
    for d in DECISION_TABLE:
        assert d.forward in d.options and d.other in d.options and d.other != d.forward
        assert STANDARD_BOARD[d.square].effect is d.effect  # the row's square offers it


def test_the_option_lists_are_views_of_the_table() -> None:
    assert {phase: d.options for phase, d in DECISION_OF.items()} == DECISIONS
    assert tuple(dict.fromkeys(o for d in DECISION_TABLE for o in d.options)) == OPTIONS
    for d in DECISION_TABLE:
        state = new_game(2).with_player(0, position=d.square)
        state = replace(state, phase=d.phase, pending_roll=3 if d.roll_in_view else None)
        assert legal_actions(state) == tuple(Choose(o) for o in d.options)


def _moved_board() -> Board:
    """The standard board with the tree on 9 (7 a story square) and the canoe going to 30."""
    squares = list(SQUARES)
    squares[7] = Square(7, Effect.STORY)
    squares[9] = Square(9, Effect.TREE)
    squares[23] = replace(squares[23], target=30)
    return Board(tuple(squares))


@pytest.fixture
def moved(monkeypatch: pytest.MonkeyPatch) -> Ruleset:
    edition = Edition("moved", Fever.SKIP_TURN, Choices.OPTIONAL, "a test board", _moved_board())
    monkeypatch.setitem(EDITIONS, "moved", edition)
    return Ruleset("moved")


def test_an_editions_tree_on_square_9_offers_stay_or_move_there(moved: Ruleset) -> None:
    state = new_game(2, moved).with_player(0, position=9)
    state, _ = apply(state, Roll(2))
    assert state.phase is Phase.TREE
    state, events = apply(state, Choose("stay"))
    assert Chose(0, "stay", 9) in events and state.players[0].position == 9
    # and square 7 of that board is a story square: a pawn there just moves on
    state = new_game(2, moved).with_player(0, position=7)
    state, _ = apply(state, Roll(2))
    assert state.players[0].position == 9 and state.phase is Phase.ROLL


def test_an_editions_canoe_on_23_jumps_to_its_own_target(moved: Ruleset) -> None:
    state = new_game(2, moved).with_player(0, position=20)
    state, _ = apply(state, Roll(3))
    assert state.phase is Phase.CANOE
    state, events = apply(state, Choose("jump"))
    assert Moved(0, 23, 30, "canoe") in events and state.players[0].position == 30


@pytest.mark.parametrize(
    ("squares", "message"),
    [
        (SQUARES[:-1], "squares 0..45"),
        ((*SQUARES[:23], Square(23, Effect.CANOE), *SQUARES[24:]), "needs a target"),
        ((*SQUARES[:45], Square(45, Effect.STORY)), "must be home"),
    ],
)
def test_a_board_of_the_wrong_shape_is_refused(squares: tuple[Square, ...], message: str) -> None:
    with pytest.raises(BadRuleset, match=message):
        Board(tuple(squares))
