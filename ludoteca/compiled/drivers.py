"""Drivers that play a game by its compiled kernel alone: random games and move counts (perft),
for benchmarks and for checking a kernel against its engine.

>>> import ludoteca
>>> perft_counts(ludoteca.new_game("felli"), 2)
[3, 3]
"""

from __future__ import annotations

import numpy as np

from ..core import Color, State
from .dispatch import bind, specialise
from .kernel import LOSS, ONGOING, TURN, UNDO, WIN, IntArray, generate, make, status, unmake
from .registry import Kernel

__all__ = ["perft_counts", "random_game", "random_plies"]


@specialise()
def _random_game(
    st: IntArray, prm: IntArray, seed: int, cap: int, codes: IntArray, counts: IntArray
) -> tuple[int, int]:
    np.random.seed(seed)
    out = np.empty(4096, dtype=np.int64)
    undo = np.zeros((1, UNDO), dtype=np.int64)
    plies = 0
    while True:
        n = generate(st, prm, out)
        result = status(st, prm, n)
        if result != ONGOING or plies >= cap:
            return plies, result
        code = out[np.random.randint(0, n)]
        if plies < codes.size:
            codes[plies] = code
            counts[plies] = n
        make(st, prm, code, undo, 0)
        plies += 1


@specialise()
def _perft(st: IntArray, prm: IntArray, depth: int, counts: IntArray) -> None:
    moves = np.empty((depth, 4096), dtype=np.int64)
    undo = np.zeros((depth, UNDO), dtype=np.int64)
    n = np.zeros(depth, dtype=np.int64)
    at = np.zeros(depth, dtype=np.int64)
    ply = 0
    k = generate(st, prm, moves[0])
    n[0] = k if status(st, prm, k) == ONGOING else 0
    counts[1] += n[0]
    while ply >= 0:
        if ply + 1 == depth or at[ply] == n[ply]:
            ply -= 1
            if ply >= 0:
                unmake(st, prm, moves[ply, at[ply] - 1], undo, ply)
            continue
        make(st, prm, moves[ply, at[ply]], undo, ply)
        at[ply] += 1
        ply += 1
        k = generate(st, prm, moves[ply])
        n[ply] = k if status(st, prm, k) == ONGOING else 0
        at[ply] = 0
        counts[ply + 1] += n[ply]


def _kernel(state: State) -> Kernel:
    kernel = state.game.kernel
    if kernel is None:
        raise ValueError(f"{state.game.title} has no compiled kernel")
    return kernel


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
    code = bind(__name__, kernel.name)
    plies, result = code._random_game(st, kernel.prm, seed, cap, codes, counts)
    mover = Color(int(st[TURN]))
    winner = {LOSS: mover.other, WIN: mover}.get(int(result))
    return codes[:plies].tolist(), counts[:plies].tolist(), winner


def random_plies(state: State, games: int, seed: int, cap: int = 1000) -> int:
    """Play ``games`` random games from ``state``; the total number of plies (a benchmark)."""
    kernel = _kernel(state)
    code = bind(__name__, kernel.name)
    empty = np.zeros(0, dtype=np.int64)
    total = 0
    for g in range(games):
        total += code._random_game(kernel.pack(state), kernel.prm, seed + g, cap, empty, empty)[0]
    return total


def perft_counts(state: State, depth: int) -> list[int]:
    """The number of move sequences of exactly d moves from ``state`` for d = 1..depth, counted
    by its compiled kernel (as :func:`ludoteca.perft.perft_counts` counts them with the engine,
    except that the kernel knows no repetition draw)."""
    if not 1 <= depth <= 64:
        raise ValueError("perft depth must be 1 to 64")
    kernel = _kernel(state)
    counts = np.zeros(depth + 1, dtype=np.int64)
    bind(__name__, kernel.name)._perft(kernel.pack(state), kernel.prm, depth, counts)
    return [int(n) for n in counts[1:]]
