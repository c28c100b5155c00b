"""The game reports' API (see ``docs/web.md``): a finished game's report, an imported record's,
and any report by its key, each with its progress until it is ready."""

from __future__ import annotations

from fastapi import APIRouter, Depends
from fastapi import Path as PathPart

from ..deps import HubDep, ReportsDep, csrf_guard
from ..schemas import RecordText
from ..study.schemas import GameReport

router = APIRouter(prefix="/api", dependencies=[Depends(csrf_guard)])


@router.get("/games/{game_id}/report")
async def game_report(hub: HubDep, reports: ReportsDep, game_id: str) -> GameReport:
    """A finished game's report: ``status`` pending, running or ready, ``done`` and ``total``
    positions, then the report (made when the game ended; made now if it is missing)."""
    return await reports.for_game(await hub.get(game_id))


@router.post("/records/report")
async def record_report(reports: ReportsDep, body: RecordText) -> GameReport:
    """The report of a text record: its ``key`` and, as for a game, its status or the report;
    400 if the record is malformed or illegal."""
    return await reports.for_record(body.text)


@router.get("/reports/{key}")
async def report(reports: ReportsDep, key: str = PathPart(max_length=80)) -> GameReport:
    """A report by its key (``game-ID``, or a record's ``record-...``)."""
    return await reports.view(key)
