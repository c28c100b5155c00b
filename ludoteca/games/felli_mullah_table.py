"""Felli with Mullahs solved: retrograde analysis over every position with at most six pieces a
side (men and Mullahs), by material class (see :mod:`ludoteca.solve.retrograde`).

Positions are seen from the side to move, turned so that it plays "South" (its men are promoted
on ``a5``/``e5``): North's positions are flipped top to bottom (``a1``<->``a5``, ``b2``<->``b4``
...), which exchanges the promotion corners, so one table serves both sides.  Each point holds
0 (empty), 1 (a man of the side to move), 2 (its Mullah), 3 (an opponent man) or 4 (an opponent
Mullah).  A class is the material ``(men, Mullahs, opponent men, opponent Mullahs)``; within a
class a position's index ranks the points of each kind in turn among the points still free.
Entries with a man on its own promotion corner cannot arise and stay out of the table, and so
does the mirror image (left to right) of each position with the larger index: a position and its
mirror image have the same value, and the table keeps the one with the smaller index.

Values follow the basic table's conventions: a player without a legal move loses, endless play is
a draw (threefold repetition), and the move rule is not part of the table.
"""

from __future__ import annotations

import math
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any, BinaryIO

import numpy as np
import numpy.typing as npt
from numba import njit

from ..compiled.kernel import bit_count
from ..core import Color, InvalidRulesError, RuleSet, State
from ..files import read_or_build
from ..jobs import Pool
from ..solve import cache_dir
from ..solve.checkpoint import Checkpoint
from ..solve.retrograde import code_value, solve_pairs, tally
from ..tables import Progress, Solver, Table
from .felli import FLIP, MIRROR, PROMOTION, RAYS, Felli
from .felli_kernel import B
from .felli_kernel import kernel as felli_kernel

__all__ = ["MullahSolver", "MullahTable", "layout", "solve"]

IntArray = npt.NDArray[np.int64]
SIDE = 6  # the most pieces a side has
#: scratch rows of a kernel state for the parents' walk (past the kernel's own scratch)
S_VALS, S_PARENT = 480, 496

BINOMIAL = np.array([[math.comb(n, k) for k in range(14)] for n in range(14)], dtype=np.int64)
RAY = np.zeros((13, 6, 4), dtype=np.int64)
RAYLEN = np.zeros((13, 6), dtype=np.int64)
for _p, _rays in enumerate(RAYS):
    for _k, _ray in enumerate(_rays):
        RAYLEN[_p, _k] = len(_ray)
        RAY[_p, _k, : len(_ray)] = _ray
FLIPS = np.array(FLIP, dtype=np.int64)
#: every set of points (a 13-bit mask) turned left to right (a1<->e1, b2<->d2, c stays)
MIRRORS = np.array(
    [sum(1 << MIRROR[p] for p in range(13) if mask >> p & 1) for mask in range(1 << 13)],
    dtype=np.int64,
)
#: the corners where the side to move (South) and its opponent (North) are promoted
OWN_CORNERS = PROMOTION[1]
OPP_CORNERS = PROMOTION[2]


def _class_id(men: int, mullahs: int, opp_men: int, opp_mullahs: int) -> int:
    return ((men * 7 + mullahs) * 7 + opp_men) * 7 + opp_mullahs


def _class_size(men: int, mullahs: int, opp_men: int, opp_mullahs: int) -> int:
    size, free = 1, 13
    for k in (men, mullahs, opp_men, opp_mullahs):
        size *= int(BINOMIAL[free, k])
        free -= k
    return size


def _label(cls: tuple[int, int, int, int]) -> str:
    return "{}+{}M v {}+{}M".format(*cls)


def layout(
    most: int = SIDE,
) -> tuple[IntArray, IntArray, IntArray, list[tuple[int, int, str]], int, list[tuple[int, int]]]:
    """For the positions with at most ``most`` pieces a side: every class's first index (by
    class id; -1 for none), the sorted first indices and their class ids (for finding a class
    from an index), the pairs in solving order, the size of the index, and each pair's stage
    (pieces, men: a capture lowers the first, a promotion the second)."""
    classes = [
        (a, b, c, d)
        for a in range(most + 1)
        for b in range(most + 1 - a)
        for c in range(most + 1)
        for d in range(most + 1 - c)
    ]
    classes.sort(key=lambda m: (sum(m), m[0] + m[2], min(m, (m[2], m[3], m[0], m[1]))))
    offset = np.full(7**4, -1, dtype=np.int64)
    starts: list[int] = []
    ids: list[int] = []
    pairs: list[tuple[int, int, str]] = []
    stages: list[tuple[int, int]] = []
    at = 1  # entry 0 is the retrograde's reserved "lost at once"
    for cls in classes:
        if offset[_class_id(*cls)] >= 0:
            continue
        lo = at
        mirror = (cls[2], cls[3], cls[0], cls[1])
        for member in dict.fromkeys((cls, mirror)):
            offset[_class_id(*member)] = at
            starts.append(at)
            ids.append(_class_id(*member))
            at += _class_size(*member)
        pairs.append((lo, at, _label(cls)))
        stages.append((sum(cls), cls[0] + cls[2]))
    starts_a, ids_a = np.array(starts, dtype=np.int64), np.array(ids, dtype=np.int64)
    return offset, starts_a, ids_a, pairs, at, stages


@njit(cache=True)
def _rank(
    men: int, mullahs: int, opp_men: int, opp_mullahs: int, offset: IntArray, bino: IntArray
) -> int:
    """The index of a position given as the point sets (bit masks) of each kind of piece."""
    total = 0
    free = 0x1FFF
    cls = 0
    for kind in range(4):
        subset = (
            men if kind == 0 else mullahs if kind == 1 else opp_men if kind == 2 else opp_mullahs
        )
        r = 0
        chosen = 0
        rest = subset
        while rest:
            low = rest & -rest
            rest ^= low
            chosen += 1
            r += bino[bit_count(free & (low - 1)), chosen]
        total = total * bino[bit_count(free), chosen] + r
        free ^= subset
        cls = cls * 7 + chosen
    return int(offset[cls] + total)


@njit(cache=True)
def _canonical(
    men: int,
    mullahs: int,
    opp_men: int,
    opp_mullahs: int,
    offset: IntArray,
    bino: IntArray,
    mirror: IntArray,
) -> int:
    """The index of a position's class under the left-right mirror: the smaller of the two."""
    return min(
        int(_rank(men, mullahs, opp_men, opp_mullahs, offset, bino)),
        _rank(mirror[men], mirror[mullahs], mirror[opp_men], mirror[opp_mullahs], offset, bino),
    )


@njit(cache=True)
def _unrank(g: int, vals: IntArray, starts: IntArray, ids: IntArray, bino: IntArray) -> None:
    """Writes the point values of index ``g`` into ``vals[:13]``."""
    at = np.searchsorted(starts, g, side="right") - 1
    rank = g - starts[at]
    cls = ids[at]
    n4 = cls % 7
    n3 = cls // 7 % 7
    n2 = cls // 49 % 7
    n1 = cls // 343
    f2 = 13 - n1
    f3 = f2 - n2
    f4 = f3 - n3
    r4 = rank % bino[f4, n4]
    rank //= bino[f4, n4]
    r3 = rank % bino[f3, n3]
    rank //= bino[f3, n3]
    r2 = rank % bino[f2, n2]
    r1 = rank // bino[f2, n2]
    for p in range(13):
        vals[p] = 0
    for kind in range(1, 5):
        if kind == 1:
            r, i, c = r1, n1, 12
        elif kind == 2:
            r, i, c = r2, n2, f2 - 1
        elif kind == 3:
            r, i, c = r3, n3, f3 - 1
        else:
            r, i, c = r4, n4, f4 - 1
        p = 12
        while i > 0:  # colex: the highest pick is the largest c with C(c, i) <= r
            if vals[p] == 0:
                if bino[c, i] <= r:
                    vals[p] = kind
                    r -= bino[c, i]
                    i -= 1
                c -= 1
            p -= 1


@njit(cache=True)
def _decode(g: int, st: IntArray, data: Any) -> bool:
    offset, starts, ids, bino, _ray, _raylen, _flips, _forced, mirror = data
    vals = st[S_VALS : S_VALS + 13]
    _unrank(g, vals, starts, ids, bino)
    if vals[10] == 1 or vals[12] == 1 or vals[0] == 3 or vals[2] == 3:
        return False  # a man on its promotion corner
    men = mullahs = opp_men = opp_mullahs = 0
    for p in range(13):
        v = vals[p]
        st[B + p] = 0 if v == 0 else (1 if v <= 2 else 2) | (4 if v % 2 == 0 else 0)
        men |= (v == 1) << p
        mullahs |= (v == 2) << p
        opp_men |= (v == 3) << p
        opp_mullahs |= (v == 4) << p
    st[1] = 0
    st[2] = 0
    return _canonical(men, mullahs, opp_men, opp_mullahs, offset, bino, mirror) == g


@njit(cache=True)
def _encode(st: IntArray, data: Any) -> int:
    offset, _starts, _ids, bino, _ray, _raylen, flips, _forced, mirror = data
    side = st[1] + 1
    men = mullahs = opp_men = opp_mullahs = 0
    for p in range(13):
        v = st[B + p]
        if v:
            bit = 1 << (flips[p] if side == 2 else p)
            if v & 3 == side:
                if v & 4:
                    mullahs |= bit
                else:
                    men |= bit
            elif v & 4:
                opp_mullahs |= bit
            else:
                opp_men |= bit
    return _canonical(men, mullahs, opp_men, opp_mullahs, offset, bino, mirror)


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
    offset, starts, ids, bino, ray, raylen, flips, forced, mirror = data
    vals = st[S_VALS : S_VALS + 13]
    parent = st[S_PARENT : S_PARENT + 13]  # seen from the parent's side to move
    _unrank(g, vals, starts, ids, bino)
    masks = np.zeros(5, dtype=np.int64)
    for x in range(13):
        w = vals[x]
        w = 0 if w == 0 else (w + 2 if w <= 2 else w - 2)
        parent[flips[x]] = w
        masks[w] |= 1 << flips[x]
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
                    moved = (1 << fq) | (1 << fp)
                    if kind == 1:
                        out[n] = _canonical(
                            masks[1] ^ moved, masks[2], masks[3], masks[4], offset, bino, mirror
                        )
                    else:
                        out[n] = _canonical(
                            masks[1], masks[2] ^ moved, masks[3], masks[4], offset, bino, mirror
                        )
                    n += 1
                parent[fp] = 0
                parent[fq] = kind
                if kind == 1:
                    break
    return n


def _data(rules: RuleSet, most: int) -> tuple[Any, ...]:
    offset, starts, ids, _, _, _ = layout(most)
    return (
        offset,
        starts,
        ids,
        BINOMIAL,
        RAY,
        RAYLEN,
        FLIPS,
        bool(rules["forced_capture"]),
        MIRRORS,
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
    full table takes minutes and 1.3 GB on disk: it is used only once solved (:meth:`ready`)."""

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
        return cache_dir() / f"{self.key}-v1.npy"

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
