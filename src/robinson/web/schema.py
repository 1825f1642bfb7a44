"""Bring a database's schema up to this code's (Alembic revisions in web/migrations/).

Three kinds of database arrive here: an empty one (every revision runs), one made before
migrations existed (its four tables and no `alembic_version`: it is stamped with the first
revision, which is exactly that schema, then upgraded), and one with a revision. A revision this
code does not know means a newer Robinson wrote the database: it is refused, not touched.
"""

from __future__ import annotations

from importlib import resources

from alembic import command
from alembic.config import Config
from alembic.runtime.migration import MigrationContext
from alembic.script import ScriptDirectory
from sqlalchemy import Connection, inspect

FIRST_REVISION = "0001"
FIRST_TABLES = frozenset({"tables", "seats", "games", "actions"})


class SchemaError(Exception):
    """The database's schema cannot be used by this code; the message says why."""


def _config(connection: Connection | None = None) -> Config:
    config = Config()
    config.set_main_option("script_location", str(resources.files("robinson.web") / "migrations"))
    if connection is not None:
        config.attributes["connection"] = connection
    return config


def head() -> str:
    """The newest revision this code knows."""
    revision = ScriptDirectory.from_config(_config()).get_current_head()
    assert revision is not None
    return revision


def current(connection: Connection) -> tuple[str, ...]:
    return tuple(MigrationContext.configure(connection).get_current_heads())


def upgrade(connection: Connection) -> None:
    """Upgrade in the caller's transaction (which holds the schema lock); the caller commits."""
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
