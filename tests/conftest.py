"""Test-wide settings: solved tables go to a temporary cache, never the user's; a service a
test needs is skipped when missing on a developer's machine, and fails the run under CI; a run
in several processes compiles the compiled search once before they start."""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path

import pytest


def pytest_configure(config: pytest.Config) -> None:
    """Before xdist starts its processes, load the compiled search into numba's cache (compiling
    it on a fresh checkout, about 40 s of one core), so that the test processes and the servers'
    worker processes they start load it rather than each compiling it at once."""
    if getattr(config.option, "numprocesses", None) and not hasattr(config, "workerinput"):
        from ludoteca.server.workers import load_compiled

        load_compiled()


def need(available: object, what: str) -> None:
    """Skip the calling test module when ``what`` is not available; under ``CI=true`` fail."""
    if available:
        return
    if os.environ.get("CI") == "true":
        pytest.fail(f"{what} is missing under CI (scripts/test installs it)", pytrace=False)
    pytest.skip(f"{what} is not installed (scripts/test installs it)", allow_module_level=True)


@pytest.fixture(autouse=True, scope="session")
def _private_table_cache(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Path]:
    path = tmp_path_factory.mktemp("ludoteca-cache")
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv("LUDOTECA_CACHE", str(path))
        yield path


@pytest.fixture(scope="session")
def postgres_port(tmp_path_factory: pytest.TempPathFactory) -> Iterator[int]:
    """The port of a throw-away PostgreSQL cluster shared by the session's tests (each makes
    its own database with ``tests.postgres.database``)."""
    from .postgres import INITDB, cluster

    need_here(INITDB, "PostgreSQL's server programs")
    with cluster(tmp_path_factory.mktemp("postgres")) as port:
        yield port


def need_here(available: object, what: str) -> None:
    """Like :func:`need`, for one test (or fixture) rather than a module."""
    if available:
        return
    if os.environ.get("CI") == "true":
        pytest.fail(f"{what} is missing under CI (scripts/test installs it)", pytrace=False)
    pytest.skip(f"{what} is not installed (scripts/test installs it)")


@pytest.fixture(scope="session")
def redis_url(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """The URL of a throw-away Redis shared by the session's tests."""
    from .redis_server import REDIS, redis_server

    need_here(REDIS, "Redis (redis-server)")
    with redis_server(tmp_path_factory.mktemp("redis")) as url:
        yield url
