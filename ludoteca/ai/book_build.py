"""Building opening books (:mod:`.book`) offline, and the ``ludoteca book`` command.

A build searches the start position, then, ply by ply, every position reached by a move within
the margin of the best (for both sides) until ``plies`` plies: each position scored move by
move (every root move's exact value) at a fixed depth or for a time, or read from a solved table
where one covers it.  The positions of a ply are independent pieces run in parallel
(:func:`ludoteca.jobs.parallel_map`: local processes or a Ray cluster), with a progress bar.
Each finished position is appended to a work file beside the book (``BOOK.partial``, JSON lines
after a line of settings), so a build stopped in any way and started again with the same
settings continues where it was; the book is written at the end and the work file removed.
"""

from __future__ import annotations

import argparse
import json
import time
from collections.abc import Callable, Iterator
from dataclasses import asdict, dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import TYPE_CHECKING, Any, TextIO

from ..core import Game, LudotecaError
from ..games import load
from .base import Limit
from .book import Book, InvalidBookError, book_for, book_key, load_book

if TYPE_CHECKING:
    from ..jobs import Pool

__all__ = ["Settings", "build", "register", "search_position"]

#: the margin (search units, 1000 = a won position) within which moves are kept and expanded
MARGIN = 20
#: the depth each position is searched to when neither a depth nor a time is given
DEPTH = 8


@dataclass(frozen=True)
class Settings:
    """What a build computes: the rule set (its spec), how many plies from the start, each
    position's search (a ``depth``, or ``seconds``), and the ``margin`` of moves kept."""

    rules: str
    plies: int
    depth: int | None = None
    seconds: float | None = None
    margin: int = MARGIN

    def __post_init__(self) -> None:
        if self.plies < 1:
            raise LudotecaError("a book covers at least one ply (--plies 1)")
        if (self.depth is None) == (self.seconds is None):
            raise LudotecaError("a book's positions are searched to a --depth or for a --time")
        if (self.depth is not None and self.depth < 1) or (self.seconds or 1) <= 0:
            raise LudotecaError("a book's search depth is at least 1 and its time positive")
        if self.margin < 0:
            raise LudotecaError("the margin of a book's moves cannot be negative")


Moves = list[tuple[str, int]]


def search_position(task: tuple[Settings, str]) -> tuple[int, Moves, float]:
    """One piece of a build: the position with book key ``key`` searched as ``settings`` say;
    returns the depth reached (0: from a solved table), the moves within the margin of the
    best with their values for the side to move (best first, then by notation) and the
    seconds it took.  The search is :class:`~ludoteca.ai.search.SearchAgent` seeded 0 scoring
    every root move exactly, so the same call gives the same values again."""
    from .analysis import move_values
    from .perfect import covering_table
    from .search import SearchAgent

    settings, key = task
    started = time.perf_counter()
    state = load(settings.rules).from_position_code(key)
    if covering_table(state) is not None:
        values, _ = move_values(state)
        depth = 0
    else:
        limit = Limit(depth=settings.depth, seconds=settings.seconds)
        found = SearchAgent(0).analyse(state, limit, exact=True)
        values, depth = found.scores or {found.move.code: found.score}, found.depth
    best = max(values.values())
    kept = [(str(state.move_of(c)), v) for c, v in values.items() if v >= best - settings.margin]
    kept.sort(key=lambda mv: (-mv[1], mv[0]))
    return depth, kept, time.perf_counter() - started


@dataclass
class Progress:
    """A build's work file: the settings, then one finished position a line."""

    path: Path
    settings: Settings
    done: dict[str, tuple[int, Moves]]
    seconds: float = 0.0  # search time of the positions done, over every run

    @classmethod
    def open(cls, path: Path, settings: Settings) -> Progress:
        """The work file at ``path``, read back if it exists (a last line cut short by a kill
        is dropped) and checked to hold a build with the same settings but perhaps another
        number of plies (its positions are the same, so a build stopped in a late ply can
        be finished with fewer); created if not."""
        progress = cls(path, settings, {})
        if not path.exists():
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_text(json.dumps({"settings": asdict(settings)}) + "\n")
            return progress
        text = path.read_text()
        whole = text[: text.rfind("\n") + 1]
        lines = whole.splitlines()
        try:
            header = json.loads(lines[0])["settings"] if lines else None
        except (json.JSONDecodeError, KeyError, TypeError):
            header = None
        if header is None or {**header, "plies": settings.plies} != asdict(settings):
            raise LudotecaError(
                f"{path} holds another build ({header}); run it with those settings, or "
                "delete the file to start afresh"
            )
        for line in lines[1:]:
            entry = json.loads(line)
            moves = [(str(m), int(v)) for m, v in entry["moves"]]
            progress.done[entry["key"]] = (int(entry["depth"]), moves)
            progress.seconds += float(entry["seconds"])
        if whole != text:
            path.write_text(whole)
        return progress

    def add(self, sink: TextIO, key: str, depth: int, moves: Moves, seconds: float) -> None:
        """Record a finished position (written and flushed at once)."""
        self.done[key] = (depth, moves)
        self.seconds += seconds
        line = {"key": key, "depth": depth, "moves": moves, "seconds": round(seconds, 3)}
        sink.write(json.dumps(line) + "\n")
        sink.flush()


def _children(game: Game, keys: list[str], done: dict[str, tuple[int, Moves]]) -> list[str]:
    """The keys of the positions the kept moves of ``keys`` lead to (games still going),
    each once, in a fixed order."""
    found: dict[str, None] = {}
    for key in keys:
        state = game.from_position_code(key)
        for text, _ in done[key][1]:
            child = state.copy()
            child.push(text)
            if child.outcome() is None:
                found.setdefault(book_key(child), None)
    return list(found)


def _book(
    game: Game, settings: Settings, plies: int, work: Progress, resumed: int, seconds: float
) -> Book:
    """The book of the first ``plies`` plies of a build (all it has done so far)."""
    return Book(
        game,
        plies,
        settings.depth,
        settings.seconds,
        settings.margin,
        dict(sorted(work.done.items())),
        {
            "positions": len(work.done),
            "search_seconds": round(work.seconds, 1),
            "resumed_positions": resumed,
            "last_run_seconds": round(seconds, 1),
            "finished": datetime.now(UTC).strftime("%Y-%m-%d %H:%M UTC"),
        },
    )


def build(
    settings: Settings,
    out: Path,
    pool: Pool | None = None,
    progress: bool = True,
    on_position: Callable[[str], None] | None = None,
) -> Book:
    """Build (or finish building) the book ``settings`` describe and write it to ``out``, a
    complete book of the plies done so far after each ply (so a build stopped early leaves a
    shallower book); ``on_position(key)`` is called after each position is recorded.  See the
    module docstring."""
    from ..jobs import parallel_map

    game = load(settings.rules)
    work = Progress.open(out.with_name(out.name + ".partial"), settings)
    resumed = len(work.done)
    started = time.perf_counter()
    frontier = [book_key(game.new())]
    from .search import SearchAgent

    SearchAgent(0).analyse(game.new(), Limit(depth=1))  # loads the compiled search for workers
    book = None
    with work.path.open("a") as sink:
        for ply in range(settings.plies):
            todo = [(settings, key) for key in frontier if key not in work.done]
            label = f"ply {ply + 1}/{settings.plies}" if progress else None
            pieces: Iterator[tuple[tuple[Settings, str], tuple[int, Moves, float]]]
            pieces = parallel_map(search_position, todo, pool, progress=label)
            for (_, key), (depth, moves, seconds) in pieces:
                work.add(sink, key, depth, moves, seconds)
                if on_position is not None:
                    on_position(key)
            book = _book(game, settings, ply + 1, work, resumed, time.perf_counter() - started)
            book.save(out)
            if ply + 1 < settings.plies:
                frontier = _children(game, frontier, work.done)
    assert book is not None
    work.path.unlink()
    return book


# --- the command line -------------------------------------------------------------------------


def register(sub: Any) -> None:
    """Add ``ludoteca book build`` and ``ludoteca book show`` to the command line's
    subcommands ``sub`` (an ``argparse`` subparsers object)."""
    p = sub.add_parser("book", help="build an opening book, or show what a book says")
    books = p.add_subparsers(dest="book_command", required=True, parser_class=type(p))
    b = books.add_parser("build", help="build (or finish) a rule set's opening book")
    b.add_argument("game")
    b.add_argument("--rules", default=None, help="rule set (default: the game's first)")
    b.add_argument("--plies", type=int, default=6, help="plies from the start the book covers")
    limit = b.add_mutually_exclusive_group()
    limit.add_argument(
        "--depth", type=int, default=None, help=f"search each position D plies (default {DEPTH})"
    )
    limit.add_argument("--time", type=float, default=None, help="search each position S s")
    b.add_argument("--margin", type=int, default=MARGIN, help="keep moves this close to the best")
    b.add_argument("--jobs", type=int, default=1, help="positions searched at once")
    b.add_argument(
        "--ray",
        nargs="?",
        const="auto",
        default=None,
        metavar="ADDRESS",
        help="search on a Ray cluster (default address: auto, the cluster this machine joined)",
    )
    b.add_argument("--out", type=Path, default=None, help="the book file (default: the game's)")
    b.set_defaults(handler=_build_command)
    s = books.add_parser("show", help="what the book says about a position")
    s.add_argument("game")
    s.add_argument("--rules", default=None, help="rule set (default: the game's first)")
    s.add_argument("--moves", default="", help='the moves from the start, e.g. "d6 f4"')
    s.add_argument("--book", type=Path, default=None, help="a book file (default: the game's)")
    s.set_defaults(handler=_show_command)


def _build_command(args: argparse.Namespace) -> int:
    game = load(args.game, args.rules)
    out = args.out or game.book_path
    if out is None:
        raise LudotecaError(f"{game.title} declares no opening book; give a file with --out")
    if args.jobs < 1:
        raise LudotecaError("--jobs is at least 1")
    depth = args.depth if args.depth is not None or args.time is not None else DEPTH
    settings = Settings(str(game.rules), args.plies, depth, args.time, args.margin)
    from ..jobs import Pool

    started = time.perf_counter()
    book = build(settings, out, Pool(args.jobs, args.ray))
    built = book.built
    print(
        f"{game.title} ({game.rules}): {built['positions']} positions over {book.plies} plies, "
        f"{_searched(book)}, {built['search_seconds']} s of search "
        f"({built['resumed_positions']} positions from an earlier run), "
        f"{time.perf_counter() - started:.0f} s; {out} {out.stat().st_size} bytes"
    )
    return 0


def _searched(book: Book) -> str:
    return f"depth {book.depth}" if book.depth is not None else f"{book.seconds} s a position"


def _show_command(args: argparse.Namespace) -> int:
    game = load(args.game, args.rules)
    if args.book is not None:
        book: Book | None = load_book(args.book, game)
    else:
        book = book_for(game)
    if book is None:
        raise InvalidBookError(f"{game.title} ({game.rules}) has no opening book built")
    state = game.new()
    for word in args.moves.split():
        state.push(word)
    print(
        f"{game.title} ({game.rules}) book: {len(book.positions)} positions, {book.plies} "
        f"plies, {_searched(book)}, moves within {book.margin} of the best"
    )
    entry = book.lookup(state)
    if entry is None:
        print("this position is not in the book")
        return 0
    for m in entry.moves:
        where = "solved table" if m.depth == 0 else f"depth {m.depth}"
        mark = " (best)" if m.value == entry.value else ""
        print(f"{m.move} {m.value} {where}{mark}")
    print("book line: " + " ".join(str(m) for m in book.line(state)))
    return 0
