"""Seats that stay yours and clocks (issue 8): the host's secret and the clock of a table, each
seat's one-time invite, when it was last connected and its timeouts in a row, the deadline of a
game's next move, and the notes of the log that are not moves (hand-overs, timeouts).

Every new column may be NULL or has a default, so the tables of an older database keep working:
no host (no Invite panel), no clock, every seat claimed (no invite), never seen.

Revision ID: 0002
Revises: 0001
Create Date: 2026-12-01
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0002"
down_revision = "0001"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("tables") as batch:
        batch.add_column(sa.Column("host_sha256", sa.String(64), nullable=True))
        batch.add_column(sa.Column("move_seconds", sa.Integer, nullable=True))
    with op.batch_alter_table("seats") as batch:
        batch.add_column(sa.Column("invite_sha256", sa.String(64), nullable=True))
        batch.add_column(sa.Column("seen_at", sa.BigInteger, nullable=True))
        batch.add_column(sa.Column("timeouts", sa.Integer, nullable=False, server_default="0"))
    with op.batch_alter_table("games") as batch:
        batch.add_column(sa.Column("deadline", sa.BigInteger, nullable=True))
    op.create_table(
        "notes",
        sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
        sa.Column("game_id", sa.String(32), sa.ForeignKey("games.id"), nullable=False),
        sa.Column("version", sa.Integer, nullable=False),
        sa.Column("kind", sa.String(16), nullable=False),
        sa.Column("data", sa.Text, nullable=False),
        sa.Column("created", sa.BigInteger, nullable=False),
    )
    op.create_index("ix_notes_game_id", "notes", ["game_id"])


def downgrade() -> None:
    op.drop_index("ix_notes_game_id", "notes")
    op.drop_table("notes")
    with op.batch_alter_table("games") as batch:
        batch.drop_column("deadline")
    with op.batch_alter_table("seats") as batch:
        batch.drop_column("timeouts")
        batch.drop_column("seen_at")
        batch.drop_column("invite_sha256")
    with op.batch_alter_table("tables") as batch:
        batch.drop_column("move_seconds")
        batch.drop_column("host_sha256")
