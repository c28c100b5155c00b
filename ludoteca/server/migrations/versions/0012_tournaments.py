"""Tournaments: the tournaments, their entries and their boards.

Revision ID: 0012
Revises: 0011
"""

import sqlalchemy as sa
from alembic import op

revision = "0012"
down_revision = "0011"


def upgrade() -> None:
    op.create_table(
        "tournaments",
        sa.Column("id", sa.String(16), primary_key=True),
        sa.Column("name", sa.String(80), nullable=False),
        sa.Column("game", sa.String(32), nullable=False),
        sa.Column("rules", sa.String(200), nullable=False),
        sa.Column("clock", sa.String(16), nullable=False),
        sa.Column("system", sa.String(16), nullable=False),
        sa.Column("rounds", sa.Integer, nullable=True),
        sa.Column("minutes", sa.Integer, nullable=True),
        sa.Column("starts", sa.BigInteger, nullable=False, index=True),
        sa.Column("ends", sa.BigInteger, nullable=True),
        sa.Column("rated", sa.Boolean, nullable=False),
        sa.Column("max_players", sa.Integer, nullable=False),
        sa.Column("state", sa.String(16), nullable=False, index=True),
        sa.Column("round", sa.Integer, nullable=False),
        sa.Column(
            "creator", sa.Integer, sa.ForeignKey("users.id", ondelete="SET NULL"), nullable=True
        ),
        sa.Column("created", sa.BigInteger, nullable=False),
    )
    op.create_table(
        "tournament_entries",
        sa.Column(
            "tournament_id",
            sa.String(16),
            sa.ForeignKey("tournaments.id", ondelete="CASCADE"),
            primary_key=True,
        ),
        sa.Column(
            "user_id",
            sa.Integer,
            sa.ForeignKey("users.id", ondelete="CASCADE"),
            primary_key=True,
            index=True,
        ),
        sa.Column("name", sa.String(32), nullable=False),
        sa.Column("rating", sa.Integer, nullable=False),
        sa.Column("joined", sa.BigInteger, nullable=False),
        sa.Column("first_round", sa.Integer, nullable=False),
        sa.Column("withdrawn", sa.Boolean, nullable=False),
    )
    op.create_table(
        "tournament_boards",
        sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
        sa.Column(
            "tournament_id",
            sa.String(16),
            sa.ForeignKey("tournaments.id", ondelete="CASCADE"),
            nullable=False,
            index=True,
        ),
        sa.Column("round", sa.Integer, nullable=False),
        sa.Column("white", sa.Integer, nullable=False),
        sa.Column("black", sa.Integer, nullable=True),
        sa.Column("game_id", sa.String(32), nullable=True, index=True),
        sa.Column("result", sa.String(8), nullable=False),
        sa.Column("bye", sa.Float, nullable=False),
    )


def downgrade() -> None:
    op.drop_table("tournament_boards")
    op.drop_table("tournament_entries")
    op.drop_table("tournaments")
