"""The e-mail addresses left for seats (docs/notifications.md "E-mail"). `Store` has them.

Each "send at most once" rule is one conditional UPDATE, so whichever process runs it first
sends and any other finds nothing to do: a turn e-mail once per absence (the seat's `seen_at`
is newer than the last one), a reminder once per absence and move, a digest once a day per
address. No lock is needed beyond the database's own row locks.
"""

from __future__ import annotations

from dataclasses import dataclass, replace

from sqlalchemy import and_, delete, func, insert, or_, select, update
from sqlalchemy.engine import Engine
from sqlalchemy.exc import IntegrityError

from robinson.web.store.dialects import _guarded, is_duplicate
from robinson.web.store.schema_tables import email_addresses as mail
from robinson.web.store.schema_tables import games, seats, tables


@dataclass(frozen=True)
class Address:
    """An address as stored, with its seat's name (what a letter greets)."""

    table_id: str
    seat: int
    address: str
    language: str
    created: int
    confirmed: int | None
    name: str


@dataclass(frozen=True)
class Waiting:
    """A table where it is a seat's move, for the digest."""

    table_id: str
    name: str  # the seat's
    deadline: int | None  # Unix ms; None: no clock


_COLUMNS = (
    mail.c.table_id,
    mail.c.seat,
    mail.c.address,
    mail.c.language,
    mail.c.created,
    mail.c.confirmed,
    seats.c.name,
)
_SEAT = and_(seats.c.table_id == mail.c.table_id, seats.c.seat == mail.c.seat)


def _address(row: object) -> Address:
    return Address(*row)  # type: ignore[misc]  # the columns of _COLUMNS, in order


class _Refused(Exception):
    def __init__(self, next_chance: int) -> None:
        self.next_chance = next_chance


class Addresses:
    engine: Engine

    @_guarded
    def leave_address(
        self,
        table_id: str,
        seat: int,
        address: str,
        language: str,
        at: int,
        codes: tuple[str, str],
        digest: bool,
        limits: tuple[int, int, int],
    ) -> int | None:
        """Put `address` on the seat (replacing any other), unconfirmed; `codes`: the SHA-256 of
        its confirmation and unsubscribe codes. `limits` (seat_ms, address_ms, per_address): a
        seat asks for one confirmation per `seat_ms`, and an address is sent at most
        `per_address` per `address_ms` over every seat (nobody fills a stranger's mailbox from
        many tables). Refused, nothing changes and the time of the next chance is returned."""
        seat_ms, address_ms, per_address = limits
        # Written first, read after: a transaction that read before writing could not take
        # SQLite's write lock after another's commit. The primary key refuses a row the DELETE
        # left (asked too soon) and one a request at the same moment wrote.
        where = and_(mail.c.table_id == table_id, mail.c.seat == seat)
        try:
            with self.engine.begin() as conn:
                conn.execute(delete(mail).where(where, mail.c.created <= at - seat_ms))
                conn.execute(
                    insert(mail).values(
                        table_id=table_id,
                        seat=seat,
                        address=address,
                        language=language,
                        created=at,
                        confirm_sha256=codes[0],
                        unsubscribe_sha256=codes[1],
                        digest=int(digest),
                    )
                )
                recent = (
                    conn.execute(
                        select(mail.c.created)
                        .where(
                            mail.c.address == address,
                            mail.c.confirm_sha256.is_not(None),
                            mail.c.created > at - address_ms,
                        )
                        .order_by(mail.c.created.desc())
                    )
                    .scalars()
                    .all()
                )
                if len(recent) > per_address:  # undone: the transaction rolls back
                    raise _Refused(int(recent[per_address]) + address_ms)
        except _Refused as refused:
            return refused.next_chance
        except IntegrityError as e:
            if not is_duplicate(e):
                raise
            with self.engine.connect() as conn:
                before = conn.execute(select(mail.c.created).where(where)).scalar()
            return at + seat_ms if before is None else int(before) + seat_ms
        return None

    @_guarded
    def confirm_address(self, confirm_sha256: str, at: int) -> Address | None:
        """Confirm the address of that code (once: the code is cleared). Its digest joins the
        address's schedule at other seats, so an address gets one digest a day, not one per
        seat. None: no such code."""
        with self.engine.begin() as conn:
            row = conn.execute(
                select(*_COLUMNS).join(seats, _SEAT).where(mail.c.confirm_sha256 == confirm_sha256)
            ).first()
            if row is None:
                return None
            same = select(func.max(mail.c.digested)).where(
                mail.c.address == row.address, mail.c.confirmed.is_not(None)
            )
            schedule = conn.execute(same).scalar()
            done = conn.execute(
                update(mail)
                .where(mail.c.confirm_sha256 == confirm_sha256)
                .values(confirm_sha256=None, confirmed=at, digested=schedule or at)
            )
            if done.rowcount != 1:  # confirmed meanwhile by another click
                return None
        return replace(_address(row), confirmed=at)

    @_guarded
    def address_of_code(self, unsubscribe_sha256: str) -> Address | None:
        with self.engine.connect() as conn:
            row = conn.execute(
                select(*_COLUMNS)
                .join(seats, _SEAT)
                .where(mail.c.unsubscribe_sha256 == unsubscribe_sha256)
            ).first()
        return None if row is None else _address(row)

    @_guarded
    def remove_address(self, unsubscribe_sha256: str) -> Address | None:
        """Remove the address of that code from every seat it was left for; None: no such
        code (removed already)."""
        with self.engine.begin() as conn:
            row = conn.execute(
                select(*_COLUMNS)
                .join(seats, _SEAT)
                .where(mail.c.unsubscribe_sha256 == unsubscribe_sha256)
            ).first()
            if row is None:
                return None
            conn.execute(delete(mail).where(mail.c.address == row.address))
        return _address(row)

    @_guarded
    def mail_target(self, table_id: str, seat: int) -> Address | None:
        """The seat's confirmed address, if it has one."""
        with self.engine.connect() as conn:
            row = conn.execute(
                select(*_COLUMNS)
                .join(seats, _SEAT)
                .where(
                    mail.c.table_id == table_id,
                    mail.c.seat == seat,
                    mail.c.confirmed.is_not(None),
                )
            ).first()
        return None if row is None else _address(row)

    def _seen(self) -> object:
        """The seat's last connection (Unix ms; 0 if never), for a row of `email_addresses`."""
        return func.coalesce(select(seats.c.seen_at).where(_SEAT).scalar_subquery(), 0)

    @_guarded
    def claim_turn_mail(self, table_id: str, seat: int, at: int) -> bool:
        """Whether a "your turn" e-mail may go out now (and note that it does): none since the
        seat was last seen. Once per absence, whichever process asks first."""
        with self.engine.begin() as conn:
            done = conn.execute(
                update(mail)
                .where(
                    mail.c.table_id == table_id,
                    mail.c.seat == seat,
                    mail.c.confirmed.is_not(None),
                    or_(mail.c.mailed_turn.is_(None), mail.c.mailed_turn < self._seen()),
                )
                .values(mailed_turn=at)
            )
            return bool(done.rowcount == 1)

    @_guarded
    def release_turn_mail(self, table_id: str, seat: int, at: int) -> None:
        """The e-mail claimed at `at` could not be sent: the next turn may try again."""
        with self.engine.begin() as conn:
            conn.execute(
                update(mail)
                .where(mail.c.table_id == table_id, mail.c.seat == seat, mail.c.mailed_turn == at)
                .values(mailed_turn=None)
            )

    @_guarded
    def claim_reminder(self, table_id: str, seat: int, move: str, at: int) -> bool:
        """Whether a reminder may go out for `move` ("game:version"): one per move while the
        seat stays away (the 80 % one; the one-hour one only if he came and went again)."""
        with self.engine.begin() as conn:
            done = conn.execute(
                update(mail)
                .where(
                    mail.c.table_id == table_id,
                    mail.c.seat == seat,
                    mail.c.confirmed.is_not(None),
                    or_(
                        mail.c.reminded_move.is_(None),
                        mail.c.reminded_move != move,
                        mail.c.reminded < self._seen(),
                    ),
                )
                .values(reminded=at, reminded_move=move)
            )
            return bool(done.rowcount == 1)

    @_guarded
    def digests_due(self, before: int) -> list[str]:
        """The confirmed addresses that want a digest and had none after `before`."""
        with self.engine.connect() as conn:
            rows = conn.execute(
                select(mail.c.address)
                .where(mail.c.confirmed.is_not(None), mail.c.digest == 1, mail.c.digested <= before)
                .distinct()
            ).all()
        return sorted(r.address for r in rows)

    @_guarded
    def claim_digest(self, address: str, before: int, at: int) -> bool:
        """Whether this process sends the address's digest now (once, over every process)."""
        with self.engine.begin() as conn:
            done = conn.execute(
                update(mail)
                .where(
                    mail.c.address == address,
                    mail.c.confirmed.is_not(None),
                    mail.c.digest == 1,
                    mail.c.digested <= before,
                )
                .values(digested=at)
            )
            return bool(done.rowcount > 0)

    @_guarded
    def waiting_for(self, address: str) -> tuple[list[Waiting], Address | None]:
        """The open tables where it is the move of a seat the address was confirmed for (in no
        order), and the address's newest row (its language, a seat's unsubscribe code)."""
        with self.engine.connect() as conn:
            rows = conn.execute(
                select(mail.c.table_id, seats.c.name, games.c.deadline)
                .join(seats, _SEAT)
                .join(tables, tables.c.id == mail.c.table_id)
                .join(games, games.c.id == tables.c.current_game)
                .where(
                    mail.c.address == address,
                    mail.c.confirmed.is_not(None),
                    mail.c.digest == 1,
                    tables.c.closed.is_(None),
                    games.c.over == 0,
                    games.c.to_move == mail.c.seat,
                    seats.c.kind == "human",  # a seat handed to a bot is not waiting
                )
            ).all()
            newest = conn.execute(
                select(*_COLUMNS)
                .join(seats, _SEAT)
                .where(mail.c.address == address, mail.c.confirmed.is_not(None))
                .order_by(mail.c.confirmed.desc())
                .limit(1)
            ).first()
        waiting = [Waiting(r.table_id, r.name, r.deadline) for r in rows]
        return waiting, None if newest is None else _address(newest)
