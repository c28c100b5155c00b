"""Notifications: browsers' push subscriptions and accounts' notification preferences.

Revision ID: 0010
Revises: 0009
"""

import sqlalchemy as sa
from alembic import op

revision = "0010"
down_revision = "0009"


def _user(primary_key: bool = False) -> sa.Column:  # type: ignore[type-arg]
    return sa.Column(
        "user_id",
        sa.Integer,
        sa.ForeignKey("users.id", ondelete="CASCADE"),
        nullable=False,
        primary_key=primary_key,
        index=not primary_key,
    )


def upgrade() -> None:
    op.create_table(
        "push_subscriptions",
        sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
        _user(),
        sa.Column("endpoint", sa.String(1000), nullable=False, unique=True),
        sa.Column("p256dh", sa.String(200), nullable=False),
        sa.Column("auth", sa.String(100), nullable=False),
        sa.Column("created", sa.DateTime(timezone=True), nullable=False),
    )
    op.create_table(
        "notify_settings",
        _user(primary_key=True),
        sa.Column("email", sa.String(254), nullable=True),
        sa.Column("language", sa.String(8), nullable=False),
        sa.Column("choices", sa.Text, nullable=False),
    )


def downgrade() -> None:
    op.drop_table("notify_settings")
    op.drop_table("push_subscriptions")
