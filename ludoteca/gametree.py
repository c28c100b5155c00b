"""A game's move tree: the main line and its variations, every move with a mark and comments.

A :class:`GameTree` is the position a record starts from (not held here: the record's tags say
it) and the lines that leave it.  Each :class:`Node` is one move, in the game's notation, with
its children: the first child is the move's main continuation, the others are variations of it
(other moves from the same position), in their order.  The tree holds notation only; a record
(:mod:`ludoteca.record`) replays it through the engine.

The JSON form (:meth:`GameTree.as_json`, :meth:`GameTree.from_json`) writes each line as a list
of moves, a move's variations with it, as the text form does, so that it nests only as deep as
the variations do, however long the game::

    line = {"comment": "...", "moves": [move, ...]}       # "comment": before the first move
    move = {"move": "d6", "mark": "!", "comment": "...", "variations": [line, ...]}

Only ``moves`` and ``move`` are required (a variation has at least one move); the variations
of a move are other moves in its place.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any

from .core import InvalidRecordError
from .i18n import Text

__all__ = ["MARKS", "NAGS", "GameTree", "Node"]

#: the marks a move may carry; the numeric annotation glyphs ``$1`` to ``$6`` read as these
MARKS = ("!", "?", "!!", "??", "!?", "?!")
NAGS = {f"${number}": mark for number, mark in enumerate(MARKS, start=1)}


@dataclass(eq=False)
class Node:
    """One move of a tree: ``move`` in notation, its ``mark`` (one of :data:`MARKS`, or
    ``""``), the ``comment`` after it, the ``before`` comment of a variation's first move
    (written just inside its parenthesis; empty on a main continuation), and ``children``:
    the main continuation first, then its variations."""

    move: str
    mark: str = ""
    comment: str = ""
    before: str = ""
    children: list[Node] = field(default_factory=list)

    def __eq__(self, other: object) -> bool:
        """Equal moves, marks and comments all the way down (compared without recursion)."""
        if not isinstance(other, Node):
            return NotImplemented
        return _same([self], [other])

    __hash__ = None  # type: ignore[assignment]  # mutable


@dataclass(eq=False)
class GameTree:
    """A record's moves: the ``comment`` before the first move and the ``children`` of the
    start position (the main line's first move first, then its variations)."""

    comment: str = ""
    children: list[Node] = field(default_factory=list)

    def __eq__(self, other: object) -> bool:
        """Equal comments and equal children (see :meth:`Node.__eq__`)."""
        if not isinstance(other, GameTree):
            return NotImplemented
        return self.comment == other.comment and _same(self.children, other.children)

    __hash__ = None  # type: ignore[assignment]  # mutable

    @classmethod
    def of_line(cls, moves: list[str], comments: dict[int, str] | None = None) -> GameTree:
        """The tree of one line: ``moves``, and ``comments[i]`` after the i-th of them
        (``comments[0]`` before the first)."""
        comments = comments or {}
        tree = cls(comments.get(0, ""))
        children = tree.children
        for number, move in enumerate(moves, start=1):
            node = Node(move, comment=comments.get(number, ""))
            children.append(node)
            children = node.children
        return tree

    def main_line(self) -> list[Node]:
        """The nodes of the main line: the first child, its first child, and so on."""
        line: list[Node] = []
        children = self.children
        while children:
            line.append(children[0])
            children = children[0].children
        return line

    def comments(self) -> dict[int, str]:
        """The main line's comments, non-empty ones only: ``[0]`` before the first move,
        ``[i]`` after the i-th."""
        found = {0: self.comment} if self.comment else {}
        for number, node in enumerate(self.main_line(), start=1):
            if node.comment:
                found[number] = node.comment
        return found

    def is_line(self) -> bool:
        """Whether the tree is one line with no marks (what a list of moves and comments
        holds)."""
        return all(len(node.children) <= 1 and not node.mark for node in self.nodes())

    def nodes(self) -> Iterator[Node]:
        """Every node, depth first (a node before its children, main continuation first)."""
        pending = list(reversed(self.children))
        while pending:
            node = pending.pop()
            yield node
            pending.extend(reversed(node.children))

    def as_json(self) -> dict[str, Any]:
        """The JSON form (see the module's description)."""
        return _line_json(self.comment, self.children)

    @classmethod
    def from_json(cls, data: object) -> GameTree:
        """Read the JSON form back; :class:`InvalidRecordError` names what is malformed.

        Moves are checked to be single words of notation, marks to be :data:`MARKS`; whether
        the moves are legal is the record's business (:func:`ludoteca.record.from_json`)."""
        comment, children = _read_line(data, "tree")
        return cls(comment, children)


def _same(left: list[Node], right: list[Node]) -> bool:
    pending = [(left, right)]
    while pending:
        mine, theirs = pending.pop()
        if len(mine) != len(theirs):
            return False
        for a, b in zip(mine, theirs, strict=True):
            if (a.move, a.mark, a.comment, a.before) != (b.move, b.mark, b.comment, b.before):
                return False
            pending.append((a.children, b.children))
    return True


def _line_json(comment: str, children: list[Node]) -> dict[str, Any]:
    """The JSON of the line that starts with ``children[0]``, each move with the variations
    ``children[1:]`` that replace it."""
    moves: list[dict[str, Any]] = []
    while children:
        node, *variations = children
        entry: dict[str, Any] = {"move": node.move}
        if node.mark:
            entry["mark"] = node.mark
        if node.comment:
            entry["comment"] = node.comment
        if variations:
            entry["variations"] = [_line_json(v.before, [v]) for v in variations]
        moves.append(entry)
        children = node.children
    return {"comment": comment, "moves": moves} if comment else {"moves": moves}


def _read_line(data: object, where: str) -> tuple[str, list[Node]]:
    """The opening comment and the first node (with its continuation; in a list, empty for
    a line of no move) of a line's JSON."""
    line = _object(data, where)
    comment = _text(line.get("comment", ""), f"{where}.comment")
    entries = line.get("moves")
    if not isinstance(entries, list):
        raise _malformed(Text("%(where)s has no list of moves", where=f"{where}.moves"))
    first: list[Node] = []
    children = first
    for index, entry in enumerate(entries):
        here = f"{where}.moves[{index}]"
        move = _object(entry, here)
        notation = _text(move.get("move"), f"{here}.move")
        if not notation or any(c.isspace() or c in "(){}" for c in notation):
            raise _malformed(Text("%(where)s is not a move: %(text)s", where=here, text=notation))
        mark = _text(move.get("mark", ""), f"{here}.mark")
        if mark and mark not in MARKS:
            raise _malformed(Text("%(where)s: unknown move mark %(mark)s", where=here, mark=mark))
        node = Node(notation, mark, _text(move.get("comment", ""), f"{here}.comment"))
        children.append(node)
        variations = move.get("variations", [])
        if not isinstance(variations, list):
            raise _malformed(Text("%(where)s is not a list", where=f"{here}.variations"))
        for number, variation in enumerate(variations):
            before, nodes = _read_line(variation, f"{here}.variations[{number}]")
            if not nodes:
                raise _malformed(Text("%(where)s: an empty variation", where=here))
            nodes[0].before = before
            children.append(nodes[0])
        children = node.children
    return comment, first


def _object(data: object, where: str) -> dict[str, Any]:
    if not isinstance(data, dict):
        raise _malformed(Text("%(where)s is not an object", where=where))
    return data


def _text(data: object, where: str) -> str:
    if not isinstance(data, str):
        raise _malformed(Text("%(where)s is not a string", where=where))
    return data


def _malformed(reason: Text) -> InvalidRecordError:
    return InvalidRecordError(Text("malformed JSON record: %(error)s", error=reason))
