"""Runs of games on the compiled simulator (`kernel.py`), spread over the cores.

The games of a batch are cut into blocks, a few per thread, and each block is one call of the
compiled `play_block` on a Python thread: the compiled code lets go of the GIL (`nogil`), so the
threads run in parallel. (numba's own `prange` does the same but takes seconds longer to
compile, which every fresh checkout and CI run pays.) The number of threads is numba's
(`NUMBA_NUM_THREADS`, `numba.set_num_threads`), by default one per core.
"""

from __future__ import annotations

from concurrent.futures import ThreadPoolExecutor

import numba
import numpy as np
import numpy.typing as npt

from robinson.analysis.sim.batch import SQUARE_COUNT, Batch, Setup
from robinson.analysis.sim.dice import check_seed
from robinson.analysis.sim.kernel import LANDING_COLUMNS, play_block
from robinson.analysis.sim.policies import FastPolicy
from robinson.analysis.sim.special import (
    ALIVE,
    FRIDAY_OF,
    LIVING,
    POS,
    PURSE,
    SKIPS,
    STATE_SIZE,
    TURNS,
    relink,
)
from robinson.analysis.sim.steps import board_tables, build_steps, footprints
from robinson.engine import Fever, Phase, State, new_game

# A game that has not ended after this many rolls is cut (only a policy that refuses to move
# forever, e.g. always staying in the tree, can get here: eager games end within a few hundred).
MAX_ROLLS = 100_000

_GAP = 32  # int64s (256 bytes) between one block's scratch row and the next one's
_ROW = _GAP + max(LANDING_COLUMNS, STATE_SIZE) + _GAP


def run_batch(
    setup: Setup,
    tables: npt.NDArray[np.int8] | FastPolicy,
    offset: int,
    count: int,
    out: Batch | None = None,
) -> Batch:
    """Games offset .. offset+count-1 of `setup`, each seat playing its table (or the policy).
    With `out`, its rows are reused (no new memory to fault in; the result is a view of it)."""
    policy = tables if isinstance(tables, FastPolicy) else FastPolicy(tables)
    tables = policy.tables
    new_game(setup.players, setup.ruleset, setup.first)  # validates players and first seat
    start = start_position(setup.start())
    check_seed(setup.seed)
    if tables.shape != (setup.players, 4, 7):
        raise ValueError(f"expected decision tables of shape ({setup.players}, 4, 7)")
    rs = setup.ruleset
    batch = Batch.empty(offset, count, setup.players) if out is None else out.head(offset, count)
    if batch.position.shape[1] != setup.players:
        raise ValueError(f"expected a batch with {setup.players} seats")
    threads = numba.get_num_threads()
    # a few blocks per thread balance uneven game lengths without much bookkeeping
    blocks = max(1, min(count, 8 * threads if count >= 4096 * threads else threads))
    edges = [count * b // blocks for b in range(blocks + 1)]
    # Each block's scratch rows are far apart: two threads writing to one cache line (false
    # sharing) would slow both down as much as running on one core.
    landings = np.zeros((blocks, _ROW), np.int64)
    state = np.zeros((blocks, _ROW), np.int64)
    tables = np.ascontiguousarray(tables, dtype=np.int8)
    fever_extra = rs.fever is Fever.EXTRA_ROLL
    board = rs.board
    kinds, amounts, targets = board_tables(board)
    steps = build_steps(tables, rs.optional_choices, fever_extra, len(policy.joint) > 0, board)
    b = batch

    def play(block: int) -> None:
        lo, hi = edges[block], edges[block + 1]
        play_block(
            np.uint64(setup.seed), offset + lo, setup.players, start,
            rs.optional_choices, fever_extra, rs.share_divisor, steps, kinds, amounts, targets,
            tables, policy.joint, policy.offsets, MAX_ROLLS,
            b.winner[lo:hi], b.rolls[lo:hi], b.turns[lo:hi], b.winner_turns[lo:hi],
            b.bank[lo:hi], b.pot[lo:hi], b.bindings[lo:hi], b.position[lo:hi], b.purse[lo:hi],
            b.alive[lo:hi], b.friday[lo:hi], landings[block, _GAP : _GAP + LANDING_COLUMNS],
            state[block, _GAP : _GAP + STATE_SIZE],
        )  # fmt: skip

    if threads == 1 or blocks == 1:
        for block in range(blocks):
            play(block)
    else:
        with ThreadPoolExecutor(threads) as pool:
            list(pool.map(play, range(blocks)))
    batch.landings[:] = landings.sum(axis=0)[_GAP : _GAP + SQUARE_COUNT]
    for square, target in footprints(board):  # 25 goes on to 14
        batch.landings[target] += batch.landings[square]
    return batch


def start_position(state: State) -> npt.NDArray[np.int64]:
    """A position at a roll in the kernel's layout: the game state of `special.py` (turn order
    linked among the living, the shipwreck mark being the square itself), then the bank and the
    seat to roll. The turn being played counts as the mover's first turn."""
    if state.phase is not Phase.ROLL or state.to_move is None:
        raise ValueError(f"games start from a position at a roll, got {state.phase.value!r}")
    n = len(state.players)
    start = np.zeros(STATE_SIZE + 2, np.int64)
    for seat, p in enumerate(state.players):
        start[POS + seat] = p.position
        start[PURSE + seat] = p.purse
        start[ALIVE + seat] = p.alive
        start[FRIDAY_OF + seat] = -1 if p.friday is None else p.friday
        start[SKIPS + seat] = p.skips
    start[TURNS + state.to_move] = 1
    start[LIVING] = len(state.living)
    relink(start, n)
    start[STATE_SIZE] = state.bank
    start[STATE_SIZE + 1] = state.to_move
    return start
