"""The database schema's history (Alembic). `robinson.web.store.Store` upgrades a database to the
newest revision when it opens it; docs/protocol.md "Migrations" says how to add one."""
