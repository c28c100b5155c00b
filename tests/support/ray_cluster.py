"""A throw-away Ray cluster for tests: a head node and one worker node, each a real ``ray
start --block`` process (one CPU each) in a folder of its own, with a token of its own; stopped,
with every process it started, by their process groups when the block ends (never ``ray stop``,
which would stop every Ray cluster on the machine)."""

from __future__ import annotations

import os
import secrets
import shutil
import signal
import socket
import subprocess
import tempfile
import time
from collections.abc import Iterator
from contextlib import ExitStack, contextmanager, suppress
from pathlib import Path

from .ports import reserved_port

#: how long a node may take to start on a loaded machine
START_SECONDS = 180


@contextmanager
def ray_cluster(program: str) -> Iterator[str]:
    """Run a head and a worker node with the ``ray`` program until the block ends; the
    cluster's address, which this process is connected to (:func:`ludoteca.jobs.ray_connect`).
    The token (``RAY_AUTH_TOKEN``) is set in this process's environment for the block."""
    token = {"RAY_AUTH_MODE": "token", "RAY_AUTH_TOKEN": secrets.token_hex(32)}
    saved = {key: os.environ.get(key) for key in token}
    os.environ.update(token)
    import ray
    from ray._raylet import AuthenticationTokenLoader, Config

    from ludoteca.jobs import ray_connect

    # Ray reads its settings and token when first imported: read them again, as Ray itself
    # does when it turns token authentication on (ray/_private/authentication)
    Config.initialize("")
    AuthenticationTokenLoader.instance().reset_cache()
    # a short folder: Ray's Unix sockets live in it, and their paths are limited to 107 bytes
    folder = Path(tempfile.mkdtemp(prefix="ray", dir="/tmp"))
    env = dict(os.environ, RAY_USAGE_STATS_ENABLED="0")
    common = ["--block", "--num-cpus=1", "--object-store-memory=100000000"]
    with ExitStack() as stack:
        port = stack.enter_context(reserved_port())
        address = f"127.0.0.1:{port}"
        nodes: list[subprocess.Popen[bytes]] = []

        def start(name: str, *args: str) -> None:
            log = stack.enter_context((folder / f"{name}.log").open("wb"))
            nodes.append(
                subprocess.Popen(
                    [program, "start", *args, *common],
                    stdout=log,
                    stderr=subprocess.STDOUT,
                    env=env,
                    start_new_session=True,  # its own process group, stopped as one
                )
            )

        try:
            start(
                "head",
                "--head",
                f"--port={port}",
                "--node-ip-address=127.0.0.1",
                "--include-dashboard=false",
                "--disable-usage-stats",
                f"--temp-dir={folder}",
            )
            _wait_for(port, nodes[0], folder / "head.log")
            start("worker", f"--address={address}", "--node-ip-address=127.0.0.1")
            ray_connect(address)
            deadline = time.monotonic() + START_SECONDS
            while ray.cluster_resources().get("CPU", 0) < 2:  # type: ignore[no-untyped-call]
                assert nodes[1].poll() is None, (folder / "worker.log").read_text()
                assert time.monotonic() < deadline, "the worker node did not join"
                time.sleep(0.2)  # polling: Ray sends no event when a node joins
            yield address
        finally:
            ray.shutdown()
            for node in reversed(nodes):
                node.terminate()  # `ray start --block` stops its node's processes on SIGTERM
            for node in reversed(nodes):
                with suppress(subprocess.TimeoutExpired):
                    node.wait(30)
                with suppress(ProcessLookupError):
                    os.killpg(node.pid, signal.SIGKILL)  # anything of the node still running
            for key, value in saved.items():
                if value is None:
                    os.environ.pop(key, None)
                else:
                    os.environ[key] = value
            shutil.rmtree(folder, ignore_errors=True)


def _wait_for(port: int, process: subprocess.Popen[bytes], log: Path) -> None:
    deadline = time.monotonic() + START_SECONDS
    while True:
        try:
            socket.create_connection(("127.0.0.1", port), timeout=1).close()
            return
        except OSError:
            assert process.poll() is None, log.read_text()
            assert time.monotonic() < deadline, "the Ray head did not start"
            time.sleep(0.2)  # polling: a starting head sends no event to wait on
