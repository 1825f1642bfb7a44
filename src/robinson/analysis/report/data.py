"""The numbers behind the report: exact where the chain exists (`exact.py`: the win chances of 2
to 4 players, the value of each choice for two, and what the solver found, `headline.py`),
everything else from the compiled simulator.

Every simulated run uses the same seed, so runs that differ in one thing only (a seat's decision
at one square, say) play the same dice game by game: their difference is measured on paired
games, which makes it far more precise than two independent runs of the same size.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from robinson.analysis.arising import Arising, arising
from robinson.analysis.exact.game import solve_game
from robinson.analysis.exact.single import single_figures
from robinson.analysis.headline import headline, solitaires
from robinson.analysis.length import EXACT_LENGTH_PLAYERS
from robinson.analysis.report.comebacks import COMEBACK_GAMES, Comebacks, comebacks
from robinson.analysis.report.exact import (
    ExactChoices,
    exact_choices,
    exact_p_win,
    opening_chances,
)
from robinson.analysis.report.questions import (
    Edge,
    TableSize,
    death_by_turn,
    first_player_edge,
    table_sizes,
)
from robinson.analysis.report.variants import WithoutSquare, without_squares
from robinson.analysis.sim import fast
from robinson.analysis.sim.batch import Setup
from robinson.analysis.sim.policies import DECISION_ROWS, fast_tables
from robinson.analysis.sim.run import simulate
from robinson.analysis.sim.stats import Z95, Estimate
from robinson.engine import DECISION_OF, EDITIONS, FACES, MAX_PLAYERS, MIN_PLAYERS, Ruleset

Progress = Callable[[str], None]
EXACT_PLAYERS = 4  # the exact chains go up to this many players


@dataclass(frozen=True)
class ChoiceValue:
    """How much seat 0's chance of winning changes when it takes `option` instead of the eager
    option at one decision (every time it arises), everything else eager."""

    square: int
    face: int | None  # the roll in view (4 and 7), None for 20 and 23
    option: str  # the non-eager option tried
    eager_option: str
    gain: Estimate  # P(win | option) - P(win | eager option), paired games
    changed: float  # share of games that played out differently (the decision arose and mattered)
    tokens: Estimate  # seat 0's final purse with the option minus with the eager one, paired


@dataclass
class ReportData:
    games: int
    seed: int
    editions: dict[str, dict[str, Any]] = field(default_factory=dict)  # 4 players, eager
    by_players: dict[int, dict[str, Any]] = field(default_factory=dict)  # standard, eager
    choices: list[ChoiceValue] = field(default_factory=list)  # standard, 2 players, simulated
    choice_games: int = 0
    exact: list[ExactChoices] = field(default_factory=list)  # 2 players, exact
    exact_two: list[float] = field(default_factory=list)  # P(win) per seat, standard, exact
    # Exact opening chances, everybody eager: standard by table size (2..4), and per edition (4).
    exact_seats: dict[int, list[float]] = field(default_factory=dict)
    exact_editions: dict[str, list[float]] = field(default_factory=dict)
    found: dict[str, Any] = field(default_factory=dict)  # headline(standard, EXACT_PLAYERS)
    solitaires: dict[int, list[float]] = field(default_factory=dict)  # the pawns raced apart
    # The reader's questions (`questions.py`).
    table_sizes: list[TableSize] = field(default_factory=list)
    edges: dict[str, dict[int, Edge]] = field(default_factory=dict)
    deaths: dict[str, tuple[list[float], list[float]]] = field(default_factory=dict)
    without: list[WithoutSquare] = field(default_factory=list)
    comebacks: Comebacks | None = None
    arising: dict[int, tuple[Arising, ...]] = field(default_factory=dict)  # standard, exact


def collect(games: int, seed: int, progress: Progress | None = None) -> ReportData:
    """Run everything the report shows: `games` games per setting."""
    say = progress or (lambda _: None)
    data = ReportData(games, seed)
    say("what the solver found (exact)")
    data.found = headline(Ruleset("standard"), EXACT_PLAYERS)
    alone = single_figures(solve_game(Ruleset("standard"), 1, "eager"))
    for n in range(MIN_PLAYERS, EXACT_PLAYERS + 1):
        data.exact_seats[n] = opening_chances("standard", n)
        data.solitaires[n] = solitaires(alone.turns, n)
    for edition in EDITIONS:
        data.exact_editions[edition] = opening_chances(edition, EXACT_PLAYERS)
    for edition in EDITIONS:
        say(f"edition {edition}")
        setup = Setup(Ruleset(edition), 4, seed=seed)
        data.editions[edition] = simulate(setup, games, progress=False).summary.to_json()
    for n in range(MIN_PLAYERS, MAX_PLAYERS + 1):
        say(f"{n} players")
        if n == 4:
            data.by_players[n] = data.editions["standard"]
            continue
        setup = Setup(Ruleset("standard"), n, seed=seed)
        data.by_players[n] = simulate(setup, games, progress=False).summary.to_json()
    say("the questions a reader asks")
    data.table_sizes = table_sizes(games, seed)
    data.edges = first_player_edge(games, seed)
    data.deaths = death_by_turn()
    data.without = without_squares(games, seed)
    data.comebacks = comebacks(min(games, COMEBACK_GAMES), seed)
    say("the value of each choice, exactly")
    data.exact = exact_choices()
    data.exact_two = exact_p_win("standard")
    data.arising = {n: arising(Ruleset("standard"), n) for n in range(2, EXACT_LENGTH_PLAYERS + 1)}
    say("the value of each choice over whole games")
    data.choice_games = games
    data.choices = choice_values(Setup(Ruleset("standard"), 2, seed=seed), games)
    return data


def _paired(diff: np.ndarray[Any, np.dtype[np.float64]]) -> Estimate:
    """The mean of paired differences, with its normal 95% interval."""
    mean = float(diff.mean())
    half = Z95 * float(diff.std(ddof=1)) / math.sqrt(len(diff))
    return Estimate(mean, mean - half, mean + half)


def choice_values(setup: Setup, games: int) -> list[ChoiceValue]:
    """For each decision (and roll in view), seat 0 trying the non-eager option, on paired games."""
    eager = fast_tables("eager", setup.ruleset, setup.players)
    base = fast.run_batch(setup, eager, 0, games)
    base_win = base.winner == 0
    values = []
    for row, phase in enumerate(DECISION_ROWS):
        decision = DECISION_OF[phase]
        for face in FACES if decision.roll_in_view else (None,):
            col = face or 0
            tables = eager.copy()
            tables[0, row, col] = 1 - eager[0, row, col]
            tried = fast.run_batch(setup, tables, 0, games)
            diff = (tried.winner == 0).astype(np.float64) - base_win
            purse = (tried.purse[:, 0] - base.purse[:, 0]).astype(np.float64)
            # games where the decision never arose are identical to the eager ones
            changed = float(np.mean(np.any(tried.position != base.position, axis=1)))
            options = decision.options
            values.append(
                ChoiceValue(
                    square=decision.square,
                    face=face,
                    option=options[tables[0, row, col]],
                    eager_option=options[eager[0, row, col]],
                    gain=_paired(diff),
                    changed=changed,
                    tokens=_paired(purse),
                )
            )
    return values
