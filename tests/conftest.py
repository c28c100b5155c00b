"""Test-wide settings and fixtures: solved tables go to a temporary cache, never the user's;
throw-away PostgreSQL and Redis (see :func:`tests.support.need.need` for when they are missing);
a run in several processes compiles the compiled search once before they start.

The tests are packages by what they test (``games/``, ``ai/``, ``compiled/``, ``solve/``,
``study/``, ``adapters/``, ``server/``, ``web/``; the project's own checks at the top).  The web
app's fixtures (a fresh database, the app started) are ``server/conftest.py``'s and the
browser's ``tests/support/browser.py``'s, given only to the packages that use them: this file
imports neither FastAPI nor SQLAlchemy, so a rules test loads no server code
(``tests/test_imports.py`` checks it)."""

from __future__ import annotations

import os
import tempfile
from collections.abc import Iterator
from pathlib import Path

import pytest

from .support.compiled import load as load_compiled
from .support.need import need
from .support.postgres import cluster
from .support.redis_server import redis_server

#: a CI run fails on a skip or an xfail (tests/support/ci.py)
pytest_plugins = ["tests.support.ci"]

# the servers of the tests (in this process and started as commands) run study work at the
# normal priority: at the idle policy it may get no processor for seconds while the other test
# process keeps both busy, and the tests waiting for it fail for no fault of the code; what the
# idle policy does is tested on its own (test_server_runaway.py)
os.environ["LUDOTECA_STUDY_AT_IDLE"] = "false"
# and hash passwords at the lowest cost Argon2 allows: at the standard cost (about 0.1 s of
# processor a sign-up or sign-in) test_server_community, test_server_tournaments and
# test_browser_play took 74 s together, 51 s at the lowest; the standard cost is
# tests/server/test_server_sign_in.py's
os.environ["LUDOTECA_PASSWORD_COST"] = "lowest"
# and start their worker processes at their first job, not at start-up (warming loads the
# compiled search of every game, some 5 s of processor a server started as a command, which
# most of them never use); a test of the warm start says warm=True
os.environ["LUDOTECA_WARM"] = "false"


def pytest_configure(config: pytest.Config) -> None:
    """Before xdist starts its processes, load the compiled search into numba's cache (compiling
    it on a fresh checkout, about 40 s of one core), so that the test processes and the servers'
    worker processes they start load it rather than each compiling it at once."""
    if getattr(config.option, "numprocesses", None) and not hasattr(config, "workerinput"):
        load_compiled()


#: the test files that keep a process longest (half a minute and more each: tables built, a Ray
#: cluster, live servers and browsers), longest first as a run measured them
#: (``--durations=0``, summed by file), which ``scripts/test`` hands out before the others
#: (whole files, in collection order): a process left with one of them at the end of a run
#: would keep the other idle
LONGEST = (
    "test_web_browser.py",
    "test_browser_i18n.py",
    "test_browser_languages.py",
    "test_server_api.py",
    "test_puzzles.py",
    "test_server_analysis.py",
    "test_server_community.py",
    "test_browser_feel.py",
    "test_server_tournaments.py",
    "test_server_notify.py",
    "test_felli_solve.py",
    "test_server_correspondence.py",
    "test_browser_play.py",
    "test_browser_blind.py",
    "test_browser_tournaments.py",
    "test_server_limits.py",
    "test_vector.py",
    "test_sprt.py",
    "test_ray_jobs.py",
    "test_ray_nodes.py",
    "test_server_cluster.py",
    "test_server_runaway.py",
    "test_server_report.py",
    "test_tables_build.py",
    "test_server_crash.py",
    "test_server_view_updates.py",
)


def pytest_generate_tests(metafunc: pytest.Metafunc) -> None:
    """A module's ``DATABASES`` (``("sqlite", "postgres")``): its browser tests' server runs on
    each (``tests/support/browser.py``'s ``browser_database``)."""
    databases = getattr(metafunc.module, "DATABASES", None)
    if databases and "browser_database" in metafunc.fixturenames:
        metafunc.parametrize("browser_database", databases, indirect=True, scope="module")


@pytest.hookimpl(trylast=True)
def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """The files of :data:`LONGEST` first, in its order; the others after them, in the order
    pytest-randomly gave (a stable sort)."""
    rank = {name: i for i, name in enumerate(LONGEST)}
    items.sort(key=lambda item: rank.get(item.path.name, len(LONGEST)))


@pytest.fixture(autouse=True, scope="session")
def _private_table_cache(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Path]:
    """The tables' cache of the run: one folder shared by its test processes (each table
    is built once a run, not once a process; a test that needs an empty cache sets its own)."""
    base = tmp_path_factory.getbasetemp()
    path = (base.parent if os.environ.get("PYTEST_XDIST_WORKER") else base) / "ludoteca-cache"
    path.mkdir(exist_ok=True)
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv("LUDOTECA_CACHE", str(path))
        yield path


@pytest.fixture(scope="session")
def postgres_port() -> Iterator[int]:
    """The port of a throw-away PostgreSQL cluster shared by the session's tests (each makes
    its own database with :func:`tests.support.postgres.database`).  Its folder is not under
    pytest's own temporary folder: run as root, the cluster runs as ``nobody``, and every
    pytest that starts on the machine makes ``/tmp/pytest-of-root`` private again (mode 700),
    which cut a running cluster off its own files when another test run started beside it."""
    with (
        tempfile.TemporaryDirectory(prefix="ludoteca-postgres-") as folder,
        cluster(Path(folder), need("initdb")) as port,
    ):
        yield port


@pytest.fixture(scope="session")
def redis_url(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """The URL of a throw-away Redis shared by the session's tests."""
    with redis_server(tmp_path_factory.mktemp("redis"), need("redis-server")) as url:
        yield url
