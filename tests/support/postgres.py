"""A throw-away PostgreSQL cluster for tests: ``initdb`` in a temporary folder, ``pg_ctl``
start on a reserved port (as user ``nobody`` when the tests run as root), a fresh database per
test by ``psql``."""

from __future__ import annotations

import os
import subprocess
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest

from .need import need
from .ports import reserved_port


@contextmanager
def cluster(folder: Path, initdb: str) -> Iterator[int]:
    """Run a cluster made by the program ``initdb`` in ``folder`` until the block ends; its
    port."""
    prefix: list[str] = []
    if os.geteuid() == 0:  # PostgreSQL refuses to run as root
        os.chmod(folder, 0o777)
        for parent in folder.parents:
            if parent == Path("/"):
                break
            os.chmod(parent, os.stat(parent).st_mode | 0o005)
        prefix = ["runuser", "-u", "nobody", "--"]
    pg_ctl = str(Path(initdb).resolve().with_name("pg_ctl"))
    data = folder / "data"
    made = subprocess.run(
        [*prefix, initdb, "-D", str(data), "-A", "trust", "-U", "ludoteca"],
        capture_output=True,
        text=True,
    )
    assert made.returncode == 0, f"initdb failed: {made.stderr}"
    with reserved_port() as port:
        subprocess.run(
            [
                *prefix,
                pg_ctl,
                "-D",
                str(data),
                "-w",
                "-l",
                str(folder / "log"),
                "-o",
                f"-p {port} -k {folder} -c listen_addresses=127.0.0.1",
                "start",
            ],
            check=True,
            capture_output=True,
        )
        try:
            yield port
        finally:
            subprocess.run(
                [*prefix, pg_ctl, "-D", str(data), "-m", "immediate", "stop"], capture_output=True
            )


def database(port: int, name: str) -> str:
    """Create database ``name`` in the cluster on ``port``; its SQLAlchemy URL."""
    psql = need("psql")
    subprocess.run(
        [
            psql,
            "-h",
            "127.0.0.1",
            "-p",
            str(port),
            "-U",
            "ludoteca",
            "-d",
            "postgres",
            "-c",
            f'CREATE DATABASE "{name}"',
        ],
        check=True,
        capture_output=True,
    )
    return f"postgresql+asyncpg://ludoteca@127.0.0.1:{port}/{name}"


#: a test of the ``database_url`` fixture on SQLite alone: what it runs of the modules that talk
#: to the database runs on PostgreSQL in the tests kept on both, line for line (chosen by
#: ``python -m bench.postgres_coverage``; its result is bench/results/postgres-coverage.txt)
sqlite_only = pytest.mark.parametrize("database_url", ["sqlite"], indirect=True)
