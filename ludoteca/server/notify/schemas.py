"""The JSON of notifications: an account's preferences, a browser's push subscription, the
server's public key and the payload a push carries (see ``docs/web.md``)."""

from __future__ import annotations

from enum import StrEnum

from pydantic import BaseModel, Field

__all__ = [
    "Channels",
    "Kind",
    "Notice",
    "Preferences",
    "PushKeys",
    "PushSubscription",
    "Unsubscription",
    "VapidKey",
]


class Kind(StrEnum):
    """What a notification is about.  A new kind is a new member here (its default channels in
    :data:`DEFAULT_CHANNELS`): stored preferences without it get its default."""

    #: a move was made and the account is to play
    TURN = "turn"
    #: a game of the account's ended
    OVER = "over"
    #: someone challenged the account, or declined its challenge (see ..community.challenges)
    CHALLENGE = "challenge"


class Channels(BaseModel):
    """Where one kind of notification goes."""

    push: bool = True
    email: bool = False


#: the channels of a kind the account never chose for
DEFAULT_CHANNELS = Channels()


def _default_kinds() -> dict[Kind, Channels]:
    return dict.fromkeys(Kind, DEFAULT_CHANNELS)


class Preferences(BaseModel):
    """What an account is told, and where: per kind, by push and by e-mail; ``email``: the
    address e-mails go to (stored as given, not verified; none: no e-mail at all)."""

    email: str | None = Field(default=None, max_length=254)
    kinds: dict[Kind, Channels] = Field(default_factory=_default_kinds)


class PushKeys(BaseModel):
    """A subscription's keys, as ``PushSubscription.toJSON()`` gives them (base64url): the
    browser's P-256 public key and its 16-byte authentication secret (RFC 8291)."""

    p256dh: str = Field(max_length=200)
    auth: str = Field(max_length=100)


class PushSubscription(BaseModel):
    """A browser's push subscription (``PushSubscription.toJSON()``; other fields ignored)."""

    endpoint: str = Field(max_length=1000)
    keys: PushKeys


class Unsubscription(BaseModel):
    """The subscription to forget, by its endpoint."""

    endpoint: str = Field(max_length=1000)


class VapidKey(BaseModel):
    """The server's VAPID public key (base64url, uncompressed P-256 point): the
    ``applicationServerKey`` a page subscribes with."""

    key: str


class Notice(BaseModel):
    """What a push carries (JSON, encrypted for the browser): the notification's title and
    text, the page it opens, the game, and what it is about (``tag``: one notification a game,
    the newer replacing the older)."""

    kind: Kind
    title: str
    body: str
    url: str
    game: str
    tag: str
