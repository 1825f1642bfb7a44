"""Vacation for long clocks (issue 19): `tables.vacation_days`, the days each seat of a clocked
table may pause its own clock in a game (null for tables stored before this revision: none).
The days taken are notes of the game ("vacation"), which need no column.

Revision ID: 0007
Revises: 0006
Create Date: 2026-12-02
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0007"
down_revision = "0006"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.add_column("tables", sa.Column("vacation_days", sa.Integer, nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("tables") as batch:
        batch.drop_column("vacation_days")
