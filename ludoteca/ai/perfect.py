"""The perfect player: plays from the solved table of any rule set whose game declares a solver
(in the positions the table covers: endgame tables cover some).

It keeps the best value: wins fastest, loses slowest, holds a draw.  Among moves that are equally
good it keeps a drawn game going, so that a fallible opponent keeps getting chances to go wrong:
it prefers moves after which fewest replies would end the game in a draw by rule (repetition or
the move rule), then positions that have occurred least; then those that leave the opponent the
most ways to go wrong (the share of their replies that lose value); and it chooses at random
among the rest so that games vary.
"""

from __future__ import annotations

import contextlib
import logging
import random
import time

from ..core import InvalidRulesError, Move, RuleSet, State
from ..tables import Table
from .base import Limit, parse_spec

__all__ = ["OutOfTime", "PerfectAgent", "covering_table", "perfect_agent", "table_for"]

log = logging.getLogger("ludoteca.tables")


class OutOfTime(Exception):
    """:meth:`PerfectAgent.pitfalls` went past its deadline."""


def table_for(rules: RuleSet) -> Table | None:
    """The solved table of a rule set (read, or solved if that is quick, once per process), or
    ``None`` when its game declares no solver for it or the table is not built yet (``ludoteca
    solve`` builds the large ones).  A table solved here shows its progress on a terminal, and
    is logged in one line (``ludoteca.tables``), never one line per step."""
    from ..games import load
    from ..solve import progress_bar

    solver = load(rules).solver()
    if solver is None or not solver.ready():
        return None
    table = _TABLES.get(solver.key)
    if table is None:
        started = time.perf_counter()
        report, bar = progress_bar(f"solving the table of {rules}", steps=False)
        try:
            table, cached = solver.load(report)
        finally:
            bar.close()
        if not cached:
            log.info(
                "solved the table of %s in %.1f s (kept for next time)",
                rules,
                time.perf_counter() - started,
            )
        _TABLES[solver.key] = table
    return table


_TABLES: dict[str, Table] = {}


def covering_table(state: State) -> Table | None:
    """The ready table of ``state``'s rule set if it covers ``state``, else ``None``."""
    table = table_for(state.rules)
    return table if table is not None and table.covers(state) else None


class PerfectAgent:
    """Looks every legal move up in the solved table and plays a best one.  ``lookahead``: how
    many plies ahead :meth:`choose` counts the traps a move sets (2, the ladder's player: two
    where moves are few, as time allows; 1: one, a few table lookups a move)."""

    def __init__(
        self,
        rules: RuleSet,
        seed: int | None = None,
        table: Table | None = None,
        lookahead: int = 2,
    ) -> None:
        table = table or table_for(rules)
        if table is None:
            raise InvalidRulesError(
                f"no perfect player for {rules}: it is not solved (where "
                "the game has a solver, `ludoteca solve` builds its table)"
            )
        self.name = "perfect"
        self.table = table
        self.lookahead = lookahead
        self._rng = random.Random(seed)

    def score(self, state: State, code: int) -> tuple[int, int]:
        """How good a move is for the mover: higher is better (win fast > draw > lose slow)."""
        state.push_code(code)
        try:
            value, plies = self.table.lookup(state)
            outcome = state.outcome()
            if outcome is not None and outcome.winner is None:
                return (0, 0)  # a draw by rule ends the game here whatever the table says
        finally:
            state.pop_code()
        if value == -1:
            return (1, -plies)
        if value == 1:
            return (-1, plies)
        return (0, 0)

    def evaluate(self, state: State) -> tuple[int, int]:
        """``(value, plies)`` of ``state`` for its side to move: 1 win, -1 loss, 0 draw."""
        return self.table.lookup(state)

    def keeping_codes(self, state: State) -> list[int]:
        """The codes of the legal moves that keep the table's value of ``state`` for its mover,
        in legal order: in a won position those after which it stays won (however much longer
        the win then takes), in a drawn one those after which it stays drawn (or won), in a
        lost one every move.  A move after which the game ends drawn by rule (repetition, the
        move rule) leads to a draw whatever the table says (:meth:`score`)."""
        value = self.evaluate(state)[0]
        return [code for code in state.legal_codes() if self.score(state, code)[0] >= value]

    def pitfalls(
        self, state: State, code: int, depth: int = 2, deadline: float | None = None
    ) -> float:
        """How likely an opponent replying at random is to give value away after ``code``:
        the share of replies that do, plus, at ``depth`` 2, half the chances our best next
        move leaves after the other replies.  :class:`OutOfTime` once ``time.monotonic()``
        passes ``deadline`` (looked at before each reply looked into at depth 2; ``state``
        is then as it was)."""
        state.push_code(code)
        try:
            replies = state.legal_codes()
            if not replies:
                return 0.0
            scores = [self.score(state, r) for r in replies]
            best = max(s[0] for s in scores)
            total = 0.0
            for reply, (value, _) in zip(replies, scores, strict=True):
                if value < best:
                    total += 1.0
                elif depth > 1:
                    if deadline is not None and time.monotonic() > deadline:
                        raise OutOfTime
                    state.push_code(reply)
                    try:
                        ours = state.legal_codes()
                        if ours:
                            mine = [(self.score(state, c), c) for c in ours]
                            top = max(m for m, _ in mine)
                            total += 0.5 * max(
                                self.pitfalls(state, c, depth - 1) for m, c in mine if m == top
                            )
                    finally:
                        state.pop_code()
            return total / len(replies)
        finally:
            state.pop_code()

    @staticmethod
    def _staleness(state: State, code: int) -> tuple[int, int]:
        """How close ``code`` brings a draw by rule: the opponent's replies that would end the
        game drawn (repetition, move rule; all of them if ``code`` itself does), and how often
        the position after ``code`` has occurred."""
        state.push_code(code)
        try:
            outcome = state.outcome()
            if outcome is not None:
                return (0 if outcome.winner is not None else 1 << 20), 0
            exits = 0
            for reply in state.legal_codes():
                state.push_code(reply)
                ending = state.outcome()
                exits += ending is not None and ending.winner is None
                state.pop_code()
            return exits, state.occurrences()
        finally:
            state.pop_code()

    def best_codes(self, state: State) -> list[int]:
        """The codes of the legal moves of the best value (:meth:`score`), in legal order: one
        table lookup a move."""
        codes = state.legal_codes()
        if not codes:
            raise ValueError("the game is over: there is no move to choose")
        scored = [(self.score(state, c), c) for c in codes]
        best = max(s for s, _ in scored)
        return [c for s, c in scored if s == best]

    def best(self, state: State) -> Move:
        """A move of the best value, chosen at random among them (no look for traps, as
        :meth:`choose` makes): what an analysis shows, at one table lookup a legal move rather
        than thousands."""
        return state.move_of(self._rng.choice(self.best_codes(state)))

    def choose(self, state: State, limit: Limit | None = None) -> Move:
        """A move of the best value that, among equal ones, keeps a drawn game going and sets
        the opponent the most traps (see the module's documentation).  The traps are counted
        one ply ahead, then (with a ``lookahead`` of 2) two where moves are few while
        ``limit.seconds`` lasts (from the call): two plies ahead can take seconds of a table's
        lookups."""
        deadline = None
        if limit is not None and limit.seconds is not None:
            deadline = time.monotonic() + limit.seconds
        codes = state.legal_codes()
        good = self.best_codes(state)
        if len(good) > 1:
            stale = [(*self._staleness(state, c), c) for c in good]
            traps = [((-exits, -seen, self.pitfalls(state, c, 1)), c) for exits, seen, c in stale]
            # two plies ahead where moves are few, in the time given, or one ply ahead
            if self.lookahead > 1 and len(codes) <= 12:
                with contextlib.suppress(OutOfTime):
                    traps = [
                        ((-exits, -seen, self.pitfalls(state, c, 2, deadline)), c)
                        for exits, seen, c in stale
                    ]
            most = max(t for t, _ in traps)
            good = [c for t, c in traps if t == most]
        return state.move_of(self._rng.choice(good))


def perfect_agent(spec: str, rules: RuleSet, seed: int | None = None) -> PerfectAgent:
    """The agent of a ``perfect`` spec (its options checked, then unused); ``InvalidRulesError``
    for a rule set without a built table."""
    parse_spec(spec)
    return PerfectAgent(rules, seed)
