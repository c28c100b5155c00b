"""The studies' tables (see :mod:`.studies`): a study, its contributors, its chapters (each a
start position and a move tree, kept as the tree's JSON form)."""

from __future__ import annotations

import datetime

from sqlalchemy import DateTime, ForeignKey, Integer, String, Text
from sqlalchemy.orm import Mapped, mapped_column

from ..store import Base, now

__all__ = ["ChapterRow", "StudyMemberRow", "StudyRow"]


class StudyRow(Base):
    """A study: its owner, title and who may see it (``public``, ``unlisted``: by its link
    only, ``private``: its owner and contributors); ``version`` grows by one with every change
    of the study or of any of its chapters (the pages of other processes look for it)."""

    __tablename__ = "studies"

    id: Mapped[str] = mapped_column(String(16), primary_key=True)
    owner_id: Mapped[int] = mapped_column(ForeignKey("users.id", ondelete="CASCADE"), index=True)
    title: Mapped[str] = mapped_column(String(100))
    visibility: Mapped[str] = mapped_column(String(8), index=True)
    version: Mapped[int] = mapped_column(Integer, default=0)
    created: Mapped[datetime.datetime] = mapped_column(DateTime(timezone=True), default=now)
    updated: Mapped[datetime.datetime] = mapped_column(
        DateTime(timezone=True), default=now, index=True
    )


class StudyMemberRow(Base):
    """A contributor of a study (an account that edits it beside its owner)."""

    __tablename__ = "study_members"

    study_id: Mapped[str] = mapped_column(
        ForeignKey("studies.id", ondelete="CASCADE"), primary_key=True
    )
    user_id: Mapped[int] = mapped_column(
        ForeignKey("users.id", ondelete="CASCADE"), primary_key=True, index=True
    )


class ChapterRow(Base):
    """A chapter: its place in the study (``rank``), name, rule set, start (a position code),
    the record's tags it came with (JSON: players, date, result), its move tree (the
    :class:`~ludoteca.gametree.GameTree`'s JSON form, shapes and all), how many moves the
    tree holds, and its ``version``: one more with every change of it."""

    __tablename__ = "study_chapters"

    id: Mapped[str] = mapped_column(String(16), primary_key=True)
    study_id: Mapped[str] = mapped_column(ForeignKey("studies.id", ondelete="CASCADE"), index=True)
    rank: Mapped[int] = mapped_column(Integer)
    name: Mapped[str] = mapped_column(String(100))
    game: Mapped[str] = mapped_column(String(32))
    rules: Mapped[str] = mapped_column(String(200))
    start: Mapped[str] = mapped_column(String(2000))
    tags: Mapped[str] = mapped_column(Text, default="{}")
    tree: Mapped[str] = mapped_column(Text)
    nodes: Mapped[int] = mapped_column(Integer, default=0)
    version: Mapped[int] = mapped_column(Integer, default=0)
    created: Mapped[datetime.datetime] = mapped_column(DateTime(timezone=True), default=now)
    updated: Mapped[datetime.datetime] = mapped_column(DateTime(timezone=True), default=now)
