"""Morris tables by retrograde analysis (see :mod:`ludoteca.solve.retrograde`), for every board
of the family: the moving and flying phase with at most N men a side (endgame tables), or, where
it fits, the whole game with the men still in hand (Six Men's Morris is solved outright).

Positions are seen from the side to move: its men (a point set), the opponent's men, and both
hands.  A *class* is ``(men, in hand, opponent men, opponent in hand)``.  The board's symmetries
(every permutation of the points that keeps its lines and mills: 16 on the square boards, the
8 of the square times swapping the inner and outer rings) map positions to positions of the same
value, and the table keeps one position of each symmetry class: the side to move's men are
turned to the smallest point set of their orbit, and among the symmetries doing so the one giving
the opponent's men the smallest rank is used.  Within a class, an index is the rank of the side
to move's (canonical) men among the canonical sets, times the number of opponent sets, plus the
rank of the opponent's men among the points left free.

Positions where a side has fewer than three men (board and hand) are lost for it; a player who
cannot move loses; endless play is a draw; the draw rules (repetition, move rules) are not part
of the table.
"""

from __future__ import annotations

import contextlib
import math
import time
from dataclasses import dataclass, field
from itertools import combinations
from pathlib import Path
from typing import Any, BinaryIO

import numpy as np
import numpy.typing as npt
from numba import njit

from ...compiled.kernel import bit_count
from ...core import InvalidRulesError, RuleSet, State
from ...files import read_or_build, write_atomically
from ...jobs import Pool
from ...solve import cache_dir
from ...solve.checkpoint import Checkpoint
from ...solve.retrograde import HOLE, LOST, code_value, solve_pairs
from ...tables import Progress, Solver, Table
from .board import MorrisBoard, symmetries
from .kernel import S_HAND, S_MEN
from .kernel import kernel as morris_kernel
from .rules import Morris

__all__ = ["MorrisSolver", "MorrisTable", "mapped"]

IntArray = npt.NDArray[np.int64]
#: the endgame tables' default size (men a side), where a game is not solved outright
DEFAULT_MEN = 5


@dataclass(frozen=True)
class Layout:
    """The index of one table: classes, their first indices, and what ranking needs."""

    size: int  # entries, the reserved entry 0 included
    classes: list[tuple[int, int, int, int]]
    starts: IntArray  # each class's first index, in index order
    params: IntArray  # each class's (men, hand, opponent men, opponent hand, opponent sets)
    pairs: list[tuple[int, int, str]]
    pair_starts: IntArray  # each pair's first index
    offset: IntArray  # by (men, hand, opponent men, opponent hand): first index, -1 for none
    data: tuple[Any, ...] = field(repr=False)
    #: each pair's stage, (men in hand, men): every move leaving a pair lowers one of them
    stages: list[tuple[int, int]] = field(default_factory=list)


def _label(cls: tuple[int, int, int, int]) -> str:
    a, h, b, k = cls
    return f"{a}-{b}" if not (h or k) else f"{a}+{h}-{b}+{k}"


def layout(board: MorrisBoard, men: int, hands: int, flying: bool) -> Layout:
    """The index of the positions with at most ``men`` men a side (on the board and in hand)
    and at most ``hands`` men in each hand."""
    n = board.size
    perms = symmetries(board)
    syms = len(perms)
    nbytes = (n + 7) // 8
    permute = np.zeros((syms, nbytes, 256), dtype=np.int64)
    for s, perm in enumerate(perms):
        for k in range(nbytes):
            for byte in range(256):
                permute[s, k, byte] = sum(
                    1 << perm[8 * k + j] for j in range(8) if byte >> j & 1 and 8 * k + j < n
                )
    bino = np.array([[math.comb(a, b) for b in range(n + 1)] for a in range(n + 1)], dtype=np.int64)
    # the canonical sets of each size: the smallest mask of their orbit
    top = min(men, n)
    reps = np.zeros((top + 1, int(bino[n].max())), dtype=np.int64)
    rep_count = np.zeros(top + 1, dtype=np.int64)
    rep_id = np.full((top + 1, int(bino[n].max())), -1, dtype=np.int64)
    for a in range(top + 1):
        for combo in combinations(range(n), a):
            mask = sum(1 << p for p in combo)
            if min(sum(1 << perm[p] for p in combo) for perm in perms) == mask:
                rep_id[a, _comb_rank(mask, bino)] = rep_count[a]
                reps[a, rep_count[a]] = mask
                rep_count[a] += 1
    classes = [
        (a, h, b, k)
        for a in range(top + 1)
        for h in range(hands + 1)
        for b in range(top + 1)
        for k in range(hands + 1)
        if a + h <= men
        and b + k <= men
        and a + h >= 3
        and b + k >= 3
        and h in (k, k + 1)
        and a + b <= n
    ]
    classes.sort(
        key=lambda c: (c[1] + c[3], c[0] + c[1] + c[2] + c[3], min(c, (c[2], c[3], c[0], c[1])))
    )
    offset = np.full((top + 1, hands + 1, top + 1, hands + 1), -1, dtype=np.int64)
    starts: list[int] = []
    params: list[tuple[int, int, int, int, int]] = []
    pairs: list[tuple[int, int, str]] = []
    stages: list[tuple[int, int]] = []
    ordered: list[tuple[int, int, int, int]] = []
    at = 1  # entry 0 is the retrograde's reserved "lost at once"
    for cls in classes:
        a, h, b, k = cls
        if offset[cls] >= 0:
            continue
        lo = at
        # quiet moves (no man in hand) lead to the mirror class: a pair
        members = [cls] if h or k else list(dict.fromkeys((cls, (b, k, a, h))))
        for member in members:
            offset[member] = at
            starts.append(at)
            sets = int(bino[n - member[0], member[2]])
            params.append((*member, sets))
            ordered.append(member)
            at += int(rep_count[member[0]]) * sets
        pairs.append((lo, at, "  ".join(_label(m) for m in members)))
        stages.append((h + k, a + h + b + k))
    starts_a = np.array(starts, dtype=np.int64)
    params_a = np.array(params, dtype=np.int64)
    width = max(len(m) for m in board.mills_at)
    mills_at = np.zeros((n, width), dtype=np.int64)
    for p, masks in enumerate(board.mills_at):
        mills_at[p, : len(masks)] = masks
    data = (
        n,
        permute,
        bino,
        reps,
        rep_id,
        offset,
        starts_a,
        params_a,
        np.array(board.adjacent, dtype=np.int64),
        mills_at,
        width,
        int(flying),
    )
    pair_starts = np.array([lo for lo, _, _ in pairs], dtype=np.int64)
    return Layout(at, ordered, starts_a, params_a, pairs, pair_starts, offset, data, stages)


def _comb_rank(mask: int, bino: IntArray) -> int:
    r, j, p = 0, 0, 0
    while mask:
        if mask & 1:
            j += 1
            r += int(bino[p, j])
        mask >>= 1
        p += 1
    return r


@njit(cache=True)
def _permute(mask: int, s: int, permute: IntArray) -> int:
    out = 0
    k = 0
    while mask:
        out |= permute[s, k, mask & 255]
        mask >>= 8
        k += 1
    return out


@njit(cache=True)
def _rank_in(subset: int, free: int, bino: IntArray) -> int:
    """The colex rank of ``subset`` among the points of ``free``."""
    r = 0
    chosen = 0
    while subset:
        low = subset & -subset
        subset ^= low
        chosen += 1
        r += bino[bit_count(free & (low - 1)), chosen]
    return r


@njit(cache=True)
def _unrank_in(r: int, count: int, free: int, n: int, bino: IntArray) -> int:
    """The subset of ``count`` points of ``free`` with colex rank ``r``."""
    c = bit_count(free) - 1
    out = 0
    for p in range(n - 1, -1, -1):
        if count == 0:
            break
        if not free >> p & 1:
            continue
        if bino[c, count] <= r:
            out |= 1 << p
            r -= bino[c, count]
            count -= 1
        c -= 1
    return out


@njit(cache=True)
def _index(own: int, opp: int, hand: int, opp_hand: int, data: Any) -> int:
    """The index of a position's symmetry class (or ``LOST``: fewer than three men)."""
    n, permute, bino, _reps, rep_id, offset, _starts, _params = data[:8]
    a = bit_count(own)
    b = bit_count(opp)
    if a + hand < 3:
        return LOST
    best = -1
    syms = permute.shape[0]
    for s in range(syms):
        image = _permute(own, s, permute)
        if best < 0 or image < best:
            best = image
    r = -1
    free = ((1 << n) - 1) ^ best
    for s in range(syms):
        if _permute(own, s, permute) == best:
            rank = _rank_in(_permute(opp, s, permute), free, bino)
            if r < 0 or rank < r:
                r = rank
    cls = rep_id[a, _rank_in(best, (1 << n) - 1, bino)]
    return int(offset[a, hand, b, opp_hand] + cls * bino[n - a, b] + r)


@njit(cache=True)
def _decode(g: int, st: IntArray, data: Any) -> bool:
    n, _perm, bino, reps, _rep_id, _offset, starts, params = data[:8]
    at = np.searchsorted(starts, g, side="right") - 1
    a, hand, b, opp_hand, sets = (
        params[at, 0],
        params[at, 1],
        params[at, 2],
        params[at, 3],
        params[at, 4],
    )
    rank = g - starts[at]
    own = reps[a, rank // sets]
    opp = _unrank_in(rank % sets, b, ((1 << n) - 1) ^ own, n, bino)
    st[0] = 0
    st[1] = 0
    st[2] = 0
    st[S_MEN] = own
    st[S_MEN + 1] = opp
    st[S_HAND] = hand
    st[S_HAND + 1] = opp_hand
    return _index(own, opp, hand, opp_hand, data) == g


@njit(cache=True)
def _encode(st: IntArray, data: Any) -> int:
    c = st[1]
    return _index(st[S_MEN + c], st[S_MEN + 1 - c], st[S_HAND + c], st[S_HAND + 1 - c], data)


@njit(cache=True)
def _parents(g: int, out: IntArray, st: IntArray, data: Any) -> int:
    """The positions from which the opponent of ``g``'s side to move reached it by a move that
    closed no mill (with no man in hand on either side; placements change the class)."""
    n, _perm, _bino, _reps, _rep_id, _offset, _starts, _params = data[:8]
    adjacent, mills_at, width, flying = data[8:12]
    _decode(g, st, data)
    if st[S_HAND] or st[S_HAND + 1]:
        return 0
    own, opp = st[S_MEN], st[S_MEN + 1]
    empty = ((1 << n) - 1) ^ own ^ opp
    flies = flying and bit_count(opp) == 3
    count = 0
    rest = opp
    while rest:
        low = rest & -rest
        rest ^= low
        q = 0
        while not low >> q & 1:
            q += 1
        closed = False
        for k in range(width):
            m = mills_at[q, k]
            if m and opp & m == m:
                closed = True
        if closed:
            continue
        sources = empty if flies else adjacent[q] & empty
        while sources:
            src = sources & -sources
            sources ^= src
            out[count] = _index(opp ^ low ^ src, own, 0, 0, data)
            count += 1
    return count


@dataclass
class MorrisTable(Table):
    """A Morris table: codes (see :mod:`~ludoteca.solve.retrograde`) by pair of classes, each
    pair read from the table's file when first needed."""

    rules: RuleSet
    men: int
    hands: int
    layout: Layout
    #: a pair's first index -> its codes (``load`` reads the rest from ``source``)
    pairs: dict[int, npt.NDArray[np.int16]]
    seconds: float = 0.0
    source: Any = None
    _pack: Any = None

    def covers(self, state: State) -> bool:
        """Whether ``state`` is a position of the table (its men and hands)."""
        men: tuple[int, int] = state.men  # type: ignore[attr-defined]
        hand: tuple[int, int] = state.hand  # type: ignore[attr-defined]
        if max(hand) > self.hands:
            return False
        return all(m.bit_count() + h <= self.men for m, h in zip(men, hand, strict=True))

    def _codes(self, lo: int) -> npt.NDArray[np.int16]:
        codes = self.pairs.get(lo)
        if codes is None:
            codes = self.pairs[lo] = np.asarray(self.source[f"p{lo}"])
        return codes

    def code(self, g: int) -> int:
        """The code of entry ``g``."""
        if g == LOST:
            return -1
        at = int(np.searchsorted(self.layout.pair_starts, g, side="right")) - 1
        lo = int(self.layout.pair_starts[at])
        return int(self._codes(lo)[g - lo])

    def lookup(self, state: State) -> tuple[int, int]:
        if not self.covers(state):
            raise InvalidRulesError(f"{state.position_code()} is not a position of the table")
        if self._pack is None:
            self._pack = morris_kernel(Morris.of(self.rules)).pack
        return code_value(self.code(int(_encode(self._pack(state), self.layout.data))))

    def class_codes(self, cls: tuple[int, int, int, int]) -> npt.NDArray[np.int16]:
        """The codes of the class ``cls`` (men, in hand, opponent men, opponent in hand), in
        index order: the same order in every table that has the class, whatever its size."""
        i = self.layout.classes.index(cls)
        bounds = [*self.layout.starts.tolist(), self.layout.size]
        lo, hi = bounds[i], bounds[i + 1]
        at = int(np.searchsorted(self.layout.pair_starts, lo, side="right")) - 1
        first = int(self.layout.pair_starts[at])
        return self._codes(first)[lo - first : hi - first]

    def class_counts(self) -> list[tuple[tuple[int, int, int, int], int, int, int]]:
        """Every class with its wins, losses and draws (one position per symmetry class)."""
        out = []
        for cls in self.layout.classes:
            codes = self.class_codes(cls)
            win = int(np.count_nonzero(codes > 0))
            draw = int(np.count_nonzero(codes == 0))
            loss = int(np.count_nonzero((codes < 0) & (codes != HOLE)))
            out.append((cls, win, loss, draw))
        return out

    def stats(self) -> list[str]:
        """``W-B: win X loss Y draw Z`` for every class of the moving phase (``W`` the side to
        move's men, ``B`` the opponent's), from the side to move's point of view."""
        return [
            f"{a}-{b}: win {w} loss {lo} draw {d}"
            for (a, h, b, k), w, lo, d in self.class_counts()
            if not (h or k)
        ]

    def summary(self) -> list[str]:
        lines = []
        if self.hands:
            state = Morris.of(self.rules).new()
            value, plies = self.lookup(state)
            lines.append(
                f"value: {({1: 'win', -1: 'loss', 0: 'draw'})[value]} "
                f"(for {state.turn.name.title()}, to move)"
            )
            if value:
                lines.append(f"plies: {plies}")
        counts = self.class_counts()
        win = sum(c[1] for c in counts)
        loss = sum(c[2] for c in counts)
        draw = sum(c[3] for c in counts)
        what = (
            "every position"
            if self.hands
            else f"the moving phase with at most {self.men} men a side"
        )
        lines.append(
            f"positions: {win + loss + draw} ({what}, one per symmetry class): "
            f"win {win}, loss {loss}, draw {draw}"
        )
        return lines


def _shape(rules: RuleSet, men: int | None) -> tuple[MorrisBoard, int, int, bool]:
    """The board, men a side, men in hand covered, and flying of a rule set's table: the whole
    game on a small board (16 points), else the moving phase with at most ``men`` men a side
    (``None``: the largest tables already built, else :data:`DEFAULT_MEN`)."""
    variant = Morris.of(rules).variant
    flying = bool(rules["flying"])
    if variant.board.size <= 16 and men is None:
        return variant.board, variant.men, variant.men, flying  # small: the whole game
    if men is None:  # the largest tables built, else the default size
        men = next(
            (m for m in range(variant.men, 2, -1) if _file(variant.board, m, 0, flying).exists()),
            DEFAULT_MEN,
        )
    if not 3 <= men <= variant.men:
        raise InvalidRulesError(f"tables have from 3 to {variant.men} men a side, not {men}")
    return variant.board, men, 0, flying


def _file(board: MorrisBoard, men: int, hands: int, flying: bool) -> Path:
    what = "all" if hands else f"{men}men"
    return cache_dir() / f"morris-{board.key}-{'flying' if flying else 'noflying'}-{what}-v1.npz"


def solve(
    rules: RuleSet,
    men: int | None = None,
    progress: Progress | None = None,
    pool: Pool | None = None,
) -> MorrisTable:
    """Build a rule set's table: the whole game where it is small (``men`` None on a board of
    16 points), else the moving phase with at most ``men`` men a side (default 5); on ``pool``
    (see :func:`~ludoteca.solve.retrograde.solve_pairs`)."""
    return _build(rules, *_shape(rules, men), progress, pool)


def _build(
    rules: RuleSet,
    board: MorrisBoard,
    most: int,
    hands: int,
    flying: bool,
    progress: Progress | None,
    pool: Pool | None = None,
    checkpoint: Checkpoint | None = None,
) -> MorrisTable:
    started = time.perf_counter()
    plan = layout(board, most, hands, flying)
    kernel = morris_kernel(Morris.of(rules))
    codes = solve_pairs(
        plan.size,
        plan.pairs,
        kernel,
        _decode,
        _encode,
        _parents,
        plan.data,
        progress,
        pool,
        plan.stages,
        checkpoint,
    )
    pairs = {lo: codes[lo:hi] for lo, hi, _ in plan.pairs}
    return MorrisTable(rules, most, hands, plan, pairs, time.perf_counter() - started)


def mapped(path: Path, plan: Layout) -> dict[str, npt.NDArray[np.int16]]:
    """The pairs of the table file ``path`` (compressed, one array a pair: ``p{first index}``)
    as views of one read-only memory map of every code: the file's uncompressed copy beside it
    (``NAME.codes.npy``), made from it under the caller's lock when missing or older than the
    file.  The processes reading a table (a server's move, analysis and report workers) share
    its pages through the system's cache instead of each holding its own copy."""
    whole = path.with_name(path.stem + ".codes.npy")
    if whole.exists() and whole.stat().st_mtime_ns >= path.stat().st_mtime_ns:
        with contextlib.suppress(ValueError):  # damaged: made again
            return _views(whole, plan)
    with np.load(path) as packed:

        def write(out: BinaryIO) -> None:
            header = {"descr": "<i2", "fortran_order": False, "shape": (plan.size,)}
            np.lib.format.write_array_header_1_0(out, header)
            out.write(np.zeros(1, dtype="<i2").tobytes())  # entry 0, reserved
            at = 1
            for lo, hi, _ in plan.pairs:
                codes = np.asarray(packed[f"p{lo}"], dtype="<i2")
                if lo != at or len(codes) != hi - lo:
                    raise ValueError(f"{path}: pair p{lo} is not entries {lo} to {hi}")
                out.write(codes.tobytes())
                at = hi

        write_atomically(whole, write)
    return _views(whole, plan)


def _views(whole: Path, plan: Layout) -> dict[str, npt.NDArray[np.int16]]:
    """Each pair's codes in the memory map of ``whole``; ``ValueError`` if it is not a table's
    uncompressed codes of the size ``plan`` says."""
    codes = np.load(whole, mmap_mode="r")
    if codes.shape != (plan.size,) or codes.dtype != np.int16:
        raise ValueError(f"{whole} does not hold {plan.size} codes")
    return {f"p{lo}": codes[lo:hi] for lo, hi, _ in plan.pairs}


class MorrisSolver(Solver):
    """Builds and reads the tables of a Morris rule set; rule sets on the same board with the
    same flying rule share them (the draw rules are not part of a table)."""

    def __init__(self, rules: RuleSet, men: int | None = None) -> None:
        self.rules = rules
        self.board, self.men, self.hands, self.flying = _shape(rules, men)
        self.key = _file(self.board, self.men, self.hands, self.flying).stem
        self.choice = None if self.hands else self.men

    def path(self) -> Path:
        return _file(self.board, self.men, self.hands, self.flying)

    def ready(self) -> bool:
        return self.path().exists()

    def load(
        self, progress: Progress | None = None, pool: Pool | None = None
    ) -> tuple[MorrisTable, bool]:
        shape = (self.board, self.men, self.hands, self.flying)
        checkpoint = Checkpoint.of(self)

        def read(path: Path) -> MorrisTable:
            plan = layout(*shape)
            return MorrisTable(
                self.rules, self.men, self.hands, plan, {}, source=mapped(path, plan)
            )

        def save(out: BinaryIO, table: MorrisTable) -> None:
            arrays: dict[str, Any] = {f"p{lo}": codes for lo, codes in table.pairs.items()}
            np.savez_compressed(out, **arrays)

        table, cached = read_or_build(
            self.path(), read, lambda: _build(self.rules, *shape, progress, pool, checkpoint), save
        )
        if not cached:
            checkpoint.clear()
        return table, cached
