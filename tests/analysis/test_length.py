"""The exact expected length (`robinson.analysis.length`): alone it is the one-player chain's,
and for 2 and 3 players it agrees with the simulator."""

from __future__ import annotations

import numpy as np
import pytest

from robinson.analysis.exact.game import solve_game
from robinson.analysis.exact.single import turn_matrices
from robinson.analysis.length import expected_turns
from robinson.analysis.sim import Setup, simulate
from robinson.engine import Ruleset


@pytest.mark.parametrize("edition", ["standard", "lv", "classic"])
def test_alone_it_is_the_one_player_chains_expected_turns(edition: str) -> None:
    q, _, _, _ = turn_matrices(solve_game(Ruleset(edition), 1, "eager"))
    alone = float(np.linalg.solve(np.eye(len(q)) - q, np.ones(len(q)))[0])
    assert expected_turns(Ruleset(edition), 1) == pytest.approx(alone, rel=1e-11)


@pytest.mark.parametrize(("edition", "players"), [("standard", 2), ("lv", 2), ("classic", 3)])
def test_two_and_three_players_agree_with_the_simulator(edition: str, players: int) -> None:
    exact = expected_turns(Ruleset(edition), players)
    mean = simulate(Setup(Ruleset(edition), players, seed=9), 200_000, progress=False)
    low, high = mean.summary.to_json()["turns"]["mean"]["ci95"]
    half = (high - low) / 2
    assert low - half <= exact <= high + half  # a 99.99% interval, about


def test_more_players_are_refused() -> None:
    with pytest.raises(ValueError, match="1 to 3 players"):
        expected_turns(Ruleset("standard"), 4)
