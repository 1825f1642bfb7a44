"""The exact expected length (`robinson.analysis.length`): alone it is the one-player chain's,
for 2 to 4 players it agrees with the simulator, and the occupation measure sums to it; from a
position (`turns_from`) it agrees with the simulator's games played on from there."""

from __future__ import annotations

import random

import numpy as np
import pytest

from robinson.analysis.exact import codes
from robinson.analysis.exact.game import solve_game
from robinson.analysis.exact.single import turn_matrices
from robinson.analysis.length import eager_length, expected_turns, turns_from
from robinson.analysis.sim import Setup, simulate
from robinson.engine import DECISION_OF, Choose, Phase, Roll, Ruleset, State, apply, new_game


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


def _eager_game(edition: str, players: int, seed: int, actions: int) -> State:
    """The position after `actions` actions of an eager engine game on seeded dice."""
    rng = random.Random(seed)
    state = new_game(players, Ruleset(edition))
    for _ in range(actions):
        if state.over:
            break
        if state.phase is Phase.ROLL:
            state = apply(state, Roll(rng.randint(1, 6)))[0]
        else:
            state = apply(state, Choose(DECISION_OF[state.phase].forward))[0]
    return state


@pytest.mark.parametrize(
    ("edition", "players", "seed", "actions", "living"),
    [("standard", 2, 3, 25, 2), ("lv", 3, 4, 30, 3), ("standard", 4, 1, 60, 3)],
)
def test_from_a_position_it_agrees_with_the_games_played_on_from_there(
    edition: str, players: int, seed: int, actions: int, living: int
) -> None:
    """Every seat's turns still to come, the turn under way counting as one, as the simulator
    counts them from the same position (the last case: one of four seats has died)."""
    state = _eager_game(edition, players, seed, actions)
    while not state.over and state.phase is not Phase.ROLL:  # a roll: where the chain holds it
        state = apply(state, Choose(DECISION_OF[state.phase].forward))[0]
    assert not state.over and len(state.living) == living
    exact = turns_from(state)
    assert exact is not None
    played = simulate(Setup(state.ruleset, players, seed=5, position=state), 200_000,
                      progress=False)  # fmt: skip
    low, high = played.summary.to_json()["turns"]["mean"]["ci95"]
    half = (high - low) / 2
    assert low - half <= exact <= high + half  # a 99.99% interval, about


def test_from_the_opening_it_is_the_expected_length_and_from_the_end_nothing() -> None:
    opening = new_game(3, Ruleset("standard"))
    assert turns_from(opening) == expected_turns(Ruleset("standard"), 3)
    over = _eager_game("standard", 2, 1, 10_000)
    assert over.over and turns_from(over) == 0.0


def test_from_where_the_chain_has_no_state_it_says_none() -> None:
    """A decision pending (the turn under way would count twice), five living players."""
    state = _eager_game("standard", 3, 7, 0)
    rng = random.Random(7)
    while state.phase is Phase.ROLL:
        state = apply(state, Roll(rng.randint(1, 6)))[0]
    assert state.phase in DECISION_OF and turns_from(state) is None
    assert turns_from(new_game(5, Ruleset("standard"))) is None
