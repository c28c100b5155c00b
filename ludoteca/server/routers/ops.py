"""Operations: the server's metrics."""

from __future__ import annotations

from fastapi import APIRouter
from fastapi.responses import Response
from prometheus_client import CONTENT_TYPE_LATEST, generate_latest

from ..deps import Client, GuardsDep
from ..errors import ActionError

LOCAL = ("127.0.0.1", "::1", "testclient")  # clients that may read /metrics
router = APIRouter(include_in_schema=False)


@router.get("/metrics")
async def metrics(guards: GuardsDep, client: Client) -> Response:
    """The server's metrics in Prometheus' text format, for this machine only."""
    if client not in LOCAL:
        raise ActionError(404, "not found")
    return Response(generate_latest(guards.registry), media_type=CONTENT_TYPE_LATEST)
