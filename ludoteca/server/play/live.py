"""A game in memory while it is played or watched, and the connections watching it.

:class:`LiveGame` holds the stored row, the engine state after its moves and the work under
way for it (the computer's turn, the clock's flag timer, a hint);
:class:`Watcher` is one open connection with its own queue of outgoing messages.
"""

from __future__ import annotations

import asyncio
import hashlib
import hmac
from collections import deque
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from ...core import Color, State
from ...i18n import current
from ..store import GameRow
from .seats import COLOURS, seat

if TYPE_CHECKING:
    from ..schemas import ChatMessage, HintView
    from .outbox import Outbox
    from .views import RematchValues, SharedValues

__all__ = ["BACKLOG", "LiveGame", "Watcher", "token_hash"]

#: messages a connection may fall behind before it is sent the whole view instead
BACKLOG = 256


def token_hash(token: str) -> str:
    """How a seat token is stored (its SHA-256, hex)."""
    return hashlib.sha256(token.encode()).hexdigest()


@dataclass(eq=False)
class Watcher:
    """One open connection to a game: the seats its token holds and its outgoing messages.

    Messages wait in the connection's own queue, sent by the connection's own task
    (:meth:`pump`), so a slow client delays no one.  A client that falls :data:`BACKLOG`
    messages behind loses them and is sent the whole view instead, once it reads again.  With
    ``send_now`` (the server's ``ludoteca.send_now`` extension, see :mod:`..websocket`) a
    message is written at once when nothing waits before it and the connection can take it.
    A spectator's game messages wait in the hub's outbox first (see :mod:`.outbox`).
    """

    seats: frozenset[str] = frozenset()
    #: the language its texts are sent in (the connection's, see :mod:`ludoteca.i18n`)
    language: str = field(default_factory=current)
    queue: deque[str] = field(default_factory=deque)
    wake: asyncio.Event = field(default_factory=asyncio.Event)
    #: the queue overflowed: the next message is the whole view
    behind: bool = False
    #: what the last message told this watcher: whether it had legal moves, its rematch
    had_legal: bool = False
    rematch: RematchValues | None = None
    #: writes a message now if the connection can take it, whether it did (never waits)
    send_now: Callable[[str], bool] | None = None
    #: the pump is sending (a message written now would overtake the one in flight)
    sending: bool = False
    #: its messages waiting in an outbox (see :mod:`.outbox`): later ones wait there too
    deferred: int = 0
    outbox: Outbox | None = None

    def push(self, text: str) -> None:
        """Send a message after those waiting for this connection in an outbox, else now, or
        queue it (never waits)."""
        if self.deferred and self.outbox is not None:
            self.outbox.post(self, text)
        else:
            self.write(text)

    def write(self, text: str) -> None:
        """Send a message now, or queue it (never waits)."""
        if (
            self.send_now is not None
            and not self.sending
            and not self.queue
            and not self.behind
            and self.send_now(text)
        ):
            return
        if len(self.queue) >= BACKLOG:
            self.fall_behind()
        else:
            self.queue.append(text)
            self.wake.set()

    def fall_behind(self) -> None:
        """Drop the queued messages: the next one sent is the whole view."""
        self.queue.clear()
        self.behind = True
        self.wake.set()

    async def pump(self, send: Callable[[str], Awaitable[None]], whole: Callable[[], str]) -> None:
        """Send queued messages with ``send`` until cancelled or the connection fails;
        ``whole()`` makes the whole view for a watcher that fell behind."""
        while True:
            await self.wake.wait()
            self.wake.clear()
            self.sending = True
            try:
                while self.queue or self.behind:
                    if self.behind:  # what is queued is relative to views it never saw
                        self.behind = False
                        self.queue.clear()
                        text = whole()
                    else:
                        text = self.queue.popleft()
                    await send(text)
            except Exception:  # the connection is gone: its reader sees it close
                return
            finally:
                self.sending = False


@dataclass(eq=False)
class LiveGame:
    """A game in memory: its stored row, the engine state after its moves, and its watchers."""

    row: GameRow
    state: State
    lock: asyncio.Lock = field(default_factory=asyncio.Lock)
    watchers: set[Watcher] = field(default_factory=set)
    version: int = 0  # counts changes of the position (moves and take-backs)
    thinking_for: int | None = None  # the version the computer is thinking about
    failed_for: int | None = None  # the version the computer could not move in (logged)
    failing: int | None = None  # the version whose computer moves failed ``failures`` times
    failures: int = 0
    timer: asyncio.Task[None] | None = None
    #: the watchers are to be told how many they are (see ``Hub.watch``)
    crowd: asyncio.TimerHandle | None = None
    #: the hint being worked out, and the position version it is for (one at a time a game)
    hint: tuple[int, asyncio.Future[HintView]] | None = None
    #: when the game was last asked for (monotonic seconds), for idle eviction
    used: float = 0.0
    #: per language, the shared view (JSON values, see ``views.shared_view``) as last sent to
    #: the watchers who read it (updates are worked out against it)
    sent: dict[str, SharedValues] = field(default_factory=dict)
    #: the version of the position, its legal moves as the page uses them, and their codes
    legal: tuple[int, list[str], set[int]] | None = None
    #: the moves played and their labels in the move list (see ``State.move_label``)
    label_codes: list[int] = field(default_factory=list)
    label_texts: list[str] = field(default_factory=list)
    label_notes: list[str] = field(default_factory=list)
    #: who made each of those moves (the same side moves again after a removal-only turn's
    #: move, as in Da San Qi)
    label_movers: list[Color] = field(default_factory=list)
    #: per chat room, its last lines (the chat's ``HISTORY``) as told while the game is in
    #: memory, and, once read for a room's first watcher, the stored ones before them
    chat: dict[str, list[ChatMessage]] = field(default_factory=dict)
    chat_read: set[str] = field(default_factory=set)
    #: seats already worked out per token (cleared when the seats change hands)
    seat_memo: dict[tuple[str, str | None, str | None], frozenset[str]] = field(
        default_factory=dict
    )
    #: the bot accounts holding seats (shown "BOT"), read when the game is loaded or joined
    bots: frozenset[int] = frozenset()

    def move_labels(self) -> list[str]:
        """The moves played, as the move list shows them (a new list; kept up to date with
        take-backs; a label is worked out once, on the position before its move)."""
        stack = self.state.move_stack
        codes, texts, notes = self.label_codes, self.label_texts, self.label_notes
        movers = self.label_movers
        keep = len(codes)
        if keep > len(stack) or codes != stack[:keep]:
            keep = 0
            while keep < min(len(stack), len(codes)) and codes[keep] == stack[keep]:
                keep += 1
            del codes[keep:], texts[keep:], notes[keep:], movers[keep:]
        if keep < len(stack):
            state = self.state
            added = stack[keep:]
            for _ in added:
                state.pop_code()
            for code in added:
                codes.append(code)
                texts.append(state.move_label(code))
                notes.append(state.move_note(code))
                movers.append(state.turn)
                state.push_code(code)
        return list(texts)

    def last_note(self) -> str:
        """What the last move did beyond moving (``State.move_note``), or ``""``."""
        self.move_labels()
        return self.label_notes[-1] if self.label_notes else ""

    def last_mover(self) -> Color | None:
        """Who made the last move (``None`` before the first)."""
        self.move_labels()
        return self.label_movers[-1] if self.label_movers else None

    @property
    def busy(self) -> bool:
        """Whether work runs for the game: a computer turn, a clock timer or a hint."""
        return (
            self.thinking_for is not None
            or self.timer is not None
            or (self.hint is not None and not self.hint[1].done())
        )

    @property
    def ply(self) -> int:
        return len(self.state.move_stack)

    def seats(self, token: str | None, user: int | None = None) -> frozenset[str]:
        """The seats a token or a signed-in account holds (both in a hot-seat game, none for a
        forged token)."""
        held = frozenset(
            name for name in COLOURS if user is not None and seat(name).user_of(self.row) == user
        )
        return held | self._token_seats(token)

    def _token_seats(self, token: str | None) -> frozenset[str]:
        if not token or len(token) > 200:
            return frozenset()
        stored = {name: seat(name).token_of(self.row) for name in COLOURS}
        key = token, stored["white"], stored["black"]
        known = self.seat_memo.get(key)
        if known is None:
            digest = token_hash(token)
            known = frozenset(
                name for name, held in stored.items() if held and hmac.compare_digest(held, digest)
            )
            if len(self.seat_memo) >= 8:
                self.seat_memo.clear()
            self.seat_memo[key] = known
        return known

    def kind(self, colour: Color) -> str:
        """Who plays ``colour``: "human" or the computer player's spec."""
        return seat(colour).kind_of(self.row)

    def time_left(self, colour: Color, now: int) -> int:
        """Milliseconds left on ``colour``'s clock at ``now`` (its clock runs on its turn)."""
        row = self.row
        left = seat(colour).ms_of(row) or 0
        if row.status == "live" and colour is self.state.turn and row.clock_started:
            left -= now - row.clock_started
        return left

    @property
    def thinking(self) -> bool:
        return self.thinking_for == self.version

    def computer_to_move(self) -> bool:
        return self.row.status == "live" and self.kind(self.state.turn) != "human"
