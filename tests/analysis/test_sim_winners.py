"""The winners-only kernel (`fast.run_winners`, used by the simulated odds) plays the same games
as the full one (`fast.run_batch`, which `test_sim_engine.py` holds to the engine): it leaves the
money, the landings and the turn counts out (and plays the squares whose effect is money alone as
plain steps), and must still give every game's winner, cut games included, from the opening and
from any position, under every edition and decision table."""

from __future__ import annotations

import multiprocessing
import random

import numba
import numpy as np
import pytest
from odds_positions import constructed, eager, played

from robinson.analysis.sim import fast
from robinson.analysis.sim.batch import Setup
from robinson.analysis.sim.policies import fast_policy, fast_tables
from robinson.analysis.sim.steps import (
    AMOUNT_MASK,
    EXTRA,
    FRIDAY,
    LAND_SHIFT,
    NEIGHBOUR,
    PAY_SHIFT,
    RECEIVE_SHIFT,
    RESCUE,
    SKIP,
    SPECIAL,
    SQUARE_MASK,
    TRAVEL,
    board_tables,
    build_steps,
)
from robinson.bots import make_bot
from robinson.engine import EDITIONS, Fever, Phase, Ruleset, State, apply

GAMES = 4000


def _at_roll(state: State) -> State:
    while state.phase not in (Phase.ROLL, Phase.OVER):
        state, _ = apply(state, eager(state))
    return state


def _tables(kind: str, ruleset: Ruleset, players: int, rng: np.random.Generator) -> np.ndarray:
    if kind in ("eager", "heuristic"):
        return fast_tables(make_bot(kind).choose, ruleset, players)
    tables = rng.integers(0, 2, size=(players, 4, 7)).astype(np.int8)
    # "stall": every seat stays in the tree for ever, so games of pawns stuck there are cut
    tables[:, 1, :] = 0 if kind == "stall" else rng.random((players, 7)) < 0.8
    return tables


@pytest.mark.parametrize("edition", list(EDITIONS))
def test_winners_only_equal_the_full_kernels_winners(
    edition: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(fast, "MAX_ROLLS", 400)  # random tables stall: cut games must agree too
    rng = random.Random(sum(map(ord, edition)))
    nrng = np.random.default_rng(rng.randrange(2**32))
    cut = 0
    for players in range(2, 9):
        start_tokens = rng.randint(3, 40)
        rs = Ruleset(edition, start_tokens=start_tokens, stake=rng.randint(0, start_tokens))
        positions: list[State | None] = [None]
        if players >= 4:
            positions.append(_at_roll(played(rng, rs, players)))
            positions.append(_at_roll(constructed(rng, rs, players, rng.randint(0, 2))))
        for position in positions:
            if position is not None and position.over:
                continue
            for kind in ("eager", "heuristic", "random", "stall"):
                setup = Setup(
                    rs, players, first=rng.randrange(players), seed=rng.randrange(2**64),
                    position=position,
                )  # fmt: skip
                tables = _tables(kind, rs, players, nrng)
                offset = rng.randrange(10**9)
                full = fast.run_batch(setup, tables, offset, GAMES).winner
                only = fast.run_winners(setup, tables, offset, GAMES)
                label = (edition, players, kind, position)
                assert only.dtype == full.dtype and np.array_equal(only, full), label
                cut += int((full == -2).sum())
    if rs.optional_choices:  # without choices nobody stays in the tree: no game is cut
        assert cut > 0  # the cut games were compared too


@pytest.mark.parametrize("players", [2, 3])
def test_winners_only_play_the_optimal_policy_as_the_full_kernel(players: int) -> None:
    setup = Setup(Ruleset("standard"), players, first=1, seed=11)
    policy = fast_policy("optimal", setup.ruleset, players)
    full = fast.run_batch(setup, policy, 0, GAMES).winner
    assert np.array_equal(fast.run_winners(setup, policy, 0, GAMES), full)


def test_winners_do_not_depend_on_threads_or_cuts() -> None:
    setup = Setup(Ruleset("cs"), 6, first=3, seed=2026)
    tables = fast_tables("eager", setup.ruleset, 6)
    before = numba.get_num_threads()
    try:
        numba.set_num_threads(1)
        whole = fast.run_winners(setup, tables, 0, 40_000)
        numba.set_num_threads(numba.config.NUMBA_NUM_THREADS)
        parts = [fast.run_winners(setup, tables, lo, hi - lo) for lo, hi in [(0, 3), (3, 40_000)]]
    finally:
        numba.set_num_threads(before)
    assert np.array_equal(whole, np.concatenate(parts))


@pytest.mark.parametrize("edition", list(EDITIONS))
def test_steps_without_money_differ_only_on_the_money_squares(edition: str) -> None:
    """The winners' step table makes plain exactly the landings on squares whose effect is money
    alone (travel, neighbour, Friday, rescue): they end there, pay nothing, go on no further."""
    rs = Ruleset(edition)
    fever_extra = rs.fever is Fever.EXTRA_ROLL
    tables = fast_tables("eager", rs, 3)
    full = build_steps(tables, rs.optional_choices, fever_extra, False, rs.board)
    pawns = build_steps(tables, rs.optional_choices, fever_extra, False, rs.board, money=False)
    kinds = board_tables(rs.board)[0]
    changed = np.nonzero(full != pawns)[0]
    assert len(changed) > 0
    for index in changed:
        step = int(pawns[index])
        landed = (step >> LAND_SHIFT) & SQUARE_MASK
        assert full[index] == SPECIAL and not step & (SPECIAL | EXTRA | SKIP), index
        assert kinds[landed] in (TRAVEL, NEIGHBOUR, FRIDAY, RESCUE) and step & SQUARE_MASK == landed
        assert (step >> RECEIVE_SHIFT) & AMOUNT_MASK == 0 and (step >> PAY_SHIFT) & AMOUNT_MASK == 0


def _winners_in_child(seed: int) -> list[int]:
    setup = Setup(Ruleset("standard"), 6, seed=seed)
    return fast.run_winners(setup, fast_tables("eager", setup.ruleset, 6), 0, 40_000).tolist()


def test_a_forked_process_runs_games_on_threads_of_its_own() -> None:
    """The thread pool is kept for the process; a child forked after it was started (a server's
    workers, a process pool) must start its own, not wait for the parent's threads for ever."""
    numba.set_num_threads(numba.config.NUMBA_NUM_THREADS)
    if numba.get_num_threads() < 2:
        pytest.skip("one thread: no pool is used")
    here = _winners_in_child(9)  # the parent's pool now exists
    with multiprocessing.get_context("fork").Pool(1) as pool:
        there = pool.apply_async(_winners_in_child, (9,)).get(timeout=120)
    assert there == here
