"""Correspondence games: the deadline of the side to move (days per move are the clock "3d")
and the planned moves (lines of alternating moves a player stores while the opponent is to
move).

Revision ID: 0009
Revises: 0008
"""

import sqlalchemy as sa
from alembic import op

revision = "0009"
down_revision = "0008"


def upgrade() -> None:
    op.add_column("games", sa.Column("deadline", sa.BigInteger, nullable=True))
    op.add_column("games", sa.Column("to_move", sa.String(8), nullable=True))
    op.create_index("ix_games_deadline", "games", ["deadline"])
    op.create_table(
        "planned_lines",
        sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
        sa.Column(
            "game_id",
            sa.String(32),
            sa.ForeignKey("games.id", ondelete="CASCADE"),
            nullable=False,
            index=True,
        ),
        sa.Column("colour", sa.String(8), nullable=False),
        sa.Column("ply", sa.Integer, nullable=False),
        sa.Column("moves", sa.Text, nullable=False),  # JSON: the line's moves, theirs first
    )


def downgrade() -> None:
    op.drop_table("planned_lines")
    op.drop_index("ix_games_deadline", "games")
    with op.batch_alter_table("games") as batch:
        for name in ("to_move", "deadline"):
            batch.drop_column(name)
