"""The exact expected length of a game: every seat's turns until it ends (skipped turns count,
extra rolls belong to their turn), everybody eager, by one more linear solve on the chain; and
the chain's occupation measure (the expected number of turns begun in each state), which
`arising.py` weighs decisions by. For 1 to 4 players, like the win chances.

The states are those of `exact/joint.py`: the codes of the m living pawns in turn order from the
mover, as the index `sum(c[k] * K**(m - 1 - k))`. A turn of the mover with code c ends on a new
code (the seats rotate, with the ship swap when he ends on 36 and others stand on 41), in a win
(the game ends) or in his death (the others' state r in the chain of one player fewer; the last
death ends the game). With Q the transitions where the game goes on:

- the expected turns t solve t = 1 + Q t. Solved in the order of the win chances
  (`exact/levels.py`): the chains of 1, 2, ..., m living pawns, each group by group, downstream
  first, one pass for an acyclic group and Gauss-Seidel sweeps for a cyclic one;
- the occupation measure x solves x = e0 + Q^T x, from the opening of m pawns: the same groups
  in the opposite order (upstream first, and inside an acyclic group the opposite order too, so
  every predecessor is done first), each state pushing what reached it on to its successors;
  a cyclic group is swept until what is left to push in it is 1e-15 of what came in.

Both are numba kernels over flat arrays (4.9 million states for 4 players, a few seconds), and
they check each other: the visits of all states sum to the expected turns.
"""

from __future__ import annotations

import functools
from dataclasses import dataclass

import numba
import numpy as np
import numpy.typing as npt

from robinson.analysis.exact import codes
from robinson.analysis.exact.game import EXACT_MAX_PLAYERS
from robinson.analysis.exact.joint import FlatTurns, flatten
from robinson.analysis.exact.kernel import SWAP_FROM, swap_state
from robinson.analysis.exact.levels import SolveOrder, solve_order
from robinson.analysis.exact.turns import TurnTrees, build_turn_trees
from robinson.analysis.odds.exact import begins_turns, chain_index, turn_order
from robinson.analysis.odds.tables import rules_ruleset
from robinson.engine import Phase, Ruleset, State

EXACT_LENGTH_PLAYERS = EXACT_MAX_PLAYERS
TOLERANCE = 1e-13  # relative change of a value in a cyclic group's last sweep
PUSH_TOLERANCE = 1e-15  # what is left to push in a cyclic group, relative to what came in
MAX_SWEEPS = 100_000
FloatArray = npt.NDArray[np.float64]
IntArray = npt.NDArray[np.int64]


@dataclass(frozen=True)
class EagerTurns:
    """Where an eager turn begun on code c ends: entries ptr[c]..ptr[c + 1] - 1 of (row, p),
    row a code (< K), K a win or K + 1 his death; and the turn trees and flat distributions it
    was read from."""

    ptr: IntArray
    row: IntArray
    p: FloatArray
    trees: TurnTrees
    flat: FlatTurns


def _eager_turn(flat: FlatTurns, c: int) -> dict[int, float]:
    """Where a turn begun on code c ends, eager at every decision: row -> probability."""
    kk = codes.K
    out: dict[int, float] = {}

    def add(e: int, p: float) -> None:
        for x in range(int(flat.ptr[e]), int(flat.ptr[e + 1])):
            row, q = int(flat.row[x]), float(flat.p[x]) * p
            if row < kk + 2:  # a code, a win or a death
                out[row] = out.get(row, 0.0) + q
            else:  # a decision: its eager option (flat index K + 2d)
                add(kk + 2 * (row - kk - 2), q)

    add(c, 1.0)
    return out


@functools.lru_cache(maxsize=8)
def eager_turns(ruleset: Ruleset) -> EagerTurns:
    trees = build_turn_trees(ruleset)
    flat = flatten(trees)
    ends = [sorted(_eager_turn(flat, c).items()) for c in range(codes.K)]
    ptr = np.zeros(codes.K + 1, dtype=np.int64)
    ptr[1:] = np.cumsum([len(e) for e in ends])
    row = np.array([r for e in ends for r, _ in e], dtype=np.int64)
    p = np.array([q for e in ends for _, q in e], dtype=np.float64)
    return EagerTurns(ptr, row, p, trees, flat)


@numba.njit(cache=True)
def _turns(
    states: IntArray,
    gptr: IntArray,
    cyclic: npt.NDArray[np.bool_],
    m: int,
    kk: int,
    t: FloatArray,
    tsub: FloatArray,
    ptr: IntArray,
    row: IntArray,
    p: FloatArray,
    tol: float,
    max_sweeps: int,
) -> int:
    """t[s] = 1 + the expected turns after the turn of state s (module docstring), group by
    group in solving order. Returns the most sweeps a cyclic group needed."""
    krest = kk ** (m - 1)
    most = 0
    for g in range(gptr.shape[0] - 1):
        n = 0
        while True:
            delta = 0.0
            for i in range(gptr[g], gptr[g + 1]):
                s = states[i]
                c0 = s // krest
                r = s - c0 * krest
                swapped = swap_state(r, m, kk)
                acc = 1.0
                for x in range(ptr[c0], ptr[c0 + 1]):
                    o = row[x]
                    if o < kk:
                        nidx = swapped if o == SWAP_FROM and swapped >= 0 else r * kk + o
                        acc += p[x] * t[nidx]
                    elif o == kk + 1 and m > 1:
                        acc += p[x] * tsub[r]
                delta = max(delta, abs(acc - t[s]) / acc)
                t[s] = acc
            n += 1
            if not cyclic[g] or delta <= tol or n >= max_sweeps:
                break
        most = max(most, n)
    return most


@numba.njit(cache=True)
def _visits(
    states: IntArray,
    gptr: IntArray,
    cyclic: npt.NDArray[np.bool_],
    m: int,
    kk: int,
    x: FloatArray,
    inflow: FloatArray,
    insub: FloatArray,
    ptr: IntArray,
    row: IntArray,
    p: FloatArray,
    tol: float,
    max_sweeps: int,
) -> int:
    """x[s] = the expected turns begun in state s: each state, once all that reaches it has
    (`inflow`), pushes it on to its successors (the deaths into `insub`, the chain of one player
    fewer), groups upstream first. Returns the most sweeps a cyclic group needed."""
    krest = kk ** (m - 1)
    most = 0
    for g in range(gptr.shape[0] - 2, -1, -1):
        lo, hi = gptr[g], gptr[g + 1]
        came = 0.0
        for i in range(lo, hi):
            came += inflow[states[i]]
        n = 0
        while came > 0.0:
            for i in range(hi - 1, lo - 1, -1):
                s = states[i]
                mass = inflow[s]
                if mass == 0.0:
                    continue
                inflow[s] = 0.0
                x[s] += mass
                c0 = s // krest
                r = s - c0 * krest
                swapped = swap_state(r, m, kk)
                for e in range(ptr[c0], ptr[c0 + 1]):
                    o = row[e]
                    if o < kk:
                        nidx = swapped if o == SWAP_FROM and swapped >= 0 else r * kk + o
                        inflow[nidx] += mass * p[e]
                    elif o == kk + 1 and m > 1:
                        insub[r] += mass * p[e]
            n += 1
            if not cyclic[g] or n >= max_sweeps:
                break
            left = 0.0
            for i in range(lo, hi):
                left += inflow[states[i]]
            if left <= tol * came:
                break
        most = max(most, n)
    return most


@dataclass(frozen=True)
class Length:
    """The eager chains of 1..`players` living pawns: `turns` the expected turns of a game from
    the opening, `visits[m - 1]` the expected turns begun in each state of the chain of m living
    pawns (K**m, by state index), `sweeps` the most any cyclic group needed per chain (in either
    solve)."""

    players: int
    turns: float
    visits: tuple[FloatArray, ...]
    sweeps: tuple[int, ...]

    @property
    def total_visits(self) -> float:
        return float(sum(float(v.sum()) for v in self.visits))


def _check_players(players: object) -> None:
    if type(players) is not int or not 1 <= players <= EXACT_LENGTH_PLAYERS:
        raise ValueError(f"the exact length covers 1 to {EXACT_LENGTH_PLAYERS} players")


@functools.lru_cache(maxsize=4)
def _orders(ruleset: Ruleset, players: int) -> tuple[SolveOrder, ...]:
    trees = eager_turns(ruleset).trees
    return tuple(solve_order(trees, m) for m in range(1, players + 1))


@functools.lru_cache(maxsize=4)
def turns_to_go(ruleset: Ruleset, players: int) -> tuple[tuple[FloatArray, ...], tuple[int, ...]]:
    """The expected turns t of the chains of 1..`players` living pawns, everybody eager:
    `[0][m - 1][s]` every seat's turns from the start of a turn in state s of the chain of m
    until the game ends, that turn included; `[1]` the most sweeps a cyclic group needed per
    chain."""
    _check_players(players)
    turns = eager_turns(ruleset)
    args = (turns.ptr, turns.row, turns.p)
    kk = codes.K
    orders = _orders(ruleset, players)
    t_sub = np.zeros(1)
    tables: list[FloatArray] = []
    sweeps = []
    for m in range(1, players + 1):  # the smaller chains first
        order = orders[m - 1]
        t = np.zeros(kk**m)
        sweeps.append(_turns(order.states, order.gptr, order.cyclic, m, kk, t, t_sub, *args,
                             TOLERANCE, MAX_SWEEPS))  # fmt: skip
        tables.append(t)
        t_sub = t
    if max(sweeps) >= MAX_SWEEPS:
        raise RuntimeError(f"a cyclic group did not converge in {MAX_SWEEPS} sweeps")
    return tuple(tables), tuple(sweeps)


@functools.lru_cache(maxsize=4)
def eager_length(ruleset: Ruleset, players: int) -> Length:
    """Both solves for `players` (1..4) under `ruleset`, everybody eager."""
    _check_players(players)
    turns = eager_turns(ruleset)
    args = (turns.ptr, turns.row, turns.p)
    kk = codes.K
    orders = _orders(ruleset, players)
    tables, solved = turns_to_go(ruleset, players)
    t_sub = tables[-1]
    sweeps = list(solved)
    inflow = np.zeros(kk**players)
    inflow[0] = 1.0  # the opening: every pawn on 0, seat 0 to move
    visits: list[FloatArray] = []
    for m in range(players, 0, -1):  # the occupation measure, the larger chains first
        order = orders[m - 1]
        x = np.zeros(kk**m)
        insub = np.zeros(kk ** (m - 1))
        pushed = _visits(order.states, order.gptr, order.cyclic, m, kk, x, inflow, insub, *args,
                         PUSH_TOLERANCE, MAX_SWEEPS)  # fmt: skip
        sweeps[m - 1] = max(sweeps[m - 1], pushed)
        visits.append(x)
        inflow = insub
    if max(sweeps) >= MAX_SWEEPS:
        raise RuntimeError(f"a cyclic group did not converge in {MAX_SWEEPS} sweeps")
    return Length(players, float(t_sub[0]), tuple(reversed(visits)), tuple(sweeps))


def expected_turns(ruleset: Ruleset, players: int) -> float:
    """Every seat's turns from the opening until the game ends, in expectation (1..4 players)."""
    return float(turns_to_go(ruleset, players)[0][-1][0])


def turns_from(state: State) -> float | None:
    """Every seat's turns from the position `state` until the game ends, in expectation,
    everybody eager, the turn under way counting as one (0 once the game is over): the chain's
    t at the position's state, as the odds find it (`odds.exact`). Exact only at a roll of at
    most four living players from a square where a turn can begin (an extra roll inside a turn
    from there plays as a new turn would); None elsewhere: a decision pending, five or more
    living, or `classic`'s compulsory roll on 20."""
    if state.over:
        return 0.0
    if state.phase is not Phase.ROLL:
        return None
    order = turn_order(state)
    if len(order) > EXACT_LENGTH_PLAYERS or not begins_turns(state):
        return None
    m = len(order)
    return float(turns_to_go(rules_ruleset(state.ruleset), m)[0][m - 1][chain_index(state, order)])


def visits(ruleset: Ruleset, players: int) -> tuple[FloatArray, ...]:
    """The expected number of turns begun in each state from the opening, per chain:
    `[m - 1]` the chain of m living pawns, by state index (`Length.visits`)."""
    return eager_length(ruleset, players).visits
