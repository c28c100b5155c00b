"""``ludoteca engine``: speak the engine protocol (:mod:`ludoteca.protocol`,
docs/engine-protocol.md) on standard input and output.

Contract: answers the protocol's commands until ``quit`` or the end of input, then exits with
status 0.  The protocol's module is imported only when the command runs.
"""

from __future__ import annotations

import argparse

__all__ = ["register"]


def register(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """Add ``ludoteca engine`` to the command line's subcommands ``sub``."""
    p = sub.add_parser("engine", help="speak the engine protocol on stdin/stdout")
    p.set_defaults(handler=run)


def run(args: argparse.Namespace) -> int:
    """Serve the protocol."""
    from ..protocol import serve

    return serve()
