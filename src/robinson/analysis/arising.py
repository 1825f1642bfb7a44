"""How often each decision arises, placing by placing, and the value of each choice weighted by
it: exact, for 2 to 4 players under eager play.

The expected number of turns begun in each state (`length.visits`, the chain's occupation
measure from the opening) times the chance that a turn begun on the mover's code meets the
decision (its turn tree, eager at the decisions before it) is the expected number of times the
decision arises with the other pawns placed so, per game (`occurrences`). Weighting each
placing's option values (`joint.option_values` of the eager chains, the figures of `robinson
analyze`) by it gives what the other option is worth on average where the game really goes, not
over every placing counted once.
"""

from __future__ import annotations

import functools
from dataclasses import dataclass

import numpy as np
import numpy.typing as npt

from robinson.analysis.decisions import DECISION_KINDS, DECISION_SQUARES, OTHER_OPTION
from robinson.analysis.exact import codes
from robinson.analysis.exact.joint import FlatTurns
from robinson.analysis.headline import stored_game
from robinson.analysis.length import eager_turns, visits
from robinson.engine import Ruleset


@dataclass(frozen=True)
class Arising:
    square: int
    roll: int | None
    option: str  # the other (non-eager) option
    per_game: float  # times the decision arises per game, all seats
    gain: float  # the other option's P(win) minus the eager one's, weighted by where it arises


def _reach(flat: FlatTurns, c: int) -> dict[int, float]:
    """d -> the chance that a turn begun on code c meets decision d (eager before it)."""
    kk = codes.K
    out: dict[int, float] = {}

    def walk(e: int, p: float) -> None:
        for x in range(int(flat.ptr[e]), int(flat.ptr[e + 1])):
            row = int(flat.row[x])
            if row >= kk + 2:
                d = row - kk - 2
                q = p * float(flat.p[x])
                out[d] = out.get(d, 0.0) + q
                walk(kk + 2 * d, q)  # decisions nested in its eager option

    walk(c, 1.0)
    return out


@functools.lru_cache(maxsize=8)
def occurrences(ruleset: Ruleset, players: int) -> tuple[npt.NDArray[np.float64], ...]:
    """`[m - 1][d, r]`: the times decision d (`FlatTurns.keys` order) arises per game with m
    living pawns, the others placed as r (the index of c[1:]), for m = 2..players (and an empty
    table for m = 1: alone there is no opponent to weigh against). Needs no win chances."""
    if type(players) is not int or players < 2:
        raise ValueError("a decision is weighed against opponents: 2 players or more")
    flat = eager_turns(ruleset).flat
    x = visits(ruleset, players)
    reach = np.zeros((codes.K, len(flat.keys)))  # reach[c, d]: a turn begun on c meets d
    for c in range(codes.K):
        for d, p in _reach(flat, c).items():
            reach[c, d] = p
    found = [np.zeros((len(flat.keys), 0))]
    for m in range(2, players + 1):
        found.append(reach.T @ x[m - 1].reshape(codes.K, codes.K ** (m - 1)))
    return tuple(found)


@functools.lru_cache(maxsize=8)
def arising(ruleset: Ruleset, players: int) -> tuple[Arising, ...]:
    """Every decision (square and roll in view) with how often it arises per game while an
    opponent lives, and the other option's gain weighted by where it arises (2..4 players).
    The option values are those of the eager chains the odds keep on disk (`stored_game`)."""
    weights = occurrences(ruleset, players)
    keys = eager_turns(ruleset).flat.keys
    game = stored_game(ruleset, players, "eager")
    gain_sum = np.zeros(len(keys))
    total = np.zeros(len(keys))
    for m in range(2, players + 1):
        for d, key in enumerate(keys):
            values = game.options[m - 1][key]
            gain: npt.NDArray[np.float64] = values[:, 1, 0] - values[:, 0, 0]
            gain_sum[d] += float(weights[m - 1][d] @ gain)
            total[d] += float(weights[m - 1][d].sum())
    rows = []
    for d, (kind, roll) in enumerate(keys):
        phase = DECISION_KINDS[kind]
        rows.append(
            Arising(
                square=DECISION_SQUARES[phase],
                roll=roll or None,
                option=OTHER_OPTION[phase],
                per_game=float(total[d]),
                gain=float(gain_sum[d] / total[d]) if total[d] > 0 else 0.0,
            )
        )
    return tuple(sorted(rows, key=lambda a: (a.square, a.roll or 0)))
