"""``ludoteca puzzles GAME --count N [--rules R] [--seed N] [--out FILE [--add]] [--jobs N]
[--men N] [--depth D] [--games N]`` and ``ludoteca puzzles check FILE``: generate puzzles
verified by a solved table or the search, or check a file of them.

Contract: generating finds ``--count`` positions with exactly one winning move (verified by
the rule set's solved table, built first if need be, or else by a ``--depth`` search) and
writes them as JSON lines (docs/formats.md; xz-compressed where the file's name ends in
``.xz``) to ``--out`` or standard output, or with ``--add`` adds to ``--out``'s puzzles those
it does not hold yet (its own kept first, in their order); fewer found
(``--games`` spent) is said on standard error, exit status 1.  ``check`` verifies every puzzle
of FILE and prints how many; a bad puzzle (the first is named) or an empty file is an error,
exit status 2.  A progress bar goes to standard error.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from ..games import load
from .options import fail

__all__ = ["register"]


def register(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """Add ``ludoteca puzzles`` to the command line's subcommands ``sub``."""
    p = sub.add_parser(
        "puzzles",
        help="generate puzzles verified by a solved table or the search, or check a file",
        description="`ludoteca puzzles GAME --count N` finds N positions with one winning "
        "move and writes them as JSON lines (docs/formats.md); `ludoteca puzzles check "
        "FILE` verifies every puzzle of a file and reports the first bad one.",
    )
    p.add_argument("game", help="a game or rule set to generate for, or `check`")
    p.add_argument("file", nargs="?", type=Path, help="(check) the puzzle file")
    p.add_argument("--rules", default=None, help="rule set, e.g. NAME:SETTING,SETTING=VALUE")
    p.add_argument("--count", type=int, default=None, help="how many puzzles")
    p.add_argument("--seed", type=int, default=0, help="which generating games (default 0)")
    p.add_argument("--out", type=Path, default=None, help="the file (default: standard output)")
    p.add_argument(
        "--add",
        action="store_true",
        help="keep the --out file's puzzles and add the new ones it does not hold",
    )
    p.add_argument("--jobs", type=int, default=1, help="processes at once (default 1)")
    p.add_argument(
        "--men", type=int, default=None, help="the endgame tables' size, where there is a choice"
    )
    p.add_argument(
        "--depth", type=int, default=2, help="without a table: the search depth (default 2)"
    )
    p.add_argument(
        "--games", type=int, default=None, help="give up after this many generating games"
    )
    p.set_defaults(handler=run)


def run(args: argparse.Namespace) -> int:
    """Generate the puzzles, or check the file."""
    from tqdm import tqdm

    from ..solve import progress_bar
    from ..study import puzzles

    if args.game == "check":
        if args.file is None:
            return fail("puzzles check: name the file (ludoteca puzzles check FILE)")
        with tqdm(desc="checking", unit=" puzzles", file=sys.stderr, disable=None) as bar:
            good, bad = puzzles.check(args.file, bar.update)
        if bad is not None:
            return fail(f"{bad} ({good} puzzle(s) before it verified)")
        if not good:
            return fail(f"{args.file}: no puzzle found")
        print(f"{args.file}: {good} puzzle(s), every solution unique")
        return 0
    if args.file is not None:
        return fail("puzzles: only `ludoteca puzzles check FILE` takes a file (see --out)")
    if args.count is None or args.count < 1:
        return fail("puzzles: say how many with --count N (at least 1)")
    if args.add and args.out is None:
        return fail("puzzles: --add adds to the --out file: name it")
    if args.jobs < 1 or args.depth < 1:
        return fail("puzzles: --jobs and --depth are at least 1")
    game = load(args.game, args.rules)
    solver = game.solver(args.men)
    if solver is not None and not solver.ready():
        report, building = progress_bar("building the table")
        try:
            solver.load(report)
        finally:
            building.close()
    with tqdm(total=args.count, desc=f"puzzles {game.rules}", file=sys.stderr, disable=None) as bar:
        found = puzzles.generate(
            str(game.rules),
            args.count,
            seed=args.seed,
            jobs=args.jobs,
            men=args.men,
            depth=args.depth,
            max_games=args.games,
            progress=bar.update,
        )
    if args.out is None:
        for puzzle in found:
            print(puzzles.dumps(puzzle))
    elif args.add:
        added = puzzles.add(found, args.out)
        print(f"{args.out}: {added} puzzle(s) added", file=sys.stderr)
    else:
        puzzles.write(found, args.out)
    if len(found) < args.count:
        print(f"only {len(found)} of {args.count} puzzles found", file=sys.stderr)
        return 1
    return 0
