"""The server starts without loading every table, and closes abandoned ones.

10,000 unfinished tables written straight into the database (SQLite and PostgreSQL): the server
loads on start only the two whose next move is a bot's (its start-up note says how many), and
any other table loads when first asked for and plays. The start-up time itself is measured by
benchmarks/start_many_tables.py. An unfinished table with no move for longer than
`--expire-days` is closed on start: moves are refused with `table_closed`, its record stays.
A table nobody uses leaves memory (in process, on the fake clock)."""

from __future__ import annotations

import logging
import time
from typing import Any

import pytest
from sqlalchemy import create_engine, insert, text

from robinson import fairdice as dice
from robinson.engine import Ruleset, new_game, to_text
from robinson.web.cluster import Cluster
from robinson.web.service import SeatSpec
from robinson.web.service.live import token_hash
from robinson.web.settings import Settings
from robinson.web.store import Store
from robinson.web.store.schema_tables import games, seats, tables
from tests.tiers import SYSTEM
from tests.web.conftest import Server, forward
from tests.web.fakes import FakeClock
from tests.web.inprocess import Served


def _fill(url: str, humans: int, bots: int) -> None:
    """`humans` tables of two people and `bots` tables where a bot is to move, all unfinished."""
    Store(url).close()  # the schema
    now = int(time.time())
    seed = dice.new_seed()
    summary = to_text(new_game(2, Ruleset(), 0))
    table_rows, seat_rows, game_rows = [], [], []
    for i in range(humans + bots):
        bot = i >= humans
        table_rows.append(
            {"id": f"t{i}", "language": "en", "created": now, "current_game": f"g{i}"}
        )
        for s in range(2):
            kind = "bot" if bot and s == 1 else "human"
            seat_rows.append({"table_id": f"t{i}", "seat": s, "name": "AB"[s], "kind": kind,
                              "bot": "heuristic" if kind == "bot" else None,
                              "token_sha256": token_hash(f"token-{i}-{s}")})  # fmt: skip
        game_rows.append({"id": f"g{i}", "table_id": f"t{i}", "number": 1,
                          "ruleset": '{"edition": "standard"}', "players": '["A", "B"]',
                          "first": 1 if bot else 0, "seed": seed.hex(),
                          "seed_sha256": dice.commitment(seed), "created": now, "version": 0,
                          "over": 0, "summary": summary, "to_move": 1 if bot else 0,
                          "moved": now})  # fmt: skip
    if not table_rows:
        return
    engine = create_engine(url)
    with engine.begin() as conn:
        conn.execute(insert(tables), table_rows)
        conn.execute(insert(seats), seat_rows)
        conn.execute(insert(games), game_rows)
    engine.dispose()


@SYSTEM
def test_start_loads_only_tables_waiting_for_a_bot_and_the_rest_on_demand(
    database_url: str,
) -> None:
    humans = 10_000
    _fill(database_url, humans, 2)
    srv = Server(database_url)
    srv.start()
    try:
        for i in (humans, humans + 1):  # the bot tables resumed by themselves
            for _ in range(500):
                if srv.get(f"/api/tables/t{i}").json()["game"]["version"] > 0:
                    break
                time.sleep(0.02)
            else:
                raise AssertionError(f"the bot of table t{i} did not move")
        view = srv.get("/api/tables/t1234").json()["game"]  # loads now, and plays
        body = {"token": "token-1234-0", "version": 0, "move": forward(view["legal"])}
        r = srv.post("/api/games/g1234/actions", body)
        assert r.status_code == 200, r.text
    finally:
        srv.stop()
    assert "started: 2 tables with a bot to move loaded" in srv.output, srv.output


def _act(srv: Server, t: dict[str, Any]) -> Any:
    game = srv.get(f"/api/tables/{t['table']}").json()["game"]
    body = {"token": t["seats"][game["to_move"]]["token"], "version": game["version"],
            "move": forward(game["legal"])}  # fmt: skip
    return srv.post(f"/api/games/{game['id']}/actions", body)


@SYSTEM
def test_a_table_with_no_move_for_longer_than_the_limit_is_closed_and_its_record_kept(
    database_url: str,
) -> None:
    srv = Server(database_url)
    srv.start()
    old, recent = (srv.create([{"name": "A"}, {"name": "B"}]) for _ in range(2))
    for t in (old, recent):
        assert _act(srv, t).status_code == 200
    srv.stop()
    engine = create_engine(database_url)
    with engine.begin() as conn:  # the old table's last move, 31 days ago
        conn.execute(
            text("UPDATE games SET moved = :t WHERE id = :g"),
            {"t": int(time.time()) - 31 * 86400, "g": old["game"]},
        )
    engine.dispose()

    srv.options = (*srv.options, "--expire-days", "30")
    srv.start()
    try:
        r = _act(srv, old)
        assert r.status_code == 410 and r.json()["error"]["code"] == "table_closed", r.text
        assert "30 days" in r.json()["error"]["message"]
        assert srv.get(f"/api/tables/{old['table']}").json()["game"]["version"] == 1
        record = srv.get(f"/api/games/{old['game']}/record").json()
        assert len(record["actions"]) == 1  # the log is kept
        assert _act(srv, recent).status_code == 200
    finally:
        srv.stop()
    assert "closed 1 tables with no move for 30 days" in srv.output, srv.output


@pytest.mark.anyio
async def test_a_table_nobody_uses_leaves_memory_and_loads_again_when_asked_for(
    database_url: str, caplog: pytest.LogCaptureFixture
) -> None:
    """`unload_after` 1 s, in process on the fake clock: a table with no viewer and no move for
    a second is dropped from the service's memory (its start-up-free load is all it costs);
    asked for again, it plays on."""
    clock = FakeClock()
    srv = Served(database_url, clock, Settings(bot_delay=0.0, unload_after=1))
    caplog.set_level(logging.INFO, logger="robinson.web")
    service = await srv.start()
    try:
        t = await service.create_table([SeatSpec("A"), SeatSpec("B")], {"edition": "standard"})
        game = await srv.game(t["table"])
        await service.act(t["game"], t["seats"][0]["token"], 0, forward(game["legal"]))
        watched = await service.create_table(
            [SeatSpec("C"), SeatSpec("D")], {"edition": "standard"}
        )
        await srv.hello(watched["table"])  # somebody watches this one: it stays
        await clock.advance(0.9)
        assert t["table"] in service.tables.held  # not idle for a second yet
        await clock.advance(0.7)  # idle for 1 s: unloaded at the next look (every 0.5 s)
        assert t["table"] not in service.tables.held
        assert t["game"] not in service.tables.game_table
        assert watched["table"] in service.tables.held
        assert "unloaded 1 idle tables (1 stay in memory)" in caplog.messages
        game = await srv.game(t["table"])  # loaded again: the next move is taken
        assert game["version"] == 1
        await service.act(
            t["game"], t["seats"][game["to_move"]]["token"], 1, forward(game["legal"])
        )
        assert len((await service.record(t["game"])).actions) == 2
    finally:
        await srv.stop()


@pytest.mark.anyio
async def test_in_a_cluster_the_process_that_created_a_table_lets_it_go_at_the_next_sweep(
    database_url: str,
) -> None:
    """nginx sends the request that creates a table to any process and the table's page and
    sockets to the one its id hashes to: the creator keeps its copy only until its next sweep
    (not `unload_after`), unless the table is used there; so the process that serves the table
    is usually alone to follow it and publishes nothing (cluster/bus.py). A process of a
    cluster (`shared`), its shared parts local: only the service's own choices are tested."""
    clock = FakeClock()
    shared = Cluster(redis="a cluster's Redis clients (unused in process)")
    assert shared.shared
    srv = Served(database_url, clock, Settings(bot_delay=0.0, unload_after=600), cluster=shared)
    service = await srv.start()
    try:
        made = [
            await service.create_table([SeatSpec("A"), SeatSpec("B")], {"edition": "standard"})
            for _ in range(2)
        ]
        used = made[1]
        await srv.hello(used["table"])  # this one is used here: it stays
        await clock.advance(61)  # the next sweep (every minute at most)
        assert made[0]["table"] not in service.tables.held
        assert used["table"] in service.tables.held
    finally:
        await srv.stop()


@pytest.mark.anyio
async def test_in_a_cluster_a_copy_kept_only_by_its_own_bots_and_driver_goes_at_the_next_sweep(
    database_url: str,
) -> None:
    """What a process does of its own accord for a table (its driver playing a bot, loading a
    table for a bot or a clock) is no use of its copy: a table whose bot played here while its
    players are elsewhere, or one the driver loaded, goes at the next sweep with its lease, and
    the process its players are on drives it (cluster/leases.py). A process of a cluster, its
    shared parts local, on the fake clock."""
    clock = FakeClock()
    shared = Cluster(redis="a cluster's Redis clients (unused in process)")
    srv = Served(database_url, clock, Settings(bot_delay=0.0, unload_after=600), cluster=shared)
    service = await srv.start()
    try:
        seats = [SeatSpec("Rob", "bot", "heuristic"), SeatSpec("A")]
        made = await service.create_table(seats, {"edition": "standard"})
        table = service.tables.held[made["table"]]
        await clock.advance(1)  # the bot plays its turn: a human is to move then
        assert table.game.version > 0 and table.game.state.to_move == 1
        await clock.advance(60)  # the next sweep
        assert made["table"] not in service.tables.held

        again = await service.tables.get(made["table"], used=False)  # as the driver loads it
        await clock.advance(61)
        assert again.id not in service.tables.held
        asked = await service.table(made["table"])  # a player's page asks: used here
        await clock.advance(61)
        assert asked.id in service.tables.held
    finally:
        await srv.stop()
