"""The analysis board's trees as game records and back: the board's move tree (a
:class:`~ludoteca.gametree.GameTree` from a start position) written as a text record with its
variations, and a pasted record read into a tree (see ``docs/web.md``)."""

from __future__ import annotations

from ...core import LudotecaError
from ...gametree import GameTree
from ...record import GameRecord, dumps, from_state, loads
from ..errors import ActionError
from .analysis import state_of

__all__ = ["read_record", "record_of_tree"]


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
