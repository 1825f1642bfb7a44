"""Dice nobody can bias (docs/fair-dice.md, the second scheme):

- `games.dice_scheme`: the game's dice scheme (null: `hmac-sha256-bytes-v1`, every game stored
  before this revision, which keeps rolling and verifying as it did);
- `games.dice_fixed`: Unix ms the game's first roll fixed its dice (null: seeds still taken);
- `dice_seeds`: the seed each seat's browser contributed to a game before its first roll (one
  per seat; the server's own for the other seats is fixed by the game's seed, not stored).

Revision ID: 0004
Revises: 0003
Create Date: 2026-12-02
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0004"
down_revision = "0003"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.add_column("games", sa.Column("dice_scheme", sa.String(32), nullable=True))
    op.add_column("games", sa.Column("dice_fixed", sa.BigInteger, nullable=True))
    op.create_table(
        "dice_seeds",
        sa.Column("game_id", sa.String(32), sa.ForeignKey("games.id"), nullable=False),
        sa.Column("seat", sa.Integer, nullable=False),
        sa.Column("seed", sa.String(64), nullable=False),
        sa.Column("created", sa.BigInteger, nullable=False),
        sa.PrimaryKeyConstraint("game_id", "seat"),
    )


def downgrade() -> None:
    op.drop_table("dice_seeds")
    with op.batch_alter_table("games") as batch:
        batch.drop_column("dice_fixed")
        batch.drop_column("dice_scheme")
