"""The registry of compiled kernels: one number per game kind, and the six kernel functions
(see :mod:`.kernel`) dispatched on it, so that one compiled search serves every game.

Adding a game's kernel means giving it the next number here and a branch in each function.
"""

from __future__ import annotations

import numpy as np
import numpy.typing as npt
from numba import njit

from . import morris_kernel as morris

__all__ = ["evaluate", "generate", "make", "status", "tactical", "unmake"]

IntArray = npt.NDArray[np.int64]
MORRIS = 0


@njit(cache=True)
def generate(kind: int, st: IntArray, prm: IntArray, out: IntArray) -> int:
    return morris.generate(st, prm, out)


@njit(cache=True)
def make(kind: int, st: IntArray, prm: IntArray, move: int, undo: IntArray) -> None:
    morris.make(st, prm, move, undo)


@njit(cache=True)
def unmake(kind: int, st: IntArray, prm: IntArray, move: int, undo: IntArray) -> None:
    morris.unmake(st, prm, move, undo)


@njit(cache=True)
def status(kind: int, st: IntArray, prm: IntArray, n: int) -> int:
    return morris.status(st, prm, n)


@njit(cache=True)
def evaluate(kind: int, st: IntArray, prm: IntArray) -> int:
    return morris.evaluate(st, prm)


@njit(cache=True)
def tactical(kind: int, st: IntArray, prm: IntArray, move: int) -> bool:
    return morris.tactical(st, prm, move)
