"""Web Push subscriptions of seats (docs/notifications.md): what web/notify/push.py keeps.

A subscription belongs to a table's seat and to the seat's secret when it was made (hashed): a
seat that got a new secret since (its invite taken by someone, its devices revoked) has none of
its old subscriptions, so a browser that lost the seat is told nothing more of it. A push
service that says a subscription is gone (404, 410) has it removed, at every seat.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass

from sqlalchemy import and_, delete, insert, select
from sqlalchemy.engine import Engine
from sqlalchemy.exc import IntegrityError

from robinson.web.store.dialects import _guarded, is_duplicate
from robinson.web.store.schema_tables import push_subscriptions, seats


@dataclass(frozen=True, slots=True)
class PushRow:
    table_id: str
    seat: int
    endpoint: str
    p256dh: str
    auth: str
    language: str


def endpoint_key(endpoint: str) -> str:
    return hashlib.sha256(endpoint.encode("utf-8")).hexdigest()


class PushSubscriptions:
    def __init__(self, engine: Engine) -> None:
        self.engine = engine

    @_guarded
    def add(self, row: PushRow, token_sha256: str, now_ms: int) -> None:
        """Keep `row` for its seat (again: its keys and language are the new ones)."""
        key = endpoint_key(row.endpoint)
        values = {
            "table_id": row.table_id,
            "seat": row.seat,
            "endpoint_sha256": key,
            "endpoint": row.endpoint,
            "p256dh": row.p256dh,
            "auth": row.auth,
            "language": row.language,
            "token_sha256": token_sha256,
            "created": now_ms,
        }
        for _ in range(2):  # replaced by delete then insert: portable (no upsert)
            try:
                with self.engine.begin() as conn:
                    old = self._where(delete(push_subscriptions), row.table_id, row.seat, key)
                    conn.execute(old)
                    conn.execute(insert(push_subscriptions).values(**values))
                return
            except IntegrityError as e:  # the same browser at once from two tabs: once more
                if not is_duplicate(e):
                    raise

    @staticmethod
    def _where(statement, table_id: str, seat: int, key: str):  # type: ignore[no-untyped-def]
        c = push_subscriptions.c
        return statement.where(c.table_id == table_id, c.seat == seat, c.endpoint_sha256 == key)

    @_guarded
    def remove(self, table_id: str, seat: int, endpoint: str) -> bool:
        """Forget the browser's subscription for the seat; False if there was none."""
        with self.engine.begin() as conn:
            stmt = self._where(delete(push_subscriptions), table_id, seat, endpoint_key(endpoint))
            return bool(conn.execute(stmt).rowcount)

    @_guarded
    def gone(self, endpoint: str) -> int:
        """The push service says the subscription is no more: forget it at every seat."""
        with self.engine.begin() as conn:
            stmt = delete(push_subscriptions).where(
                push_subscriptions.c.endpoint_sha256 == endpoint_key(endpoint)
            )
            return int(conn.execute(stmt).rowcount or 0)

    @_guarded
    def of_seat(self, table_id: str, seat: int) -> list[PushRow]:
        """The subscriptions of a seat made with its present secret."""
        c = push_subscriptions.c
        with self.engine.connect() as conn:
            rows = conn.execute(
                select(c.table_id, c.seat, c.endpoint, c.p256dh, c.auth, c.language)
                .join(
                    seats,
                    and_(
                        seats.c.table_id == c.table_id,
                        seats.c.seat == c.seat,
                        seats.c.token_sha256 == c.token_sha256,
                    ),
                )
                .where(c.table_id == table_id, c.seat == seat)
                .order_by(c.created)
            ).all()
        return [PushRow(*r) for r in rows]
