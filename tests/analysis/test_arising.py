"""How often each decision arises and the value of each choice weighted by it (exact): the
occupation measure sums to the expected length, bread arises exactly as often as pawns land on
20, and one seat's whole-game cost of a choice is what the paired simulation measures."""

from __future__ import annotations

import numpy as np
import pytest

from robinson.analysis.arising import arising
from robinson.analysis.length import expected_turns, visits
from robinson.analysis.report.data import choice_values
from robinson.analysis.sim import Setup, simulate
from robinson.engine import Ruleset


@pytest.mark.parametrize("players", [2, 3])
def test_the_visits_sum_to_the_expected_length(players: int) -> None:
    rs = Ruleset("standard")
    assert float(visits(rs, players).sum()) == pytest.approx(expected_turns(rs, players), rel=1e-11)


def test_bread_arises_as_often_as_pawns_land_on_20() -> None:
    """Every landing on 20 with an opponent alive is a bread decision; alone there are few."""
    rows = {(a.square, a.roll): a for a in arising(Ruleset("standard"), 2)}
    sim = simulate(Setup(Ruleset("standard"), 2, seed=4), 300_000, progress=False).summary
    landed = sim.to_json()["landings_per_game"][20]
    assert rows[(20, None)].per_game == pytest.approx(landed, rel=0.02)
    assert rows[(20, None)].per_game < landed  # minus the landings of a lone survivor


def test_a_choices_weighted_value_times_its_frequency_is_its_whole_game_cost() -> None:
    """Seat 0 of 2 staying on the tree after a 1 every time (the report's paired games) costs
    about his share of the arisings times the weighted value."""
    exact = {(a.square, a.roll): a for a in arising(Ruleset("standard"), 2)}[(7, 1)]
    games = 400_000
    measured = next(
        c for c in choice_values(Setup(Ruleset("standard"), 2, seed=0), games)
        if (c.square, c.face) == (7, 1)
    )  # fmt: skip
    predicted = exact.per_game / 2 * exact.gain  # seat 0 meets about half of them
    half = (measured.gain.high - measured.gain.low) / 2
    assert abs(measured.gain.value - predicted) < 2 * half + 0.1 * abs(predicted)
    assert np.sign(predicted) == -1
