"""The exact expected length (`robinson.analysis.length`): alone it is the one-player chain's,
for 2 to 4 players it agrees with the simulator, and the occupation measure sums to it."""

from __future__ import annotations

import numpy as np
import pytest

from robinson.analysis.exact import codes
from robinson.analysis.exact.game import solve_game
from robinson.analysis.exact.single import turn_matrices
from robinson.analysis.length import eager_length, expected_turns
from robinson.analysis.sim import Setup, simulate
from robinson.engine import Ruleset


@pytest.mark.parametrize("edition", ["standard", "lv", "classic"])
def test_alone_it_is_the_one_player_chains_expected_turns(edition: str) -> None:
    q, _, _, _ = turn_matrices(solve_game(Ruleset(edition), 1, "eager"))
    alone = float(np.linalg.solve(np.eye(len(q)) - q, np.ones(len(q)))[0])
    assert expected_turns(Ruleset(edition), 1) == pytest.approx(alone, rel=1e-11)


@pytest.mark.parametrize(
    ("edition", "players"), [("standard", 2), ("lv", 2), ("classic", 3), ("standard", 4)]
)
def test_two_to_four_players_agree_with_the_simulator(edition: str, players: int) -> None:
    exact = expected_turns(Ruleset(edition), players)
    mean = simulate(Setup(Ruleset(edition), players, seed=9), 200_000, progress=False)
    low, high = mean.summary.to_json()["turns"]["mean"]["ci95"]
    half = (high - low) / 2
    assert low - half <= exact <= high + half  # a 99.99% interval, about


@pytest.mark.parametrize(("edition", "players"), [("standard", 3), ("lv", 3), ("standard", 4)])
def test_the_visits_of_every_state_sum_to_the_expected_length(edition: str, players: int) -> None:
    """Two solves, one backward (t = 1 + Q t) and one forward (x = e0 + Q^T x), in opposite
    orders: every turn begun is one visit of a state, so they must agree."""
    found = eager_length(Ruleset(edition), players)
    assert [len(x) for x in found.visits] == [codes.K**m for m in range(1, players + 1)]
    assert min(float(x.min()) for x in found.visits) >= 0.0
    assert found.total_visits == pytest.approx(found.turns, rel=1e-12)
    assert found.visits[players - 1][0] == pytest.approx(1.0, abs=1e-15)  # the opening, once


def test_more_players_are_refused() -> None:
    with pytest.raises(ValueError, match="1 to 4 players"):
        expected_turns(Ruleset("standard"), 5)
