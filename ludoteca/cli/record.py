"""``ludoteca record check FILE``, ``ludoteca record show FILE [--svg PICTURE]`` and
``ludoteca record review FILE [--time S]``: check, show or review the game records of a file
(docs/formats.md).

Contract: each replays every game of FILE.  ``check`` prints a line a game (its game, rules,
plies and result) and the count; ``show`` prints each game's tags, moves, final position and
outcome (with ``--svg``, the final position is also drawn to PICTURE, PICTURE-2, ... for the
further games); ``review`` prints each game's mistakes found by a search of ``--time`` seconds
a position (the ply, the move, the share of the game it gave away, a better move).  A record
that does not replay (the game is named) or a file without one is an error (exit status 2).
"""

from __future__ import annotations

import argparse
from pathlib import Path

from .. import record, svg
from ..ai import Limit
from ..core import InvalidRecordError, LudotecaError
from ..i18n import Text
from .options import fail

__all__ = ["register"]


def register(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """Add ``ludoteca record check``, ``record show`` and ``record review`` to the command
    line's subcommands ``sub``."""
    p = sub.add_parser("record", help="check or show game records")
    rsub = p.add_subparsers(dest="action", required=True, parser_class=type(p))
    for name, handler, text in (
        ("check", run_check, "replay every game and report errors"),
        ("show", run_show, "replay and draw the final position"),
        ("review", run_review, "mark the mistakes of each game"),
    ):
        rp = rsub.add_parser(name, help=text)
        rp.add_argument("file", type=Path)
        rp.set_defaults(handler=handler)
        if name == "review":
            rp.add_argument("--time", type=float, default=0.5, help="seconds per position")
        if name == "show":
            rp.add_argument(
                "--svg",
                type=Path,
                default=None,
                help="also write the final position as an SVG picture to this file "
                "(NAME-2.svg, NAME-3.svg, ... for further games)",
            )


def run_check(args: argparse.Namespace) -> int:
    """Replay each game and say what it is."""
    count = 0
    with args.file.open(encoding="utf-8") as stream:
        try:
            for game in record.read_games(stream):
                count += 1
                print(
                    f"game {count}: {game.tags['Game']} ({game.tags['Rules']}), "
                    f"{len(game.state.move_stack)} plies, result {game.result}"
                )
        except InvalidRecordError as error:
            raise InvalidRecordError(
                Text("game %(number)s, %(error)s", number=count + 1, error=error)
            ) from None
    if not count:
        return fail(f"{args.file}: no game record found")
    print(f"{args.file}: {count} game(s), all valid")
    return 0


def _read_records(path: Path) -> list[record.GameRecord]:
    with path.open(encoding="utf-8") as stream:
        games = list(record.read_games(stream))
    if not games:
        raise LudotecaError(f"{path}: no game record found")
    return games


def run_show(args: argparse.Namespace) -> int:
    """Replay each game and draw its final position."""
    for number, game in enumerate(_read_records(args.file), start=1):
        if args.svg:
            path = args.svg if number == 1 else args.svg.with_stem(f"{args.svg.stem}-{number}")
            path.write_text(svg.render(game.state))
        for key, value in game.tags.items():
            print(f"{key}: {value}")
        print("Moves: " + " ".join(game.moves))
        print(game.state)
        outcome = game.state.outcome()
        print(outcome.explain() if outcome else f"Result: {game.result}")
        print()
    return 0


def run_review(args: argparse.Namespace) -> int:
    """Mark each game's mistakes."""
    from ..ai.analysis import review

    for number, game in enumerate(_read_records(args.file), start=1):
        mistakes = review(game.state, Limit(seconds=args.time))
        print(
            f"game {number}: {game.tags.get('White', '?')} - {game.tags.get('Black', '?')}, "
            f"{len(game.moves)} plies, {len(mistakes)} mistake(s)"
        )
        for ply, move, best, loss in mistakes:
            print(f"  ply {ply}: {move} gave away {loss:.0%}; better {best.move} ({best.text})")
    return 0
