"""What the routers are handed (FastAPI dependencies): the hub of live games, the server's
guards (rate limits, connection counts, allowed origins, metrics) and the client's address."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Annotated

from fastapi import Depends
from prometheus_client import CollectorRegistry, Gauge, Histogram
from starlette.requests import HTTPConnection

from .hub import Hub
from .limits import RateLimit

__all__ = ["Client", "Guards", "GuardsDep", "HubDep"]


@dataclass
class Guards:
    """Per-server limits and counters shared by every request."""

    games_per_minute: int
    origins: tuple[str, ...]
    registry: CollectorRegistry = field(default_factory=CollectorRegistry)
    sockets: dict[str, int] = field(default_factory=dict)  # open game websockets per address

    def __post_init__(self) -> None:
        self.creations = RateLimit(self.games_per_minute, 60.0)
        Gauge("ludoteca_connections", "Open game websockets",
              registry=self.registry).set_function(lambda: sum(self.sockets.values()))
        self.intents = Histogram(
            "ludoteca_intent_seconds",
            "Time from a websocket intent's arrival to its answer being queued",
            buckets=(0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1),
            registry=self.registry)


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
