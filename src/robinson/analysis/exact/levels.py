"""The order in which the joint chain is solved: groups of states, downstream groups first.

The chain is almost acyclic. One pawn's codes form a small graph (an edge c -> c' when some turn
begun on c can end on c', whatever the decisions, plus the ship swap 36 <-> 41); its strongly
connected components are single codes except where a pawn can come back: the footprint
(14..24 -> 14), the bounces and the ship swap (36..44), the tree's `stay` (7 -> 7), the
shipwreck's `restart` (4 -> 1..3 -> 4). Number the components in topological order: a code's
**level**. A turn changes only the mover's code, to one of equal or higher level (a swapped pawn
stays in the component {36..44}), and a death leaves for the chain of one player fewer. So the
multiset of the pawns' levels never goes down: states with the same multiset form a **group**, and
every transition leaving a group enters a group of larger level sum.

Solving group by group in decreasing level sum therefore sees every successor outside the group
already final. Inside a group:
- if some pawn's level is *acyclic* (a single code without a self-loop), the group holds no
  cycle: such a pawn leaves the group on his own turn, and a cycle of states would need a turn
  of every pawn (the seats rotate once per turn). With j the place, counted from the mover, of the
  first such pawn, a turn inside the group lowers j by one, so one pass in increasing j is exact;
- otherwise (every pawn in the footprint, the end zone, on the tree...) the group is iterated by
  Gauss-Seidel to convergence, most advanced states first.
A wrong level (a transition this graph misses) would leave a non-zero Bellman residual, which
`joint.solve_joint` measures over every state after the solve.
"""

from __future__ import annotations

import graphlib
from dataclasses import dataclass

import numba
import numpy as np
import numpy.typing as npt
from scipy.sparse import csr_array  # type: ignore[import-untyped]
from scipy.sparse.csgraph import connected_components  # type: ignore[import-untyped]

from robinson.analysis.exact import codes
from robinson.analysis.exact.turns import LEAF, TurnTrees
from robinson.engine import SHIP, SHIP_SWAP

SWAP_FROM, SWAP_TO = SHIP, SHIP_SWAP
IntArray = npt.NDArray[np.int64]
BoolArray = npt.NDArray[np.bool_]


def reachable_codes(trees: TurnTrees) -> BoolArray:
    """Codes a pawn can hold at the start of a turn: 0, and every code some turn ends on
    (whatever the decisions), closed under the ship swap (36 <-> 41)."""
    ok = np.zeros(codes.K, dtype=bool)
    ok[0] = True
    ends = trees.leaf[(trees.ntype == LEAF) & (trees.leaf >= 0)]
    ok[ends] = True
    if ok[SWAP_FROM]:
        ok[SWAP_TO] = True
    return ok


def code_graph(trees: TurnTrees) -> npt.NDArray[np.bool_]:
    """edge[c, c']: a turn begun on code c can end on c' (any decisions), or the swap moves a
    pawn between 36 and 41."""
    edge = np.zeros((codes.K, codes.K), dtype=bool)
    for c in range(codes.K):
        nodes = np.arange(trees.start[c], trees.start[c + 1])
        ends = trees.leaf[nodes[(trees.ntype[nodes] == LEAF) & (trees.leaf[nodes] >= 0)]]
        edge[c, ends] = True
    edge[SWAP_FROM, SWAP_TO] = edge[SWAP_TO, SWAP_FROM] = True
    return edge


@dataclass(frozen=True)
class Levels:
    level: IntArray  # level[c]: topological index of c's component (-1: code never held)
    cyclic: BoolArray  # cyclic[c]: c's component holds a cycle (a pawn can come back to it)
    count: int  # number of levels


def code_levels(trees: TurnTrees) -> Levels:
    ok = reachable_codes(trees)
    edge = code_graph(trees) & ok[:, None] & ok[None, :]
    n, label = connected_components(csr_array(edge), directed=True, connection="strong")
    size = np.bincount(label[ok], minlength=n)
    component_cyclic = size > 1
    for c in np.flatnonzero(ok & np.diag(edge)):
        component_cyclic[label[c]] = True
    # Topological order of the components: every edge goes from a lower level to a higher one.
    before: dict[int, set[int]] = {int(x): set() for x in np.unique(label[ok])}
    for a, b in zip(*np.nonzero(edge), strict=True):
        if label[a] != label[b]:
            before[int(label[b])].add(int(label[a]))
    topo = {comp: i for i, comp in enumerate(graphlib.TopologicalSorter(before).static_order())}
    level = np.array([topo[int(label[c])] if ok[c] else -1 for c in range(codes.K)])
    cyclic = np.array([bool(ok[c] and component_cyclic[label[c]]) for c in range(codes.K)])
    return Levels(level.astype(np.int64), cyclic, len(topo))


@dataclass(frozen=True)
class SolveOrder:
    """`states[gptr[g]:gptr[g + 1]]` are the states of group g in the order to visit them;
    groups are listed in the order to solve them; `cyclic[g]`: group g must be iterated.
    Groups `stages[i]:stages[i + 1]` have the same level sum: they can be solved side by side."""

    states: IntArray
    gptr: IntArray
    cyclic: BoolArray
    stages: IntArray


def solve_order(trees: TurnTrees, m: int) -> SolveOrder:
    """Every state of m pawns whose codes a pawn can hold, grouped and ordered (module doc)."""
    lv = code_levels(trees)
    square = np.array(codes.SQUARE_OF_CODE, dtype=np.int64)
    n = int((lv.level >= 0).sum()) ** m
    index, group, within = (np.empty(n, dtype=np.int64) for _ in range(3))
    _classify(m, lv.level, lv.cyclic, square, lv.count, index, group, within)
    # A group's id: its sorted levels in base `count`. Groups in solving order: decreasing level
    # sum, then by id (any order of equal sums would do: they never lead to one another).
    ids = np.flatnonzero(np.bincount(group, minlength=lv.count**m))
    total = np.zeros(len(ids), dtype=np.int64)
    cyclic = np.ones(len(ids), dtype=bool)
    level_cyclic = np.zeros(lv.count, dtype=bool)
    level_cyclic[lv.level[lv.level >= 0]] = lv.cyclic[lv.level >= 0]
    rest = ids.copy()
    for _ in range(m):
        total += rest % lv.count
        cyclic &= level_cyclic[rest % lv.count]
        rest //= lv.count
    by = np.lexsort((ids, -total))
    ids, total, cyclic = ids[by], total[by], cyclic[by]
    rank = np.zeros(lv.count**m, dtype=np.int64)
    rank[ids] = np.arange(len(ids))
    span = int(within.max()) + 1
    states = _bucket_sort(index, rank[group] * span + within, len(ids) * span)
    gptr = np.zeros(len(ids) + 1, dtype=np.int64)
    gptr[1:] = np.cumsum(np.bincount(rank[group], minlength=len(ids)))
    stages = np.concatenate(([0], np.flatnonzero(np.diff(total)) + 1, [len(ids)]))
    return SolveOrder(states, gptr, cyclic, stages.astype(np.int64))


@numba.njit(cache=True)
def _classify(
    m: int,
    level: IntArray,
    cyclic: BoolArray,
    square: IntArray,
    count: int,
    index: IntArray,
    group: IntArray,
    within: IntArray,
) -> None:
    """For every state of held codes (in index order): its index, its group's id (sorted levels
    in base `count`) and its place inside the group: for an acyclic group j, the place of the
    first acyclic pawn from the mover; for a cyclic group the progress still to make (most
    advanced first)."""
    kk = level.shape[0]
    most = (kk - 1) * m
    digits = np.zeros(m, dtype=np.int64)
    levels = np.zeros(m, dtype=np.int64)
    n = 0
    for s in range(kk**m):
        rest = s
        held = True
        for k in range(m - 1, -1, -1):
            digits[k] = rest % kk
            rest //= kk
            if level[digits[k]] < 0:
                held = False
        if not held:
            continue
        first_acyclic = -1
        progress = 0
        for k in range(m):
            progress += square[digits[k]]
            if first_acyclic < 0 and not cyclic[digits[k]]:
                first_acyclic = k
            x = level[digits[k]]  # insertion sort: levels[:k + 1] ascending
            i = k
            while i > 0 and levels[i - 1] > x:
                levels[i] = levels[i - 1]
                i -= 1
            levels[i] = x
        gid = 0
        for k in range(m):
            gid = gid * count + levels[k]
        index[n] = s
        group[n] = gid
        within[n] = most - progress if first_acyclic < 0 else first_acyclic
        n += 1


@numba.njit(cache=True)
def _bucket_sort(values: IntArray, key: IntArray, buckets: int) -> IntArray:
    """values ordered by key (0 <= key < buckets), stably: a counting sort, O(n + buckets)."""
    start = np.zeros(buckets + 1, dtype=np.int64)
    for x in key:
        start[x + 1] += 1
    for b in range(buckets):
        start[b + 1] += start[b]
    out = np.empty_like(values)
    for i in range(values.shape[0]):
        out[start[key[i]]] = values[i]
        start[key[i]] += 1
    return out
