"""Alpha-beta search for any game: iterative deepening, a transposition table on the position
key, move ordering (table move, tactical moves, killers, history), a short quiescence search over
tactical moves, and the game's own evaluation at the leaves.

A rule set whose game declares a compiled kernel (``Game.kernel``) is searched by the compiled
search (:mod:`ludoteca.compiled.search`, the same algorithm, ~100x faster, with the kernel's
evaluation); this readable search plays the others and stays the reference (``search:python=1``).

Scores are integers for the side to move: ``WIN - plies`` for a forced win, ``-(WIN - plies)`` for
a forced loss, and ``round(1000 * state.evaluate())`` otherwise.  A move's score is its child's
negated, unless the move leaves the same side to move (a removal of its own in the Morris
family): then it is the child's as it is.
"""

from __future__ import annotations

import random
import threading
import time
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from ..core import Color, Move, RuleSet, State
from ..i18n import _
from .base import Agent, Limit, parse_spec

if TYPE_CHECKING:
    from ..compiled.search import CompiledSearch, Iteration

__all__ = ["WIN", "SearchAgent", "SearchResult", "is_mate", "search_agent"]

WIN = 100_000
MATE_BOUND = WIN - 1000
EXACT, LOWER, UPPER = 0, 1, 2
#: the most plies of tactical moves searched past the horizon (an agent may search fewer)
QUIESCENCE_DEPTH = 4


def is_mate(score: int) -> bool:
    """Whether a score is a forced win or loss (rather than an evaluation)."""
    return abs(score) >= MATE_BOUND


class _Stop(Exception):
    pass


@dataclass
class SearchResult:
    """What a search found: the best move, its score, the principal variation and the effort."""

    move: Move
    score: int
    depth: int
    nodes: int
    seconds: float
    pv: list[Move] = field(default_factory=list)
    #: every root move's score at ``depth`` when the search was asked for exact scores
    scores: dict[int, int] = field(default_factory=dict)

    @property
    def nps(self) -> int:
        """Nodes searched per second."""
        return round(self.nodes / self.seconds) if self.seconds > 0 else 0


class SearchAgent:
    """An alpha-beta player.  ``noise`` (in evaluation units, 1000 = a won position) blurs root
    scores for the weaker levels; ``depth``/``seconds``/``nodes`` are its default limits; with
    ``tables`` it plays perfectly where a built table (``Game.solver``) covers the position;
    with ``keep`` each move's compiled search starts from the transposition table and history
    of the agent's search before (of an earlier position of the same game, as a rule) rather
    than empty ones, so that what it found a move ago is found again at once; by default
    (``keep`` None) a move searched for a time keeps them, one searched to a depth or a node
    budget does not, so that it is the same whatever was searched before; ``reduce`` sets the
    compiled search's late-move reductions (quiet moves after the first ``reduce`` searched a
    ply shallower first, 0 none), by default (None) the kernel's (``Kernel.reduce_after``)."""

    def __init__(
        self,
        seed: int | None = None,
        depth: int | None = None,
        seconds: float | None = None,
        nodes: int | None = None,
        noise: float = 0.0,
        name: str = "search",
        compiled: bool = True,
        tables: bool = False,
        quiesce: int = QUIESCENCE_DEPTH,
        keep: bool | None = None,
        reduce: int | None = None,
    ) -> None:
        self.name = name
        self.keep = keep
        self.reduce = reduce
        self.quiesce = min(max(quiesce, 0), QUIESCENCE_DEPTH)
        self.tables = tables
        self.default = Limit(seconds=seconds, nodes=nodes, depth=depth)
        self.noise = noise
        self.compiled = compiled
        self._rng = random.Random(seed)
        self.stop_event = threading.Event()
        self._table: dict[object, tuple[int, int, int, int]] = {}
        self._searchers: dict[str, CompiledSearch] = {}
        self._running: CompiledSearch | None = None

    # --- public -----------------------------------------------------------------------------
    def choose(self, state: State, limit: Limit | None = None) -> Move:
        """The move to play: a forced move at once, a table's where one covers the position
        (with ``tables``), else the search's within the limit."""
        codes = state.legal_codes()
        if len(codes) == 1:
            return state.move_of(codes[0])
        limit = limit or self.default
        if self.tables:
            from .perfect import PerfectAgent, covering_table

            table = covering_table(state)
            if table is not None:
                perfect = PerfectAgent(state.rules, self._rng.randrange(1 << 30), table)
                return perfect.choose(state, Limit(seconds=limit.seconds))
        keep = self.keep
        if keep is None:
            keep = limit.seconds is not None and limit.nodes is None and limit.depth is None
        return self.analyse(state, limit, keep=keep).move

    def analyse(
        self,
        state: State,
        limit: Limit | None = None,
        on_iteration: object = None,
        exact: bool = False,
        keep: bool = False,
    ) -> SearchResult:
        """Search ``state`` (left unchanged) within the limit; ``on_iteration(result)`` is called
        after each completed depth.  ``exact`` scores every root move exactly at the depth
        reached (``SearchResult.scores``), as game review needs.  ``keep``: the compiled search
        starts from this agent's transposition table of the search before (see
        :meth:`~ludoteca.compiled.search.CompiledSearch.run`) rather than an empty one (the
        readable search always keeps its table between searches)."""
        limit = limit or self.default
        if limit.seconds is None and limit.nodes is None and limit.depth is None:
            limit = Limit(depth=4)
        if self.compiled:
            searcher = self._searcher(state)
            if searcher is not None:
                return self._analyse_compiled(searcher, state, limit, on_iteration, exact, keep)
        root = state.copy()
        codes = root.legal_codes()
        if not codes:
            raise ValueError("the game is over: there is no move to choose")
        self._rng.shuffle(codes)
        self.stop_event.clear()
        self._deadline = (time.perf_counter() + limit.seconds) if limit.seconds else None
        self._node_limit = limit.nodes
        self._nodes = 0
        self._killers: dict[int, list[int]] = {}
        self._history: dict[int, int] = {}
        if len(self._table) > 2_000_000:
            self._table.clear()
        started = time.perf_counter()
        best: SearchResult | None = None
        max_depth = limit.depth or 64
        for depth in range(1, max_depth + 1):
            self._partial: list[tuple[int, int]] = []
            try:
                scored = self._root(root, codes, depth, exact)
            except _Stop:
                # the moves this depth finished are scored soundly (the first is the previous
                # best, searched with a full window): keep a better one if it found it
                if best is None or not self._partial or self.noise:
                    break
                top_score, top = max(self._partial)
                if top != best.move.code and top_score > self._partial[0][0]:
                    best = SearchResult(
                        root.move_of(top),
                        top_score,
                        depth,
                        self._nodes,
                        time.perf_counter() - started,
                        self._pv(root, top),
                    )
                break
            scored.sort(key=lambda item: -item[0])
            codes = [c for _, c in scored]
            pick_score, pick = scored[0]
            if self.noise:
                noisy = [(s + self._rng.gauss(0, self.noise), c) for s, c in scored]
                pick = max(noisy)[1]
                pick_score = next(s for s, c in scored if c == pick)
            best = SearchResult(
                root.move_of(pick),
                pick_score,
                depth,
                self._nodes,
                time.perf_counter() - started,
                self._pv(root, pick),
                {c: s for s, c in scored} if exact else {},
            )
            if callable(on_iteration):
                on_iteration(best)
            if is_mate(scored[0][0]) and not self.noise:
                break
            if self._deadline and time.perf_counter() > started + (self._deadline - started) * 0.45:
                break  # the next depth would very likely not finish
        if best is None:  # not even depth 1 finished: play the first ordered move
            best = SearchResult(
                root.move_of(codes[0]),
                0,
                0,
                self._nodes,
                time.perf_counter() - started,
                [root.move_of(codes[0])],
            )
        return best

    def stop(self) -> None:
        """Ask a running search (in another thread) to finish as soon as possible."""
        self.stop_event.set()
        running = self._running
        if running is not None:
            running.stop()

    # --- the compiled search ----------------------------------------------------------------
    def _searcher(self, state: State) -> CompiledSearch | None:
        spec = f"{state.game.name}/{state.rules}"
        if spec not in self._searchers:
            kernel = state.game.kernel
            if kernel is None:
                return None
            from ..compiled.search import CompiledSearch

            self._searchers[spec] = CompiledSearch(kernel)
        return self._searchers[spec]

    def _analyse_compiled(
        self,
        searcher: CompiledSearch,
        state: State,
        limit: Limit,
        on_iteration: object,
        exact: bool,
        keep: bool = False,
    ) -> SearchResult:
        def result(it: Iteration) -> SearchResult:
            pick, score = it.moves[0], it.scores[0]
            if self.noise:
                noisy = [
                    (s + self._rng.gauss(0, self.noise), c)
                    for s, c in zip(it.scores, it.moves, strict=True)
                ]
                pick = max(noisy)[1]
                score = it.scores[it.moves.index(pick)]
            line = it.pv if pick == it.moves[0] else [pick]
            scores = dict(zip(it.moves, it.scores, strict=True)) if exact or self.noise else {}
            return SearchResult(
                state.move_of(pick),
                score,
                it.depth,
                it.nodes,
                it.seconds,
                [state.move_of(c) for c in line],
                scores,
            )

        def report(it: Iteration) -> None:
            if callable(on_iteration):
                on_iteration(result(it))

        self._running = searcher
        if self.stop_event.is_set():
            searcher.stop()
        try:
            found = searcher.run(
                state,
                max_depth=limit.depth or 64,
                seconds=limit.seconds,
                nodes=limit.nodes,
                exact=exact or bool(self.noise),
                quiesce=self.quiesce,
                margin=0 if exact else round(4 * self.noise),
                on_iteration=report,
                rng=self._rng,
                keep=keep,
                reduce=self.reduce,
            )
        finally:
            self._running = None
        if found is None:
            codes = state.legal_codes()
            if not codes:
                raise ValueError("the game is over: there is no move to choose")
            return SearchResult(state.move_of(codes[0]), 0, 0, 0, 0.0, [state.move_of(codes[0])])
        return result(found)

    # --- the search -------------------------------------------------------------------------
    def _root(
        self, state: State, codes: list[int], depth: int, exact: bool = False
    ) -> list[tuple[int, int]]:
        scored = []
        alpha = -WIN - 1
        exact = exact or bool(self.noise)
        mover = state.turn
        for i, code in enumerate(codes):
            state.push_code(code)
            same = state.turn is mover
            try:
                if exact:  # every root score exact, so that noise compares like with like
                    score = self._child(state, same, depth - 1, -WIN - 1, WIN + 1, 1)
                elif i == 0:
                    score = self._child(state, same, depth - 1, alpha, WIN + 1, 1)
                else:
                    score = self._child(state, same, depth - 1, alpha, alpha + 1, 1)
                    if score > alpha:
                        score = self._child(state, same, depth - 1, alpha, WIN + 1, 1)
            finally:
                state.pop_code()
            scored.append((score if score > alpha or exact or i == 0 else alpha - 1, code))
            self._partial.append(scored[-1])
            alpha = max(alpha, score)
        return scored

    def _child(self, state: State, same: bool, depth: int, alpha: int, beta: int, ply: int) -> int:
        """The value, for the side that just moved, of ``state`` searched to ``depth`` within
        that side's window (``alpha``, ``beta``): negamax's negated value and window, unless the
        move left the same side to move (a removal of its own, in the Morris family)."""
        if same:
            return self._negamax(state, depth, alpha, beta, ply)
        return -self._negamax(state, depth, -beta, -alpha, ply)

    def _check(self) -> None:
        if self.stop_event.is_set():
            raise _Stop
        if self._deadline is not None and time.perf_counter() > self._deadline:
            raise _Stop
        if self._node_limit is not None and self._nodes > self._node_limit:
            raise _Stop

    def _terminal(self, state: State, ply: int) -> int:
        outcome = state.outcome()
        if outcome is None or outcome.winner is None:
            return 0
        return WIN - ply if outcome.winner is state.turn else -(WIN - ply)

    def _negamax(self, state: State, depth: int, alpha: int, beta: int, ply: int) -> int:
        self._nodes += 1
        if not self._nodes & 255:
            self._check()
        codes = state.legal_codes()
        if not codes:
            return self._terminal(state, ply)
        if depth <= 0:
            return self._quiescence(state, codes, alpha, beta, ply, self.quiesce)
        key = state.position_key()
        entry = self._table.get(key)
        tt_move = -1
        if entry is not None:
            e_depth, e_score, e_flag, tt_move = entry
            if e_depth >= depth:
                if e_flag == EXACT:
                    return e_score
                if e_flag == LOWER and e_score >= beta:
                    return e_score
                if e_flag == UPPER and e_score <= alpha:
                    return e_score
        ordered = self._order(state, codes, tt_move, ply)
        original_alpha = alpha
        best_score = -WIN - 1
        best_code = ordered[0]
        mover = state.turn
        for i, code in enumerate(ordered):
            state.push_code(code)
            same = state.turn is mover
            try:
                if i == 0:
                    score = self._child(state, same, depth - 1, alpha, beta, ply + 1)
                else:
                    score = self._child(state, same, depth - 1, alpha, alpha + 1, ply + 1)
                    if alpha < score < beta:
                        score = self._child(state, same, depth - 1, alpha, beta, ply + 1)
            finally:
                state.pop_code()
            if score > best_score:
                best_score, best_code = score, code
                if score > alpha:
                    alpha = score
                    if alpha >= beta:
                        if not state.is_tactical(code):
                            killers = self._killers.setdefault(ply, [])
                            if code not in killers:
                                killers.insert(0, code)
                                del killers[2:]
                            self._history[code] = self._history.get(code, 0) + depth * depth
                        break
        flag = EXACT
        if best_score <= original_alpha:
            flag = UPPER
        elif best_score >= beta:
            flag = LOWER
        self._table[key] = (depth, best_score, flag, best_code)
        return best_score

    def _quiescence(
        self, state: State, codes: list[int] | None, alpha: int, beta: int, ply: int, left: int
    ) -> int:
        """Captures only; ``codes`` are the legal moves, or None where the game generates its
        tactical moves directly (``State.tactical_moves``)."""
        stand = round(1000 * state.evaluate())
        if stand >= beta or left <= 0:
            return stand
        alpha = max(alpha, stand)
        tactical = state.tactical_codes(codes) if codes is not None else state.tactical_moves()
        mover = state.turn
        for code in tactical or ():
            self._nodes += 1
            state.push_code(code)
            sign = 1 if state.turn is mover else -1  # a side may move twice in a row
            low, high = (alpha, beta) if sign == 1 else (-beta, -alpha)
            try:
                direct = state.tactical_moves()
                if direct is not None:
                    score = sign * self._quiescence(state, None, low, high, ply + 1, left - 1)
                else:
                    replies = state.legal_codes()
                    score = sign * (
                        self._quiescence(state, replies, low, high, ply + 1, left - 1)
                        if replies
                        else self._terminal(state, ply + 1)
                    )
            finally:
                state.pop_code()
            if score > alpha:
                alpha = score
                if alpha >= beta:
                    break
        return alpha

    def _order(self, state: State, codes: list[int], tt_move: int, ply: int) -> list[int]:
        killers = self._killers.get(ply, ())
        history = self._history
        tactical = set(state.tactical_codes(codes))

        def rank(code: int) -> int:
            if code == tt_move:
                return -(10**9)
            if code in tactical:
                return -(10**8)
            if code in killers:
                return -(10**7)
            return -history.get(code, 0)

        return sorted(codes, key=rank)

    def _pv(self, state: State, first: int) -> list[Move]:
        line = [state.move_of(first)]
        state.push_code(first)
        pushed = 1
        seen = {state.position_key()}
        while len(line) < 12:
            entry = self._table.get(state.position_key())
            if entry is None or entry[3] not in state.legal_codes():
                break
            line.append(state.move_of(entry[3]))
            state.push_code(entry[3])
            pushed += 1
            key = state.position_key()
            if key in seen:
                break
            seen.add(key)
        for _step in range(pushed):
            state.pop_code()
        return line


def search_agent(spec: str, rules: RuleSet, seed: int | None = None) -> Agent:
    """The agent of a ``search`` spec (its options: :mod:`.agents`), named by the spec; with
    ``book=1`` it plays from the opening book first (:class:`.book.BookAgent`)."""
    _, options = parse_spec(spec)
    depth = options.get("depth")
    nodes = options.get("nodes")
    searcher = SearchAgent(
        seed,
        depth=None if depth is None else int(depth),
        seconds=options.get("time"),
        nodes=None if nodes is None else int(nodes),
        noise=options.get("noise", 0.0),
        name=spec.lower(),
        compiled=not options.get("python"),
        tables=bool(options.get("tables")),
        quiesce=int(options.get("quiesce", QUIESCENCE_DEPTH)),
        keep=None if options.get("keep") is None else bool(options["keep"]),
        reduce=None if options.get("reduce") is None else int(options["reduce"]),
    )
    if options.get("book"):
        from .book import BookAgent

        return BookAgent(searcher, seed)
    return searcher


def describe(score: int, turn: Color) -> str:
    """A person's reading of a score for the side ``turn`` to move (in the current language)."""
    side, other = _(turn.title), _(turn.other.title)
    if is_mate(score):
        plies = WIN - abs(score)
        winner = side if score > 0 else other
        return _("%(winner)s wins in %(plies)s plies with best play", winner=winner, plies=plies)
    if abs(score) < 60:
        return _("about even")
    leader = side if score > 0 else other
    if abs(score) > 400:
        return _("%(leader)s is clearly ahead", leader=leader)
    return _("%(leader)s is better", leader=leader)
