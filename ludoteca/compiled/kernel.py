"""The compiled face every game may offer to the one compiled search (numba).

A game's kernel keeps a position in a flat ``int64`` array ``st`` and its rules in a flat
``int64`` array ``prm`` (geometry, switches, Zobrist keys), and provides these ``@njit``
functions:

- ``generate(st, prm, out) -> n``: the legal move codes (the engine's own codes) into ``out``,
  whatever the draw rules say;
- ``make(st, prm, move, undo, ply)`` / ``unmake(st, prm, move, undo, ply)``: play and take back
  a move, keeping ``st[KEY]`` (the Zobrist key) up to date; ``undo[ply]`` (a row of a 2-D
  scratch array, one per ply of a search) keeps what ``unmake`` needs;
- ``status(st, prm, n) -> ONGOING | LOSS | DRAW | WIN``: whether the game is over for the side to
  move, given its ``n`` legal moves (draw rules included, repetition excepted: the search tracks
  that itself);
- ``evaluate(st, prm) -> int``: a heuristic score for the side to move (1000: clearly won);
- ``tactical(st, prm, move) -> bool``: a capture, removal or conversion;
- optionally ``captures(st, prm, row, n) -> k``: the tactical moves among ``row[:n]`` moved to
  its front, for the quiescence search, where a game finds them faster than one test a move.

The first slots of ``st`` are shared by every game (:data:`KEY`, :data:`TURN`, :data:`QUIET`);
each game lays out the rest.  ``ludoteca.games.kernels`` dispatches on a game's kind number, so
the search is compiled once for every game and cached on disk.  Python's :class:`Kernel` says
how a state becomes ``st``.

Two habits keep the kernels fast.  A numba call costs tens of nanoseconds (as much as a whole
Morris move), so ``make``, ``unmake``, ``status``, ``tactical`` and a kernel's small helpers are
declared ``inline="always"`` (numba copies them into their callers).  And taking a view of an
array (``a[i]`` of a 2-D array, a slice, a reshape) counts a reference: hot code indexes whole
arrays (``undo[ply, k]``, ``st[OFFSET + i]``) instead.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import numpy as np
import numpy.typing as npt
from numba import njit, types
from numba.core.extending import intrinsic
from numba.cpython.unsafe.numbers import trailing_zeros

from ..core import State

__all__ = [
    "DRAW",
    "KEY",
    "LOSS",
    "ONGOING",
    "QUIET",
    "TURN",
    "UNDO",
    "WIN",
    "Kernel",
    "bit_count",
    "low_bit",
    "split",
    "zobrist",
]

KEY, TURN, QUIET = 0, 1, 2
#: the size of a kernel's ``st`` array and of one ``undo`` row
STATE_SIZE, UNDO = 512, 48
ONGOING, LOSS, DRAW, WIN = 0, 1, 2, 3

IntArray = npt.NDArray[np.int64]


@dataclass(frozen=True)
class Kernel:
    """A game's compiled face for one rule set: its kind number (see ``kernels.py``), its
    parameters, how a :class:`State` becomes the kernel's ``st`` array, and how many of its
    first slots describe the position (the rest is the kernel's scratch space).

    ``reduce_after`` tunes the search for the game's branching: at a node at least three plies
    from the horizon, the quiet moves ordered after the first ``reduce_after`` (neither the
    table's move, a tactical move nor a killer) are first searched one ply shallower and
    searched again in full only if they beat the best so far; 0 searches every move in full."""

    kind: int
    prm: IntArray
    pack: Callable[[State], IntArray]
    fields: int
    reduce_after: int = 0


def zobrist(count: int, salt: int) -> IntArray:
    """``count`` fixed pseudo-random 64-bit keys (the same in every process)."""
    rng = np.random.Generator(np.random.PCG64(0x5EED + salt))
    return rng.integers(np.iinfo(np.int64).min, np.iinfo(np.int64).max, size=count, dtype=np.int64)


@intrinsic
def popcount(typingctx: Any, src: Any) -> Any:
    """The number of set bits of an integer (one machine instruction; for kernels)."""
    if not isinstance(src, types.Integer):
        return None

    def codegen(context: Any, builder: Any, signature: Any, args: Any) -> Any:
        return builder.ctpop(args[0])

    return src(src), codegen


@njit(cache=True)
def bit_count(x: int) -> int:
    """The number of set bits of ``x``."""
    return int(popcount(x))  # type: ignore[call-arg]


@njit(cache=True)
def low_bit(x: int) -> int:
    """The index of the lowest set bit of ``x`` (``x`` not 0)."""
    return int(trailing_zeros(x))  # type: ignore[call-arg]


@njit(cache=True)
def split(a: int, d: int) -> tuple[int, int]:
    """``divmod(a, d)`` for ``0 <= a < 2**50`` and ``d > 0`` (a move code and a board size), by a
    floating-point multiplication and one correction: several times cheaper than an integer
    division, which the kernels would otherwise pay several times a move."""
    q = int(a * (1.0 / d))
    r = a - q * d
    if r < 0:
        q -= 1
        r += d
    elif r >= d:
        q += 1
        r -= d
    return q, r
