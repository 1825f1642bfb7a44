"""The schema's migrations, on SQLite and PostgreSQL: a database written before migrations existed
(today's schema, no alembic_version) with games in it is upgraded by the real server on start and
loses nothing; a database newer than the server is refused with one line; the revisions make
exactly the schema the code queries."""

from __future__ import annotations

import subprocess
import sys
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

from robinson.web.store import Store, StoreUnavailable, metadata, schema
from tests.web.conftest import Server, forward

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


@pytest.fixture(params=["sqlite", "postgresql"])
def new_url(request: pytest.FixtureRequest, tmp_path: Any) -> Any:
    """Make fresh empty databases of one kind: call it for each one."""
    numbers = iter(range(100))
    if request.param == "sqlite":
        return lambda: f"sqlite:///{tmp_path / f'db{next(numbers)}.sqlite3'}"
    pg = request.getfixturevalue("postgres")
    return pg.new_database


def _move(srv: Server, t: dict[str, Any]) -> dict[str, Any]:
    game: dict[str, Any] = srv.get(f"/api/tables/{t['table']}").json()["game"]
    body = {
        "token": t["seats"][game["to_move"]]["token"],
        "version": game["version"],
        "move": forward(game["legal"]),
    }
    r = srv.post(f"/api/games/{game['id']}/actions", body)
    assert r.status_code == 200, r.text
    return game


def _play_to_the_end(srv: Server, t: dict[str, Any]) -> None:
    for _ in range(5000):
        if srv.get(f"/api/tables/{t['table']}").json()["game"]["over"]:
            return
        _move(srv, t)
    pytest.fail("the game did not end")


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


def _views(srv: Server, made: list[dict[str, Any]]) -> list[Any]:
    views = []
    for t in made:
        view = srv.get(f"/api/tables/{t['table']}").json()
        for player in view["game"]["players"]:
            # A database from before revision 0002 has no invites: every seat counts as claimed.
            del player["claimed"]
        views.append((view, srv.get(f"/api/games/{view['game']['id']}/record").json()))
    return views


def test_a_database_from_before_migrations_is_upgraded_on_start_and_loses_nothing(
    new_url: Any,
) -> None:
    # Real games, written by the real server: one finished and rematched, two part-played.
    source = Server(new_url())
    source.start()
    try:
        made = [source.create([{"name": n} for n in names]) for names in ("AB", "CDE", "FG")]
        _play_to_the_end(source, made[0])
        first_game = made[0]["game"]
        token = made[0]["seats"][0]["token"]
        r = source.post(f"/api/tables/{made[0]['table']}/rematch", {"token": token})
        assert r.status_code == 200, r.text
        for t in made:
            for _ in range(7):
                _move(source, t)
        before = _views(source, made)
        finished = source.get(f"/api/games/{first_game}/record").json()
    finally:
        source.stop()
    rows = _rows(source.url_db, LEGACY)  # what an old database could hold

    # The same rows in a database made with the old code's schema (no alembic_version).
    legacy_url = new_url()
    engine = create_engine(legacy_url)
    LEGACY.create_all(engine)
    with engine.begin() as conn:
        for name in ORDER:
            conn.execute(insert(LEGACY.tables[name]), rows[name])
    engine.dispose()

    srv = Server(legacy_url)
    srv.start()
    try:
        assert _views(srv, made) == before  # every game, move, seat, seed hash
        assert srv.get(f"/api/games/{first_game}/record").json() == finished
        for t in made:  # and every game plays on to its end
            _play_to_the_end(srv, t)
    finally:
        srv.stop()
    after = _rows(legacy_url, LEGACY)
    for name in ("tables", "seats", "actions"):  # every old row is there, unchanged
        assert [r for r in rows[name] if r not in after[name]] == [], name
    moving = ("version", "over", "summary")  # a game's row follows its moves; the rest is fixed
    fixed = [{k: v for k, v in g.items() if k not in moving} for g in after["games"]]
    for game in rows["games"]:
        assert {k: v for k, v in game.items() if k not in moving} in fixed
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
