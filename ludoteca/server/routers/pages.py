"""The HTML pages (the lobby, a game, the review page, the account page, profiles, finished
games, the leaderboard); their scripts are static files."""

from __future__ import annotations

from pathlib import Path

from fastapi import APIRouter
from fastapi.responses import FileResponse

from ..deps import AccountsDep, HubDep
from ..errors import ActionError

STATIC = Path(__file__).resolve().parent.parent / "static"
router = APIRouter(include_in_schema=False)


@router.get("/")
async def lobby_page() -> FileResponse:
    return FileResponse(STATIC / "lobby.html")


@router.get("/game/{game_id}")
async def game_page(hub: HubDep, game_id: str) -> FileResponse:
    try:
        await hub.get(game_id)
    except ActionError as error:
        if error.status == 404:
            return FileResponse(STATIC / "missing.html", status_code=404)
        raise
    return FileResponse(STATIC / "game.html")


@router.get("/review")
async def review_page() -> FileResponse:
    return FileResponse(STATIC / "review.html")


@router.get("/account")
async def account_page() -> FileResponse:
    return FileResponse(STATIC / "account.html")


@router.get("/players/{name}")
async def profile_page(accounts: AccountsDep, name: str) -> FileResponse:
    if await accounts.find(name) is None:
        return FileResponse(STATIC / "missing.html", status_code=404)
    return FileResponse(STATIC / "profile.html")


@router.get("/games")
async def finished_page() -> FileResponse:
    return FileResponse(STATIC / "finished.html")


@router.get("/leaderboard")
async def leaderboard_page() -> FileResponse:
    return FileResponse(STATIC / "leaderboard.html")
