"""The analysis board's service: positions of any rule set from a position code and moves, the
engine's best lines streamed depth by depth, and the games and records the board opens.

Multi-PV (the k best root moves): each depth is one job in the computer's analysis pool
(:func:`search_lines`).  A first glance gives the best move of depth 1 alone, at once; then
depth 1 scores every root move exactly; a deeper one searches the
position for the best move and its principal variation, then the :data:`CANDIDATES` best root
moves of the depth before, each one ply shallower from the position after it, and keeps the
:data:`MAX_LINES` best.  A position a solved table covers is answered exactly from the table in
one job.  Jobs are
per-depth, so an analysis stops between depths when its position changes (the next depth is
never asked for, a waiting one is dropped by the scheduler), and a running depth is bounded by
:data:`DEPTH_SECONDS`.  The analysis pool is not the computer's move pool, and its deadlines
(:data:`DEPTH_EXPECTED`) put hints first.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from collections.abc import Awaitable, Callable
from typing import Any

from ...ai.analysis import analyse, move_values, share_for_white
from ...ai.base import Limit
from ...ai.book import book_for
from ...ai.perfect import covering_table
from ...ai.search import WIN, SearchAgent, describe, is_mate
from ...core import Color, LudotecaError, State
from ...games.words import last_move_words
from ...i18n import SOURCE, _, current, ngettext, signed, use
from ...record import loads
from ..computer.computer import Computer
from ..computer.interrupt import stoppable
from ..computer.workers import yielding_if
from ..errors import ActionError
from ..play.catalogue import from_code, rule_set, static_part
from ..play.views import legal_entry
from .schemas import (
    AnalysisErrorMessage,
    AnalysisSent,
    DepthLines,
    DoneMessage,
    EngineLine,
    Intro,
    LineMessage,
    LinesMessage,
    Position,
    PositionCode,
)

__all__ = [
    "DEPTH_SECONDS",
    "MAX_DEPTH",
    "MAX_LINES",
    "MAX_MOVES",
    "PACE",
    "Analyst",
    "bar_text",
    "check_position",
    "opening",
    "position_view",
    "search_lines",
    "state_of",
]

log = logging.getLogger("ludoteca.server")

MAX_LINES = 3
MAX_DEPTH = 40
MAX_MOVES = 1000  # the longest move list a position may be asked with (replayed in the loop)
DEPTH_SECONDS = 3.0  # the most one depth may search in all; a depth cut short ends the analysis
DEPTH_EXPECTED = 2.0  # the deadline of a depth's job: after hints, before game reviews
TOTAL_SECONDS = 30.0  # the engine time one position gets before its analysis stops
CANDIDATES = 6  # the root moves of the depth before searched again for the other lines
#: while people play on the server, an analysis waits this many times as long as its depth took
#: before asking for the next one (it then thinks at most half the time: study work gives the
#: processors to live play, see :class:`Analyst`)
PACE = 1.0


def state_of(game: str, rules: str | None, start: str | None, moves: list[str]) -> State:
    """The position after ``moves`` from the position code ``start`` (the usual start when
    ``None``) of a rule set; 400 with the engine's sentence if anything is wrong."""
    if len(moves) > MAX_MOVES:
        raise ActionError(
            400, _("a position is asked for with at most %(limit)s moves", limit=MAX_MOVES)
        )
    try:
        bound = rule_set(game, rules or None)
        state = bound.from_position_code(start) if start else bound.new(seed=0)
        for move in moves:
            state.push(move)
    except LudotecaError as error:
        raise ActionError(400, str(error)) from None
    return state


def check_position(
    game: str,
    rules: str | None,
    code: str | None = None,
    pieces: list[str] | None = None,
    turn: str = "white",
    hand: tuple[int, int] | None = None,
) -> PositionCode:
    """The rule set's names and the position code, as the engine writes it, of a position an
    editor made: a position ``code``, or ``pieces`` (a token per point of the game's board),
    the side to move and the men in hand, of which the game builds the code; 400 with the
    reason (:class:`~ludoteca.core.InvalidPositionError`'s sentence) if it is impossible."""
    if code is None:
        try:
            bound = rule_set(game, rules or None)
        except LudotecaError as error:
            raise ActionError(400, str(error)) from None
        points = len(bound.board.points)
        if pieces is None or len(pieces) != points:
            raise ActionError(
                400,
                ngettext(
                    "a position of %(title)s has a token for each of its %(num)s point",
                    "a position of %(title)s has a token for each of its %(num)s points",
                    points,
                    title=_(bound.title),
                ),
            )
        try:
            code = bound.position_code_of(pieces, Color[turn.upper()], hand)
        except NotImplementedError as error:
            raise ActionError(400, str(error)) from None
    state = state_of(game, rules, code, [])
    return PositionCode(game=state.game.name, rules=str(state.rules), code=state.position_code())


def position_view(state: State) -> Position:
    """A position as the analysis board draws it: the pieces, the marked points, the side to
    move, the men in hand, the legal moves as the game page reads them, the last move's gesture,
    its code and, when it is over, the outcome."""
    outcome = state.outcome()
    last = state.move_stack[-1] if state.move_stack else None
    return Position(
        game=state.game.name,
        rules=str(state.rules),
        pieces=state.pieces(),
        marked=state.marked_points(),
        turn=state.turn.name.lower(),
        hand=state.in_hand(),
        notice=state.notice(),
        legal=[legal_entry(state, code) for code in state.legal_codes()],
        last=None if last is None else _last_gesture(state),
        code=state.position_code(),
        outcome=outcome.explain() if outcome else None,
        description=state.describe(),
        said=last_move_words(state),
    )


def _last_gesture(state: State) -> list[tuple[str, int]]:
    code = state.pop_code()
    try:
        return [(role, point) for role, point in state.gesture(code)]
    finally:
        state.push_code(code)


def board_of(state: State) -> Intro:
    """The rule set's title, summary, status texts and board description (what never
    changes)."""
    static = static_part(state.game.name, str(state.rules), current())
    return Intro.model_validate(
        {key: static[key] for key in ("title", "summary", "texts", "board")}
    )


def opening(
    hub_game: tuple[str, str, str, list[str]] | None = None, record: str | None = None
) -> LineMessage:
    """The main line the board opens with: a game (rule set, rules, start code, moves) or a
    text record; 400 if the record is malformed or illegal."""
    if record is not None:
        try:
            parsed = loads(record)
        except LudotecaError as error:
            raise ActionError(400, str(error)) from None
        start = parsed.start()
        moves = [str(move) for move in parsed.state.moves]
        game, rules, code = start.game.name, str(start.rules), start.position_code()
    elif hub_game is not None:
        game, rules, code, moves = hub_game
    else:
        raise ActionError(400, _("open a game or a record"))
    return LineMessage(type="line", game=game, rules=rules, start=code, moves=moves)


def bar_text(score: int, turn: Color, exact: bool = False) -> str:
    """The evaluation bar's text for White of ``score`` for ``turn`` (``exact``: from a solved
    table or the game's end), in the current language: "+1.3" (a hundredth of the search's
    units, 10.0 being a won-looking position), "White wins in 17" (plies) or "Draw" for an
    exact draw."""
    white = score if turn is Color.WHITE else -score
    if exact and white == 0:
        return _("Draw")
    if is_mate(white):
        if white > 0:
            return _("White wins in %(plies)s", plies=WIN - abs(white))
        return _("Black wins in %(plies)s", plies=WIN - abs(white))
    return signed(white / 100)


def loaded() -> None:
    """Nothing: a job of this module's that the server sends its analysis process at start-up,
    so that the process imports this module (and the web modules it needs, about a second of a
    processor) then, not while the first person to open the analysis board waits."""


def search_lines(
    game: str,
    rules: str,
    code: str,
    depth: int,
    seconds: float,
    candidates: list[int],
    language: str = SOURCE,
    ticket: int = 0,
    glance: bool = False,
    playing: bool = True,
) -> DepthLines:
    """The best lines (up to :data:`MAX_LINES`) of a position searched to ``depth`` within
    ``seconds`` in all (run in the analysis pool; stopped early when the server stops
    ``ticket``, see :mod:`~ludoteca.server.computer.interrupt`): ``depth`` reached,
    ``exact`` (from a solved table, then every depth says the same), ``book`` (present and
    true when the opening book answers: its moves, their values and depth, and the book's
    line after each), each line's score
    for the mover, bar text, White's share, verdict, notation and first move's gesture, and
    ``candidates`` (the root moves' codes, best first) to hand to the next depth, and
    ``seconds``: how long this job thought (not counting its wait for the pool).

    Depth 1 scores every root move exactly; a deeper one searches the position for the best
    move and its line, then each of the :data:`CANDIDATES` best ``candidates`` of the depth
    before (the k best root moves) one ply shallower from the position after it.  With
    ``glance``, depth 1 gives only the best move's line (the other root moves only bounded,
    which is many times quicker where tactical replies abound: Morelli's conversions), and
    no candidates.  Its texts (the verdicts) are in ``language``.  Unless ``playing`` (people
    play on the server), it thinks at the normal priority (see
    :func:`~ludoteca.server.computer.workers.yielding_if`)."""
    began = time.monotonic()
    with use(language), stoppable(ticket) as agent, yielding_if(playing):
        found = _search_lines(agent, game, rules, code, depth, seconds, candidates, glance)
    found["seconds"] = time.monotonic() - began
    return found


def _search_lines(
    agent: SearchAgent,
    game: str,
    rules: str,
    code: str,
    depth: int,
    seconds: float,
    candidates: list[int],
    glance: bool = False,
) -> DepthLines:
    deadline = time.monotonic() + seconds
    state = from_code(game, rules, code)
    if covering_table(state) is not None:
        after, _found = move_values(state)  # a win or loss counted in plies after the move
        values = {move: _parent_score(-score) for move, score in after.items()}
        ranked = sorted(values, key=lambda move: -values[move])
        lines = [
            _line(state, move, values[move], _table_line(state, move), True)
            for move in ranked[:MAX_LINES]
        ]
        return {"depth": depth, "exact": True, "lines": lines, "candidates": ranked}
    book = book_for(state.game)
    entry = book.lookup(state) if book is not None else None
    if book is not None and entry is not None:
        lines = [
            _line(state, m.move.code, m.value, book.line(state.child(m.move), 11), False)
            for m in entry.moves[:MAX_LINES]
        ]
        ranked = [m.move.code for m in entry.moves]
        return {
            "depth": entry.depth,
            "exact": False,
            "book": True,
            "lines": lines,
            "candidates": ranked,
        }
    limit = Limit(depth=depth, seconds=seconds)
    if depth == 1:
        result = agent.analyse(state, limit, exact=not glance)
        values = (not glance and result.scores) or {result.move.code: result.score}
        ranked = sorted(values, key=lambda move: -values[move])
        lines = [_line(state, move, values[move], [], False) for move in ranked[:MAX_LINES]]
        return {"depth": 1, "exact": False, "lines": lines, "candidates": [] if glance else ranked}
    found = agent.analyse(state, limit)
    best = found.move.code
    scored = {best: (found.score, [str(m) for m in found.pv[1:]])}
    for move in [c for c in candidates if c != best][: CANDIDATES - 1]:
        left = deadline - time.monotonic()
        if left <= 0 or agent.stop_event.is_set():
            break  # the depth's time is up (or its asker has gone): the lines found so far
        child = state.copy()
        child.push_code(move)
        if child.outcome() is not None:
            continue
        reply = agent.analyse(child, Limit(depth=found.depth - 1, seconds=left))
        scored[move] = (_parent_score(reply.score), [str(m) for m in reply.pv])
    ranked = sorted(scored, key=lambda move: -scored[move][0])
    lines = [_line(state, move, *scored[move], False) for move in ranked[:MAX_LINES]]
    rest = [c for c in candidates if c not in scored]
    return {"depth": found.depth, "exact": False, "lines": lines, "candidates": ranked + rest}


def _table_line(state: State, move: int) -> list[Any]:
    """The solved table's line after ``move`` (empty if it ends the game)."""
    child = state.copy()
    child.push_code(move)
    return [] if child.outcome() is not None else analyse(child).pv


def _parent_score(score: int) -> int:
    """The score for the mover of a root move whose reply position scores ``score``."""
    if is_mate(score):  # one ply further from the root
        return -score + (1 if score > 0 else -1)
    return -score


def _line(state: State, move: int, score: int, reply: list[Any], exact: bool) -> EngineLine:
    """One engine line for the page: ``move`` then the ``reply`` line (notation)."""
    return {
        "score": score,
        "bar": bar_text(score, state.turn, exact),
        "white_share": round(share_for_white(score, state.turn), 3),
        "text": describe(score, state.turn) if score or not exact else _("a draw"),
        "pv": [str(state.move_of(move)), *(str(m) for m in reply[:11])],
        "gesture": list(state.gesture(move)),
    }


class Analyst:
    """One connection's live analysis: at most one position analysed at a time, replaced when a
    new one is shown; each completed depth is handed to ``tell``.  While ``playing()`` (people
    play on the server), each depth after the first glance is followed by a pause of
    :data:`PACE` times its length before the next, so that a long analysis thinks at most half
    the time and leaves the processors to live play (the first line still comes at once)."""

    def __init__(
        self,
        computer: Computer,
        tell: Callable[[AnalysisSent], Awaitable[None]],
        playing: Callable[[], bool] = lambda: False,
    ):
        self.computer = computer
        self.tell = tell
        self.playing = playing
        self.task: asyncio.Task[None] | None = None
        self.ticket = 0  # the depth job asked for and not answered yet (0: none)

    def show(self, ask: int, state: State) -> None:
        """Analyse ``state`` (the page's request ``ask``), stopping the analysis before."""
        self.stop()
        if state.outcome() is None:
            self.task = asyncio.create_task(self._run(ask, state))

    def stop(self) -> None:
        """Stop the live analysis, if any: a depth waiting for the pool is dropped, and one
        that is running is stopped (where the computer's analysis process can be told)."""
        if self.task is not None:
            self.task.cancel()
            self.task = None
        interrupts = self.computer.interrupts
        if self.ticket and interrupts is not None:
            interrupts.stop(self.ticket)
        self.ticket = 0

    async def _run(self, ask: int, state: State) -> None:
        """Analyse ``state`` until done; a depth that fails (its job killed at its hard
        deadline, its process lost) ends the analysis with an error the page shows."""
        try:
            await self._analyse(ask, state)
        except Exception:
            log.warning("the analysis of %s stopped", state.position_code(), exc_info=True)
            with contextlib.suppress(Exception):  # the connection may have gone too
                message = _(
                    "the engine could not go on with this position; show it again to try once more"
                )
                await self.tell(AnalysisErrorMessage(type="error", id=ask, message=message))

    async def _analyse(self, ask: int, state: State) -> None:
        game, rules, code = state.game.name, str(state.rules), state.position_code()
        spent = 0.0  # the engine's time on this position (waits for the pool not counted)
        depth = 1
        candidates: list[int] = []
        interrupts = self.computer.interrupts
        glance = True  # a first line at once, then depth 1 with every root move scored
        while depth <= MAX_DEPTH:
            self.ticket = interrupts.ticket() if interrupts is not None else 0
            found = await self.computer.advisers.run(
                DEPTH_EXPECTED,
                search_lines,
                game,
                rules,
                code,
                depth,
                DEPTH_SECONDS,
                candidates,
                current(),
                self.ticket,
                glance,
                self.playing(),
            )
            self.ticket = 0
            candidates = found["candidates"]
            took = found.get("seconds", 0.0)
            spent += took
            await self.tell(LinesMessage.model_validate({"type": "lines", "id": ask, **found}))
            lines = found["lines"]
            if (
                found["exact"]
                or found.get("book")
                or found["depth"] < depth
                or not lines
                or is_mate(lines[0]["score"])
                or spent + 3 * took > TOTAL_SECONDS
            ):
                break
            if glance:
                glance = False
                continue
            if self.playing():
                await asyncio.sleep(PACE * took)
            depth += 1
        await self.tell(DoneMessage(type="done", id=ask))
