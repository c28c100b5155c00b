"""Game reports: one row a report (a finished game's, or an imported record's by its content
hash) with its status and claim, one row a position with its analysis.

Revision ID: 0007
Revises: 0006
"""

import sqlalchemy as sa
from alembic import op

revision = "0007"
down_revision = "0006"


def upgrade() -> None:
    op.create_table(
        "reports",
        sa.Column("key", sa.String(80), primary_key=True),
        sa.Column(
            "game_id",
            sa.String(32),
            sa.ForeignKey("games.id", ondelete="CASCADE"),
            nullable=True,
            index=True,
        ),
        sa.Column("game", sa.String(32), nullable=False),
        sa.Column("rules", sa.String(200), nullable=False),
        sa.Column("start", sa.String(400), nullable=False),
        sa.Column("moves", sa.Text, nullable=False),
        sa.Column("total", sa.Integer, nullable=False),
        sa.Column("status", sa.String(16), nullable=False, index=True),
        sa.Column("claimed_by", sa.String(32), nullable=True),
        sa.Column("claimed_at", sa.DateTime(timezone=True), nullable=True),
        sa.Column("created", sa.DateTime(timezone=True), nullable=False),
    )
    op.create_table(
        "report_plies",
        sa.Column(
            "key", sa.String(80), sa.ForeignKey("reports.key", ondelete="CASCADE"), primary_key=True
        ),
        sa.Column("ply", sa.Integer, primary_key=True),
        sa.Column("white", sa.Integer, nullable=False),  # the value for White
        sa.Column("exact", sa.Boolean, nullable=False),
        sa.Column("turn", sa.String(8), nullable=False),
        sa.Column("best", sa.String(200), nullable=True),
        sa.Column("line", sa.Text, nullable=False),  # JSON: the best line's notations
        sa.Column("best_touches", sa.Text, nullable=False),  # JSON: the best move's gesture
        sa.Column("played", sa.String(200), nullable=True),
        sa.Column("played_touches", sa.Text, nullable=False),
    )


def downgrade() -> None:
    op.drop_table("report_plies")
    op.drop_table("reports")
