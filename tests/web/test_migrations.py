"""The schema's migrations, on SQLite and PostgreSQL: a database written before migrations existed
(today's schema, no alembic_version) with games in it is upgraded when the store opens it (as
`robinson serve` does on start) and loses nothing; a database newer than the server is refused
with one line; the revisions make exactly the schema the code queries."""

from __future__ import annotations

import json
import subprocess
import sys
from dataclasses import dataclass
from typing import Any

import pytest
from alembic.autogenerate import compare_metadata
from alembic.runtime.migration import MigrationContext
from sqlalchemy import (
    BigInteger,
    Column,
    ForeignKey,
    Integer,
    MetaData,
    PrimaryKeyConstraint,
    String,
    Table,
    Text,
    create_engine,
    insert,
    select,
    text,
)

from robinson import fairdice
from robinson.engine import (
    Action,
    Choose,
    Phase,
    Roll,
    Ruleset,
    State,
    apply,
    legal_actions,
    new_game,
    to_text,
)
from robinson.web.service.live import token_hash
from robinson.web.store import Store, StoreUnavailable, metadata, schema
from robinson.web.store.rows import GameRow, SeatRow, Step, TableRow
from tests.tiers import SYSTEM
from tests.web.conftest import forward
from tests.web.fakes import FakeClock
from tests.web.inprocess import Served

# The schema as the code before migrations created it (store.py at commit ff20963), frozen here:
# the databases people already have look like this.
LEGACY = MetaData()
Table(
    "tables",
    LEGACY,
    Column("id", String(32), primary_key=True),
    Column("language", String(8), nullable=False),
    Column("created", BigInteger, nullable=False),
    Column("current_game", String(32), nullable=True),
)
Table(
    "seats",
    LEGACY,
    Column("table_id", String(32), ForeignKey("tables.id"), nullable=False),
    Column("seat", Integer, nullable=False),
    Column("name", String(64), nullable=False),
    Column("kind", String(8), nullable=False),
    Column("bot", String(32), nullable=True),
    Column("token_sha256", String(64), nullable=False),
    PrimaryKeyConstraint("table_id", "seat"),
)
Table(
    "games",
    LEGACY,
    Column("id", String(32), primary_key=True),
    Column("table_id", String(32), ForeignKey("tables.id"), nullable=False, index=True),
    Column("number", Integer, nullable=False),
    Column("ruleset", Text, nullable=False),
    Column("players", Text, nullable=False),
    Column("first", Integer, nullable=False),
    Column("seed", String(128), nullable=False),
    Column("seed_sha256", String(64), nullable=False),
    Column("created", BigInteger, nullable=False),
    Column("version", Integer, nullable=False),
    Column("over", Integer, nullable=False),
    Column("summary", Text, nullable=False),
)
Table(
    "actions",
    LEGACY,
    Column("game_id", String(32), ForeignKey("games.id"), nullable=False),
    Column("seq", Integer, nullable=False),
    Column("action", Text, nullable=False),
    Column("seat", Integer, nullable=True),
    Column("created", BigInteger, nullable=False),
    PrimaryKeyConstraint("game_id", "seq"),
)
ORDER = ("tables", "seats", "games", "actions")  # foreign keys: parents first


@pytest.fixture(params=["sqlite", pytest.param("postgresql", marks=SYSTEM)])
def new_url(request: pytest.FixtureRequest, tmp_path: Any) -> Any:
    """Make fresh empty databases of one kind: call it for each one."""
    numbers = iter(range(100))
    if request.param == "sqlite":
        return lambda: f"sqlite:///{tmp_path / f'db{next(numbers)}.sqlite3'}"
    pg = request.getfixturevalue("postgres")
    return pg.new_database


@dataclass
class Played:
    """A game written to the store as the server writes one: its row and its position."""

    table: TableRow
    row: GameRow
    state: State
    seed: bytes
    rolls: int = 0


def _new_game(table: TableRow, number: int, clock: FakeClock) -> Played:
    seed = bytes([len(table.seats) * 16 + number]) * 32
    row = GameRow(
        id=f"{table.id}-g{number}",
        table_id=table.id,
        number=number,
        ruleset=Ruleset().to_json(),
        players=[s.name for s in table.seats],
        first=0,
        seed=seed.hex(),
        seed_sha256=fairdice.commitment(seed),
        created=clock.now_ms() // 1000,
        actions=[],
    )
    return Played(table, row, new_game(len(table.seats), Ruleset(), 0), seed)


def _step(store: Store, game: Played, clock: FakeClock) -> None:
    """The move that keeps the game going, stored the way the service stores it."""
    st = game.state
    if st.phase is Phase.ROLL:
        action: Action = Roll(fairdice.face(game.seed, game.rolls))
        game.rolls += 1
    else:
        offered = {a.option: a for a in legal_actions(st) if isinstance(a, Choose)}
        action = offered[forward(list(offered))]
    assert st.to_move is not None
    seq = len(game.row.actions)
    after, _ = apply(st, action)
    step = Step(game.table.id, game.row.id, seq, action, st.to_move, clock.now_ms())
    store.append(step, to_text(after), after.over, after.to_move)
    game.row.actions.append(action.to_json())
    game.state = after


def _write_games(url: str, clock: FakeClock) -> tuple[list[Played], dict[str, list[str]]]:
    """Three tables written with the engine and the store: one game finished and rematched, two
    part-played. Returns the current games, and each table's seat tokens."""
    store = Store(url)
    played, tokens = [], {}
    try:
        for t, names in enumerate(("AB", "CDE", "FG")):
            table_id = f"table{t}"
            tokens[table_id] = [f"token-{table_id}-{s}" for s in range(len(names))]
            seats = [
                SeatRow(s, name, "human", None, token_hash(tokens[table_id][s]), token_hash(name))
                for s, name in enumerate(names)
            ]
            host = token_hash(f"host-{table_id}")
            table = TableRow(table_id, "en", clock.now_ms() // 1000, None, seats, host)
            game = _new_game(table, 1, clock)
            store.create_table(table, game.row, to_text(game.state))
            played.append(game)
        first = played[0]
        while not first.state.over:
            _step(store, first, clock)
        played[0] = _new_game(first.table, 2, clock)  # the rematch
        store.add_game(played[0].row, to_text(played[0].state))
        for game in played:
            for _ in range(7):
                _step(store, game, clock)
    finally:
        store.close()
    return played, tokens


def _rows(url: str, meta: MetaData) -> dict[str, list[dict[str, Any]]]:
    engine = create_engine(url)
    try:
        with engine.connect() as conn:
            return {
                name: [dict(r._mapping) for r in conn.execute(select(meta.tables[name]))]
                for name in ORDER
            }
    finally:
        engine.dispose()


async def _views(srv: Served, tables: list[str]) -> list[Any]:
    """Each table and its game's record, as the API shows them."""
    views = []
    for table_id in tables:
        game = await srv.game(table_id)
        for player in game["players"]:
            # A database from before revision 0002 has no invites: every seat counts as claimed.
            del player["claimed"]
        views.append((game, await _record(srv, game["id"])))
    return views


async def _record(srv: Served, game_id: str) -> Any:
    return json.loads((await srv.service.record(game_id)).dumps())


async def _play_to_the_end(srv: Served, table_id: str, tokens: list[str]) -> None:
    for _ in range(5000):
        game = await srv.game(table_id)
        if game["over"]:
            return
        token = tokens[game["to_move"]]
        await srv.service.act(game["id"], token, game["version"], forward(game["legal"]))
    pytest.fail("the game did not end")


@pytest.mark.anyio
async def test_a_database_from_before_migrations_is_upgraded_on_start_and_loses_nothing(
    new_url: Any,
) -> None:
    """The rows are made with the engine and the store; the upgrade is the store's, when a
    service opens the database (as `robinson serve` does before it serves)."""
    clock = FakeClock()
    source_url = new_url()
    played, tokens = _write_games(source_url, clock)
    tables = [game.table.id for game in played]
    finished = "table0-g1"
    source = Served(source_url, clock)
    await source.start()
    try:
        before = await _views(source, tables)
        finished_record = await _record(source, finished)
    finally:
        await source.stop()
    assert finished_record["meta"]["dice"]["seed"]  # it is over: the seed is out
    rows = _rows(source_url, LEGACY)  # what an old database could hold

    # The same rows in a database made with the old code's schema (no alembic_version).
    legacy_url = new_url()
    engine = create_engine(legacy_url)
    LEGACY.create_all(engine)
    with engine.begin() as conn:
        for name in ORDER:
            conn.execute(insert(LEGACY.tables[name]), rows[name])
    engine.dispose()

    srv = Served(legacy_url, clock)
    await srv.start()
    try:
        assert await _views(srv, tables) == before  # every game, move, seat, seed hash
        assert await _record(srv, finished) == finished_record
        for table_id in tables:  # and every game plays on to its end
            await _play_to_the_end(srv, table_id, tokens[table_id])
    finally:
        await srv.stop()
    after = _rows(legacy_url, LEGACY)
    for name in ("tables", "seats", "actions"):  # every old row is there, unchanged
        assert [r for r in rows[name] if r not in after[name]] == [], name
    moving = ("version", "over", "summary")  # a game's row follows its moves; the rest is fixed
    fixed = [{k: v for k, v in g.items() if k not in moving} for g in after["games"]]
    for game in rows["games"]:
        assert {k: v for k, v in game.items() if k not in moving} in fixed
    assert len(after["actions"]) > len(rows["actions"])  # the games went on
    engine = create_engine(legacy_url)
    with engine.connect() as conn:
        assert schema.current(conn) == (schema.head(),)
        # revision 0003 filled in each game's last move from its log
        unset = conn.execute(text("SELECT COUNT(*) FROM games WHERE moved IS NULL")).scalar()
        assert unset == 0
    engine.dispose()


def test_a_database_newer_than_the_server_is_refused_with_one_line(new_url: Any) -> None:
    url = new_url()
    Store(url).close()
    engine = create_engine(url)
    with engine.begin() as conn:
        conn.execute(text("UPDATE alembic_version SET version_num = 'f00d_from_the_future'"))
    engine.dispose()

    with pytest.raises(StoreUnavailable, match="newer than this Robinson knows"):
        Store(url)
    cmd = [sys.executable, "-c", "import sys, robinson.cli as c; sys.exit(c.main())"]
    done = subprocess.run(
        [*cmd, "serve", "--port", "1", "--database", url],
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    assert done.returncode == 2
    lines = done.stderr.strip().splitlines()
    assert len(lines) == 1 and "f00d_from_the_future" in lines[0], done.stderr
    assert "upgrade Robinson" in lines[0]


def test_a_database_with_only_some_tables_and_no_revision_is_refused(new_url: Any) -> None:
    url = new_url()
    engine = create_engine(url)
    LEGACY.tables["tables"].create(engine)
    engine.dispose()
    with pytest.raises(StoreUnavailable, match="only some of Robinson's tables"):
        Store(url)


def test_the_revisions_make_exactly_the_schema_the_code_queries(new_url: Any) -> None:
    url = new_url()
    Store(url).close()
    engine = create_engine(url)
    with engine.connect() as conn:
        assert schema.current(conn) == (schema.head(),)
        assert compare_metadata(MigrationContext.configure(conn), metadata) == []
    engine.dispose()


def test_the_head_the_server_checks_first_is_alembics_head() -> None:
    """A database at `schema.HEAD` is used without importing Alembic: HEAD must be the newest
    revision of web/store/migrations/versions, or a new revision would never run."""
    assert schema.head() == schema.HEAD
