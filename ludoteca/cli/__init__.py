"""The ``ludoteca`` command line: perft, terminal play, record checks (and more per game).

Each command is a module listed in :data:`COMMANDS`, in the order ``ludoteca --help`` lists
them, whose ``register(sub)`` adds its subparser (or subparsers) to ``sub`` and sets its
``handler``: a function of the parsed arguments that returns the exit status.  The modules are
imported to build the parser, for every command; a command's heavy dependencies are imported
by its handler, when it runs.

Every error from bad input is one line on standard error, ``error: ...``, exit status 2;
nothing is changed.  Ctrl-C stops a command with exit status 130.
"""

from __future__ import annotations

import argparse
import importlib
import sys
from collections.abc import Callable, Sequence

from .. import __version__
from ..core import LudotecaError
from ..games import family, game_names
from .options import fail

__all__ = ["COMMANDS", "main"]

#: the module of each command (or group of subcommands), registered in this order: the
#: commands of this package, then those whose module lives with their library code
COMMANDS = (
    "ludoteca.cli.serve",
    "ludoteca.cli.worker",
    "ludoteca.cli.perft",
    "ludoteca.cli.play",
    "ludoteca.cli.solve",
    "ludoteca.cli.tournament",
    "ludoteca.cli.sprt",
    "ludoteca.cli.levels",
    "ludoteca.cli.analyse",
    "ludoteca.cli.puzzles",
    "ludoteca.cli.engine",
    "ludoteca.cli.record",  # record check/show/review
    "ludoteca.ai.book_build",  # book build/show
    "ludoteca.solve.transfer",  # tables export/import
    "ludoteca.ai.tune",  # tune
    "ludoteca.backup",  # db backup/restore
    "ludoteca.users",  # users list/grant/revoke/bot
    "ludoteca.server.tournaments.command",  # tournaments create/list (the operator's)
    "ludoteca.bot",  # bot
)


class _Parser(argparse.ArgumentParser):
    def error(self, message: str) -> None:  # type: ignore[override]
        raise SystemExit(fail(f"{self.prog}: {message}"))


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command line; returns the exit status."""
    parser = _build_parser()
    args = parser.parse_args(argv)
    handler: Callable[[argparse.Namespace], int] = args.handler
    try:
        return handler(args)
    except LudotecaError as error:
        return fail(str(error))
    except OSError as error:
        return fail(f"{error.strerror or error}: {error.filename}")
    except KeyboardInterrupt:
        print(file=sys.stderr)
        return 130


def _build_parser() -> argparse.ArgumentParser:
    parser = _Parser(
        prog="ludoteca",
        description=(
            "Play and study abstract strategy games: "
            + ", ".join(f"{family(g).title} ({g})" for g in game_names())
        ),
    )
    parser.add_argument("--version", action="version", version=f"%(prog)s {__version__}")
    sub = parser.add_subparsers(dest="command", required=True, parser_class=_Parser)
    for name in COMMANDS:
        importlib.import_module(name).register(sub)
    return parser
