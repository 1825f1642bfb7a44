"""What each square that moves pawns changes when it is made a story square: the length, the
deaths and the first player's edge, 4 players, standard, eager, simulated on paired games (the
board is data, so the compiled simulator plays the variant on the same dice as the full board;
the exact chain applies the standard board's ship swap and is not used here)."""

from __future__ import annotations

import contextlib
import math
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

import numpy as np
import numpy.typing as npt

from robinson.analysis.sim import fast
from robinson.analysis.sim.batch import Setup
from robinson.analysis.sim.kernel import TRUNCATED
from robinson.analysis.sim.policies import fast_tables
from robinson.analysis.sim.stats import Z95, Estimate
from robinson.engine import EDITIONS, Board, Edition, Effect, Ruleset, Square, find_edition

# The squares that move pawns or end them (money squares move no pawn: removing one changes
# neither length, deaths nor who wins).
MOVING_SQUARES = (4, 7, 12, 20, 23, 25, 36, 42)


@dataclass(frozen=True)
class WithoutSquare:
    """4 players, standard, eager, with `square` made a story square: the change of the mean
    rounds, of P(somebody dies) and of seat 0's edge, against the full board on the same dice
    (paired game by game, so the intervals are of the differences)."""

    square: int
    rounds: Estimate
    someone_dies: Estimate
    edge: Estimate


@contextlib.contextmanager
def _edition_with(board: Board, base: str) -> Iterator[Ruleset]:
    """A ruleset playing `board` with `base`'s fever and choices. A ruleset names its board only
    through the engine's edition registry, so the variant is registered for the duration (under
    a name no edition uses) and removed after."""
    rules = find_edition(base)
    name = f"{base}-variant-{id(board)}"
    EDITIONS[name] = Edition(name, rules.fever, rules.choices, "a board variant", board)
    try:
        yield Ruleset(name)
    finally:
        del EDITIONS[name]


def _game_figures(ruleset: Ruleset, players: int, games: int, seed: int) -> Any:
    # Eager's tables read off the standard board: a variant may lack a decision square (the
    # probe needs one), and eager takes the same option whatever the board.
    eager = fast_tables("eager", Ruleset("standard"), players)
    batch = fast.run_batch(Setup(ruleset, players, seed=seed), eager, 0, games)
    won = batch.winner >= 0
    return (
        np.where(won, batch.winner_turns, 0).astype(np.float64),
        won,
        (~batch.alive).any(axis=1).astype(np.float64),
        (batch.winner == 0).astype(np.float64),
        batch.winner != TRUNCATED,
    )


def without_squares(games: int, seed: int, players: int = 4) -> list[WithoutSquare]:
    base = Ruleset("standard")
    rounds0, won0, dies0, first0, kept0 = _game_figures(base, players, games, seed)
    found = []
    for square in MOVING_SQUARES:
        squares = list(base.board.squares)
        squares[square] = Square(square, Effect.STORY)
        with _edition_with(Board(tuple(squares)), "standard") as variant:
            rounds, won, dies, first, kept = _game_figures(variant, players, games, seed)
        both = kept & kept0
        paired_won = both & won & won0  # the rounds of games won on both boards
        found.append(
            WithoutSquare(
                square=square,
                rounds=_paired(rounds[paired_won] - rounds0[paired_won]),
                someone_dies=_paired(dies[both] - dies0[both]),
                edge=_paired(first[both] - first0[both]),
            )
        )
    return found


def _paired(diff: npt.NDArray[np.float64]) -> Estimate:
    mean = float(diff.mean())
    half = Z95 * float(diff.std(ddof=1)) / math.sqrt(len(diff))
    return Estimate(mean, mean - half, mean + half)
