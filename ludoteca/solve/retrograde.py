"""Retrograde analysis over material classes, shared by every game that solves positions by
material (numba).

A game lays its positions out in one dense index, class by class, where a *class* is the
material of both sides seen from the side to move.  Moves that keep the material (quiet moves)
lead from a class to its *mirror* (the same material with the sides exchanged); moves that change
it (captures, promotions) lead to classes solved before.  The game hands the classes over in
pairs (a class and its mirror, contiguous in the index), in an order where every move that
leaves a pair lands in a pair already solved, and provides, all compiled:

- ``decode(g, st, data) -> bool``: writes position ``g`` into a kernel state ``st`` (see
  :mod:`ludoteca.compiled.kernel`), whose ``generate``/``make``/``unmake`` give its moves; or
  returns ``False`` if ``g`` is no position of the table (a hole in the index, such as a
  position that cannot arise or is not its class's representative);
- ``encode(st, data) -> g``: the index of the position in ``st`` (a game with symmetries gives
  the index of the class's representative), or :data:`LOST` for a position lost at once;
- ``parents(g, out, st, data) -> n``: the positions (indices) from which one legal quiet move
  leads to ``g`` (each at least once; repeats are ignored).

Each entry of the table is an ``int16`` *code* for the side to move: ``0`` a draw (play goes on
for ever under best play), ``d + 1`` a win in ``d`` plies, ``-(d + 1)`` a loss in ``d`` plies; a
position without a move is lost in 0.  The winner wins as fast as possible and the loser loses
as slowly as possible.  Entry :data:`LOST` (index 0) is reserved: a position lost at once.

Within a pair, the classic level-by-level algorithm runs with a count of each position's
distinct unresolved quiet moves; the values of moves leaving the pair are read once at the start
(a win through a capture waits for its level, so that a faster quiet win is found first).  The
first pass and the search for parents run on every core (numba threads); the updates that
depend on each other run in order.  On a Ray cluster (:mod:`ludoteca.jobs`) the pairs of one
*stage* (a game's promise that moves leaving them land in earlier stages) are solved at once,
one task a pair.  Each stage solved can be saved to a checkpoint
(:mod:`ludoteca.solve.checkpoint`), from which a build stopped halfway goes on.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable, Hashable, Iterator, Sequence
from functools import partial
from typing import Any

import numpy as np
import numpy.typing as npt
from numba import njit, prange

from ..compiled.dispatch import bind, specialise
from ..compiled.kernel import STATE_SIZE, UNDO, generate, make, unmake
from ..compiled.registry import Kernel, registered
from ..jobs import Pool, parallel_map
from ..tables import Progress
from .checkpoint import Checkpoint

__all__ = ["HOLE", "LOST", "MAX_MOVES", "code_value", "solve_pairs", "tally"]

#: the reserved index of a position lost at once (the table's entry 0 holds its code, -1)
LOST = 0
#: the code of an index that is no position of the table (see ``entry``)
HOLE = -32768
#: the most moves, and the most parents, one position may have
MAX_MOVES, MAX_PARENTS = 1024, 256
#: positions per parallel task, and frontier positions whose parents are found at once
BLOCK, WAVE = 2048, 1 << 15

CodeArray = npt.NDArray[np.int16]


def code_value(code: int) -> tuple[int, int]:
    """``(value, plies)`` of a table code: 1 win, -1 loss, 0 draw (plies 0)."""
    if code > 0:
        return 1, code - 1
    if code < 0:
        return -1, -code - 1
    return 0, 0


def tally(codes: CodeArray) -> tuple[int, int, int]:
    """Wins, losses and draws among a table's positions (its reserved entry and holes aside)."""
    win = int(np.count_nonzero(codes > 0))
    draw = int(np.count_nonzero(codes == 0))
    loss = codes.size - win - draw - int(np.count_nonzero(codes == HOLE)) - 1
    return win, loss, draw


# --- a game's table functions (contracts in the module's docstring), as the specialised
# functions below call them; :func:`_bound` binds each to the game's own ---
def game_decode(g: int, st: npt.NDArray[np.int64], data: Any) -> bool:
    """The game's ``decode``."""
    raise NotImplementedError


def game_encode(st: npt.NDArray[np.int64], data: Any) -> int:
    """The game's ``encode``."""
    raise NotImplementedError


def game_parents(g: int, out: npt.NDArray[np.int64], st: npt.NDArray[np.int64], data: Any) -> int:
    """The game's ``parents``."""
    raise NotImplementedError


@njit(cache=True)
def _distinct(buf: npt.NDArray[np.int64], n: int) -> int:
    """Sorts ``buf[:n]`` in place and keeps each value once; returns how many are left."""
    for i in range(1, n):
        x = buf[i]
        j = i - 1
        while j >= 0 and buf[j] > x:
            buf[j + 1] = buf[j]
            j -= 1
        buf[j + 1] = x
    m = 0
    for i in range(n):
        if m == 0 or buf[i] != buf[m - 1]:
            buf[m] = buf[i]
            m += 1
    return m


@specialise()
def _children(
    g: int,
    out: npt.NDArray[np.int64],
    prm: npt.NDArray[np.int64],
    st: npt.NDArray[np.int64],
    moves: npt.NDArray[np.int64],
    undo: npt.NDArray[np.int64],
    data: Any,
) -> int:
    """The distinct children of ``g`` into ``out``; -1 if ``g`` is a hole."""
    if not game_decode(g, st, data):
        return -1
    n = generate(st, prm, moves)
    for i in range(n):
        make(st, prm, moves[i], undo, 0)
        out[i] = game_encode(st, data)
        unmake(st, prm, moves[i], undo, 0)
    return _distinct(out, n)


@specialise(parallel=True)
def _first_pass(
    lo: int,
    hi: int,
    table: CodeArray,
    pending: CodeArray,
    deepest: CodeArray,
    count: CodeArray,
    prm: npt.NDArray[np.int64],
    data: Any,
) -> None:
    """Every position's moves: the best one leaving the pair, and the count of quiet ones."""
    n = hi - lo
    blocks = (n + BLOCK - 1) // BLOCK
    for b in prange(blocks):
        st = np.zeros(STATE_SIZE, dtype=np.int64)
        moves = np.zeros(MAX_MOVES, dtype=np.int64)
        undo = np.zeros((1, UNDO), dtype=np.int64)
        buf = np.zeros(MAX_MOVES, dtype=np.int64)
        for i in range(b * BLOCK, min(n, (b + 1) * BLOCK)):
            g = lo + i
            m = _children(g, buf, prm, st, moves, undo, data)
            if m < 0:
                table[g] = HOLE
                continue
            quiet = 0
            win = 0
            slowest = -1
            drawn = False
            for j in range(m):
                c = buf[j]
                if lo <= c < hi:
                    quiet += 1
                    continue
                code = table[c]
                if code < 0:
                    if win == 0 or -code < win:
                        win = -code
                elif code == 0:
                    drawn = True
                else:
                    slowest = max(slowest, code - 1)
            count[i] = quiet
            if win:
                deepest[i] = -2
                if quiet:
                    pending[i] = win
                else:
                    table[g] = win + 1
            elif drawn:
                deepest[i] = -2
            else:
                deepest[i] = slowest
                if quiet == 0:
                    table[g] = -(slowest + 2)


@specialise(parallel=True)
def _parents_of(
    frontier: npt.NDArray[np.int64],
    start: int,
    stop: int,
    found: npt.NDArray[np.int64],
    sizes: npt.NDArray[np.int64],
    data: Any,
) -> None:
    """The distinct parents of ``frontier[start:stop]``, each entry's in its row of ``found``."""
    blocks = (stop - start + BLOCK - 1) // BLOCK
    for b in prange(blocks):
        st = np.zeros(STATE_SIZE, dtype=np.int64)
        for j in range(b * BLOCK, min(stop - start, (b + 1) * BLOCK)):
            row = found[j]
            sizes[j] = _distinct(row, game_parents(frontier[start + j], row, st, data))


@specialise()
def _levels(
    lo: int,
    hi: int,
    table: CodeArray,
    pending: CodeArray,
    deepest: CodeArray,
    count: CodeArray,
    data: Any,
    found: npt.NDArray[np.int64],
) -> int:
    """Resolves the pair level by level (``found``: scratch rows for parents); returns the
    number of levels.  Positions wait for their level in linked lists, one per level: those
    resolved (``head``/``after``) and those with a pending win (``due``/``also``)."""
    n = hi - lo
    head = np.full(1 << 15, -1, dtype=np.int64)
    after = np.full(n, -1, dtype=np.int64)
    due = np.full(1 << 15, -1, dtype=np.int64)
    also = np.full(n, -1, dtype=np.int64)
    top = 0
    for i in range(n):
        code = table[lo + i]
        if code != 0 and code != HOLE:
            d = abs(code) - 1
            after[i] = head[d]
            head[d] = i
            top = max(top, d)
        elif code == 0 and pending[i]:
            also[i] = due[pending[i]]
            due[pending[i]] = i
            top = max(top, pending[i])
    sizes = np.zeros(WAVE, dtype=np.int64)
    frontier = np.zeros(n, dtype=np.int64)
    level = 0
    while level <= top:
        width = 0
        i = head[level]
        while i >= 0:
            frontier[width] = lo + i
            width += 1
            i = after[i]
        i = due[level]
        while i >= 0:
            if table[lo + i] == 0:
                table[lo + i] = level + 1
                frontier[width] = lo + i
                width += 1
            i = also[i]
        for start in range(0, width, WAVE):
            stop = min(width, start + WAVE)
            _parents_of(frontier, start, stop, found, sizes, data)
            for j in range(stop - start):
                lost = table[frontier[start + j]] < 0
                for t in range(sizes[j]):
                    p = found[j, t]
                    if table[p] != 0:
                        continue
                    k = p - lo
                    if lost:
                        d = level + 1
                    else:
                        count[k] -= 1
                        if count[k] or deepest[k] == -2:
                            continue
                        d = max(level + 1, deepest[k] + 1)
                    table[p] = d + 1 if lost else -(d + 1)
                    after[k] = head[d]
                    head[d] = k
                    top = max(top, d)
        level += 1
    return level


def solve_pairs(
    size: int,
    pairs: Sequence[tuple[int, int, str]],
    kernel: Kernel,
    decode: Callable[..., Any],
    encode: Callable[..., Any],
    parents: Callable[..., Any],
    data: tuple[Any, ...],
    progress: Progress | None = None,
    pool: Pool | None = None,
    stages: Sequence[Hashable] | None = None,
    checkpoint: Checkpoint | None = None,
) -> CodeArray:
    """The table of ``size`` entries, solving the ``(lo, hi, label)`` pairs in order with the
    moves of ``kernel``, in this process (on every core: numba threads).

    Consecutive pairs of equal ``stages`` (one per pair: the game promises that every move
    leaving such a pair lands in a pair of an earlier stage; None: each pair a stage of its
    own) make one stage.  With a ``checkpoint`` (:class:`~ludoteca.solve.checkpoint.Checkpoint`)
    each stage is saved there once solved, and a build that finds the checkpoint of this very
    build (the same table key, size, stages, kernel and ``data``) takes the stages saved from
    it, saying ``resuming: N of M stages already solved``, and solves only the others.  With a
    Ray ``pool`` (:class:`~ludoteca.jobs.Pool` with an address) the pairs of a stage are solved
    at once, one Ray task a pair, each given the table of the earlier stages.  The table is the
    same whichever way it is built."""
    table = np.zeros(size, dtype=np.int16)
    table[LOST] = -1
    say = progress or (lambda _: None)
    spans = _spans(stages if stages is not None else range(len(pairs)))
    first = 0
    if checkpoint is not None:
        parts = [[(lo, hi) for lo, hi, _ in pairs[a:b]] for a, b in spans]
        first = checkpoint.resume(table, parts, (kernel.name, data))
        if first:
            say(f"resuming: {first} of {len(spans)} stages already solved")
    done = sum(hi - lo for lo, hi, _ in pairs[: spans[first - 1][1] if first else 0])
    names = (_name(decode), _name(encode), _name(parents))
    if pool is None or pool.ray is None:
        solve = _here(kernel, names, data)
    else:
        solve = _on_cluster(kernel, names, data, pool)
    for a, b in spans[first:]:
        for (lo, hi, label), levels in solve(table, pairs[a:b]):
            done += hi - lo
            say(f"{label}: {hi - lo:,} entries, {levels} levels ({100 * done / size:.0f}% done)")
        if checkpoint is not None:
            checkpoint.save(table)
    return table


#: solves the pairs of one stage in a table, yielding each pair with its number of levels
StageSolver = Callable[
    [CodeArray, Sequence[tuple[int, int, str]]], Iterator[tuple[tuple[int, int, str], int]]
]


def _spans(stages: Sequence[Hashable]) -> list[tuple[int, int]]:
    """The ``(start, stop)`` indices of each run of equal stages."""
    spans: list[tuple[int, int]] = []
    for i, stage in enumerate(stages):
        if spans and stages[spans[-1][0]] == stage:
            spans[-1] = (spans[-1][0], i + 1)
        else:
            spans.append((i, i + 1))
    return spans


def _here(kernel: Kernel, names: tuple[str, str, str], data: tuple[Any, ...]) -> StageSolver:
    """Pairs solved one after the other in this process (``names``: see :func:`_bound`)."""
    code = _bound(kernel.name, names)
    found = np.zeros((WAVE, MAX_PARENTS), dtype=np.int64)

    def solve(
        table: CodeArray, pairs: Sequence[tuple[int, int, str]]
    ) -> Iterator[tuple[tuple[int, int, str], int]]:
        for pair in pairs:
            lo, hi, _ = pair
            yield pair, _solve_pair(code, table, lo, hi, kernel.prm, data, found)

    return solve


def _on_cluster(
    kernel: Kernel, names: tuple[str, str, str], data: tuple[Any, ...], pool: Pool
) -> StageSolver:
    """Pairs solved at once on the Ray cluster of ``pool``, one task a pair."""
    home = registered()[kernel.name]

    def solve(
        table: CodeArray, pairs: Sequence[tuple[int, int, str]]
    ) -> Iterator[tuple[tuple[int, int, str], int]]:
        piece = partial(_piece, table, home, kernel.name, kernel.prm, names, data)
        for pair, (codes, levels) in parallel_map(piece, pairs, pool):
            table[pair[0] : pair[1]] = codes
            yield pair, levels

    return solve


def _bound(kernel: str, names: tuple[str, str, str]) -> Any:
    """This module's compiled functions for ``kernel`` and a game's table functions (``names``:
    its decode, encode and parents, see :func:`_name`), called as ``game_decode``,
    ``game_encode`` and ``game_parents``: compiled once and cached by numba."""
    decode, encode, parents = names
    return bind(__name__, kernel, game_decode=decode, game_encode=encode, game_parents=parents)


def _solve_pair(
    code: Any,
    table: CodeArray,
    lo: int,
    hi: int,
    prm: npt.NDArray[np.int64],
    data: Any,
    found: npt.NDArray[np.int64],
) -> int:
    """Solves the pair ``[lo, hi)`` of ``table`` in place (``code``: this module bound by
    :func:`_bound`); returns its number of levels."""
    n = hi - lo
    pending = np.zeros(n, dtype=np.int16)  # a win by a move leaving the pair, in plies
    deepest = np.full(n, -1, dtype=np.int16)  # the slowest won exit; -2: cannot be lost
    count = np.zeros(n, dtype=np.int16)  # distinct quiet moves not yet known to be won
    code._first_pass(lo, hi, table, pending, deepest, count, prm, data)
    return int(code._levels(lo, hi, table, pending, deepest, count, data, found))


def _name(function: Callable[..., Any]) -> str:
    """``module:name`` of a game's compiled function, for :func:`_bound` (and a Ray worker) to
    import it (a numba function sent by value would be compiled again in every task)."""
    return f"{function.__module__}:{function.__name__}"


def _piece(
    earlier: CodeArray,
    home: str,
    kernel: str,
    prm: npt.NDArray[np.int64],
    names: tuple[str, str, str],
    data: Any,
    pair: tuple[int, int, str],
) -> tuple[CodeArray, int]:
    """One pair solved in a worker (a Ray task) from the table of the earlier stages: its codes
    and its number of levels.  ``home``: the kernel's module, imported to register it;
    ``names``: the game's decode, encode and parents functions (see :func:`_name`)."""
    importlib.import_module(home)
    lo, hi, _ = pair
    table = np.array(earlier)  # a writable copy: the pair's own entries are filled here
    found = np.zeros((WAVE, MAX_PARENTS), dtype=np.int64)
    levels = _solve_pair(_bound(kernel, names), table, lo, hi, prm, data, found)
    return table[lo:hi].copy(), levels
