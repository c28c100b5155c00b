"""The analysis board's JSON routes beside its socket (see ``docs/web.md``): its move tree
written as a game record with variations and a record read into a tree
(:mod:`~ludoteca.server.study.board_records`), every legal move of a position with its
value (:mod:`~ludoteca.server.study.move_list`), and practice against perfect play
(:mod:`~ludoteca.server.study.practice`)."""

from __future__ import annotations

from typing import Annotated

from fastapi import APIRouter, Query
from pydantic import BaseModel, Field

from ..deps import ComputerDep
from ..study.analysis import MAX_MOVES
from ..study.board_records import TreeLine, read_record, record_of_tree, tree_of
from ..study.move_list import every_move
from ..study.practice import practise
from ..study.schemas import EveryMove, Practice

router = APIRouter(prefix="/api/analysis")


class BoardTree(BaseModel):
    """A move tree from a position of a rule set: ``start`` a position code (the usual start
    when absent)."""

    game: str = Field(max_length=64)
    rules: str | None = Field(default=None, max_length=200)
    start: str | None = Field(default=None, max_length=2000)
    tree: TreeLine


class RecordText(BaseModel):
    """A game record's text (one game; ``docs/formats.md``)."""

    record: str = Field(max_length=200_000)


@router.post("/record")
async def tree_as_record(body: BoardTree) -> RecordText:
    """The text record of a board's tree, with its variations; 400 naming the first bad move
    and the variations leading to it."""
    return RecordText(record=record_of_tree(body.game, body.rules, body.start, tree_of(body.tree)))


@router.post("/tree")
async def record_as_tree(body: RecordText) -> BoardTree:
    """The tree of a pasted record and the position it starts from; 400 with the sentence
    naming what is wrong."""
    found = read_record(body.record)
    start = found.start()
    return BoardTree(
        game=start.game.name,
        rules=str(start.rules),
        start=start.position_code(),
        tree=TreeLine.model_validate(found.tree.as_json()),
    )


@router.get("/moves")
async def moves(
    computer: ComputerDep,
    rules: str = Query(max_length=200),
    game: str | None = Query(default=None, max_length=64),
    position: str | None = Query(default=None, max_length=2000),
) -> EveryMove:
    """Every legal move of ``position`` (a code; the usual start when absent) of a rule set
    with its value; 400 if the rule set or the position is not one."""
    return await every_move(computer, game or rules, rules, position)


class PracticeLine(BaseModel):
    """A practice game against perfect play: the position code it started from and the moves
    played since (the player's and the perfect player's in turn)."""

    game: str = Field(max_length=64)
    rules: str | None = Field(default=None, max_length=200)
    start: str = Field(max_length=2000)
    moves: list[Annotated[str, Field(max_length=64)]] = Field(
        default_factory=list, max_length=MAX_MOVES
    )


@router.post("/practice")
async def practice(body: PracticeLine, computer: ComputerDep) -> Practice:
    """The perfect player's reply (when it is to move) and the judgement of the player's moves
    so far; 400 if the position or a move is not one, or no solved table covers the start."""
    return await practise(computer, body.game, body.rules, body.start, body.moves)
