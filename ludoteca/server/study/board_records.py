"""The analysis board's trees as game records and back: the board's move tree (a
:class:`~ludoteca.gametree.GameTree` from a start position) written as a text record with its
variations, and a pasted record read into a tree (see ``docs/web.md``); and the tree's JSON
form as the routes read it (:class:`TreeLine`), which the studies share."""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, Field

from ...core import LudotecaError
from ...gametree import GameTree
from ...record import GameRecord, dumps, from_state, loads
from ..errors import ActionError
from .analysis import MAX_MOVES, state_of

__all__ = [
    "MAX_COMMENT",
    "MAX_SHAPES",
    "TreeLine",
    "TreeMove",
    "TreeShape",
    "read_record",
    "record_of_tree",
    "tree_of",
]

#: the longest comment a tree's move or line may carry
MAX_COMMENT = 2000
#: the most shapes drawn on one position
MAX_SHAPES = 40


class TreeShape(BaseModel):
    """A shape drawn on a position: an arrow from the point ``orig`` to ``dest``, or the point
    ``orig`` circled (no ``dest``), in a brush's colour (lichess's four)."""

    brush: Literal["green", "red", "blue", "yellow"]
    orig: str = Field(max_length=8)
    dest: str | None = Field(default=None, max_length=8, exclude_if=lambda value: value is None)


class TreeMove(BaseModel):
    """A move of a tree (``ludoteca.gametree``'s JSON form): its notation, mark, the comment
    after it, the shapes drawn on the position after it and the variations in its place."""

    move: str = Field(max_length=64)
    mark: Literal["", "!", "?", "!!", "??", "!?", "?!"] = ""
    comment: str = Field(default="", max_length=MAX_COMMENT)
    shapes: list[TreeShape] = Field(default_factory=list, max_length=MAX_SHAPES)
    variations: list[TreeLine] = Field(default_factory=list, max_length=100)


class TreeLine(BaseModel):
    """A line of a tree: the comment before its first move, and its moves (the tree's own
    line: and the shapes drawn on its start)."""

    comment: str = Field(default="", max_length=MAX_COMMENT)
    shapes: list[TreeShape] = Field(default_factory=list, max_length=MAX_SHAPES)
    moves: list[TreeMove] = Field(default_factory=list, max_length=MAX_MOVES)


def tree_of(line: TreeLine) -> GameTree:
    """The tree of a line as a route read it; 400 naming what is malformed."""
    try:
        return GameTree.from_json(line.model_dump(exclude_defaults=True))
    except LudotecaError as error:
        raise ActionError(400, str(error)) from None


def record_of_tree(game: str, rules: str | None, start: str | None, tree: GameTree) -> str:
    """The text record of ``tree`` from the position code ``start`` (the usual start when
    ``None``) of a rule set: the main line's result (``*`` while it goes on) and every line
    replayed; 400 with the record's sentence naming the first bad move and its variations."""
    end = state_of(game, rules, start, [])
    for node in tree.main_line():
        try:
            end.push(node.move)
        except LudotecaError:
            break  # reading the record back below names it with its line
    draft = from_state(end)
    draft.tree = tree
    return dumps(read_record(dumps(draft)))


def read_record(text: str) -> GameRecord:
    """A text record of one game, every line replayed; 400 with the sentence naming what is
    wrong."""
    try:
        return loads(text)
    except LudotecaError as error:
        raise ActionError(400, str(error)) from None
