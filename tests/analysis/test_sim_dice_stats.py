"""The dice streams and the statistics of the simulator."""

from __future__ import annotations

import itertools
import math

import numba
import numpy as np
import pytest

from robinson.analysis.sim import Setup, fast, run, simulate
from robinson.analysis.sim.dice import faces, game_key
from robinson.analysis.sim.kernel import game_key as compiled_game_key
from robinson.analysis.sim.policies import fast_tables
from robinson.analysis.sim.stats import Histogram, Moments, proportion
from robinson.bots import make_bot
from robinson.engine import Ruleset


def test_compiled_and_python_game_keys_agree() -> None:
    for seed, game in [(0, 0), (1, 2), (2**64 - 1, 10**9), (123456789, 987654321)]:
        assert int(compiled_game_key(np.uint64(seed), np.uint64(game))) == game_key(seed, game)


def test_dice_are_reproducible_and_distinct_per_game_and_seed() -> None:
    first = list(itertools.islice(faces(7, 3), 50))
    assert first == list(itertools.islice(faces(7, 3), 50))
    assert first != list(itertools.islice(faces(7, 4), 50))
    assert first != list(itertools.islice(faces(8, 3), 50))
    assert set(first) <= {1, 2, 3, 4, 5, 6}


def test_dice_faces_are_uniform() -> None:
    rolls = [f for g in range(2000) for f in itertools.islice(faces(1, g), 30)]
    counts = np.bincount(rolls, minlength=7)[1:]
    expected = len(rolls) / 6
    chi2 = float(((counts - expected) ** 2 / expected).sum())
    assert chi2 < 25.0  # 5 degrees of freedom: p < 0.0002 to fail by chance


def test_wilson_interval_contains_the_estimate_and_stays_in_0_1() -> None:
    e = proportion(30, 100)
    assert e.low < 0.3 < e.high
    assert proportion(0, 50).low == 0.0 and proportion(50, 50).high == 1.0
    assert math.isnan(proportion(0, 0).value)


def test_moments_and_histogram_agree_with_numpy() -> None:
    values = np.random.default_rng(0).integers(0, 40, 1001)
    m, h = Moments(), Histogram()
    m.add(values)
    h.add(values)
    assert m.mean().value == pytest.approx(values.mean())
    assert m.variance == pytest.approx(values.var(ddof=1))
    assert h.quantile(0.5) == int(np.median(values))
    assert h.quantile(0.9) == int(np.sort(values)[math.ceil(0.9 * 1001) - 1])
    median = h.median()
    assert median.low <= median.value <= median.high


def test_fast_and_python_simulators_give_the_same_summary() -> None:
    setup = Setup(Ruleset("classic"), 3, first=1, seed=99)
    fast = simulate(setup, 300, engine="fast", progress=False).summary.to_json()
    slow = simulate(setup, 300, engine="python", progress=False).summary.to_json()
    assert fast == slow


def test_summary_is_consistent() -> None:
    result = simulate(Setup(Ruleset("standard"), 4, seed=5), 20_000, progress=False)
    s = result.summary.to_json()
    p_win = sum(e["value"] for e in s["p_win"])
    assert p_win + s["p_no_winner"]["value"] == pytest.approx(1.0)
    # tokens are conserved, so mean purses add up to 4 x 30 less the mean unclaimed bank
    purses = sum(e["value"] for e in s["mean_purse"])
    assert 120.0 - 0.05 < purses <= 120.0
    low, high = s["turns"]["median"]["ci95"]
    assert low <= s["turns"]["median"]["value"] <= high
    assert sum(s["pot"]["histogram"]) == s["games"]
    assert s["p_win"][0]["value"] > s["p_win"][3]["value"]  # the first seat is favoured


def test_every_game_conserves_tokens_and_ends() -> None:
    setup = Setup(Ruleset("lv", start_tokens=5, stake=2), 6, seed=3)
    b = fast.run_batch(setup, fast_tables("eager", setup.ruleset, 6), 0, 50_000)
    assert (b.purse.sum(axis=1) + b.bank == 6 * 5).all()
    assert (b.purse >= 0).all() and (b.bank >= 0).all()
    assert (b.winner >= -1).all()  # nobody cut at the roll limit
    assert ((b.winner == -1) == (~b.alive).all(axis=1)).all()  # no winner exactly when all died
    won = b.winner >= 0
    assert (b.bank[won] == 0).all() and (b.position[won, b.winner[won]] == 45).all()


@pytest.mark.parametrize(("games", "engine"), [(0, "fast"), (10, "turbo")])
def test_bad_arguments_are_refused_with_a_message(games: int, engine: str) -> None:
    with pytest.raises(ValueError, match=r"games|engine"):
        simulate(Setup(Ruleset(), 2), games, engine=engine, progress=False)


def test_results_do_not_depend_on_threads_or_batch_cuts() -> None:
    """Game g is game g: one thread or all of them, one batch or several."""
    setup = Setup(Ruleset("cs"), 5, first=2, seed=17)
    tables = fast_tables(make_bot("heuristic").choose, setup.ruleset, 5)
    before = numba.get_num_threads()
    try:
        numba.set_num_threads(1)
        whole = fast.run_batch(setup, tables, 0, 30_000)
        numba.set_num_threads(numba.config.NUMBA_NUM_THREADS)  # every core
        parts = [fast.run_batch(setup, tables, lo, hi - lo) for lo, hi in [(0, 7), (7, 30_000)]]
    finally:
        numba.set_num_threads(before)
    for name in ("winner", "rolls", "turns", "winner_turns", "bank", "pot", "bindings",
                 "position", "purse", "alive", "friday"):  # fmt: skip
        joined = np.concatenate([getattr(p, name) for p in parts])
        assert np.array_equal(getattr(whole, name), joined), name
    assert np.array_equal(whole.landings, parts[0].landings + parts[1].landings)


def test_summary_does_not_depend_on_the_batch_size(monkeypatch: pytest.MonkeyPatch) -> None:
    """simulate() reuses one batch of rows; a last, shorter batch must not see stale rows."""
    setup = Setup(Ruleset("lv"), 3, seed=9)
    whole = simulate(setup, 50_001, progress=False).summary.to_json()
    monkeypatch.setattr(run, "FAST_BATCH", 4096)
    assert simulate(setup, 50_001, progress=False).summary.to_json() == whole
