"""Live games: the engine state of each game in play, its seats, its watchers and its rules of
conduct (moves, resignation, draw offers, take-backs, hints, computer turns).

The hub is the server's only writer: every intent is checked against the engine under the game's
lock, stored, and only then applied in memory and sent to every connection watching the game.
"""

from __future__ import annotations

import asyncio
import datetime
import functools
import logging
import secrets
import time
from collections.abc import Awaitable, Callable, Mapping
from concurrent.futures import Executor
from typing import Any

from prometheus_client import CollectorRegistry, Counter, Gauge
from sqlalchemy import Connection

from ...ai.agents import Limit
from ...ai.levels import levels
from ...core import Color, LudotecaError, Outcome, RuleSet, State, Termination
from ...games import find_game, game_names, resolve
from ...record import dumps, from_state
from ...svg import board_view
from .. import logs
from ..cluster.fanout import Fanout
from ..community import chat, ratings
from ..community.seeks import SeekSpec
from ..computer.computer import REVIEW_LIMIT, Computer
from ..computer.queue import JobQueue
from ..errors import ActionError
from ..limits import RateLimit
from ..schemas import HUMAN, Intent, Mode, Move, Plain, Status
from ..store import GameRow, StaleError, Store
from . import views
from .clock import TimeControl, now_ms
from .live import LiveGame, Watcher, token_hash
from .views import COLOURS, SWAP, colour_name

__all__ = ["Hub"]

log = logging.getLogger("ludoteca.server")

IDLE_SECONDS = 300.0  # a game nobody watches or asks for leaves memory after this
#: a game without a move for this long is abandoned (ended, no result): against the computer,
#: and otherwise
ABANDONED_COMPUTER = datetime.timedelta(hours=1)
ABANDONED = datetime.timedelta(days=1)
COMPUTER_GAMES = 8  # games against the computer in play at once from one address


class Hub:
    """Every live game of this server process."""

    def __init__(
        self,
        store: Store,
        pool: Executor,
        review_limit: Limit = REVIEW_LIMIT,
        analysis: Executor | None = None,
        slots: int = 1,
        registry: CollectorRegistry | None = None,
        fanout: Fanout | None = None,
        queue: JobQueue | None = None,
    ) -> None:
        """``pool`` (``slots`` processes) plays the computer's moves; ``analysis`` (one
        process; default: the same pool) answers hints, reviews and record replays, so that
        what people ask for never queues in front of a computer move.  Metrics go to
        ``registry``.  With ``fanout`` (Redis) this process is one of several: changes are
        published to the others and theirs read back, and a game's duties (clock, computer
        turn) are done by the holder of its lease; with ``queue`` the computer's moves are
        thought out by ``ludoteca worker`` processes instead of ``pool``."""
        self.store = store
        self.fanout = fanout
        registry = registry or CollectorRegistry()
        self.computer = Computer(pool, slots, analysis or pool, review_limit, registry, queue)
        self.moves = Counter("ludoteca_moves", "Moves played", registry=registry)
        Gauge("ludoteca_games_in_memory", "Games held in memory", registry=registry).set_function(
            lambda: len(self.games)
        )
        self.games: dict[str, LiveGame] = {}
        self.tasks: set[asyncio.Task[None]] = set()
        #: per client address, the games against the computer it created (pruned as they end)
        self._computer_games: dict[str, set[str]] = {}
        #: the key that derives the seat tokens of rematches (from the store; see ``resume``)
        self._rematch_key = b""
        self._loading = asyncio.Lock()
        self.chat_limit = RateLimit(chat.LINES_PER_WINDOW, chat.WINDOW)

    async def close(self) -> None:
        """Stop computer turns and clock timers (the server is shutting down), and wait until
        they have unwound, so that none is still using the store when it closes."""
        stopping: list[asyncio.Task[None]] = list(self.tasks)
        stopping += [live.timer for live in self.games.values() if live.timer is not None]
        for task in stopping:
            task.cancel()
        await asyncio.gather(*stopping, return_exceptions=True)

    # --- catalogue ------------------------------------------------------------------------
    @staticmethod
    def catalogue() -> list[dict[str, Any]]:
        """Each game with its summary and rule sets; each rule set with its settings, computer
        levels (with ratings) and starting picture."""
        out = []
        for name in game_names():
            game = find_game(name)
            rule_sets = []
            for definition in game.rule_sets:
                rules = game.rules(definition.name)
                state = game.new(rules, seed=0)
                rule_sets.append(
                    {
                        "name": definition.name,
                        "title": game.title_of(rules),
                        "description": definition.description,
                        "settings": {
                            k: v
                            for k, v in definition.defaults.items()
                            if not game.options or k in game.options
                        },
                        "options": {
                            k: game.options.get(k, k.replace("_", " ")) for k in definition.defaults
                        },
                        "levels": Hub.levels(rules),
                        "board": board_view(state),
                        "pieces": state.pieces(),
                    }
                )
            out.append(
                {"name": name, "title": game.title, "summary": game.summary, "rule_sets": rule_sets}
            )
        return out

    @staticmethod
    def levels(rules: RuleSet) -> list[dict[str, Any]]:
        """The computer levels the server plays for a rule set, with their ratings."""
        return [_level_dict(level) for level in levels(rules)]

    # --- creating, loading, joining -----------------------------------------------------------
    async def create(
        self,
        game: str,
        rules: str | None,
        opponent: str,
        colour: str,
        level: int | None,
        position: str | None,
        clock: str | None = None,
        client: str = "",
        name: str | None = None,
        user: tuple[int, str] | None = None,
        rated: bool = False,
    ) -> tuple[str, dict[str, str]]:
        """A new game; its id and the seat tokens of its creator (colour name -> token), who
        may give a display ``name``, or be signed in (``user``: id and name; the seat is then
        the account's too).  A ``rated`` game is an online game between two accounts.  One
        ``client`` (address) has at most :data:`COMPUTER_GAMES` games against the computer in
        play at once."""
        name = user[1] if user else display_name(name)
        if rated and (opponent != Mode.ONLINE or user is None or position):
            raise ActionError(
                400,
                "a rated game is an online game from the usual start between two signed-in players",
            )
        try:
            game_cls, ruleset = resolve(game, rules or None)
            start = game_cls.from_position_code(position.strip(), ruleset) if position else None
            control = TimeControl.parse(clock) if clock else None
        except (LudotecaError, ValueError) as error:
            raise ActionError(400, str(error)) from None
        if control and opponent == Mode.COMPUTER:
            raise ActionError(400, "clocks are for games between people")
        if opponent not in set(Mode):
            raise ActionError(400, f"opponent is one of {', '.join(Mode)}, not {opponent!r}")
        if colour == "random":
            colour = secrets.choice(["white", "black"])
        if colour not in COLOURS:
            raise ActionError(400, f"colour is white, black or random, not {colour!r}")
        other = "black" if colour == "white" else "white"
        kinds = {"white": HUMAN, "black": HUMAN}
        token = secrets.token_urlsafe(24)
        tokens = {colour: token}
        if opponent == Mode.COMPUTER:
            ladder = levels(ruleset)
            number = level or 1
            if not 1 <= number <= len(ladder):
                raise ActionError(400, f"{game_cls.title} has levels 1 to {len(ladder)}")
            kinds[other] = f"level:{number}"
            mine = {
                g
                for g in self._computer_games.get(client, set())
                if g in self.games and self.games[g].row.status == Status.LIVE
            }
            if len(mine) >= COMPUTER_GAMES:
                raise ActionError(
                    429,
                    f"at most {COMPUTER_GAMES} games against the computer at "
                    "once from one address; finish or resign one first",
                )
            self._computer_games[client] = mine
        elif opponent == Mode.HOTSEAT:
            tokens[other] = token
        names = {colour: name} if name and opponent != Mode.HOTSEAT else {}
        users = {c: user[0] for c in tokens} if user else {}
        row = await self._open(
            game_cls.name,
            str(ruleset),
            start,
            opponent,
            kinds,
            tokens,
            control,
            names=names,
            users=users,
            rated=rated,
        )
        if opponent == Mode.COMPUTER:
            self._computer_games[client].add(row.id)
        return row.id, tokens

    async def _open(
        self,
        game: str,
        rules: str,
        start: State | None,
        mode: str,
        kinds: dict[str, str],
        tokens: dict[str, str],
        control: TimeControl | None,
        game_id: str | None = None,
        names: Mapping[str, str | None] | None = None,
        users: Mapping[str, int | None] | None = None,
        rated: bool = False,
    ) -> GameRow:
        """Store and load a new game (from ``start``, or the usual start with a fresh setup);
        ``tokens`` and ``users`` give the seats already taken (by a token, an account),
        ``names`` their players' display names."""
        names, users = names or {}, users or {}
        game_cls, ruleset = resolve(game, rules)
        state = start or game_cls.new(ruleset, seed=secrets.randbits(32))
        hashes = {name: token_hash(tokens[name]) if name in tokens else None for name in COLOURS}
        free = any(hashes[c] is None and users.get(c) is None for c in COLOURS)
        row = GameRow(
            id=game_id or secrets.token_urlsafe(8),
            game=game,
            rules=rules,
            setup=None if start else getattr(state, "setup", None),
            position=state.start if start else None,
            mode=mode,
            white=kinds["white"],
            black=kinds["black"],
            white_token=hashes["white"],
            black_token=hashes["black"],
            white_user=users.get("white"),
            black_user=users.get("black"),
            rated=rated,
            status=Status.WAITING if free and mode == Mode.ONLINE else Status.LIVE,
            ply=0,
            result="*",
            clock=str(control) if control else None,
            white_ms=control.start_ms if control else None,
            black_ms=control.start_ms if control else None,
            white_name=names.get("white"),
            black_name=names.get("black"),
        )
        # clocks start with the first move: nobody is charged before the game has begun
        await self.store.add_game(row)
        if rated and not free:
            await ratings.ensure(
                self.store, [u for u in users.values() if u is not None], game, row.clock
            )
        log.info(
            "game %s created: %s (%s), %s, white %s, black %s",
            row.id,
            row.game,
            row.rules,
            mode,
            row.white,
            row.black,
            extra=logs.game(row.id),
        )
        live = LiveGame(row, state)
        self.games[row.id] = live
        self._after_change(live)
        return row

    async def open_between(
        self, spec: SeekSpec, white: tuple[int, str], black: tuple[int, str], game_id: str
    ) -> None:
        """Open an online game between two accounts (an accepted seek), under ``game_id``."""
        game_cls, ruleset = resolve(spec.game, spec.rules)
        control = TimeControl.parse(spec.clock) if spec.clock else None
        await self._open(
            game_cls.name,
            str(ruleset),
            None,
            Mode.ONLINE,
            {"white": HUMAN, "black": HUMAN},
            {},
            control,
            game_id,
            names={"white": white[1], "black": black[1]},
            users={"white": white[0], "black": black[0]},
            rated=spec.rated,
        )

    async def get(self, game_id: str) -> LiveGame:
        """The live game with this id, loaded from the store if needed; 404 if unknown."""
        live = self.games.get(game_id)
        if live is not None:
            live.used = time.monotonic()
            return live
        async with self._loading:
            if game_id in self.games:
                return self.games[game_id]
            found = await self.store.game(game_id) if len(game_id) <= 32 else None
            if found is None:
                raise ActionError(404, f"no game {game_id!r}")
            row, moves = found
            try:
                state = _start(row)
                for move in moves:
                    state.push(move)
            except LudotecaError as error:  # a stored game the engine no longer accepts
                log.error(
                    "game %s cannot be replayed: %s", game_id, error, extra=logs.game(game_id)
                )
                raise ActionError(500, f"game {game_id!r} cannot be replayed: {error}") from None
            live = LiveGame(row, state, used=time.monotonic())
            self.games[game_id] = live
        # a game loaded from the store may be waiting for the computer, or have a clock running
        self._after_change(live)
        return live

    async def resume(self) -> int:
        """Load the live games whose computer is to move and set it thinking; how many.  (Called
        once at start-up; it also reads the server's rematch key.)"""
        self._rematch_key = (await self.store.secret("rematch")).encode()
        count = 0
        for game_id in await self.store.attended():
            try:
                live = await self.get(game_id)
            except ActionError:
                continue  # logged; the other games carry on
            count += live.computer_to_move()
        return count

    async def join(
        self, game_id: str, name: str | None = None, user: tuple[int, str] | None = None
    ) -> tuple[str, str]:
        """Take the free seat of an online game (under a display ``name``, or as the signed-in
        ``user``): (colour, token); 409 if none is free, 403 for a rated game without an
        account."""
        name = user[1] if user else display_name(name)
        live = await self.get(game_id)
        async with live.lock:
            row = live.row
            if row.status != Status.WAITING:
                raise ActionError(409, "this game has no free seat; you can watch it")
            if row.rated and user is None:
                raise ActionError(403, "sign in to play a rated game")
            if user is not None and user[0] in (row.white_user, row.black_user):
                raise ActionError(409, "you already hold the other seat of this game")
            colour = "white" if row.white_token is None and row.white_user is None else "black"
            token = secrets.token_urlsafe(24)
            changes: dict[str, Any] = {
                "status": Status.LIVE,
                f"{colour}_token": token_hash(token),
                f"{colour}_name": name,
                f"{colour}_user": user[0] if user else None,
            }
            await self.store.change(game_id, **changes)
            _update(live.row, changes)
            if row.rated and row.white_user is not None and row.black_user is not None:
                await ratings.ensure(
                    self.store, [row.white_user, row.black_user], row.game, row.clock
                )
        log.info("game %s: a player joined as %s", game_id, colour, extra=logs.game(game_id))
        self._after_change(live)
        self.broadcast(live, publish=True)
        return colour, token

    async def claim(self, user: tuple[int, str], claims: list[tuple[str, str]]) -> int:
        """Give the account ``user`` the guest seats of ``claims`` ((game id, seat token)
        pairs a browser holds) still held by no account; how many seats it got."""
        count = 0
        for game_id, token in claims:
            digest = token_hash(token)
            for colour in COLOURS:
                taken = await self.store.claim(game_id, colour, digest, user[0])
                live = self.games.get(game_id)
                if taken and live is not None:
                    _update(live.row, {f"{colour}_user": user[0]})
                count += taken
        return count

    # --- watching -----------------------------------------------------------------------------
    def watch(
        self, live: LiveGame, watcher: Watcher, token: str | None, user: int | None = None
    ) -> None:
        """Start sending ``watcher`` the game, as the holder of ``token`` (or the signed-in
        ``user``) sees it (the whole view now, then updates); the others are told one more is
        watching."""
        if watcher in live.watchers:
            live.watchers.discard(watcher)
        watcher.seats = live.seats(token, user)
        live.watchers.add(watcher)
        self.broadcast(live, skip=watcher)
        watcher.push(views.hello_text(live, watcher, self._rematch_key))

    def whole_view(self, live: LiveGame, watcher: Watcher) -> str:
        """The whole view for a watcher that fell behind."""
        return views.hello_text(live, watcher, self._rematch_key)

    def unwatch(self, live: LiveGame, watcher: Watcher) -> None:
        """Forget a closed connection; a game nobody watches and nothing runs for (computer
        turn, clock, analysis) leaves memory, to be reloaded from the store when next asked."""
        live.watchers.discard(watcher)
        self._evict(live)

    def _evict(self, live: LiveGame) -> bool:
        busy = (
            live.thinking_for is not None
            or live.timer is not None
            or (live.review is not None and not live.review.done())
            or (live.hint is not None and not live.hint[1].done())
        )
        if not live.watchers and not busy and self.games.get(live.row.id) is live:
            del self.games[live.row.id]
            if self.fanout is not None and live.row.id in self.fanout.held:
                self._background(self.fanout.release(live.row.id))
            return True
        return False

    def evict_idle(self, idle: float = IDLE_SECONDS) -> int:
        """Drop from memory the games nobody watches, nothing runs for and nobody asked for in
        ``idle`` seconds, whatever the transport that loaded them; how many."""
        limit = time.monotonic() - idle
        return sum(self._evict(live) for live in list(self.games.values()) if live.used <= limit)

    async def sweep(self, every: float = 60.0) -> None:
        """Every ``every`` seconds, until cancelled (runs for the server): evict idle games, and
        end the abandoned ones (:meth:`abandon`)."""
        while True:
            await asyncio.sleep(every)
            dropped = self.evict_idle()
            if dropped:
                log.info("%d idle games left memory; %d stay", dropped, len(self.games))
            await self.abandon()

    async def abandon(self) -> list[str]:
        """End the games without a move for :data:`ABANDONED` (:data:`ABANDONED_COMPUTER`
        against the computer), except those in memory (someone is watching or just asked)."""
        ids = await self.store.abandon(ABANDONED, ABANDONED_COMPUTER, keep=list(self.games))
        if ids:
            log.info("%d abandoned games ended", len(ids))
        return ids

    def broadcast(self, live: LiveGame, skip: Watcher | None = None, publish: bool = False) -> None:
        """Queue for every watcher (but ``skip``) what changed since the last broadcast; with
        ``publish``, after a committed change, tell the other processes too."""
        if publish and self.fanout is not None:
            self._background(self.fanout.changed(live.row.id))
        watchers = [w for w in live.watchers if w is not skip]
        for watcher, text in views.broadcast_texts(live, watchers, self._rematch_key):
            watcher.push(text)

    def view(self, live: LiveGame, seats: frozenset[str]) -> dict[str, Any]:
        """The whole view of the game for someone holding ``seats`` (for HTTP answers)."""
        return views.full_view(live, seats, self._rematch_key)

    # --- intents ------------------------------------------------------------------------------
    async def act(
        self, game_id: str, token: str | None, intent: Intent, user: int | None = None
    ) -> None:
        """Carry out one intent of the holder of ``token`` (or of the signed-in ``user``);
        :class:`ActionError` if refused (and then nothing changed)."""
        live = await self.get(game_id)
        kind = intent.type
        handlers: dict[str, Callable[[LiveGame, frozenset[str], Any], Awaitable[None]]] = {
            "move": self._move,
            "resign": self._resign,
            "offer_draw": self._offer_draw,
            "accept_draw": self._accept_draw,
            "decline_draw": self._decline,
            "undo": self._undo,
            "accept_undo": self._accept_undo,
            "decline_undo": self._decline,
            "rematch": self._rematch,
            "cancel": self._cancel,
        }
        seats = live.seats(token, user)
        if not seats:
            raise ActionError(403, "you do not hold a seat in this game (watching only)")
        async with live.lock:
            await handlers[kind](live, seats, intent)
        self._after_change(live)
        self.broadcast(live, publish=True)

    def _mover(self, live: LiveGame, seats: frozenset[str]) -> Color:
        """The colour this seat holder acts for: the side to move when it holds both seats."""
        if len(seats) == 2:
            return live.state.turn
        return COLOURS[next(iter(seats))]

    @staticmethod
    def _require_live(live: LiveGame) -> None:
        if live.row.status == Status.WAITING:
            raise ActionError(409, "the game has not started: the other seat is still free")
        if live.row.status != Status.LIVE:
            raise ActionError(409, "the game is over")

    async def _move(self, live: LiveGame, seats: frozenset[str], intent: Move) -> None:
        self._require_live(live)
        if colour_name(live.state.turn) not in seats or live.kind(live.state.turn) != HUMAN:
            raise ActionError(409, f"it is {live.state.turn.title}'s turn, not yours")
        await self._play(live, intent.move, intent.ply)

    async def _play(self, live: LiveGame, text: str, ply: int) -> None:
        if ply != live.ply:
            raise ActionError(
                409,
                "the position has changed since this move was chosen; "
                "the board now shows the current position",
            )
        state = live.state
        try:
            # the legal moves the player was shown, if any (the computer's turns have none):
            # otherwise the engine checks the move (and says why it is not legal)
            shown = views.known_legal_codes(live)
            move = state.read_move(text)
            if shown is None or move.code not in shown:
                move = state.parse_move(text)
        except LudotecaError as error:
            raise ActionError(400, str(error)) from None
        changes: dict[str, Any] = {"draw_offer": None, "undo_offer": None}
        if live.row.clock:
            now = now_ms()
            if live.row.clock_started is not None:  # the first move is not timed
                left = live.time_left(live.state.turn, now)
                if left <= 0:
                    await self._flag(live)
                    return
                control = TimeControl.parse(live.row.clock)
                changes[f"{colour_name(live.state.turn)}_ms"] = left + control.increment_ms
            changes["clock_started"] = now
        state.push_code(move.code)  # to see whether it ends the game; stored before it counts
        outcome = state.outcome()
        state.pop_code()
        if outcome is not None:
            changes |= _ending(outcome)
        try:
            await self.store.add_move(
                live.row.id, ply, str(move), then=self._settle(live) if outcome else None, **changes
            )
        except StaleError:
            self.games.pop(live.row.id, None)
            raise ActionError(409, "the game changed elsewhere; reload it") from None
        state.push_code(move.code)
        self.moves.inc()
        live.version += 1
        _update(live.row, changes)
        if outcome is not None:
            log.info(
                "game %s over: %s %s",
                live.row.id,
                outcome.result,
                outcome.explain(),
                extra=logs.game(live.row.id),
            )

    async def _flag(self, live: LiveGame) -> None:
        """End the game: the side to move ran out of time."""
        await self._finish(live, Outcome(Termination.TIME_FORFEIT, Color(1 - live.state.turn)))

    async def _finish(self, live: LiveGame, outcome: Outcome) -> None:
        changes = _ending(outcome)
        if live.row.clock and live.row.status == Status.LIVE:
            changes[f"{colour_name(live.state.turn)}_ms"] = max(
                live.time_left(live.state.turn, now_ms()), 0
            )
        try:
            # only a game still in play at this ply ends: two processes ending it at once (a
            # flag seen by both) end it, and settle its ratings, once
            await self.store.finish(
                live.row.id,
                live.ply,
                then=self._settle(live),
                draw_offer=None,
                undo_offer=None,
                **changes,
            )
        except StaleError:
            self.games.pop(live.row.id, None)
            raise ActionError(409, "the game changed elsewhere; reload it") from None
        _update(live.row, {"draw_offer": None, "undo_offer": None, **changes})
        log.info(
            "game %s over: %s %s",
            live.row.id,
            outcome.result,
            outcome.explain(),
            extra=logs.game(live.row.id),
        )

    @staticmethod
    def _settle(live: LiveGame) -> Callable[[Connection], None] | None:
        """The rating update for the transaction that ends a rated game (None if unrated)."""
        return functools.partial(ratings.settle, game_id=live.row.id) if live.row.rated else None

    async def _resign(self, live: LiveGame, seats: frozenset[str], intent: Plain) -> None:
        self._require_live(live)
        loser = self._mover(live, seats)
        await self._finish(live, Outcome(Termination.RESIGNATION, Color(1 - loser)))

    async def _cancel(self, live: LiveGame, seats: frozenset[str], intent: Plain) -> None:
        """Withdraw an online game no one has joined yet (it leaves the lobby; no result)."""
        if live.row.status != Status.WAITING:
            raise ActionError(
                409,
                "only a game still waiting for its second player can be "
                "cancelled; resign or offer a draw instead",
            )
        changes: dict[str, Any] = {
            "status": Status.OVER,
            "result": "*",
            "termination": "cancelled",
            "reason": "The game was cancelled before a second player joined.",
        }
        await self.store.change(live.row.id, **changes)
        _update(live.row, changes)

    async def _offer_draw(self, live: LiveGame, seats: frozenset[str], intent: Plain) -> None:
        self._require_live(live)
        mover = self._mover(live, seats)
        other = Color(1 - mover)
        if live.kind(other) != HUMAN:
            if live.state.evaluate() * (1 if live.state.turn is other else -1) > 0.1:
                raise ActionError(409, "the computer declines the draw")
            await self._finish(live, Outcome(Termination.DRAW_AGREED, None))
            return
        await self.store.change(live.row.id, draw_offer=colour_name(mover))
        live.row.draw_offer = colour_name(mover)

    def _offer(self, live: LiveGame, seats: frozenset[str], field: str) -> str:
        """The colour whose pending offer (``draw_offer``/``undo_offer``) these seats may
        answer; 409 if there is none or it is their own."""
        offer: str | None = getattr(live.row, field)
        if offer is None or seats == {offer}:
            what = "draw offer" if field == "draw_offer" else "take-back request"
            raise ActionError(409, f"there is no {what} to answer")
        return offer

    async def _accept_draw(self, live: LiveGame, seats: frozenset[str], intent: Plain) -> None:
        self._require_live(live)
        self._offer(live, seats, "draw_offer")
        await self._finish(live, Outcome(Termination.DRAW_AGREED, None))

    async def _accept_undo(self, live: LiveGame, seats: frozenset[str], intent: Plain) -> None:
        self._require_live(live)
        await self._take_back(live, COLOURS[self._offer(live, seats, "undo_offer")])

    async def _decline(self, live: LiveGame, seats: frozenset[str], intent: Plain) -> None:
        field = "draw_offer" if intent.type == "decline_draw" else "undo_offer"
        self._offer(live, seats, field)
        await self.store.change(live.row.id, **{field: None})
        setattr(live.row, field, None)

    async def _undo(self, live: LiveGame, seats: frozenset[str], intent: Plain) -> None:
        if live.row.mode == Mode.ONLINE:
            self._require_live(live)
            mover = self._mover(live, seats)
            if not self._moves_of(live, mover):
                raise ActionError(409, "you have no move to take back")
            await self.store.change(live.row.id, undo_offer=colour_name(mover))
            live.row.undo_offer = colour_name(mover)
            return
        self._require_live(live)
        if not live.state.move_stack:
            raise ActionError(409, "there is no move to take back")
        human = self._mover(live, seats) if live.row.mode == Mode.COMPUTER else None
        await self._take_back(live, human)

    def _moves_of(self, live: LiveGame, colour: Color) -> int:
        """How many moves must go for ``colour``'s last move to be taken back (0: none)."""
        probe = live.state.copy()
        count = 0
        while probe.move_stack:
            probe.pop_code()
            count += 1
            if probe.turn is colour:
                return count
        return 0

    async def _take_back(self, live: LiveGame, colour: Color | None) -> None:
        """Take back the last move (``colour`` None) or back to before ``colour``'s last move."""
        keep = live.ply - (1 if colour is None else self._moves_of(live, colour))
        if keep == live.ply:
            raise ActionError(409, "there is no move of yours to take back")
        changes: dict[str, Any] = {
            "status": Status.LIVE,
            "result": "*",
            "termination": None,
            "reason": None,
            "draw_offer": None,
            "undo_offer": None,
        }
        if live.row.clock:
            now = now_ms()
            if live.row.status == Status.LIVE:
                changes[f"{colour_name(live.state.turn)}_ms"] = live.time_left(live.state.turn, now)
            changes["clock_started"] = now
        try:
            await self.store.take_back(live.row.id, live.ply, keep, **changes)
        except StaleError:
            self.games.pop(live.row.id, None)
            raise ActionError(409, "the game changed elsewhere; reload it") from None
        while live.ply > keep:
            live.state.pop_code()
        live.version += 1
        _update(live.row, changes)

    async def _rematch(self, live: LiveGame, seats: frozenset[str], intent: Plain) -> None:
        row = live.row
        if row.status != Status.OVER:
            raise ActionError(409, "a rematch follows a finished game")
        if row.rematch:
            raise ActionError(409, "the rematch has already been started")
        kinds = {SWAP[name]: live.kind(colour) for name, colour in COLOURS.items()}
        # each player of this game gets the other colour in the rematch
        rematch_id = secrets.token_urlsafe(8)
        if not await self.store.claim_rematch(row.id, rematch_id):  # asked for elsewhere first
            self.games.pop(row.id, None)
            raise ActionError(409, "the rematch has already been started; reload the game")
        key = self._rematch_key
        tokens = {
            SWAP[name]: views.rematch_token(key, rematch_id, views.rematch_seat(live, name))
            for name in COLOURS
            if live.kind(COLOURS[name]) == HUMAN
        }
        start = _start(row) if row.position else None
        control = TimeControl.parse(row.clock) if row.clock else None
        names = {SWAP[name]: getattr(row, f"{name}_name") for name in COLOURS}
        users = {SWAP[name]: getattr(row, f"{name}_user") for name in COLOURS}
        await self._open(
            row.game,
            row.rules,
            start,
            row.mode,
            kinds,
            tokens,
            control,
            rematch_id,
            names,
            users,
            rated=bool(row.rated),
        )
        row.rematch = rematch_id

    # --- chat ---------------------------------------------------------------------------------
    async def say(
        self, live: LiveGame, watcher: Watcher, room: str, text: str, user: tuple[int, str] | None
    ) -> None:
        """Say a line in a room of the game: the players' room is the seat holders', the
        spectators' room everyone else's; sent to the room's watchers only."""
        seated = bool(watcher.seats)
        if (room == "players") != seated:
            raise ActionError(403, "players talk in the players' room, spectators in theirs")
        if not self.chat_limit.allow(str(id(watcher))):
            raise ActionError(
                429, f"at most {chat.LINES_PER_WINDOW} lines in {chat.WINDOW:.0f} seconds"
            )
        if user is not None:
            name = user[1]
        elif seated:
            name = " and ".join(views.player(live, c)["label"] for c in sorted(watcher.seats))
        else:
            name = "Spectator"
        message = await chat.say(
            self.store, live.row.id, room, user[0] if user else None, name, text
        )
        text_out = views.encode(message)
        for other in live.watchers:
            if bool(other.seats) == seated:
                other.push(text_out)
        if self.fanout is not None:
            self._background(self.fanout.said(live.row.id, message))

    async def chat_history(self, live: LiveGame, watcher: Watcher) -> dict[str, Any]:
        """The earlier lines of the watcher's room."""
        room = "players" if watcher.seats else "spectators"
        return {
            "type": "chat_history",
            "room": room,
            "lines": await chat.history(self.store, live.row.id, room),
        }

    # --- computer work ------------------------------------------------------------------------
    async def hint(
        self, game_id: str, token: str | None, user: int | None = None
    ) -> dict[str, Any]:
        """The computer's advice for the side to move, for a player of a computer game."""
        live = await self.get(game_id)
        return await self.computer.hint(live, live.seats(token, user))

    async def review(self, game_id: str) -> list[dict[str, Any]]:
        """The mistakes of a finished game (worked out once, in a worker process)."""
        return await self.computer.review(await self.get(game_id))

    def _after_change(self, live: LiveGame) -> None:
        """Set the computer thinking when it is its turn; set the flag of a running clock (in
        the process holding the game's lease, which is asked for first)."""
        if live.timer is not None:
            live.timer.cancel()
            live.timer = None
        duties = live.row.status == Status.LIVE and (
            bool(live.row.clock) or live.computer_to_move()
        )
        if self.fanout is not None and live.row.id not in self.fanout.held:
            if duties:
                self._background(self._lease_then_duties(live))
            return
        if self.fanout is not None and live.row.status == Status.OVER:
            self._background(self.fanout.release(live.row.id))
        if live.row.clock and live.row.status == Status.LIVE:
            left = live.time_left(live.state.turn, now_ms())
            live.timer = asyncio.get_running_loop().create_task(
                self._flag_later(live, live.ply, left)
            )
        if live.computer_to_move() and not live.thinking and live.failed_for != live.version:
            live.thinking_for = live.version
            task = asyncio.get_running_loop().create_task(self._computer(live, live.version))
            self.tasks.add(task)
            task.add_done_callback(self.tasks.discard)

    async def _lease_then_duties(self, live: LiveGame) -> None:
        assert self.fanout is not None
        if await self.fanout.acquire(live.row.id):
            self._after_change(live)

    def _background(self, work: Awaitable[None]) -> None:
        """Run ``work`` as a task of the hub's (kept until done, cancelled on close)."""

        async def run() -> None:
            try:
                await work
            except Exception:
                log.exception("background work failed")

        task = asyncio.get_running_loop().create_task(run())
        self.tasks.add(task)
        task.add_done_callback(self.tasks.discard)

    # --- other processes (with Redis) ----------------------------------------------------------
    async def changed_elsewhere(self, game_id: str) -> None:
        """Another process changed a game: read it back, if held here, and tell the watchers; a
        game held here only from before (no watchers, no duty of this process's) leaves memory
        instead, to be read when next asked."""
        live = self.games.get(game_id)
        if live is None:
            return
        if (self.fanout is None or game_id not in self.fanout.held) and self._evict(live):
            return
        async with live.lock:
            found = await self.store.game(game_id)
            if found is None:
                return
            row, moves = found
            _update(live.row, {c.key: getattr(row, c.key) for c in GameRow.__table__.columns})
            if [str(live.state.move_of(code)) for code in live.state.move_stack] != moves:
                state = _start(row)
                for move in moves:
                    state.push(move)
                live.state = state
            live.version += 1
        self._after_change(live)
        self.broadcast(live)

    def said_elsewhere(self, game_id: str, message: dict[str, Any]) -> None:
        """A chat line said through another process: to this process's watchers of its room."""
        live = self.games.get(game_id)
        if live is None:
            return
        text = views.encode(message)
        players = message.get("room") == "players"
        for watcher in live.watchers:
            if bool(watcher.seats) == players:
                watcher.push(text)

    async def adopt(self, every: float = 2.0) -> None:
        """Every ``every`` seconds (with Redis): take the lease of every live game that needs a
        process (a clock, the computer to move) and has none, and do its duties; so a dead
        process's games carry on."""
        assert self.fanout is not None
        while True:
            await asyncio.sleep(every)
            try:
                for game_id in await self.store.attended():
                    if game_id not in self.fanout.held and await self.fanout.acquire(game_id):
                        live = self.games.get(game_id)
                        if live is None:
                            await self.get(game_id)  # loading it does its duties
                        else:
                            await self.changed_elsewhere(game_id)
            except Exception as error:  # the database or Redis is away: try again
                log.warning("adopting games failed (%s); trying again", error)

    async def _flag_later(self, live: LiveGame, ply: int, left: int) -> None:
        await asyncio.sleep(max(left, 0) / 1000 + 0.02)
        async with live.lock:
            if (
                live.ply != ply
                or live.row.status != Status.LIVE
                or live.time_left(live.state.turn, now_ms()) > 0
            ):
                return
            try:
                await self._flag(live)
            except ActionError:
                return  # ended elsewhere meanwhile (another process): it reloads when asked
        self.broadcast(live, publish=True)

    async def _computer(self, live: LiveGame, version: int) -> None:
        """Think in a worker process; play the move if the position is still the same."""
        try:
            self.broadcast(live)
            text = await self.computer.move(live)
            async with live.lock:
                if live.version == version and live.computer_to_move():
                    await self._play(live, text, live.ply)
        except Exception:
            log.exception(
                "computer move failed in game %s", live.row.id, extra=logs.game(live.row.id)
            )
            live.failed_for = version
        if live.thinking_for == version:
            live.thinking_for = None
        self._after_change(live)
        self.broadcast(live, publish=True)

    # --- records --------------------------------------------------------------------------
    async def record(self, game_id: str) -> str:
        """The game's text record."""
        live = await self.get(game_id)
        row = live.row
        names = {name: views.player(live, name)["label"] for name in COLOURS}
        termination = Termination.from_label(row.termination) if row.termination else None
        return dumps(
            from_state(
                live.state,
                white=names["white"],
                black=names["black"],
                result=row.result if row.status == Status.OVER else None,
                termination=termination,
                extra={"Site": f"Ludoteca game {row.id}"},
            )
        )


def display_name(name: str | None) -> str | None:
    """A player's display name, tidied (spaces collapsed), or ``None`` for none given;
    :class:`ActionError` for one that is too long or holds control characters."""
    if name is None:
        return None
    tidy = " ".join(name.split())
    if not tidy:
        return None
    if len(tidy) > 24 or not tidy.isprintable() or any(c in tidy for c in '"[]\\'):
        raise ActionError(
            400,
            "a name is at most 24 printable characters, without quotes, brackets or backslashes",
        )
    return tidy


def _ending(outcome: Outcome) -> dict[str, Any]:
    return {
        "status": Status.OVER,
        "result": outcome.result,
        "termination": outcome.termination.label,
        "reason": outcome.explain(),
    }


def _update(row: GameRow, changes: dict[str, Any]) -> None:
    for key, value in changes.items():
        setattr(row, key, value)


def _start(row: GameRow) -> State:
    game_cls, rules = resolve(row.game, row.rules)
    if row.position:
        return game_cls.from_position_code(row.position, rules)
    return game_cls.new(rules, setup=row.setup)


def _level_dict(level: Any) -> dict[str, Any]:
    return {
        "number": level.number,
        "description": level.description,
        "rating": None if level.rating is None else round(level.rating[0]),
        "error": None if level.rating is None else round(level.rating[1]),
    }
