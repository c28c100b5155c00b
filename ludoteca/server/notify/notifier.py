"""Who is told what: the notification service.

The hub tells :meth:`Notifier.game_changed` of every change it committed, under the game's
lock, in the process that made it (so in a cluster each change is told once).  That call only
works out the events (a move: the player now to move; an end: both players; only in games
between two accounts, and never to a player watching the game through a websocket of this
process) and queues them: a bounded queue (when full, new events are dropped and logged), read
by a few tasks that look up each recipient's preferences and send, by push (in threads, see
:mod:`.push`) and e-mail (see :mod:`.mail`), each bounded by a timeout.  So no game ever waits
for a push service or an SMTP server.

In a cluster (with Redis) the player may watch the game through another process: before
sending an event about a game, a sending task asks Redis whether a websocket of any process
holds the recipient's seat (see :mod:`..cluster.presence`) and drops the event if so.  Should
Redis fail or not answer in time, that is logged and the event sent: what this process knew
when the change was committed (its own watchers) is what holds then, and for the next
:data:`PRESENCE_PAUSE` seconds, during which Redis is not asked.  Nothing of this is on the
way of the move: it was committed, and the game went on, before the question is asked.

An account's subscriptions are capped at :data:`MAX_SUBSCRIPTIONS`: a new one beyond replaces
the account's oldest (browsers drop subscriptions without saying so; the newest are the live
ones).  A subscription the push service says is gone (404, 410) is deleted.
"""

from __future__ import annotations

import asyncio
import json
import logging
import math
import time
from dataclasses import dataclass
from typing import Protocol

import aiosmtplib
from sqlalchemy import Connection, delete, insert, select, update

from ...core import Outcome
from ...i18n import SOURCE, _, current, use
from ..cluster.presence import Presence
from ..errors import ActionError
from ..play.catalogue import game_title
from ..play.conduct import Change
from ..play.live import LiveGame
from ..play.seats import COLOURS, SWAP, colour_name, seat
from ..schemas import Status
from ..settings import Settings
from ..store import Store, now
from .mail import Mailer, check_address
from .push import Delivery, Push, PushFailed, check_subscription, derive_key
from .rows import NotifySettingsRow, PushSubscriptionRow
from .schemas import Channels, Kind, Notice, Preferences, PushSubscription

__all__ = ["MAX_SUBSCRIPTIONS", "QUEUE", "Event", "Notifier", "Told", "events"]

log = logging.getLogger("ludoteca.server")

#: push subscriptions an account may hold (a new one beyond replaces the oldest)
MAX_SUBSCRIPTIONS = 10
#: events waiting to be sent, at most (beyond, new ones are dropped)
QUEUE = 1000
#: events sent at once
SENDERS = 4
#: after Redis failed to say who has a game open, the seconds it is not asked (this process's
#: own knowledge holds meanwhile; so a Redis that hangs delays the notifications once, not each)
PRESENCE_PAUSE = 5.0


@dataclass(frozen=True)
class Event:
    """One notification to send: to the account ``user``, about the game ``game_id`` (of the
    family ``game``) against ``opponent``; ``move``: the last move's label; ``outcome``: how
    the game ended (None: the account is to move); ``seat``: the account's seat in the game
    (``white`` or ``black``)."""

    user: int
    game_id: str
    game: str
    opponent: str
    move: str
    outcome: Outcome | None = None
    white: str | None = None
    black: str | None = None
    seat: str = ""

    @property
    def kind(self) -> Kind:
        return Kind.TURN if self.outcome is None else Kind.OVER

    @property
    def path(self) -> str:
        return f"/game/{self.game_id}"

    @property
    def tag(self) -> str:
        return f"game-{self.game_id}"

    def words(self) -> tuple[str, str]:
        """The notification's title and text, in the current language."""
        game = game_title(self.game)
        if self.outcome is None:
            return (
                _("Your move against %(opponent)s", opponent=self.opponent),
                _(
                    "%(game)s: %(opponent)s played %(move)s.",
                    game=game,
                    opponent=self.opponent,
                    move=self.move,
                ),
            )
        return (
            _("Your game against %(opponent)s is over", opponent=self.opponent),
            _(
                "%(game)s: %(outcome)s",
                game=game,
                outcome=self.outcome.explain(self.white, self.black),
            ),
        )


class Told(Protocol):
    """What a queued notification says: to whom, what kind, its words (in the current
    language), the page it opens, what it is about (``game_id``) and its ``tag``."""

    @property
    def user(self) -> int: ...
    @property
    def game_id(self) -> str: ...
    @property
    def kind(self) -> Kind: ...
    @property
    def path(self) -> str: ...
    @property
    def tag(self) -> str: ...
    def words(self) -> tuple[str, str]: ...


def events(live: LiveGame, change: Change) -> list[Event]:
    """The notifications a committed ``change`` of ``live`` calls for (see the module): none
    unless both seats are held by two different accounts."""
    row = live.row
    users = {name: seat(name).user_of(row) for name in COLOURS}
    if None in users.values() or users["white"] == users["black"]:
        return []
    if change.outcome is not None:
        told = list(COLOURS)
    elif change.push is not None and row.status == Status.LIVE:
        told = [colour_name(live.state.turn)]
    else:
        return []
    watching = {name for watcher in live.watchers for name in watcher.seats}
    labels = live.move_labels()
    names = {name: seat(name).display_of(row) or name for name in COLOURS}
    return [
        Event(
            user=user,
            game_id=row.id,
            game=row.game,
            opponent=names[SWAP[name]],
            move=labels[-1] if labels else "",
            outcome=change.outcome,
            white=names["white"],
            black=names["black"],
            seat=name,
        )
        for name in told
        if name not in watching and (user := users[name]) is not None
    ]


def _choices(text: str) -> dict[Kind, Channels]:
    """The stored per-kind choices, with the default of any kind added since."""
    return Preferences.model_validate({"kinds": json.loads(text)}).kinds


def _keep_language(connection: Connection, user: int, language: str) -> None:
    """Remember the language the account reads its notifications in (its settings row made
    with the defaults if missing)."""
    done = connection.execute(
        update(NotifySettingsRow).where(NotifySettingsRow.user_id == user).values(language=language)
    )
    if done.rowcount == 0:
        connection.execute(
            insert(NotifySettingsRow).values(
                user_id=user, email=None, language=language, choices=_dump(Preferences().kinds)
            )
        )


def _dump(kinds: dict[Kind, Channels]) -> str:
    return json.dumps({kind.value: channels.model_dump() for kind, channels in kinds.items()})


class Notifier:
    """Notifications of the accounts of ``store``: sent by ``push``, and by ``mailer`` when the
    server has one; links in e-mails start with ``site_url``; ``local``: push endpoints on
    loopback addresses over plain http are accepted (tests); ``presence``: who has which game
    open on any process of the cluster (None: this process is alone)."""

    def __init__(
        self,
        store: Store,
        push: Push,
        mailer: Mailer | None,
        site_url: str,
        local: bool = False,
        presence: Presence | None = None,
    ) -> None:
        self.store = store
        self.presence = presence
        self._presence_back = -math.inf  # (monotonic) when Redis is asked again after failing
        self.push = push
        self.mailer = mailer
        self.site_url = site_url.rstrip("/")
        self.local = local
        self.queue: asyncio.Queue[Told] = asyncio.Queue(QUEUE)
        self._senders: list[asyncio.Task[None]] = []

    @classmethod
    async def open(
        cls, store: Store, settings: Settings, presence: Presence | None = None
    ) -> Notifier:
        """The notifier ``settings`` describe (its VAPID key from the store), started; with
        ``presence``, the cluster's (see :class:`Notifier`)."""
        push = Push(derive_key(await store.secret("vapid")), settings.push_contact)
        mailer = None
        if settings.smtp_host and settings.smtp_from:
            password = settings.smtp_password
            mailer = Mailer(
                settings.smtp_host,
                settings.smtp_port,
                settings.smtp_from,
                settings.smtp_tls,
                settings.smtp_user,
                password.get_secret_value() if password is not None else None,
            )
        site = settings.site_url or f"http://{settings.host}:{settings.port}"
        notifier = cls(store, push, mailer, site, settings.push_local, presence)
        loop = asyncio.get_running_loop()
        notifier._senders = [loop.create_task(notifier._send_queued()) for _ in range(SENDERS)]
        return notifier

    async def close(self) -> None:
        """Stop sending (what is queued is dropped)."""
        for task in self._senders:
            task.cancel()
        await asyncio.gather(*self._senders, return_exceptions=True)
        self.push.close()

    async def drain(self) -> None:
        """Wait until every queued event is sent (or failed)."""
        await self.queue.join()

    # --- the hub's hook -------------------------------------------------------------------------
    def game_changed(self, live: LiveGame, change: Change) -> None:
        """Queue the notifications of a change the hub committed (never waits, never raises:
        a failure is logged and the game goes on)."""
        try:
            found = events(live, change)
        except Exception:
            log.exception("working out the notifications of game %s failed", live.row.id)
            return
        for event in found:
            self.tell(event)

    def tell(self, event: Told) -> None:
        """Queue one notification (never waits: dropped and logged when the queue is full)."""
        try:
            self.queue.put_nowait(event)
        except asyncio.QueueFull:
            log.warning("notification queue full: %s's dropped", event.tag)

    # --- preferences and subscriptions ----------------------------------------------------------
    async def preferences(self, user: int) -> Preferences:
        """The account's preferences (the defaults if it never chose)."""
        async with self.store.session() as session:
            row = await session.get(NotifySettingsRow, user)
        if row is None:
            return Preferences()
        return Preferences(email=row.email, kinds=_choices(row.choices))

    async def choose(self, user: int, chosen: Preferences) -> Preferences:
        """Store the account's preferences, and the current language as the one it reads its
        notifications in; 400 (nothing stored) if the e-mail address is not one."""
        email = check_address(chosen.email) if chosen.email else None
        kinds = {**Preferences().kinds, **chosen.kinds}
        language = current()

        def work(connection: Connection) -> None:
            _keep_language(connection, user, language)
            connection.execute(
                update(NotifySettingsRow)
                .where(NotifySettingsRow.user_id == user)
                .values(email=email, choices=_dump(kinds))
            )

        await self.store.write(work)
        return Preferences(email=email, kinds=kinds)

    async def subscribe(self, user: int, subscription: PushSubscription) -> None:
        """Push the account's notifications to a browser (its endpoint leaves any other
        account's; beyond :data:`MAX_SUBSCRIPTIONS` the account's oldest is dropped); 400
        (nothing stored) for a subscription no push service could take."""
        check_subscription(subscription, self.local)
        language = current()

        def work(connection: Connection) -> None:
            table = PushSubscriptionRow
            connection.execute(delete(table).where(table.endpoint == subscription.endpoint))
            connection.execute(
                insert(table).values(
                    user_id=user,
                    endpoint=subscription.endpoint,
                    p256dh=subscription.keys.p256dh,
                    auth=subscription.keys.auth,
                    created=now(),
                )
            )
            kept = select(table.id).where(table.user_id == user).order_by(table.id.desc())
            newest = list(connection.scalars(kept.limit(MAX_SUBSCRIPTIONS)))
            connection.execute(delete(table).where(table.user_id == user, table.id.not_in(newest)))
            _keep_language(connection, user, language)

        await self.store.write(work)

    async def unsubscribe(self, user: int, endpoint: str) -> None:
        """Stop pushing to a browser; 404 if the account has no such subscription."""
        table = PushSubscriptionRow
        done = await self.store.write(
            lambda connection: (
                connection.execute(
                    delete(table).where(table.user_id == user, table.endpoint == endpoint)
                ).rowcount
            )
        )
        if not done:
            raise ActionError(404, _("this browser is not subscribed"))

    # --- sending --------------------------------------------------------------------------------
    async def _send_queued(self) -> None:
        while True:
            event = await self.queue.get()
            try:
                if not await self.watched(event):
                    await self.send(event)
            except Exception:
                log.exception("notifying of game %s failed", event.game_id)
            finally:
                self.queue.task_done()

    async def watched(self, event: Told) -> bool:
        """Whether the recipient of a game event has the game open through a websocket of any
        process of the cluster (see the module): False without Redis (this process's own
        watchers were left out when the event was made), and False when Redis fails (logged)
        or failed less than :data:`PRESENCE_PAUSE` seconds ago (not asked)."""
        if self.presence is None or not isinstance(event, Event) or not event.seat:
            return False
        if time.monotonic() < self._presence_back:  # (Redis failed just now: not asked again)
            return False
        try:
            return bool(await self.presence.present(event.game_id, [event.seat]))
        except Exception as error:
            self._presence_back = time.monotonic() + PRESENCE_PAUSE
            log.warning(
                "asking Redis whether game %s is open failed (%r): told all the same, and "
                "Redis not asked for %.0f s",
                event.game_id,
                error,
                PRESENCE_PAUSE,
            )
            return False

    async def send(self, event: Told) -> None:
        """Send one event as its recipient chose: by push to each of its browsers (those gone
        deleted), by e-mail to its address.  A push service or SMTP server that fails is
        logged; the others are still tried."""
        async with self.store.session() as session:
            row = await session.get(NotifySettingsRow, event.user)
            browsers = list(
                await session.scalars(
                    select(PushSubscriptionRow).where(PushSubscriptionRow.user_id == event.user)
                )
            )
        chosen = (_choices(row.choices) if row is not None else Preferences().kinds)[event.kind]
        with use(row.language if row is not None else SOURCE):
            title, body = event.words()
        path = event.path
        if chosen.push and browsers:
            notice = Notice(
                kind=event.kind,
                title=title,
                body=body,
                url=path,
                game=event.game_id,
                tag=event.tag,
            )
            await self._push(browsers, notice.model_dump_json())
        if chosen.email and row is not None and row.email and self.mailer is not None:
            with use(row.language):
                text = "\n\n".join(
                    [
                        body,
                        f"{self.site_url}{path}",
                        _(
                            "You chose to get these e-mails on your "
                            "account page, where you can stop them: %(url)s",
                            url=f"{self.site_url}/account",
                        ),
                    ]
                )
            try:
                await self.mailer.send(row.email, title, text)
            except (aiosmtplib.SMTPException, OSError) as error:
                log.warning("e-mail to account %s failed: %s", event.user, error)

    async def _push(self, browsers: list[PushSubscriptionRow], payload: str) -> None:
        """Push ``payload`` to each browser at once; delete those whose service says gone."""

        async def one(browser: PushSubscriptionRow) -> int | None:
            try:
                taken = await self.push.send(
                    Delivery(browser.endpoint, browser.p256dh, browser.auth), payload
                )
            except PushFailed as error:
                log.warning("push to %s failed: %s", browser.endpoint[:60], error)
                return None
            return None if taken else browser.id

        gone = [found for found in await asyncio.gather(*map(one, browsers)) if found is not None]
        if gone:
            table = PushSubscriptionRow
            await self.store.write(
                lambda connection: connection.execute(delete(table).where(table.id.in_(gone)))
            )
