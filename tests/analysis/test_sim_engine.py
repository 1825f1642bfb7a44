"""The compiled simulator reproduces the engine: fed the same per-game dice, every game ends with
the same winner, squares, purses, bank, Friday relations and deaths, and the same counts of
turns, rolls and landings. 10,000 games of each edition, 2 to 8 players, every first seat, with
eager, heuristic and random decision tables (so every option of every decision is exercised).

The first quarter of each batch is in `make check`'s fast tier, so every edition is checked
there on 2,500 games; the other three quarters are `slow` (tests/tiers.py): `make test` plays
all 10,000, as before, for the same cost in all."""

from __future__ import annotations

import os
from concurrent.futures import ProcessPoolExecutor

import numpy as np
import pytest
from tests.tiers import SLOW

from robinson.analysis.sim import fast, reference
from robinson.analysis.sim.batch import Batch, Setup
from robinson.analysis.sim.policies import fast_policy, fast_tables, python_decider, table_decider
from robinson.bots import make_bot
from robinson.engine import EDITIONS, Ruleset

GAMES_PER_EDITION = 10_000
# Games per player count: more of the small tables, whose games are cheaper to replay.
GAMES_BY_PLAYERS = {2: 2700, 3: 2100, 4: 1500, 5: 1200, 6: 1000, 7: 800, 8: 700}
FIELDS = (
    "winner", "rolls", "turns", "winner_turns", "bank", "pot", "bindings",
    "position", "purse", "alive", "friday", "landings",
)  # fmt: skip
# Random tables may refuse to leave the tree on most faces; cap such games low so the engine
# side stays fast (both simulators must agree on the cut too).
MAX_ROLLS = 2_000


def _tables(kind: str, ruleset: Ruleset, players: int, rng: np.random.Generator) -> np.ndarray:
    if kind in ("eager", "heuristic"):
        return fast_tables(make_bot(kind).choose, ruleset, players)
    tables = rng.integers(0, 2, size=(players, 4, 7)).astype(np.int8)
    tables[:, 1, :] = rng.random((players, 7)) < 0.8  # mostly leave the tree: games end
    return tables


def _jobs(edition: str, part: str = "all") -> list[tuple[Setup, np.ndarray, int, int]]:
    """(setup, tables, offset, count) covering GAMES_PER_EDITION games of `edition`: "all" of
    them, the "head" (each batch's first quarter) or the "tail" (the rest)."""
    rng = np.random.default_rng(sum(map(ord, edition)))
    jobs = []
    for n, games in GAMES_BY_PLAYERS.items():
        # money options vary too: small purses make the caps of rule 6.1 bite
        start_tokens = int(rng.integers(3, 40))
        ruleset = Ruleset(
            edition,
            start_tokens=start_tokens,
            stake=int(rng.integers(0, start_tokens + 1)),
            share=("half", "third")[n % 2],
        )
        for i, kind in enumerate(("eager", "heuristic", "random")):
            setup = Setup(ruleset, n, first=int(rng.integers(0, n)), seed=int(rng.integers(2**63)))
            count = games // 3 + 1
            offset, head = i * count, (count + 3) // 4
            if part == "head":
                count = head
            elif part == "tail":
                offset, count = offset + head, count - head
            jobs.append((setup, _tables(kind, ruleset, n, rng), offset, count))
    return jobs


def _engine_batch(job: tuple[Setup, np.ndarray, int, int]) -> Batch:
    setup, tables, offset, count = job
    return reference.run_batch(setup, table_decider(tables), offset, count, MAX_ROLLS)


def _compare(fast_batch: Batch, engine_batch: Batch, label: str) -> None:
    for field in FIELDS:
        a, b = getattr(fast_batch, field), getattr(engine_batch, field)
        if not np.array_equal(a, b):
            rows = np.nonzero((a != b).reshape(len(a), -1).any(axis=1))[0][:5]
            games = (rows + fast_batch.offset).tolist()
            pytest.fail(f"{label}: {field} differs from the engine in games {games}")


@pytest.mark.parametrize("part", ["head", pytest.param("tail", marks=SLOW)])
@pytest.mark.parametrize("edition", list(EDITIONS))
def test_fast_simulator_reproduces_the_engine(
    edition: str, part: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(fast, "MAX_ROLLS", MAX_ROLLS)
    jobs = _jobs(edition, part)
    every = _jobs(edition)
    assert sum(job[3] for job in every) >= GAMES_PER_EDITION
    assert sum(job[3] for job in _jobs(edition, "head") + _jobs(edition, "tail")) == sum(
        job[3] for job in every
    )
    workers = min(4, os.cpu_count() or 1)
    with ProcessPoolExecutor(workers) as pool:
        engine_batches = list(pool.map(_engine_batch, jobs))
    for (setup, tables, offset, count), engine_batch in zip(jobs, engine_batches, strict=True):
        fast_batch = fast.run_batch(setup, tables, offset, count)
        label = f"{edition}, {setup.players} players, first {setup.first}, seed {setup.seed}"
        _compare(fast_batch, engine_batch, label)
        assert (fast_batch.winner != -2).mean() > 0.5, label  # most games really finish


@pytest.mark.parametrize(("edition", "players"), [("standard", 2), ("lv", 2), ("standard", 3)])
def test_fast_simulator_plays_the_optimal_policy_as_the_engine_does(
    edition: str, players: int
) -> None:
    """The joint decision table read in the kernel gives the choices of `OptimalPolicy.decide`."""
    setup = Setup(Ruleset(edition), players, first=players - 1, seed=5)
    policy = fast_policy("optimal", setup.ruleset, players)
    fast_batch = fast.run_batch(setup, policy, 0, 1500)
    engine_batch = reference.run_batch(
        setup, python_decider("optimal", setup.ruleset, players), 0, 1500
    )
    _compare(fast_batch, engine_batch, f"optimal, {edition}, {players} players")
