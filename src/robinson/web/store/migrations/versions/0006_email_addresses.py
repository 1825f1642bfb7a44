"""E-mail addresses left for seats (issue 19, docs/notifications.md "E-mail"):

- `email_addresses`: one per seat at most (a new one replaces it), with its language, the
  SHA-256 of its confirmation code (null once confirmed) and of its unsubscribe code, and when
  the seat was last mailed (so a turn e-mail goes out once per absence) and last given its
  daily digest.

Revision ID: 0006
Revises: 0005 (the push subscriptions)
Create Date: 2026-12-02
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0006"
down_revision = "0005"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "email_addresses",
        sa.Column("table_id", sa.String(32), sa.ForeignKey("tables.id"), nullable=False),
        sa.Column("seat", sa.Integer, nullable=False),
        sa.Column("address", sa.String(254), nullable=False, index=True),
        sa.Column("language", sa.String(8), nullable=False),
        sa.Column("created", sa.BigInteger, nullable=False),
        sa.Column("confirm_sha256", sa.String(64), nullable=True, unique=True),
        sa.Column("confirmed", sa.BigInteger, nullable=True),
        sa.Column("unsubscribe_sha256", sa.String(64), nullable=False, unique=True),
        sa.Column("digest", sa.Integer, nullable=False, server_default="1"),
        sa.Column("digested", sa.BigInteger, nullable=True),
        sa.Column("mailed_turn", sa.BigInteger, nullable=True),
        sa.Column("reminded", sa.BigInteger, nullable=True),
        sa.Column("reminded_move", sa.String(48), nullable=True),
        sa.PrimaryKeyConstraint("table_id", "seat"),
    )


def downgrade() -> None:
    op.drop_table("email_addresses")
