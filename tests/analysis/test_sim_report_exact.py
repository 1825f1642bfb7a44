"""The report's exact value of each choice (2 players) agrees with `robinson analyze`."""

from __future__ import annotations

import numpy as np
import pytest

from robinson.analysis.exact.game import solve_game
from robinson.analysis.exact.summary import choices
from robinson.analysis.report.exact import (
    editions_without_choices,
    exact_choices,
    exact_p_win,
    placing_label,
)
from robinson.engine import Ruleset


def test_editions_with_the_same_rules_share_one_game_and_classic_has_no_choices() -> None:
    groups = exact_choices()
    assert [g.editions for g in groups] == [("standard", "ca"), ("lv", "cs")]
    assert editions_without_choices() == ["classic"]
    for g in groups:
        assert len(g.rows) == 6 + 6 + 1 + 1  # 4 and 7 by roll, then 20 and 23
        assert g.placings[0] == 0 and list(g.placings) == sorted(set(g.placings))
        for row in g.rows:
            assert row.eager.shape == row.other.shape == (len(g.placings),)
            assert ((row.eager >= 0) & (row.eager <= 1)).all()
            assert ((row.other >= 0) & (row.other <= 1)).all()


@pytest.mark.parametrize("group", [0, 1])
def test_exact_values_are_the_analysis_values(group: int) -> None:
    """Plain means over the other pawn's squares are what `robinson analyze` reports."""
    g = exact_choices()[group]
    expected = choices(solve_game(Ruleset(g.editions[0]), 2, "eager"), 2)
    assert len(expected) == len(g.rows)
    for row, want in zip(g.rows, expected, strict=True):
        assert (row.square, row.face) == (want["square"], want["roll"])
        assert row.eager.mean() == pytest.approx(want["p_win"][row.eager_option], abs=1e-12)
        assert row.other.mean() == pytest.approx(want["p_win"][row.other_option], abs=1e-12)
        assert np.array_equal(row.gain, row.other - row.eager)


def test_the_eager_option_is_never_worse_for_two_players() -> None:
    """What the exact solve says (the optimal policy is eager for 2 players); the report's
    colour scale and table must show it: no square where the other option wins more."""
    for g in exact_choices():
        for row in g.rows:
            assert (row.gain <= 1e-12).all(), (g.editions, row.square, row.face)
            assert (row.gain < 0).any()


def test_placing_labels() -> None:
    assert [placing_label(c) for c in (0, 44, 45, 46)] == ["0", "44", "12 (skip)", "7 (skip)"]


def test_exact_two_player_win_chances_are_the_analysis_ones() -> None:
    p = exact_p_win("standard")
    assert p == solve_game(Ruleset("standard"), 2, "eager").p_win()
    assert p[0] > 0.5 > p[1] and sum(p) <= 1.0
