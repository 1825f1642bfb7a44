"""Storage: tables, their seats and games, and each game's append-only action log (SQLAlchemy).

A game's state is never stored as the truth: it is rebuilt by replaying the log (the engine's
rule: replay is the only way state is rebuilt). `games.summary` (the one-line position) is a
convenience for listings and tests. `actions` has the primary key (game_id, seq), so a second
write of the same step fails instead of forking the game. Every write is one transaction,
committed before the caller tells anyone about it.

Backends: SQLite (the default, a file) and PostgreSQL through psycopg 3 (`postgresql+psycopg://`,
the `postgres` extra). Only portable SQL is used; what differs is kept here: SQLite's PRAGMAs,
PostgreSQL's schema lock, and how each reports a duplicate step (both become `Conflict`).
"""

from __future__ import annotations

import json
import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

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
    and_,
    create_engine,
    event,
    func,
    insert,
    or_,
    select,
    text,
    update,
)
from sqlalchemy.engine import URL, Engine, make_url
from sqlalchemy.exc import ArgumentError, DBAPIError, IntegrityError, NoSuchModuleError

from robinson.web import schema

# What the queries below use. The database itself is made and changed only by the revisions in
# web/migrations/ (schema.py runs them); a test checks this matches the newest revision.
metadata = MetaData()

tables = Table(
    "tables",
    metadata,
    Column("id", String(32), primary_key=True),
    Column("language", String(8), nullable=False),
    Column("created", BigInteger, nullable=False),  # Unix seconds (64-bit: past 2038)
    Column("current_game", String(32), nullable=True),
    # The host (the table's creator): SHA-256 of the host's secret, which shows the invites.
    Column("host_sha256", String(64), nullable=True),
    Column("move_seconds", Integer, nullable=True),  # the clock: seconds per move, None = none
    Column("closed", BigInteger, nullable=True),  # Unix seconds it was closed unfinished
)

seats = Table(
    "seats",
    metadata,
    Column("table_id", String(32), ForeignKey("tables.id"), nullable=False),
    Column("seat", Integer, nullable=False),
    Column("name", String(64), nullable=False),
    Column("kind", String(8), nullable=False),  # "human" or "bot"
    Column("bot", String(32), nullable=True),  # the bot's name when kind == "bot"
    Column("token_sha256", String(64), nullable=False),
    # SHA-256 of the seat's live one-time invite code; NULL once claimed (docs/protocol.md).
    Column("invite_sha256", String(64), nullable=True),
    Column("seen_at", BigInteger, nullable=True),  # Unix ms the seat was last connected
    Column("timeouts", Integer, nullable=False, server_default="0"),  # timed-out moves in a row
    PrimaryKeyConstraint("table_id", "seat"),
)

games = Table(
    "games",
    metadata,
    Column("id", String(32), primary_key=True),
    Column("table_id", String(32), ForeignKey("tables.id"), nullable=False, index=True),
    Column("number", Integer, nullable=False),  # 1 for the first game at a table, 2 for a rematch
    Column("ruleset", Text, nullable=False),  # JSON
    Column("players", Text, nullable=False),  # JSON list of names at the start
    Column("first", Integer, nullable=False),
    Column("seed", String(128), nullable=False),  # hex; secret until the game is over
    Column("seed_sha256", String(64), nullable=False),
    Column("created", BigInteger, nullable=False),  # Unix seconds (64-bit: past 2038)
    Column("version", Integer, nullable=False),  # number of actions in the log
    Column("over", Integer, nullable=False),
    Column("summary", Text, nullable=False),
    Column("deadline", BigInteger, nullable=True),  # Unix ms the seat to move runs out of time
    Column("to_move", Integer, nullable=True),  # null: over (or stored before revision 0003)
    Column("moved", BigInteger, nullable=True),  # Unix seconds of the last move (or creation)
)

actions = Table(
    "actions",
    metadata,
    Column("game_id", String(32), ForeignKey("games.id"), nullable=False),
    Column("seq", Integer, nullable=False),
    Column("action", Text, nullable=False),  # the engine's record form: {"roll": 3}
    Column("seat", Integer, nullable=True),  # who acted (the bot's seat too)
    Column("created", BigInteger, nullable=False),  # Unix seconds (64-bit: past 2038)
    PrimaryKeyConstraint("game_id", "seq"),
)


# What happened to the seats, told in the log between moves: hand-overs, take-backs, timeouts.
# `version` is the number of actions before it; `data` JSON (seat, actor, away seconds...).
notes = Table(
    "notes",
    metadata,
    Column("id", Integer, primary_key=True, autoincrement=True),
    Column("game_id", String(32), ForeignKey("games.id"), nullable=False, index=True),
    Column("version", Integer, nullable=False),
    Column("kind", String(16), nullable=False),
    Column("data", Text, nullable=False),
    Column("created", BigInteger, nullable=False),
)


# (table, seat, column values) of seats to update with a write.
SeatChanges = Sequence[tuple[str, int, dict[str, Any]]]
KEEP: Any = object()  # change_seats: leave the game's deadline as it is


class Conflict(Exception):
    """The step was already written: another writer got there first."""


class StoreUnavailable(Exception):
    """The database cannot be used: a bad URL, a missing driver, or no answer. Says which."""


EXAMPLE_URLS = "sqlite:////path/to/robinson.sqlite3 or postgresql+psycopg://user:password@host/db"
# Any fixed number: the key of PostgreSQL's advisory lock held while the schema is upgraded.
SCHEMA_ATTEMPTS = 10
SCHEMA_LOCK = 0x526F62696E73


@dataclass
class SeatRow:
    seat: int
    name: str
    kind: str
    bot: str | None
    token_sha256: str
    invite_sha256: str | None = None
    seen_at: int | None = None
    timeouts: int = 0


@dataclass
class Note:
    """A line of the log that is not a move: who handed which seat to a bot, a timeout..."""

    version: int
    kind: str
    data: dict[str, Any]


@dataclass
class GameRow:
    id: str
    table_id: str
    number: int
    ruleset: dict[str, Any]
    players: list[str]
    first: int
    seed: str
    seed_sha256: str
    created: int
    actions: list[dict[str, Any]]
    deadline: int | None = None  # Unix ms
    notes: list[Note] = field(default_factory=list)


@dataclass
class TableRow:
    id: str
    language: str
    created: int
    current_game: str | None
    seats: list[SeatRow]
    host_sha256: str | None = None
    move_seconds: int | None = None
    closed: int | None = None


def default_url() -> str:
    from platformdirs import user_data_dir

    folder = Path(user_data_dir("robinson"))
    folder.mkdir(parents=True, exist_ok=True)
    return f"sqlite:///{folder / 'robinson.sqlite3'}"


def _sqlite_pragmas(dbapi_connection: Any, _record: Any) -> None:
    # WAL lets readers go on during a write; synchronous=FULL makes a commit survive power loss,
    # not only a killed process, which is the promise "an accepted action is durable".
    # busy_timeout first: switching to WAL takes a lock, and several servers (or threads) opening
    # one new file at once must wait for it rather than fail with "database is locked".
    cursor = dbapi_connection.cursor()
    cursor.execute("PRAGMA busy_timeout=10000")
    cursor.execute("PRAGMA journal_mode=WAL")
    cursor.execute("PRAGMA synchronous=FULL")
    cursor.execute("PRAGMA foreign_keys=ON")
    cursor.close()


def database_url(url: str) -> URL:
    """Parse a database URL; `postgres://` and `postgresql://` mean psycopg 3, the driver we pin."""
    try:
        parsed = make_url(url)
    except ArgumentError:
        raise StoreUnavailable(
            f"{url!r} is not a database URL; expected e.g. {EXAMPLE_URLS}"
        ) from None
    if parsed.drivername in ("postgres", "postgresql"):
        parsed = parsed.set(drivername="postgresql+psycopg")
    return parsed


def _is_duplicate(error: IntegrityError) -> bool:
    """Whether the statement broke a primary key or unique constraint (not, say, a foreign key)."""
    sqlstate = getattr(error.orig, "sqlstate", None)  # psycopg: the SQL standard's code
    if sqlstate is not None:
        return bool(sqlstate == "23505")  # unique_violation
    name = getattr(error.orig, "sqlite_errorname", "")  # sqlite3 (Python 3.11+)
    return name in ("SQLITE_CONSTRAINT_PRIMARYKEY", "SQLITE_CONSTRAINT_UNIQUE")


class Store:
    """The database. Raises `StoreUnavailable` with a readable reason if it cannot be opened."""

    def __init__(self, url: str) -> None:
        parsed = database_url(url)
        self.url = parsed.render_as_string(hide_password=False)
        shown = parsed.render_as_string(hide_password=True)
        try:
            sqlite = parsed.get_backend_name() == "sqlite"
            # pre_ping: a server-side database may restart under us; check a pooled connection
            # before use instead of failing the next move. A SQLite file has no such life.
            self.engine: Engine = create_engine(parsed, pool_pre_ping=not sqlite)
        except NoSuchModuleError:
            raise StoreUnavailable(
                f"unknown database kind {parsed.drivername!r} in {shown}; expected {EXAMPLE_URLS}"
            ) from None
        except ImportError as e:
            raise StoreUnavailable(
                f"the driver for {parsed.drivername} is not installed ({e}); the stores Robinson "
                "supports are SQLite and PostgreSQL (pip install 'robinson[postgres]')"
            ) from None
        if sqlite:
            event.listen(self.engine, "connect", _sqlite_pragmas)
        try:
            self._create_schema()
        except schema.SchemaError as e:
            self.engine.dispose()
            raise StoreUnavailable(f"cannot use the database {shown}: {e}") from None
        except DBAPIError as e:
            self.engine.dispose()
            reason = str(e.orig).strip().splitlines()[0] if e.orig else str(e)
            raise StoreUnavailable(f"cannot open the database {shown}: {reason}") from None

    def _create_schema(self) -> None:
        # Two servers starting at once must not both create or upgrade the schema. PostgreSQL:
        # an advisory lock (released at commit) makes the second wait, and its DDL is
        # transactional. SQLite: BEGIN IMMEDIATE takes the write lock at once (the second waits
        # out busy_timeout); "database is locked" can still come from the WAL switch racing a
        # first connection, and is simply tried again a moment later.
        for attempt in range(SCHEMA_ATTEMPTS):
            try:
                with self.engine.connect() as conn:
                    if self.engine.dialect.name == "postgresql":
                        conn.execute(
                            text("SELECT pg_advisory_xact_lock(:key)"), {"key": SCHEMA_LOCK}
                        )
                    else:
                        conn.exec_driver_sql("BEGIN IMMEDIATE")
                    schema.upgrade(conn)
                    conn.commit()
                return
            except DBAPIError as e:
                if attempt == SCHEMA_ATTEMPTS - 1 or "database is locked" not in str(e.orig):
                    raise
                time.sleep(0.02 * (attempt + 1))

    def close(self) -> None:
        self.engine.dispose()

    # -- writes --------------------------------------------------------------------------------

    def create_table(self, table: TableRow, game: GameRow, summary: str) -> None:
        with self.engine.begin() as conn:
            conn.execute(
                insert(tables).values(
                    id=table.id,
                    language=table.language,
                    created=table.created,
                    current_game=None,
                    host_sha256=table.host_sha256,
                    move_seconds=table.move_seconds,
                )
            )
            conn.execute(
                insert(seats),
                [{"table_id": table.id, **vars(s)} for s in table.seats],
            )
            self._insert_game(conn, game, summary)

    def add_game(self, game: GameRow, summary: str) -> None:
        with self.engine.begin() as conn:
            self._insert_game(conn, game, summary)

    def _insert_game(self, conn: Any, game: GameRow, summary: str) -> None:
        conn.execute(
            insert(games).values(
                id=game.id,
                table_id=game.table_id,
                number=game.number,
                ruleset=json.dumps(game.ruleset),
                players=json.dumps(game.players, ensure_ascii=False),
                first=game.first,
                seed=game.seed,
                seed_sha256=game.seed_sha256,
                created=game.created,
                version=0,
                over=0,
                summary=summary,
                deadline=game.deadline,
                to_move=game.first,
                moved=game.created,
            )
        )
        conn.execute(
            update(tables).where(tables.c.id == game.table_id).values(current_game=game.id)
        )

    def append(
        self,
        game_id: str,
        seq: int,
        action: dict[str, Any],
        seat: int | None,
        summary: str,
        over: bool,
        to_move: int | None = None,
        *,
        deadline: int | None = None,
        seats_changed: SeatChanges = (),
        new_notes: Sequence[Note] = (),
    ) -> None:
        """Write step `seq` of a game (`to_move`: the seat to move next), with the deadline of
        the next move, the seat changes and the notes that go with it, in one transaction.
        Raises `Conflict` if that step exists already."""
        now = int(time.time())
        try:
            with self.engine.begin() as conn:
                conn.execute(
                    insert(actions).values(
                        game_id=game_id,
                        seq=seq,
                        action=json.dumps(action),
                        seat=seat,
                        created=now,
                    )
                )
                conn.execute(
                    update(games)
                    .where(games.c.id == game_id)
                    .values(
                        version=seq + 1,
                        over=int(over),
                        summary=summary,
                        deadline=deadline,
                        to_move=None if over else to_move,
                        moved=now,
                    )
                )
                self._write_changes(conn, game_id, seats_changed, new_notes)
        except IntegrityError as e:
            if not _is_duplicate(e):
                raise
            raise Conflict(f"game {game_id} already has step {seq}") from e

    def change_seats(
        self,
        game_id: str,
        seats_changed: SeatChanges,
        new_notes: Sequence[Note] = (),
        deadline: Any = KEEP,
    ) -> None:
        """Seat changes between moves (a bot takes a seat, its human takes it back, a new
        invite), with their notes and the new deadline (KEEP: unchanged), in one transaction."""
        with self.engine.begin() as conn:
            if deadline is not KEEP:
                conn.execute(update(games).where(games.c.id == game_id).values(deadline=deadline))
            self._write_changes(conn, game_id, seats_changed, new_notes)

    def _write_changes(
        self, conn: Any, game_id: str, seats_changed: SeatChanges, new_notes: Sequence[Note]
    ) -> None:
        for table_id, seat, values in seats_changed:
            conn.execute(
                update(seats)
                .where(seats.c.table_id == table_id, seats.c.seat == seat)
                .values(**values)
            )
        now = int(time.time())
        for n in new_notes:
            conn.execute(
                insert(notes).values(
                    game_id=game_id,
                    version=n.version,
                    kind=n.kind,
                    data=json.dumps(n.data, ensure_ascii=False),
                    created=now,
                )
            )

    def claim(self, table_id: str, seat: int, invite_sha256: str, token_sha256: str) -> bool:
        """Spend a seat's invite: the seat gets a new secret. False if the invite was spent
        already (by another browser, maybe through another server process)."""
        with self.engine.begin() as conn:
            done = conn.execute(
                update(seats)
                .where(
                    seats.c.table_id == table_id,
                    seats.c.seat == seat,
                    seats.c.invite_sha256 == invite_sha256,
                )
                .values(invite_sha256=None, token_sha256=token_sha256, timeouts=0)
            )
            return bool(done.rowcount == 1)

    def set_seen(self, table_id: str, seat: int, seen_at: int) -> None:
        with self.engine.begin() as conn:
            conn.execute(
                update(seats)
                .where(seats.c.table_id == table_id, seats.c.seat == seat)
                .values(seen_at=seen_at)
            )

    # -- reads ---------------------------------------------------------------------------------

    def load_table(self, table_id: str) -> TableRow | None:
        with self.engine.connect() as conn:
            row = conn.execute(select(tables).where(tables.c.id == table_id)).first()
            if row is None:
                return None
            seat_rows = conn.execute(
                select(seats).where(seats.c.table_id == table_id).order_by(seats.c.seat)
            ).all()
        return TableRow(
            id=row.id,
            language=row.language,
            created=row.created,
            current_game=row.current_game,
            seats=[
                SeatRow(
                    s.seat,
                    s.name,
                    s.kind,
                    s.bot,
                    s.token_sha256,
                    s.invite_sha256,
                    s.seen_at,
                    s.timeouts,
                )
                for s in seat_rows
            ],
            host_sha256=row.host_sha256,
            move_seconds=row.move_seconds,
            closed=row.closed,
        )

    def load_game(self, game_id: str) -> GameRow | None:
        with self.engine.connect() as conn:
            row = conn.execute(select(games).where(games.c.id == game_id)).first()
            if row is None:
                return None
            steps = conn.execute(
                select(actions.c.seq, actions.c.action)
                .where(actions.c.game_id == game_id)
                .order_by(actions.c.seq)
            ).all()
            note_rows = conn.execute(
                select(notes.c.version, notes.c.kind, notes.c.data)
                .where(notes.c.game_id == game_id)
                .order_by(notes.c.id)
            ).all()
        for expected, step in enumerate(steps):
            if step.seq != expected:  # the key makes gaps impossible unless the file was edited
                raise RuntimeError(f"game {game_id}: the action log has a gap at step {expected}")
        return GameRow(
            id=row.id,
            table_id=row.table_id,
            number=row.number,
            ruleset=json.loads(row.ruleset),
            players=json.loads(row.players),
            first=row.first,
            seed=row.seed,
            seed_sha256=row.seed_sha256,
            created=row.created,
            actions=[json.loads(s.action) for s in steps],
            deadline=row.deadline,
            notes=[Note(n.version, n.kind, json.loads(n.data)) for n in note_rows],
        )

    def tables_with_unfinished_games(self) -> list[str]:
        with self.engine.connect() as conn:
            rows = conn.execute(
                select(tables.c.id)
                .join(games, games.c.id == tables.c.current_game)
                .where(games.c.over == 0)
            ).all()
        return [r.id for r in rows]

    def next_deadline(self) -> int | None:
        """The earliest deadline of a current unfinished game (Unix ms), if any has a clock."""
        with self.engine.connect() as conn:
            value = conn.execute(
                select(func.min(games.c.deadline))
                .join(tables, tables.c.current_game == games.c.id)
                .where(games.c.over == 0)
            ).scalar()
        return None if value is None else int(value)

    def due_games(self, now_ms: int) -> list[tuple[str, str]]:
        """(game, table) of the current unfinished games whose deadline has passed."""
        with self.engine.connect() as conn:
            rows = conn.execute(
                select(games.c.id, games.c.table_id)
                .join(tables, tables.c.current_game == games.c.id)
                .where(games.c.over == 0, games.c.deadline <= now_ms)
                .order_by(games.c.deadline)
            ).all()
        return [(r.id, r.table_id) for r in rows]

    def tables_to_resume(self) -> list[str]:
        """The open tables whose current game waits for a bot: all the server must load on start
        (the others load when first asked for). A game stored before revision 0003 has no
        `to_move`: its table is resumed if it has a bot seat at all."""
        bot_seat = select(seats.c.seat).where(
            seats.c.table_id == tables.c.id, seats.c.kind == "bot"
        )
        with self.engine.connect() as conn:
            rows = conn.execute(
                select(tables.c.id)
                .join(games, games.c.id == tables.c.current_game)
                .where(
                    games.c.over == 0,
                    tables.c.closed.is_(None),
                    or_(
                        and_(games.c.to_move.is_(None), bot_seat.exists()),
                        bot_seat.where(seats.c.seat == games.c.to_move).exists(),
                    ),
                )
            ).all()
        return [r.id for r in rows]

    def close_idle(self, before: int, now: int) -> list[str]:
        """Close the open tables whose unfinished game has had no move since `before`; returns
        their ids. Their games and logs stay; only `tables.closed` is set."""
        with self.engine.begin() as conn:
            ids = [
                r.id
                for r in conn.execute(
                    select(tables.c.id)
                    .join(games, games.c.id == tables.c.current_game)
                    .where(games.c.over == 0, tables.c.closed.is_(None), games.c.moved < before)
                ).all()
            ]
            for start in range(0, len(ids), 500):  # bounded IN lists
                conn.execute(
                    update(tables)
                    .where(tables.c.id.in_(ids[start : start + 500]))
                    .values(closed=now)
                )
        return ids

    def games_of_table(self, table_id: str) -> list[tuple[str, int, bool]]:
        with self.engine.connect() as conn:
            rows = conn.execute(
                select(games.c.id, games.c.number, games.c.over)
                .where(games.c.table_id == table_id)
                .order_by(games.c.number)
            ).all()
        return [(r.id, r.number, bool(r.over)) for r in rows]
