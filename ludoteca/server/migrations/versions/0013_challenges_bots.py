"""Challenges, and bots: accounts an engine plays (a flag on accounts; their API tokens, stored
hashed, and the server's own computer levels playing as bot accounts).

Revision ID: 0013
Revises: 0012
"""

import sqlalchemy as sa
from alembic import op

revision = "0013"
down_revision = "0012"


def _user(name: str) -> sa.Column:  # type: ignore[type-arg]
    return sa.Column(
        name, sa.Integer, sa.ForeignKey("users.id", ondelete="CASCADE"), nullable=False, index=True
    )


def upgrade() -> None:
    op.add_column("users", sa.Column("bot", sa.Boolean, nullable=False, server_default=sa.false()))
    op.create_table(
        "challenges",
        sa.Column("id", sa.String(16), primary_key=True),
        _user("challenger_id"),
        _user("challenged_id"),
        sa.Column("game", sa.String(32), nullable=False),
        sa.Column("rules", sa.String(200), nullable=False),
        sa.Column("clock", sa.String(16), nullable=True),
        sa.Column("rated", sa.Boolean, nullable=False),
        sa.Column("colour", sa.String(8), nullable=False),
        sa.Column("status", sa.String(12), nullable=False, index=True),
        sa.Column("reason", sa.String(16), nullable=True),
        sa.Column("created", sa.BigInteger, nullable=False),
        sa.Column("expires", sa.BigInteger, nullable=False),
        sa.Column("closed", sa.BigInteger, nullable=True),
        sa.Column("game_id", sa.String(32), nullable=True),
    )
    op.create_table(
        "bot_tokens",
        sa.Column(
            "user_id",
            sa.Integer,
            sa.ForeignKey("users.id", ondelete="CASCADE"),
            primary_key=True,
        ),
        sa.Column("digest", sa.String(64), nullable=False, unique=True),
        sa.Column("created", sa.DateTime(timezone=True), nullable=False),
    )


def downgrade() -> None:
    op.drop_table("bot_tokens")
    op.drop_table("challenges")
    op.drop_column("users", "bot")
