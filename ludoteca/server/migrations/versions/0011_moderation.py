"""Moderation: roles (moderator), blocks, mutes and closures, players' reports, and the log of
moderators' actions.

Revision ID: 0011
Revises: 0010
"""

import sqlalchemy as sa
from alembic import op

revision = "0011"
down_revision = "0010"


def _user(name: str, primary_key: bool = False, index: bool = False) -> sa.Column:  # type: ignore[type-arg]
    return sa.Column(
        name,
        sa.Integer,
        sa.ForeignKey("users.id", ondelete="CASCADE"),
        primary_key=primary_key,
        nullable=False,
        index=index,
    )


def upgrade() -> None:
    op.create_table(
        "roles",
        _user("user_id", primary_key=True),
        sa.Column("role", sa.String(16), primary_key=True),
    )
    op.create_table(
        "blocks",
        _user("user_id", primary_key=True),
        _user("blocked_id", primary_key=True, index=True),
        sa.Column("at", sa.DateTime(timezone=True), nullable=False),
    )
    op.create_table(
        "restrictions",
        _user("user_id", primary_key=True),
        sa.Column("muted_until", sa.DateTime(timezone=True), nullable=True),
        sa.Column("closed_until", sa.DateTime(timezone=True), nullable=True),
    )
    op.create_table(
        "player_reports",
        sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
        sa.Column(
            "reporter_id", sa.Integer, sa.ForeignKey("users.id", ondelete="SET NULL"), nullable=True
        ),
        _user("player_id", index=True),
        sa.Column("reason", sa.String(16), nullable=False),
        sa.Column("text", sa.String(500), nullable=False),
        sa.Column("game_id", sa.String(32), nullable=True),
        sa.Column("chat_id", sa.Integer, nullable=True),
        sa.Column("chat_text", sa.String(300), nullable=True),
        sa.Column("at", sa.DateTime(timezone=True), nullable=False, index=True),
    )
    op.create_table(
        "moderation_log",
        sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
        sa.Column("at", sa.DateTime(timezone=True), nullable=False, index=True),
        sa.Column("moderator", sa.String(40), nullable=False),
        sa.Column("action", sa.String(16), nullable=False),
        sa.Column("player", sa.String(20), nullable=True),
        sa.Column("detail", sa.String(500), nullable=False),
        sa.Column("reason", sa.String(500), nullable=False),
    )


def downgrade() -> None:
    for table in ("moderation_log", "player_reports", "restrictions", "blocks", "roles"):
        op.drop_table(table)
