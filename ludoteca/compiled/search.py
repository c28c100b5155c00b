"""The compiled alpha-beta search, written once for every game with a kernel (numba).

Principal-variation search with iterative deepening (driven from Python, one call a depth), a
transposition table in numpy arrays (buckets of two entries: the first kept for the deeper result
unless it is from an earlier search, the second always replaced; mate scores stored relative to
the node), move
ordering (table move, tactical moves, two killers a ply, the kernel's prior, history), late quiet
moves searched a ply shallower first where the game's kernel asks for it (``Kernel.reduce_after``:
for wide games), a quiescence search over tactical moves, repetition detection along the game and
search path (a repeated position scores as a draw), and node and time limits checked inside the
search: a timer thread or :meth:`CompiledSearch.stop` raises a flag that the search reads every
1,024 nodes (it runs without the GIL); a stopped depth counts only through a root move it finished
that beat the previous best (time limits only: a depth or node limit keeps the search
deterministic). With a time limit the search deepens until the time is up, not until the next depth
is predicted not to finish: the time of a move cannot be saved for a later one, and the unfinished
depth still searches the previous best deeper and may find a better move.

The game's rules, evaluation and hashing come from its kernel (``Game.kernel``): the search is
written against the kernel interface (:mod:`.kernel`) and compiled for each registered kernel by
:mod:`.dispatch`; nothing here knows a game.  Scores are those of :mod:`ludoteca.ai.search`:
``WIN - plies`` for a forced win, evaluations otherwise.
"""

from __future__ import annotations

import random
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, replace
from typing import NamedTuple

import numpy as np
import numpy.typing as npt
from numba import njit

from ..core import State
from .dispatch import bind, specialise
from .kernel import (
    KEY,
    LOSS,
    ONGOING,
    QUIET,
    TURN,
    UNDO,
    WIN,
    bare,
    can_move,
    captures,
    evaluate,
    generate,
    make,
    prior,
    status,
    tactical,
    unmake,
)
from .registry import Kernel

__all__ = ["MAXMOVES", "CompiledSearch", "Iteration", "Workspace", "playout_of", "seed_playouts"]

IntArray = npt.NDArray[np.int64]

MATE = 100_000
MATE_BOUND = MATE - 1000
NO_STAND = -(1 << 60)  # a quiescence node's evaluation, not worked out yet
EXACT, LOWER, UPPER = 0, 1, 2
MAXPLY = 128
MAXMOVES = 1024
QDEPTH = 4
TT_BITS = 20
HISTORY = 1 << 16
#: a quiet move's :func:`~.kernel.prior` counts this many bits above its history (below killers)
PRIOR = 36
#: after this many moves picked one by one, a node sorts the rest of its moves at once
PICKED = 6
# the counters array (GENERATION: the number of the search, which marks the table entries it stores)
NODES, LIMIT, STOPPED, BASE, REDUCE, QUIESCE, GENERATION = 0, 1, 2, 3, 4, 5, 6
# the fields of a search frame (one per ply)
F_DEPTH, F_ALPHA, F_BETA, F_ORIG, F_BEST, F_BESTMOVE, F_J, F_N, F_Q, F_NULL, F_CUT = range(11)
#: whether the move being searched leaves the same side to move (a move of a game where a side
#: may move twice in a row): its value is not negated, nor its window
F_SAME = 11
FIELDS = 12
ENTER, NEXT, RETURN = 0, 1, 2
#: whether the kernel defines ``can_move`` (set for each kernel by :func:`.dispatch.bind`)
QUICK_MOVE = False


class Workspace(NamedTuple):
    """The search's state, one value that the compiled functions take whole (numba passes a
    named tuple of arrays as its arrays): a new array is added here and in :meth:`new`."""

    #: each ply's moves, and their ordering ranks (the root's moves in row ``MAXPLY``)
    moves: IntArray
    order: IntArray
    #: the kernel's undo row of each ply's move
    undo: IntArray
    #: one frame of the explicit search stack a ply (``F_*`` fields)
    frames: IntArray
    #: the Zobrist keys of the game's positions then of the search's path (for repetitions)
    path: IntArray
    #: the transposition table: keys, packed entries (:func:`_pack`) and the generation of the
    #: search that stored each (two entries a bucket: :func:`_probe`, :func:`_store`)
    tt_key: IntArray
    tt_val: IntArray
    tt_gen: IntArray
    #: two killer moves a ply, and the history of quiet moves' cut-offs
    killers: IntArray
    history: IntArray
    #: the counters (``NODES`` ...), and the stop flag another thread may raise
    ctr: IntArray
    flag: IntArray

    @classmethod
    def new(cls) -> Workspace:
        """A workspace of zeros (the path empty: :meth:`CompiledSearch._position` sets it)."""

        def zeros(*shape: int) -> IntArray:
            return np.zeros(shape, dtype=np.int64)

        return cls(
            moves=zeros(MAXPLY + 1, MAXMOVES),
            order=zeros(MAXPLY + 1, MAXMOVES),
            undo=zeros(MAXPLY + 1, UNDO),
            frames=zeros(MAXPLY + 2, FIELDS),
            path=zeros(0),
            tt_key=zeros(1 << TT_BITS),
            tt_val=zeros(1 << TT_BITS),
            tt_gen=zeros(1 << TT_BITS),
            killers=zeros(MAXPLY + 1, 2),
            history=zeros(HISTORY),
            ctr=zeros(8),
            flag=zeros(1),
        )


@dataclass
class Iteration:
    """One completed depth: the root moves' scores (exact for the best; the others exact too
    when asked for, else upper bounds), the principal variation and the effort so far (in the
    search's answer, the whole search's)."""

    depth: int
    moves: list[int]
    scores: list[int]
    pv: list[int]
    nodes: int
    seconds: float


class CompiledSearch:
    """Searches positions of one rule set with its kernel; reusable (its arrays are kept), and
    deterministic for a depth or node limit (the table is cleared for every search, unless a
    search asks to ``keep`` it: then the answer depends on the searches before it too, and is
    the same for the same sequence of searches)."""

    def __init__(self, kernel: Kernel) -> None:
        self.kernel = kernel
        self.code = bind(__name__, kernel.name)
        self.work = Workspace.new()
        self.generation = 0

    def stop(self) -> None:
        """Ask a running search (in another thread) to stop at once."""
        self.work.flag[0] = 1

    def run(
        self,
        state: State,
        max_depth: int = 64,
        seconds: float | None = None,
        nodes: int | None = None,
        exact: bool = False,
        on_iteration: Callable[[Iteration], None] | None = None,
        rng: random.Random | None = None,
        margin: int = 0,
        quiesce: int = QDEPTH,
        keep: bool = False,
        reduce: int | None = None,
    ) -> Iteration | None:
        """Deepen from depth 1 until ``max_depth``, the time or the node budget runs out, or a
        forced result is found; return the last completed depth (``None`` if none completed).
        ``exact`` scores every root move exactly (for noise and game review), or, with a
        ``margin``, every move within ``margin`` of the best (the others get an upper bound at
        most that far below); ``rng`` shuffles the root moves first, so that equal moves vary
        between games; ``quiesce`` bounds the plies of tactical moves searched past the
        horizon (at most :data:`QDEPTH`); ``keep`` starts from the transposition table and
        history of the search before (of a position close to this one, such as its parent in
        a game) instead of empty ones: its depths are found again quickly, so that a node
        budget goes deeper; ``reduce``: the late-move reductions (quiet moves after the first
        ``reduce`` searched a ply shallower first; 0: none), by default the kernel's
        ``reduce_after``."""
        kernel = self.kernel
        prm = kernel.prm
        st = self._position(state)
        work = self.work
        roots = work.moves[MAXPLY].copy()
        count = self.code.generate(st, prm, roots)
        if count == 0 or self.code.status(st, prm, count) != ONGOING:
            return None
        roots = roots[:count].copy()
        if rng is not None:
            roots = roots[rng.sample(range(count), count)].copy()
        if not keep:
            work.tt_key.fill(0)
            work.tt_val.fill(0)
            work.tt_gen.fill(0)
            work.history.fill(0)
        else:
            work.history[:] //= 2  # the history of earlier searches fades
        self.generation += 1
        work.killers.fill(-1)
        work.ctr[:] = 0
        work.ctr[GENERATION] = self.generation
        work.ctr[LIMIT] = nodes or 0
        work.ctr[BASE] = work.path.size - MAXPLY - 3  # the current position's index
        work.ctr[REDUCE] = kernel.reduce_after if reduce is None else max(reduce, 0)
        work.ctr[QUIESCE] = min(max(quiesce, 0), QDEPTH)
        work.flag[0] = 0
        started = time.perf_counter()
        timer = None
        if seconds is not None:
            timer = threading.Timer(seconds, self.stop)
            timer.daemon = True
            timer.start()
        scores = np.zeros(count, dtype=np.int64)
        best: Iteration | None = None
        try:
            for depth in range(1, max_depth + 1):
                done = self.code._root(st, prm, depth, roots, scores, exact, margin, work)
                if done < count:
                    if seconds is not None and not exact and best is not None and done > 1:
                        best = self._partial(st, best, roots, scores, done)
                    break
                ranked = sorted(range(count), key=lambda i: -scores[i])
                roots = roots[ranked].copy()
                scores = scores[ranked].copy()
                pv = self._pv(st, int(roots[0]))
                best = Iteration(
                    depth,
                    roots.tolist(),
                    scores.tolist(),
                    pv,
                    int(work.ctr[NODES]),
                    time.perf_counter() - started,
                )
                if on_iteration is not None:
                    on_iteration(best)
                if abs(int(scores[0])) >= MATE_BOUND and not exact:
                    break
        finally:
            if timer is not None:
                timer.cancel()
        if best is not None:  # the effort of the whole search, the unfinished depth included
            best = replace(best, nodes=int(work.ctr[NODES]), seconds=time.perf_counter() - started)
        return best

    def _partial(
        self, st: IntArray, best: Iteration, roots: IntArray, scores: IntArray, done: int
    ) -> Iteration:
        """``best`` (the last completed depth), or, when a root move searched at the next
        depth before the time ran out beats that depth's first move (the previous best,
        searched first), that move: it is better as deep as both were searched."""
        top = max(range(done), key=lambda i: int(scores[i]))
        if top == 0:
            return best
        chosen = int(roots[top])
        others = [(m, s) for m, s in zip(best.moves, best.scores, strict=True) if m != chosen]
        return Iteration(
            best.depth,
            [chosen, *(m for m, _ in others)],
            [int(scores[top]), *(s for _, s in others)],
            self._pv(st, chosen),
            int(self.work.ctr[NODES]),
            best.seconds,
        )

    def _position(self, state: State) -> IntArray:
        """The kernel's ``st`` for ``state``, with the Zobrist keys of the game's earlier
        positions in the workspace's ``path`` (for repetitions), the current one last."""
        kernel = self.kernel
        start = state.copy()
        played = list(start.move_stack)
        for _ in played:
            start.pop_code()
        st = kernel.pack(start)
        keys = [int(st[KEY])]
        undo = np.zeros((1, UNDO), dtype=np.int64)
        for code in played:
            self.code.make(st, kernel.prm, code, undo, 0)
            keys.append(int(st[KEY]))
        path = np.zeros(len(keys) + MAXPLY + 2, dtype=np.int64)
        path[: len(keys)] = keys
        self.work = self.work._replace(path=path)
        return st

    def _pv(self, st: IntArray, first: int) -> list[int]:
        line = np.zeros(24, dtype=np.int64)
        length = self.code._pv(st, self.kernel.prm, first, line, self.work)
        found: list[int] = line[:length].tolist()
        return found


@njit(cache=True)
def _pack(move: int, depth: int, flag: int, score: int) -> int:
    """A table entry: the best move, the depth searched (0 to 127), the bound (``EXACT``,
    ``LOWER``, ``UPPER``) and the score (within 2^17 of 0), in one integer."""
    return (move << 27) | (depth << 20) | (flag << 18) | (score + 131072)


@njit(cache=True, nogil=True, inline="always")
def _unpack(entry: int) -> tuple[int, int, int, int]:
    """The move, depth, bound and score of a table entry (:func:`_pack`)."""
    return entry >> 27, (entry >> 20) & 127, (entry >> 18) & 3, (entry & 262143) - 131072


@specialise(nogil=True)
def _root(
    st: IntArray,
    prm: IntArray,
    depth: int,
    roots: IntArray,
    scores: IntArray,
    exact: bool,
    margin: int,
    work: Workspace,
) -> int:
    """Search every root move to ``depth``; return how many were searched before a stop."""
    undo, ctr = work.undo, work.ctr
    alpha = -MATE - 1
    turn = st[TURN]
    for i in range(roots.size):
        move = roots[i]
        make(st, prm, move, undo, 0)
        same = st[TURN] == turn
        if exact or i == 0:
            floor = -MATE - 1 if not exact or not margin or i == 0 else alpha - margin
            score = _child(st, prm, depth, floor if exact else alpha, MATE + 1, same, work)
        else:
            score = _child(st, prm, depth, alpha, alpha + 1, same, work)
            if score > alpha:
                score = _child(st, prm, depth, alpha, MATE + 1, same, work)
        unmake(st, prm, move, undo, 0)
        if ctr[STOPPED]:
            return i
        scores[i] = score if exact or i == 0 or score > alpha else alpha - 1
        if score > alpha:
            alpha = score
    return roots.size


@specialise(nogil=True)
def _child(
    st: IntArray,
    prm: IntArray,
    depth: int,
    alpha: int,
    beta: int,
    same: bool,
    work: Workspace,
) -> int:
    """The value, for the side to move at the root, of the position after a root move searched
    to ``depth - 1`` within the root's window (``alpha``, ``beta``): the child's own value,
    negated with its window unless the same side is to move again."""
    if same:
        return _search(st, prm, depth - 1, alpha, beta, work)
    return -_search(st, prm, depth - 1, -beta, -alpha, work)


@njit(cache=True, nogil=True)
def _window(frames: IntArray, p: int, alpha: int, beta: int) -> None:
    """Give the child of ply ``p`` the window (``alpha``, ``beta``) of ply ``p``'s side to move:
    as it is when the move leaves that side to move (``F_SAME``), else negated."""
    if frames[p, F_SAME]:
        frames[p + 1, F_ALPHA] = alpha
        frames[p + 1, F_BETA] = beta
    else:
        frames[p + 1, F_ALPHA] = -beta
        frames[p + 1, F_BETA] = -alpha


@njit(cache=True, nogil=True)
def _stop(ctr: IntArray, flag: IntArray) -> bool:
    ctr[NODES] += 1
    if ctr[NODES] & 1023 == 0 and (flag[0] or (ctr[LIMIT] and ctr[NODES] >= ctr[LIMIT])):
        ctr[STOPPED] = 1
    return bool(ctr[STOPPED] != 0)


@njit(cache=True, nogil=True)
def _ended(result: int, ply: int) -> int:
    if result == LOSS:
        return -(MATE - ply)
    if result == WIN:
        return MATE - ply
    return 0


@specialise(nogil=True)
def _search(
    st: IntArray,
    prm: IntArray,
    depth: int,
    alpha: int,
    beta: int,
    work: Workspace,
) -> int:
    """The value of the position after a root move (ply 1) for its side to move: negamax with
    principal-variation windows, then quiescence, on an explicit stack of frames.  A move that
    leaves the same side to move (a removal of its own, in the Morris family) keeps its value
    and window as they are; every other move negates them."""
    st, prm, frames, moves, order, undo, path = (
        bare(st),
        bare(prm),
        bare(work.frames),
        bare(work.moves),
        bare(work.order),
        bare(work.undo),
        bare(work.path),
    )
    tt_key, tt_val, tt_gen, killers, history, ctr, flag = (
        bare(work.tt_key),
        bare(work.tt_val),
        bare(work.tt_gen),
        bare(work.killers),
        bare(work.history),
        bare(work.ctr),
        bare(work.flag),
    )
    p = 1
    frames[p, F_DEPTH] = depth
    frames[p, F_ALPHA] = alpha
    frames[p, F_BETA] = beta
    frames[p, F_Q] = -1
    action = ENTER
    value = 0
    while True:
        if action == ENTER:
            action = RETURN
            if _stop(ctr, flag):
                value = 0
                continue
            key = st[KEY]
            if frames[p, F_Q] < 0:  # a full-width node
                here = ctr[BASE] + p
                path[here] = key
                lowest = max(0, here - st[QUIET])
                i = here - 2
                repeated = False
                while i >= lowest:
                    if path[i] == key:
                        repeated = True
                        break
                    i -= 2
                if repeated:
                    value = 0  # a repetition: a draw with best play from here on
                    continue
            if frames[p, F_Q] < 0 and (frames[p, F_DEPTH] <= 0 or p >= MAXPLY - QDEPTH - 1):
                frames[p, F_Q] = ctr[QUIESCE]
            tt_move = -1
            if frames[p, F_Q] < 0:  # the table first: a cut-off spares generating the moves
                slot = _probe(tt_key, key)
                if slot >= 0:
                    tt_move, e_depth, bound, e_score = _unpack(tt_val[slot])
                    if e_depth >= frames[p, F_DEPTH]:
                        if e_score > MATE_BOUND:
                            e_score -= p
                        elif e_score < -MATE_BOUND:
                            e_score += p
                        if (
                            bound == EXACT
                            or (bound == LOWER and e_score >= frames[p, F_BETA])
                            or (bound == UPPER and e_score <= frames[p, F_ALPHA])
                        ):
                            value = e_score
                            continue
            row = moves[p]
            stand = NO_STAND
            if QUICK_MOVE and frames[p, F_Q] >= 0:  # quiescence: a game that can tell cheaply
                quick = 1 if can_move(st, prm, row) else 0  # whether it goes on stands pat first
                result = status(st, prm, quick)
                if result != ONGOING:
                    value = _ended(result, p)
                    continue
                stand = evaluate(st, prm)
                if stand >= frames[p, F_BETA] or frames[p, F_Q] == 0:
                    value = stand
                    continue
            n = generate(st, prm, row)
            result = status(st, prm, n)
            if result != ONGOING:
                value = _ended(result, p)
                continue
            frames[p, F_N] = n
            frames[p, F_J] = -1
            if frames[p, F_Q] >= 0:  # quiescence: stand pat, then tactical moves only
                if stand == NO_STAND:
                    stand = evaluate(st, prm)
                    if stand >= frames[p, F_BETA] or frames[p, F_Q] == 0:
                        value = stand
                        continue
                if stand > frames[p, F_ALPHA]:
                    frames[p, F_ALPHA] = stand
                frames[p, F_N] = captures(st, prm, row, n)  # tactical moves first, only those
                action = NEXT
                continue
            for j in range(n):
                m = row[j]
                if m == tt_move:
                    order[p, j] = 1 << 50
                elif tactical(st, prm, m):
                    order[p, j] = 1 << 40
                elif m == killers[p, 0]:
                    order[p, j] = 1 << 39
                elif m == killers[p, 1]:
                    order[p, j] = 1 << 38
                else:
                    order[p, j] = (prior(st, prm, m) << PRIOR) + history[m & (HISTORY - 1)]
            frames[p, F_ORIG] = frames[p, F_ALPHA]
            frames[p, F_BEST] = -MATE - 1
            frames[p, F_BESTMOVE] = row[0]
            action = NEXT
        elif action == NEXT:
            n = frames[p, F_N]
            j = frames[p, F_J] + 1
            rank = 0
            if frames[p, F_Q] >= 0:
                if j >= n:
                    value = frames[p, F_ALPHA]
                    action = RETURN
                    continue
            else:
                if j >= n:
                    value = _finish(frames, p, tt_key, tt_val, tt_gen, st[KEY], ctr[GENERATION])
                    action = RETURN
                    continue
                if j < PICKED:
                    top = j
                    for k in range(j + 1, n):
                        if order[p, k] > order[p, top]:
                            top = k
                    m = moves[p, top]
                    moves[p, top] = moves[p, j]
                    moves[p, j] = m
                    rank = order[p, top]
                    order[p, top] = order[p, j]
                    order[p, j] = rank
                elif j == PICKED and n > j + 1:  # the rest in one sort, stable by rank
                    rest = np.argsort(-order[p, j:n], kind="mergesort")
                    moves[p, j:n] = moves[p, j:n][rest]
                    order[p, j:n] = order[p, j:n][rest]
                rank = order[p, j]
            frames[p, F_J] = j
            frames[p, F_CUT] = 0
            if (
                frames[p, F_Q] < 0
                and ctr[REDUCE]
                and j >= ctr[REDUCE]
                and frames[p, F_DEPTH] >= 2
                and rank < 1 << 38
            ):  # not the table's move, a tactical one or a killer
                frames[p, F_CUT] = 1
            turn = st[TURN]
            make(st, prm, moves[p, j], undo, p)
            frames[p, F_SAME] = st[TURN] == turn
            if frames[p, F_Q] >= 0:
                frames[p + 1, F_Q] = frames[p, F_Q] - 1
                _window(frames, p, frames[p, F_ALPHA], frames[p, F_BETA])
                frames[p, F_NULL] = 0
            else:
                frames[p + 1, F_Q] = -1
                frames[p + 1, F_DEPTH] = frames[p, F_DEPTH] - 1 - frames[p, F_CUT]
                if j == 0:
                    _window(frames, p, frames[p, F_ALPHA], frames[p, F_BETA])
                    frames[p, F_NULL] = 0
                else:
                    _window(frames, p, frames[p, F_ALPHA], frames[p, F_ALPHA] + 1)
                    frames[p, F_NULL] = 1
            p += 1
            action = ENTER
        else:  # RETURN: the child's value comes back to its parent
            if p == 1:
                return value
            p -= 1
            score = value if frames[p, F_SAME] else -value
            move = moves[p, frames[p, F_J]]
            if ctr[STOPPED]:
                unmake(st, prm, move, undo, p)
                value = 0
                continue
            if frames[p, F_CUT] and score > frames[p, F_ALPHA]:
                frames[p, F_CUT] = 0  # a reduced move beat the best: search it again to full depth
                frames[p + 1, F_Q] = -1
                frames[p + 1, F_DEPTH] = frames[p, F_DEPTH] - 1
                _window(frames, p, frames[p, F_ALPHA], frames[p, F_ALPHA] + 1)
                p += 1
                action = ENTER
                continue
            if frames[p, F_NULL] and frames[p, F_ALPHA] < score < frames[p, F_BETA]:
                frames[p, F_NULL] = 0  # the null window failed high: search again with the full one
                frames[p + 1, F_Q] = -1
                frames[p + 1, F_DEPTH] = frames[p, F_DEPTH] - 1
                _window(frames, p, frames[p, F_ALPHA], frames[p, F_BETA])
                p += 1
                action = ENTER
                continue
            unmake(st, prm, move, undo, p)
            if frames[p, F_Q] >= 0:
                if score > frames[p, F_ALPHA]:
                    frames[p, F_ALPHA] = score
                    if score >= frames[p, F_BETA]:
                        value = score
                        continue
                action = NEXT
                continue
            if score > frames[p, F_BEST]:
                frames[p, F_BEST] = score
                frames[p, F_BESTMOVE] = move
                if score > frames[p, F_ALPHA]:
                    frames[p, F_ALPHA] = score
                    if score >= frames[p, F_BETA]:
                        if not tactical(st, prm, move):
                            if killers[p, 0] != move:
                                killers[p, 1] = killers[p, 0]
                                killers[p, 0] = move
                            history[move & (HISTORY - 1)] += frames[p, F_DEPTH] * frames[p, F_DEPTH]
                        value = _finish(frames, p, tt_key, tt_val, tt_gen, st[KEY], ctr[GENERATION])
                        continue
            action = NEXT


@njit(cache=True, nogil=True)
def _finish(
    frames: IntArray,
    p: int,
    tt_key: IntArray,
    tt_val: IntArray,
    tt_gen: IntArray,
    key: int,
    generation: int,
) -> int:
    """Store the result of the full-width node at ply ``p`` in the table and return its value."""
    f = frames[p]
    best = f[F_BEST]
    stored = best
    if stored > MATE_BOUND:
        stored += p
    elif stored < -MATE_BOUND:
        stored -= p
    bound = UPPER if best <= f[F_ORIG] else LOWER if best >= f[F_BETA] else EXACT
    depth = min(max(f[F_DEPTH], 0), 127)
    _store(tt_key, tt_val, tt_gen, key, _pack(f[F_BESTMOVE], depth, bound, stored), generation)
    return int(best)


@njit(cache=True, nogil=True)
def _probe(tt_key: IntArray, key: int) -> int:
    """The table slot holding ``key``, or -1: either entry of its bucket (the even slot of the
    key's low bits, and the odd one after it)."""
    slot = key & (tt_key.size - 2)
    if tt_key[slot] == key:
        return int(slot)
    if tt_key[slot + 1] == key:
        return int(slot + 1)
    return -1


@njit(cache=True, nogil=True)
def _store(
    tt_key: IntArray, tt_val: IntArray, tt_gen: IntArray, key: int, entry: int, generation: int
) -> None:
    """Store ``entry`` for ``key`` in its bucket: over the key's own entry if it has one; else in
    the first entry if it is at least as deep as that entry's, or that entry is from an earlier
    search (whose entry then moves to the second one); else in the second entry.  So the deep
    results that order the next iteration's moves outlive the many shallow ones."""
    slot = key & (tt_key.size - 2)
    if tt_key[slot + 1] == key:
        slot += 1
    elif tt_key[slot] != key:
        if tt_gen[slot] == generation and _unpack(entry)[1] < _unpack(tt_val[slot])[1]:
            slot += 1
        else:
            tt_key[slot + 1] = tt_key[slot]
            tt_val[slot + 1] = tt_val[slot]
            tt_gen[slot + 1] = tt_gen[slot]
    tt_key[slot] = key
    tt_val[slot] = entry
    tt_gen[slot] = generation


@specialise(nogil=True)
def _pv(
    st: IntArray,
    prm: IntArray,
    first: int,
    line: IntArray,
    work: Workspace,
) -> int:
    """The principal variation after ``first``, read from the table; ``st`` is restored."""
    moves, undo, tt_key, tt_val = work.moves, work.undo, work.tt_key, work.tt_val
    line[0] = first
    length = 1
    make(st, prm, first, undo, 0)
    while length < line.size:
        slot = _probe(tt_key, st[KEY])
        if slot < 0:
            break
        move = _unpack(tt_val[slot])[0]
        n = generate(st, prm, moves[length])
        if status(st, prm, n) != ONGOING:
            break
        legal = False
        for j in range(n):
            if moves[length, j] == move:
                legal = True
        if not legal:
            break
        line[length] = move
        make(st, prm, move, undo, length)
        length += 1
    for j in range(length - 1, -1, -1):
        unmake(st, prm, line[j], undo, j)
    return length


def playout_of(kernel: Kernel) -> Callable[..., float]:
    """:func:`playout` compiled for ``kernel``."""
    found: Callable[..., float] = bind(__name__, kernel.name).playout
    return found


@njit(cache=True)
def seed_playouts(seed: int) -> None:
    """Seed the playouts' random numbers (numba's own generator, one per thread)."""
    np.random.seed(seed)


@specialise(nogil=True)
def playout(
    st: IntArray,
    prm: IntArray,
    cap: int,
    candidates: int,
    moves: IntArray,
    undo: IntArray,
) -> float:
    """Play randomly from ``st`` (restored afterwards), preferring tactical moves among
    ``candidates`` sampled ones, to the end or for ``cap`` plies; return White's share of the
    result (the evaluation's, squashed, when the cap ends the playout)."""
    played = np.zeros(cap, dtype=np.int64)
    pushed = 0
    value = 0.5
    while True:
        row = moves[min(pushed, moves.shape[0] - 1)]
        n = generate(st, prm, row)
        result = status(st, prm, n)
        to_move_white = st[TURN] == 0
        if result != ONGOING:
            if result == LOSS:
                value = 0.0 if to_move_white else 1.0
            elif result == WIN:
                value = 1.0 if to_move_white else 0.0
            else:
                value = 0.5
            break
        if pushed >= cap:
            score = evaluate(st, prm)
            mover = 1.0 / (1.0 + np.exp(-score / 300.0))
            value = mover if to_move_white else 1.0 - mover
            break
        code = row[np.random.randint(0, n)]
        if n > 1:
            for _ in range(candidates):
                candidate = row[np.random.randint(0, n)]
                if tactical(st, prm, candidate):
                    code = candidate
                    break
        make(st, prm, code, undo, pushed)
        played[pushed] = code
        pushed += 1
    for i in range(pushed - 1, -1, -1):
        unmake(st, prm, played[i], undo, i)
    return value
