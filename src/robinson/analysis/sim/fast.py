"""Runs of games on the compiled simulator (`kernel.py`), spread over the cores.

The games of a batch are cut into blocks, a few per thread, and each block is one call of the
compiled `play_block` (or `play_winners`, for the odds) on a thread of a pool kept for the
process: the compiled code lets go of the GIL (`nogil`), so the threads run in parallel. (numba's
own `prange` does the same but takes seconds longer to compile, which every fresh checkout and CI
run pays.) The number of threads is numba's (`NUMBA_NUM_THREADS`, `numba.set_num_threads`), by
default one per core.
"""

from __future__ import annotations

import os
import threading
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from typing import TypeAlias

import numba
import numpy as np
import numpy.typing as npt

from robinson.analysis.sim.batch import SQUARE_COUNT, Batch, Setup
from robinson.analysis.sim.dice import check_seed
from robinson.analysis.sim.kernel import LANDING_COLUMNS, play_block, play_winners
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

# The kernel's arguments from `n` to `max_rolls` (`kernel.play_block`).
_I8: TypeAlias = npt.NDArray[np.int8]
_I32: TypeAlias = npt.NDArray[np.int32]
_I64: TypeAlias = npt.NDArray[np.int64]
_KernelArgs: TypeAlias = tuple[
    int, _I64, bool, bool, int, _I32, _I8, _I32, _I32, _I8, npt.NDArray[np.uint8], _I64, int
]

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
    args = _kernel_args(setup, tables)
    batch = Batch.empty(offset, count, setup.players) if out is None else out.head(offset, count)
    if batch.position.shape[1] != setup.players:
        raise ValueError(f"expected a batch with {setup.players} seats")
    b = batch

    def play(lo: int, hi: int, landings: npt.NDArray[np.int64], g: npt.NDArray[np.int64]) -> None:
        play_block(
            np.uint64(setup.seed), offset + lo, *args,
            b.winner[lo:hi], b.rolls[lo:hi], b.turns[lo:hi], b.winner_turns[lo:hi],
            b.bank[lo:hi], b.pot[lo:hi], b.bindings[lo:hi], b.position[lo:hi], b.purse[lo:hi],
            b.alive[lo:hi], b.friday[lo:hi], landings, g,
        )  # fmt: skip

    landings = _in_blocks(count, play)
    batch.landings[:] = landings.sum(axis=0)[_GAP : _GAP + SQUARE_COUNT]
    for square, target in footprints(setup.ruleset.board):  # 25 goes on to 14
        batch.landings[target] += batch.landings[square]
    return batch


def run_winners(
    setup: Setup, tables: npt.NDArray[np.int8] | FastPolicy, offset: int, count: int
) -> npt.NDArray[np.int8]:
    """Only `run_batch(...).winner`: the same games, played without the money and the counts
    nobody reads for the odds (`kernel.play_winners`), so faster."""
    args = _kernel_args(setup, tables, money=False)
    winner = np.empty(count, np.int8)

    def play(lo: int, hi: int, landings: npt.NDArray[np.int64], g: npt.NDArray[np.int64]) -> None:
        play_winners(np.uint64(setup.seed), offset + lo, *args, winner[lo:hi], landings, g)

    _in_blocks(count, play)
    return winner


def _kernel_args(
    setup: Setup, tables: npt.NDArray[np.int8] | FastPolicy, money: bool = True
) -> _KernelArgs:
    """The kernel's arguments from `n` to `max_rolls`, checked; the steps without the money
    squares for `play_winners` (`steps.build_steps`)."""
    policy = tables if isinstance(tables, FastPolicy) else FastPolicy(tables)
    local = policy.tables
    new_game(setup.players, setup.ruleset, setup.first)  # validates players and first seat
    start = start_position(setup.start())
    check_seed(setup.seed)
    if local.shape != (setup.players, 4, 7):
        raise ValueError(f"expected decision tables of shape ({setup.players}, 4, 7)")
    rs = setup.ruleset
    local = np.ascontiguousarray(local, dtype=np.int8)
    fever_extra = rs.fever is Fever.EXTRA_ROLL
    kinds, amounts, targets = board_tables(rs.board)
    joint = len(policy.joint) > 0
    steps = build_steps(local, rs.optional_choices, fever_extra, joint, rs.board, money)
    return (
        setup.players, start, rs.optional_choices, fever_extra, rs.share_divisor, steps, kinds,
        amounts, targets, local, policy.joint, policy.offsets, MAX_ROLLS,
    )  # fmt: skip


def _in_blocks(
    count: int,
    play: Callable[[int, int, npt.NDArray[np.int64], npt.NDArray[np.int64]], None],
) -> npt.NDArray[np.int64]:
    """`play(lo, hi, landings, g)` for blocks of games 0..count-1 covering them all, on numba's
    number of threads; each block gets its own scratch rows. Returns the landing rows."""
    threads = numba.get_num_threads()
    # a few blocks per thread balance uneven game lengths without much bookkeeping
    blocks = max(1, min(count, 8 * threads if count >= 4096 * threads else threads))
    edges = [count * b // blocks for b in range(blocks + 1)]
    # Each block's scratch rows are far apart: two threads writing to one cache line (false
    # sharing) would slow both down as much as running on one core.
    landings = np.zeros((blocks, _ROW), np.int64)
    state = np.zeros((blocks, _ROW), np.int64)

    def block(k: int) -> None:
        play(
            edges[k], edges[k + 1],
            landings[k, _GAP : _GAP + LANDING_COLUMNS], state[k, _GAP : _GAP + STATE_SIZE],
        )  # fmt: skip

    if threads == 1 or blocks == 1:
        for k in range(blocks):
            block(k)
    else:
        list(_pool(threads).map(block, range(blocks)))
    return landings


_pools: dict[int, ThreadPoolExecutor] = {}
_pools_lock = threading.Lock()


def _pool(threads: int) -> ThreadPoolExecutor:
    """A pool of `threads` threads kept for the process: starting threads for every call took
    milliseconds on a busy machine, as long as thousands of games (the odds call this once a
    position)."""
    with _pools_lock:
        pool = _pools.get(threads)
        if pool is None:
            pool = _pools[threads] = ThreadPoolExecutor(threads, thread_name_prefix="robinson-sim")
        return pool


def _forget_pools() -> None:
    """In a forked child: the parent's pool threads do not exist there, and its lock may have
    been held at the fork."""
    global _pools_lock
    _pools_lock = threading.Lock()
    _pools.clear()


os.register_at_fork(after_in_child=_forget_pools)


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
