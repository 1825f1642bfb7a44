"""Tables of optimal bots share one exact solve per edition and player count, whatever their
money options, and it is made in a worker process, not in the server (the memory and the
latency of a human's move elsewhere are measured by benchmarks/optimal_tables.py)."""

from __future__ import annotations

import time
from pathlib import Path

import pytest

from robinson.engine import Ruleset
from tests.web.conftest import Server

pytestmark = pytest.mark.system


def test_thirty_optimal_bot_tables_with_different_money_share_one_solve(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    cache = tmp_path / "cache"
    monkeypatch.setenv("ROBINSON_CACHE_DIR", str(cache))
    srv = Server(tmp_path / "robinson.sqlite3")
    srv.start()
    made = []
    try:
        for i in range(30):
            money = {"start_tokens": 20 + i, "stake": 1 + i % 7, "share": ("half", "third")[i % 2]}
            Ruleset(**money)  # a legal ruleset, different for every table
            bots = [{"name": f"Bot{s}", "kind": "bot", "bot": "optimal"} for s in range(2)]
            made.append(srv.create(bots, **money))
        deadline = time.monotonic() + 600
        for t in made:
            while not srv.get(f"/api/tables/{t['table']}").json()["game"]["over"]:
                assert time.monotonic() < deadline, "the optimal bots did not finish"
                time.sleep(0.2)
    finally:
        srv.stop()
    solves = [line for line in srv.output.splitlines() if "solving the optimal bot" in line]
    assert len(solves) == 1 and "standard, 2 players" in solves[0], srv.output
    assert [p.name.split("-")[:2] for p in cache.glob("*.npz")] == [["optimal", "2p"]]


def test_the_solution_is_keyed_by_edition_and_players_only() -> None:
    from robinson.analysis.exact import store

    rich = Ruleset(start_tokens=50, stake=5, share="third")
    assert store.table_path(Ruleset(), 3) == store.table_path(rich, 3)
    assert store.table_path(Ruleset(), 3) != store.table_path(Ruleset(), 2)
    assert store.table_path(Ruleset(), 3) != store.table_path(Ruleset(edition="lv"), 3)
