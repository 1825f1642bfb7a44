"""The store's queries over every table, for the sweeps: the next clock to fall due, the games
whose clock has, the tables to resume on start, the idle tables to close. `Store` has them."""

from __future__ import annotations

from sqlalchemy import and_, func, or_, select, update
from sqlalchemy.engine import Engine

from robinson.web.store.dialects import _guarded
from robinson.web.store.schema_tables import games, seats, tables


class Sweeps:
    engine: Engine

    @_guarded
    def next_deadline(self) -> int | None:
        """The earliest deadline of a current unfinished game (Unix ms), if any has a clock."""
        with self.engine.connect() as conn:
            value = conn.execute(
                select(func.min(games.c.deadline))
                .join(tables, tables.c.current_game == games.c.id)
                .where(games.c.over == 0)
            ).scalar()
        return None if value is None else int(value)

    @_guarded
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

    @_guarded
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

    @_guarded
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
