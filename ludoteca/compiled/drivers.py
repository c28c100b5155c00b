"""The registry of compiled kernels: one number per game kind, and the six kernel functions
(see :mod:`.kernel`) dispatched on it, so that one compiled search serves every game.

Adding a game's kernel means giving it the next number here and a branch in each function.

numba keeps compiled code beside each module and checks only that module's own source for
changes, so code compiled into the search from a kernel that has changed since would be reused.
Importing this module therefore fingerprints every kernel source and, when the fingerprint
changes, drops the cached dispatch and search code before anything is compiled or loaded.
"""

from __future__ import annotations

import hashlib
from pathlib import Path

import numpy as np
import numpy.typing as npt
from numba import njit

from ..core import Color, State
from . import felli_kernel as felli
from . import morelli_kernel as morelli
from . import morris_kernel as morris
from .kernel import LOSS, ONGOING, TURN, UNDO, WIN, Kernel


def _drop_stale_caches() -> None:
    here = Path(__file__).parent
    sources = sorted(
        [
            *here.glob("*_kernel.py"),
            here / "kernel.py",
            Path(__file__),
            here.parent / "ai" / "compiled.py",
        ]
    )
    digest = hashlib.sha256(b"".join(p.read_bytes() for p in sources)).hexdigest()
    for folder in {p.parent / "__pycache__" for p in sources}:
        mark = folder / "ludoteca-kernels.sha256"
        try:
            if mark.exists() and mark.read_text() == digest:
                continue
            for cached in [*folder.glob("kernels.*.nb[ic]"), *folder.glob("compiled.*.nb[ic]")]:
                cached.unlink(missing_ok=True)
            folder.mkdir(exist_ok=True)
            mark.write_text(digest)
        except OSError:
            pass  # a read-only install: numba then compiles in memory or its own cache dir


_drop_stale_caches()  # (numba reads its caches at the first call, not at import)

__all__ = [
    "can_move",
    "captures",
    "evaluate",
    "generate",
    "make",
    "perft_counts",
    "random_game",
    "random_plies",
    "status",
    "tactical",
    "unmake",
]

IntArray = npt.NDArray[np.int64]
MORRIS, FELLI, MORELLI = 0, 1, 2


@njit(cache=True)
def generate(kind: int, st: IntArray, prm: IntArray, out: IntArray) -> int:
    if kind == FELLI:
        return felli.generate(st, prm, out)
    elif kind == MORELLI:
        return morelli.generate(st, prm, out)
    else:
        return morris.generate(st, prm, out)


@njit(cache=True)
def can_move(kind: int, st: IntArray, prm: IntArray, out: IntArray) -> int:
    """1 or 0: whether the side to move has a legal move, for a game that can tell without
    generating them all (``out`` is scratch); -1 for the others (generate the moves instead)."""
    if kind == MORELLI:
        return 1 if morelli.can_move(st, prm, out) else 0
    return -1


@njit(cache=True, inline="always")
def make(kind: int, st: IntArray, prm: IntArray, move: int, undo: IntArray, ply: int) -> None:
    if kind == FELLI:
        felli.make(st, prm, move, undo, ply)
    elif kind == MORELLI:
        morelli.make(st, prm, move, undo, ply)
    else:
        morris.make(st, prm, move, undo, ply)


@njit(cache=True, inline="always")
def unmake(kind: int, st: IntArray, prm: IntArray, move: int, undo: IntArray, ply: int) -> None:
    if kind == FELLI:
        felli.unmake(st, prm, move, undo, ply)
    elif kind == MORELLI:
        morelli.unmake(st, prm, move, undo, ply)
    else:
        morris.unmake(st, prm, move, undo, ply)


@njit(cache=True, inline="always")
def status(kind: int, st: IntArray, prm: IntArray, n: int) -> int:
    if kind == FELLI:
        return felli.status(st, prm, n)
    elif kind == MORELLI:
        return morelli.status(st, prm, n)
    else:
        return morris.status(st, prm, n)


@njit(cache=True)
def evaluate(kind: int, st: IntArray, prm: IntArray) -> int:
    if kind == FELLI:
        return felli.evaluate(st, prm)
    elif kind == MORELLI:
        return morelli.evaluate(st, prm)
    else:
        return morris.evaluate(st, prm)


@njit(cache=True, inline="always")
def tactical(kind: int, st: IntArray, prm: IntArray, move: int) -> bool:
    if kind == FELLI:
        return felli.tactical(st, prm, move)
    elif kind == MORELLI:
        return morelli.tactical(st, prm, move)
    else:
        return morris.tactical(st, prm, move)


@njit(cache=True)
def captures(kind: int, st: IntArray, prm: IntArray, row: IntArray, n: int) -> int:
    """Move the tactical moves among ``row[:n]`` to its front; return how many there are (one
    test a move, unless the game finds them its own way)."""
    if kind == MORELLI:
        return morelli.captures(st, prm, row, n)
    found = 0
    for j in range(n):
        move = row[j]
        if tactical(kind, st, prm, move):
            row[j] = row[found]
            row[found] = move
            found += 1
    return found


@njit(cache=True)
def _random_game(
    kind: int, st: IntArray, prm: IntArray, seed: int, cap: int, codes: IntArray, counts: IntArray
) -> tuple[int, int]:
    np.random.seed(seed)
    out = np.empty(4096, dtype=np.int64)
    undo = np.zeros((1, UNDO), dtype=np.int64)
    plies = 0
    while True:
        n = generate(kind, st, prm, out)
        result = status(kind, st, prm, n)
        if result != ONGOING or plies >= cap:
            return plies, result
        code = out[np.random.randint(0, n)]
        if plies < codes.size:
            codes[plies] = code
            counts[plies] = n
        make(kind, st, prm, code, undo, 0)
        plies += 1


_KERNELS: dict[tuple[str, str], Kernel] = {}


def _kernel(state: State) -> Kernel:
    """The compiled kernel of the state's rule set, built once per process."""
    key = (state.game.name, str(state.rules))
    if key not in _KERNELS:
        kernel = state.game.kernel(state.rules)
        if kernel is None:
            raise ValueError(f"{state.game.title} has no compiled kernel")
        _KERNELS[key] = kernel
    return _KERNELS[key]


def random_game(
    state: State, seed: int, cap: int = 1000
) -> tuple[list[int], list[int], Color | None]:
    """A uniformly random game from ``state`` (left unchanged), played by its kernel without
    repetition draws: the move codes, the number of legal moves before each, and the winner
    (``None`` for a draw or a game stopped at ``cap`` plies)."""
    kernel = _kernel(state)
    st = kernel.pack(state)
    codes = np.zeros(cap, dtype=np.int64)
    counts = np.zeros(cap, dtype=np.int64)
    plies, result = _random_game(kernel.kind, st, kernel.prm, seed, cap, codes, counts)
    mover = Color(int(st[TURN]))
    winner = {LOSS: mover.other, WIN: mover}.get(int(result))
    return codes[:plies].tolist(), counts[:plies].tolist(), winner


def random_plies(state: State, games: int, seed: int, cap: int = 1000) -> int:
    """Play ``games`` random games from ``state``; the total number of plies (a benchmark)."""
    kernel = _kernel(state)
    empty = np.zeros(0, dtype=np.int64)
    total = 0
    for g in range(games):
        total += _random_game(
            kernel.kind, kernel.pack(state), kernel.prm, seed + g, cap, empty, empty
        )[0]
    return total


@njit(cache=True)
def _perft(kind: int, st: IntArray, prm: IntArray, depth: int, counts: IntArray) -> None:
    moves = np.empty((depth, 4096), dtype=np.int64)
    undo = np.zeros((depth, UNDO), dtype=np.int64)
    n = np.zeros(depth, dtype=np.int64)
    at = np.zeros(depth, dtype=np.int64)
    ply = 0
    k = generate(kind, st, prm, moves[0])
    n[0] = k if status(kind, st, prm, k) == ONGOING else 0
    counts[1] += n[0]
    while ply >= 0:
        if ply + 1 == depth or at[ply] == n[ply]:
            ply -= 1
            if ply >= 0:
                unmake(kind, st, prm, moves[ply, at[ply] - 1], undo, ply)
            continue
        make(kind, st, prm, moves[ply, at[ply]], undo, ply)
        at[ply] += 1
        ply += 1
        k = generate(kind, st, prm, moves[ply])
        n[ply] = k if status(kind, st, prm, k) == ONGOING else 0
        at[ply] = 0
        counts[ply + 1] += n[ply]


def perft_counts(state: State, depth: int) -> list[int]:
    """The number of move sequences of exactly d moves from ``state`` for d = 1..depth, counted
    by its compiled kernel (as :func:`ludoteca.perft.perft_counts` counts them with the engine,
    except that the kernel knows no repetition draw)."""
    if not 1 <= depth <= 64:
        raise ValueError("perft depth must be 1 to 64")
    kernel = _kernel(state)
    counts = np.zeros(depth + 1, dtype=np.int64)
    _perft(kernel.kind, kernel.pack(state), kernel.prm, depth, counts)
    return [int(n) for n in counts[1:]]
