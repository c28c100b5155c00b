"""Players, finished games, leaderboards and seeks (see docs/web.md)."""

from __future__ import annotations

import datetime

from fastapi import APIRouter, Depends, Query

from ...i18n import _
from ..community import history, seeks
from ..community.ratings import CATEGORIES
from ..deps import SeeksDep, SignedIn, StoreDep, csrf_guard
from ..errors import ActionError
from ..schemas import (
    Accepted,
    Done,
    FinishedPage,
    GameRatings,
    Leader,
    OpenSeek,
    Pairing,
    Posted,
    Profile,
    SeekBody,
    SeekView,
)

router = APIRouter(prefix="/api", dependencies=[Depends(csrf_guard)])


@router.get("/players/{name}")
async def player(store: StoreDep, name: str) -> Profile:
    """A player's profile: ratings, rating history, counts and recent games."""
    return await history.profile(store, name)


@router.get("/finished")
async def finished(
    store: StoreDep,
    player: str | None = Query(default=None, max_length=40),
    game: str | None = Query(default=None, max_length=32),
    rules: str | None = Query(default=None, max_length=200),
    result: str | None = Query(default=None, max_length=8),
    since: datetime.date | None = None,
    until: datetime.date | None = None,
    page: int = Query(default=0, ge=0, le=10_000),
) -> FinishedPage:
    """Finished games, newest first, filtered (player, game, rule set, result, dates)."""
    return await history.finished(store, player, game, rules, result, since, until, page)


@router.get("/leaderboard")
async def leaderboard(
    store: StoreDep,
    game: str = Query(max_length=32),
    category: str = Query(default="blitz", max_length=16),
) -> list[Leader]:
    """The best established ratings of a game and time-control category."""
    if category not in CATEGORIES:
        raise ActionError(400, _("category is one of %(choices)s", choices=", ".join(CATEGORIES)))
    return await history.leaderboard(store, game, category)


@router.get("/games/{game_id}/ratings")
async def game_ratings(store: StoreDep, game_id: str) -> GameRatings:
    """The players' ratings for the game's category, and a finished rated game's changes."""
    return await history.game_ratings(store, game_id[:32])


@router.get("/seeks")
async def open_seeks(found: SeeksDep) -> list[OpenSeek]:
    """The seeks on offer."""
    return await found.open()


@router.get("/seeks/mine")
async def my_seeks(found: SeeksDep, user: SignedIn) -> list[SeekView]:
    """Your seeks (asking keeps them on offer); an accepted one carries its game's id."""
    return await found.mine(user)


def _spec(body: SeekBody) -> seeks.SeekSpec:
    return seeks.check(
        body.game, body.rules, body.clock, body.rated, body.colour, body.min_rating, body.max_rating
    )


@router.post("/seeks", status_code=201)
async def post_seek(found: SeeksDep, user: SignedIn, body: SeekBody) -> Posted:
    """Offer a game to others."""
    return Posted(id=await found.post(user, _spec(body)))


@router.delete("/seeks/{seek_id}")
async def cancel_seek(found: SeeksDep, user: SignedIn, seek_id: str) -> Done:
    """Withdraw one of your open seeks."""
    await found.cancel(user, seek_id[:16])
    return Done()


@router.post("/seeks/{seek_id}/accept", status_code=201)
async def accept_seek(found: SeeksDep, user: SignedIn, seek_id: str) -> Accepted:
    """Accept a seek: the new game (your seat is your account's)."""
    game_id = await found.accept(user, seek_id[:16])
    return Accepted(game=game_id, url=f"/game/{game_id}")


@router.post("/seeks/quick")
async def quick_pairing(found: SeeksDep, user: SignedIn, body: SeekBody) -> Pairing:
    """Play the first compatible seek on offer, or offer this one: ``{"game"}`` or
    ``{"seek"}``."""
    return await found.quick(user, _spec(body))
