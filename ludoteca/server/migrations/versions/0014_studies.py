"""Studies: a study (owner, title, visibility), its contributors and its chapters (a start
position and a move tree each).

Revision ID: 0014
Revises: 0013
"""

import sqlalchemy as sa
from alembic import op

revision = "0014"
down_revision = "0013"


def _when(name: str) -> sa.Column:  # type: ignore[type-arg]
    return sa.Column(name, sa.DateTime(timezone=True), nullable=False)


def upgrade() -> None:
    op.create_table(
        "studies",
        sa.Column("id", sa.String(16), primary_key=True),
        sa.Column(
            "owner_id",
            sa.Integer,
            sa.ForeignKey("users.id", ondelete="CASCADE"),
            nullable=False,
            index=True,
        ),
        sa.Column("title", sa.String(100), nullable=False),
        sa.Column("visibility", sa.String(8), nullable=False, index=True),
        sa.Column("version", sa.Integer, nullable=False),
        _when("created"),
        sa.Column("updated", sa.DateTime(timezone=True), nullable=False, index=True),
    )
    op.create_table(
        "study_members",
        sa.Column(
            "study_id",
            sa.String(16),
            sa.ForeignKey("studies.id", ondelete="CASCADE"),
            primary_key=True,
        ),
        sa.Column(
            "user_id",
            sa.Integer,
            sa.ForeignKey("users.id", ondelete="CASCADE"),
            primary_key=True,
            index=True,
        ),
    )
    op.create_table(
        "study_chapters",
        sa.Column("id", sa.String(16), primary_key=True),
        sa.Column(
            "study_id",
            sa.String(16),
            sa.ForeignKey("studies.id", ondelete="CASCADE"),
            nullable=False,
            index=True,
        ),
        sa.Column("rank", sa.Integer, nullable=False),
        sa.Column("name", sa.String(100), nullable=False),
        sa.Column("game", sa.String(32), nullable=False),
        sa.Column("rules", sa.String(200), nullable=False),
        sa.Column("start", sa.String(2000), nullable=False),
        sa.Column("tags", sa.Text, nullable=False),
        sa.Column("tree", sa.Text, nullable=False),
        sa.Column("nodes", sa.Integer, nullable=False),
        sa.Column("version", sa.Integer, nullable=False),
        _when("created"),
        _when("updated"),
    )


def downgrade() -> None:
    op.drop_table("study_chapters")
    op.drop_table("study_members")
    op.drop_table("studies")
