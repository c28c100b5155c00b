"""Players' display names (chosen on the lobby page, shown on the board, in lists and records).

Revision ID: 0005
Revises: 0004
"""

import sqlalchemy as sa
from alembic import op

revision = "0005"
down_revision = "0004"


def upgrade() -> None:
    with op.batch_alter_table("games") as batch:
        batch.add_column(sa.Column("white_name", sa.String(32), nullable=True))
        batch.add_column(sa.Column("black_name", sa.String(32), nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("games") as batch:
        batch.drop_column("black_name")
        batch.drop_column("white_name")
