"""What the routers are handed (FastAPI dependencies): the hub of live games, the server's
guards (rate limits, connection counts, allowed origins, metrics), the client's address, the
accounts and seeks services and the signed-in user (with the CSRF check every state-changing
API request made with the session cookie passes)."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Annotated

from fastapi import Depends, Request
from prometheus_client import CollectorRegistry, Gauge, Histogram
from starlette.requests import HTTPConnection

from .community.people import Accounts, User, csrf_matches
from .community.seeks import Seeks
from .errors import ActionError
from .limits import RateLimit, origin_allowed
from .play.hub import Hub

__all__ = [
    "COOKIE",
    "AccountsDep",
    "Client",
    "Guards",
    "GuardsDep",
    "HubDep",
    "SeeksDep",
    "SignedIn",
    "Viewer",
    "csrf_guard",
    "viewer",
]

#: the session cookie's name
COOKIE = "ludoteca_session"
SAFE_METHODS = frozenset({"GET", "HEAD", "OPTIONS"})


@dataclass
class Guards:
    """Per-server limits and counters shared by every request."""

    games_per_minute: int
    origins: tuple[str, ...]
    registry: CollectorRegistry = field(default_factory=CollectorRegistry)
    sockets: dict[str, int] = field(default_factory=dict)  # open game websockets per address

    def __post_init__(self) -> None:
        self.creations = RateLimit(self.games_per_minute, 60.0)
        Gauge("ludoteca_connections", "Open game websockets", registry=self.registry).set_function(
            lambda: sum(self.sockets.values())
        )
        self.intents = Histogram(
            "ludoteca_intent_seconds",
            "Time from a websocket intent's arrival to its answer being queued",
            buckets=(0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1),
            registry=self.registry,
        )


def _hub(connection: HTTPConnection) -> Hub:
    hub: Hub = connection.app.state.hub
    return hub


def _guards(connection: HTTPConnection) -> Guards:
    guards: Guards = connection.app.state.guards
    return guards


def _client(connection: HTTPConnection) -> str:
    return connection.client.host if connection.client else "?"


HubDep = Annotated[Hub, Depends(_hub)]
GuardsDep = Annotated[Guards, Depends(_guards)]
Client = Annotated[str, Depends(_client)]


def _accounts(connection: HTTPConnection) -> Accounts:
    accounts: Accounts = connection.app.state.accounts
    return accounts


def _seeks(connection: HTTPConnection) -> Seeks:
    seeks: Seeks = connection.app.state.seeks
    return seeks


AccountsDep = Annotated[Accounts, Depends(_accounts)]
SeeksDep = Annotated[Seeks, Depends(_seeks)]


async def viewer(connection: HTTPConnection) -> User | None:
    """The signed-in user of the session cookie, or ``None`` (looked up once a request)."""
    if "user" not in connection.scope.setdefault("state", {}):
        found = await _accounts(connection).user(connection.cookies.get(COOKIE))
        connection.scope["state"]["user"] = found
    user: User | None = connection.scope["state"]["user"]
    return user


async def csrf_guard(request: Request) -> None:
    """A state-changing request is refused (403) when its Origin is another site's, and, when
    it carries a valid session cookie, unless it repeats the session's CSRF token in the
    ``X-CSRF-Token`` header."""
    if request.method in SAFE_METHODS:
        return
    if not origin_allowed(
        request.headers.get("origin"), request.headers.get("host"), _guards(request).origins
    ):
        raise ActionError(403, "requests from another site are refused")
    user = await viewer(request)
    if user is not None and not csrf_matches(user, request.headers.get("x-csrf-token")):
        raise ActionError(403, "missing or wrong CSRF token (X-CSRF-Token): reload the page")


async def _signed_in(request: Request) -> User:
    user = await viewer(request)
    if user is None:
        raise ActionError(401, "sign in first")
    return user


Viewer = Annotated[User | None, Depends(viewer)]
SignedIn = Annotated[User, Depends(_signed_in)]
