"""What differs between the databases the store runs on, and how their failures are read: the
URL forms, SQLite's settings on every connection, a duplicate step told apart from other
refusals, and any driver error turned into the store's own `StorageDown`."""

from __future__ import annotations

import functools
from collections.abc import Callable
from pathlib import Path
from typing import Any, ParamSpec, TypeVar

from sqlalchemy.engine import URL, make_url
from sqlalchemy.exc import ArgumentError, DBAPIError, IntegrityError

from robinson.web.store.errors import StorageDown, StoreUnavailable

P = ParamSpec("P")
R = TypeVar("R")


def _guarded(method: Callable[P, R]) -> Callable[P, R]:
    """A driver's failure leaves the store as `StorageDown`: above it nobody knows SQLAlchemy."""

    @functools.wraps(method)
    def call(*args: P.args, **kwargs: P.kwargs) -> R:
        try:
            return method(*args, **kwargs)
        except DBAPIError as e:
            if isinstance(e, IntegrityError) and is_duplicate(e):
                raise
            reason = str(e.orig).strip().splitlines()[0] if e.orig else str(e)
            raise StorageDown(reason) from e

    return call


EXAMPLE_URLS = "sqlite:////path/to/robinson.sqlite3 or postgresql+psycopg://user:password@host/db"


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


def is_duplicate(error: object) -> bool:
    """Whether a driver's error (or SQLAlchemy's wrapping of one) broke a primary key or unique
    constraint, not, say, a foreign key: the one sign that a step was written already."""
    error = getattr(error, "orig", None) or error
    sqlstate = getattr(error, "sqlstate", None)  # psycopg: the SQL standard's code
    if sqlstate is not None:
        return bool(sqlstate == "23505")  # unique_violation
    name = getattr(error, "sqlite_errorname", "")  # sqlite3 (Python 3.11+)
    return name in ("SQLITE_CONSTRAINT_PRIMARYKEY", "SQLITE_CONSTRAINT_UNIQUE")
