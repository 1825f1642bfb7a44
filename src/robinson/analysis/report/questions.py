"""The questions a reader asks, answered with their method (all eager play):

- how long a game of 2 to 8 lasts, in rounds (the winner's turns, games somebody won) and in
  minutes at a table (every seat's turns, every game; simulated; the minutes assume
  `SECONDS_PER_TURN`, a pace no rule or source gives);
- the chance that somebody dies (simulated) and, for one pawn, of being dead by each turn
  (exact: the one-player chain, `exact/single.py`);
- the final purse: its spread and the chance to end in profit (more than `start_tokens`;
  simulated: money is not in the chain);
- the first player's edge by edition and table size: exact for 2 to 4 players (the solved
  chains), simulated for 5 to 8;
- what each square that moves pawns changes when it is made a story square (length, deaths,
  the first player's edge; simulated on paired games: the board is data, so the simulator plays
  the variant; the exact chain applies the ship swap of the standard board and is not used).

Editions that play the same game under eager play (standard and ca; lv and cs) are one row.
"""

from __future__ import annotations

import contextlib
import math
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

import numpy as np
import numpy.typing as npt

from robinson.analysis.exact.game import solve_game
from robinson.analysis.exact.single import turn_matrices
from robinson.analysis.odds import tables
from robinson.analysis.report.exact import opening_chances
from robinson.analysis.sim import fast
from robinson.analysis.sim.batch import Setup
from robinson.analysis.sim.kernel import TRUNCATED
from robinson.analysis.sim.policies import fast_tables
from robinson.analysis.sim.stats import Z95, Estimate, proportion
from robinson.engine import (
    EDITIONS,
    MAX_PLAYERS,
    MIN_PLAYERS,
    Board,
    Edition,
    Effect,
    Ruleset,
    Square,
    find_edition,
)

SECONDS_PER_TURN = 15  # roll, move, read the square, pay: an assumed pace at a real table
EXACT_PLAYERS = 4
DEATH_TURNS = 40  # turns shown for one pawn's death by turn


@dataclass(frozen=True)
class TableSize:
    """What a game of `players` (standard, eager) is like, from simulated games."""

    players: int
    rounds_mean: float
    rounds: tuple[int, int, int]  # 10th percentile, median, 90th percentile
    minutes: float  # mean turns of all seats x SECONDS_PER_TURN
    someone_dies: Estimate
    profit: Estimate  # share of players ending with more than they started with
    purse: tuple[int, int, int]  # final purse: 10th percentile, median, 90th percentile


@dataclass(frozen=True)
class Edge:
    """Seat 0's win chance minus a fair share (1/n): exact, or simulated with an interval."""

    value: float
    low: float
    high: float
    exact: bool


def table_sizes(games: int, seed: int) -> list[TableSize]:
    rules = Ruleset("standard")
    found = []
    for n in range(MIN_PLAYERS, MAX_PLAYERS + 1):
        setup = Setup(rules, n, seed=seed)
        batch = fast.run_batch(setup, fast_tables("eager", rules, n), 0, games)
        kept = batch.winner != TRUNCATED
        rounds = batch.winner_turns[batch.winner >= 0]  # the rounds of a game somebody won
        purse = batch.purse[kept].reshape(-1)
        dead = ~batch.alive[kept]
        found.append(
            TableSize(
                players=n,
                rounds_mean=float(rounds.mean()),
                rounds=_deciles(rounds),
                minutes=float(batch.turns[kept].mean()) * SECONDS_PER_TURN / 60,
                someone_dies=proportion(int(dead.any(axis=1).sum()), int(kept.sum())),
                profit=proportion(int((purse > rules.start_tokens).sum()), purse.size),
                purse=_deciles(purse),
            )
        )
    return found


def _deciles(values: npt.NDArray[np.int32]) -> tuple[int, int, int]:
    low, mid, high = np.percentile(values, [10, 50, 90], method="inverted_cdf")
    return int(low), int(mid), int(high)


def rule_groups() -> dict[str, Ruleset]:
    """One ruleset per game the editions play ("standard = ca": ruleset), in EDITIONS order."""
    groups: dict[str, list[str]] = {}
    for name in EDITIONS:
        groups.setdefault(tables.rules_key(Ruleset(name)), []).append(name)
    return {" = ".join(names): Ruleset(names[0]) for names in groups.values()}


def first_player_edge(games: int, seed: int) -> dict[str, dict[int, Edge]]:
    edges: dict[str, dict[int, Edge]] = {}
    for label, rules in rule_groups().items():
        row = {}
        for n in range(MIN_PLAYERS, MAX_PLAYERS + 1):
            fair = 1 / n
            if n <= EXACT_PLAYERS:
                p = opening_chances(rules.edition, n)[0]
                row[n] = Edge(p - fair, p - fair, p - fair, exact=True)
                continue
            winners = fast.run_batch(Setup(rules, n, seed=seed), fast_tables("eager", rules, n),
                                     0, games).winner  # fmt: skip
            kept = int((winners != TRUNCATED).sum())
            e = proportion(int((winners == 0).sum()), kept)
            row[n] = Edge(e.value - fair, e.low - fair, e.high - fair, exact=False)
        edges[label] = row
    return edges


def death_by_turn(turns: int = DEATH_TURNS) -> dict[str, tuple[list[float], list[float]]]:
    """Exact, one pawn alone: (P(dead by turn t), P(home by turn t)) for t = 1..turns."""
    curves = {}
    for label, rules in rule_groups().items():
        q, win, dead, _ = turn_matrices(solve_game(rules, 1, "eager"))
        row = np.eye(len(q))[0]
        died, home = [], []
        d = h = 0.0
        for _ in range(turns):
            d += float(row @ dead)
            h += float(row @ win)
            died.append(d)
            home.append(h)
            row = row @ q
        curves[label] = (died, home)
    return curves


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
