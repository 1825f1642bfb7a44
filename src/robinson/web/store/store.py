"""Storage: tables, their seats and games, and each game's append-only action log (SQLAlchemy).

A game's state is never stored as the truth: it is rebuilt by replaying the log (the engine's
rule: replay is the only way state is rebuilt). `games.summary` (the one-line position) is a
convenience for listings and tests. `actions` has the primary key (game_id, seq), so a second
write of the same step fails instead of forking the game. Every write is one transaction,
committed before the caller tells anyone about it.

Backends: SQLite (the default, a file) and PostgreSQL through psycopg 3 (`postgresql+psycopg://`,
the `postgres` extra). Only portable SQL is used; what differs is in dialects.py (SQLite's
PRAGMAs, how each reports a duplicate step) and here (PostgreSQL's schema lock).
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any

from sqlalchemy import (
    create_engine,
    event,
    insert,
    select,
    update,
)
from sqlalchemy.engine import Engine
from sqlalchemy.exc import DBAPIError, IntegrityError, NoSuchModuleError

from robinson.web.store import dice_seeds, schema
from robinson.web.store.addresses import Addresses
from robinson.web.store.dialects import (
    EXAMPLE_URLS,
    _guarded,
    _sqlite_pragmas,
    database_url,
    default_url,
    is_duplicate,
)
from robinson.web.store.errors import Conflict, StoreUnavailable
from robinson.web.store.notices import Notices
from robinson.web.store.rows import KEEP, GameRow, Note, SeatChange, SeatRow, Step, TableRow
from robinson.web.store.schema_tables import actions, games, notes, seats, tables
from robinson.web.store.seeds import SeedBox
from robinson.web.store.sweeps import Sweeps

if TYPE_CHECKING:
    from robinson.web.store.writer import Writer


class Store(Sweeps, Notices, Addresses):
    """The database. Raises `StoreUnavailable` with a readable reason if it cannot be opened."""

    def __init__(self, url: str, seeds: SeedBox | None = None) -> None:
        self.seeds = seeds or SeedBox(None)  # the dice seeds at rest (seeds.py)
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
            schema.prepare(self.engine)
        except schema.SchemaError as e:
            self.engine.dispose()
            raise StoreUnavailable(f"cannot use the database {shown}: {e}") from None
        except DBAPIError as e:
            self.engine.dispose()
            reason = str(e.orig).strip().splitlines()[0] if e.orig else str(e)
            raise StoreUnavailable(f"cannot open the database {shown}: {reason}") from None

    def close(self) -> None:
        self.engine.dispose()

    def writer(self) -> Writer:
        """What writes the moves' steps (the hot path): web/store/writer.py."""
        from robinson.web.store.writer import GroupWriter

        return GroupWriter(self)

    # -- writes --------------------------------------------------------------------------------

    @_guarded
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
                    vacation_days=table.vacation_days,
                )
            )
            conn.execute(
                insert(seats),
                [{"table_id": table.id, **vars(s)} for s in table.seats],
            )
            self._insert_game(conn, game, summary)

    @_guarded
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
                seed=self.seeds.seal(game.id, game.seed),
                seed_sha256=game.seed_sha256,
                created=game.created,
                version=0,
                over=0,
                summary=summary,
                deadline=game.deadline,
                to_move=game.first,
                moved=game.created,
                dice_scheme=game.scheme,
            )
        )
        conn.execute(
            update(tables).where(tables.c.id == game.table_id).values(current_game=game.id)
        )

    @_guarded
    def append(self, step: Step, summary: str, over: bool, to_move: int | None) -> None:
        """Write `step` (`to_move`: the seat to move after it; `summary`: the position's text
        form) with its deadline, seat rows and notes, in one transaction. Raises `Conflict` if
        the game has that step already."""
        moved = step.at // 1000
        try:
            with self.engine.begin() as conn:
                conn.execute(
                    insert(actions).values(
                        game_id=step.game,
                        seq=step.seq,
                        action=json.dumps(step.action.to_json()),
                        seat=step.seat,
                        created=moved,
                    )
                )
                conn.execute(
                    update(games)
                    .where(games.c.id == step.game)
                    .values(
                        version=step.seq + 1,
                        over=int(over),
                        summary=summary,
                        deadline=step.deadline,
                        to_move=None if over else to_move,
                        moved=moved,
                    )
                )
                self._write_changes(conn, step.table, step.game, step.seats, step.notes, moved)
        except IntegrityError as e:
            if not is_duplicate(e):
                raise
            raise Conflict(f"game {step.game} already has step {step.seq}") from e

    @_guarded
    def change_seats(self, change: SeatChange) -> None:
        """Seat changes between moves (a bot takes a seat, its human takes it back, a new
        invite), with their notes and the new deadline, in one transaction."""
        with self.engine.begin() as conn:
            if change.deadline is not KEEP:
                conn.execute(
                    update(games).where(games.c.id == change.game).values(deadline=change.deadline)
                )
            self._write_changes(
                conn, change.table, change.game, change.seats, change.notes, change.at // 1000
            )

    def _write_changes(
        self,
        conn: Any,
        table_id: str,
        game_id: str,
        rows: Sequence[SeatRow],
        new_notes: Sequence[Note],
        now: int,
    ) -> None:
        # `seen_at` is presence's own column (set_seen): a seat row carried by a step must not
        # write back an older time over it.
        for row in rows:
            conn.execute(
                update(seats)
                .where(seats.c.table_id == table_id, seats.c.seat == row.seat)
                .values(
                    name=row.name,
                    kind=row.kind,
                    bot=row.bot,
                    token_sha256=row.token_sha256,
                    invite_sha256=row.invite_sha256,
                    timeouts=row.timeouts,
                )
            )
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

    @_guarded
    def claim(
        self, table_id: str, seat: int, invite_sha256: str | None, token_sha256: str, old: str = ""
    ) -> bool:
        """Spend a seat's invite (None: a device code made while its secret hashed to `old`):
        the seat gets a new secret. False if spent already (by another browser, maybe through
        another server process)."""
        spent = seats.c.token_sha256 == old
        values: dict[str, Any] = {"token_sha256": token_sha256}
        if invite_sha256 is not None:
            spent = seats.c.invite_sha256 == invite_sha256
            values = {**values, "invite_sha256": None, "timeouts": 0}
        with self.engine.begin() as conn:
            done = conn.execute(
                update(seats)
                .where(seats.c.table_id == table_id, seats.c.seat == seat, spent)
                .values(values)
            )
            return bool(done.rowcount == 1)

    @_guarded
    def add_seed(self, game_id: str, seat: int, seed_hex: str, at: int) -> bool:
        return dice_seeds.add(self.engine, game_id, seat, seed_hex, at)  # False: too late

    @_guarded
    def fix_seeds(self, game_id: str, at: int) -> dict[int, str]:
        return dice_seeds.fix(self.engine, game_id, at)  # before the first roll: the seeds

    @_guarded
    def set_seen(self, table_id: str, seen: Mapping[int, int]) -> None:
        """The seats' last-seen times (seat: Unix ms), in one transaction."""
        with self.engine.begin() as conn:
            for seat, seen_at in seen.items():
                conn.execute(
                    update(seats)
                    .where(seats.c.table_id == table_id, seats.c.seat == seat)
                    .values(seen_at=seen_at)
                )

    # -- reads ---------------------------------------------------------------------------------

    @_guarded
    def load_table(self, table_id: str) -> TableRow | None:
        with self.engine.connect() as conn:
            row = conn.execute(select(tables).where(tables.c.id == table_id)).first()
            if row is None:
                return None
            seat_rows = conn.execute(
                select(seats).where(seats.c.table_id == table_id).order_by(seats.c.seat)
            ).all()
            finished = conn.execute(
                select(games.c.id, games.c.summary)
                .where(games.c.table_id == table_id, games.c.over == 1)
                .order_by(games.c.number)
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
            vacation_days=row.vacation_days or 0,
            closed=row.closed,
            finished=tuple((g.id, g.summary) for g in finished),
        )

    @_guarded
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
            given = dice_seeds.read(conn, game_id)
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
            seed=self.seeds.open(row.id, row.seed, row.seed_sha256),
            seed_sha256=row.seed_sha256,
            created=row.created,
            actions=[json.loads(s.action) for s in steps],
            deadline=row.deadline,
            notes=[Note(n.version, n.kind, json.loads(n.data)) for n in note_rows],
            scheme=dice_seeds.scheme_of(row.dice_scheme),
            seeds=given,
        )


__all__ = ["Store", "database_url", "default_url"]
