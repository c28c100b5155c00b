"""Operations: liveness and readiness for a load balancer, and the server's metrics."""

from __future__ import annotations

from fastapi import APIRouter, Response
from fastapi.responses import PlainTextResponse
from prometheus_client import CONTENT_TYPE_LATEST, generate_latest

from ...i18n import _
from ..deps import Client, ClusterDep, GuardsDep, StoreDep
from ..errors import ActionError
from ..schemas import Health, Readiness

LOCAL = ("127.0.0.1", "::1", "testclient")  # clients that may read /metrics
router = APIRouter()


@router.get("/metrics", response_class=PlainTextResponse, include_in_schema=False)
async def metrics(guards: GuardsDep, client: Client) -> Response:
    """The server's metrics in Prometheus' text format, for this machine only."""
    if client not in LOCAL:
        raise ActionError(404, _("not found"))
    return Response(generate_latest(guards.registry), media_type=CONTENT_TYPE_LATEST)


@router.get("/healthz")
async def healthz() -> Health:
    """The process is alive and its event loop answers."""
    return Health()


@router.get("/readyz", responses={503: {"model": Readiness}})
async def readyz(store: StoreDep, cluster: ClusterDep, response: Response) -> Readiness:
    """The process can serve games: its database (and Redis, when it has one) answers (503
    otherwise, with the reason)."""
    checks = [("database", store.ping)]
    if cluster.fanout is not None:
        checks.append(("redis", cluster.ping))
    for name, check in checks:
        try:
            await check()
        except Exception as error:  # any failure to reach a service means: not ready
            response.status_code = 503
            return Readiness(status="unavailable", error=f"{name}: {error}"[:300])
    return Readiness(status="ready")
