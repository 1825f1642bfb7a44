"""The numba kernels of the joint solve: one state's Bellman update, the group-by-group solve
and the residual check. The layouts (state index, value table, flat turn distributions) are
those of `joint.py`; the order of the groups is that of `levels.py`.

How the mover decides is given apart for column 0 of the values (his own chances: `own`) and
for the other columns (`others`), each a rule and the table it may read: `EAGER` the eager option,
`BEST` the option better for the mover (the eager one unless the other is better by more than
DECISION_MARGIN), `TABLE` the eager option with probability `table[d, r]` at decision d with the
others placed as r. The analysis' policies decide alike in every column (`policy_rules`: eager,
or optimal, which is value iteration); `robinson.rl`'s `score` solves the chain of one learner,
where column j is the chance of the player at relative seat j when HE is the learner and the
others play the opponents' policy: the mover decides by the learner's table (or `BEST`, his best
response) in column 0 and by the opponents' table in the others.
"""

from __future__ import annotations

from typing import NamedTuple

import numba
import numpy as np
import numpy.typing as npt

from robinson.engine import SHIP, SHIP_SWAP

# The non-eager option is taken only when better by more than this: below it, differences are
# within the accuracy of the solve.
DECISION_MARGIN = 1e-12
SWAP_FROM, SWAP_TO = SHIP, SHIP_SWAP  # the ship swap of the standard board
FloatArray = npt.NDArray[np.float64]
IntArray = npt.NDArray[np.int64]

EAGER, BEST, TABLE = 0, 1, 2  # how the mover decides (module docstring)
NO_TABLE = np.ones((1, 1))  # the table of a rule that reads none


class Model(NamedTuple):
    """The arguments `solve_groups` and `residual` share, in their order: the m-player chain
    (its values v, written in place, and the (m-1)-player ones), the flat turn distributions of
    `joint.flatten`, and how the mover decides."""

    m: int
    kk: int
    v: FloatArray
    vsub: FloatArray
    flat_ptr: IntArray
    flat_row: IntArray
    flat_p: FloatArray
    need_ptr: IntArray
    need_d: IntArray
    own: int
    own_table: FloatArray
    others: int
    others_table: FloatArray


def policy_rules(optimal: bool) -> tuple[int, FloatArray, int, FloatArray]:
    """The decision arguments of `Model` (own, own table, others, others' table) for the
    analysis' policies: eager, or optimal (every column follows the mover's best option)."""
    rule = BEST if optimal else EAGER
    return rule, NO_TABLE, rule, NO_TABLE


@numba.njit(cache=True, nogil=True, inline="always")
def _eager_share(rule: int, table: FloatArray, d: int, r: int, other_better: bool) -> float:
    """The probability of the eager option at decision d under `rule` (module docstring)."""
    if rule == TABLE:
        return float(table[d, r])
    if rule == BEST and other_better:
        return 0.0
    return 1.0


@numba.njit(cache=True, nogil=True, inline="always")
def swap_state(r: int, m: int, kk: int) -> int:
    """The state the ship swap leads to when the mover lands on 36 with the others placed as
    `r`: the others' 41s become 36s, the mover ends on 41; -1 when no other pawn is on 41."""
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
    return rswap * kk + SWAP_TO if swap else -1


@numba.njit(cache=True, nogil=True, inline="always")
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
    """out += the values relative to the mover of distribution e (a turn or a decision's
    option): rows < K a new code for the mover (state base + code, the seats rotated; the swap's
    state `swapped` when he ends on 36 and someone stands on 41, else swapped < 0), K a win,
    K + 1 his death (state r of the chain of one player fewer), K + 2 + d decision d (wdec)."""
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


@numba.njit(cache=True, nogil=True, inline="always")
def bellman(
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
    own: int,
    own_table: FloatArray,
    others: int,
    others_table: FloatArray,
    wdec: FloatArray,
    opts: FloatArray,
    out: FloatArray,
) -> None:
    """out = (T V)[s]: the values of state s after one turn of its mover, deciding at each
    decision his turn can meet (need_d[need_ptr[c0]:need_ptr[c0 + 1]], nested ones first) by
    the rules `own` (column 0) and `others` (the other columns; module docstring)."""
    krest = kk ** (m - 1)
    c0 = s // krest
    r = s - c0 * krest
    swapped = swap_state(r, m, kk)
    base = r * kk
    for q in range(need_ptr[c0], need_ptr[c0 + 1]):
        d = need_d[q]
        for opt in range(2):
            _accumulate(
                kk + 2 * d + opt, m, kk, r, base, swapped, v, vsub,
                flat_ptr, flat_row, flat_p, wdec, opts[opt],
            )  # fmt: skip
        other_better = opts[1, 0] > opts[0, 0] + DECISION_MARGIN
        p = _eager_share(own, own_table, d, r, other_better)
        wdec[d, 0] = p * opts[0, 0] + (1.0 - p) * opts[1, 0]
        p = _eager_share(others, others_table, d, r, other_better)
        for j in range(1, m):  # (a share of 1 or 0 gives one option's value exactly)
            wdec[d, j] = p * opts[0, j] + (1.0 - p) * opts[1, j]
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
    own: int,
    own_table: FloatArray,
    others: int,
    others_table: FloatArray,
    tol: float,
    max_sweeps: int,
    sweeps: IntArray,
) -> int:
    """Solve the groups `groups` in that order (module `levels`): one pass for an acyclic group,
    Gauss-Seidel sweeps until no value changes by more than tol for a cyclic one (sweeps[g]
    records how many). Returns the number of state updates done."""
    decisions = (flat_ptr.shape[0] - 1 - kk) // 2
    wdec = np.zeros((max(decisions, 1), m))
    opts = np.zeros((2, m))
    out = np.zeros(m)
    updates = 0
    for g in groups:
        lo, hi = gptr[g], gptr[g + 1]
        n = 0
        while True:
            delta = 0.0
            for i in range(lo, hi):
                s = states[i]
                bellman(
                    s, m, kk, v, vsub, flat_ptr, flat_row, flat_p, need_ptr, need_d,
                    own, own_table, others, others_table, wdec, opts, out,
                )  # fmt: skip
                for j in range(m):
                    change = abs(out[j] - v[s, j])
                    delta = max(delta, change)
                    v[s, j] = out[j]
            n += 1
            updates += hi - lo
            if not cyclic[g] or delta <= tol or n >= max_sweeps:
                break
        sweeps[g] = n
    return updates


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
    own: int,
    own_table: FloatArray,
    others: int,
    others_table: FloatArray,
) -> float:
    """max over `states` and seats of |(T V)[s] - V[s]|, V left unchanged."""
    decisions = (flat_ptr.shape[0] - 1 - kk) // 2
    wdec = np.zeros((max(decisions, 1), m))
    opts = np.zeros((2, m))
    out = np.zeros(m)
    worst = 0.0
    for s in states:
        bellman(
            s, m, kk, v, vsub, flat_ptr, flat_row, flat_p, need_ptr, need_d,
            own, own_table, others, others_table, wdec, opts, out,
        )  # fmt: skip
        for j in range(m):
            worst = max(worst, abs(out[j] - v[s, j]))
    return worst
