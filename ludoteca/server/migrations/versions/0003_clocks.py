"""Clocks: the time control, each side's time left and when the running clock started.

Revision ID: 0003
Revises: 0002
"""

import sqlalchemy as sa
from alembic import op

revision = "0003"
down_revision = "0002"


def upgrade() -> None:
    op.add_column("games", sa.Column("clock", sa.String(16), nullable=True))
    op.add_column("games", sa.Column("white_ms", sa.BigInteger, nullable=True))
    op.add_column("games", sa.Column("black_ms", sa.BigInteger, nullable=True))
    op.add_column("games", sa.Column("clock_started", sa.BigInteger, nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("games") as batch:
        for name in ("clock_started", "black_ms", "white_ms", "clock"):
            batch.drop_column(name)
