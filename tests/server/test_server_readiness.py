"""``/readyz`` answers 503, naming Redis, once the Redis a server shares with others stops
answering (docs/web.md); ``/healthz`` still answers: the process lives."""

from __future__ import annotations

from contextlib import ExitStack
from pathlib import Path

from fastapi.testclient import TestClient

from ludoteca.server import Settings, create_app

from ..support.need import need
from ..support.redis_server import redis_server
from .test_server_api import url


def test_readiness_fails_when_redis_is_down(tmp_path: Path) -> None:
    with ExitStack() as redis:
        address = redis.enter_context(redis_server(tmp_path, need("redis-server")))
        app = create_app(Settings(db=url(tmp_path), workers=1, warm=False, redis=address))
        with TestClient(app) as client:
            assert client.get("/readyz").json() == {"status": "ready"}
            redis.close()  # this test's own Redis stops
            answer = client.get("/readyz")
            assert answer.status_code == 503
            assert answer.json()["status"] == "unavailable"
            assert answer.json()["error"].startswith("redis")
            assert client.get("/healthz").status_code == 200
