"""Rows in, rows out: the database of tables, seats, games and each game's action log.

`Store` (store.py) is the only part that speaks SQL (SQLAlchemy); what it takes and gives are
the plain rows of rows.py, and a database that does not answer is its own `StorageDown`
(errors.py), so the service above never sees a driver's exception. The names below load
lazily: the service imports rows and errors without pulling SQLAlchemy in.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from robinson.web.store.errors import Conflict, StorageDown, StoreUnavailable
    from robinson.web.store.rows import (
        KEEP,
        GameRow,
        Note,
        SeatChange,
        SeatRow,
        Step,
        TableRow,
    )
    from robinson.web.store.schema_tables import metadata
    from robinson.web.store.store import Store, database_url, default_url

_WHERE = {
    "Conflict": "errors",
    "StorageDown": "errors",
    "StoreUnavailable": "errors",
    "KEEP": "rows",
    "GameRow": "rows",
    "Note": "rows",
    "SeatChange": "rows",
    "SeatRow": "rows",
    "Step": "rows",
    "TableRow": "rows",
    "metadata": "schema_tables",
    "Store": "store",
    "database_url": "store",
    "default_url": "store",
}

__all__ = [
    "KEEP",
    "Conflict",
    "GameRow",
    "Note",
    "SeatChange",
    "SeatRow",
    "Step",
    "StorageDown",
    "Store",
    "StoreUnavailable",
    "TableRow",
    "database_url",
    "default_url",
    "metadata",
]


def __getattr__(name: str) -> Any:
    if name not in _WHERE:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    return getattr(importlib.import_module(f"{__name__}.{_WHERE[name]}"), name)
