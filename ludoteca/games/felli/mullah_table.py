"""Felli with Mullahs solved: retrograde analysis over every position with at most six pieces a
side (men and Mullahs), by material class (see :mod:`ludoteca.solve.retrograde`).

Positions are seen from the side to move, turned so that it plays "South" (its men are promoted
on ``a5``/``e5``): North's positions are flipped top to bottom (``a1``<->``a5``, ``b2``<->``b4``
...), which exchanges the promotion corners, so one table serves both sides.  Each point holds
0 (empty), 1 (a man of the side to move), 2 (its Mullah), 3 (an opponent man) or 4 (an opponent
Mullah).  A class is the material ``(men, Mullahs, opponent men, opponent Mullahs)``.

The index is dense: its entries are exactly the positions that can arise (no man on its own
promotion corner), one of each mirror pair (left to right; a position and its mirror image have
the same value).  The mirror keeps the five points of the ``c`` file and exchanges the other
eight in four pairs, so a board is two *parts*, each a base-5 number (a digit a point): the
``c`` file (the *file*) and the eight *wings*.  A mirror pair of positions shares its file and
has a wing configuration and its mirror image: a wing configuration *represents* its pair when
it is the smaller number of the two (both promotion corners lie on the wings).  Within a class,
the positions come in *blocks*, one for each split of the material between the two parts (a
*count vector* each): a block holds every file configuration of its vector (in increasing
order) times every representative wing configuration of its vector (in increasing order),
the wings varying fastest.

Values follow the basic table's conventions: a player without a legal move loses, endless play is
a draw (threefold repetition), and the move rule is not part of the table.
"""

from __future__ import annotations

import itertools
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any, BinaryIO

import numpy as np
import numpy.typing as npt
from numba import njit

from ...core import Color, InvalidRulesError, RuleSet, State
from ...files import read_or_build
from ...jobs import Pool
from ...solve import cache_dir
from ...solve.checkpoint import Checkpoint
from ...solve.retrograde import code_value, solve_pairs, tally
from ...tables import Progress, Solver, Table
from .board import FLIP, MIRROR, PROMOTION, RAYS
from .kernel import B
from .kernel import kernel as felli_kernel
from .rules import Felli

__all__ = ["MullahSolver", "MullahTable", "layout", "solve"]

IntArray = npt.NDArray[np.int64]
SIDE = 6  # the most pieces a side has
#: scratch rows of a kernel state for the parents' walk (past the kernel's own scratch)
S_VALS, S_PARENT = 480, 496

RAY = np.zeros((13, 6, 4), dtype=np.int64)
RAYLEN = np.zeros((13, 6), dtype=np.int64)
for _p, _rays in enumerate(RAYS):
    for _k, _ray in enumerate(_rays):
        RAYLEN[_p, _k] = len(_ray)
        RAY[_p, _k, : len(_ray)] = _ray
FLIPS = np.array(FLIP, dtype=np.int64)
#: the corners where the side to move (South) and its opponent (North) are promoted
OWN_CORNERS = PROMOTION[1]
OPP_CORNERS = PROMOTION[2]
#: the two parts of the board: the points the mirror keeps (the c file), the others in pairs
FILE = tuple(p for p in range(13) if MIRROR[p] == p)
WINGS = tuple(q for p in range(13) if p < MIRROR[p] for q in (p, MIRROR[p]))
#: every count vector ``(men, Mullahs, opponent men, opponent Mullahs)`` a part may hold, by id
VECTORS = [v for v in itertools.product(range(9), repeat=4) if sum(v) <= len(WINGS)]
VECTOR_ID = {v: i for i, v in enumerate(VECTORS)}
#: each point's weight (its digit) in its part's number: row 0 the file, row 1 the wings
WEIGHTS = np.zeros((2, 13), dtype=np.int64)
for _row, _points in enumerate((FILE, WINGS)):
    for _i, _p in enumerate(_points):
        WEIGHTS[_row, _p] = 5**_i


@dataclass(frozen=True)
class Part:
    """The configurations of a part of the board (points closed under the mirror, see
    :meth:`of`), each a base-5 number whose digit ``i`` is the value of its ``i``-th point: for
    each configuration its count vector's id (-1 if a man stands on its promotion corner) and
    its rank among the representatives of its vector (the smaller of a configuration and its
    mirror image: both have the rank), and the representatives listed by vector and rank
    (vector ``v``'s from ``start[v]``, ``count[v]`` of them)."""

    vector: IntArray
    rank: IntArray
    listing: IntArray
    start: IntArray
    count: IntArray

    @classmethod
    def of(cls, points: tuple[int, ...]) -> Part:
        """The tables of the part whose points are ``points``, in digit order."""
        n = len(points)
        codes = np.arange(5**n, dtype=np.int64)
        digits = codes[:, None] // 5 ** np.arange(n) % 5
        mirrored = digits[:, [points.index(MIRROR[p]) for p in points]] @ 5 ** np.arange(n)
        counts = np.stack([np.count_nonzero(digits == v, axis=1) for v in range(1, 5)], axis=1)
        vector = np.array([VECTOR_ID[tuple(c)] for c in counts.tolist()], dtype=np.int64)
        for i, p in enumerate(points):
            man = 1 if p in OWN_CORNERS else 3 if p in OPP_CORNERS else 0
            if man:
                vector[digits[:, i] == man] = -1
        reps = codes[(vector >= 0) & (codes <= mirrored)]
        listing = reps[np.lexsort((reps, vector[reps]))]
        count = np.bincount(vector[listing], minlength=len(VECTORS)).astype(np.int64)
        start = np.cumsum(count) - count
        rank = np.full(codes.size, -1, dtype=np.int64)
        rank[listing] = np.arange(listing.size) - start[vector[listing]]
        rank[vector >= 0] = rank[np.minimum(codes, mirrored)[vector >= 0]]
        return cls(vector, rank, listing, start, count)


#: the tables of the file and of the wings
FILE_PART, WINGS_PART = Part.of(FILE), Part.of(WINGS)


def _label(cls: tuple[int, int, int, int]) -> str:
    return "{}+{}M v {}+{}M".format(*cls)


def layout(
    most: int = SIDE,
) -> tuple[IntArray, IntArray, IntArray, list[tuple[int, int, str]], int, list[tuple[int, int]]]:
    """For the positions with at most ``most`` pieces a side: each block's first index (by its
    file's and its wings' vector ids; -1 for none), the blocks' first indices in increasing order
    (empty blocks left out) and their vector ids (``file * len(VECTORS) + wings``), the pairs of
    classes in solving order, the size of the index, and each pair's stage (pieces, men: a
    capture lowers the first, a promotion the second)."""
    classes = [
        (a, b, c, d)
        for a in range(most + 1)
        for b in range(most + 1 - a)
        for c in range(most + 1)
        for d in range(most + 1 - c)
    ]
    classes.sort(key=lambda m: (sum(m), m[0] + m[2], min(m, (m[2], m[3], m[0], m[1]))))
    base = np.full((len(VECTORS), len(VECTORS)), -1, dtype=np.int64)
    starts: list[int] = []
    blocks: list[int] = []
    pairs: list[tuple[int, int, str]] = []
    stages: list[tuple[int, int]] = []
    seen: set[tuple[int, int, int, int]] = set()
    at = 1  # entry 0 is the retrograde's reserved "lost at once"
    for cls in classes:
        if cls in seen:
            continue
        lo = at
        for member in dict.fromkeys((cls, (cls[2], cls[3], cls[0], cls[1]))):
            seen.add(member)
            for split in itertools.product(*(range(k + 1) for k in member)):
                rest = tuple(k - s for k, s in zip(member, split, strict=True))
                if sum(split) > len(FILE) or sum(rest) > len(WINGS):
                    continue
                f, w = VECTOR_ID[split], VECTOR_ID[rest]
                size = int(FILE_PART.count[f] * WINGS_PART.count[w])
                if size:
                    base[f, w] = at
                    starts.append(at)
                    blocks.append(f * len(VECTORS) + w)
                    at += size
        pairs.append((lo, at, _label(cls)))
        stages.append((sum(cls), cls[0] + cls[2]))
    starts_a, blocks_a = np.array(starts, dtype=np.int64), np.array(blocks, dtype=np.int64)
    return base, starts_a, blocks_a, pairs, at, stages


@njit(cache=True)
def _index(file: int, wings: int, data: Any) -> int:
    """The index of the position whose file and wings are the configurations ``file`` and
    ``wings`` (``data``: see :func:`_data`); the mirror image of a position has its index."""
    base, file_vector, file_rank, wings_vector, wings_rank, wings_count = data[:6]
    w = wings_vector[wings]
    return int(base[file_vector[file], w] + file_rank[file] * wings_count[w] + wings_rank[wings])


@njit(cache=True)
def _unrank(g: int, vals: IntArray, data: Any) -> None:
    """Writes the point values of index ``g`` into ``vals[:13]`` (``data``: see :func:`_data`)."""
    wings_count = data[5]
    starts, blocks, nvectors, file_list, file_start, wings_list, wings_start = data[6:13]
    at = np.searchsorted(starts, g, side="right") - 1
    f = blocks[at] // nvectors
    w = blocks[at] % nvectors
    r = g - starts[at]
    file = file_list[file_start[f] + r // wings_count[w]]
    wings = wings_list[wings_start[w] + r % wings_count[w]]
    for p in FILE:
        vals[p] = file % 5
        file //= 5
    for p in WINGS:
        vals[p] = wings % 5
        wings //= 5


@njit(cache=True)
def _decode(g: int, st: IntArray, data: Any) -> bool:
    """The retrograde's ``decode``: position ``g`` into the kernel state ``st``, South to move;
    always True (every index is a position)."""
    vals = st[S_VALS : S_VALS + 13]
    _unrank(g, vals, data)
    for p in range(13):
        v = vals[p]
        st[B + p] = 0 if v == 0 else (1 if v <= 2 else 2) | (4 if v % 2 == 0 else 0)
    st[1] = 0
    st[2] = 0
    return True


@njit(cache=True)
def _encode(st: IntArray, data: Any) -> int:
    """The retrograde's ``encode``: the index of the position in ``st``, seen from its side to
    move (turned top to bottom when North moves)."""
    weights, _ray, _raylen, flips, _forced = data[13:]
    side = st[1] + 1
    file = wings = 0
    for p in range(13):
        v = st[B + p]
        if v:
            q = flips[p] if side == 2 else p
            kind = (1 if v & 3 == side else 3) + (1 if v & 4 else 0)
            file += kind * weights[0, q]
            wings += kind * weights[1, q]
    return _index(file, wings, data)


@njit(cache=True)
def _can_capture(vals: IntArray, ray: IntArray, raylen: IntArray) -> bool:
    """Whether the side to move (values 1, 2) has a capture."""
    for p in range(13):
        v = vals[p]
        if v != 1 and v != 2:
            continue
        for k in range(6):
            length = raylen[p, k]
            i = 0
            if v == 2:
                while i < length and vals[ray[p, k, i]] == 0:
                    i += 1
            if i + 1 < length and vals[ray[p, k, i]] >= 3 and vals[ray[p, k, i + 1]] == 0:
                return True
    return False


@njit(cache=True)
def _parents(g: int, out: IntArray, st: IntArray, data: Any) -> int:
    """The positions from which the opponent of ``g``'s side to move reached it by a step or a
    Mullah's slide (never onto its promotion corner: that would have promoted)."""
    weights, ray, raylen, flips, forced = data[13:]
    vals = st[S_VALS : S_VALS + 13]
    parent = st[S_PARENT : S_PARENT + 13]  # seen from the parent's side to move
    _unrank(g, vals, data)
    file = wings = 0
    for x in range(13):
        w = vals[x]
        w = 0 if w == 0 else (w + 2 if w <= 2 else w - 2)
        parent[flips[x]] = w
        file += w * weights[0, flips[x]]
        wings += w * weights[1, flips[x]]
    n = 0
    for q in range(13):
        v = vals[q]
        if v < 3:
            continue
        kind = v - 2
        fq = flips[q]
        for k in range(6):
            for i in range(raylen[q, k]):
                p = ray[q, k, i]
                if vals[p]:
                    break
                if kind == 1 and (p == 0 or p == 2):  # a man never stands on its corner
                    break
                fp = flips[p]
                parent[fq] = 0
                parent[fp] = kind
                if not (forced and _can_capture(parent, ray, raylen)):
                    out[n] = _index(
                        file + kind * (weights[0, fp] - weights[0, fq]),
                        wings + kind * (weights[1, fp] - weights[1, fq]),
                        data,
                    )
                    n += 1
                parent[fp] = 0
                parent[fq] = kind
                if kind == 1:
                    break
    return n


def _data(rules: RuleSet, most: int) -> tuple[Any, ...]:
    """The tables the compiled functions take, one flat tuple: the index's (six, read by
    :func:`_index`; :func:`_unrank` reads the sixth and the next seven), then the weights,
    rays, ray lengths, flips and whether capture is forced."""
    base, starts, blocks, _, _, _ = layout(most)
    file, wings = FILE_PART, WINGS_PART
    return (
        base,
        file.vector,
        file.rank,
        wings.vector,
        wings.rank,
        wings.count,
        starts,
        blocks,
        len(VECTORS),
        file.listing,
        file.start,
        wings.listing,
        wings.start,
        WEIGHTS,
        RAY,
        RAYLEN,
        FLIPS,
        bool(rules["forced_capture"]),
    )


@dataclass
class MullahTable(Table):
    """A solved Felli rule set with Mullahs: a code (see :mod:`~ludoteca.solve.retrograde`) for
    every position with at most six pieces a side."""

    rules: RuleSet
    codes: npt.NDArray[np.int16]
    seconds: float = 0.0
    #: the most pieces a side has in the table's positions (six: every position of the game)
    most: int = SIDE

    def __post_init__(self) -> None:
        self._data = _data(self.rules, self.most)
        self._kernel = felli_kernel(Felli.of(self.rules))

    def index(self, state: State) -> int:
        """The table index of ``state`` (from its side to move)."""
        return int(_encode(self._kernel.pack(state), self._data))

    def covers(self, state: State) -> bool:
        board: list[int] = state.board  # type: ignore[attr-defined]
        return all(sum(1 for v in board if v & 3 == side) <= self.most for side in (1, 2))

    def lookup(self, state: State) -> tuple[int, int]:
        if not self.covers(state):
            raise InvalidRulesError(
                f"{state.position_code()} has more than {self.most} pieces "
                "a side: it is not in the table"
            )
        return code_value(int(self.codes[self.index(state)]))

    def summary(self) -> list[str]:
        lines = []
        state = Felli.of(self.rules).new()
        if self.covers(state):
            value, plies = self.lookup(state)
            who = "South" if state.turn is Color.WHITE else "North"
            lines.append(
                f"value: {({1: 'win', -1: 'loss', 0: 'draw'})[value]} (for {who}, to move)"
            )
            if value:
                lines.append(f"plies: {plies}")
        win, loss, draw = tally(self.codes)
        lines.append(
            f"positions: {win + loss + draw} (at most {self.most} pieces a side, side "
            f"to move normalised, one of each mirror pair): win {win}, loss {loss}, "
            f"draw {draw}"
        )
        return lines


def solve(
    rules: RuleSet,
    progress: Progress | None = None,
    most: int = SIDE,
    pool: Pool | None = None,
    checkpoint: Checkpoint | None = None,
) -> MullahTable:
    """Solve a Felli rule set with Mullahs, for the positions with at most ``most`` pieces a
    side (captures only lower material, so every such set of positions is closed), on
    ``pool``, going on from ``checkpoint`` and saving each stage there (see
    :func:`~ludoteca.solve.retrograde.solve_pairs`)."""
    started = time.perf_counter()
    data = _data(rules, most)
    _, _, _, pairs, size, stages = layout(most)
    kernel = felli_kernel(Felli.of(rules))
    codes = solve_pairs(
        size, pairs, kernel, _decode, _encode, _parents, data, progress, pool, stages, checkpoint
    )
    return MullahTable(rules, codes, time.perf_counter() - started, most)


class MullahSolver(Solver):
    """Solves a Felli rule set with Mullahs (the draw settings do not change the table), for
    the positions with at most ``men`` pieces a side (six, every position, by default).  The
    full table takes minutes and 292 MB on disk: it is used only once solved (:meth:`ready`)."""

    def __init__(self, rules: RuleSet, men: int | None = None) -> None:
        self.rules = rules
        self.most = SIDE if men is None else men
        self.choice = self.most
        if not 0 <= self.most <= SIDE:
            raise InvalidRulesError(f"Felli has at most {SIDE} pieces a side, not {men}")
        self.key = "felli-mullah-" + "-".join(
            f"{k}={str(bool(rules[k])).lower()}" for k in ("forced_capture", "multi_capture")
        )
        if self.most < SIDE:
            self.key += f"-{self.most}"

    def path(self) -> Path:
        return cache_dir() / f"{self.key}-v2.npy"

    def ready(self) -> bool:
        return self.path().exists()

    def load(
        self, progress: Progress | None = None, pool: Pool | None = None
    ) -> tuple[MullahTable, bool]:
        checkpoint = Checkpoint.of(self)

        def read(path: Path) -> MullahTable:
            return MullahTable(self.rules, np.load(path, mmap_mode="r"), most=self.most)

        def save(out: BinaryIO, table: MullahTable) -> None:
            np.save(out, table.codes, allow_pickle=False)

        table, cached = read_or_build(
            self.path(),
            read,
            lambda: solve(self.rules, progress, self.most, pool, checkpoint),
            save,
        )
        if not cached:
            checkpoint.clear()
        return table, cached
