"""How often each decision arises, placing by placing, and the value of each choice weighted by
it: exact, for 2 and 3 players under eager play.

The expected number of turns begun in each state (`length.visits`, the chain's occupation
measure from the opening) times the chance that a turn begun on the mover's code meets the
decision (its turn tree, eager at the decisions before it) is the expected number of times the
decision arises with the other pawns placed so, per game. Weighting each placing's option values
(`joint.option_values`, the solve of `robinson analyze`) by it gives what the other option is
worth on average where the game really goes, not over every placing counted once.
"""

from __future__ import annotations

import functools
from dataclasses import dataclass

import numpy as np
import numpy.typing as npt

from robinson.analysis.decisions import DECISION_KINDS, DECISION_SQUARES, OTHER_OPTION
from robinson.analysis.exact import codes
from robinson.analysis.exact.game import solve_game
from robinson.analysis.exact.joint import FlatTurns
from robinson.analysis.length import eager_chain, visits
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
def arising(ruleset: Ruleset, players: int) -> tuple[Arising, ...]:
    chain = eager_chain(ruleset, players)
    x = visits(ruleset, players)
    reach = {c: _reach(chain.flat, c) for c in chain.held}
    game = solve_game(ruleset, players, "eager")
    decisions = len(chain.flat.keys)
    weight = np.zeros((decisions, codes.K ** (players - 1)))
    gain_sum = np.zeros(decisions)
    total = np.zeros(decisions)
    for m in range(players, 1, -1):  # decisions with an opponent alive; alone there is none
        weight[:] = 0.0
        for state, i in chain.index.items():
            if len(state) != m:
                continue
            r = 0
            for c in state[1:]:
                r = r * codes.K + c
            for d, p in reach[state[0]].items():
                weight[d, r] += x[i] * p
        for d, key in enumerate(chain.flat.keys):
            values = game.options[m - 1][key]
            w = weight[d, : codes.K ** (m - 1)]
            gain: npt.NDArray[np.float64] = values[:, 1, 0] - values[:, 0, 0]
            gain_sum[d] += float(w @ gain)
            total[d] += float(w.sum())
    rows = []
    for d, (kind, roll) in enumerate(chain.flat.keys):
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
