"""The exact figures agree with games played by the pure engine (seeded dice), within a
confidence interval: P(win) per seat for 2 and 3 players, and a player alone's death rate and
mean length. Bounded to a few seconds of play."""

from __future__ import annotations

import math
import random

from robinson.analysis.exact.game import solve_game
from robinson.analysis.exact.single import single_figures
from robinson.analysis.policy import make_policy
from robinson.engine import Phase, Player, Roll, Ruleset, State, apply, new_game
from robinson.engine.events import Skipped, TurnBegan

Z = 4.0  # a wide interval: the test must not be flaky, and exact errors are far larger


def _play(state: State, rng: random.Random, players: int) -> tuple[State, int]:
    """Play to the end with eager decisions; return the final state and seat 0's turns."""
    policy = make_policy("eager", state.ruleset, players)
    turns = 1
    while not state.over:
        if state.phase is Phase.ROLL:
            state, events = apply(state, Roll(rng.randint(1, 6)))
        else:
            state, events = apply(state, policy.decide(state))
        turns += sum(1 for e in events if isinstance(e, TurnBegan | Skipped) and e.seat == 0)
    return state, turns


def _within(p: float, hits: int, n: int) -> bool:
    half = Z * math.sqrt(max(p * (1 - p), 1e-4) / n)
    return abs(hits / n - p) <= half


def test_two_and_three_player_win_chances_match_play() -> None:
    rng = random.Random(2024)
    for players, games in ((2, 1500), (3, 1000)):
        exact = solve_game(Ruleset("standard"), players, "eager").p_win()
        wins = [0] * (players + 1)
        for _ in range(games):
            final, _ = _play(new_game(players, Ruleset("standard")), rng, players)
            wins[final.winner if final.winner is not None else players] += 1
        for seat in range(players):
            assert _within(exact[seat], wins[seat], games), (players, seat, exact, wins)
        assert _within(1 - sum(exact), wins[players], games)


def test_a_player_alone_matches_play() -> None:
    # A two-seat game whose other seat is dead is exactly one player alone.
    ruleset = Ruleset("standard")
    alone = State(ruleset, (Player(purse=20), Player(purse=20, alive=False)), 20, 0, Phase.ROLL)
    figures = single_figures(solve_game(ruleset, 1, "eager"))
    rng = random.Random(99)
    games, deaths, finished_turns = 2000, 0, []
    for _ in range(games):
        final, turns = _play(alone, rng, 2)
        if final.winner is None:
            deaths += 1
        else:
            finished_turns.append(turns)
    assert _within(figures.p_death, deaths, games)
    n = len(finished_turns)
    mean = sum(finished_turns) / n
    sd = math.sqrt(sum((t - mean) ** 2 for t in finished_turns) / (n - 1))
    assert abs(mean - figures.mean_turns) <= Z * sd / math.sqrt(n)
