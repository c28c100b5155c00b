"""The opening explorer's API (see ``docs/web.md``): for a position of a rule set, the moves
played from it in the finished games of the database, with their results and values."""

from __future__ import annotations

from fastapi import APIRouter, Query

from ..deps import ExplorerDep
from ..study.schemas import ExplorerView

router = APIRouter(prefix="/api")


@router.get("/explorer")
async def explorer(
    index: ExplorerDep,
    game: str = Query(max_length=64),
    rules: str | None = Query(default=None, max_length=200),
    position: str | None = Query(default=None, max_length=2000),
) -> ExplorerView:
    """The moves played from ``position`` (a position code; absent: the rule set's usual
    start) in the finished games of ``game`` under ``rules``; 400 with the reason if the rule
    set or the position is not one."""
    return await index.view(game, rules, position)
