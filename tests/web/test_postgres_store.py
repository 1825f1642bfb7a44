"""The store and the game service on both backends: SQLite and a real PostgreSQL cluster.

Every test here takes `database_url`, which is parametrized over a fresh SQLite file and a fresh
PostgreSQL database (skipped with its reason when PostgreSQL is not installed).
"""

from __future__ import annotations

import asyncio
import threading
import time
from typing import Any

import pytest
from sqlalchemy import insert, select

from robinson.engine import Choose, Roll
from robinson.web.protocol.errors import ServiceError
from robinson.web.service import GameService, SeatSpec
from robinson.web.settings import Settings
from robinson.web.store import (
    Conflict,
    GameRow,
    SeatRow,
    Step,
    StorageDown,
    Store,
    StoreUnavailable,
    TableRow,
    database_url,
)
from robinson.web.store.schema_tables import games, tables

RULES = {"edition": "classic", "start_tokens": 10, "stake": 1, "share": "half"}


def _table(n: int, table_id: str = "t1", game_id: str = "g1") -> tuple[TableRow, GameRow]:
    seats = [SeatRow(i, f"Pla ✓ ř ā {i}", "human", None, f"{i:064x}") for i in range(n)]
    table = TableRow(table_id, "lv", int(time.time()), None, seats)
    game = GameRow(
        game_id, table_id, 1, RULES, [s.name for s in seats], 0, "ab" * 32, "cd" * 32, 0, []
    )
    return table, game


def _unfinished(store: Store) -> list[str]:
    """The tables whose current game is not over, read straight from the tables."""
    query = (
        select(tables.c.id)
        .join(games, games.c.id == tables.c.current_game)
        .where(games.c.over == 0)
    )
    with store.engine.connect() as conn:
        return [r.id for r in conn.execute(query)]


def _games_of(store: Store, table_id: str) -> list[tuple[str, int, bool]]:
    query = (
        select(games.c.id, games.c.number, games.c.over)
        .where(games.c.table_id == table_id)
        .order_by(games.c.number)
    )
    with store.engine.connect() as conn:
        return [(r.id, r.number, bool(r.over)) for r in conn.execute(query)]


def _append(store: Store, game: str, seq: int, face: int | str, over: bool = False) -> None:
    """Step `seq` of `game` at table t1: a roll of `face`, or the option `face`."""
    action = Roll(face) if isinstance(face, int) else Choose(face)
    step = Step("t1", game, seq, action, 0, int(time.time() * 1000))
    store.append(step, f"summary-{seq + 1}", over, None if over else 1)


def test_the_schema_is_made_once_and_a_table_reads_back_as_written(database_url: str) -> None:
    store = Store(database_url)
    table, game = _table(3)
    store.create_table(table, game, "summary-0")
    _append(store, "g1", 0, 3)
    store.close()
    again = Store(database_url)  # opening an existing database keeps its data
    try:
        loaded = again.load_table("t1")
        assert loaded is not None and loaded.current_game == "g1"
        assert [s.name for s in loaded.seats] == [s.name for s in table.seats]
        row = again.load_game("g1")
        assert row is not None and row.actions == [{"roll": 3}]
        assert row.players == game.players and row.ruleset == RULES
        assert _unfinished(again) == ["t1"]
        assert _games_of(again, "t1") == [("g1", 1, False)]
        _append(again, "g1", 1, "stay", over=True)
        assert _unfinished(again) == []
    finally:
        again.close()


def test_times_after_2038_fit(database_url: str) -> None:
    store = Store(database_url)
    try:
        table, game = _table(2)
        table.created = 2**31 + 10  # past a 32-bit INTEGER, which PostgreSQL would refuse
        store.create_table(table, game, "s")
        loaded = store.load_table("t1")
        assert loaded is not None and loaded.created == 2**31 + 10
    finally:
        store.close()


def test_a_step_written_twice_is_a_conflict_and_the_log_keeps_the_first(database_url: str) -> None:
    store = Store(database_url)
    try:
        store.create_table(*_table(2), "s")
        _append(store, "g1", 0, 2)
        with pytest.raises(Conflict, match="already has step 0"):
            _append(store, "g1", 0, 5)
        row = store.load_game("g1")
        assert row is not None and row.actions == [{"roll": 2}]
    finally:
        store.close()


def test_other_integrity_errors_are_not_mistaken_for_a_conflict(database_url: str) -> None:
    from sqlalchemy.exc import IntegrityError

    store = Store(database_url)
    try:
        store.create_table(*_table(2), "s")
        with pytest.raises(StorageDown):  # no such game: a foreign key, not a lost race
            _append(store, "nope", 0, 2)
        with pytest.raises(IntegrityError), store.engine.begin() as conn:
            conn.execute(insert(tables).values(id="t1", language="en", created=0))
    finally:
        store.close()


def _write(
    store: Store, seq: int, face: int, barrier: threading.Barrier, outcomes: list[str]
) -> None:
    barrier.wait()
    try:
        _append(store, "g1", seq, face)
        outcomes.append("stored")
    except Conflict:
        outcomes.append("conflict")


def test_two_processes_writing_the_same_step_at_once_store_exactly_one(database_url: str) -> None:
    """Two engines (as two server processes would have) race for each step: one wins."""
    first, second = Store(database_url), Store(database_url)
    try:
        first.create_table(*_table(2), "s")
        for seq in range(20):
            barrier = threading.Barrier(2)
            outcomes: list[str] = []
            threads = [
                threading.Thread(target=_write, args=(store, seq, face, barrier, outcomes))
                for store, face in ((first, 1), (second, 6))
            ]
            for th in threads:
                th.start()
            for th in threads:
                th.join(30)
            assert sorted(outcomes) == ["conflict", "stored"], (seq, outcomes)
        row = second.load_game("g1")
        assert row is not None and len(row.actions) == 20
    finally:
        first.close()
        second.close()


def test_two_servers_starting_on_an_empty_database_make_the_schema_once(
    database_url: str,
) -> None:
    made: list[Store] = []
    errors: list[BaseException] = []
    barrier = threading.Barrier(3)

    def open_store() -> None:
        barrier.wait()
        try:
            made.append(Store(database_url))
        except BaseException as e:
            errors.append(e)

    threads = [threading.Thread(target=open_store) for _ in range(3)]
    for th in threads:
        th.start()
    for th in threads:
        th.join(60)
    for store in made:
        store.close()
    assert errors == [] and len(made) == 3


def _play_bots(database_url: str) -> tuple[dict[str, Any], int]:
    async def main() -> tuple[dict[str, Any], int]:
        store = Store(database_url)
        service = GameService(store, Settings(bot_delay=0))
        await service.start()
        seats = [SeatSpec(f"Bot{i}", "bot", "heuristic") for i in range(3)]
        made = await service.create_table(seats, RULES | {"edition": "standard"}, 0, "cs")
        table = await service.table(made["table"])
        for _ in range(20000):
            if table.game.state.over:
                break
            await asyncio.sleep(0.001)
        version = table.game.version
        await service.stop()
        store.close()
        return made, version

    return asyncio.run(main())


def test_the_service_plays_a_full_bot_game_and_the_store_holds_every_step(
    database_url: str,
) -> None:
    made, version = _play_bots(database_url)
    store = Store(database_url)
    try:
        row = store.load_game(made["game"])
        assert row is not None and len(row.actions) == version > 0
        assert _unfinished(store) == []
    finally:
        store.close()


def test_a_refused_move_writes_nothing(database_url: str) -> None:
    async def main() -> None:
        store = Store(database_url)
        service = GameService(store, Settings(bot_delay=0))
        made = await service.create_table([SeatSpec("A"), SeatSpec("B")], RULES)
        token = made["seats"][0]["token"]
        for version, move, code in [(0, "stay", "illegal_action"), (4, "roll", "stale_version")]:
            with pytest.raises(ServiceError) as refused:
                await service.act(made["game"], token, version, move)
            assert refused.value.code == code
        assert await service.act(made["game"], token, 0, "roll") == 1
        store.close()

    asyncio.run(main())
    store = Store(database_url)
    try:
        row = store.load_game(_only_game(store))
        assert row is not None and len(row.actions) == 1
    finally:
        store.close()


def _only_game(store: Store) -> str:
    (table_id,) = _unfinished(store)
    table = store.load_table(table_id)
    assert table is not None and table.current_game is not None
    return table.current_game


@pytest.mark.parametrize(
    ("url", "words"),
    [
        ("nonsense", "is not a database URL; expected e.g. sqlite:"),
        ("foo://x/y", "unknown database kind 'foo'"),
        ("postgresql+psycopg2://u@127.0.0.1/x", "driver for postgresql+psycopg2 is not installed"),
        ("sqlite:////no/such/folder/x.sqlite3", "cannot open the database"),
    ],
)
def test_a_store_that_cannot_open_says_why(url: str, words: str) -> None:
    with pytest.raises(StoreUnavailable, match=words.replace("+", r"\+")):
        Store(url)


def test_an_unreachable_postgresql_says_so_without_the_password() -> None:
    pytest.importorskip("psycopg", reason="psycopg not installed: pip install -e '.[dev]'")
    from tests.web.postgres import _free_port

    url = f"postgresql+psycopg://u:sesame@127.0.0.1:{_free_port()}/robinson"
    with pytest.raises(StoreUnavailable) as unavailable:
        Store(url)
    message = str(unavailable.value)
    assert "cannot open the database" in message and "Connection refused" in message
    assert "sesame" not in message and "***" in message


def test_postgres_urls_without_a_driver_mean_psycopg() -> None:
    for url in ("postgres://u@h/db", "postgresql://u@h/db", "postgresql+psycopg://u@h/db"):
        assert database_url(url).drivername == "postgresql+psycopg"
    assert database_url("sqlite:///x.sqlite3").drivername == "sqlite"
