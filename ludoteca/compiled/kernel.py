"""The kernel interface: what a game's compiled kernel (numba) offers the compiled search.

A game's kernel keeps a position in a flat ``int64`` array ``st`` and its rules in a flat ``int64``
array ``prm`` (geometry, switches, Zobrist keys). Its module, registered in :mod:`.registry`,
defines the ``@njit`` functions stubbed below: :func:`generate`, :func:`make`, :func:`unmake`,
:func:`status`, :func:`evaluate` and :func:`tactical`, and optionally :func:`captures`,
:func:`can_move` and :func:`prior` (for the search), :func:`planes`, :func:`action_path`,
:func:`next_actions` and :func:`moves_with` (for the batched environments, :mod:`.batch`) and
:func:`features` (for tuning the evaluation, :mod:`ludoteca.ai.tune`). The search and drivers
are written once against these names and specialised for each kernel by :mod:`.dispatch`.

The first slots of ``st`` are shared by every game (:data:`KEY`, :data:`TURN`, :data:`QUIET`);
each game lays out the rest.  Python's :class:`~.registry.Kernel` says how a state becomes
``st``.

Three habits keep the kernels fast.  A numba call costs tens of nanoseconds (as much as a whole
Morris move), so ``make``, ``unmake``, ``status``, ``tactical`` and a kernel's small helpers are
declared ``inline="always"`` (numba copies them into their callers).  Taking a view of an
array (``a[i]`` of a 2-D array, a slice, a reshape) counts a reference: hot code indexes whole
arrays (``undo[ply, k]``, ``st[OFFSET + i]``) instead.  And numba wraps a negative index
around, three instructions a dimension wherever the compiler cannot see that the index is not
negative (a value read from an array, a product): the hottest loops read and write such
indices with :func:`load` and :func:`store`, which do not (the Morris generator 13% faster).
"""

from __future__ import annotations

from typing import Any

import numpy as np
import numpy.typing as npt
from llvmlite import ir
from numba import njit, types
from numba.core import cgutils
from numba.core.extending import intrinsic
from numba.cpython.unsafe.numbers import leading_zeros, trailing_zeros

__all__ = [
    "DRAW",
    "KEY",
    "LOSS",
    "ONGOING",
    "QUIET",
    "TURN",
    "UNDO",
    "WIN",
    "action_path",
    "bare",
    "bit_count",
    "can_move",
    "captures",
    "evaluate",
    "features",
    "generate",
    "high_bit",
    "load",
    "low_bit",
    "make",
    "moves_with",
    "next_actions",
    "planes",
    "prefetch",
    "prior",
    "split",
    "status",
    "store",
    "tactical",
    "unmake",
    "zobrist",
]

KEY, TURN, QUIET = 0, 1, 2
#: the size of a kernel's ``st`` array and of one ``undo`` row
STATE_SIZE, UNDO = 512, 48
ONGOING, LOSS, DRAW, WIN = 0, 1, 2, 3

IntArray = npt.NDArray[np.int64]


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


def _as_bare(typingctx: Any, array: Any) -> Any:
    """``array`` over the same memory without its owner (a numba intrinsic): neither it nor the
    views taken of it count references, for hot loops: each view of an owned array (``a[i]``)
    handed to a function, and each parameter of an inlined one, costs an atomic increment and
    decrement (a quarter of a batched step before the drivers took bare arrays).  The caller
    keeps the arrays alive while the bare ones are in use."""

    def codegen(context: Any, builder: Any, signature: Any, args: Any) -> Any:
        bare = context.make_array(signature.args[0])(context, builder, args[0])
        owner = types.MemInfoPointer(types.voidptr)  # type: ignore[no-untyped-call]
        bare.meminfo = context.get_constant_null(owner)
        bare.parent = context.get_constant_null(types.pyobject)
        return bare._getvalue()

    return array(array), codegen


bare: Any = intrinsic(_as_bare)


def _element(context: Any, builder: Any, kind: Any, array: Any, where: Any, value: Any) -> Any:
    """A pointer to the element of ``array`` (of type ``kind``) at the index ``value`` (of type
    ``where``: an integer, or a tuple of them), negative indices not wrapped around."""
    tupled = isinstance(where, types.BaseTuple)
    if tupled:
        values = cgutils.unpack_tuple(builder, value, len(where))  # type: ignore[no-untyped-call]
        parts = zip(values, list(where), strict=True)
    else:
        parts = zip([value], [where], strict=True)
    index = [context.cast(builder, v, t, types.intp) for v, t in parts]
    view = context.make_array(kind)(context, builder, array)
    return cgutils.get_item_pointer(  # type: ignore[no-untyped-call]
        context, builder, kind, view, index, wraparound=False
    )


def _load(typingctx: Any, array: Any, index: Any) -> Any:
    """``array[index]`` for an index known not to be negative (a numba intrinsic): numba wraps
    a signed index around (three instructions a dimension), which a hot loop may not afford."""

    def codegen(context: Any, builder: Any, signature: Any, args: Any) -> Any:
        at = _element(context, builder, signature.args[0], args[0], signature.args[1], args[1])
        return context.unpack_value(builder, signature.args[0].dtype, at)

    return array.dtype(array, index), codegen


def _store(typingctx: Any, array: Any, index: Any, value: Any) -> Any:
    """``array[index] = value`` for an index known not to be negative (a numba intrinsic)."""

    def codegen(context: Any, builder: Any, signature: Any, args: Any) -> Any:
        kind = signature.args[0]
        at = _element(context, builder, kind, args[0], signature.args[1], args[1])
        cast = context.cast(builder, args[2], signature.args[2], kind.dtype)
        context.pack_value(builder, kind.dtype, cast, at)
        return context.get_dummy_value()

    return types.void(array, index, value), codegen


def _prefetch(typingctx: Any, array: Any, index: Any) -> Any:
    """Ask the processor to bring in the cache line of ``array[index]`` (not negative), to be
    written (a numba intrinsic: a hint, which changes no result)."""

    def codegen(context: Any, builder: Any, signature: Any, args: Any) -> Any:
        at = _element(context, builder, signature.args[0], args[0], signature.args[1], args[1])
        byte, word = ir.IntType(8).as_pointer(), ir.IntType(32)
        hint = ir.FunctionType(ir.VoidType(), [byte, word, word, word])
        call = cgutils.get_or_insert_function(  # type: ignore[no-untyped-call]
            builder.module, hint, "llvm.prefetch.p0"
        )
        builder.call(call, [builder.bitcast(at, byte), word(1), word(3), word(1)])
        return context.get_dummy_value()

    return types.void(array, index), codegen


load: Any = intrinsic(_load)
store: Any = intrinsic(_store)
prefetch: Any = intrinsic(_prefetch)


@njit(cache=True)
def bit_count(x: int) -> int:
    """The number of set bits of ``x``."""
    return int(popcount(x))  # type: ignore[call-arg]


@njit(cache=True)
def low_bit(x: int) -> int:
    """The index of the lowest set bit of ``x`` (``x`` not 0)."""
    return int(trailing_zeros(x))  # type: ignore[call-arg]


@njit(cache=True)
def high_bit(x: int) -> int:
    """The index of the highest set bit of ``x`` (``0 < x < 2**63``)."""
    return 63 - int(leading_zeros(x))  # type: ignore[call-arg]


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


# --- the interface: each kernel module defines these (the search is written against them) ---
def generate(st: IntArray, prm: IntArray, out: IntArray) -> int:
    """Write the codes of the legal moves (the engine's own codes) into ``out``; return how
    many there are, whatever the draw rules say."""
    raise NotImplementedError


def make(st: IntArray, prm: IntArray, move: int, undo: IntArray, ply: int) -> None:
    """Play ``move``, keeping ``st[KEY]`` (the Zobrist key, which holds the side to move) up to
    date; every move passes the turn (``st[TURN]``).  ``undo[ply]`` (a row of a 2-D scratch
    array, one per ply of a search) keeps what :func:`unmake` needs."""
    raise NotImplementedError


def unmake(st: IntArray, prm: IntArray, move: int, undo: IntArray, ply: int) -> None:
    """Take back ``move``, played by :func:`make` with the same ``undo`` and ``ply``."""
    raise NotImplementedError


def status(st: IntArray, prm: IntArray, n: int) -> int:
    """``ONGOING``, ``LOSS``, ``DRAW`` or ``WIN`` for the side to move, given its ``n`` legal
    moves (draw rules included, repetition excepted: the search tracks that itself).  A kernel
    with :func:`next_actions` reads only whether ``n`` is 0, which its count of first actions
    may stand for."""
    raise NotImplementedError


def evaluate(st: IntArray, prm: IntArray) -> int:
    """A heuristic score for the side to move (1000: clearly won)."""
    raise NotImplementedError


def tactical(st: IntArray, prm: IntArray, move: int) -> bool:
    """Whether ``move`` is a capture, removal or conversion."""
    raise NotImplementedError


def captures(st: IntArray, prm: IntArray, row: IntArray, n: int) -> int:
    """Optional: move the tactical moves among ``row[:n]`` to its front and return how many
    there are, for the quiescence search, where a game finds them faster than by one
    :func:`tactical` test a move (the default)."""
    raise NotImplementedError


def can_move(st: IntArray, prm: IntArray, out: IntArray) -> bool:
    """Optional: whether the side to move has a legal move, for a game that can tell without
    generating them all (``out`` is scratch); quiescence then stands pat first."""
    raise NotImplementedError


def prior(st: IntArray, prm: IntArray, move: int) -> int:
    """Optional: how promising the quiet ``move`` looks before any search, 0 (no idea, the
    default), 1 or 2: the search tries quiet moves by this first and by their history
    second, after the table's move, the tactical moves and the killers."""
    raise NotImplementedError


def planes(st: IntArray, prm: IntArray, out: npt.NDArray[np.float32]) -> None:
    """Optional: write the position's feature planes, as the engine's ``State.planes`` gives
    them, into ``out`` (plane ``k`` of point ``p`` at ``k * points + p``), for the batched
    environments and the research adapters."""
    raise NotImplementedError


def features(st: IntArray, prm: IntArray, out: npt.NDArray[np.float64]) -> None:
    """Optional: write the evaluation's features into ``out``, one a weight of the kernel's
    :attr:`~.registry.Kernel.weights` in their order, such that :func:`evaluate` is their dot
    product with those weights (which ``prm`` holds), for tuning the weights."""
    raise NotImplementedError


def action_path(prm: IntArray, move: int, out: IntArray) -> int:
    """Optional: write the integer actions that spell ``move``, as the engine's
    ``State.action_path`` gives them, into ``out``; return how many.  The default is the one
    action ``move``."""
    raise NotImplementedError


def next_actions(st: IntArray, prm: IntArray, out: IntArray) -> int:
    """Optional, with :func:`action_path` and :func:`moves_with`: write the first actions of the
    legal moves (draw rules aside), each once, into ``out``; return how many (:func:`status`
    then reads only whether it is 0).  For a game whose moves many share a first action (a
    Morris mill and its removals), cheaper than :func:`generate`: the batched environments list
    a position's first actions with it, and its moves only once one is taken."""
    raise NotImplementedError


def moves_with(st: IntArray, prm: IntArray, action: int, out: IntArray) -> int:
    """Optional, with :func:`next_actions`: write the legal moves whose :func:`action_path`
    starts with ``action`` (one of :func:`next_actions`), in :func:`generate`'s codes, into
    ``out``; return how many."""
    raise NotImplementedError
