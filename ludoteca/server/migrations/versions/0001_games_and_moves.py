"""Games and moves.

Revision ID: 0001
Revises:
"""

import sqlalchemy as sa
from alembic import op

revision = "0001"
down_revision = None


def upgrade() -> None:
    op.create_table(
        "games",
        sa.Column("id", sa.String(32), primary_key=True),
        sa.Column("game", sa.String(32), nullable=False),
        sa.Column("rules", sa.String(200), nullable=False),
        sa.Column("setup", sa.String(200), nullable=True),
        sa.Column("position", sa.String(400), nullable=True),
        sa.Column("mode", sa.String(16), nullable=False),
        sa.Column("white", sa.String(64), nullable=False),
        sa.Column("black", sa.String(64), nullable=False),
        sa.Column("white_token", sa.String(64), nullable=True),
        sa.Column("black_token", sa.String(64), nullable=True),
        sa.Column("status", sa.String(16), nullable=False, index=True),
        sa.Column("ply", sa.Integer, nullable=False),
        sa.Column("result", sa.String(8), nullable=False),
        sa.Column("termination", sa.String(64), nullable=True),
        sa.Column("reason", sa.String(200), nullable=True),
        sa.Column("draw_offer", sa.String(8), nullable=True),
        sa.Column("undo_offer", sa.String(8), nullable=True),
        sa.Column("created", sa.DateTime(timezone=True), nullable=False),
        sa.Column("updated", sa.DateTime(timezone=True), nullable=False, index=True),
    )
    op.create_table(
        "moves",
        sa.Column(
            "game_id",
            sa.String(32),
            sa.ForeignKey("games.id", ondelete="CASCADE"),
            primary_key=True,
        ),
        sa.Column("ply", sa.Integer, primary_key=True),
        sa.Column("move", sa.Text, nullable=False),
        sa.Column("played", sa.DateTime(timezone=True), nullable=False),
    )


def downgrade() -> None:
    op.drop_table("moves")
    op.drop_table("games")
