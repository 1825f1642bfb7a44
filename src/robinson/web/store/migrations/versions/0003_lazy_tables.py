"""What lets the server start without loading every table, and close abandoned ones.

- `games.to_move`: the seat to move (null: over, or not known for a game stored before this
  revision), so the server resumes on start only the tables whose next move is a bot's;
- `games.moved`: Unix seconds of the game's last move (its creation before the first);
- `tables.closed`: Unix seconds when an unfinished table was closed after long without a move
  (null: open). Its games and log stay.

Revision ID: 0003
Revises: 0002
Create Date: 2026-12-01
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0003"
down_revision = "0002"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.add_column("games", sa.Column("to_move", sa.Integer, nullable=True))
    op.add_column("games", sa.Column("moved", sa.BigInteger, nullable=True))
    op.add_column("tables", sa.Column("closed", sa.BigInteger, nullable=True))
    # The last move of each stored game: its newest action, else its creation.
    op.execute(
        "UPDATE games SET moved = COALESCE("
        "(SELECT MAX(actions.created) FROM actions WHERE actions.game_id = games.id), created)"
    )


def downgrade() -> None:
    with op.batch_alter_table("tables") as batch:
        batch.drop_column("closed")
    with op.batch_alter_table("games") as batch:
        batch.drop_column("moved")
        batch.drop_column("to_move")
