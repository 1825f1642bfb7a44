"""The questions a reader asks, answered with their method (all eager play):

- how long a game of 2 to 8 lasts, in rounds (the winner's turns, games somebody won;
  simulated) and in every seat's turns and minutes at a table (exact for 2 to 4 players,
  `analysis/length.py`, simulated beyond; the minutes assume `SECONDS_PER_TURN`, a pace no rule
  or source gives);
- the chance that somebody dies (simulated) and, for one pawn, of being dead by each turn
  (exact: the one-player chain, `exact/single.py`);
- the final purse: its spread and the chance to end in profit (more than `start_tokens`;
  simulated: money is not in the chain);
- the first player's edge by edition and table size: exact for 2 to 4 players (the solved
  chains), simulated for 5 to 8;
- comebacks (`comebacks.py`) and what each square that moves pawns changes (`variants.py`).

Editions that play the same game under eager play (standard and ca; lv and cs) are one row.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import numpy.typing as npt

from robinson.analysis.exact.game import solve_game
from robinson.analysis.exact.single import turn_matrices
from robinson.analysis.length import EXACT_LENGTH_PLAYERS, expected_turns
from robinson.analysis.odds import tables
from robinson.analysis.report.exact import opening_chances
from robinson.analysis.sim import fast
from robinson.analysis.sim.batch import Setup
from robinson.analysis.sim.kernel import TRUNCATED
from robinson.analysis.sim.policies import fast_tables
from robinson.analysis.sim.stats import Estimate, proportion
from robinson.engine import (
    EDITIONS,
    MAX_PLAYERS,
    MIN_PLAYERS,
    Ruleset,
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
    turns: float  # every seat's turns, mean: exact where `length.py` reaches, else simulated
    turns_exact: bool
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
        exact = n <= EXACT_LENGTH_PLAYERS
        turns = expected_turns(rules, n) if exact else float(batch.turns[kept].mean())
        found.append(
            TableSize(
                players=n,
                rounds_mean=float(rounds.mean()),
                rounds=_deciles(rounds),
                minutes=turns * SECONDS_PER_TURN / 60,
                turns=turns,
                turns_exact=exact,
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
