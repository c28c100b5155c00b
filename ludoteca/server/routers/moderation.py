"""Moderation: reports and blocks for every signed-in player; the reports, the log and the
actions for moderators (see ``docs/operating.md`` and :mod:`..community.moderation`)."""

from __future__ import annotations

from fastapi import APIRouter, Depends

from ..community.moderation import (
    ActionBody,
    BlockBody,
    LogEntry,
    ReasonView,
    ReportBody,
    ReportView,
    Standing,
    reasons,
)
from ..deps import ModerationDep, SignedIn, csrf_guard
from ..schemas import Done

router = APIRouter(prefix="/api/moderation", dependencies=[Depends(csrf_guard)])


@router.get("/reasons")
async def report_reasons() -> list[ReasonView]:
    """The reasons a report may give."""
    return reasons()


@router.get("/me")
async def my_standing(moderation: ModerationDep, user: SignedIn) -> Standing:
    """Whether you moderate, whom you block, until when you are muted or closed."""
    return await moderation.standing(user)


@router.post("/reports", status_code=201)
async def report(moderation: ModerationDep, user: SignedIn, body: ReportBody) -> Done:
    """Report a player, or a chat line (its author), for the moderators."""
    await moderation.report(user, body)
    return Done()


@router.post("/blocks")
async def block(moderation: ModerationDep, user: SignedIn, body: BlockBody) -> Done:
    """Block a player: their chat lines are hidden from you; you are never paired."""
    await moderation.block(user, body.player)
    return Done()


@router.delete("/blocks/{name}")
async def unblock(moderation: ModerationDep, user: SignedIn, name: str) -> Done:
    """Unblock a player."""
    await moderation.unblock(user, name[:40])
    return Done()


@router.get("/reports")
async def reports(moderation: ModerationDep, user: SignedIn) -> list[ReportView]:
    """(Moderators) the latest reports, newest first."""
    await moderation.require(user)
    return await moderation.reports()


@router.get("/log")
async def log(moderation: ModerationDep, user: SignedIn) -> list[LogEntry]:
    """(Moderators) the latest moderation actions, newest first."""
    await moderation.require(user)
    return await moderation.log()


@router.post("/actions")
async def act(moderation: ModerationDep, user: SignedIn, body: ActionBody) -> Done:
    """(Moderators) mute, unmute, close, reopen or unrate a player, or remove a chat line."""
    await moderation.act(user, body)
    return Done()
