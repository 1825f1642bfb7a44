"""The schema as it was before migrations existed: tables, seats, games and the action log.

A database made by that code has these four tables and no alembic_version: `Store` recognises it
and stamps it with this revision instead of running it. Frozen: never edit a revision that has
shipped; add a new one.

Revision ID: 0001
Revises:
Create Date: 2026-12-01
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0001"
down_revision = None
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "tables",
        sa.Column("id", sa.String(32), primary_key=True),
        sa.Column("language", sa.String(8), nullable=False),
        sa.Column("created", sa.BigInteger, nullable=False),
        sa.Column("current_game", sa.String(32), nullable=True),
    )
    op.create_table(
        "seats",
        sa.Column("table_id", sa.String(32), sa.ForeignKey("tables.id"), nullable=False),
        sa.Column("seat", sa.Integer, nullable=False),
        sa.Column("name", sa.String(64), nullable=False),
        sa.Column("kind", sa.String(8), nullable=False),
        sa.Column("bot", sa.String(32), nullable=True),
        sa.Column("token_sha256", sa.String(64), nullable=False),
        sa.PrimaryKeyConstraint("table_id", "seat"),
    )
    op.create_table(
        "games",
        sa.Column("id", sa.String(32), primary_key=True),
        sa.Column("table_id", sa.String(32), sa.ForeignKey("tables.id"), nullable=False),
        sa.Column("number", sa.Integer, nullable=False),
        sa.Column("ruleset", sa.Text, nullable=False),
        sa.Column("players", sa.Text, nullable=False),
        sa.Column("first", sa.Integer, nullable=False),
        sa.Column("seed", sa.String(128), nullable=False),
        sa.Column("seed_sha256", sa.String(64), nullable=False),
        sa.Column("created", sa.BigInteger, nullable=False),
        sa.Column("version", sa.Integer, nullable=False),
        sa.Column("over", sa.Integer, nullable=False),
        sa.Column("summary", sa.Text, nullable=False),
    )
    op.create_index("ix_games_table_id", "games", ["table_id"])
    op.create_table(
        "actions",
        sa.Column("game_id", sa.String(32), sa.ForeignKey("games.id"), nullable=False),
        sa.Column("seq", sa.Integer, nullable=False),
        sa.Column("action", sa.Text, nullable=False),
        sa.Column("seat", sa.Integer, nullable=True),
        sa.Column("created", sa.BigInteger, nullable=False),
        sa.PrimaryKeyConstraint("game_id", "seq"),
    )


def downgrade() -> None:
    op.drop_table("actions")
    op.drop_index("ix_games_table_id", "games")
    op.drop_table("games")
    op.drop_table("seats")
    op.drop_table("tables")
