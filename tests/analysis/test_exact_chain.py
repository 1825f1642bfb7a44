"""The exact chain against the engine: every solved value must satisfy the Bellman equation
computed by playing one turn with the real engine (`apply` on every face and option), from every
abstract state of 2 players and a sample of 3-player states. This checks the turn trees, the
ship swap, deaths, skipped turns and the seat rotation of the numba kernel at once."""

from __future__ import annotations

import random
from pathlib import Path

import numpy as np
import pytest

from robinson.analysis.exact import codes, store
from robinson.analysis.exact.game import GameSolution, solve_game
from robinson.analysis.exact.levels import reachable_codes
from robinson.analysis.exact.optimal import OptimalPolicy
from robinson.analysis.policy import EAGER_OPTION
from robinson.engine import Choose, Phase, Player, Roll, Ruleset, State, apply
from robinson.engine.events import TurnBegan


@pytest.fixture(autouse=True)
def _cache_in_tmp(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The optimal policy's disk cache (exact/store.py) goes to a fresh directory."""
    monkeypatch.setenv(store.CACHE_ENV, str(tmp_path))


def _engine_state(ruleset: Ruleset, cs: tuple[int, ...]) -> State:
    players = tuple(
        Player(
            position=codes.SQUARE_OF_CODE[c],
            purse=10,
            skips=int(codes.has_skip(c)),
            shipwrecked=codes.SQUARE_OF_CODE[c] == 4,
        )
        for c in cs
    )
    return State(ruleset, players, 20, 0, Phase.ROLL)


def _value_by_seat(game: GameSolution, state: State) -> np.ndarray:
    """The solved win chances of every seat in an engine state at the start of a turn."""
    n = len(state.players)
    out = np.zeros(n)
    if state.over:
        if state.winner is not None:
            out[state.winner] = 1.0
        return out
    assert state.to_move is not None
    seats = [(state.to_move + k) % n for k in range(n)]
    living = [s for s in seats if state.players[s].alive]
    index = 0
    for s in living:  # the mover is the most significant digit
        index = index * codes.K + codes.code(state.players[s].position, state.players[s].skips)
    values = game.chains[len(living) - 1].values[index]
    for k, s in enumerate(living):
        out[s] = values[k]
    return out


def _one_turn(game: GameSolution, state: State, policy: OptimalPolicy | None) -> np.ndarray:
    """Expected seat values after the mover's turn, expanding it with the engine."""
    total = np.zeros(len(state.players))
    for face in range(1, 7):
        after, events = apply(state, Roll(face))
        total += _follow(game, after, events, policy) / 6
    return total


def _follow(game: GameSolution, state: State, events: tuple, policy: OptimalPolicy | None):
    if state.over or any(isinstance(e, TurnBegan) for e in events):
        return _value_by_seat(game, state)
    if state.phase is Phase.ROLL:
        return _one_turn(game, state, policy)
    choice = policy.decide(state) if policy else Choose(EAGER_OPTION[state.phase])
    after, more = apply(state, choice)
    return _follow(game, after, more, policy)


def _check_states(game: GameSolution, states: list[tuple[int, ...]]) -> None:
    policy = OptimalPolicy(game.ruleset, game.players) if game.policy == "optimal" else None
    chain = game.chains[game.players - 1]
    worst = 0.0
    for cs in states:
        if codes.has_skip(cs[0]):
            continue  # the engine never has a mover with a pending skip: see below
        index = 0
        for c in cs:
            index = index * codes.K + c
        expected = _one_turn(game, _engine_state(game.ruleset, cs), policy)
        worst = max(worst, float(np.abs(chain.values[index] - expected).max()))
    assert worst < 1e-10


@pytest.mark.parametrize("edition", ["standard", "lv", "classic"])
@pytest.mark.parametrize("policy", ["eager", "optimal"])
def test_two_player_values_match_the_engine_everywhere(edition: str, policy: str) -> None:
    game = solve_game(Ruleset(edition), 2, policy)
    ok = np.flatnonzero(reachable_codes(game.trees))
    _check_states(game, [(int(a), int(b)) for a in ok for b in ok])


def test_three_player_values_match_the_engine_on_a_sample() -> None:
    game = solve_game(Ruleset("standard"), 3, "eager")
    ok = [int(c) for c in np.flatnonzero(reachable_codes(game.trees))]
    rng = random.Random(7)
    sample = [tuple(rng.choice(ok) for _ in range(3)) for _ in range(300)]
    # Make sure the ship swap is exercised: the mover near 36 and others on 41.
    sample += [(c, 41, 41) for c in range(30, 36)] + [(33, 41, 12), (34, 45, 41)]
    _check_states(game, sample)


def test_a_skipped_turn_passes_the_move_unchanged() -> None:
    game = solve_game(Ruleset("standard"), 2, "eager")
    values = game.chains[1].values
    for other in (0, 17, 41):
        skip = codes.SKIP12 * codes.K + other  # mover on 12 with a skip pending
        rotated = other * codes.K + 12
        assert values[skip] == pytest.approx(values[rotated][::-1], abs=1e-12)


def test_every_solve_converged_and_probabilities_are_sane() -> None:
    game = solve_game(Ruleset("standard"), 3, "optimal")
    assert game.converged
    for chain in game.chains:
        assert np.all(chain.values >= -1e-12)
        assert np.all(chain.values.sum(axis=1) <= 1 + 1e-12)
