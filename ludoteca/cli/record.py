"""``ludoteca record check FILE``, ``ludoteca record show FILE [--svg PICTURE]``,
``ludoteca record review FILE [--time S]`` and ``ludoteca record convert IN OUT --to FORMAT``:
check, show, review or convert the game records of a file (docs/formats.md).  Each reads
Ludoteca's records and the other programs' (:mod:`ludoteca.formats`: Sanmill's move lists,
the Mill Interchange Format's records, Boardspace's Morelli records), the format guessed from
the text or given by ``--from``, the rule set of a foreign record that does not name it by
``--rules``.

Contract: each replays every game of FILE.  ``check`` prints a line a game (its game, rules,
plies and result) and the count; ``show`` prints each game's tags, moves, final position and
outcome (with ``--svg``, the final position is also drawn to PICTURE, PICTURE-2, ... for the
further games); ``review`` prints each game's mistakes found by a search of ``--time`` seconds
a position (the ply, the move, the share of the game it gave away, a better move).  A record
that does not replay (the game is named) or a file without one is an error (exit status 2).
``convert`` reads every game of IN and writes them to OUT in FORMAT (``-``: standard output);
a text in no known format, a game the format cannot hold or a bad move is an error and OUT is
not written.
"""

from __future__ import annotations

import argparse
from pathlib import Path

from .. import formats, record, svg
from ..ai import Limit
from ..core import InvalidRecordError, LudotecaError
from ..i18n import Text
from .options import fail

__all__ = ["register"]


def register(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """Add ``ludoteca record check``, ``record show`` and ``record review`` to the command
    line's subcommands ``sub``."""
    p = sub.add_parser("record", help="check, show, review or convert game records")
    rsub = p.add_subparsers(dest="action", required=True, parser_class=type(p))
    for name, handler, text in (
        ("check", run_check, "replay every game and report errors"),
        ("show", run_show, "replay and draw the final position"),
        ("review", run_review, "mark the mistakes of each game"),
    ):
        rp = rsub.add_parser(name, help=text)
        rp.add_argument("file", type=Path)
        rp.set_defaults(handler=handler)
        _add_reading(rp)
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
    cp = rsub.add_parser("convert", help="convert records to another format")
    cp.add_argument("input", type=Path)
    cp.add_argument("output", help="the file to write (- for standard output)")
    cp.add_argument(
        "--to", required=True, choices=list(formats.FORMATS), help="the format to write"
    )
    _add_reading(cp)
    cp.set_defaults(handler=run_convert)


def _add_reading(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--from",
        dest="source",
        choices=list(formats.FORMATS),
        default=None,
        help="the format of the file (default: guessed from its text)",
    )
    parser.add_argument(
        "--rules",
        default=None,
        help="the rule set of a foreign record that does not name it (default: inferred)",
    )


def run_check(args: argparse.Namespace) -> int:
    """Replay each game and say what it is."""
    count = 0
    if _foreign(args.file, args.source, args.rules):
        found, games = formats.loads_all(_text(args.file), args.source, args.rules)
        for count, game in enumerate(games, start=1):
            _describe(count, game)
        print(f"{args.file}: {count} game(s) ({Text(found.title)}), all valid")
        return 0
    with args.file.open(encoding="utf-8") as stream:
        try:
            for game in record.read_games(stream):
                count += 1
                _describe(count, game)
        except InvalidRecordError as error:
            raise InvalidRecordError(
                Text("game %(number)s, %(error)s", number=count + 1, error=error)
            ) from None
    if not count:
        return fail(f"{args.file}: no game record found")
    print(f"{args.file}: {count} game(s), all valid")
    return 0


def _describe(number: int, game: record.GameRecord) -> None:
    print(
        f"game {number}: {game.tags['Game']} ({game.tags['Rules']}), "
        f"{len(game.state.move_stack)} plies, result {game.result}"
    )


def _text(path: Path) -> str:
    try:
        return path.read_text(encoding="utf-8")
    except UnicodeDecodeError:
        raise InvalidRecordError(Text("%(file)s is not UTF-8 text", file=str(path))) from None


def _foreign(path: Path, source: str | None, rules: str | None) -> bool:
    """Whether the file is read as another program's records: ``--from`` says so, or its
    first bytes are not Ludoteca's and another format recognises them (a file in no known
    format is left to Ludoteca's reader, whose errors say what is missing)."""
    if source is not None:
        return source != "ludoteca"
    with path.open(encoding="utf-8", errors="replace") as stream:
        head = stream.read(4000)
    if formats.FORMATS["ludoteca"].detect(head):
        return bool(rules)
    return any(f.detect(_text(path)) for f in formats.FORMATS.values() if f.name != "ludoteca")


def run_convert(args: argparse.Namespace) -> int:
    """Read every game of the input and write it in the format asked."""
    _, games = formats.loads_all(_text(args.input), args.source, args.rules)
    texts = [formats.dumps(game, args.to) for game in games]
    out = "\n".join(texts)
    if args.output == "-":
        print(out, end="")
    else:
        Path(args.output).write_text(out, encoding="utf-8")
        print(f"{args.output}: {len(games)} game(s) written ({args.to})")
    return 0


def _read_records(
    path: Path, source: str | None = None, rules: str | None = None
) -> list[record.GameRecord]:
    if _foreign(path, source, rules):
        return formats.loads_all(_text(path), source, rules)[1]
    with path.open(encoding="utf-8") as stream:
        games = list(record.read_games(stream))
    if not games:
        raise LudotecaError(f"{path}: no game record found")
    return games


def run_show(args: argparse.Namespace) -> int:
    """Replay each game and draw its final position."""
    for number, game in enumerate(_read_records(args.file, args.source, args.rules), start=1):
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

    for number, game in enumerate(_read_records(args.file, args.source, args.rules), start=1):
        mistakes = review(game.state, Limit(seconds=args.time))
        print(
            f"game {number}: {game.tags.get('White', '?')} - {game.tags.get('Black', '?')}, "
            f"{len(game.moves)} plies, {len(mistakes)} mistake(s)"
        )
        for ply, move, best, loss in mistakes:
            print(f"  ply {ply}: {move} gave away {loss:.0%}; better {best.move} ({best.text})")
    return 0
