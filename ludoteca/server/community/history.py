"""What the community pages read: finished games (searchable), players' profiles, leaderboards
and the ratings of a game's players."""

from __future__ import annotations

import datetime
from collections.abc import Sequence
from typing import Any

from sqlalchemy import Select, and_, func, or_, select

from ...core import LudotecaError, Termination
from ...i18n import _
from ..errors import ActionError
from ..play.catalogue import game_title, rules_title
from ..play.seats import seat
from ..schemas import (
    FinishedGame,
    FinishedPage,
    GameRatings,
    Leader,
    Mode,
    PlayerRating,
    Profile,
    RatingStep,
    RatingView,
    SeatShown,
    Tally,
)
from ..store import GameRow, Store, now
from .people import UserRow, bots_among
from .ratings import (
    PROVISIONAL,
    RatingHistoryRow,
    RatingRow,
    category,
    current,
)

__all__ = ["finished", "game_ratings", "leaderboard", "profile"]

PAGE = 50
RESULTS = ("1-0", "0-1", "1/2-1/2")


def _when(value: datetime.datetime) -> str:
    return (value if value.tzinfo else value.replace(tzinfo=datetime.UTC)).isoformat()


def _rating(row: RatingRow) -> RatingView:
    now_ = current(row)
    return RatingView(
        game=row.game,
        title=game_title(row.game),
        category=row.category,
        rating=round(now_.rating),
        deviation=round(now_.deviation),
        provisional=now_.deviation > PROVISIONAL,
        games=row.games,
    )


def termination_text(label: str | None) -> str | None:
    """How a game ended (its termination's label, as stored) in words of the current language:
    ``"resignation"`` reads ``"abandon"`` in French."""
    if not label:
        return None
    try:
        return _(Termination.from_label(label).value)
    except LudotecaError:  # the server's own endings ("cancelled", "abandoned")
        return _(label)


async def _games(store: Store, rows: Sequence[GameRow]) -> list[FinishedGame]:
    """The games as the history lists them, their seats' bot accounts marked."""
    bots = await bots_among(store, (seat(c).user_of(r) for r in rows for c in ("white", "black")))
    return [_game(r, bots) for r in rows]


def _game(row: GameRow, bots: frozenset[int]) -> FinishedGame:
    def shown(colour: str) -> SeatShown:
        place = seat(colour)
        kind = place.kind_of(row)
        return SeatShown(
            name=place.display_of(row),
            account=place.display_of(row) if place.user_of(row) is not None else None,
            bot=place.user_of(row) in bots,
            computer=_("level %(number)s", number=kind.removeprefix("level:"))
            if kind != "human"
            else None,
        )

    return FinishedGame(
        id=row.id,
        game=row.game,
        rules=row.rules,
        rules_title=rules_title(row.game, row.rules),
        mode=Mode(row.mode),
        rated=row.rated,
        clock=row.clock,
        result=row.result,
        termination=row.termination,
        termination_text=termination_text(row.termination),
        moves=row.ply,
        white=shown("white"),
        black=shown("black"),
        ended=_when(row.updated),
    )


async def finished(
    store: Store,
    player: str | None = None,
    game: str | None = None,
    rules: str | None = None,
    result: str | None = None,
    since: datetime.date | None = None,
    until: datetime.date | None = None,
    page: int = 0,
) -> FinishedPage:
    """Finished games with a result, newest first, :data:`PAGE` a page, filtered by player
    (an account's name), game, rule set, result and date of the end."""
    query: Select[Any] = select(GameRow).where(
        GameRow.status == "over", GameRow.result.in_(RESULTS)
    )
    if player:
        async with store.session() as session:
            found = (
                await session.scalars(
                    select(UserRow.id).where(UserRow.name_key == player.lower()[:40])
                )
            ).first()
        if found is None:
            return FinishedPage(games=[], page=page, more=False)
        query = query.where(or_(GameRow.white_user == found, GameRow.black_user == found))
    if game:
        query = query.where(GameRow.game == game)
    if rules:
        query = query.where(or_(GameRow.rules == rules, GameRow.rules.startswith(rules + ":")))
    if result:
        if result not in RESULTS:
            raise ActionError(400, _("result is one of %(choices)s", choices=", ".join(RESULTS)))
        query = query.where(GameRow.result == result)
    if since:
        query = query.where(
            GameRow.updated >= datetime.datetime.combine(since, datetime.time(), datetime.UTC)
        )
    if until:
        query = query.where(
            GameRow.updated
            < datetime.datetime.combine(
                until + datetime.timedelta(days=1), datetime.time(), datetime.UTC
            )
        )
    async with store.session() as session:
        rows = (
            await session.scalars(
                query.order_by(GameRow.updated.desc()).offset(page * PAGE).limit(PAGE + 1)
            )
        ).all()
    return FinishedPage(games=await _games(store, rows[:PAGE]), page=page, more=len(rows) > PAGE)


async def profile(store: Store, name: str) -> Profile:
    """A player's page: ratings (as they stand today), their history, win/draw/loss counts
    and recent games (computer games included)."""
    async with store.session() as session:
        user = (
            await session.scalars(select(UserRow).where(UserRow.name_key == name.lower()[:40]))
        ).first()
        if user is None:
            raise ActionError(404, _("no player %(name)s", name=repr(name)))
        ratings = (
            await session.scalars(
                select(RatingRow)
                .where(RatingRow.user_id == user.id)
                .order_by(RatingRow.game, RatingRow.category)
            )
        ).all()
        history = (
            await session.scalars(
                select(RatingHistoryRow)
                .where(RatingHistoryRow.user_id == user.id)
                .order_by(RatingHistoryRow.id)
            )
        ).all()
        mine = or_(GameRow.white_user == user.id, GameRow.black_user == user.id)
        won = or_(
            and_(GameRow.white_user == user.id, GameRow.result == "1-0"),
            and_(GameRow.black_user == user.id, GameRow.result == "0-1"),
        )
        lost = or_(
            and_(GameRow.white_user == user.id, GameRow.result == "0-1"),
            and_(GameRow.black_user == user.id, GameRow.result == "1-0"),
        )
        counts = (
            await session.execute(
                select(
                    func.count().filter(won),
                    func.count().filter(GameRow.result == "1/2-1/2"),
                    func.count().filter(lost),
                ).where(mine, GameRow.status == "over")
            )
        ).one()
        recent = (
            await session.scalars(
                select(GameRow).where(mine).order_by(GameRow.updated.desc()).limit(20)
            )
        ).all()
    return Profile(
        name=user.name,
        bot=user.bot,
        joined=_when(user.created),
        ratings=[_rating(r) for r in ratings],
        history=[
            RatingStep(
                game=h.game,
                title=game_title(h.game),
                category=h.category,
                game_id=h.game_id,
                rating=round(h.rating),
                change=round(h.change),
                at=_when(h.at),
            )
            for h in history
        ],
        counts=Tally(wins=counts[0], draws=counts[1], losses=counts[2]),
        games=await _games(store, recent),
    )


async def leaderboard(store: Store, game: str, category: str, limit: int = 50) -> list[Leader]:
    """The best ratings of a game and time-control category with a rated game in the last
    year: the established ones first, then the provisional ones (each marked ``provisional``),
    each part best first.  Bots are left off (their ratings show on their profiles)."""
    since = now() - datetime.timedelta(days=365)
    async with store.session() as session:
        rows = (
            await session.execute(
                select(RatingRow, UserRow.name)
                .join(UserRow, UserRow.id == RatingRow.user_id)
                .where(
                    RatingRow.game == game,
                    RatingRow.category == category,
                    RatingRow.games > 0,
                    RatingRow.updated >= since,
                    UserRow.bot.is_(False),
                )
            )
        ).all()
    board = [Leader(name=name, **_rating(row).model_dump()) for row, name in rows]
    board.sort(key=lambda entry: (entry.provisional, -entry.rating))
    return board[:limit]


async def game_ratings(store: Store, game_id: str) -> GameRatings:
    """The ratings of a game's players: each account's rating for the game's category as it
    stands, and, for a finished rated game, the change it made."""
    async with store.session() as session:
        row = await session.get(GameRow, game_id)
        if row is None:
            raise ActionError(404, _("no game %(game_id)s", game_id=repr(game_id)))
        changes = {
            h.user_id: h
            for h in (
                await session.scalars(
                    select(RatingHistoryRow).where(RatingHistoryRow.game_id == game_id)
                )
            ).all()
        }
        kind = category(row.clock)
        players: dict[str, PlayerRating | None] = {}
        for colour in ("white", "black"):
            user = seat(colour).user_of(row)
            rating = await session.get(RatingRow, (user, row.game, kind)) if user else None
            done = changes.get(user) if user else None
            players[colour] = (
                None
                if rating is None
                else PlayerRating(
                    **_rating(rating).model_dump(), change=round(done.change) if done else None
                )
            )
    return GameRatings(
        rated=row.rated, category=kind, white=players["white"], black=players["black"]
    )
