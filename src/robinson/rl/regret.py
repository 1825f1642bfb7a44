"""Where a policy loses: for each decision and placing of the other pawns, each option's value
for the learner under his best response, the policy's choice there, and what it gives up.

`score(..., regret=True)` solves the learner's best-response chain anyway (`Score.best`); its
values V give, at every decision d and placing r of the other m - 1 living pawns, the learner's
chance after each option (`values[r, d, option]`, option 0 the eager one): one turn's
continuation read off V exactly as the solver's Bellman update does (`kernel.bellman`: a
decision nested in an option, bread's `again` landing on the canoe, takes the learner's best
option in his own column and the opponents' choice in theirs). The regret of the policy there is
the best option's value minus the value of what it plays (its mix, for a mixed policy): 0 where
it plays a best option, and never negative.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numba
import numpy as np
import numpy.typing as npt

from robinson.analysis.decisions import DECISION_KINDS, EAGER_OPTION, OTHER_OPTION
from robinson.analysis.exact import codes
from robinson.analysis.exact.joint import FlatTurns
from robinson.analysis.exact.kernel import DECISION_MARGIN, _accumulate, swap_state

FloatArray = npt.NDArray[np.float64]
IntArray = npt.NDArray[np.int64]


@numba.njit(cache=True)
def _option_values(
    m: int,
    kk: int,
    decisions: int,
    v: FloatArray,
    vsub: FloatArray,
    flat_ptr: IntArray,
    flat_row: IntArray,
    flat_p: FloatArray,
    others_table: FloatArray,
    out: FloatArray,
) -> None:
    """out[r, d, option]: the learner's value (column 0) after each option of decision d with
    the others placed as r, the learner best-responding and the opponents by their table."""
    wdec = np.zeros((decisions, m))
    opts = np.zeros((2, m))
    for r in range(out.shape[0]):
        swapped = swap_state(r, m, kk)
        base = r * kk
        for d in range(decisions):  # ascending: nested decisions first
            for opt in range(2):
                _accumulate(
                    kk + 2 * d + opt, m, kk, r, base, swapped, v, vsub,
                    flat_ptr, flat_row, flat_p, wdec, opts[opt],
                )  # fmt: skip
            out[r, d, 0] = opts[0, 0]
            out[r, d, 1] = opts[1, 0]
            best_eager = 0.0 if opts[1, 0] > opts[0, 0] + DECISION_MARGIN else 1.0
            wdec[d, 0] = best_eager * opts[0, 0] + (1.0 - best_eager) * opts[1, 0]
            q = others_table[d, r]
            for j in range(1, m):
                wdec[d, j] = q * opts[0, j] + (1.0 - q) * opts[1, j]


@dataclass(frozen=True)
class Regret:
    """The decisions of m living players (`placings[i]`: the other pawns' codes, in turn order
    after the mover; `keys[d]`: (decision phase name, roll in view or None))."""

    living: int
    keys: tuple[tuple[str, int | None], ...]
    placings: tuple[tuple[int, ...], ...]
    values: FloatArray  # (placings, decisions, 2): after the eager option, after the other
    eager_share: FloatArray  # (placings, decisions): how often the policy takes the eager one
    regret: FloatArray  # (placings, decisions): best value minus the policy's

    def worst(self, count: int = 10) -> list[dict[str, Any]]:
        """The `count` decisions where the policy gives up most, largest first."""
        order = np.argsort(-self.regret, axis=None, kind="stable")[:count]
        rows = []
        for flat in order:
            i, d = divmod(int(flat), len(self.keys))
            decision, roll = self.keys[d]
            phase = next(p for p in DECISION_KINDS if p.value == decision)
            rows.append({
                "decision": decision,
                "roll": roll,
                "others": [codes.SQUARE_OF_CODE[c] for c in self.placings[i]],
                "others_skip": [codes.has_skip(c) for c in self.placings[i]],
                "values": {EAGER_OPTION[phase]: float(self.values[i, d, 0]),
                           OTHER_OPTION[phase]: float(self.values[i, d, 1])},
                "eager_share": float(self.eager_share[i, d]),
                "regret": float(self.regret[i, d]),
            })  # fmt: skip
        return rows


def regret_table(
    flat: FlatTurns,
    v: FloatArray,
    vsub: FloatArray,
    learner: FloatArray,
    rivals: FloatArray,
    placings: list[tuple[int, tuple[int, ...]]],
) -> Regret:
    """The regret of the learner's table `learner[d, r]` with m living players, from the
    best-response values v (and vsub of one player fewer); `placings`: (r, codes) held."""
    m = v.shape[1]
    decisions = len(flat.keys)
    out = np.zeros((codes.K ** (m - 1), max(decisions, 1), 2))
    if decisions:
        _option_values(m, codes.K, decisions, v, vsub, flat.ptr, flat.row, flat.p, rivals, out)
    index = np.array([r for r, _ in placings], dtype=np.int64)
    values = out[index, :decisions]
    share = learner[:decisions, index].T
    chosen = share * values[:, :, 0] + (1 - share) * values[:, :, 1]
    other_better = values[:, :, 1] > values[:, :, 0] + DECISION_MARGIN
    best = np.where(other_better, values[:, :, 1], values[:, :, 0])
    keys = tuple((DECISION_KINDS[kind].value, roll or None) for kind, roll in flat.keys)
    return Regret(
        m, keys, tuple(c for _, c in placings), values, share, np.maximum(best - chosen, 0.0)
    )
