"""Opening books: positions of a rule set's opening, each with its best moves, their values and
the depth they were searched to, computed offline (:mod:`.book_build`) and read by the players,
hints and the analysis board.

A book is game-agnostic.  Its positions are keyed by position code; where the game declares
board symmetries (:attr:`~ludoteca.core.Game.symmetries`), by the smallest code among the
position's images (the code a position set up by hand gets, :meth:`Game.position_code_of`), so
one entry answers every mirror image of a position, and its moves are written as they are played
in the image the key describes.  Values are search scores for the side to move (see
:mod:`.search`: ``WIN - plies`` for a forced win); depth 0 means the value was read from a solved
table.

The file (``Game.book_path``; :data:`SUFFIX`) is JSON compressed with xz::

    {"format": "ludoteca-book", "version": 1, "game": "GAME", "rules": "RULES",
     "plies": 6, "depth": 8, "seconds": null, "margin": 20, "built": {...},
     "positions": {"KEY": [DEPTH, [["MOVE", 8], ["MOVE", 8], ...]], ...}}

with each position's moves best first: every move within ``margin`` of the best.
"""

from __future__ import annotations

import json
import lzma
import random
from collections.abc import Mapping
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path
from typing import Any

from ..core import Game, LudotecaError, Move, State
from ..files import write_atomically
from ..i18n import Text
from .base import Agent, Limit

__all__ = [
    "FORMAT",
    "SUFFIX",
    "Book",
    "BookAgent",
    "BookEntry",
    "BookMove",
    "InvalidBookError",
    "book_for",
    "book_key",
    "load_book",
]

FORMAT = "ludoteca-book"
VERSION = 1
SUFFIX = ".json.xz"


class InvalidBookError(LudotecaError):
    """A book file that cannot be read, or that belongs to another rule set."""


@dataclass(frozen=True)
class BookMove:
    """One move the book knows in a position (of the state it was looked up for)."""

    move: Move
    value: int  # for the side to move, as the search scores it
    depth: int  # plies searched; 0: read from a solved table


@dataclass(frozen=True)
class BookEntry:
    """What the book says about a position: its moves best first (all within the book's
    margin of the best)."""

    key: str
    depth: int
    moves: tuple[BookMove, ...]

    @property
    def value(self) -> int:
        """The position's value for the side to move (its best move's)."""
        return self.moves[0].value

    def best(self) -> list[BookMove]:
        """The moves of the best value (more than one where they are equal)."""
        return [m for m in self.moves if m.value == self.value]


@dataclass
class Book:
    """A rule set's book: build settings and, by key, each position's depth and moves (their
    notation in the keyed position, and values), best first."""

    game: Game
    plies: int
    depth: int | None
    seconds: float | None
    margin: int
    positions: dict[str, tuple[int, list[tuple[str, int]]]]
    built: dict[str, Any] = field(default_factory=dict)

    def lookup(self, state: State) -> BookEntry | None:
        """The book's entry for ``state`` (of the book's rule set), its moves those of
        ``state``; ``None`` if the book does not have the position."""
        if state.rules != self.game.rules or state.outcome() is not None:
            return None
        key, perm = _canonical(state)
        found = self.positions.get(key)
        if found is None:
            return None
        depth, moves = found
        keyed = self.game.from_position_code(key)
        back = _inverse(perm) if perm is not None else None
        by_gesture = {state.gesture(c): c for c in state.legal_codes()} if back else {}
        out = []
        for text, value in moves:
            try:
                code = keyed.parse_move(text).code
            except LudotecaError as error:
                raise InvalidBookError(
                    Text("the opening book's move in %(key)s: %(why)s", key=key, why=error)
                ) from None
            if back is not None:
                image = tuple((role, back[p]) for role, p in keyed.gesture(code))
                code = by_gesture[image]
            out.append(BookMove(state.move_of(code), value, depth))
        return BookEntry(key, depth, tuple(out))

    def line(self, state: State, longest: int = 12) -> list[Move]:
        """The book's main line from ``state`` (left unchanged): its first best move at each
        position while the book has the position."""
        child = state.copy()
        out: list[Move] = []
        while len(out) < longest:
            entry = self.lookup(child)
            if entry is None:
                break
            out.append(entry.moves[0].move)
            child.push_code(entry.moves[0].move.code)
        return out

    def to_json(self) -> dict[str, Any]:
        """The file's content (see the module docstring)."""
        return {
            "format": FORMAT,
            "version": VERSION,
            "game": self.game.name,
            "rules": str(self.game.rules),
            "plies": self.plies,
            "depth": self.depth,
            "seconds": self.seconds,
            "margin": self.margin,
            "built": self.built,
            "positions": {k: [d, [list(m) for m in ms]] for k, (d, ms) in self.positions.items()},
        }

    def save(self, path: Path) -> int:
        """Write the book to ``path`` (compressed; through a temporary file, so a reader
        never sees half a book); return its size in bytes."""
        data = json.dumps(self.to_json(), separators=(",", ":"), sort_keys=True).encode()
        packed = lzma.compress(data, preset=9 | lzma.PRESET_EXTREME)
        write_atomically(path, lambda out: out.write(packed))
        return path.stat().st_size


def book_key(state: State) -> str:
    """The key a position has in a book: its position code, or, in a game with symmetries, the
    smallest code among its images."""
    return _canonical(state)[0]


def _canonical(state: State) -> tuple[str, tuple[int, ...] | None]:
    """The book key and the symmetry that maps ``state`` to it (``None``: no symmetries)."""
    game = state.game
    if not game.symmetries:
        return state.position_code(), None
    pieces, hand = state.pieces(), state.in_hand()
    best: tuple[str, tuple[int, ...]] | None = None
    for perm in game.symmetries:
        image = [""] * len(pieces)
        for p, token in enumerate(pieces):
            image[perm[p]] = token
        code = game.position_code_of(image, state.turn, hand)
        if best is None or code < best[0]:
            best = (code, perm)
    assert best is not None
    return best


def _inverse(perm: tuple[int, ...]) -> tuple[int, ...]:
    back = [0] * len(perm)
    for p, q in enumerate(perm):
        back[q] = p
    return tuple(back)


def load_book(path: Path, game: Game) -> Book:
    """Read a book file for ``game``'s rule set; :class:`InvalidBookError` with the reason if
    it is not a readable book of that rule set (a move it lists that is illegal in its
    position is found when that position is looked up)."""
    try:
        data = json.loads(lzma.decompress(path.read_bytes()))
    except (lzma.LZMAError, UnicodeDecodeError, json.JSONDecodeError) as error:
        raise InvalidBookError(
            Text("%(path)s: not an xz-compressed JSON opening book (%(why)s)", path=path, why=error)
        ) from None
    return _parse(data, game, path)


def _parse(data: object, game: Game, path: Path) -> Book:
    def bad(reason: str) -> InvalidBookError:
        return InvalidBookError(
            Text("%(path)s: not a valid opening book: %(why)s", path=path, why=reason)
        )

    if not isinstance(data, Mapping) or data.get("format") != FORMAT:
        raise bad(f"the format field is not {FORMAT!r}")
    if data.get("version") != VERSION:
        raise bad(f"version {data.get('version')!r}, this Ludoteca reads version {VERSION}")
    if data.get("game") != game.name or data.get("rules") != str(game.rules):
        raise InvalidBookError(
            Text(
                "%(path)s: the opening book of %(theirs)s, not of %(ours)s",
                path=path,
                theirs=f"{data.get('game')} {data.get('rules')}",
                ours=f"{game.name} {game.rules}",
            )
        )
    positions: dict[str, tuple[int, list[tuple[str, int]]]] = {}
    raw = data.get("positions")
    if not isinstance(raw, Mapping):
        raise bad("no positions")
    for key, entry in raw.items():
        try:
            depth, moves = entry
            listed = [(str(text), value) for text, value in moves]
        except (TypeError, ValueError):
            raise bad(f"position {key!r}: not [depth, [[move, value], ...]]") from None
        if not isinstance(depth, int) or not listed or any(type(v) is not int for _, v in listed):
            raise bad(f"position {key!r}: a whole-number depth and values, at least one move")
        positions[str(key)] = (depth, listed)
    try:
        return Book(
            game,
            int(data["plies"]),
            None if data.get("depth") is None else int(data["depth"]),
            None if data.get("seconds") is None else float(data["seconds"]),
            int(data["margin"]),
            positions,
            dict(data.get("built") or {}),
        )
    except (KeyError, TypeError, ValueError) as error:
        raise bad(f"the settings plies, depth, seconds and margin ({error})") from None


@cache
def book_for(game: Game) -> Book | None:
    """The book the game declares for its rule set (:attr:`Game.book_path`), read once per
    process; ``None`` where it declares none or the file was not built."""
    path = game.book_path
    if path is None or not path.exists():
        return None
    return load_book(path, game)


class BookAgent:
    """Plays from the rule set's opening book while it has the position (a move of the best
    value, chosen by the seed among equal ones, so that games differ), and asks ``inner``
    elsewhere."""

    def __init__(self, inner: Agent, seed: int | None = None) -> None:
        self.inner = inner
        self.name = inner.name
        self._rng = random.Random(seed)

    def choose(self, state: State, limit: Limit | None = None) -> Move:
        book = book_for(state.game)
        entry = book.lookup(state) if book is not None else None
        if entry is None:
            return self.inner.choose(state, limit)
        return self._rng.choice(entry.best()).move
