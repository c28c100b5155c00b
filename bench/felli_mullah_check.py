"""The Felli with Mullahs table of the dense index (``felli-mullah-...-v2.npy``) checked against a
table of the old layout (``-v1.npy``, the index before the dense one), entry by entry.

    .venv/bin/python -m bench.felli_mullah_check OLD.npy [NEW.npy]

``OLD.npy``: a table the old layout built, e.g. with the revision before the dense index::

    git archive 57cb1a0 ludoteca bench | tar -x -C DIR
    cd DIR && .venv/bin/python -m bench.solve_bench --threads 1 felli-mullah --keep K

(its file in ``K``).  ``NEW.npy``: a table of this revision (``solve_bench.py --keep``); without
it, this revision's table of ``felli-mullah`` from the cache (built if it is not there).

Every index of the old table is decoded with the old layout (kept here, and only here: the
classes in the same order, each point set ranked among the points still free, the holes a man on
its promotion corner or the mirror image with the larger index), each position that is no hole
is encoded into the new index, and the two codes are compared.  Prints the counts; every
position must land on its own new entry (no new entry twice, none left out) with the same code
(exit 0, ``all checks passed``), or the failures are printed (exit 1).
"""

from __future__ import annotations

import argparse
import math
import sys
from pathlib import Path
from typing import Any

import numpy as np
import numpy.typing as npt
from numba import njit

from ludoteca.compiled.kernel import bit_count
from ludoteca.games.felli.board import MIRROR
from ludoteca.games.felli.mullah_table import SIDE, WEIGHTS, MullahSolver, _data, _index, layout
from ludoteca.games.felli.rules import Felli
from ludoteca.solve.retrograde import tally

IntArray = npt.NDArray[np.int64]
BINOMIAL = np.array([[math.comb(n, k) for k in range(14)] for n in range(14)], dtype=np.int64)
#: every set of points (a 13-bit mask) turned left to right
MIRRORS = np.array(
    [sum(1 << MIRROR[p] for p in range(13) if mask >> p & 1) for mask in range(1 << 13)],
    dtype=np.int64,
)


def _class_id(cls: tuple[int, ...]) -> int:
    return ((cls[0] * 7 + cls[1]) * 7 + cls[2]) * 7 + cls[3]


def old_layout() -> tuple[IntArray, IntArray, IntArray, int]:
    """The old index: each class's first index (by class id), the first indices in increasing
    order with their class ids, and the size.  The classes come in the order of the new layout's
    pairs (the same in both), each pair's class then its mirror."""
    offset = np.full(7**4, -1, dtype=np.int64)
    starts: list[int] = []
    ids: list[int] = []
    at = 1
    for _, _, label in layout(SIDE)[3]:
        a, b, c, d = (int(k) for k in label.replace("M", "").replace(" v ", "+").split("+"))
        for cls in dict.fromkeys(((a, b, c, d), (c, d, a, b))):
            offset[_class_id(cls)] = at
            starts.append(at)
            ids.append(_class_id(cls))
            size, free = 1, 13
            for k in cls:
                size *= math.comb(free, k)
                free -= k
            at += size
    return offset, np.array(starts, dtype=np.int64), np.array(ids, dtype=np.int64), at


@njit(cache=True)
def _old_rank(sets: IntArray, offset: IntArray) -> int:
    """The old index of the position whose point sets (bit masks) of each kind are ``sets``."""
    total = 0
    free = 0x1FFF
    cls = 0
    for kind in range(4):
        r = 0
        chosen = 0
        rest = sets[kind]
        while rest:
            low = rest & -rest
            rest ^= low
            chosen += 1
            r += BINOMIAL[bit_count(free & (low - 1)), chosen]
        total = total * BINOMIAL[bit_count(free), chosen] + r
        free ^= sets[kind]
        cls = cls * 7 + chosen
    return int(offset[cls] + total)


@njit(cache=True)
def _old_unrank(g: int, vals: IntArray, starts: IntArray, ids: IntArray) -> None:
    """Writes the point values (0 empty, 1-4 the kinds) of old index ``g`` into ``vals``."""
    at = np.searchsorted(starts, g, side="right") - 1
    rank = g - starts[at]
    cls = ids[at]
    counts = np.array([cls // 343, cls // 49 % 7, cls // 7 % 7, cls % 7])
    frees = np.zeros(4, dtype=np.int64)
    frees[0] = 13
    for kind in range(1, 4):
        frees[kind] = frees[kind - 1] - counts[kind - 1]
    ranks = np.zeros(4, dtype=np.int64)
    for kind in range(3, -1, -1):
        ranks[kind] = rank % BINOMIAL[frees[kind], counts[kind]]
        rank //= BINOMIAL[frees[kind], counts[kind]]
    vals[:] = 0
    for kind in range(4):
        r, i, c = ranks[kind], counts[kind], frees[kind] - 1
        p = 12
        while i > 0:  # colex: the highest pick is the largest c with C(c, i) <= r
            if vals[p] == 0:
                if BINOMIAL[c, i] <= r:
                    vals[p] = kind + 1
                    r -= BINOMIAL[c, i]
                    i -= 1
                c -= 1
            p -= 1


@njit(cache=True)
def _compare(
    old: npt.NDArray[np.int16],
    new: npt.NDArray[np.int16],
    offset: IntArray,
    starts: IntArray,
    ids: IntArray,
    data: Any,
) -> IntArray:
    """``(holes, positions, codes that differ, new entries hit twice, new entries never hit,
    first old index that differs or -1)``, walking every old index."""
    hits = np.zeros(new.size, dtype=np.uint8)
    vals = np.zeros(13, dtype=np.int64)
    sets = np.zeros(4, dtype=np.int64)
    mirrored = np.zeros(4, dtype=np.int64)
    out = np.zeros(6, dtype=np.int64)
    out[5] = -1
    for g in range(1, old.size):
        _old_unrank(g, vals, starts, ids)
        sets[:] = 0
        file = wings = 0
        for p in range(13):
            if vals[p]:
                sets[vals[p] - 1] |= 1 << p
                file += vals[p] * WEIGHTS[0, p]
                wings += vals[p] * WEIGHTS[1, p]
        for kind in range(4):
            mirrored[kind] = MIRRORS[sets[kind]]
        corner = vals[10] == 1 or vals[12] == 1 or vals[0] == 3 or vals[2] == 3
        if corner or _old_rank(mirrored, offset) < g:
            out[0] += 1
            continue
        out[1] += 1
        h = _index(file, wings, data)
        hits[h] += 1
        if hits[h] == 2:
            out[3] += 1
        if old[g] != new[h]:
            out[2] += 1
            if out[5] < 0:
                out[5] = g
    out[4] = np.count_nonzero(hits[1:] == 0)
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("old", type=Path, help="the old layout's table (.npy)")
    parser.add_argument("new", type=Path, nargs="?", help="this revision's table (.npy)")
    args = parser.parse_args()
    rules = Felli.parse_rules("felli-mullah")
    old = np.load(args.old, mmap_mode="r")
    new = np.load(args.new, mmap_mode="r") if args.new else MullahSolver(rules).load()[0].codes
    offset, starts, ids, size = old_layout()
    if old.size != size or new.size != layout(SIDE)[4]:
        raise SystemExit(f"sizes {old.size:,} and {new.size:,}: not the two layouts' tables")
    holes, positions, differ, twice, missed, first = (
        int(x) for x in _compare(old, new, offset, starts, ids, _data(rules, SIDE))
    )
    print(f"old table: {old.size:,} entries, {holes:,} holes, {positions:,} positions")
    print(f"new table: {new.size:,} entries ({new.size - 1:,} positions and the reserved one)")
    print("old tally (win, loss, draw):", ", ".join(f"{n:,}" for n in tally(old)))
    print("new tally (win, loss, draw):", ", ".join(f"{n:,}" for n in tally(new)))
    print(
        f"positions whose codes differ: {differ:,}" + (f" (first: old {first})" if differ else "")
    )
    print(f"new entries reached twice: {twice:,}; never reached: {missed:,}")
    ok = not (differ or twice or missed) and positions == new.size - 1 and old[0] == new[0]
    print("all checks passed" if ok else "FAILED")
    sys.exit(0 if ok else 1)


if __name__ == "__main__":
    main()
