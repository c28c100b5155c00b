"""What several commands share: the start-position options (``--rules``, ``--setup``,
``--position``) and the position they name, the ``--ray`` option and the pool a long job runs
in, and the one-line error each command reports bad input with."""

from __future__ import annotations

import argparse
import sys

from ..core import LudotecaError, State
from ..extras import require
from ..games import load
from ..jobs import Pool

__all__ = ["add_ray_option", "add_start_options", "fail", "pool", "start"]


def fail(message: str) -> int:
    """Print ``error: message`` on standard error; returns the exit status of bad input, 2."""
    print(f"error: {message}", file=sys.stderr)
    return 2


def add_start_options(p: argparse.ArgumentParser) -> None:
    """Add ``--rules``, ``--setup`` and ``--position`` (read by :func:`start`)."""
    p.add_argument("--rules", default=None, help="rule set, e.g. NAME:SETTING,SETTING=VALUE")
    p.add_argument("--setup", default=None, help="setup string (games with a random setup)")
    p.add_argument("--position", default=None, help="start from this position code")


def start(args: argparse.Namespace) -> State:
    """The position of ``args.game`` under ``--rules`` that the options of
    :func:`add_start_options` name: ``--position``'s, else the start (with ``--setup``, or a
    setup drawn with ``args.seed`` where the command has one)."""
    game = load(args.game, args.rules)
    if args.position:
        return game.from_position_code(args.position)
    return game.new(setup=args.setup, seed=getattr(args, "seed", None))


def add_ray_option(p: argparse.ArgumentParser) -> None:
    """Add ``--ray [ADDRESS]`` (read by :func:`pool`)."""
    p.add_argument(
        "--ray",
        nargs="?",
        const="auto",
        default=None,
        metavar="ADDRESS",
        help="spread the work over a Ray cluster (default address: auto, the cluster this "
        "machine joined with `ray start`; docs/scaling.md)",
    )


def pool(args: argparse.Namespace) -> Pool:
    """Where a long job runs: ``--jobs`` local processes, or the ``--ray`` cluster (Ray
    required at once, before any work, though a job found in the cache would not use it)."""
    if getattr(args, "jobs", 1) < 1:
        raise LudotecaError("--jobs is at least 1")
    if args.ray is not None:
        require("ray", extra="cluster")
    return Pool(getattr(args, "jobs", 1), args.ray)
