"""The live games of this server process, and the one way they change.

The hub keeps the games in play or watched in memory (loaded from the store when asked for,
dropped when nobody needs them) and is the server's only writer: every change (a seat holder's
intent, a player joining, the computer's move, a flag) takes one path, under the game's lock:
check (a :mod:`.conduct` handler works out the :class:`~.conduct.Change` or refuses it), store,
apply in memory, then broadcast to every connection watching the game.
"""

from __future__ import annotations

import asyncio
import functools
import logging
import math
import secrets
import time
from collections.abc import Callable
from typing import Any

from prometheus_client import CollectorRegistry, Counter, Gauge

from ...i18n import _
from .. import logs
from ..cluster.adoption import Cluster
from ..community import ratings
from ..community.chat import ROOMS
from ..community.people import bots_among
from ..computer.computer import Computer
from ..errors import ActionError
from ..schemas import Colour, GameView, Intent, Mode, NewGame
from ..store import GameRow, StaleError, Store
from ..study.explorer import Explorer
from ..study.reports import Reports
from ..timings import Timings
from . import conduct, opening, views
from .catalogue import replay
from .clock import now_ms
from .conduct import Change, Context
from .duties import Duties
from .live import LiveGame, Watcher
from .outbox import Outbox
from .seats import COLOURS, seat
from .tasks import Tasks

__all__ = ["Hub"]

log = logging.getLogger("ludoteca.server")

IDLE_SECONDS = 300.0  # a game nobody watches or asks for leaves memory after this
COMPUTER_GAMES = 8  # games against the computer in play at once from one address
PLAYING = 5.0  # seconds after this process's last move that people count as playing on it
#: how long the others wait to be told that someone started or stopped watching a game: the
#: count rides on the next update if the game moves meanwhile, and a game's comings and goings
#: cost one update a second at most
CROWD_DELAY = 1.0


class Hub:
    """Every live game of this server process: the computer plays in ``computer``; with other
    processes (through ``cluster``) a game's duties (``duties``) are done by the holder of its
    lease; a game over gets its report (``reports``) and is counted by the ``explorer``.
    Background work runs as ``tasks``.  The hub is the host of its ``cluster`` and ``duties``
    (bound here): all are built by the composition root (:func:`..services.build_services`)."""

    def __init__(
        self,
        store: Store,
        computer: Computer,
        cluster: Cluster,
        duties: Duties,
        reports: Reports,
        explorer: Explorer,
        tasks: Tasks,
        registry: CollectorRegistry,
        timings: Timings,
    ) -> None:
        self.store = store
        #: where each stage of a change is timed (see :mod:`..timings`)
        self.timings = timings
        self.computer = computer
        self.cluster = cluster
        self.moves = Counter("ludoteca_moves", "Moves played", registry=registry)
        self.behind = Counter(
            "ludoteca_reads_behind",
            "Requests for a game that found this process's copy behind the store (changed "
            "through another process, its news not heard yet) and read it again",
            registry=registry,
        )
        self.last_move = -math.inf  # when this process last played a move (monotonic seconds)
        Gauge("ludoteca_games_in_memory", "Games held in memory", registry=registry).set_function(
            lambda: len(self.games)
        )
        self.games: dict[str, LiveGame] = {}
        #: the spectators' messages, written after the players' work (see :mod:`.outbox`)
        self.outbox = Outbox()
        Gauge(
            "ludoteca_outbox_waiting",
            "Messages to spectators waiting for the players' work",
            registry=registry,
        ).set_function(lambda: len(self.outbox.waiting))
        self.tasks = tasks
        self.duties = duties
        self.reports = reports
        self.explorer = explorer
        self.quota = opening.ComputerQuota(COMPUTER_GAMES)
        #: the key that derives the seat tokens of rematches (from the store; see ``resume``)
        self.rematch_key = b""
        self._loading = asyncio.Lock()
        # --- correspondence hooks (see .correspondence): the wall clock (epoch ms) of the
        # players' intents when a test stands in for it (see ``now``); called with each game
        # after it changed
        self.clock: Callable[[], int] | None = None
        self.listeners: list[Callable[[LiveGame], None]] = []
        #: told of every change once committed and applied, under the game's lock, in the
        #: process that made it (the notifier's hook, set by the app; never waits or raises)
        self.committed: Callable[[LiveGame, Change], None] = lambda live, change: None
        cluster.bind(self)
        duties.bind(self)

    def now(self) -> int:
        """The wall clock of the players' intents, epoch ms: ``clock``, else the real one."""
        return self.clock() if self.clock is not None else now_ms()

    def playing(self) -> bool:
        """Whether people play on this process: a move played within :data:`PLAYING` seconds
        (study work then gives way, see :class:`~..study.analysis.Analyst`)."""
        return time.monotonic() - self.last_move < PLAYING

    async def close(self) -> None:
        """Stop computer turns and clock timers (the server is shutting down), and wait until
        they have unwound, so that none is still using the store when it closes."""
        stopping: list[asyncio.Task[Any]] = list(self.tasks.running)
        stopping += [live.timer for live in self.games.values() if live.timer is not None]
        for task in stopping:
            task.cancel()
        await asyncio.gather(*stopping, return_exceptions=True)

    # --- opening and loading games --------------------------------------------------------------
    async def create(
        self, request: NewGame, client: str = "", user: tuple[int, str] | None = None
    ) -> tuple[str, dict[str, str]]:
        """A new game (see :func:`.opening.plan`): its id and the creator's seat tokens; at most
        :data:`COMPUTER_GAMES` against the computer in play at once from one ``client``."""
        planned, tokens = opening.plan(request, user)
        if request.opponent == Mode.COMPUTER:
            self.quota.check(client, self.games)
        row = await self.open(planned)
        if request.opponent == Mode.COMPUTER:
            self.quota.add(client, row.id)
        return row.id, tokens

    async def open(self, planned: opening.Opening) -> GameRow:
        """Store and load a new game."""
        row, state = opening.build(planned, self.now())
        await self.store.add_game(row)
        if planned.rated and not planned.free:
            users = [u for u in planned.users.values() if u is not None]
            await ratings.ensure(self.store, users, row.game, row.clock)
        log.info(
            "game %s created: %s (%s), %s, white %s, black %s",
            *(row.id, row.game, row.rules, row.mode, row.white, row.black),
            extra=logs.game(row.id),
        )
        await self.cluster.follow(row.id)
        # (nothing was said before: every line said from now on reaches the game in memory)
        bots = await bots_among(self.store, planned.users.values())
        live = LiveGame(row, state, chat_read=set(ROOMS), bots=bots)
        self.games[row.id] = live
        self.after_change(live)
        return row

    async def get(self, game_id: str) -> LiveGame:
        """The live game with this id, loaded from the store if needed; 404 if unknown."""
        live = self.games.get(game_id)
        if live is not None:
            live.used = time.monotonic()
            return live
        async with self._loading:
            if game_id in self.games:
                return self.games[game_id]
            if len(game_id) > 32:
                raise ActionError(404, _("no game %(game_id)s", game_id=repr(game_id)))
            await self.cluster.follow(game_id)  # first: no change after the read goes unheard
            found = await self.cluster.read(game_id)
            if found is None:
                self.cluster.forget(game_id)
                raise ActionError(404, _("no game %(game_id)s", game_id=repr(game_id)))
            bots = await bots_among(self.store, (seat(c).user_of(found[0]) for c in COLOURS))
            live = LiveGame(found[0], replay(*found), used=time.monotonic(), bots=bots)
            self.games[game_id] = live
        # a game loaded from the store may be waiting for the computer, or have a clock running
        self.after_change(live)
        return live

    async def current(self, game_id: str) -> LiveGame:
        """The live game as :meth:`get` gives it, checked first against the store when other
        processes share it (see :meth:`.Cluster.catch_up`): a request right after a change
        acknowledged by another process sees that change, whichever process it reaches.  For
        requests (HTTP, a socket's start), not for the news and duties that keep a copy up to
        date."""
        live = await self.get(game_id)
        if await self.cluster.catch_up(live):
            self.behind.inc()
            live = await self.get(game_id)  # (loaded afresh if it left memory to catch up)
        return live

    async def resume(self) -> int:
        """Load the live games whose computer is to move and set it thinking; how many.  (Called
        once at start-up; it also reads the server's rematch key.)"""
        self.rematch_key = (await self.store.secret("rematch")).encode()
        count = 0
        for game_id in await self.store.attended():
            try:
                live = await self.get(game_id)
            except ActionError:
                continue  # logged; the other games carry on
            count += live.computer_to_move()
        return count

    # --- the one path of every change -----------------------------------------------------------
    async def act(
        self,
        game_id: str,
        token: str | None,
        intent: Intent,
        user: int | None = None,
        request: bool = False,
    ) -> None:
        """Carry out one intent of the holder of ``token`` (or of the signed-in ``user``);
        :class:`ActionError` if refused (and then nothing changed).  A ``request`` (HTTP) is
        checked against the game as stored (see :meth:`current`): a socket's intents answer
        what its process sent, which that process holds already."""
        live = await (self.current(game_id) if request else self.get(game_id))
        seats = live.seats(token, user)
        await self.carry_out(
            live,
            lambda: conduct.decide(live, seats, intent, Context(self.now(), self.rematch_key)),
        )

    async def join(
        self, game_id: str, name: str | None = None, user: tuple[int, str] | None = None
    ) -> tuple[Colour, str]:
        """Take the free seat of an online game (see :func:`.conduct.join`): (colour, token)."""
        name = user[1] if user else opening.display_name(name)
        live = await self.current(game_id)
        token = secrets.token_urlsafe(24)
        taken: list[Colour] = []
        joining = await bots_among(self.store, [user[0] if user else None])

        def decide() -> Change:
            colour, change = conduct.join(live, name, user, token, Context(self.now()))
            taken.append(colour)
            live.bots |= joining
            return change

        await self.carry_out(live, decide)
        return taken[0], token

    async def carry_out(
        self, live: LiveGame, decide: Callable[[], Change | None], tell: bool = True
    ) -> None:
        """Under the game's lock: ``decide()`` the change (None: nothing to do; it raises to
        refuse), store it, apply it; then (``tell``) set the game's duties and broadcast it."""
        async with live.lock:
            with self.timings.stage("check"):
                change = decide()
            if change is None:
                return
            await self._store(live, change)
            with self.timings.stage("apply"):
                conduct.apply(live, change)
            self.committed(live, change)
            if change.push is not None:
                self.moves.inc()
                self.last_move = time.monotonic()
            if change.note:
                log.info("game %s %s", live.row.id, change.note, extra=logs.game(live.row.id))
        if tell:
            self.after_change(live)
            self.broadcast(live, publish=True)

    async def _store(self, live: LiveGame, change: Change) -> None:
        """Store a change: committed (with a rated game's ratings settled, when it ends) before
        it counts; 409 if the game changed meanwhile through another process."""
        game_id, ply, fields = live.row.id, live.ply, change.fields
        settle = (
            functools.partial(ratings.settle, game_id=game_id)
            if change.outcome is not None and live.row.rated
            else None
        )
        try:
            if change.push is not None:
                await self.store.add_move(game_id, ply, str(change.push), then=settle, **fields)
            elif change.pop:
                await self.store.take_back(game_id, ply, ply - change.pop, **fields)
            elif change.outcome is not None:
                # only a game still in play at this ply ends: two processes ending it at once
                # (a flag seen by both) end it, and settle its ratings, once
                await self.store.finish(game_id, ply, then=settle, **fields)
            elif change.rematch is not None:
                if not await self.store.claim_rematch(game_id, change.rematch.game_id or ""):
                    self._drop(game_id)  # asked for elsewhere first
                    raise ActionError(
                        409, _("the rematch has already been started; reload the game")
                    )
                await self.open(change.rematch)
            else:
                await self.store.change(game_id, **fields)
                if change.rate:
                    await ratings.ensure(self.store, change.rate, live.row.game, live.row.clock)
        except StaleError:
            self._drop(game_id)
            raise ActionError(409, _("the game changed elsewhere; reload it")) from None

    def _drop(self, game_id: str) -> None:
        """Drop a game that changed elsewhere from memory, busy or not, with its lease and news
        (it is read afresh when next asked for)."""
        if self.games.pop(game_id, None) is not None:
            self.cluster.forget(game_id)

    async def claim(self, user: int, claims: list[tuple[str, str]]) -> int:
        """Give the account ``user`` the guest seats of ``claims`` (see :func:`.opening.claim`)."""
        return await opening.claim(self.store, self.games, user, claims)

    # --- watching -------------------------------------------------------------------------------
    def watch(
        self, live: LiveGame, watcher: Watcher, token: str | None, user: int | None = None
    ) -> None:
        """Start sending ``watcher`` the game, as the holder of ``token`` (or the signed-in
        ``user``) sees it (the whole view now, then updates); the others are told one more is
        watching (within :data:`CROWD_DELAY`)."""
        if watcher in live.watchers:  # (a hello again: its seats may change)
            live.watchers.discard(watcher)
            self.cluster.unwatching(live.row.id, watcher.seats)
        watcher.seats = live.seats(token, user)
        live.watchers.add(watcher)
        self.cluster.watching(live.row.id, watcher.seats)
        self._send(watcher, self.whole_view(live, watcher))
        self._crowd_changed(live)

    def whole_view(self, live: LiveGame, watcher: Watcher) -> str:
        """The whole view for a watcher that connected (or fell behind)."""
        return views.hello_text(live, watcher, self.rematch_key)

    def unwatch(self, live: LiveGame, watcher: Watcher) -> None:
        """Forget a closed connection (the others are told, within :data:`CROWD_DELAY`); a game
        nobody watches and nothing runs for leaves memory (see :meth:`evict`)."""
        if watcher in live.watchers:
            live.watchers.discard(watcher)
            self.cluster.unwatching(live.row.id, watcher.seats)
        if not self.evict(live):
            self._crowd_changed(live)

    def _crowd_changed(self, live: LiveGame) -> None:
        """Tell the watchers how many they are in :data:`CROWD_DELAY` (unless already due)."""
        if live.crowd is None:
            live.crowd = asyncio.get_running_loop().call_later(CROWD_DELAY, self._tell_crowd, live)

    def _tell_crowd(self, live: LiveGame) -> None:
        live.crowd = None
        if self.games.get(live.row.id) is live:  # (not if it left memory meanwhile)
            self.broadcast(live)

    def evict(self, live: LiveGame) -> bool:
        """Drop a game from memory, unless watched or busy (:attr:`.LiveGame.busy`);
        whether it was (it is reloaded from the store when next asked for)."""
        if not live.watchers and not live.busy and self.games.get(live.row.id) is live:
            del self.games[live.row.id]
            self.cluster.forget(live.row.id)
            return True
        return False

    def evict_idle(self, idle: float = IDLE_SECONDS) -> int:
        """Drop from memory the games nobody watches, nothing runs for and nobody asked for in
        ``idle`` seconds, whatever the transport that loaded them; how many."""
        limit = time.monotonic() - idle
        return sum(self.evict(live) for live in list(self.games.values()) if live.used <= limit)

    def broadcast(self, live: LiveGame, publish: bool = False) -> None:
        """Queue for every watcher what changed since the last broadcast; with ``publish``,
        after a committed change, tell the other processes too."""
        with self.timings.stage("fanout"):
            if publish:
                self.cluster.changed(live.row.id)
            for watcher, text in views.broadcast_texts(live, list(live.watchers), self.rematch_key):
                self._send(watcher, text)

    def _send(self, watcher: Watcher, text: str) -> None:
        """A game message: to a player at once (unless others wait for it in the outbox), to a
        spectator through the outbox."""
        if watcher.seats:
            watcher.push(text)
        else:
            self.outbox.post(watcher, text)

    def view(self, live: LiveGame, seats: frozenset[str]) -> GameView:
        """The whole view of the game for someone holding ``seats`` (for HTTP answers)."""
        return views.full_view(live, seats, self.rematch_key)

    def after_change(self, live: LiveGame) -> None:
        """Set the game's duties after it changed (see :meth:`.Duties.after_change`); a game
        over gets its report and is counted by the opening explorer; then the listeners."""
        self.duties.after_change(live)
        self.reports.game_changed(live)
        self.explorer.game_changed(live)
        for listener in self.listeners:
            listener(live)
