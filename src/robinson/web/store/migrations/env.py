"""Alembic's environment: run by `Store` (which passes its open connection, already holding the
schema lock) and by the `alembic` command a developer runs to write a new revision."""

from __future__ import annotations

import os

from alembic import context
from sqlalchemy import create_engine

from robinson.web.store.schema_tables import metadata

config = context.config


def _configure(connection: object) -> None:
    context.configure(
        connection=connection,  # type: ignore[arg-type]
        target_metadata=metadata,
        # SQLite cannot ALTER most things: autogenerate writes "batch" operations for it, which
        # copy the table (see docs/protocol.md "Migrations").
        render_as_batch=True,
        compare_type=True,
    )


given = config.attributes.get("connection")
if given is not None:
    # From Store: the caller's transaction is the migration's transaction, so the lock it holds
    # (SQLite's write lock, PostgreSQL's advisory lock) covers every step.
    _configure(given)
    with context.begin_transaction():
        context.run_migrations()
else:
    # From the alembic command: `-x url=...` or $ROBINSON_DATABASE_URL names the database.
    url = context.get_x_argument(as_dictionary=True).get("url") or os.environ.get(
        "ROBINSON_DATABASE_URL"
    )
    if not url:
        raise SystemExit("give the database: alembic ... -x url=sqlite:///path/robinson.sqlite3")
    engine = create_engine(url)
    with engine.connect() as connection:
        _configure(connection)
        with context.begin_transaction():
            context.run_migrations()
