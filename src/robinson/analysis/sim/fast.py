"""Runs of games on the compiled simulator (`kernel.py`)."""

from __future__ import annotations

import numba
import numpy as np
import numpy.typing as npt

from robinson.analysis.sim.batch import SQUARE_COUNT, Batch, Setup
from robinson.analysis.sim.dice import check_seed
from robinson.analysis.sim.kernel import board_tables, play_games
from robinson.analysis.sim.policies import FastPolicy
from robinson.engine import Fever, new_game

# A game that has not ended after this many rolls is cut (only a policy that refuses to move
# forever, e.g. always staying in the tree, can get here: eager games end within a few hundred).
MAX_ROLLS = 100_000

_KINDS, _AMOUNTS = board_tables()


def run_batch(
    setup: Setup,
    tables: npt.NDArray[np.int8] | FastPolicy,
    offset: int,
    count: int,
) -> Batch:
    """Games offset .. offset+count-1 of `setup`, each seat playing its table (or the policy)."""
    policy = tables if isinstance(tables, FastPolicy) else FastPolicy(tables)
    tables = policy.tables
    new_game(setup.players, setup.ruleset, setup.first)  # validates players and first seat
    check_seed(setup.seed)
    if tables.shape != (setup.players, 4, 7):
        raise ValueError(f"expected decision tables of shape ({setup.players}, 4, 7)")
    rs = setup.ruleset
    batch = Batch.empty(offset, count, setup.players)
    # a few blocks per thread balance uneven game lengths without much bookkeeping
    blocks = max(1, min(count, 8 * numba.get_num_threads()))
    landings = np.zeros((blocks, SQUARE_COUNT), np.int64)
    play_games(
        np.uint64(setup.seed), offset, count, setup.players, setup.first,
        rs.optional_choices, rs.fever is Fever.EXTRA_ROLL, rs.share_divisor,
        rs.start_tokens - rs.stake, rs.stake, _KINDS, _AMOUNTS,
        np.ascontiguousarray(tables, dtype=np.int8), policy.joint, policy.offsets,
        MAX_ROLLS, blocks,
        batch.winner, batch.rolls, batch.turns, batch.winner_turns, batch.bank, batch.pot,
        batch.bindings, batch.position, batch.purse, batch.alive, batch.friday, landings,
    )  # fmt: skip
    batch.landings[:] = landings.sum(axis=0)
    return batch
