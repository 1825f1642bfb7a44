"""Notifications (issue 19, docs/notifications.md):

- `push_subscriptions`: a browser's Web Push subscription for a seat (its endpoint and keys),
  with the language its player chose and the seat's secret (hashed) when it subscribed: a new
  secret for the seat (an invite claimed, devices revoked) ends the subscription;
- `notices_sent`: the key of every notice told (service/notices.py `Notice.key`), so that each
  is told once, whichever process and however many restarts.

Revision ID: 0005
Revises: 0004
Create Date: 2026-12-02
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0005"
down_revision = "0004"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "push_subscriptions",
        sa.Column("table_id", sa.String(32), sa.ForeignKey("tables.id"), nullable=False),
        sa.Column("seat", sa.Integer, nullable=False),
        sa.Column("endpoint_sha256", sa.String(64), nullable=False),
        sa.Column("endpoint", sa.Text, nullable=False),
        sa.Column("p256dh", sa.String(128), nullable=False),
        sa.Column("auth", sa.String(64), nullable=False),
        sa.Column("language", sa.String(8), nullable=False),
        sa.Column("token_sha256", sa.String(64), nullable=False),
        sa.Column("created", sa.BigInteger, nullable=False),
        sa.PrimaryKeyConstraint("table_id", "seat", "endpoint_sha256"),
    )
    op.create_index("push_subscriptions_endpoint", "push_subscriptions", ["endpoint_sha256"])
    op.create_table(
        "notices_sent",
        sa.Column("key", sa.String(160), primary_key=True),
        sa.Column("created", sa.BigInteger, nullable=False, index=True),
    )


def downgrade() -> None:
    op.drop_table("notices_sent")
    op.drop_index("push_subscriptions_endpoint", "push_subscriptions")
    op.drop_table("push_subscriptions")
