"""The joint chain of m living players, solved for every seat's probability of winning.

State: the codes of the m living pawns in turn order starting with the player whose turn begins
(`c[0]` the mover, `c[k]` the k-th living seat after him), as the mixed-radix index
`sum(c[k] * K**k)`. Rotating the seats so that the mover is always first divides the states by m
and needs no "whose turn" field; a turn that is skipped is simply a state whose mover holds a
pending skip. A dead pawn leaves the chain: the rest is the game of m - 1 players, solved first
(the dead never move, pay or count, rule 2.3), so only all-alive states are stored.

`V[s, k]` is the probability that relative seat k wins from state s. It satisfies
`V[s] = sum over the mover's turn tree (turns.py) of probability * V[next state]`, where a leaf
is a win (1 for the mover), a death (the (m-1)-player values) or a new code for the mover, with
the ship swap applied when he ends on 36 while others stand on 41, after which the seats rotate
by one. At a decision node the mover takes the eager option (policy `eager`) or the option with
the larger value for himself (policy `optimal`; ties go to the eager option).

The system is solved by Gauss-Seidel sweeps (numba), states ordered by decreasing total progress
so that most successors are already updated; sweeps stop when no value changes by more than
`tol`. For the eager policy this is the iterative solution of the linear system of the absorbing
chain; for optimal it is value iteration to its fixed point.
"""

from __future__ import annotations

import os
import time
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass

import numba
import numpy as np
import numpy.typing as npt

from robinson.analysis.exact import codes
from robinson.analysis.exact.turns import CHANCE, DEAD, DECIDE, WIN, TurnTrees

SWAP_FROM, SWAP_TO = 36, 41
# The non-eager option is taken only when better by more than this: below it, differences are
# within the accuracy of the solve.
DECISION_MARGIN = 1e-12
FloatArray = npt.NDArray[np.float64]


@numba.njit(cache=True)
def _eval_nodes(
    lo: int,
    hi: int,
    others: npt.NDArray[np.int64],
    m: int,
    pow_k: npt.NDArray[np.int64],
    ntype: npt.NDArray[np.int8],
    child: npt.NDArray[np.int32],
    leaf: npt.NDArray[np.int32],
    v: FloatArray,
    vsub: FloatArray,
    optimal: bool,
    buf: FloatArray,
) -> None:
    """Evaluate nodes hi-1 down to lo (a tree or a subtree) into buf; result in buf[lo]."""
    for i in range(hi - 1, lo - 1, -1):
        t = ntype[i]
        if t == CHANCE:
            for j in range(m):
                acc = 0.0
                for f in range(6):
                    acc += buf[child[i, f], j]
                buf[i, j] = acc / 6.0
        elif t == DECIDE:
            a, b = child[i, 0], child[i, 1]
            pick = b if optimal and buf[b, 0] > buf[a, 0] + DECISION_MARGIN else a
            for j in range(m):
                buf[i, j] = buf[pick, j]
        else:
            o = leaf[i]
            if o == WIN:
                buf[i, 0] = 1.0
                for j in range(1, m):
                    buf[i, j] = 0.0
            elif o == DEAD:
                buf[i, 0] = 0.0
                sidx = 0
                for k in range(1, m):
                    sidx += others[k] * pow_k[k - 1]
                for k in range(1, m):
                    buf[i, k] = vsub[sidx, k - 1]
            else:
                swap = False
                if o == SWAP_FROM:
                    for k in range(1, m):
                        if others[k] == SWAP_TO:
                            swap = True
                mover = SWAP_TO if swap else o
                nidx = mover * pow_k[m - 1]
                for k in range(1, m):
                    ck = others[k]
                    if swap and ck == SWAP_TO:
                        ck = SWAP_FROM
                    nidx += ck * pow_k[k - 1]
                buf[i, 0] = v[nidx, m - 1]
                for k in range(1, m):
                    buf[i, k] = v[nidx, k - 1]


@numba.njit(cache=True, nogil=True)
def _sweep(
    order: npt.NDArray[np.int64],
    ranges: npt.NDArray[np.int64],
    m: int,
    pow_k: npt.NDArray[np.int64],
    start: npt.NDArray[np.int32],
    ntype: npt.NDArray[np.int8],
    child: npt.NDArray[np.int32],
    leaf: npt.NDArray[np.int32],
    v: FloatArray,
    vsub: FloatArray,
    optimal: bool,
) -> float:
    """One Gauss-Seidel pass over `order[lo:hi]` for each (lo, hi) row of `ranges`; returns the
    largest change. Threads run it on disjoint ranges at once (a range sees what the others have
    written so far, which only speeds convergence)."""
    kk = pow_k[1]
    buf = np.empty((ntype.shape[0], m))
    others = np.zeros(m, dtype=np.int64)
    delta = 0.0
    for r in range(ranges.shape[0]):
        for pos in range(ranges[r, 0], ranges[r, 1]):
            s = order[pos]
            rest = s
            for k in range(m):
                others[k] = rest % kk
                rest //= kk
            c0 = others[0]
            lo, hi = start[c0], start[c0 + 1]
            _eval_nodes(lo, hi, others, m, pow_k, ntype, child, leaf, v, vsub, optimal, buf)
            for j in range(m):
                d = abs(buf[lo, j] - v[s, j])
                if d > delta:
                    delta = d
                v[s, j] = buf[lo, j]
    return delta


@numba.njit(cache=True)
def _option_values(
    node: int,
    end: int,
    m: int,
    pow_k: npt.NDArray[np.int64],
    ntype: npt.NDArray[np.int8],
    child: npt.NDArray[np.int32],
    leaf: npt.NDArray[np.int32],
    v: FloatArray,
    vsub: FloatArray,
    optimal: bool,
    buf: FloatArray,
    out: FloatArray,
) -> None:
    """For decision `node` (subtree node..end-1), out[o, opt, j] for every others-index o."""
    kk = pow_k[1]
    others = np.zeros(m, dtype=np.int64)
    for o in range(out.shape[0]):
        rest = o
        for k in range(1, m):
            others[k] = rest % kk
            rest //= kk
        _eval_nodes(node, end, others, m, pow_k, ntype, child, leaf, v, vsub, optimal, buf)
        for j in range(m):
            out[o, 0, j] = buf[child[node, 0], j]
            out[o, 1, j] = buf[child[node, 1], j]


@dataclass(frozen=True)
class Solution:
    """The solved chain of m living players (see the module docstring for `values`)."""

    m: int
    values: FloatArray  # (K**m, m)
    sweeps: int
    residual: float
    seconds: float

    def p_win(self, state_index: int = 0) -> list[float]:
        return [float(x) for x in self.values[state_index]]


def _subtree_end(trees: TurnTrees) -> npt.NDArray[np.int32]:
    end = np.arange(1, trees.nodes + 1, dtype=np.int32)
    for i in range(trees.nodes - 1, -1, -1):
        kids = trees.child[i][trees.child[i] >= 0]
        if len(kids):
            end[i] = max(end[i], int(end[kids].max()))
    return end


def _order(m: int, reachable: npt.NDArray[np.bool_]) -> npt.NDArray[np.int64]:
    """The states made only of codes a pawn can hold, by decreasing total progress, so that the
    successors of a state have mostly been updated before it in the same sweep."""
    square = np.array(codes.SQUARE_OF_CODE, dtype=np.int64)
    total = np.zeros(1, dtype=np.int64)
    ok = np.ones(1, dtype=bool)
    for _ in range(m):  # the new axis is the slower digit
        total = (total[None, :] + square[:, None]).reshape(-1)
        ok = (ok[None, :] & reachable[:, None]).reshape(-1)
    states = np.flatnonzero(ok)
    return states[np.argsort(-total[states], kind="stable")].astype(np.int64)


def reachable_codes(trees: TurnTrees) -> npt.NDArray[np.bool_]:
    """Codes a pawn can hold at the start of a turn: 0, and every code some turn ends on
    (whatever the decisions), closed under the ship swap (36 <-> 41)."""
    ok = np.zeros(codes.K, dtype=bool)
    ok[0] = True
    ends = trees.leaf[(trees.ntype == 0) & (trees.leaf >= 0)]
    ok[ends] = True
    if ok[SWAP_FROM]:
        ok[SWAP_TO] = True
    return ok


def solve_joint(
    trees: TurnTrees,
    m: int,
    sub: Solution | None,
    optimal: bool,
    tol: float = 1e-13,
    max_sweeps: int = 100_000,
    threads: int | None = None,
) -> Solution:
    """Solve the m-player chain given the (m-1)-player solution `sub` (None when m = 1)."""
    began = time.perf_counter()
    k = codes.K
    pow_k = np.array([k**i for i in range(m + 1)], dtype=np.int64)
    v = np.zeros((k**m, m), dtype=np.float64)
    vsub = sub.values if sub is not None else np.zeros((1, 1), dtype=np.float64)
    order = _order(m, reachable_codes(trees))
    threads = 1 if len(order) < 50_000 else max(1, min(threads or os.cpu_count() or 1, 8))
    # Interleaved blocks: every thread works from the most advanced states down, together.
    bounds = np.linspace(0, len(order), 8 * threads + 1).astype(np.int64)
    blocks = np.stack([bounds[:-1], bounds[1:]], axis=1)
    parts = [blocks[t::threads] for t in range(threads)]
    residual, sweeps = np.inf, 0
    with ThreadPoolExecutor(threads) as pool:
        while residual > tol and sweeps < max_sweeps:
            residual = max(
                pool.map(
                    lambda part: _sweep(
                        order,
                        part,
                        m,
                        pow_k,
                        trees.start,
                        trees.ntype,
                        trees.child,
                        trees.leaf,
                        v,
                        vsub,
                        optimal,
                    ),
                    parts,
                )
            )
            sweeps += 1
    return Solution(m, v, sweeps, float(residual), time.perf_counter() - began)


def option_values(
    trees: TurnTrees, solution: Solution, sub: Solution | None, optimal: bool
) -> dict[tuple[int, int], FloatArray]:
    """For each decision (kind, roll): values[others, option, seat] (option 0 eager, 1 other),
    the win probabilities of every relative seat after each option, for every placing of the
    other m - 1 living pawns."""
    m = solution.m
    k = codes.K
    pow_k = np.array([k**i for i in range(m + 1)], dtype=np.int64)
    vsub = sub.values if sub is not None else np.zeros((1, 1), dtype=np.float64)
    buf = np.zeros((trees.nodes, m), dtype=np.float64)
    end = _subtree_end(trees)
    result: dict[tuple[int, int], FloatArray] = {}
    for node in np.flatnonzero(trees.ntype == DECIDE):
        key = (int(trees.kind[node]), int(trees.roll[node]))
        if key in result:
            continue  # every decision (kind, roll) has the same subtree wherever it arises
        out = np.zeros((k ** (m - 1), 2, m), dtype=np.float64)
        _option_values(
            int(node), int(end[node]), m, pow_k, trees.ntype, trees.child, trees.leaf,
            solution.values, vsub, optimal, buf, out,
        )  # fmt: skip
        result[key] = out
    return result
