"""Challenges: a signed-in player asks a named player for a game (rule set, colour, clock or days
per move, rated or casual); the challenged player accepts (the game opens through the seeks'
path: an online game between the two accounts) or declines with a reason from a fixed list;
the challenger may cancel it while it is open.  An open challenge expires after
:data:`LIVE_EXPIRY` (a live clock, or none) or :data:`CORRESPONDENCE_EXPIRY` (days per move).

Both sides are told (:class:`~.events.Events`: the Bot API's event stream) of each step, the
challenged player is notified of a new challenge and the challenger of a decline (the
notifier's "challenge" kind); the lobby lists both sides' challenges, a closed outgoing one for
:data:`RECENT` more (with its reason), so a polling lobby sees what became of it.

Times are the hub's clock (epoch ms, :meth:`~..play.hub.Hub.now`), which tests stand in for.
"""

from __future__ import annotations

import asyncio
import datetime
import secrets
from collections.abc import Awaitable, Callable
from typing import Any, Literal

from pydantic import BaseModel, Field
from sqlalchemy import BigInteger, Boolean, ForeignKey, String, insert, or_, select, update
from sqlalchemy.orm import Mapped, aliased, mapped_column

from ...i18n import N_, _
from ..errors import ActionError
from ..play.catalogue import rules_title
from ..play.clock import DaysPerMove, parse_control
from ..play.opening import Opening
from ..schemas import HUMAN
from ..store import Base, Store
from .events import Events
from .moderation import blocked, may_play
from .people import UserRow
from .seeks import SeekSpec, between, check

__all__ = [
    "CORRESPONDENCE_EXPIRY",
    "LIVE_EXPIRY",
    "OUTGOING",
    "REASONS",
    "ChallengeBody",
    "ChallengeRow",
    "ChallengeView",
    "Challenges",
    "Decline",
    "DeclineReason",
    "MyChallenges",
]

#: how long an open challenge waits for an answer: with a live clock or none, with days per move
LIVE_EXPIRY = datetime.timedelta(hours=24)
CORRESPONDENCE_EXPIRY = datetime.timedelta(days=7)
#: how long a closed outgoing challenge stays listed to its challenger
RECENT = datetime.timedelta(hours=1)
#: open challenges a player may have sent at once (and one at most to each player)
OUTGOING = 20

#: why a challenge is declined (lichess's keys, for bots written for its API)
REASONS: dict[str, str] = {
    "generic": N_("I'm not accepting challenges right now."),
    "later": N_("This is not the right time for me, please ask again later."),
    "timeControl": N_("I'm not accepting challenges with this time control."),
    "rated": N_("Please send me a rated challenge instead."),
    "casual": N_("Please send me a casual challenge instead."),
    "variant": N_("I'm not willing to play this variant right now."),
    "noBot": N_("I'm not accepting challenges from bots."),
    "onlyBot": N_("I'm only accepting challenges from bots."),
}
Reason = Literal[
    "generic", "later", "timeControl", "rated", "casual", "variant", "noBot", "onlyBot"
]
Stage = Literal["open", "accepted", "declined", "canceled", "expired"]


class ChallengeRow(Base):
    """A challenge: who asked whom for what, where it stands (``reason``: a decline's key;
    ``game_id``: an accepted one's game); times in epoch ms of the hub's clock."""

    __tablename__ = "challenges"

    id: Mapped[str] = mapped_column(String(16), primary_key=True)
    challenger_id: Mapped[int] = mapped_column(
        ForeignKey("users.id", ondelete="CASCADE"), index=True
    )
    challenged_id: Mapped[int] = mapped_column(
        ForeignKey("users.id", ondelete="CASCADE"), index=True
    )
    game: Mapped[str] = mapped_column(String(32))
    rules: Mapped[str] = mapped_column(String(200))
    clock: Mapped[str | None] = mapped_column(String(16), nullable=True)
    rated: Mapped[bool] = mapped_column(Boolean)
    colour: Mapped[str] = mapped_column(String(8))  # the challenger's: white, black or random
    status: Mapped[str] = mapped_column(String(12), index=True)
    reason: Mapped[str | None] = mapped_column(String(16), nullable=True)
    created: Mapped[int] = mapped_column(BigInteger)
    expires: Mapped[int] = mapped_column(BigInteger)
    closed: Mapped[int | None] = mapped_column(BigInteger, nullable=True)
    game_id: Mapped[str | None] = mapped_column(String(32), nullable=True)


class ChallengeBody(BaseModel):
    """A challenge's options (the challenged player is named in the path)."""

    game: str = Field(max_length=64)
    rules: str | None = Field(default=None, max_length=200)
    clock: str | None = Field(default=None, max_length=16)
    rated: bool = False
    colour: Literal["white", "black", "random"] = "random"


class Decline(BaseModel):
    """Why a challenge is declined (a key of the fixed list; default ``generic``)."""

    reason: Reason = "generic"


class ChallengeView(BaseModel):
    """A challenge as both sides see it: its options, the two players (``*_bot``: an engine
    plays the account), where it stands, a decline's reason (its key and its sentence in the
    reader's language), the game once accepted, and when it expires (epoch ms)."""

    id: str
    challenger: str
    challenger_bot: bool
    challenged: str
    challenged_bot: bool
    game: str
    rules: str
    rules_title: str
    clock: str | None
    rated: bool
    colour: str
    status: Stage
    reason: Reason | None
    reason_text: str | None
    game_id: str | None
    expires: int


class DeclineReason(BaseModel):
    """A reason to decline a challenge: its key (:class:`Decline`'s) and its sentence in the
    reader's language."""

    key: Reason
    text: str


class MyChallenges(BaseModel):
    """A player's challenges: those received still open, and those sent (open, or closed
    within the last hour); and the reasons one may decline with, in the order to offer them."""

    incoming: list[ChallengeView]
    outgoing: list[ChallengeView]
    reasons: list[DeclineReason]


#: opens a new game (stores it and holds it in memory)
Opener = Callable[[Opening], Awaitable[object]]
#: told of a new challenge for a bot account (its id), to answer it at once if it must
Arrival = Callable[[ChallengeView, int], Awaitable[None]]


class Challenges:
    """The challenges in ``store``: games opened with ``opener``, times read from ``clock``
    (epoch ms), steps told through ``events`` and ``notify(user, view, step)`` (the
    notifier's hook: a challenge received, a challenge declined)."""

    def __init__(
        self,
        store: Store,
        opener: Opener,
        clock: Callable[[], int],
        events: Events,
        notify: Callable[[int, ChallengeView], None],
    ) -> None:
        self.store = store
        self.opener = opener
        self.clock = clock
        self.events = events
        self.notify = notify
        #: set by the bots: told of each challenge to a bot account (see :data:`Arrival`)
        self.arrival: Arrival | None = None

    # --- reading ------------------------------------------------------------------------------
    async def _views(self, *where: Any) -> list[ChallengeView]:
        challenger, challenged = aliased(UserRow), aliased(UserRow)
        async with self.store.session() as session:
            rows = (
                await session.execute(
                    select(ChallengeRow, challenger, challenged)
                    .join(challenger, challenger.id == ChallengeRow.challenger_id)
                    .join(challenged, challenged.id == ChallengeRow.challenged_id)
                    .where(*where)
                    .order_by(ChallengeRow.created.desc())
                    .limit(100)
                )
            ).all()
        return [_view(row, by, to) for row, by, to in rows]

    async def get(self, challenge_id: str) -> ChallengeView:
        """One challenge (expired first if its time has come); 404 if unknown."""
        await self.expire()
        found = await self._views(ChallengeRow.id == challenge_id[:16])
        if not found:
            raise ActionError(404, _("no challenge %(id)s", id=repr(challenge_id[:16])))
        return found[0]

    async def mine(self, user: int) -> MyChallenges:
        """The challenges ``user`` received (open) and sent (open, or closed lately), and the
        reasons to decline with (:data:`REASONS`, in the current language)."""
        await self.expire()
        recent = self.clock() - int(RECENT.total_seconds() * 1000)
        return MyChallenges(
            incoming=await self._views(
                ChallengeRow.challenged_id == user, ChallengeRow.status == "open"
            ),
            outgoing=await self._views(
                ChallengeRow.challenger_id == user,
                or_(ChallengeRow.status == "open", ChallengeRow.closed >= recent),
            ),
            reasons=[DeclineReason(key=key, text=_(text)) for key, text in REASONS.items()],  # type: ignore[arg-type]
        )

    # --- steps --------------------------------------------------------------------------------
    async def send(self, user: int, name: str, spec: SeekSpec) -> ChallengeView:
        """Challenge the player called ``name``: the challenge; refused, nothing stored, for a
        closed account (403), a missing player (404), oneself (400), a block either way (403),
        a second open challenge to the same player (409), or past :data:`OUTGOING` (429)."""
        await may_play(self.store, user)
        async with self.store.session() as session:
            target = (
                await session.scalars(select(UserRow).where(UserRow.name_key == name.lower()[:40]))
            ).first()
            if target is None:
                raise ActionError(404, _("no player %(name)s", name=repr(name[:40])))
            if target.id == user:
                raise ActionError(400, _("you cannot challenge yourself"))
            if await blocked(self.store, user, target.id):
                raise ActionError(403, _("you cannot play this player"))
            mine = await session.scalars(
                select(ChallengeRow.challenged_id).where(
                    ChallengeRow.challenger_id == user, ChallengeRow.status == "open"
                )
            )
            waiting = list(mine)
        if target.id in waiting:
            raise ActionError(409, _("you already challenged this player; wait for an answer"))
        if len(waiting) >= OUTGOING:
            raise ActionError(
                429,
                _("at most %(most)s open challenges at once; cancel one", most=OUTGOING),
            )
        at = self.clock()
        days = isinstance(parse_control(spec.clock), DaysPerMove) if spec.clock else False
        wait = CORRESPONDENCE_EXPIRY if days else LIVE_EXPIRY
        challenge_id = secrets.token_urlsafe(8)
        await self.store.write(
            lambda c: c.execute(
                insert(ChallengeRow).values(
                    id=challenge_id,
                    challenger_id=user,
                    challenged_id=target.id,
                    game=spec.game,
                    rules=spec.rules,
                    clock=spec.clock,
                    rated=spec.rated,
                    colour=spec.colour,
                    status="open",
                    created=at,
                    expires=at + int(wait.total_seconds() * 1000),
                )
            )
        )
        view = await self.get(challenge_id)
        event = {"type": "challenge", "challenge": view.model_dump()}
        self.events.tell(target.id, event)
        self.events.tell(user, event)
        self.notify(target.id, view)
        if target.bot and self.arrival is not None:
            await self.arrival(view, target.id)
            view = await self.get(challenge_id)
        return view

    async def _close(self, challenge_id: str, stage: Stage, *where: Any, **values: Any) -> bool:
        """Close an open challenge (``where``: who may); whether it was open and is now."""
        at = self.clock()
        done: int = await self.store.write(
            lambda c: (
                c.execute(
                    update(ChallengeRow)
                    .where(ChallengeRow.id == challenge_id[:16], ChallengeRow.status == "open")
                    .where(*where)
                    .values(status=stage, closed=at, **values)
                ).rowcount
            )
        )
        return bool(done)

    async def cancel(self, user: int, challenge_id: str) -> None:
        """The challenger withdraws an open challenge (404 if it is not an open one of
        theirs); the challenged player is told."""
        await self.expire()
        if not await self._close(challenge_id, "canceled", ChallengeRow.challenger_id == user):
            raise ActionError(404, _("no open challenge of yours with that id"))
        view = await self.get(challenge_id)
        event = {"type": "challengeCanceled", "challenge": view.model_dump()}
        for told in await self._sides(challenge_id):
            self.events.tell(told, event)

    async def decline(self, user: int, challenge_id: str, reason: Reason) -> None:
        """The challenged player declines an open challenge with ``reason`` (404 if it is not
        an open one for them); the challenger is told (event and notification)."""
        await self.expire()
        if not await self._close(
            challenge_id, "declined", ChallengeRow.challenged_id == user, reason=reason
        ):
            raise ActionError(404, _("no open challenge to you with that id"))
        view = await self.get(challenge_id)
        event = {"type": "challengeDeclined", "challenge": view.model_dump()}
        challenger, challenged = await self._sides(challenge_id)
        self.events.tell(challenger, event)
        self.events.tell(challenged, event)
        self.notify(challenger, view)

    async def accept(self, user: int, challenge_id: str, computer: str | None = None) -> str:
        """The challenged player accepts an open challenge: the new game's id (an online game
        between the two accounts, with the challenge's options; ``computer``: the spec of the
        server's computer player taking the challenged player's seat, a level bot's); 404 if
        it is not an open one for them, 403 if either account may no longer play the other.
        Both sides are told (``gameStart``)."""
        await self.expire()
        found = await self.get(challenge_id)
        if found.status != "open":
            raise ActionError(404, _("no open challenge to you with that id"))
        challenger, challenged = await self._sides(challenge_id)
        if challenged != user:
            raise ActionError(404, _("no open challenge to you with that id"))
        await may_play(self.store, user)
        await may_play(self.store, challenger)
        if await blocked(self.store, challenger, challenged):
            raise ActionError(403, _("you cannot play this player"))
        game_id = secrets.token_urlsafe(8)
        if not await self._close(challenge_id, "accepted", game_id=game_id):
            raise ActionError(404, _("no open challenge to you with that id"))
        colour = found.colour if found.colour != "random" else secrets.choice(["white", "black"])
        them, me = (challenger, found.challenger), (challenged, found.challenged)
        white, black = (them, me) if colour == "white" else (me, them)
        kinds = {"white": HUMAN, "black": HUMAN}
        if computer is not None:
            kinds["black" if colour == "white" else "white"] = computer
        spec = SeekSpec(found.game, found.rules, found.clock, found.rated, colour, None, None)
        await self.opener(between(spec, white, black, game_id, kinds))
        event = {"type": "gameStart", "game": {"id": game_id, "url": f"/game/{game_id}"}}
        self.events.tell(challenger, event)
        self.events.tell(challenged, event)
        return game_id

    async def _sides(self, challenge_id: str) -> tuple[int, int]:
        """(challenger, challenged) of a challenge."""
        async with self.store.session() as session:
            row = await session.get(ChallengeRow, challenge_id[:16])
        assert row is not None
        return row.challenger_id, row.challenged_id

    async def sweep(self, every: float = 60.0) -> None:
        """Every ``every`` seconds, until cancelled (runs for the server): :meth:`expire`, so
        that the challengers hear of their expired challenges without asking."""
        while True:
            await asyncio.sleep(every)
            await self.expire()

    async def expire(self) -> int:
        """Close the open challenges whose time has come (each side told:
        ``challengeCanceled`` with the status ``expired``); how many."""
        at = self.clock()
        async with self.store.session() as session:
            due = list(
                await session.scalars(
                    select(ChallengeRow.id).where(
                        ChallengeRow.status == "open", ChallengeRow.expires <= at
                    )
                )
            )
        count = 0
        for challenge_id in due:
            if await self._close(challenge_id, "expired"):
                count += 1
                view = (await self._views(ChallengeRow.id == challenge_id))[0]
                event = {"type": "challengeCanceled", "challenge": view.model_dump()}
                for told in await self._sides(challenge_id):
                    self.events.tell(told, event)
        return count


def _view(row: ChallengeRow, by: UserRow, to: UserRow) -> ChallengeView:
    reason: Any = row.reason
    return ChallengeView(
        id=row.id,
        challenger=by.name,
        challenger_bot=by.bot,
        challenged=to.name,
        challenged_bot=to.bot,
        game=row.game,
        rules=row.rules,
        rules_title=rules_title(row.game, row.rules),
        clock=row.clock,
        rated=row.rated,
        colour=row.colour,
        status=row.status,  # type: ignore[arg-type]
        reason=reason,
        reason_text=_(REASONS[reason]) if reason in REASONS else None,
        game_id=row.game_id,
        expires=row.expires,
    )


def spec_of(body: ChallengeBody) -> SeekSpec:
    """A challenge's options, checked (400 saying what is wrong)."""
    return check(body.game, body.rules, body.clock, body.rated, body.colour, None, None)
