"""Perft: the number of legal move sequences of each length from a position, for any game."""

from __future__ import annotations

from collections.abc import Iterator

from .core import State

__all__ = ["perft", "perft_counts"]


def perft_counts(state: State, depth: int) -> Iterator[tuple[int, int]]:
    """Yield ``(d, n)`` for d = 1..depth: n move sequences of exactly d moves from ``state``.

    A game that ends earlier contributes nothing to deeper counts.  The state is restored.
    One walk of the tree to ``depth - 1`` gives every count (leaves are counted in bulk).

    >>> import ludoteca
    >>> list(perft_counts(ludoteca.new_game("felli"), 2))
    [(1, 3), (2, 3)]
    """
    counts = [1] + [0] * depth
    if depth:
        _walk(state, depth, 0, counts)
    yield from enumerate(counts[1:], start=1)


def perft(state: State, depth: int) -> int:
    """The number of legal move sequences of exactly ``depth`` moves from ``state``; the one
    empty sequence at depth 0."""
    counts = [1] + [0] * depth
    if depth:
        _walk(state, depth, 0, counts)
    return counts[depth]


def _walk(state: State, depth: int, level: int, counts: list[int]) -> None:
    codes = state.legal_codes()
    counts[level + 1] += len(codes)
    if level + 1 < depth:
        for code in codes:
            state.push_code(code)
            _walk(state, depth, level + 1, counts)
            state.pop_code()
