"""Movetext, the moves part of a text record: reading it into a :class:`GameTree` while every
line is replayed, and writing a tree back.

Movetext holds move numbers (``12.``, ``12...``; read and ignored), moves in the game's
notation, each perhaps with a mark (``d6!``, ``d6 !?``, or a numeric glyph ``$1`` to ``$6``,
read as :data:`~ludoteca.gametree.MARKS`) and the game's annotation tokens (Morelli's ``K``),
``{comments}``, variations in parentheses after the move they replace, nested to any depth
(``9. d2 (9. a1 f4 (9... b4)) 9... f4``), and at the end of the main line a result token.  A
variation starts from the position before the move it replaces, as in PGN.
"""

from __future__ import annotations

import bisect
import itertools
import re
from collections.abc import Callable
from dataclasses import dataclass
from typing import TypeVar

from .core import InvalidRecordError, LudotecaError, State
from .gametree import MARKS, NAGS, GameTree, Node
from .i18n import Text

__all__ = ["RESULTS", "read", "write"]

RESULTS = ("1-0", "0-1", "1/2-1/2", "*")
_TOKEN_RE = re.compile(r"\s*(?:(\{[^}]*\})|([()])|(\d+\.(?:\.\.)?)|([^\s()]+))")
_MARKED_RE = re.compile(r"(.+?)([!?]+)")
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
            _comment_on(tree, line, comment[1:-1].strip())
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


def _comment_on(tree: GameTree, line: _Line, comment: str) -> None:
    """Keep a comment: after the line's last move, else before its first (the tree's, on the
    main line); comments in a row join with a space."""
    if line.last is not None:
        line.last.comment = _join(line.last.comment, comment)
    elif line.path is None:
        tree.comment = _join(tree.comment, comment)
    else:
        line.before = _join(line.before, comment)


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
    words: list[str] = [_comment(tree.comment)] if tree.comment else []
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
        if node.comment:
            words.append(_comment(node.comment))
        for variation in variations:
            words.append("(")
            if variation.before:
                words.append(_comment(variation.before))
            _write_line([variation], ply, words)
            words.append(")")
        numbered_next = bool(variations)
        children = node.children
        ply += 1


def _comment(text: str) -> str:
    return "{" + text.replace("{", "(").replace("}", ")") + "}"
