"""The tournaments service: creating, joining and withdrawing, and the running of each
tournament, its state in the store.

A tournament is upcoming until its start, when the scheduler (:meth:`Tournaments.run`, every
few seconds in every server process) starts it: a write conditional on its state, so one
process does it.  Each round is paired by a write conditional on the tournament's ``round``
column (from r to r+1, with the round's boards), so that of several processes (or two events
at once) one alone pairs it; its games are then opened through the hub as online games
between the two accounts, rated or not as the tournament is.  The hub tells the service of
every change of a game (``hub.listeners``): a tournament game over is recorded on its board,
and the tournament advances at once (Swiss and round robin: the next round once every game
of this one ended; arena: the players free again are paired).  The scheduler also records
what a listener may have missed (a game ended in another process, or before a restart),
opens a paired game that a crash left unopened, and ends arenas at their end time.

Joining: an upcoming tournament, or a running arena, or a running Swiss until half its
rounds are paired (a late entrant's missed rounds are zero-point byes); a round robin only
before it starts.  Withdrawing: from an upcoming tournament the entry goes; from a running
one the player is paired no more (in an arena, joining again resumes: a pause).
"""

from __future__ import annotations

import asyncio
import logging
import secrets
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from sqlalchemy import Connection, Select, and_, delete, func, insert, or_, select, update
from sqlalchemy.orm import Session

from ...i18n import _
from ..community.people import User, UserRow, bots_among
from ..community.ratings import RatingRow, category, current
from ..errors import ActionError
from ..play.clock import parse_control
from ..play.live import LiveGame
from ..play.opening import Opening
from ..schemas import Mode, Status
from ..store import GameRow
from . import catalogue
from .arena import pair_arena
from .berger import berger_round, berger_rounds
from .catalogue import FINISHED, RUNNING, UPCOMING
from .computer import level_entrant, seat_kind
from .rows import BoardRow, EntryRow, TournamentRow
from .schemas import (
    BoardView,
    PlayerTournament,
    StandingView,
    TournamentBody,
    TournamentBrief,
    TournamentView,
)
from .scoring import Board, Standing, standings
from .swiss import Entrant, NoPairing, pair_swiss

if TYPE_CHECKING:
    from ..community.bots import Bots
    from ..play.hub import Hub

__all__ = ["Tournaments"]

log = logging.getLogger("ludoteca.server")

#: a Swiss's pairing-allocated bye (FIDE and lichess: one point)
BYE_POINTS = 1.0


class Tournaments:
    """The tournaments kept in ``hub``'s store, their games opened through ``hub`` (whose
    clock, :meth:`~..play.hub.Hub.now`, is theirs: a test's makes time pass)."""

    def __init__(self, hub: Hub) -> None:
        self.hub = hub
        self.store = hub.store
        #: per tournament, the events of its watchers, set when this process changes it
        self.watchers: dict[str, set[asyncio.Event]] = {}
        hub.listeners.append(self._game_changed)

    # --- what people ask for --------------------------------------------------------------------
    async def create(self, body: TournamentBody, creator: int | None) -> str:
        """A new upcoming tournament (see :func:`.catalogue.create`): its id."""
        return await catalogue.create(self.store, body, creator, self.hub.now())

    async def join(self, tournament_id: str, user: User) -> None:
        """Enter ``user``; 409 if already in, full, over, or too late for its system.  The
        checks and the entry are one transaction holding the tournament's row (``FOR UPDATE``
        on PostgreSQL; SQLite's writers take turns), so that joins at once, from one process or
        several, never take more places than ``max_players`` nor enter a player twice."""
        known = await self._row(tournament_id)  # (its game and clock never change)
        rating = await self._rating(user.id, known.game, known.clock)

        def enter(c: Connection) -> None:
            session = Session(bind=c)  # (in the connection's transaction)
            row = session.scalars(
                select(TournamentRow).where(TournamentRow.id == tournament_id).with_for_update()
            ).one()
            entries = session.scalars(
                select(EntryRow).where(EntryRow.tournament_id == tournament_id)
            ).all()
            taken = sum(not entry.withdrawn for entry in entries)
            mine = next((entry for entry in entries if entry.user_id == user.id), None)
            refusal = _refusal(row, mine)
            if refusal is None and taken >= row.max_players:
                refusal = _("the tournament is full")
            if refusal is not None:
                raise ActionError(409, refusal)
            if mine is not None:
                c.execute(
                    update(EntryRow)
                    .where(EntryRow.tournament_id == tournament_id, EntryRow.user_id == user.id)
                    .values(withdrawn=False)
                )
                return
            values = {
                "tournament_id": tournament_id,
                "user_id": user.id,
                "name": user.name,
                "rating": rating,
                "joined": self.hub.now(),
                "first_round": row.round + 1 if row.state == RUNNING else 1,
                "withdrawn": False,
            }
            c.execute(insert(EntryRow).values(**values))

        await self.store.write(enter)
        await self._after(tournament_id)

    async def enter_level(self, tournament_id: str, user: User, level: int, bots: Bots) -> None:
        """Enter the computer's ``level`` (its bot account), as ``user`` asks: see
        :func:`.computer.level_entrant`, then as :meth:`join`."""
        row = await self._row(tournament_id)
        await self.join(tournament_id, await level_entrant(self.store, bots, row, user, level))

    async def withdraw(self, tournament_id: str, user: User) -> None:
        """Take ``user`` out (see the module's notes); 409 if not in it or it is over."""
        row = await self._row(tournament_id)
        if row.state == FINISHED:
            raise ActionError(409, _("the tournament is over"))
        mine = [e for e in await self._entries(tournament_id) if e.user_id == user.id]
        if not mine or mine[0].withdrawn:
            raise ActionError(409, _("you are not in this tournament"))
        where = (EntryRow.tournament_id == tournament_id) & (EntryRow.user_id == user.id)
        if row.state == UPCOMING:
            await self.store.write(lambda c: c.execute(delete(EntryRow).where(where)))
        else:
            await self.store.write(
                lambda c: c.execute(update(EntryRow).where(where).values(withdrawn=True))
            )
        self._touch(tournament_id)

    async def listing(self) -> list[TournamentBrief]:
        """The tournaments to list (see :func:`.catalogue.listing`)."""
        return await catalogue.listing(self.store)

    async def view(self, tournament_id: str) -> TournamentView:
        """A tournament with its standings and pairings; 404 if unknown."""
        row = await self._row(tournament_id)
        entries = await self._entries(tournament_id)
        boards = await self._boards(tournament_id)
        names = {e.user_id: e.name for e in entries}
        bots = await bots_among(self.store, names)
        lines = _standings(row, entries, boards)
        by_id = {e.user_id: e for e in entries}
        async with self.store.session() as session:
            creator = await session.get(UserRow, row.creator) if row.creator else None
        return TournamentView(
            **catalogue.brief(row, sum(not e.withdrawn for e in entries)).model_dump(),
            creator=creator.name if creator else None,
            standings=[
                StandingView(
                    rank=rank,
                    name=names[line.player],
                    bot=line.player in bots,
                    rating=by_id[line.player].rating,
                    points=line.points,
                    buchholz=line.buchholz,
                    buchholz_cut1=line.buchholz_cut1,
                    sonneborn_berger=line.sonneborn_berger,
                    performance=line.performance,
                    games=line.games,
                    streak=line.streak,
                    withdrawn=by_id[line.player].withdrawn,
                )
                for rank, line in enumerate(lines, 1)
            ],
            boards=[
                BoardView(
                    round=b.round,
                    white=names.get(b.white, "?"),
                    white_bot=b.white in bots,
                    black=None if b.black is None else names.get(b.black, "?"),
                    black_bot=b.black in bots,
                    result=b.result,
                    url=f"/game/{b.game_id}" if b.game_id else None,
                )
                for b in boards
            ],
        )

    async def of_player(self, name: str) -> list[PlayerTournament]:
        """The tournaments the account ``name`` played in (or is in), newest first, with its
        place; 404 for an unknown name."""
        async with self.store.session() as session:
            user_id = (
                await session.scalars(select(UserRow.id).where(UserRow.name_key == name.lower()))
            ).first()
            if user_id is None:
                raise ActionError(404, _("no player %(name)s", name=repr(name)))
            rows = list(
                await session.scalars(
                    select(TournamentRow)
                    .join(EntryRow, EntryRow.tournament_id == TournamentRow.id)
                    .where(EntryRow.user_id == user_id)
                    .order_by(TournamentRow.starts.desc())
                    .limit(50)
                )
            )
        found = []
        for row in rows:
            entries = await self._entries(row.id)
            lines = _standings(row, entries, await self._boards(row.id))
            rank, line = next((i, s) for i, s in enumerate(lines, 1) if s.player == user_id)
            found.append(
                PlayerTournament(
                    id=row.id,
                    url=f"/tournaments/{row.id}",
                    name=row.name,
                    system=row.system,
                    state=row.state,
                    rank=rank,
                    points=line.points,
                    players=len(entries),
                    starts=row.starts,
                )
            )
        return found

    def watch(self, tournament_id: str) -> asyncio.Event:
        """An event set whenever this process changes the tournament (see :meth:`unwatch`)."""
        event = asyncio.Event()
        self.watchers.setdefault(tournament_id, set()).add(event)
        return event

    def unwatch(self, tournament_id: str, event: asyncio.Event) -> None:
        """Forget an event of :meth:`watch`."""
        events = self.watchers.get(tournament_id, set())
        events.discard(event)
        if not events:
            self.watchers.pop(tournament_id, None)

    # --- the scheduler --------------------------------------------------------------------------
    async def run(self, every: float) -> None:
        """:meth:`tick` now and every ``every`` seconds (``settings.tournament_every``) until
        cancelled (a failure is logged)."""
        while True:
            try:
                await self.tick()
            except Exception:
                log.exception("the tournaments' scheduler failed")
            await asyncio.sleep(every)

    async def tick(self) -> None:
        """Start the tournaments due, record the tournament games over, open any game paired
        but not opened, and advance every running tournament that waits for it (pair, or
        finish: :func:`_waiting` finds them in one query); the pass is timed for
        ``/metrics``.  The event loop serves everyone else after each of these steps: on a
        SQLite file the store's reads and writes run at once, so a pass over twenty
        tournaments would otherwise hold the loop for all of them (a few ms each)."""
        with self.hub.timings.sweep("tournaments"):
            await self._tick()

    async def _tick(self) -> None:
        now = self.hub.now()
        async with self.store.session() as session:
            due = list(
                await session.scalars(
                    select(TournamentRow.id).where(
                        TournamentRow.state == UPCOMING, TournamentRow.starts <= now
                    )
                )
            )
            over = (
                await session.execute(
                    select(BoardRow.game_id, GameRow.result)
                    .join(GameRow, GameRow.id == BoardRow.game_id)
                    .join(TournamentRow, TournamentRow.id == BoardRow.tournament_id)
                    .where(
                        BoardRow.result == "*",
                        GameRow.status == Status.OVER.value,
                        TournamentRow.state == RUNNING,
                    )
                )
            ).all()
            unopened = list(
                await session.scalars(
                    select(BoardRow)
                    .join(TournamentRow, TournamentRow.id == BoardRow.tournament_id)
                    .outerjoin(GameRow, GameRow.id == BoardRow.game_id)
                    .where(
                        BoardRow.game_id.is_not(None),
                        GameRow.id.is_(None),
                        TournamentRow.state == RUNNING,
                    )
                )
            )
        for tournament_id in due:
            await self._start(tournament_id)
            await asyncio.sleep(0)
        for game_id, result in over:
            await self._record(game_id, result)
            await asyncio.sleep(0)
        for board in unopened:
            await self._open(await self._row(board.tournament_id), board)
            await asyncio.sleep(0)
        async with self.store.session() as session:
            waiting = list(await session.scalars(_waiting(self.hub.now())))
        for tournament_id in waiting:
            await self._advance(tournament_id)
            await asyncio.sleep(0)

    # --- running a tournament -------------------------------------------------------------------
    def _game_changed(self, live: LiveGame) -> None:
        """(A hub listener.)  A game over: record it if it is a tournament's, then advance."""
        if live.row.status == Status.OVER:
            self.hub.tasks.spawn(self._record(live.row.id, live.row.result))

    async def _record(self, game_id: str, result: str) -> None:
        """Put a game's result on its board of a running tournament (once), then advance."""
        async with self.store.session() as session:
            board = (
                await session.scalars(
                    select(BoardRow)
                    .join(TournamentRow, TournamentRow.id == BoardRow.tournament_id)
                    .where(
                        BoardRow.game_id == game_id,
                        BoardRow.result == "*",
                        TournamentRow.state == RUNNING,
                    )
                )
            ).first()
        if board is None:
            return
        await self.store.write(
            lambda c: c.execute(
                update(BoardRow)
                .where(BoardRow.id == board.id, BoardRow.result == "*")
                .values(result=result)
            )
        )
        await self._after(board.tournament_id)

    async def _after(self, tournament_id: str) -> None:
        """A tournament changed: advance it if running, and tell its watchers."""
        row = await self._row(tournament_id)
        if row.state == RUNNING:
            await self._advance(tournament_id)
        self._touch(tournament_id)

    def _touch(self, tournament_id: str) -> None:
        for event in self.watchers.get(tournament_id, ()):
            event.set()

    async def _start(self, tournament_id: str) -> None:
        """Start an upcoming tournament (one process does): a round robin's rounds are fixed
        now, by its players; with fewer than two players it is over at once."""
        row = await self._row(tournament_id)
        players = sum(not e.withdrawn for e in await self._entries(tournament_id))
        values: dict[str, Any] = {"state": RUNNING if players >= 2 else FINISHED}
        if row.system == "roundrobin" and players >= 2:
            values["rounds"] = berger_rounds(players)
        started = await self.store.write(
            lambda c: (
                c.execute(
                    update(TournamentRow)
                    .where(TournamentRow.id == tournament_id, TournamentRow.state == UPCOMING)
                    .values(**values)
                ).rowcount
            )
        )
        if started:
            log.info("tournament %s %s", tournament_id, values["state"])
            await self._after(tournament_id)

    async def _advance(self, tournament_id: str) -> None:
        """Pair what is due in a running tournament, or finish it."""
        row = await self._row(tournament_id)
        entries = await self._entries(tournament_id)
        # (a round paired since the row was read is left out: its pairing claimed the round)
        boards = [b for b in await self._boards(tournament_id) if b.round <= row.round]
        if row.system == "arena":
            if self.hub.now() >= (row.ends or 0):
                await self._finish(row)
                return
            pairs: list[tuple[int, int | None]] = list(_arena_pairs(row, entries, boards))
            if pairs:
                await self._pair(row, pairs)
            return
        if any(b.round == row.round and b.result == "*" for b in boards):
            return  # the round is being played
        if row.round >= (row.rounds or 0):
            await self._finish(row)
            return
        number = row.round + 1
        active = [e for e in _seeded(entries) if not e.withdrawn and e.first_round <= number]
        if row.system == "roundrobin":
            pairs = _round_robin_pairs(_seeded(entries), number)
        else:
            done = [_board(b) for b in boards]
            try:
                pairs = await asyncio.to_thread(
                    pair_swiss,
                    [Entrant(e.user_id, e.rating) for e in active],
                    done,
                    number,
                    row.rounds or 0,
                )
            except NoPairing:
                log.info("tournament %s: no pairing of round %d; it ends", row.id, number)
                pairs = []
        if len(active) < 2 or not pairs:
            await self._finish(row)
            return
        await self._pair(row, pairs, withdrawn={e.user_id for e in entries if e.withdrawn})

    async def _pair(
        self,
        row: TournamentRow,
        pairs: Sequence[tuple[int, int | None]],
        withdrawn: set[int] | None = None,
    ) -> None:
        """Store round ``row.round + 1`` (its boards from ``pairs``) if no one did first,
        then open its games.  A Swiss bye is worth :data:`BYE_POINTS`; a round robin's rest
        round nothing; a round robin's game against a player who withdrew is won without play."""
        number, gone = row.round + 1, withdrawn or set()
        values = []
        for white, black in pairs:
            value: dict[str, Any] = {
                "tournament_id": row.id,
                "round": number,
                "white": white,
                "black": black,
                "game_id": None,
                "result": "*",
                "bye": 0.0,
            }
            if black is None:
                value |= {"result": "bye", "bye": BYE_POINTS if row.system == "swiss" else 0.0}
            elif white in gone or black in gone:
                value["result"] = "0-1" if white in gone else "1-0"
            else:
                value["game_id"] = secrets.token_urlsafe(8)
            values.append(value)

        def work(connection: Connection) -> bool:
            claimed = connection.execute(
                update(TournamentRow)
                .where(
                    TournamentRow.id == row.id,
                    TournamentRow.round == row.round,
                    TournamentRow.state == RUNNING,
                )
                .values(round=number)
            ).rowcount
            if claimed:
                connection.execute(insert(BoardRow), values)
            return bool(claimed)

        if not await self.store.write(work):
            return  # paired elsewhere first
        log.info("tournament %s: round %d paired", row.id, number)
        for board in await self._boards(row.id, number):
            if board.game_id is not None:
                await self._open(row, board)
        self._touch(row.id)
        if any(v["game_id"] is None and v["result"] != "bye" for v in values):
            await self._after(row.id)  # (a round of forfeits only: on to the next)

    async def _open(self, row: TournamentRow, board: BoardRow) -> None:
        """Open a board's game (idempotent: a game already stored is left alone)."""
        assert board.game_id is not None and board.black is not None
        if await self.store.game(board.game_id) is not None:
            return
        names = {e.user_id: e.name for e in await self._entries(row.id)}
        bots = await bots_among(self.store, [board.white, board.black])
        opening = Opening(
            game=row.game,
            rules=row.rules,
            start=None,
            mode=Mode.ONLINE,
            kinds={
                colour: seat_kind(names[player], player in bots, row.game)
                for colour, player in (("white", board.white), ("black", board.black))
            },
            control=parse_control(row.clock),
            game_id=board.game_id,
            names={"white": names[board.white], "black": names[board.black]},
            users={"white": board.white, "black": board.black},
            rated=row.rated,
        )
        await self.hub.open(opening)

    async def _finish(self, row: TournamentRow) -> None:
        finished = await self.store.write(
            lambda c: (
                c.execute(
                    update(TournamentRow)
                    .where(TournamentRow.id == row.id, TournamentRow.state == RUNNING)
                    .values(state=FINISHED)
                ).rowcount
            )
        )
        if finished:
            log.info("tournament %s finished", row.id)
            self._touch(row.id)

    # --- reading --------------------------------------------------------------------------------
    async def _row(self, tournament_id: str) -> TournamentRow:
        async with self.store.session() as session:
            row = await session.get(TournamentRow, tournament_id[:16])
        if row is None:
            raise ActionError(404, _("no tournament %(id)s", id=repr(tournament_id)))
        return row

    async def _entries(self, tournament_id: str) -> list[EntryRow]:
        async with self.store.session() as session:
            return list(
                await session.scalars(
                    select(EntryRow)
                    .where(EntryRow.tournament_id == tournament_id)
                    .order_by(EntryRow.joined, EntryRow.user_id)
                )
            )

    async def _boards(self, tournament_id: str, number: int | None = None) -> list[BoardRow]:
        query = select(BoardRow).where(BoardRow.tournament_id == tournament_id)
        if number is not None:
            query = query.where(BoardRow.round == number)
        async with self.store.session() as session:
            return list(await session.scalars(query.order_by(BoardRow.round, BoardRow.id)))

    async def _rating(self, user_id: int, game: str, clock: str) -> int:
        """An account's rating for the game and time control (a new player's 1500 if none)."""
        async with self.store.session() as session:
            row = await session.get(RatingRow, (user_id, game, category(clock)))
        return round(current(row).rating) if row is not None else 1500


def _waiting(now: int) -> Select[str]:
    """The running tournaments that an advance would change, in one query: an arena past its
    end, or with two players free to play (in it, not withdrawn, no game in play); a Swiss or
    round robin whose round has no game in play (the next round is due, or the end).  Every
    game's end advances its tournament at once (:meth:`Tournaments._after`); the pass catches
    what that missed (a process stopped between the two), without reading every tournament's
    entries and boards each time."""
    tournament, entry, board = TournamentRow, EntryRow, BoardRow
    playing = (
        select(board.id)
        .where(
            board.tournament_id == entry.tournament_id,
            board.result == "*",
            or_(board.white == entry.user_id, board.black == entry.user_id),
        )
        .exists()
    )
    free = (
        select(func.count())
        .select_from(entry)
        .where(entry.tournament_id == tournament.id, entry.withdrawn.is_(False), ~playing)
        .scalar_subquery()
    )
    round_open = (
        select(board.id)
        .where(
            board.tournament_id == tournament.id,
            board.round == tournament.round,
            board.result == "*",
        )
        .exists()
    )
    arena = tournament.system == "arena"
    return select(tournament.id).where(
        tournament.state == RUNNING,
        or_(
            and_(arena, or_(tournament.ends <= now, free >= 2)),
            and_(~arena, ~round_open),
        ),
    )


def _refusal(row: TournamentRow, mine: EntryRow | None) -> str | None:
    """Why an account with the entry ``mine`` (None: never joined) may not join the
    tournament ``row`` now, if it may not (leaving aside the places left)."""
    if row.state == FINISHED:
        return _("the tournament is over")
    if mine is not None and not mine.withdrawn:
        return _("you are already in this tournament")
    if row.state == RUNNING and row.system == "roundrobin":
        return _("a round robin cannot be joined once it has started")
    if row.state == RUNNING and row.system == "swiss":
        if mine is not None:
            return _("you withdrew from this tournament")
        if row.round > (row.rounds or 0) // 2:
            return _("a Swiss can be joined until half its rounds have been paired")
    return None


def _seeded(entries: Sequence[EntryRow]) -> list[EntryRow]:
    """The entries in seeding order: rating, highest first, then who joined first."""
    return sorted(entries, key=lambda e: (-e.rating, e.joined, e.user_id))


def _board(row: BoardRow) -> Board:
    return Board(row.round, row.white, row.black, row.result, row.bye)


def _standings(
    row: TournamentRow, entries: Sequence[EntryRow], boards: Sequence[BoardRow]
) -> list[Standing]:
    seeded = _seeded(entries)
    return standings(
        [e.user_id for e in seeded],
        [_board(b) for b in boards],
        arena=row.system == "arena",
        ratings={e.user_id: e.rating for e in seeded},
        order=row.system,
    )


def _round_robin_pairs(seeded: Sequence[EntryRow], number: int) -> list[tuple[int, int | None]]:
    """Round ``number`` of the Berger table of the players (all who started, in seeding
    order: their Berger numbers), as account ids."""
    ids = [e.user_id for e in seeded]
    return [
        (ids[white - 1], None if black is None else ids[black - 1])
        for white, black in berger_round(len(ids), number)
    ]


def _arena_pairs(
    row: TournamentRow, entries: Sequence[EntryRow], boards: Sequence[BoardRow]
) -> list[tuple[int, int]]:
    """The arena's players free to play (in it, not withdrawn, no game in play), paired."""
    busy = {p for b in boards if b.result == "*" for p in (b.white, b.black)}
    free = [e.user_id for e in entries if not e.withdrawn and e.user_id not in busy]
    lines = _standings(row, entries, boards)
    last: dict[int, int] = {}
    for board in boards:
        if board.black is not None:
            last[board.white], last[board.black] = board.black, board.white
    return pair_arena(
        free,
        {line.player: line.points for line in lines},
        {e.user_id: e.rating for e in entries},
        last,
    )
