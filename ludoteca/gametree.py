"""A game's move tree: the main line and its variations, every move with a mark, comments and
shapes drawn on the board.

A :class:`GameTree` is the position a record starts from (not held here: the record's tags say
it) and the lines that leave it.  Each :class:`Node` is one move, in the game's notation, with
its children: the first child is the move's main continuation, the others are variations of it
(other moves from the same position), in their order.  The tree holds notation only; a record
(:mod:`ludoteca.record`) replays it through the engine.

The JSON form (:meth:`GameTree.as_json`, :meth:`GameTree.from_json`) writes each line as a list
of moves, a move's variations with it, as the text form does, so that it nests only as deep as
the variations do, however long the game::

    line = {"comment": "...", "moves": [move, ...]}       # "comment": before the first move
    move = {"move": "d6", "mark": "!", "comment": "...", "shapes": [shape, ...],
            "variations": [line, ...]}
    shape = {"brush": "green", "orig": "a1", "dest": "d1"}   # no "dest": a circled point

Only ``moves`` and ``move`` are required (a variation has at least one move); the variations
of a move are other moves in its place.  The tree's own line (not a variation's) may hold
``shapes`` too: those drawn on the start position.  A :class:`Shape` is an arrow from a point
to a point, or a circled point, in one of the :data:`BRUSHES` (lichess's four); its points are
names of the game's board, which a record checks (:mod:`ludoteca.movetext`), not the tree.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any

from .core import InvalidRecordError
from .i18n import Text

__all__ = ["BRUSHES", "MARKS", "NAGS", "GameTree", "Node", "Shape"]

#: the marks a move may carry; the numeric annotation glyphs ``$1`` to ``$6`` read as these
MARKS = ("!", "?", "!!", "??", "!?", "?!")
NAGS = {f"${number}": mark for number, mark in enumerate(MARKS, start=1)}
#: the colours a shape is drawn in (lichess's brushes)
BRUSHES = ("green", "red", "blue", "yellow")
#: what a point's name is made of (every game's boards name their points so)
POINT_NAME = re.compile(r"[A-Za-z0-9]{1,8}")


@dataclass(frozen=True)
class Shape:
    """A shape drawn on a position: an arrow from the point ``orig`` to the point ``dest``, or,
    when ``dest`` is empty, the point ``orig`` circled; in the colour ``brush`` (one of
    :data:`BRUSHES`).  An arrow from a point to itself is that point circled."""

    brush: str
    orig: str
    dest: str = ""

    def __post_init__(self) -> None:
        if self.dest == self.orig:
            object.__setattr__(self, "dest", "")

    def as_json(self) -> dict[str, str]:
        """``{"brush", "orig", "dest"?}`` (lichess's form)."""
        data = {"brush": self.brush, "orig": self.orig}
        if self.dest:
            data["dest"] = self.dest
        return data

    @classmethod
    def from_json(cls, data: object, where: str = "shape") -> Shape:
        """Read ``{"brush", "orig", "dest"?}`` back; :class:`InvalidRecordError` names what is
        malformed (a brush not of :data:`BRUSHES`, a point that is no point's name)."""
        shape = _object(data, where)
        brush = _text(shape.get("brush", ""), f"{where}.brush")
        if brush not in BRUSHES:
            raise _malformed(Text("%(where)s: unknown brush %(brush)s", where=where, brush=brush))
        points = [_text(shape.get(key) or "", f"{where}.{key}") for key in ("orig", "dest")]
        for point in points[: 2 if points[1] else 1]:
            if not POINT_NAME.fullmatch(point):
                raise _malformed(
                    Text("%(where)s: %(point)s is not a point's name", where=where, point=point)
                )
        return cls(brush, points[0], points[1])


@dataclass(eq=False)
class Node:
    """One move of a tree: ``move`` in notation, its ``mark`` (one of :data:`MARKS`, or
    ``""``), the ``comment`` after it, the ``before`` comment of a variation's first move
    (written just inside its parenthesis; empty on a main continuation), ``children``: the
    main continuation first, then its variations, and the ``shapes`` drawn on the position
    after it."""

    move: str
    mark: str = ""
    comment: str = ""
    before: str = ""
    children: list[Node] = field(default_factory=list)
    shapes: list[Shape] = field(default_factory=list)

    def __eq__(self, other: object) -> bool:
        """Equal moves, marks and comments all the way down (compared without recursion)."""
        if not isinstance(other, Node):
            return NotImplemented
        return _same([self], [other])

    __hash__ = None  # type: ignore[assignment]  # mutable


@dataclass(eq=False)
class GameTree:
    """A record's moves: the ``comment`` before the first move, the ``children`` of the
    start position (the main line's first move first, then its variations) and the
    ``shapes`` drawn on the start position."""

    comment: str = ""
    children: list[Node] = field(default_factory=list)
    shapes: list[Shape] = field(default_factory=list)

    def __eq__(self, other: object) -> bool:
        """Equal comments, shapes and children (see :meth:`Node.__eq__`)."""
        if not isinstance(other, GameTree):
            return NotImplemented
        return (self.comment, self.shapes) == (other.comment, other.shapes) and _same(
            self.children, other.children
        )

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
        """Whether the tree is one line with no marks and no shapes (what a list of moves and
        comments holds)."""
        return not self.shapes and all(
            len(node.children) <= 1 and not node.mark and not node.shapes for node in self.nodes()
        )

    def find(self, path: list[str]) -> Node | None:
        """The node reached by the moves ``path`` from the start (each a child's notation),
        or ``None`` where no such line is in the tree (``[]`` reaches no node: the start)."""
        node: Node | None = None
        children = self.children
        for move in path:
            node = next((child for child in children if child.move == move), None)
            if node is None:
                return None
            children = node.children
        return node

    def nodes(self) -> Iterator[Node]:
        """Every node, depth first (a node before its children, main continuation first)."""
        pending = list(reversed(self.children))
        while pending:
            node = pending.pop()
            yield node
            pending.extend(reversed(node.children))

    def as_json(self) -> dict[str, Any]:
        """The JSON form (see the module's description)."""
        line = _line_json(self.comment, self.children)
        if self.shapes:
            line["shapes"] = [shape.as_json() for shape in self.shapes]
        return line

    @classmethod
    def from_json(cls, data: object) -> GameTree:
        """Read the JSON form back; :class:`InvalidRecordError` names what is malformed.

        Moves are checked to be single words of notation, marks to be :data:`MARKS`, shapes
        to have a brush of :data:`BRUSHES` and points' names; whether the moves are legal and
        the points the board's is the record's business (:func:`ludoteca.record.from_json`)."""
        comment, children = _read_line(data, "tree")
        return cls(comment, children, _read_shapes(_object(data, "tree"), "tree"))


def _same(left: list[Node], right: list[Node]) -> bool:
    pending = [(left, right)]
    while pending:
        mine, theirs = pending.pop()
        if len(mine) != len(theirs):
            return False
        for a, b in zip(mine, theirs, strict=True):
            if (a.move, a.mark, a.comment, a.before, a.shapes) != (
                b.move,
                b.mark,
                b.comment,
                b.before,
                b.shapes,
            ):
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
        if node.shapes:
            entry["shapes"] = [shape.as_json() for shape in node.shapes]
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
        node.shapes = _read_shapes(move, here)
        children.append(node)
        variations = move.get("variations", [])
        if not isinstance(variations, list):
            raise _malformed(Text("%(where)s is not a list", where=f"{here}.variations"))
        for number, variation in enumerate(variations):
            inside = f"{here}.variations[{number}]"
            before, nodes = _read_line(variation, inside)
            if _object(variation, inside).get("shapes"):
                raise _malformed(
                    Text("%(where)s: shapes belong to a variation's moves", where=inside)
                )
            if not nodes:
                raise _malformed(Text("%(where)s: an empty variation", where=here))
            nodes[0].before = before
            children.append(nodes[0])
        children = node.children
    return comment, first


def _read_shapes(entry: dict[str, Any], where: str) -> list[Shape]:
    """The shapes of a move's (or the tree's) JSON, if any."""
    shapes = entry.get("shapes", [])
    if not isinstance(shapes, list):
        raise _malformed(Text("%(where)s is not a list", where=f"{where}.shapes"))
    return [Shape.from_json(shape, f"{where}.shapes[{i}]") for i, shape in enumerate(shapes)]


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
