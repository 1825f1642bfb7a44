"""The numba kernel of `score`: the joint chain of `robinson.analysis.exact` with one learner.

The layouts are those of `analysis/exact/joint.py` (state index: the living pawns' codes, mover
first; `flatten`'s turn distributions) and the order that of `levels.py`. What changes is the
meaning of the value columns: `W[s, j]` is the probability that the player at relative seat j
wins when HE is the learner and everybody else plays the opponents' policy. Column j is a linear
system of its own; in it the mover (relative seat 0) decides as the learner when j = 0 and as an
opponent otherwise. The rotation after a turn, wins and deaths are exactly those of the joint
chain, so with learner = opponents = eager, W is the eager chain's V.

At decision d (the (kind, roll) of `FlatTurns.keys`) with the others placed as `r`, the learner
takes the eager option with probability `learner[d, r]` and the opponents with `opponent[d, r]`
(1 or 0 for a deterministic policy). With `best` the learner instead takes the option better
for himself (the eager one unless the other is better by more than DECISION_MARGIN): the
learner's best response to the opponents, by value iteration.
"""

from __future__ import annotations

import numba
import numpy as np
import numpy.typing as npt

from robinson.analysis.exact.kernel import DECISION_MARGIN, SWAP_FROM, SWAP_TO

FloatArray = npt.NDArray[np.float64]
IntArray = npt.NDArray[np.int64]


@numba.njit(cache=True, nogil=True)
def _accumulate(
    e: int,
    m: int,
    kk: int,
    r: int,
    base: int,
    swapped: int,
    v: FloatArray,
    vsub: FloatArray,
    flat_ptr: IntArray,
    flat_row: IntArray,
    flat_p: FloatArray,
    wdec: FloatArray,
    out: FloatArray,
) -> None:
    """out = the columns after distribution e (as `analysis.exact.kernel._accumulate`)."""
    for j in range(m):
        out[j] = 0.0
    for x in range(flat_ptr[e], flat_ptr[e + 1]):
        row = flat_row[x]
        p = flat_p[x]
        if row < kk:
            nidx = swapped if row == SWAP_FROM and swapped >= 0 else base + row
            out[0] += p * v[nidx, m - 1]
            for j in range(1, m):
                out[j] += p * v[nidx, j - 1]
        elif row == kk:
            out[0] += p
        elif row == kk + 1:
            for j in range(1, m):
                out[j] += p * vsub[r, j - 1]
        else:
            d = row - kk - 2
            for j in range(m):
                out[j] += p * wdec[d, j]


@numba.njit(cache=True, nogil=True)
def _bellman(
    s: int,
    m: int,
    kk: int,
    v: FloatArray,
    vsub: FloatArray,
    flat_ptr: IntArray,
    flat_row: IntArray,
    flat_p: FloatArray,
    need_ptr: IntArray,
    need_d: IntArray,
    learner: FloatArray,
    opponent: FloatArray,
    best: bool,
    wdec: FloatArray,
    opts: FloatArray,
    out: FloatArray,
) -> None:
    krest = kk ** (m - 1)
    c0 = s // krest
    r = s - c0 * krest
    rest = r
    place = 1
    rswap = r
    swap = False
    for _ in range(1, m):
        ck = rest % kk
        rest //= kk
        if ck == SWAP_TO:
            swap = True
            rswap -= (SWAP_TO - SWAP_FROM) * place
        place *= kk
    swapped = rswap * kk + SWAP_TO if swap else -1
    base = r * kk
    for q in range(need_ptr[c0], need_ptr[c0 + 1]):
        d = need_d[q]
        for opt in range(2):
            _accumulate(
                kk + 2 * d + opt, m, kk, r, base, swapped, v, vsub,
                flat_ptr, flat_row, flat_p, wdec, opts[opt],
            )  # fmt: skip
        pl = learner[d, r]
        if best:  # the option better for him: the eager one unless beaten by the margin
            pl = 0.0 if opts[1, 0] > opts[0, 0] + DECISION_MARGIN else 1.0
        po = opponent[d, r]
        wdec[d, 0] = pl * opts[0, 0] + (1.0 - pl) * opts[1, 0]
        for j in range(1, m):
            wdec[d, j] = po * opts[0, j] + (1.0 - po) * opts[1, j]
    _accumulate(c0, m, kk, r, base, swapped, v, vsub, flat_ptr, flat_row, flat_p, wdec, out)


@numba.njit(cache=True, nogil=True)
def solve_groups(
    states: IntArray,
    gptr: IntArray,
    cyclic: npt.NDArray[np.bool_],
    groups: IntArray,
    m: int,
    kk: int,
    v: FloatArray,
    vsub: FloatArray,
    flat_ptr: IntArray,
    flat_row: IntArray,
    flat_p: FloatArray,
    need_ptr: IntArray,
    need_d: IntArray,
    learner: FloatArray,
    opponent: FloatArray,
    best: bool,
    tol: float,
    max_sweeps: int,
) -> int:
    """The groups `groups` in that order: one pass if acyclic, Gauss-Seidel sweeps until no value
    changes by more than tol otherwise. Returns the most sweeps any group needed."""
    decisions = (flat_ptr.shape[0] - 1 - kk) // 2
    wdec = np.zeros((max(decisions, 1), m))
    opts = np.zeros((2, m))
    out = np.zeros(m)
    most = 0
    for g in groups:
        lo, hi = gptr[g], gptr[g + 1]
        n = 0
        while True:
            delta = 0.0
            for i in range(lo, hi):
                s = states[i]
                _bellman(
                    s, m, kk, v, vsub, flat_ptr, flat_row, flat_p, need_ptr, need_d,
                    learner, opponent, best, wdec, opts, out,
                )  # fmt: skip
                for j in range(m):
                    delta = max(delta, abs(out[j] - v[s, j]))
                    v[s, j] = out[j]
            n += 1
            if not cyclic[g] or delta <= tol or n >= max_sweeps:
                break
        most = max(most, n)
    return most


@numba.njit(cache=True, nogil=True)
def residual(
    states: IntArray,
    m: int,
    kk: int,
    v: FloatArray,
    vsub: FloatArray,
    flat_ptr: IntArray,
    flat_row: IntArray,
    flat_p: FloatArray,
    need_ptr: IntArray,
    need_d: IntArray,
    learner: FloatArray,
    opponent: FloatArray,
    best: bool,
) -> float:
    """max over `states` and columns of |(T W)[s] - W[s]|."""
    decisions = (flat_ptr.shape[0] - 1 - kk) // 2
    wdec = np.zeros((max(decisions, 1), m))
    opts = np.zeros((2, m))
    out = np.zeros(m)
    worst = 0.0
    for s in states:
        _bellman(
            s, m, kk, v, vsub, flat_ptr, flat_row, flat_p, need_ptr, need_d,
            learner, opponent, best, wdec, opts, out,
        )  # fmt: skip
        for j in range(m):
            worst = max(worst, abs(out[j] - v[s, j]))
    return worst
