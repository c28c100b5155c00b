"""The tables of notifications (migration ``0010``): each browser's push subscription,
and each account's preferences, e-mail address and language."""

from __future__ import annotations

import datetime

from sqlalchemy import DateTime, ForeignKey, Integer, String, Text
from sqlalchemy.orm import Mapped, mapped_column

from ..store import Base, now

__all__ = ["NotifySettingsRow", "PushSubscriptionRow"]


class PushSubscriptionRow(Base):
    """A browser that asked to be pushed an account's notifications (one row an endpoint)."""

    __tablename__ = "push_subscriptions"

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    user_id: Mapped[int] = mapped_column(ForeignKey("users.id", ondelete="CASCADE"), index=True)
    endpoint: Mapped[str] = mapped_column(String(1000), unique=True)
    p256dh: Mapped[str] = mapped_column(String(200))
    auth: Mapped[str] = mapped_column(String(100))
    created: Mapped[datetime.datetime] = mapped_column(DateTime(timezone=True), default=now)


class NotifySettingsRow(Base):
    """An account's notification preferences (``choices``: :class:`.schemas.Preferences`'s
    ``kinds`` as JSON), its e-mail address and the language it reads them in."""

    __tablename__ = "notify_settings"

    user_id: Mapped[int] = mapped_column(
        ForeignKey("users.id", ondelete="CASCADE"), primary_key=True
    )
    email: Mapped[str | None] = mapped_column(String(254), nullable=True)
    language: Mapped[str] = mapped_column(String(8))
    choices: Mapped[str] = mapped_column(Text)
