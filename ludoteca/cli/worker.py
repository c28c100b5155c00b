"""``ludoteca worker --redis URL [--jobs N]``: think for every server sharing a Redis: take
the computer's moves from its queue (put there by ``ludoteca serve --redis URL --queue``) and
think them out, ``--jobs`` at once, a process each, until stopped.  The processes are
renewed past ``LUDOTECA_WORKER_MEMORY`` MiB of a process's own, as a server's are.

Contract: ``--jobs`` below 1 is an error (exit status 2) and nothing is started; the server's
modules are imported only when the command runs.
"""

from __future__ import annotations

import argparse
import os

from .options import fail

__all__ = ["register"]


def register(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """Add ``ludoteca worker`` to the command line's subcommands ``sub``."""
    p = sub.add_parser(
        "worker",
        help="think for every server: take the computer's moves "
        "from the Redis queue (see serve --queue)",
    )
    p.add_argument("--redis", required=True, metavar="URL", help="redis://host:6379/0")
    p.add_argument(
        "--jobs",
        type=int,
        default=os.cpu_count() or 1,
        help="moves thought out at once, one process each (default: one a core)",
    )
    p.set_defaults(handler=run)


def run(args: argparse.Namespace) -> int:
    """Take and think out the queue's moves until stopped."""
    from ..server.computer.memory import MIB
    from ..server.computer.queue import run_worker
    from ..server.settings import Settings

    if args.jobs < 1:
        return fail("--jobs is at least 1")
    run_worker(args.redis, args.jobs, Settings().worker_memory * MIB or None)
    return 0
