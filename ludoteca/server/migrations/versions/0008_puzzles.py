"""Puzzles: players' puzzle ratings and best streak and rush scores, the puzzles' own ratings,
every rated attempt (one per player and puzzle), streak and rush runs, and players' own puzzles.

Revision ID: 0008
Revises: 0007
"""

import sqlalchemy as sa
from alembic import op

revision = "0008"
down_revision = "0007"


def _user(nullable: bool = False) -> sa.Column:  # type: ignore[type-arg]
    return sa.Column(
        "user_id",
        sa.Integer,
        sa.ForeignKey("users.id", ondelete="CASCADE"),
        nullable=nullable,
        index=True,
    )


def upgrade() -> None:
    op.create_table(
        "puzzle_players",
        sa.Column(
            "user_id", sa.Integer, sa.ForeignKey("users.id", ondelete="CASCADE"), primary_key=True
        ),
        sa.Column("rating", sa.Float, nullable=False),
        sa.Column("deviation", sa.Float, nullable=False),
        sa.Column("volatility", sa.Float, nullable=False),
        sa.Column("attempts", sa.Integer, nullable=False),
        sa.Column("best_streak", sa.Integer, nullable=False),
        sa.Column("best_rush", sa.Integer, nullable=False),
        sa.Column("updated", sa.DateTime(timezone=True), nullable=False),
    )
    op.create_table(
        "puzzle_ratings",
        sa.Column("puzzle_id", sa.String(16), primary_key=True),
        sa.Column("rating", sa.Float, nullable=False),
        sa.Column("deviation", sa.Float, nullable=False),
        sa.Column("volatility", sa.Float, nullable=False),
        sa.Column("attempts", sa.Integer, nullable=False),
        sa.Column("solved", sa.Integer, nullable=False),
    )
    op.create_table(
        "puzzle_attempts",
        sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
        _user(),
        sa.Column("puzzle_id", sa.String(16), nullable=False),
        sa.Column("rules", sa.String(200), nullable=False),
        sa.Column("solved", sa.Boolean, nullable=False),
        sa.Column("rating", sa.Float, nullable=False),
        sa.Column("change", sa.Float, nullable=False),
        sa.Column("at", sa.DateTime(timezone=True), nullable=False),
        sa.UniqueConstraint("user_id", "puzzle_id", name="uq_puzzle_attempts_user_puzzle"),
    )
    op.create_table(
        "puzzle_runs",
        sa.Column("id", sa.String(32), primary_key=True),
        _user(nullable=True),
        sa.Column("mode", sa.String(8), nullable=False),
        sa.Column("rules", sa.String(200), nullable=False),
        sa.Column("seed", sa.Integer, nullable=False),
        sa.Column("turn", sa.Integer, nullable=False),
        sa.Column("score", sa.Integer, nullable=False),
        sa.Column("mistakes", sa.Integer, nullable=False),
        sa.Column("over", sa.Boolean, nullable=False),
        sa.Column("started", sa.DateTime(timezone=True), nullable=False),
        sa.Column("ends", sa.DateTime(timezone=True), nullable=True),
    )
    op.create_table(
        "own_puzzles",
        sa.Column("id", sa.String(16), primary_key=True),
        _user(nullable=True),
        sa.Column("game", sa.String(32), nullable=False),
        sa.Column("rules", sa.String(200), nullable=False),
        sa.Column("position", sa.String(400), nullable=False),
        sa.Column("body", sa.Text, nullable=False),  # JSON: the puzzle (docs/formats.md)
        sa.Column("created", sa.DateTime(timezone=True), nullable=False),
    )


def downgrade() -> None:
    for table in (
        "own_puzzles",
        "puzzle_runs",
        "puzzle_attempts",
        "puzzle_ratings",
        "puzzle_players",
    ):
        op.drop_table(table)
