"""What the routers are handed (FastAPI dependencies): the server's services (one typed
:class:`Services`, the application's state, built by :mod:`.services`; one dependency per
service), the client's address and the signed-in user (with the CSRF check every
state-changing API request made with the session cookie passes)."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Annotated, Any

from fastapi import Depends, Request, WebSocket
from prometheus_client import CollectorRegistry, Gauge, Histogram
from starlette.requests import HTTPConnection

from ..i18n import _
from .cluster.adoption import Cluster
from .community.bots import Bots
from .community.challenges import Challenges
from .community.chat import Chat
from .community.events import Events
from .community.level_ratings import LevelRatings
from .community.moderation import Moderation
from .community.people import Accounts, User, csrf_matches
from .community.seeks import Seeks
from .computer.computer import Computer
from .errors import ActionError
from .limits import SOCKETS_PER_CLIENT, RateLimit, origin_allowed
from .notify.notifier import Notifier
from .play.bot_feeds import GameFeeds
from .play.correspondence import Correspondence
from .play.duties import Duties
from .play.hub import Hub
from .store import Store
from .study.explorer import Explorer
from .study.mistakes import Mistakes
from .study.reports import Reports
from .study.studies import Studies
from .study.training import Training
from .timings import Timings
from .tournaments.service import Tournaments

__all__ = [
    "COOKIE",
    "AccountsDep",
    "BotsDep",
    "ChallengesDep",
    "ChatDep",
    "Client",
    "ClusterDep",
    "ComputerDep",
    "CorrespondenceDep",
    "DutiesDep",
    "EventsDep",
    "ExplorerDep",
    "GameFeedsDep",
    "Guards",
    "GuardsDep",
    "HubDep",
    "LevelRatingsDep",
    "MistakesDep",
    "ModerationDep",
    "NotifierDep",
    "ReportsDep",
    "SeeksDep",
    "Services",
    "ServicesDep",
    "SignedIn",
    "StoreDep",
    "StudiesDep",
    "TournamentsDep",
    "TrainingDep",
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
        #: where the time of each stage of a change goes (see :mod:`.timings`)
        self.timings = Timings(self.registry)

    async def admit(self, websocket: WebSocket, address: str, what: str) -> bool:
        """Whether a websocket may be served: from an allowed origin, and one of at most
        :data:`SOCKETS_PER_CLIENT` open from its ``address`` (counted until :meth:`release`).
        A refused one is accepted, then closed with code 1008 and a reason naming ``what`` it is
        ("game sockets"), which a browser reads (a close before the accept would be an empty
        HTTP 403)."""
        headers = websocket.headers
        if not origin_allowed(headers.get("origin"), headers.get("host"), self.origins):
            refusal = f"this origin may not open {what}"
        elif self.sockets.get(address, 0) >= SOCKETS_PER_CLIENT:
            refusal = "too many connections from one address"
        else:
            self.sockets[address] = self.sockets.get(address, 0) + 1
            return True
        await websocket.accept()
        await websocket.close(code=1008, reason=refusal)
        return False

    def release(self, address: str) -> None:
        """A websocket :meth:`admit` let in has closed."""
        self.sockets[address] -= 1
        if not self.sockets[address]:
            del self.sockets[address]


@dataclass(frozen=True)
class Services:
    """What a running server is made of (``app.state.services``), each built once by the
    composition root (:func:`.services.build_services`) and handed to the routers by its
    dependency below (``HubDep`` for ``hub``, and so on)."""

    guards: Guards
    store: Store
    computer: Computer
    cluster: Cluster
    duties: Duties
    reports: Reports
    explorer: Explorer
    hub: Hub
    chat: Chat
    accounts: Accounts
    seeks: Seeks
    level_ratings: LevelRatings
    training: Training
    #: a player's own blunders offered as exercises
    mistakes: Mistakes
    #: reports, blocks, the moderators' actions and the rules every chat line passes
    moderation: Moderation
    #: the correspondence games' deadlines, your-turn lists and planned moves
    correspondence: Correspondence
    notifier: Notifier
    #: the tournaments (Swiss, round robin, arena) and their scheduler
    tournaments: Tournaments
    #: per-account event streams (challenges, bots' games) and the challenges
    events: Events
    challenges: Challenges
    #: bot accounts (tokens, limits, the level bots) and the Bot API's game streams
    bots: Bots
    game_feeds: GameFeeds
    #: the studies: chapters of annotated move trees, shared live
    studies: Studies


def _services_of(connection: HTTPConnection) -> Services:
    services: Services = connection.app.state.services
    return services


# The dependencies below are coroutines, though they only read attributes: FastAPI runs a plain
# function dependency in its thread pool, a hand-over to a thread and back for each, which a
# burst of new websockets (thousands of spectators) queued behind the pool's forty threads.


async def _services(connection: HTTPConnection) -> Services:
    return _services_of(connection)


async def _client(connection: HTTPConnection) -> str:
    return connection.client.host if connection.client else "?"


ServicesDep = Annotated[Services, Depends(_services)]
Client = Annotated[str, Depends(_client)]


def _service(name: str) -> Any:
    """The dependency handing a route the service ``name`` of :class:`Services`."""

    async def service(services: ServicesDep) -> object:
        return getattr(services, name)

    return Depends(service)


GuardsDep = Annotated[Guards, _service("guards")]
StoreDep = Annotated[Store, _service("store")]
ComputerDep = Annotated[Computer, _service("computer")]
ClusterDep = Annotated[Cluster, _service("cluster")]
DutiesDep = Annotated[Duties, _service("duties")]
ReportsDep = Annotated[Reports, _service("reports")]
ExplorerDep = Annotated[Explorer, _service("explorer")]
HubDep = Annotated[Hub, _service("hub")]
ChatDep = Annotated[Chat, _service("chat")]
AccountsDep = Annotated[Accounts, _service("accounts")]
SeeksDep = Annotated[Seeks, _service("seeks")]
LevelRatingsDep = Annotated[LevelRatings, _service("level_ratings")]
TrainingDep = Annotated[Training, _service("training")]
MistakesDep = Annotated[Mistakes, _service("mistakes")]
ModerationDep = Annotated[Moderation, _service("moderation")]
CorrespondenceDep = Annotated[Correspondence, _service("correspondence")]
NotifierDep = Annotated[Notifier, _service("notifier")]
TournamentsDep = Annotated[Tournaments, _service("tournaments")]
EventsDep = Annotated[Events, _service("events")]
ChallengesDep = Annotated[Challenges, _service("challenges")]
BotsDep = Annotated[Bots, _service("bots")]
GameFeedsDep = Annotated[GameFeeds, _service("game_feeds")]
StudiesDep = Annotated[Studies, _service("studies")]


async def viewer(connection: HTTPConnection) -> User | None:
    """The signed-in user of the session cookie, or ``None`` (looked up once a request)."""
    if "user" not in connection.scope.setdefault("state", {}):
        found = await _services_of(connection).accounts.user(connection.cookies.get(COOKIE))
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
        request.headers.get("origin"),
        request.headers.get("host"),
        _services_of(request).guards.origins,
    ):
        raise ActionError(403, _("requests from another site are refused"))
    user = await viewer(request)
    if user is not None and not csrf_matches(user, request.headers.get("x-csrf-token")):
        raise ActionError(403, _("missing or wrong CSRF token (X-CSRF-Token): reload the page"))


async def _signed_in(request: Request) -> User:
    user = await viewer(request)
    if user is None:
        raise ActionError(401, _("sign in first"))
    return user


Viewer = Annotated[User | None, Depends(viewer)]
SignedIn = Annotated[User, Depends(_signed_in)]
