"""Movetext, the moves part of a text record: reading it into a :class:`GameTree` while every
line is replayed, and writing a tree back.

Movetext holds move numbers (``12.``, ``12...``; read and ignored), moves in the game's
notation, each perhaps with a mark (``d6!``, ``d6 !?``, or a numeric glyph ``$1`` to ``$6``,
read as :data:`~ludoteca.gametree.MARKS`) and the game's annotation tokens (Morelli's ``K``),
``{comments}``, variations in parentheses after the move they replace, nested to any depth
(``9. d2 (9. a1 f4 (9... b4)) 9... f4``), and at the end of the main line a result token.  A
variation starts from the position before the move it replaces, as in PGN.

Shapes drawn on a position are commands inside the comment after its move (or before the
main line's first move, for the start), in lichess's spirit: ``[%csl Ga1,Rd2]`` circles points
and ``[%cal Ga1-d1,Bb4-d2]`` draws arrows, each item a brush's letter (``G`` green, ``R`` red,
``B`` blue, ``Y`` yellow) then a point's name, or two joined by ``-`` for an arrow (the names
of the Morelli and Morris boards both end in digits and may start with capitals, so the
arrow's points are joined by a sign no name holds).  The reader checks every point is one of
the board's; any other text of the comment stays its text.
"""

from __future__ import annotations

import bisect
import itertools
import re
from collections.abc import Callable
from dataclasses import dataclass
from typing import TypeVar

from .core import InvalidRecordError, LudotecaError, State
from .gametree import BRUSHES, MARKS, NAGS, GameTree, Node, Shape
from .i18n import Text

__all__ = ["RESULTS", "read", "write"]

RESULTS = ("1-0", "0-1", "1/2-1/2", "*")
_TOKEN_RE = re.compile(r"\s*(?:(\{[^}]*\})|([()])|(\d+\.(?:\.\.)?)|([^\s()]+))")
_MARKED_RE = re.compile(r"(.+?)([!?]+)")
#: a drawing command in a comment, and the text around it
_DRAWING_RE = re.compile(r"\s*\[%(csl|cal)\s+([^\]]*)\]\s*")
_CIRCLE_RE = re.compile(r"([A-Z])([A-Za-z0-9]+)")
_ARROW_RE = re.compile(r"([A-Z])([A-Za-z0-9]+)-([A-Za-z0-9]+)")
#: the letter of each brush in a drawing command
LETTERS = {brush: brush[0].upper() for brush in BRUSHES}
_BRUSH_OF = {letter: brush for brush, letter in LETTERS.items()}
T = TypeVar("T")


@dataclass
class _Line:
    """A line being read: its position after its last move, where its next move goes, its
    last move and the list that holds it, where it is (``None``: the main line) and the line of
    text that opens it, and a comment read before its first move."""

    state: State
    into: list[Node]
    last: Node | None = None
    last_in: list[Node] | None = None
    path: Text | None = None
    opened: Text | None = None
    before: str = ""


def read(state: State, tree: GameTree, body: list[tuple[int, str]]) -> str | None:
    """Read the movetext ``body`` (its lines, numbered as in the text) into ``tree``, playing
    the main line on ``state`` and every variation on a copy; return the result token, if any.

    :class:`InvalidRecordError` names the first problem with the line of the text at fault
    and, inside a variation, the variations that lead to it ("line 7: in the variation
    replacing 9. d2, then in the one replacing 10... a1: ply 21 (f4): ...")."""
    text = " ".join(line for _, line in body)  # a comment may span lines
    starts = list(itertools.accumulate((len(line) + 1 for _, line in body[:-1]), initial=0))
    lines = [_Line(state, tree.children)]
    result: str | None = None
    for m in _TOKEN_RE.finditer(text):
        comment, paren, _number, word = m.groups()
        where = Text("line %(line)s", line=body[bisect.bisect_right(starts, m.end(0) - 1) - 1][0])
        line = lines[-1]
        if result is not None and (comment or paren or word):
            raise InvalidRecordError(
                Text("%(where)s: text after the result %(result)s", where=where, result=result)
            )
        if comment is not None:
            _comment_on(tree, line, comment[1:-1].strip(), _locate(where, line))
        elif paren == "(":
            lines.append(_variation(line, where))
        elif paren == ")":
            if len(lines) == 1:
                raise InvalidRecordError(
                    Text("%(where)s: a parenthesis closes no variation", where=where)
                )
            if lines.pop().last is None:
                raise InvalidRecordError(Text("%(where)s: an empty variation", where=where))
        elif word in RESULTS:
            if len(lines) > 1:
                raise InvalidRecordError(
                    Text("%(where)s: a result inside a variation", where=where)
                )
            result = word
        elif word is not None:
            _word(line, word, _locate(where, line))
    if len(lines) > 1:
        raise InvalidRecordError(
            Text("%(where)s: a variation is not closed", where=lines[-1].opened)
        )
    return result


def _locate(where: Text, line: _Line) -> Text:
    """``where`` with the path of the variation ``line`` is in."""
    return where if line.path is None else Text("%(where)s: %(path)s", where=where, path=line.path)


def _comment_on(tree: GameTree, line: _Line, comment: str, where: Text) -> None:
    """Keep a comment: after the line's last move, else before its first (the tree's, on the
    main line); comments in a row join with a space.  Its drawing commands, but in a comment
    opening a variation, are the shapes of the move before it (of the start, before the main
    line's first move)."""
    if line.last is None and line.path is not None:
        line.before = _join(line.before, comment)
        return
    shapes, comment = _drawings(comment, line.state.game.board.points, where)
    if line.last is not None:
        line.last.shapes.extend(shapes)
        if comment:
            line.last.comment = _join(line.last.comment, comment)
    else:
        tree.shapes.extend(shapes)
        if comment:
            tree.comment = _join(tree.comment, comment)


def _drawings(comment: str, points: tuple[str, ...], where: Text) -> tuple[list[Shape], str]:
    """The shapes of a comment's drawing commands (each point checked to be one of
    ``points``) and the comment's text without them."""
    shapes: list[Shape] = []
    parts = _DRAWING_RE.split(comment)
    for command, items in zip(parts[1::3], parts[2::3], strict=True):
        pattern = _ARROW_RE if command == "cal" else _CIRCLE_RE
        for item in filter(None, (i.strip() for i in items.split(","))):
            found = pattern.fullmatch(item)
            if found is None or found.group(1) not in _BRUSH_OF:
                raise InvalidRecordError(
                    Text("%(where)s: malformed drawing %(item)s", where=where, item=repr(item))
                )
            brush, *names = found.groups()
            for name in names:
                if name not in points:
                    raise InvalidRecordError(
                        Text(
                            "%(where)s: a shape on %(point)s, which is not a point of this board",
                            where=where,
                            point=name,
                        )
                    )
            shapes.append(Shape(_BRUSH_OF[brush], *names))
    return shapes, " ".join(part for part in parts[::3] if part)


def _join(kept: str, comment: str) -> str:
    return f"{kept} {comment}" if kept else comment


def _variation(line: _Line, where: Text) -> _Line:
    """The variation opened after the last move of ``line``: from the position before it, its
    moves going next to it."""
    if line.last is None or line.last_in is None:
        raise InvalidRecordError(Text("%(where)s: a variation before any move", where=where))
    state = line.state.copy()
    state.pop()
    replaced = f"{_number(state.ply)} {line.last.move}"
    path = (
        Text("in the variation replacing %(move)s", move=replaced)
        if line.path is None
        else Text("%(path)s, then in the one replacing %(move)s", path=line.path, move=replaced)
    )
    return _Line(state, line.last_in, path=path, opened=where)


def _word(line: _Line, word: str, where: Text) -> None:
    """Read a word of movetext that is no result: a mark, a game's annotation or a move
    (perhaps marked), played on the line's position."""
    state = line.state
    if word in MARKS or word.startswith("$"):
        _mark(line, NAGS.get(word, word), where)
    elif word in state.annotation_tokens and line.last is not None:
        _checked(
            where,
            state.ply,
            None,
            lambda: state.annotate(state.move_of(state.move_stack[-1]), word),
        )
    elif "{" in word or "}" in word:
        raise InvalidRecordError(
            Text("%(where)s: unbalanced comment braces near %(word)s", where=where, word=repr(word))
        )
    else:
        marked = _MARKED_RE.fullmatch(word)
        notation = marked.group(1) if marked else word
        move = _checked(where, state.ply + 1, notation, lambda: state.push(notation))
        node = Node(str(move), before=line.before)
        line.into.append(node)
        line.last, line.last_in, line.into, line.before = node, line.into, node.children, ""
        if marked:
            _mark(line, marked.group(2), where)


def _mark(line: _Line, mark: str, where: Text) -> None:
    if mark not in MARKS:
        raise InvalidRecordError(
            Text("%(where)s: unknown move mark %(mark)s", where=where, mark=mark)
        )
    if line.last is None:
        raise InvalidRecordError(
            Text("%(where)s: a mark %(mark)s before any move", where=where, mark=mark)
        )
    if line.last.mark:
        raise InvalidRecordError(
            Text("%(where)s: %(move)s has two marks", where=where, move=line.last.move)
        )
    line.last.mark = mark


def _checked(where: Text, ply: int, move: str | None, act: Callable[[], T]) -> T:
    """``act()``, its engine error made a record error naming ``ply`` (and ``move``)."""
    try:
        return act()
    except LudotecaError as error:
        if move is None:
            reason = Text("%(where)s: ply %(ply)s: %(error)s", where=where, ply=ply, error=error)
        else:
            reason = Text(
                "%(where)s: ply %(ply)s (%(move)s): %(error)s",
                where=where,
                ply=ply,
                move=move,
                error=error,
            )
        raise InvalidRecordError(reason) from None


def _number(ply: int) -> str:
    """The number of a move played at ``ply`` (plies before it): ``9.``, ``9...``."""
    return f"{ply // 2 + 1}{'.' if ply % 2 == 0 else '...'}"


def write(tree: GameTree, ply: int) -> list[str]:
    """The words of the movetext of ``tree`` from a position at ``ply``, without the result:
    a number before each first player's move, and before the first move of a line and the
    move after a variation; a variation's parentheses glued to its first and last words."""
    opening = _annotation(tree.shapes, tree.comment)
    words: list[str] = [_comment(opening)] if opening else []
    _write_line(tree.children, ply, words)
    glued: list[str] = []
    opening = ""
    for word in words:
        if word == "(":
            opening += word
        elif word == ")":
            glued[-1] += word
        else:
            glued.append(opening + word)
            opening = ""
    return glued


def _write_line(children: list[Node], ply: int, words: list[str]) -> None:
    """Write the line that starts with ``children[0]``, each move followed by its comment
    and the variations that replace it (``children[1:]``), in parentheses."""
    numbered_next = True
    while children:
        node, *variations = children
        if ply % 2 == 0 or numbered_next:
            words.append(_number(ply))
        words.append(node.move + node.mark)
        after = _annotation(node.shapes, node.comment)
        if after:
            words.append(_comment(after))
        for variation in variations:
            words.append("(")
            if variation.before:
                words.append(_comment(variation.before))
            _write_line([variation], ply, words)
            words.append(")")
        numbered_next = bool(variations)
        children = node.children
        ply += 1


def _annotation(shapes: list[Shape], comment: str) -> str:
    """The text of the comment after a move: its shapes' drawing commands (circles and arrows
    each in a command of their own, in the shapes' order), then its comment."""
    commands = []
    for arrow, run in itertools.groupby(shapes, key=lambda shape: bool(shape.dest)):
        items = ",".join(
            f"{LETTERS[s.brush]}{s.orig}-{s.dest}" if arrow else f"{LETTERS[s.brush]}{s.orig}"
            for s in run
        )
        commands.append(f"[%{'cal' if arrow else 'csl'} {items}]")
    return " ".join([*commands, comment] if comment else commands)


def _comment(text: str) -> str:
    return "{" + text.replace("{", "(").replace("}", ")") + "}"
