"""The store's side of notifications (docs/notifications.md): each notice told once, and the
clocked moves whose reminders fall due. `Store` has these (a mixin, like sweeps.py)."""

from __future__ import annotations

from sqlalchemy import delete, func, insert, select
from sqlalchemy.engine import Engine
from sqlalchemy.exc import IntegrityError

from robinson.web.store.dialects import _guarded, is_duplicate
from robinson.web.store.schema_tables import games, notices_sent, tables

# The 80 % point of a move's time is its deadline less a fifth of the move: in ms, 200 per second.
MS_PER_SECOND_LEFT = 200
HOUR_MS = 3_600_000


class Notices:
    engine: Engine

    @_guarded
    def claim_notice(self, key: str, now_ms: int) -> bool:
        """Take `key` (a notice's) for this process: False if it was taken already, by any
        process, before or since a restart. The primary key decides."""
        try:
            with self.engine.begin() as conn:
                conn.execute(insert(notices_sent).values(key=key, created=now_ms))
            return True
        except IntegrityError as e:
            if not is_duplicate(e):
                raise
            return False

    @_guarded
    def prune_notices(self, before_ms: int) -> int:
        """Forget the keys of notices told before `before_ms` (their games are long done)."""
        with self.engine.begin() as conn:
            done = conn.execute(delete(notices_sent).where(notices_sent.c.created < before_ms))
            return int(done.rowcount or 0)

    @_guarded
    def reminders_due(
        self, now_ms: int, min_seconds: int
    ) -> list[tuple[str, str, int, int, int | None]]:
        """(game, table, deadline, move seconds, seat to move) of the current unfinished games
        with a clock of at least `min_seconds` whose move is past 80 % of its time and not yet
        out of it: the ones a reminder may be due for."""
        point = games.c.deadline - tables.c.move_seconds * MS_PER_SECOND_LEFT
        with self.engine.connect() as conn:
            rows = conn.execute(
                select(
                    games.c.id,
                    games.c.table_id,
                    games.c.deadline,
                    tables.c.move_seconds,
                    games.c.to_move,
                )
                .join(tables, tables.c.current_game == games.c.id)
                .where(
                    games.c.over == 0,
                    tables.c.closed.is_(None),
                    tables.c.move_seconds >= min_seconds,
                    point <= now_ms,
                    games.c.deadline > now_ms,
                )
                .order_by(games.c.deadline)
            ).all()
        return [(r[0], r[1], int(r[2]), int(r[3]), r[4]) for r in rows]

    @_guarded
    def next_reminder(self, now_ms: int, min_seconds: int, hour_seconds: int) -> int | None:
        """The earliest reminder point after `now_ms` (Unix ms) of a current unfinished game:
        80 % of a move of at least `min_seconds`, or an hour before the end of one of at least
        `hour_seconds`."""
        base = (
            select()
            .select_from(games)
            .join(tables, tables.c.current_game == games.c.id)
            .where(games.c.over == 0, tables.c.closed.is_(None), games.c.deadline > now_ms)
        )
        share = games.c.deadline - tables.c.move_seconds * MS_PER_SECOND_LEFT
        hour = games.c.deadline - HOUR_MS
        with self.engine.connect() as conn:
            first = conn.execute(
                base.add_columns(func.min(share)).where(
                    tables.c.move_seconds >= min_seconds, share > now_ms
                )
            ).scalar()
            last = conn.execute(
                base.add_columns(func.min(hour)).where(
                    tables.c.move_seconds >= hour_seconds, hour > now_ms
                )
            ).scalar()
        found = [int(v) for v in (first, last) if v is not None]
        return min(found) if found else None
