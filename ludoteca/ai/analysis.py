"""Hints and analysis: the best move, an evaluation a person understands, and the main line.

The same call serves a hint during play, an evaluation bar and the review of a finished game.
Rule sets with a solved table are answered from it (exact); the others by alpha-beta search.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING

from ..core import Color, Move, State
from ..i18n import _
from .base import Limit
from .search import WIN, SearchAgent, SearchResult, describe, is_mate

if TYPE_CHECKING:
    from .perfect import PerfectAgent

__all__ = ["Analysis", "analyse", "move_values", "review", "share_for_white", "table_values"]


@dataclass
class Analysis:
    """The verdict on a position for its side to move."""

    move: Move
    score: int  # for the side to move, see ludoteca.ai.search
    white_share: float  # expected score for White, 0..1 (the evaluation bar)
    text: str
    pv: list[Move]
    exact: bool  # from a solved table, not an estimate
    book: bool = False  # from the opening book (its depth is in the text)

    def as_dict(self) -> dict[str, object]:
        return {
            "move": str(self.move),
            "score": self.score,
            "white_share": self.white_share,
            "text": self.text,
            "pv": [str(m) for m in self.pv],
            "exact": self.exact,
            "book": self.book,
        }


def share_for_white(score: int, turn: Color) -> float:
    """The expected score (0..1) for White of a score for the side ``turn`` to move."""
    if is_mate(score):
        mover = 1.0 if score > 0 else 0.0
    elif score == 0:
        mover = 0.5
    else:
        mover = 1 / (1 + 10 ** (-score / 400))
    return mover if turn is Color.WHITE else 1.0 - mover


def analyse(
    state: State,
    limit: Limit | None = None,
    seed: int | None = None,
    on_iteration: Callable[[SearchResult], None] | None = None,
    book: bool = True,
    agent: SearchAgent | None = None,
) -> Analysis:
    """Analyse a position that is not over (within ``limit``; default one second).  Where a
    solved table covers it, the answer is the table's: a best move and a best line (any best
    move, chosen by ``seed``: not the perfect player's trap-setting choice, which looks
    thousands of positions up a move).

    Deterministic for a depth or node limit: the same position and limit give the same answer
    (``seed`` only varies the choice among equal moves).  ``on_iteration`` hears each completed
    depth of a search.  A position of the rule set's opening book (:mod:`.book`) is answered
    from it (``book`` set, the text says so), unless ``book`` is false.  ``agent``: the search
    agent to search with, which starts from its transposition table of its search before (of a
    position close to this one: :meth:`~.search.SearchAgent.analyse`'s ``keep``), so that a
    sequence of positions analysed in order gives the same answers each time; default a fresh
    agent seeded ``seed``."""
    from .perfect import PerfectAgent, covering_table

    table = covering_table(state)
    if table is not None:
        perfect = PerfectAgent(state.rules, seed, table)
        move = perfect.best(state)
        value, plies = perfect.evaluate(state)
        score = _table_score(value, plies)
        line = [move]
        child = state.child(move)
        while len(line) < 12 and child.outcome() is None:
            reply = perfect.best(child)
            line.append(reply)
            child.push(reply)
        text = describe(score, state.turn) if value else _("a draw with best play")
        return Analysis(move, score, share_for_white(score, state.turn), text, line, True)
    found = book_analysis(state, seed) if book else None
    if found is not None:
        return found
    keep = agent is not None
    agent = agent or SearchAgent(0 if seed is None else seed)
    result = agent.analyse(state, limit or Limit(seconds=1.0), on_iteration, keep=keep)
    return Analysis(
        result.move,
        result.score,
        share_for_white(result.score, state.turn),
        describe(result.score, state.turn),
        result.pv,
        False,
    )


def book_analysis(state: State, seed: int | None = None) -> Analysis | None:
    """The opening book's verdict on ``state`` (a best move, chosen by ``seed`` among equal
    ones, and the book's line after it), or ``None`` if the book does not have it."""
    from .book import book_for

    book = book_for(state.game)
    entry = book.lookup(state) if book is not None else None
    if book is None or entry is None:
        return None
    pick = random.Random(seed).choice(entry.best())
    child = state.child(pick.move)
    line = [pick.move, *book.line(child, 11)]
    text = _(
        "%(verdict)s (opening book, depth %(depth)s)",
        verdict=describe(pick.value, state.turn),
        depth=pick.depth,
    )
    return Analysis(
        pick.move, pick.value, share_for_white(pick.value, state.turn), text, line, False, True
    )


def _table_score(value: int, plies: int) -> int:
    return 0 if value == 0 else (WIN - plies if value > 0 else -(WIN - plies))


def move_values(state: State, limit: Limit | None = None) -> tuple[dict[int, int], Analysis]:
    """Every legal move's value for the mover, all searched to the same depth (or read from the
    solved table), and the analysis of the best one."""
    from .perfect import PerfectAgent, covering_table

    table = covering_table(state)
    if table is not None:
        return table_values(PerfectAgent(state.rules, 0, table), state), analyse(state, limit)
    result = SearchAgent(0).analyse(state, limit or Limit(seconds=1.0), exact=True)
    best = Analysis(
        result.move,
        result.score,
        share_for_white(result.score, state.turn),
        describe(result.score, state.turn),
        result.pv,
        False,
    )
    return result.scores, best


def table_values(perfect: PerfectAgent, state: State) -> dict[int, int]:
    """Every legal move's exact value for the mover by ``perfect``'s table (a draw by rule
    where the move ends the game so): a win or loss as :data:`~.search.WIN` less the plies to
    the end after the move, counted as :func:`analyse` counts a position's."""
    values = {}
    for code in state.legal_codes():
        rank, plies = perfect.score(state, code)
        values[code] = _table_score(rank, plies if rank < 0 else -plies)
    return values


def review(
    state: State, limit: Limit | None = None, threshold: float = 0.15
) -> list[tuple[int, Move, Analysis, float]]:
    """Mistakes of a finished or running game: (ply, move played, best analysis, loss).

    ``loss`` is how much of the expected score (0..1) the mover gave away: the best move's
    share less the played move's, both valued at the same search depth (or exactly, from a
    solved table).  A move is listed when it loses more than ``threshold``; the move played is
    never listed as its own better move.
    """
    root = state.copy()
    played = list(root.move_stack)
    while root.move_stack:
        root.pop_code()
    found = []
    for code in played:
        if root.outcome() is not None:
            break
        values, best = move_values(root, limit)
        mover = root.turn
        top = max(values.values())
        if code in values and values[code] < top:
            loss = share_for_white(top, mover) - share_for_white(values[code], mover)
            if mover is not Color.WHITE:
                loss = -loss
            if loss > threshold and best.move.code != code:
                found.append((root.ply + 1, root.move_of(code), best, loss))
        root.push_code(code)
    return found
