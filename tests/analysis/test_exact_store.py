"""The disk cache of the optimal decision tables (`exact/store.py`)."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from robinson.analysis.exact import store
from robinson.analysis.exact.game import solve_game
from robinson.analysis.exact.optimal import OptimalPolicy
from robinson.engine import Ruleset


@pytest.fixture(autouse=True)
def _cache_in_tmp(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv(store.CACHE_ENV, str(tmp_path))


def test_the_first_policy_writes_the_tables_and_the_next_reads_them(tmp_path: Path) -> None:
    ruleset = Ruleset("standard")
    first = OptimalPolicy(ruleset, 2)
    path = store.table_path(ruleset, 2)
    assert path.parent == tmp_path and path.exists()
    game = solve_game(ruleset, 2, "optimal")
    for m in (1, 2):
        assert np.array_equal(first.tables[m], game.decision_table(m))
    # The next policy must use the file: make it recognisably different.
    stored = store.load_tables(ruleset, 2)
    assert stored is not None
    stored.tables[1][0, 1, 0] ^= 1
    store.save_tables(ruleset, 2, stored)
    again = OptimalPolicy(ruleset, 2)
    assert again.tables[2][0, 1, 0] != first.tables[2][0, 1, 0]
    assert again.converged == first.converged


def test_the_key_separates_editions_and_player_counts_but_not_money() -> None:
    paths = {
        store.table_path(Ruleset("standard"), 2),
        store.table_path(Ruleset("standard"), 3),
        store.table_path(Ruleset("lv"), 2),
    }
    assert len(paths) == 3
    assert all(store.fingerprint() in p.name for p in paths)
    # Money never moves a pawn (issue 8): one solution serves every money option.
    money = Ruleset("standard", start_tokens=50, stake=3, share="third")
    assert store.table_path(money, 2) == store.table_path(Ruleset("standard"), 2)


@pytest.mark.parametrize("content", [b"", b"not a zip file", None])
def test_a_broken_file_is_solved_again(content: bytes | None) -> None:
    ruleset = Ruleset("classic")
    path = store.table_path(ruleset, 2)
    path.parent.mkdir(parents=True, exist_ok=True)
    if content is None:  # a readable file with the wrong layout
        np.savez(path, m1=np.zeros(3, dtype=np.uint8), converged=np.array(True))
    else:
        path.write_bytes(content)
    assert store.load_tables(ruleset, 2) is None
    policy = OptimalPolicy(ruleset, 2)
    assert policy.tables[2].shape == (4, 7, 47)
    assert store.load_tables(ruleset, 2) is not None  # rewritten


def test_an_unwritable_cache_is_not_an_error(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    blocker = tmp_path / "a file"
    blocker.write_text("")
    monkeypatch.setenv(store.CACHE_ENV, str(blocker / "below"))
    policy = OptimalPolicy(Ruleset("ca"), 2)
    assert policy.tables[1].shape == (4, 7, 1)
    assert store.load_tables(Ruleset("ca"), 2) is None
