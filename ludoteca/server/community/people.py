"""Accounts: sign-up, sign-in, sessions and passwords.

A password is kept only as its Argon2id hash (argon2-cffi; hashing runs in a thread, never on
the event loop).  A session is a random token in an HttpOnly, SameSite cookie; the store keeps
its SHA-256 and a CSRF token that every state-changing request made with the cookie must repeat
in the ``X-CSRF-Token`` header.  Failed sign-ins are throttled per address and per username.
"""

from __future__ import annotations

import asyncio
import datetime
import functools
import hashlib
import hmac
import re
import secrets
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Literal

from argon2 import PasswordHasher, profiles
from argon2.exceptions import InvalidHashError, VerificationError
from sqlalchemy import (
    Boolean,
    Connection,
    DateTime,
    ForeignKey,
    Integer,
    String,
    delete,
    false,
    insert,
    select,
    update,
)
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Mapped, mapped_column

from ...i18n import _
from ..errors import ActionError
from ..limits import RateLimit
from ..store import Base, Store, now

__all__ = ["Accounts", "SessionRow", "User", "UserRow", "bots_among", "check_username"]

SESSION_DAYS = 30
#: names that would read as the site speaking, or clash with its paths
RESERVED = frozenset(
    {
        "admin",
        "administrator",
        "root",
        "system",
        "ludoteca",
        "moderator",
        "mod",
        "staff",
        "support",
        "help",
        "computer",
        "engine",
        "bot",
        "guest",
        "anonymous",
        "player",
        "nobody",
        "null",
        "none",
        "undefined",
        "api",
        "static",
        "login",
        "logout",
        "signup",
        "account",
        "me",
        "you",
        "white",
        "black",
        "lobby",
        "review",
        "games",
        "leaderboard",
    }
)
USERNAME = re.compile(r"[A-Za-z][A-Za-z0-9_-]{2,19}")
PASSWORD_LENGTH = (8, 128)
#: failed sign-ins allowed in five minutes: from one address, and for one username
FAILURES_PER_ADDRESS = 20
FAILURES_PER_NAME = 5
#: accounts made in an hour from one address
SIGN_UPS_PER_ADDRESS = 10


class UserRow(Base):
    """An account: its name as written and in lower case (unique), its password's hash."""

    __tablename__ = "users"

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    name: Mapped[str] = mapped_column(String(20))
    name_key: Mapped[str] = mapped_column(String(20), unique=True)
    password: Mapped[str] = mapped_column(String(200))  # an Argon2id hash
    created: Mapped[datetime.datetime] = mapped_column(DateTime(timezone=True), default=now)
    #: an engine plays this account (shown "BOT"; see ..bots)
    bot: Mapped[bool] = mapped_column(Boolean, default=False, server_default=false())


class SessionRow(Base):
    """A signed-in browser: the SHA-256 of its cookie, whose it is, its CSRF token."""

    __tablename__ = "sessions"

    key: Mapped[str] = mapped_column(String(64), primary_key=True)
    user_id: Mapped[int] = mapped_column(ForeignKey("users.id", ondelete="CASCADE"), index=True)
    csrf: Mapped[str] = mapped_column(String(64))
    expires: Mapped[datetime.datetime] = mapped_column(DateTime(timezone=True))


@dataclass(frozen=True)
class User:
    """A signed-in account, as a request sees it."""

    id: int
    name: str
    csrf: str


async def bots_among(store: Store, ids: Iterable[int | None]) -> frozenset[int]:
    """The bot accounts (shown "BOT") among the accounts ``ids`` (``None``: no account,
    skipped): one query, none when no id is given."""
    wanted = {i for i in ids if i is not None}
    if not wanted:
        return frozenset()
    async with store.session() as session:
        found = await session.scalars(
            select(UserRow.id).where(UserRow.id.in_(wanted), UserRow.bot.is_(True))
        )
        return frozenset(found)


def check_username(name: str) -> str:
    """The username, or :class:`ActionError` saying what a username may be."""
    if not USERNAME.fullmatch(name):
        raise ActionError(
            400, _("a username is 3 to 20 letters, digits, '_' or '-', starting with a letter")
        )
    if name.lower() in RESERVED:
        raise ActionError(
            400, _("the username %(name)s is reserved; choose another", name=repr(name))
        )
    return name


def _check_password(password: str) -> None:
    low, high = PASSWORD_LENGTH
    if not low <= len(password) <= high:
        raise ActionError(
            400, _("a password is %(low)s to %(high)s characters long", low=low, high=high)
        )


def _taken(name: str) -> ActionError:
    return ActionError(409, _("the username %(name)s is taken", name=repr(name)))


def _digest(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


#: the cost of a new password's Argon2id hash (see ``Settings.password_cost``)
PasswordCost = Literal["standard", "lowest"]

#: the hash's parameters at each cost: the library's recommended (RFC 9106's second choice),
#: and the least Argon2 allows (for test runs only)
COSTS = {"standard": profiles.RFC_9106_LOW_MEMORY, "lowest": profiles.CHEAPEST}


class Accounts:
    """Accounts and sessions in the store; new passwords hashed at ``cost``."""

    def __init__(self, store: Store, cost: PasswordCost = "standard") -> None:
        self.store = store
        self.cost = cost
        self.hasher = PasswordHasher.from_parameters(COSTS[cost])
        #: verified against when the username is unknown, so that both answers take as long
        self.dummy = self.hasher.hash(secrets.token_urlsafe(16))
        self.by_address = RateLimit(FAILURES_PER_ADDRESS, 300.0)
        self.by_name = RateLimit(FAILURES_PER_NAME, 300.0)
        self.sign_ups = RateLimit(SIGN_UPS_PER_ADDRESS, 3600.0)

    async def sign_up(self, name: str, password: str, client: str) -> tuple[User, str]:
        """A new account, signed in: the user and the session's cookie token.  429 when
        ``client`` (an address) has made :data:`SIGN_UPS_PER_ADDRESS` accounts in the last
        hour, 409 when the name is taken: both before the password is hashed (the costly step:
        a refused request costs a query at most)."""
        check_username(name)
        _check_password(password)
        if not self.sign_ups.peek(client):
            raise ActionError(429, _("too many new accounts from your address; try later"))
        async with self.store.session() as session:
            if (
                await session.scalars(select(UserRow.id).where(UserRow.name_key == name.lower()))
            ).first() is not None:
                raise _taken(name)
        hashed = await asyncio.to_thread(self.hasher.hash, password)
        try:
            user_id = await self.store.write(
                functools.partial(
                    _insert_user,
                    values={
                        "name": name,
                        "name_key": name.lower(),
                        "password": hashed,
                        "created": now(),
                    },
                )
            )
        except IntegrityError:  # (taken while the password was hashed)
            raise _taken(name) from None
        self.sign_ups.allow(client)
        return await self._open_session(user_id, name)

    async def sign_in(self, name: str, password: str, client: str) -> tuple[User, str]:
        """Check a password: the user and a new session's token; 401 (the same for an unknown
        name and a wrong password) or 429 when too many attempts failed."""
        key = name.lower()[:40]
        if not self.by_address.peek(client) or not self.by_name.peek(key):
            raise ActionError(429, _("too many failed sign-ins; wait a few minutes"))
        async with self.store.session() as session:
            row = (await session.scalars(select(UserRow).where(UserRow.name_key == key))).first()
        stored = row.password if row is not None else self.dummy
        try:
            await asyncio.to_thread(self.hasher.verify, stored, password)
            ok = row is not None
        except (VerificationError, InvalidHashError):
            ok = False
        if not ok or row is None:
            self.by_address.allow(client)
            self.by_name.allow(key)
            raise ActionError(401, _("wrong username or password"))
        if self.cost == "standard" and self.hasher.check_needs_rehash(stored):
            await self._rehash(row.id, password)
        return await self._open_session(row.id, row.name)

    async def _rehash(self, user_id: int, password: str) -> None:
        """Keep the account's password (just checked) as a hash at this server's cost."""
        hashed = await asyncio.to_thread(self.hasher.hash, password)
        change = update(UserRow).where(UserRow.id == user_id).values(password=hashed)
        await self.store.write(lambda c: c.execute(change))

    async def _open_session(self, user_id: int, name: str) -> tuple[User, str]:
        token = secrets.token_urlsafe(32)
        csrf = secrets.token_urlsafe(24)
        expires = now() + datetime.timedelta(days=SESSION_DAYS)
        await self.store.write(
            lambda c: c.execute(
                insert(SessionRow).values(
                    key=_digest(token), user_id=user_id, csrf=csrf, expires=expires
                )
            )
        )
        return User(user_id, name, csrf), token

    async def user(self, token: str | None) -> User | None:
        """The user of a session cookie, or ``None`` (no cookie, unknown or expired)."""
        if not token or len(token) > 100:
            return None
        async with self.store.session() as session:
            found = (
                await session.execute(
                    select(UserRow.id, UserRow.name, SessionRow.csrf, SessionRow.expires)
                    .join(SessionRow, SessionRow.user_id == UserRow.id)
                    .where(SessionRow.key == _digest(token))
                )
            ).first()
        if found is None:
            return None
        expires = (
            found.expires if found.expires.tzinfo else found.expires.replace(tzinfo=datetime.UTC)
        )
        if expires < now():
            return None
        return User(found.id, found.name, found.csrf)

    async def sign_out(self, token: str) -> None:
        await self.store.write(
            lambda c: c.execute(delete(SessionRow).where(SessionRow.key == _digest(token)))
        )

    async def change_password(self, user: User, old: str, new: str, token: str) -> None:
        """Replace the password after checking the old one; every other session of the
        account ends."""
        _check_password(new)
        async with self.store.session() as session:
            row = await session.get(UserRow, user.id)
        assert row is not None
        try:
            await asyncio.to_thread(self.hasher.verify, row.password, old)
        except (VerificationError, InvalidHashError):
            raise ActionError(403, _("the current password is wrong")) from None
        hashed = await asyncio.to_thread(self.hasher.hash, new)

        def work(connection: Connection) -> None:
            connection.execute(update(UserRow).where(UserRow.id == user.id).values(password=hashed))
            connection.execute(
                delete(SessionRow).where(
                    SessionRow.user_id == user.id, SessionRow.key != _digest(token)
                )
            )

        await self.store.write(work)

    async def find(self, name: str) -> tuple[int, str] | None:
        """(id, name as written) of the account called ``name`` (any case), or ``None``."""
        async with self.store.session() as session:
            found = (
                await session.execute(
                    select(UserRow.id, UserRow.name).where(UserRow.name_key == name.lower()[:40])
                )
            ).first()
        return (found.id, found.name) if found else None


def _insert_user(connection: Connection, values: dict[str, object]) -> int:
    key = connection.execute(insert(UserRow).values(**values)).inserted_primary_key
    assert key is not None
    return int(key[0])


def csrf_matches(user: User, header: str | None) -> bool:
    return bool(header) and hmac.compare_digest(user.csrf, header or "")
