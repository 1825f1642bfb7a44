"""The exact figures of the report: the value of every choice for two players, read off the
exact analysis (`robinson.analysis.exact`, the same solve as `robinson analyze --players 2`), and
the opening win chances of 2 to 4 players (`opening_chances`).

For each decision (square 4 or 7 with the roll in view, 20, 23) and each square the other pawn
can stand on, the mover's probability of winning after each option, everybody playing eager
afterwards. Editions whose rules make the same game (standard and ca; lv and cs) give the same
numbers and are shown once; editions with compulsory choices (classic) have none.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import numpy.typing as npt

from robinson.analysis.decisions import DECISION_KINDS, DECISION_SQUARES, EAGER_OPTION, OTHER_OPTION
from robinson.analysis.exact import codes
from robinson.analysis.exact.game import solve_game
from robinson.analysis.exact.levels import reachable_codes
from robinson.analysis.odds import tables
from robinson.engine import EDITIONS, Ruleset

PLAYERS = 2
POLICY = "eager"


@dataclass(frozen=True)
class ExactChoice:
    """One decision: the mover's P(win) after each option, for each placing of the other pawn."""

    square: int
    face: int | None  # the roll in view (4 and 7), None for 20 and 23
    eager_option: str
    other_option: str
    eager: npt.NDArray[np.float64]  # per placing (`ExactChoices.placings`)
    other: npt.NDArray[np.float64]

    @property
    def gain(self) -> npt.NDArray[np.float64]:
        """What taking the other option adds to P(win), per placing (negative: it costs)."""
        return self.other - self.eager


@dataclass(frozen=True)
class ExactChoices:
    """The decisions of one game: editions that share it, and the other pawn's placings (codes
    of `robinson.analysis.exact.codes`: a square 0..44, or a skipped turn pending on 12 / 7)."""

    editions: tuple[str, ...]
    placings: tuple[int, ...]
    rows: tuple[ExactChoice, ...]


def placing_label(code: int) -> str:
    if codes.has_skip(code):
        return f"{codes.without_skip(code)} (skip)"
    return str(code)


def _choices(edition: str) -> ExactChoices:
    game = solve_game(Ruleset(edition), PLAYERS, POLICY)
    placings = np.flatnonzero(reachable_codes(game.trees))
    rows = []
    for (kind, roll), values in sorted(game.options[PLAYERS - 1].items()):
        phase = DECISION_KINDS[kind]
        # values[others, option, relative seat]: option 0 eager, 1 the other; seat 0 the mover
        rows.append(
            ExactChoice(
                square=DECISION_SQUARES[phase],
                face=roll or None,
                eager_option=EAGER_OPTION[phase],
                other_option=OTHER_OPTION[phase],
                eager=values[placings, 0, 0].copy(),
                other=values[placings, 1, 0].copy(),
            )
        )
    return ExactChoices((edition,), tuple(int(c) for c in placings), tuple(rows))


def _same(a: ExactChoices, b: ExactChoices) -> bool:
    return (
        a.placings == b.placings
        and len(a.rows) == len(b.rows)
        and all(
            np.array_equal(x.eager, y.eager) and np.array_equal(x.other, y.other)
            for x, y in zip(a.rows, b.rows, strict=True)
        )
    )


def exact_choices() -> list[ExactChoices]:
    """Every edition with choices, editions with identical values merged (in EDITIONS order)."""
    groups: list[ExactChoices] = []
    for edition in EDITIONS:
        found = _choices(edition)
        if not found.rows:
            continue
        for i, group in enumerate(groups):
            if _same(group, found):
                groups[i] = ExactChoices((*group.editions, edition), group.placings, group.rows)
                break
        else:
            groups.append(found)
    return groups


def exact_p_win(edition: str) -> list[float]:
    """P(win) of each of 2 seats, seat 0 moving first, everybody eager."""
    return [float(p) for p in solve_game(Ruleset(edition), PLAYERS, POLICY).p_win()]


def opening_chances(edition: str, players: int) -> list[float]:
    """P(win) of each seat from the opening, seat 0 first, everybody eager: the chain of
    `players` (2..4) as the odds keep it on disk (solved once per machine), the same figures as
    `robinson analyze`."""
    return [float(p) for p in tables.values(Ruleset(edition), POLICY, players)[0]]


def editions_without_choices() -> list[str]:
    return [e for e in EDITIONS if not Ruleset(e).optional_choices]
