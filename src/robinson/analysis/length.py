"""The exact expected length of a game: every seat's turns until it ends (skipped turns count,
extra rolls belong to their turn), everybody eager, by one more linear solve on the chain.

The joint chain of `exact/joint.py` solves win chances; its states and transitions also give the
length. State: the codes of the living pawns in turn order from the mover (the chains of m,
m - 1, ..., 1 living players, one after the other, since a death leaves for the chain of one
player fewer). A turn of the mover with code c ends on a new code (the seats rotate, with the
ship swap when he ends on 36 and others stand on 41), in a win (the game ends) or in his death
(the others' state in the smaller chain; the last death ends the game). With Q the transitions
between states where the game goes on, the expected turns t solve (I - Q) t = 1: a sparse system
of 45^m + ... + 45 unknowns in `standard` (93,195 for 3 players), solved by iterating
t = 1 + Q t from 0 (a direct LU solve of the 3-player system filled in past 3.7 GB in 11 minutes
before it was stopped). Four players (4.2 million unknowns, about 60 million transitions) are
left out: this module builds its transitions in Python.
"""

from __future__ import annotations

import functools
from dataclasses import dataclass
from typing import Any

import numpy as np
import numpy.typing as npt
from scipy.sparse import csr_array  # type: ignore[import-untyped]

from robinson.analysis.exact import codes
from robinson.analysis.exact.joint import FlatTurns, flatten
from robinson.analysis.exact.kernel import SWAP_FROM, SWAP_TO
from robinson.analysis.exact.levels import reachable_codes
from robinson.analysis.exact.turns import build_turn_trees
from robinson.engine import Ruleset

EXACT_LENGTH_PLAYERS = 3
TOLERANCE = 1e-13  # relative change of the last iteration
MAX_ITERATIONS = 100_000
WIN, DEATH = -1, -2


def _eager_turn(flat: FlatTurns, c: int) -> dict[int, float]:
    """Where a turn begun on code c ends, eager at every decision: new code, WIN or DEATH."""
    kk = codes.K
    out: dict[int, float] = {}

    def add(e: int, p: float) -> None:
        for x in range(int(flat.ptr[e]), int(flat.ptr[e + 1])):
            row, q = int(flat.row[x]), float(flat.p[x]) * p
            if row < kk:
                out[row] = out.get(row, 0.0) + q
            elif row == kk:
                out[WIN] = out.get(WIN, 0.0) + q
            elif row == kk + 1:
                out[DEATH] = out.get(DEATH, 0.0) + q
            else:  # a decision: its eager option (flat index K + 2d)
                add(kk + 2 * (row - kk - 2), q)

    add(c, 1.0)
    return out


@dataclass(frozen=True)
class EagerChain:
    """The chains of players, players - 1, ..., 1 living pawns under eager play: `index` of each
    state (the codes from the mover), `q[i, j]` the chance that a turn from state i leads to
    state j (the game going on), and per held code the turn's end (`turns`)."""

    index: dict[tuple[int, ...], int]
    q: Any  # scipy csr_array, n x n
    flat: FlatTurns
    held: list[int]

    @property
    def opening(self) -> int:
        players = len(next(iter(self.index)))
        return self.index[(0,) * players]


@functools.lru_cache(maxsize=8)
def eager_chain(ruleset: Ruleset, players: int) -> EagerChain:
    if not 1 <= players <= EXACT_LENGTH_PLAYERS:
        raise ValueError(f"the exact length covers 1 to {EXACT_LENGTH_PLAYERS} players")
    trees = build_turn_trees(ruleset)
    flat = flatten(trees)
    held = [c for c, ok in enumerate(reachable_codes(trees)) if ok]
    turns = {c: _eager_turn(flat, c) for c in held}
    # Number the states of the chains of players, players - 1, ..., 1 living pawns.
    index: dict[tuple[int, ...], int] = {}
    for m in range(players, 0, -1):
        for state in np.ndindex(*([len(held)] * m)):
            index[tuple(held[i] for i in state)] = len(index)
    rows, cols, probs = [], [], []
    for state, i in index.items():
        mover, others = state[0], state[1:]
        for outcome, p in turns[mover].items():
            if outcome == WIN:
                continue
            if outcome == DEATH:
                if others:
                    rows.append(i)
                    cols.append(index[others])
                    probs.append(p)
                continue
            after = list(others)
            end = outcome
            if outcome == SWAP_FROM and SWAP_TO in after:  # the ship: swap with those on 41
                after = [SWAP_FROM if c == SWAP_TO else c for c in after]
                end = SWAP_TO
            rows.append(i)
            cols.append(index[(*after, end)])
            probs.append(p)
    n = len(index)
    return EagerChain(index, csr_array((probs, (rows, cols)), shape=(n, n)), flat, held)


def fixed_point(step: Any, n: int) -> npt.NDArray[np.float64]:
    """x = step(x) by iteration from 0: `step` is x -> b + (Q or Q^T) x with Q substochastic
    (every game ends), so the iterates rise to the solution; a direct LU solve of the 3-player
    system fills in far too much."""
    x: npt.NDArray[np.float64] = np.zeros(n)
    for _ in range(MAX_ITERATIONS):
        after = step(x)
        if float(np.max(np.abs(after - x))) <= TOLERANCE * float(np.max(after)):
            return after  # type: ignore[no-any-return]
        x = after
    raise RuntimeError(f"no convergence in {MAX_ITERATIONS} iterations")


@functools.lru_cache(maxsize=8)
def expected_turns(ruleset: Ruleset, players: int) -> float:
    """Every seat's turns from the opening until the game ends, in expectation (1..3 players)."""
    chain = eager_chain(ruleset, players)
    t = fixed_point(lambda x: 1.0 + chain.q @ x, len(chain.index))
    return float(t[chain.opening])


def visits(ruleset: Ruleset, players: int) -> npt.NDArray[np.float64]:
    """The expected number of turns begun in each state of `eager_chain`, from the opening:
    the occupation measure x = e0 + Q^T x."""
    chain = eager_chain(ruleset, players)
    start = np.zeros(len(chain.index))
    start[chain.opening] = 1.0
    qt = chain.q.T.tocsr()
    return fixed_point(lambda x: start + qt @ x, len(chain.index))
