"""The joint chain of m living players, solved for every seat's probability of winning.

State: the codes of the m living pawns in turn order starting with the player whose turn begins
(`c[0]` the mover, `c[k]` the k-th living seat after him), as the mixed-radix index
`sum(c[k] * K**(m - 1 - k))`. The mover is the most significant digit: after his turn the seats
rotate and his new code becomes the last digit, so the successors of a state lie side by side.
Rotating the seats so that the mover is always first needs no "whose turn" field; a skipped turn
is simply a state whose mover holds a pending skip. A dead pawn leaves the chain: the rest is the
game of m - 1 players, solved first (the dead never move, pay or count, rule 2.3), so only
all-alive states are stored.

`V[s, k]` is the probability that relative seat k wins from state s. It satisfies
`V[s] = sum over the leaves of the mover's turn (turns.py) of p(leaf) * V[next state]` (rotated),
where a leaf is a win (1 for the mover), a death (the (m-1)-player values) or a new code for the
mover, with the ship swap applied when he ends on 36 while others stand on 41. At a decision the
mover takes the eager option (policy `eager`) or the option with the larger value for himself
(policy `optimal`; the eager option unless the other is better by more than DECISION_MARGIN).

The system is solved group by group in the order of `levels.py`: groups of states whose
successors outside the group are already final, most of them acyclic (one exact pass), the rest
(pawns in the footprint or the end zone, on the tree...) by Gauss-Seidel sweeps of that group
until no value changes by more than `tol`. For the eager policy this solves the linear system of
the absorbing chain; for optimal it is value iteration, group by group. After the solve one
more pass over every state measures the Bellman residual `max |V - T V|`, reported as the
solution's `residual`: it checks the order as well as the convergence.
"""

from __future__ import annotations

import itertools
import os
import time
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass

import numba
import numpy as np
import numpy.typing as npt

from robinson.analysis.exact import codes, kernel
from robinson.analysis.exact.kernel import DECISION_MARGIN, SWAP_FROM, SWAP_TO
from robinson.analysis.exact.levels import SolveOrder, solve_order
from robinson.analysis.exact.turns import CHANCE, DEAD, DECIDE, WIN, TurnTrees

FloatArray = npt.NDArray[np.float64]
IntArray = npt.NDArray[np.int64]


@numba.njit(cache=True, nogil=True)
def _fill_block(
    r: int,
    others: npt.NDArray[np.int64],
    m: int,
    v: FloatArray,
    vsub: FloatArray,
    flat_ptr: npt.NDArray[np.int64],
    flat_row: npt.NDArray[np.int64],
    flat_p: FloatArray,
    decisions: int,
    optimal: bool,
    w: FloatArray,
    options: FloatArray,
) -> None:
    """Fill w, the values relative to the mover of every row a turn can end on, when the others
    are `others[1:]` (index r). Rows 0..K-1: a code (the seats then rotate: the state is
    r * K + code, or the ship swap's state); K: a win; K + 1: his death (the (m-1)-player state
    r); K + 2 + d: decision d, each option being a distribution over earlier rows, the option
    taken by the policy (options[d, o] keeps both)."""
    kk = w.shape[0] - 2 - decisions
    swap = False
    rswap = 0
    for k in range(1, m):
        ck = others[k]
        if ck == SWAP_TO:
            swap = True
            ck = SWAP_FROM
        rswap = rswap * kk + ck
    for o in range(kk):
        nidx = r * kk + o
        if o == SWAP_FROM and swap:
            nidx = rswap * kk + SWAP_TO
        w[o, 0] = v[nidx, m - 1]
        for k in range(1, m):
            w[o, k] = v[nidx, k - 1]
    w[kk, 0] = 1.0
    w[kk + 1, 0] = 0.0
    for k in range(1, m):
        w[kk, k] = 0.0
        w[kk + 1, k] = vsub[r, k - 1]
    for d in range(decisions):
        for opt in range(2):
            e = kk + 2 * d + opt  # option distributions follow the K root distributions
            for j in range(m):
                acc = 0.0
                for x in range(flat_ptr[e], flat_ptr[e + 1]):
                    acc += flat_p[x] * w[flat_row[x], j]
                options[d, opt, j] = acc
        pick = 1 if optimal and options[d, 1, 0] > options[d, 0, 0] + DECISION_MARGIN else 0
        for j in range(m):
            w[kk + 2 + d, j] = options[d, pick, j]


@numba.njit(cache=True, nogil=True)
def _decode(r: int, m: int, kk: int, others: npt.NDArray[np.int64]) -> None:
    """others[1..m-1] = the digits of r, others[1] the most significant."""
    rest = r
    for k in range(m - 1, 0, -1):
        others[k] = rest % kk
        rest //= kk


@numba.njit(cache=True, nogil=True)
def codes_k(flat_ptr: IntArray, decisions: int) -> int:
    """K, from the layout of the flat distributions: K roots, then 2 per decision."""
    return int(flat_ptr.shape[0]) - 1 - 2 * decisions


@numba.njit(cache=True)
def _option_values(
    m: int,
    flat_ptr: IntArray,
    flat_row: IntArray,
    flat_p: FloatArray,
    decisions: int,
    v: FloatArray,
    vsub: FloatArray,
    optimal: bool,
    out: FloatArray,
) -> None:
    """out[r, d, option, j]: decision d's options for every others-index r."""
    kk = codes_k(flat_ptr, decisions)
    w = np.empty((kk + 2 + decisions, m))
    others = np.zeros(m, dtype=np.int64)
    for r in range(out.shape[0]):
        _decode(r, m, kk, others)
        _fill_block(
            r, others, m, v, vsub, flat_ptr, flat_row, flat_p, decisions, optimal, w, out[r]
        )


@dataclass(frozen=True)
class FlatTurns:
    """The turn trees as distributions over rows (see `_fill_block`): entries
    flat_ptr[i]..flat_ptr[i+1]-1 of (flat_row, flat_p), for i < K the turn of code i, then for
    each decision d its eager option (K + 2d) and its other option (K + 2d + 1). A decision
    appears after every decision nested in its options (bread `again` can land on the canoe)."""

    ptr: IntArray
    row: IntArray
    p: FloatArray
    keys: tuple[tuple[int, int], ...]  # (kind, roll) of each decision
    # The decisions a turn of code c can meet: need_d[need_ptr[c]:need_ptr[c + 1]], ascending,
    # so nested decisions come first.
    need_ptr: IntArray
    need_d: IntArray


def flatten(trees: TurnTrees) -> FlatTurns:
    k = codes.K
    keys: list[tuple[int, int]] = []
    option_dists: list[tuple[dict[int, float], dict[int, float]]] = []

    def walk(i: int, p: float, into: dict[int, float]) -> None:
        t = trees.ntype[i]
        if t == CHANCE:
            for f in range(6):
                walk(int(trees.child[i, f]), p / 6, into)
        elif t == DECIDE:
            key = (int(trees.kind[i]), int(trees.roll[i]))
            if key not in keys:  # the same (kind, roll) has the same subtree everywhere
                eager: dict[int, float] = {}
                other: dict[int, float] = {}
                walk(int(trees.child[i, 0]), 1.0, eager)
                walk(int(trees.child[i, 1]), 1.0, other)
                keys.append(key)
                option_dists.append((eager, other))
            row = k + 2 + keys.index(key)
            into[row] = into.get(row, 0.0) + p
        else:
            leaf = int(trees.leaf[i])
            row = k if leaf == WIN else k + 1 if leaf == DEAD else leaf
            into[row] = into.get(row, 0.0) + p

    roots = []
    for c in range(k):
        dist: dict[int, float] = {}
        walk(int(trees.start[c]), 1.0, dist)
        roots.append(dist)
    dists = roots + [d for pair in option_dists for d in pair]
    ptr = np.zeros(len(dists) + 1, dtype=np.int64)
    ptr[1:] = np.cumsum([len(d) for d in dists])
    row = np.array([r for d in dists for r in sorted(d)], dtype=np.int64)
    p = np.array([d[r] for d in dists for r in sorted(d)], dtype=np.float64)

    def needs(dist: dict[int, float]) -> set[int]:
        found = set()
        for r in dist:
            if r >= k + 2:
                d = r - k - 2
                found |= {d} | needs(option_dists[d][0]) | needs(option_dists[d][1])
        return found

    need = [sorted(needs(root)) for root in roots]
    need_ptr = np.zeros(k + 1, dtype=np.int64)
    need_ptr[1:] = np.cumsum([len(n) for n in need])
    need_d = np.array([d for n in need for d in n], dtype=np.int64)
    return FlatTurns(ptr, row, p, tuple(keys), need_ptr, need_d)


@dataclass(frozen=True)
class Solution:
    """The solved chain of m living players (see the module docstring for `values`)."""

    m: int
    values: FloatArray  # (K**m, m)
    sweeps: int  # the most Gauss-Seidel sweeps any group needed
    updates: float  # state updates done, per state: the work in whole-chain sweeps
    residual: float  # max |V - T V| over every state after the solve
    seconds: float

    def p_win(self, state_index: int = 0) -> list[float]:
        return [float(x) for x in self.values[state_index]]


def solve_joint(
    trees: TurnTrees,
    m: int,
    sub: Solution | None,
    optimal: bool,
    tol: float = 1e-13,
    max_sweeps: int = 100_000,
    threads: int | None = None,
) -> Solution:
    """Solve the m-player chain given the (m-1)-player solution `sub` (None when m = 1), on
    `threads` threads (`solve_stages`: the result does not depend on their number)."""
    began = time.perf_counter()
    flat = flatten(trees)
    order = solve_order(trees, m)
    v = np.zeros((codes.K**m, m), dtype=np.float64)
    vsub = sub.values if sub is not None else np.zeros((1, 1), dtype=np.float64)
    model = chain_model(flat, v, vsub, kernel.policy_rules(optimal))
    if threads is None:  # threads pay off on the 4-player chain
        threads = 1 if len(order.states) < 100_000 else os.cpu_count() or 1
    solved = solve_stages(order, model, tol, max_sweeps, threads)
    return Solution(
        m,
        v,
        int(solved.sweeps.max()),
        solved.updates / len(order.states),
        solved.residual,
        time.perf_counter() - began,
    )


def chain_model(
    flat: FlatTurns, v: FloatArray, vsub: FloatArray, rules: tuple[int, FloatArray, int, FloatArray]
) -> kernel.Model:
    """The kernels' arguments for the chain of values v (K**m rows, m columns), given the
    (m-1)-player values vsub and the decision rules (`kernel.policy_rules`, or rl's)."""
    m = v.shape[1]
    return kernel.Model(
        m, codes.K, v, vsub, flat.ptr, flat.row, flat.p, flat.need_ptr, flat.need_d, *rules
    )


@dataclass(frozen=True)
class Stages:
    """What `solve_stages` did: state updates, sweeps per group, the residual after."""

    updates: int
    sweeps: IntArray
    residual: float


def solve_stages(
    order: SolveOrder, model: kernel.Model, tol: float, max_sweeps: int, threads: int
) -> Stages:
    """Solve one chain (`model`, its values written in place) in `order`, stage by stage, with
    `kernel.solve_groups`, then measure the residual.

    Groups of one stage (equal level sum) never lead to one another (`levels.py`), so `threads`
    threads solve them side by side; each group is solved by one thread, so the result does not
    depend on the number of threads."""
    sweeps = np.zeros(len(order.cyclic), dtype=np.int64)

    def run(groups: IntArray) -> int:
        return int(
            kernel.solve_groups(
                order.states, order.gptr, order.cyclic, groups, *model, tol, max_sweeps, sweeps
            )
        )

    updates = 0
    with ThreadPoolExecutor(threads) as pool:
        for lo, hi in itertools.pairwise(order.stages):
            groups = np.arange(lo, hi, dtype=np.int64)
            if threads == 1 or order.gptr[hi] - order.gptr[lo] < 2_000:
                updates += run(groups)
            else:  # deal the groups out, largest first, to the least loaded thread
                updates += sum(pool.map(run, _deal(groups, order.gptr, threads)))
        chunks = np.array_split(order.states, threads)
        residual = max(pool.map(lambda part: float(kernel.residual(part, *model)), chunks))
    return Stages(updates, sweeps, residual)


def _deal(groups: IntArray, gptr: IntArray, parts: int) -> list[IntArray]:
    size = gptr[groups + 1] - gptr[groups]
    load = np.zeros(parts)
    dealt: list[list[int]] = [[] for _ in range(parts)]
    for g in groups[np.argsort(-size, kind="stable")]:
        t = int(np.argmin(load))
        dealt[t].append(int(g))
        load[t] += gptr[g + 1] - gptr[g]
    return [np.array(sorted(d), dtype=np.int64) for d in dealt]


def option_values(
    trees: TurnTrees, solution: Solution, sub: Solution | None, optimal: bool
) -> dict[tuple[int, int], FloatArray]:
    """For each decision (kind, roll): values[others, option, seat] (option 0 eager, 1 other),
    the win probabilities of every relative seat after each option, for every placing of the
    other m - 1 living pawns (index r of c[1:], as in the state index)."""
    m = solution.m
    flat = flatten(trees)
    vsub = sub.values if sub is not None else np.zeros((1, 1), dtype=np.float64)
    out = np.zeros((codes.K ** (m - 1), max(len(flat.keys), 1), 2, m), dtype=np.float64)
    _option_values(
        m, flat.ptr, flat.row, flat.p, len(flat.keys), solution.values, vsub, optimal, out
    )
    return {key: out[:, d] for d, key in enumerate(flat.keys)}
