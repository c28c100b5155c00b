"""A throw-away Ray cluster for tests: a head node and one worker node (more on request), each a
real ``ray start --block`` process (one CPU each) with folders of its own, as two machines would
have: Ray's temporary folder, the tables' cache its pieces see (``LUDOTECA_CACHE``) and their
temporary folder (``TMPDIR``); with a token of its own.  Stopped, with every process it started,
when the block ends, and never by ``ray stop``, which would stop every Ray cluster on the
machine: each node's processes are found by their session (each ``ray start`` leads a session of
its own, which the processes it starts keep, Ray's worker processes included, though they lead
process groups of their own) and killed by pid.  The head checks its nodes' health every half
second (Ray's default: every 3 s), so that a node killed is known dead in some 2.5 s, not 15."""

from __future__ import annotations

import os
import secrets
import shutil
import signal
import socket
import subprocess
import tempfile
import time
from collections.abc import Callable, Iterator
from contextlib import ExitStack, contextmanager, suppress
from dataclasses import dataclass
from pathlib import Path
from typing import Any, TypeVar

from .ports import reserved_port

#: how long a node may take to start on a loaded machine
START_SECONDS = 180
#: the folder holding the ``tests`` package, which the nodes' Ray workers import from
ROOT = Path(__file__).resolve().parents[2]

T = TypeVar("T")
R = TypeVar("R")


@dataclass(frozen=True)
class Node:
    """One node of a :class:`Cluster`: its ``ray start --block`` process, and the folders its
    pieces see as the tables' cache (``LUDOTECA_CACHE``) and as their temporary folder
    (``TMPDIR``, :func:`tempfile.gettempdir`), no other node's."""

    name: str
    process: subprocess.Popen[bytes]
    cache: Path
    temp: Path

    def processes(self) -> list[int]:
        """The pids of the node's live processes: its ``ray start`` process and every process
        in its session (Ray's head services, raylet, workers)."""
        return _session(self.process.pid)


class Cluster:
    """A running test cluster: its ``address`` and its :attr:`nodes` by name (``"head"``,
    ``"worker"``, then those of :meth:`add_node`)."""

    def __init__(self, program: str, folder: Path, stack: ExitStack) -> None:
        self.program = program
        self.folder = folder
        self._stack = stack
        self.address = ""
        self.nodes: dict[str, Node] = {}

    def start(self, name: str, *args: str) -> Node:
        """Start the node ``name`` (``ray start`` with ``args``) in folders of its own under
        the cluster's folder; it has not necessarily joined when this returns."""
        own = self.folder / name
        cache, temp = own / "cache", own / "tmp"
        cache.mkdir(parents=True)
        temp.mkdir()
        env = dict(
            os.environ,
            RAY_USAGE_STATS_ENABLED="0",
            RAY_health_check_initial_delay_ms="0",
            RAY_health_check_period_ms="500",
            LUDOTECA_CACHE=str(cache),
            TMPDIR=str(temp),
            PYTHONPATH=os.pathsep.join(filter(None, [str(ROOT), os.environ.get("PYTHONPATH")])),
        )
        command = [self.program, "start", *args, f"--temp-dir={own / 'ray'}", "--block"]
        command += ["--num-cpus=1", "--object-store-memory=100000000"]
        log = self._stack.enter_context((self.folder / f"{name}.log").open("wb"))
        process = subprocess.Popen(
            command,
            stdout=log,
            stderr=subprocess.STDOUT,
            env=env,
            start_new_session=True,  # a session of its own: see Node.processes
        )
        node = self.nodes[name] = Node(name, process, cache, temp)
        return node

    def add_node(self, name: str) -> Node:
        """Start one more worker node, ``name``, and wait until it has joined the cluster."""
        import ray

        cpus = ray.cluster_resources().get("CPU", 0)  # type: ignore[no-untyped-call]
        node = self.start(name, f"--address={self.address}", "--node-ip-address=127.0.0.1")
        self._wait_for_cpus(cpus + 1, node)
        return node

    def stop(self) -> None:
        """Stop every node, most recent first: SIGTERM to ``ray start --block`` (which stops
        its node's processes), then SIGKILL to whatever process of the node still runs."""
        for node in reversed(self.nodes.values()):
            node.process.terminate()
        for node in reversed(self.nodes.values()):
            with suppress(subprocess.TimeoutExpired):
                node.process.wait(30)
            _kill_session(node.process.pid)

    def _wait_for_cpus(self, cpus: float, node: Node) -> None:
        import ray

        deadline = time.monotonic() + START_SECONDS
        while ray.cluster_resources().get("CPU", 0) < cpus:  # type: ignore[no-untyped-call]
            assert node.process.poll() is None, (self.folder / f"{node.name}.log").read_text()
            assert time.monotonic() < deadline, f"the {node.name} node did not join"
            time.sleep(0.2)  # polling: Ray sends no event when a node joins


@contextmanager
def ray_nodes(program: str) -> Iterator[Cluster]:
    """Run a head and a worker node with the ``ray`` program until the block ends; this
    process is connected to the cluster (:func:`ludoteca.jobs.ray_connect`).  The token
    (``RAY_AUTH_TOKEN``) is set in this process's environment for the block."""
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
    with ExitStack() as stack:
        cluster = Cluster(program, folder, stack)
        port = stack.enter_context(reserved_port())
        cluster.address = f"127.0.0.1:{port}"
        try:
            head = cluster.start(
                "head",
                "--head",
                f"--port={port}",
                "--node-ip-address=127.0.0.1",
                "--include-dashboard=false",
                "--disable-usage-stats",
            )
            _wait_for(port, head.process, folder / "head.log")
            worker = cluster.start(
                "worker", f"--address={cluster.address}", "--node-ip-address=127.0.0.1"
            )
            ray_connect(cluster.address)
            cluster._wait_for_cpus(2, worker)
            yield cluster
        finally:
            ray.shutdown()
            cluster.stop()
            for key, value in saved.items():
                if value is None:
                    os.environ.pop(key, None)
                else:
                    os.environ[key] = value
            shutil.rmtree(folder, ignore_errors=True)


@contextmanager
def ray_cluster(program: str) -> Iterator[str]:
    """:func:`ray_nodes`, for a test that needs only the cluster's address."""
    with ray_nodes(program) as cluster:
        yield cluster.address


def where() -> dict[str, Any]:
    """Where the calling piece runs: its Ray ``node`` id and its process's ``session`` (the pid
    of the ``ray start`` process of a :class:`Node`), and the ``cache``
    (:func:`ludoteca.solve.cache_dir`) and ``temp`` folders it sees."""
    import ray

    from ludoteca.solve import cache_dir

    return {
        "node": ray.get_runtime_context().get_node_id(),
        "session": os.getsid(0),
        "cache": str(cache_dir()),
        "temp": tempfile.gettempdir(),
    }


def traced(function: Callable[[T], R], item: T) -> tuple[R, dict[str, Any]]:
    """A piece ``function(item)`` run on a node, with :func:`where` it ran."""
    return function(item), where()


def together(folder: str, count: int, function: Callable[[T], R], item: T) -> R:
    """A piece ``function(item)`` that first waits until ``count`` pieces have come here (each
    leaves a file in ``folder``, a folder of this machine): run at once on a cluster of one-CPU
    nodes, ``count`` pieces that meet run on ``count`` nodes; TimeoutError after a minute."""
    Path(folder, secrets.token_hex(8)).touch()
    deadline = time.monotonic() + 60
    while len(os.listdir(folder)) < count:
        if time.monotonic() > deadline:
            raise TimeoutError(f"{count} pieces did not run at once")
        time.sleep(0.01)  # polling: a piece on another node sends no event
    return function(item)


def lost_on(cache: str, function: Callable[[T], R], item: T) -> R:
    """A piece ``function(item)``, except on the node whose tables' cache is ``cache``: there
    the piece writes ``item`` to ``lost`` in the node's temporary folder and kills every process
    of its node (:class:`Node`: raylet, workers, itself last) while it runs, as when a machine
    dies in the middle of a piece."""
    if where()["cache"] != cache:
        return function(item)
    Path(tempfile.gettempdir(), "lost").write_text(repr(item))
    _kill_session(os.getsid(0))
    raise AssertionError("unreachable: the piece's own process is killed")


def _session(leader: int) -> list[int]:
    """The pids of the live processes of the session that process ``leader`` leads."""
    found = []
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            stat = (entry / "stat").read_text()
        except OSError:  # gone meanwhile
            continue
        fields = stat[stat.rindex(")") + 2 :].split()  # after "pid (command) "
        if fields[0] != "Z" and int(fields[3]) == leader:  # its state, its session
            found.append(int(entry.name))
    return found


def _kill_session(leader: int) -> None:
    """SIGKILL every process of the session ``leader`` leads (this process, if it is one of
    them, last), again until none is left: one started as the others die is killed too."""
    me = os.getpid()
    while pids := _session(leader):
        for pid in sorted(pids, key=lambda pid: pid == me):
            with suppress(ProcessLookupError):
                os.kill(pid, signal.SIGKILL)
        time.sleep(0.05)  # the kernel reaps the others as their parents die


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
