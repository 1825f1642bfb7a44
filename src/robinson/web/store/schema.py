"""Bring a database's schema up to this code's (Alembic revisions in web/store/migrations/).

Three kinds of database arrive here: an empty one (every revision runs), one made before
migrations existed (its four tables and no `alembic_version`: it is stamped with the first
revision, which is exactly that schema, then upgraded), and one with a revision. A revision this
code does not know means a newer Robinson wrote the database: it is refused, not touched.
"""

from __future__ import annotations

import time
from importlib import resources
from typing import TYPE_CHECKING

from sqlalchemy import Connection, Engine, inspect, text
from sqlalchemy.exc import DBAPIError

if TYPE_CHECKING:  # Alembic takes a third of a second to import: only when there is work
    from alembic.config import Config

FIRST_REVISION = "0001"
# The newest revision in web/store/migrations/versions (a test checks it is Alembic's head): a
# database already at it is used as it is, without importing Alembic at all.
HEAD = "0007"
FIRST_TABLES = frozenset({"tables", "seats", "games", "actions"})


class SchemaError(Exception):
    """The database's schema cannot be used by this code; the message says why."""


def _config(connection: Connection | None = None) -> Config:
    from alembic.config import Config

    config = Config()
    config.set_main_option(
        "script_location", str(resources.files("robinson.web.store") / "migrations")
    )
    if connection is not None:
        config.attributes["connection"] = connection
    return config


def head() -> str:
    """The newest revision this code knows (Alembic's view: `HEAD` must equal it)."""
    from alembic.script import ScriptDirectory

    revision = ScriptDirectory.from_config(_config()).get_current_head()
    assert revision is not None
    return revision


def current(connection: Connection) -> tuple[str, ...]:
    from alembic.runtime.migration import MigrationContext

    return tuple(MigrationContext.configure(connection).get_current_heads())


def _at_head(connection: Connection) -> bool:
    """Whether the database is at `HEAD` already (the usual start of a server)."""
    if not inspect(connection).has_table("alembic_version"):
        return False
    rows = connection.execute(text("SELECT version_num FROM alembic_version")).all()
    return [r[0] for r in rows] == [HEAD]


def upgrade(connection: Connection) -> None:
    """Upgrade in the caller's transaction (which holds the schema lock); the caller commits."""
    if _at_head(connection):
        return
    from alembic import command
    from alembic.script import ScriptDirectory

    config = _config(connection)
    script = ScriptDirectory.from_config(config)
    known = {s.revision for s in script.walk_revisions()}
    revisions = current(connection)
    unknown = [r for r in revisions if r not in known]
    if unknown:
        raise SchemaError(
            f"the database has schema revision {', '.join(unknown)}, newer than this Robinson "
            f"knows (up to {script.get_current_head()}): upgrade Robinson to use it"
        )
    if not revisions:
        present = FIRST_TABLES & set(inspect(connection).get_table_names())
        if present == FIRST_TABLES:  # made before migrations: revision 1 exactly
            command.stamp(config, FIRST_REVISION)
        elif present:
            raise SchemaError(
                f"the database has only some of Robinson's tables ({', '.join(sorted(present))})"
                " and no schema revision: it is not one Robinson made"
            )
    command.upgrade(config, "head")


# Any fixed number: the key of PostgreSQL's advisory lock held while the schema is upgraded.
SCHEMA_ATTEMPTS = 10
SCHEMA_LOCK = 0x526F62696E73


def prepare(engine: Engine) -> None:
    """Make or upgrade the schema of a database, once even if several servers start at once."""
    # Two servers starting at once must not both create or upgrade the schema. PostgreSQL:
    # an advisory lock (released at commit) makes the second wait, and its DDL is
    # transactional. SQLite: BEGIN IMMEDIATE takes the write lock at once (the second waits
    # out busy_timeout); "database is locked" can still come from the WAL switch racing a
    # first connection, and is simply tried again a moment later.
    for attempt in range(SCHEMA_ATTEMPTS):
        try:
            with engine.connect() as conn:
                if engine.dialect.name == "postgresql":
                    conn.execute(text("SELECT pg_advisory_xact_lock(:key)"), {"key": SCHEMA_LOCK})
                else:
                    conn.exec_driver_sql("BEGIN IMMEDIATE")
                upgrade(conn)
                conn.commit()
            return
        except DBAPIError as e:
            if attempt == SCHEMA_ATTEMPTS - 1 or "database is locked" not in str(e.orig):
                raise
            time.sleep(0.02 * (attempt + 1))
