"""The Morris family's boards as data: what the rules (:mod:`.rules`), the kernel (:mod:`.kernel`),
the tables (:mod:`.table`) and the lessons (:mod:`.lessons`) know of a board (the kernel and the
lessons through the rule set's board, the tables also through :func:`symmetries`).

A :class:`MorrisBoard` is a set of named points and the lines drawn between them: neighbours are
consecutive points of a line, and every line of three points is a mill.  Points are numbered in
rows from the bottom, left to right (on the 24-point board: a1 d1 g1 b2 d2 f2 c3 d3 e3 a4 b4 c4
e4 f4 g4 c5 d5 e5 b6 d6 f6 a7 d7 g7); a set of points is a bit mask.

>>> NINE.size, len(NINE.mill_masks), len(TWELVE.mill_masks), SIX.size
(24, 16, 20, 16)
>>> [NINE.points[p] for p in bits(NINE.adjacent[NINE.index["d2"]])]
['d1', 'b2', 'f2', 'd3']
>>> len(symmetries(NINE))
16
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

__all__ = ["BOARDS", "NINE", "SIX", "TWELVE", "MorrisBoard", "bits", "symmetries"]

_NAME = re.compile(r"([a-z])(\d+)")


@dataclass(frozen=True, eq=False)
class MorrisBoard:
    """A Morris board: points named ``a1``…, and lines of points (runs of neighbours).

    Every derived table is built once: the mills (lines of three points) as masks, the mills
    through each point, each point's neighbours as a mask, and the rows of the position code.
    """

    key: str
    lines_text: tuple[str, ...]
    points: tuple[str, ...] = field(init=False)
    index: dict[str, int] = field(init=False, repr=False)
    lines: tuple[tuple[int, ...], ...] = field(init=False, repr=False)
    mill_masks: tuple[int, ...] = field(init=False, repr=False)
    mills_at: tuple[tuple[int, ...], ...] = field(init=False, repr=False)
    edges: tuple[tuple[int, int], ...] = field(init=False, repr=False)
    adjacent: tuple[int, ...] = field(init=False, repr=False)
    rows: tuple[tuple[int, ...], ...] = field(init=False, repr=False)

    def __post_init__(self) -> None:
        names = {p for line in self.lines_text for p in line.split()}

        def place(p: str) -> tuple[int, int]:
            m = _NAME.fullmatch(p)
            assert m, p
            return int(m[2]), ord(m[1])

        points = tuple(sorted(names, key=place))
        index = {p: i for i, p in enumerate(points)}
        lines = tuple(tuple(index[p] for p in line.split()) for line in self.lines_text)
        mills = [line for line in lines if len(line) == 3]
        masks = tuple(sum(1 << p for p in m) for m in mills)
        edges = tuple((line[i], line[i + 1]) for line in lines for i in range(len(line) - 1))
        by_rank: dict[int, list[int]] = {}
        for i, p in enumerate(points):
            by_rank.setdefault(place(p)[0], []).append(i)
        setattr_ = object.__setattr__
        setattr_(self, "points", points)
        setattr_(self, "index", index)
        setattr_(self, "lines", lines)
        setattr_(self, "mill_masks", masks)
        setattr_(
            self,
            "mills_at",
            tuple(
                tuple(mask for m, mask in zip(mills, masks, strict=True) if p in m)
                for p in range(len(points))
            ),
        )
        setattr_(self, "edges", edges)
        setattr_(
            self,
            "adjacent",
            tuple(
                sum(1 << (b if a == p else a) for a, b in edges if p in (a, b))
                for p in range(len(points))
            ),
        )
        setattr_(self, "rows", tuple(tuple(by_rank[r]) for r in sorted(by_rank, reverse=True)))

    @property
    def size(self) -> int:
        """The number of points."""
        return len(self.points)

    @property
    def full(self) -> int:
        """The mask with every point set."""
        return (1 << len(self.points)) - 1


_SQUARES = (
    "a1 d1 g1",
    "b2 d2 f2",
    "c3 d3 e3",
    "a4 b4 c4",
    "e4 f4 g4",
    "c5 d5 e5",
    "b6 d6 f6",
    "a7 d7 g7",
    "a1 a4 a7",
    "b2 b4 b6",
    "c3 c4 c5",
    "d1 d2 d3",
    "d5 d6 d7",
    "e3 e4 e5",
    "f2 f4 f6",
    "g1 g4 g7",
)
#: Nine Men's Morris: three nested squares joined at the middle of their sides
NINE = MorrisBoard("24", _SQUARES)
#: Twelve Men's Morris and Morabaraba: the same with the four corner diagonals
TWELVE = MorrisBoard("24d", (*_SQUARES, "a1 b2 c3", "g1 f2 e3", "a7 b6 c5", "g7 f6 e5"))
#: Six Men's Morris: two squares; the joins of two points form no mill
SIX = MorrisBoard(
    "16",
    (
        "a1 c1 e1",
        "e1 e3 e5",
        "a5 c5 e5",
        "a1 a3 a5",
        "b2 c2 d2",
        "d2 d3 d4",
        "b4 c4 d4",
        "b2 b3 b4",
        "a3 b3",
        "c1 c2",
        "e3 d3",
        "c5 c4",
    ),
)
BOARDS: dict[str, MorrisBoard] = {b.key: b for b in (NINE, TWELVE, SIX)}


def bits(mask: int) -> list[int]:
    """The indices of the set bits of a mask, in increasing order."""
    out = []
    while mask:
        low = mask & -mask
        out.append(low.bit_length() - 1)
        mask ^= low
    return out


def symmetries(board: MorrisBoard) -> list[tuple[int, ...]]:
    """Every permutation of the board's points that maps neighbours to neighbours, and mills to
    mills (the identity first)."""
    n = board.size
    adjacent = [{q for q in range(n) if board.adjacent[p] >> q & 1} for p in range(n)]
    mills = {frozenset(p for p in range(n) if m >> p & 1) for m in board.mill_masks}
    order: list[int] = []
    for start in range(n):  # breadth first, so that each point meets assigned neighbours
        if start in order:
            continue
        order.append(start)
        for p in order:
            order.extend(q for q in sorted(adjacent[p]) if q not in order)
    found: list[tuple[int, ...]] = []
    image = [-1] * n

    def extend(i: int, used: set[int]) -> None:
        if i == n:
            if all(frozenset(image[p] for p in m) in mills for m in mills):
                found.append(tuple(image))
            return
        p = order[i]
        for c in range(n):
            if c in used or len(adjacent[c]) != len(adjacent[p]):
                continue
            if all((image[q] in adjacent[c]) == (q in adjacent[p]) for q in order[:i]):
                image[p] = c
                used.add(c)
                extend(i + 1, used)
                used.discard(c)
        image[p] = -1

    extend(0, set())
    found.sort(key=lambda perm: perm != tuple(range(n)))
    return found
