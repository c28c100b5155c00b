"""Game records: one readable text format for every game, and a JSON form for the wire.

The text format is PGN-like::

    [Game "morris"]
    [Rules "morris"]
    [White "Ann"]
    [Black "Bob"]
    [Date "2026.11.29"]
    [Result "1-0"]
    [Termination "no legal moves"]

    1. d6 f4 2. d2 {a comment} b4 3. ... 1-0

Tags come first, one per line; ``Game`` is required, ``Rules`` defaults to the game's default
rule set, ``Setup`` (games with a setup) or ``Position`` (a position code) give a start other
than the default.  Movetext (:mod:`ludoteca.movetext`) holds move numbers (``12.`` or
``12...``), moves in the game's own notation with their marks (``d6!?``), ``{comments}``,
variations in parentheses, nested to any depth (``2. d2 (2. a1 b4) 2... b4``), and a final
result token.  Reading replays every line through the engine and reports the first bad move
with its ply number and the variations that lead to it.
"""

from __future__ import annotations

import datetime
import json
import re
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from typing import Any, TextIO

from .core import Color, InvalidRecordError, LudotecaError, State, Termination
from .games import load
from .gametree import GameTree
from .i18n import Text
from .movetext import RESULTS, read, write

__all__ = [
    "GameRecord",
    "build",
    "dumps",
    "escape_tag",
    "from_json",
    "from_state",
    "loads",
    "read_games",
    "to_json",
    "wrap_words",
]

_TAG_RE = re.compile(r'\[\s*([A-Za-z][A-Za-z0-9_]*)\s+"((?:[^"\\]|\\.)*)"\s*\]\s*')
_RESULT_WINNERS = {"1-0": Color.WHITE, "0-1": Color.BLACK, "1/2-1/2": None}


@dataclass
class GameRecord:
    """A game: its tags, its move ``tree`` (the main line, its variations, marks and
    comments) and the main line's replayed final ``state``."""

    state: State
    tags: dict[str, str] = field(default_factory=dict)
    tree: GameTree = field(default_factory=GameTree)

    @property
    def comments(self) -> dict[int, str]:
        """The main line's comments: ``[i]`` after the i-th move (``[0]``: before the first)."""
        return self.tree.comments()

    @property
    def result(self) -> str:
        """``"1-0"``, ``"0-1"``, ``"1/2-1/2"`` or ``"*"`` (unfinished)."""
        return self.tags.get("Result", "*")

    @property
    def termination(self) -> Termination | None:
        """Why the game ended, when it did."""
        label = self.tags.get("Termination")
        return Termination.from_label(label) if label else None

    @property
    def moves(self) -> list[str]:
        """The moves in notation."""
        return [str(m) for m in self.state.moves]

    def start(self) -> State:
        """A fresh state at this record's start position."""
        return _start_state(self.state.game.name, self.tags)


def from_state(
    state: State,
    *,
    white: str = "?",
    black: str = "?",
    date: str | None = None,
    result: str | None = None,
    termination: Termination | None = None,
    comments: dict[int, str] | None = None,
    extra: dict[str, str] | None = None,
) -> GameRecord:
    """The record of the game that led to ``state``.

    ``result`` and ``termination`` default to the state's outcome (``"*"`` while it goes on);
    give them for games that ended off the board (resignation, agreement, time).
    """
    tags = {
        "Game": state.game.name,
        "Rules": str(state.rules),
        "White": white,
        "Black": black,
        "Date": date or datetime.date.today().strftime("%Y.%m.%d"),
    }
    outcome = state.outcome()
    if outcome is not None:
        tags["Result"] = outcome.result
        tags["Termination"] = outcome.termination.label
    else:
        tags["Result"] = result or "*"
        if termination is not None:
            tags["Termination"] = termination.label
    setup = getattr(state, "setup", None)
    if setup:
        tags["Setup"] = setup
    elif state.start != state.game.new().position_code():
        tags["Position"] = state.start
    tags.update(extra or {})
    return GameRecord(state.copy(), tags, GameTree.of_line([str(m) for m in state.moves], comments))


def dumps(record: GameRecord | State) -> str:
    """The text form of a record (or of the game that led to a state)."""
    if isinstance(record, State):
        record = from_state(record)
    lines = [f'[{key} "{escape_tag(value)}"]' for key, value in record.tags.items()]
    words = [*write(record.tree, record.start().ply), record.result]
    return "\n".join(lines) + "\n\n" + wrap_words(words) + "\n"


def loads(text: str) -> GameRecord:
    """Read exactly one game record; :class:`InvalidRecordError` names the first problem."""
    records = list(read_games(text.splitlines(keepends=True)))
    if len(records) != 1:
        raise InvalidRecordError(
            Text("expected one game record, found %(count)s", count=len(records))
        )
    return records[0]


def read_games(lines: Iterable[str] | TextIO) -> Iterator[GameRecord]:
    """Read game records one after another from lines of text (a file works), streaming."""
    tags: list[tuple[int, str]] = []
    body: list[tuple[int, str]] = []
    for line_no, line in enumerate(lines, start=1):
        stripped = line.strip()
        if stripped.startswith("[") and body:
            yield _parse(tags, body)
            tags, body = [], []
        if stripped.startswith("[") and not body:
            tags.append((line_no, stripped))
        elif stripped:
            body.append((line_no, stripped))
    if tags or body:
        yield _parse(tags, body)


def _parse(tag_lines: list[tuple[int, str]], body: list[tuple[int, str]]) -> GameRecord:
    """One record from its numbered tag and movetext lines; an error names the line of the
    text at fault (a bad move: its own line)."""
    first = (tag_lines or body)[0][0]
    tags: dict[str, str] = {}
    for line_no, text in tag_lines:
        pos = 0
        while pos < len(text):
            m = _TAG_RE.match(text, pos)
            if not m:
                raise InvalidRecordError(
                    Text("line %(line)s: malformed tag %(tag)s", line=line_no, tag=repr(text[pos:]))
                )
            tags[m.group(1)] = _unescape(m.group(2))
            pos = m.end()
    return build(tags, body, first)


def build(
    tags: dict[str, str],
    body: list[tuple[int, str]],
    first: int = 1,
    *,
    open_result: bool = False,
) -> GameRecord:
    """A record from its ``tags`` and its numbered movetext lines ``body`` (numbered as in the
    text they came from, for the errors), replayed like :func:`loads`; ``first`` is the line
    where the record starts.  The readers of foreign formats (:mod:`ludoteca.formats`) build
    their records with it.  ``open_result``: a record that says ``*`` (unfinished) while its
    last position is over takes the position's result, as other programs' records may."""
    tags = dict(tags)
    where = Text("record at line %(line)s", line=first)
    if "Game" not in tags:
        raise InvalidRecordError(Text('%(where)s: the [Game "..."] tag is missing', where=where))
    try:
        state = _start_state(tags["Game"], tags)
    except LudotecaError as error:
        raise InvalidRecordError(Text("%(where)s: %(error)s", where=where, error=error)) from None
    tags["Game"] = state.game.name
    tags["Rules"] = str(state.rules)
    tree = GameTree()
    result_token = read(state, tree, body)
    ended = state.outcome()
    if open_result and ended and tags.get("Result", "*") == "*" and result_token in (None, "*"):
        tags["Result"], result_token = ended.result, None
    _check_result(tags, result_token, state, where)
    return GameRecord(state, tags, tree)


def _start_state(game_name: str, tags: dict[str, str]) -> State:
    game = load(game_name, tags.get("Rules"))
    if "Setup" in tags and "Position" in tags:
        raise InvalidRecordError(Text("a record gives either a Setup or a Position, not both"))
    if "Position" in tags:
        return game.from_position_code(tags["Position"])
    return game.new(setup=tags.get("Setup"))


def _check_result(tags: dict[str, str], token: str | None, state: State, where: Text) -> None:
    tag = tags.get("Result")
    if tag is not None and tag not in RESULTS:
        raise InvalidRecordError(
            Text(
                "%(where)s: Result must be one of %(results)s, not %(tag)s",
                where=where,
                results=", ".join(RESULTS),
                tag=repr(tag),
            )
        )
    if tag and token and tag != token:
        raise InvalidRecordError(
            Text(
                "%(where)s: Result tag %(tag)s but movetext ends %(token)s",
                where=where,
                tag=tag,
                token=token,
            )
        )
    result = tag or token or "*"
    outcome = state.outcome()
    if outcome is not None:
        if result != outcome.result:
            raise InvalidRecordError(
                Text(
                    "%(where)s: the record says %(result)s but after ply %(ply)s %(outcome)s "
                    "(%(score)s)",
                    where=where,
                    result=result,
                    ply=state.ply,
                    outcome=outcome.explain(),
                    score=outcome.result,
                )
            )
        label = tags.get("Termination")
        if label and Termination.from_label(label) is not outcome.termination:
            raise InvalidRecordError(
                Text(
                    "%(where)s: Termination %(label)s but the game ended by %(ended)s",
                    where=where,
                    label=repr(label),
                    ended=outcome.termination.label,
                )
            )
        tags["Termination"] = outcome.termination.label
    elif "Termination" in tags:
        termination = Termination.from_label(tags["Termination"])
        if termination in (Termination.DRAW_AGREED,) and _RESULT_WINNERS.get(result, 0) is not None:
            raise InvalidRecordError(
                Text("%(where)s: a game drawn by agreement must end 1/2-1/2", where=where)
            )
        tags["Termination"] = termination.label
    tags["Result"] = result


def to_json(record: GameRecord) -> dict[str, Any]:
    """The record as JSON-ready data: tags, the main line's moves in notation and comments, the
    final position code and, when the record has variations or marks, its ``tree``
    (:meth:`GameTree.as_json <ludoteca.gametree.GameTree.as_json>`)."""
    data: dict[str, Any] = {
        "tags": dict(record.tags),
        "moves": record.moves,
        "comments": {str(k): v for k, v in record.comments.items()},
        "position": record.state.position_code(),
    }
    if not record.tree.is_line():
        data["tree"] = record.tree.as_json()
    return data


def from_json(data: dict[str, Any] | str) -> GameRecord:
    """Read the JSON form back (a dict or JSON text), replaying every line like :func:`loads`:
    the ``tree`` when there is one (``moves`` and ``comments`` only repeat its main line),
    else ``moves`` and ``comments``."""
    try:
        if isinstance(data, str):
            data = json.loads(data)
        if not isinstance(data, dict):
            raise TypeError("not an object")
        tags = {str(k): str(v) for k, v in data["tags"].items()}
        if "tree" in data:
            tree = GameTree.from_json(data["tree"])
        else:
            moves = [str(m) for m in data.get("moves", [])]
            comments = {int(k): str(v) for k, v in data.get("comments", {}).items()}
            tree = GameTree.of_line(moves, comments)
    except InvalidRecordError:
        raise
    except (ValueError, TypeError, KeyError, AttributeError) as error:
        raise InvalidRecordError(Text("malformed JSON record: %(error)s", error=error)) from None
    tag_lines = [(1, f'[{k} "{escape_tag(v)}"]') for k, v in tags.items()]
    return _parse(tag_lines, [(1, " ".join(write(tree, 0)))])


def escape_tag(value: str) -> str:
    """A tag's value as written between its quotes (backslashes and quotes escaped)."""
    return value.replace("\\", "\\\\").replace('"', '\\"')


def _unescape(value: str) -> str:
    return re.sub(r"\\(.)", r"\1", value)


def wrap_words(words: list[str], width: int = 79) -> str:
    """``words`` in lines of at most ``width`` characters (a longer word alone on its line)."""
    lines: list[str] = []
    current = ""
    for word in words:
        if current and len(current) + 1 + len(word) > width:
            lines.append(current)
            current = word
        else:
            current = f"{current} {word}" if current else word
    lines.append(current)
    return "\n".join(lines)
