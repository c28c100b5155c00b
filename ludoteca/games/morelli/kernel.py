"""Morelli in compiled code (numba), move for move like :mod:`.rules`: the search kernel (see
:mod:`ludoteca.compiled.kernel`) for every board size.

``st`` holds, after KEY, TURN and QUIET (always 0: Morelli cannot repeat), the King (0, 1
Black, 2 White) and the squares (0, 1 Black, 2 White).
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
import numpy.typing as npt
from numba import njit

from ...compiled.kernel import DRAW, KEY, LOSS, ONGOING, STATE_SIZE, TURN, WIN, split, zobrist
from ...compiled.registry import Kernel, register, tuned_weights
from ...core import State
from .board import frame_list, geometry
from .rules import Morelli, MorelliState

__all__ = [
    "Tables",
    "can_move",
    "captures",
    "evaluate",
    "features",
    "generate",
    "kernel",
    "make",
    "planes",
    "status",
    "tactical",
    "unmake",
]

#: the name this kernel is registered under
NAME = "morelli"
register(NAME, __name__)

IntArray = npt.NDArray[np.int64]


class Tables:
    """The geometry of one board size as flat integer arrays for the kernel."""

    def __init__(self, n: int) -> None:
        geo = geometry(n)
        squares = n * n
        self.n = n
        self.band = np.array(geo.band, dtype=np.int64)
        self.ray_start = np.zeros((squares, 8), dtype=np.int64)
        self.ray_len = np.zeros((squares, 8), dtype=np.int64)
        flat: list[int] = []
        for s in range(squares):
            for k, ray in enumerate(geo.rays[s]):
                self.ray_start[s, k] = len(flat)
                self.ray_len[s, k] = len(ray)
                flat.extend(ray)
        self.ray = np.array(flat, dtype=np.int64)
        #: how many squares of each ray from ``s`` lie on lower bands than ``s`` (a move's
        #: targets): a band is a distance from the centre (the largest of the row's and the
        #: column's), which along a line falls then rises, so they are the ray's first ones
        self.ray_in = np.zeros((squares, 8), dtype=np.int64)
        for s in range(squares):
            for k, ray in enumerate(geo.rays[s]):
                inward = [geo.band[t] < geo.band[s] for t in ray]
                inner = inward.index(False) if False in inward else len(inward)
                assert not any(inward[inner:]), "a band rises again along a ray"
                self.ray_in[s, k] = inner
        self.flanks = np.full((squares, 8, 2), -1, dtype=np.int64)
        for s in range(squares):
            for k, pair in enumerate(geo.flanks[s]):
                self.flanks[s, k] = pair
        #: for a stone on ``a``: the pairs (q, b) with ``a`` between them on a line, such that
        #: a stone arriving on ``q`` with a friend on ``b`` converts ``a``
        self.straddle = np.full((squares, 8, 2), -1, dtype=np.int64)
        count = [0] * squares
        for q in range(squares):
            for a, b in geo.flanks[q]:
                self.straddle[a, count[a]] = (q, b)
                count[a] += 1
        self.frame = np.full((squares, 4), -1, dtype=np.int64)
        for s in range(squares):
            if geo.frame[s]:
                self.frame[s] = geo.frame[s]
        self.throne = geo.throne

    def args(self) -> tuple[IntArray, IntArray, IntArray, IntArray, IntArray, IntArray, int]:
        return (
            self.band,
            self.ray_start,
            self.ray_len,
            self.ray,
            self.flanks,
            self.frame,
            self.throne,
        )


_TABLES: dict[int, Tables] = {}


def _tables(n: int) -> Tables:
    if n not in _TABLES:
        _TABLES[n] = Tables(n)
    return _TABLES[n]


# --- the search kernel -----------------------------------------------------------------------
S_KING, S_PLACED, S_BOARD = 3, 4, 5  # S_PLACED: White's stones' weights less Black's
#: the slot of ``undo[ply]`` keeping ``S_PLACED`` before the move (after the conversions)
U_PLACED = 10
P_N, P_THRONE, P_FRAMES, P_KING_W, P_CROWN_W = range(5)
(
    P_BAND,
    P_RSTART,
    P_RLEN,
    P_RAY,
    P_FLANKS,
    P_FRAME,
    P_ZOB,
    P_FLIST,
    P_WEIGHT,
    P_WORTH,
    P_STRADDLE,
    P_RIN,
) = range(8, 20)
HEAD = 20


#: the evaluation's features (:func:`features`), each the side to move's less the other's:
#: the King; the frames holding one, two, three and four stones of one side and none of the
#: other's; the crown (2 when the side to move can complete a frame at once in place of the
#: other side's King, 1 on a vacant Throne); and the stones on each ring of the board, the
#: outermost first (a ring is a band, counted from the edge: a 9x9 board has four, a 13x13 six)
FEATURES = (
    "king",
    "frame_1",
    "frame_2",
    "frame_3",
    "frame_4",
    "crown",
    "ring_0",
    "ring_1",
    "ring_2",
    "ring_3",
    "ring_4",
    "ring_5",
)
#: where the rings' features start in :data:`FEATURES`
RINGS = FEATURES.index("ring_0")
#: the hand-set weights: 500 times the readable engine's values (``MorelliState.evaluate``
#: before its squashing; a stone on ring ``k`` is worth 0.03 + 0.02 ``k`` there); a rule set
#: with weights of its own in :data:`WEIGHTS_FILE` plays with those
DEFAULT_WEIGHTS = {
    "king": 750,
    "frame_1": 10,
    "frame_2": 40,
    "frame_3": 175,
    "frame_4": 300,
    "crown": 375,
    "ring_0": 15,
    "ring_1": 25,
    "ring_2": 35,
    "ring_3": 45,
    "ring_4": 55,
    "ring_5": 65,
}
#: the weights tuned for a rule set (``ludoteca tune``), by rule set
WEIGHTS_FILE = Path(__file__).with_name("weights.json")


def weights(rules: str) -> dict[str, int]:
    """The evaluation's weights for the rule set ``rules`` (its canonical spec): the hand-set
    :data:`DEFAULT_WEIGHTS`, or those :data:`WEIGHTS_FILE` holds for that rule set."""
    return tuned_weights(WEIGHTS_FILE, rules, DEFAULT_WEIGHTS)


def kernel(game: Morelli) -> Kernel:
    """The search kernel of a Morelli game (bound to its rule set)."""
    n = game.size
    t = _tables(n)
    squares = n * n
    assert S_BOARD + 3 * squares <= STATE_SIZE, "captures keeps two boards' scratch after it"
    assert n // 2 <= len(FEATURES) - RINGS, "a ring without a weight"
    frames = frame_list(n)
    tuned = weights(game.play_rules)
    ring = [tuned[f"ring_{k}"] for k in range(n // 2)]
    stone = [ring[n // 2 - b] if b else 0 for b in t.band.tolist()]  # none on the Throne
    tables = [
        t.band,
        t.ray_start.ravel(),
        t.ray_len.ravel(),
        t.ray,
        t.flanks.ravel(),
        t.frame.ravel(),
        zobrist(squares * 3 + 4, 1000 + n),
        np.array([q for f in frames for q in f], dtype=np.int64),
        np.array(stone, dtype=np.int64),
        np.array([0] + [tuned[f"frame_{k}"] for k in range(1, 5)], dtype=np.int64),
        t.straddle.ravel(),
        t.ray_in.ravel(),
    ]
    head = np.zeros(HEAD, dtype=np.int64)
    head[P_N], head[P_THRONE], head[P_FRAMES] = n, t.throne, len(frames)
    head[P_KING_W], head[P_CROWN_W] = tuned["king"], tuned["crown"]
    at = HEAD
    for i, table in enumerate(tables):
        head[P_BAND + i] = at
        at += table.size
    prm = np.concatenate([head, *[np.asarray(x, dtype=np.int64) for x in tables]])
    return Kernel(
        NAME,
        prm,
        lambda state: _pack(state, prm),
        S_BOARD + squares,
        reduce_after=3,
        weights=tuple(tuned.items()),
        base_weights=tuple(DEFAULT_WEIGHTS.items()),
    )


def _pack(state: State, prm: IntArray) -> IntArray:
    assert isinstance(state, MorelliState)
    st = np.zeros(STATE_SIZE, dtype=np.int64)
    st[TURN] = int(state.turn)
    st[S_KING] = state.king
    st[S_BOARD : S_BOARD + len(state.board)] = state.board
    weight = prm[prm[P_WEIGHT] : prm[P_WEIGHT] + len(state.board)]
    board = np.asarray(state.board)
    st[S_PLACED] = int(weight[board == 2].sum() - weight[board == 1].sum())
    st[KEY] = _key(st, prm)
    return st


@njit(cache=True)
def _key(st: IntArray, prm: IntArray) -> int:
    squares = prm[P_N] * prm[P_N]
    zob = prm[P_ZOB]
    key = prm[zob + squares * 3 + st[S_KING]]
    for s in range(squares):
        if st[S_BOARD + s]:
            key ^= prm[zob + s * 3 + st[S_BOARD + s]]
    if st[TURN]:
        key ^= prm[zob + squares * 3 + 3]
    return int(key)


@njit(cache=True)
def generate(st: IntArray, prm: IntArray, out: IntArray) -> int:
    return _moves(st, prm, out, False)


@njit(cache=True)
def can_move(st: IntArray, prm: IntArray, out: IntArray) -> bool:
    """Whether the side to move has a legal move (stops at the first it finds)."""
    return _moves(st, prm, out, True) > 0


@njit(cache=True, inline="always")
def _moves(st: IntArray, prm: IntArray, out: IntArray, first: bool) -> int:
    """The legal moves into ``out``, how many; with ``first``, only the first one found."""
    squares = prm[P_N] * prm[P_N]
    mover = 2 - st[TURN]
    king = st[S_KING]
    throne = prm[P_THRONE]
    band, rstart, rin, ray = prm[P_BAND], prm[P_RSTART], prm[P_RIN], prm[P_RAY]
    n = 0
    for s in range(squares):
        if st[S_BOARD + s] != mover or prm[band + s] <= 1:
            continue
        for k in range(8):
            start = prm[rstart + s * 8 + k]
            for i in range(prm[rin + s * 8 + k]):  # the ray's squares inward of ``s``
                t = prm[ray + start + i]
                if st[S_BOARD + t] != 0:
                    break
                if t == throne:
                    if king != 0:
                        break
                    continue
                out[n] = s * squares + t
                n += 1
                if first:
                    return n
    return n


@njit(cache=True, inline="always")
def _crowns(st: IntArray, prm: IntArray, s: int, mover: int) -> bool:
    at = prm[P_FRAME] + s * 4
    if prm[at] < 0:
        return False
    for k in range(4):
        if st[S_BOARD + prm[at + k]] != mover:
            return False
    return True


@njit(cache=True, inline="always")
def make(st: IntArray, prm: IntArray, move: int, undo: IntArray, ply: int) -> None:
    """``undo[ply]``: [0] the King before, [1] conversions, then the converted squares."""
    squares = prm[P_N] * prm[P_N]
    zob = prm[P_ZOB]
    src, dst = split(move, squares)
    mover = st[S_BOARD + src]
    enemy = 3 - mover
    key = st[KEY] ^ prm[zob + src * 3 + mover] ^ prm[zob + dst * 3 + mover]
    st[S_BOARD + src] = 0
    st[S_BOARD + dst] = mover
    weight = prm[P_WEIGHT]
    gain = prm[weight + dst] - prm[weight + src]  # the mover's, in weights
    converted = 0
    flanks = prm[P_FLANKS] + dst * 16
    for k in range(8):
        a = prm[flanks + 2 * k]
        if a < 0:
            continue
        b = prm[flanks + 2 * k + 1]
        if st[S_BOARD + a] == enemy and st[S_BOARD + b] == mover:
            st[S_BOARD + a] = mover
            key ^= prm[zob + a * 3 + enemy] ^ prm[zob + a * 3 + mover]
            undo[ply, 2 + converted] = a
            converted += 1
            gain += 2 * prm[weight + a]
    undo[ply, 0] = st[S_KING]
    undo[ply, 1] = converted
    undo[ply, U_PLACED] = st[S_PLACED]
    st[S_PLACED] += gain if mover == 2 else -gain
    if st[S_KING] != mover:
        crowned = _crowns(st, prm, dst, mover)
        for i in range(converted):
            crowned = crowned or _crowns(st, prm, undo[ply, 2 + i], mover)
        if crowned:
            key ^= prm[zob + squares * 3 + st[S_KING]] ^ prm[zob + squares * 3 + mover]
            st[S_KING] = mover
    st[TURN] = 1 - st[TURN]
    st[KEY] = key ^ prm[zob + squares * 3 + 3]


@njit(cache=True, inline="always")
def unmake(st: IntArray, prm: IntArray, move: int, undo: IntArray, ply: int) -> None:
    squares = prm[P_N] * prm[P_N]
    zob = prm[P_ZOB]
    src, dst = split(move, squares)
    mover = st[S_BOARD + dst]
    enemy = 3 - mover
    key = st[KEY] ^ prm[zob + squares * 3 + 3]
    key ^= prm[zob + squares * 3 + st[S_KING]] ^ prm[zob + squares * 3 + undo[ply, 0]]
    st[S_KING] = undo[ply, 0]
    st[S_PLACED] = undo[ply, U_PLACED]
    for i in range(undo[ply, 1]):
        a = undo[ply, 2 + i]
        st[S_BOARD + a] = enemy
        key ^= prm[zob + a * 3 + enemy] ^ prm[zob + a * 3 + mover]
    st[S_BOARD + dst] = 0
    st[S_BOARD + src] = mover
    st[TURN] = 1 - st[TURN]
    st[KEY] = key ^ prm[zob + src * 3 + mover] ^ prm[zob + dst * 3 + mover]


@njit(cache=True, inline="always")
def status(st: IntArray, prm: IntArray, n: int) -> int:
    if n:
        return ONGOING
    king = st[S_KING]
    if king == 0:
        return DRAW
    return WIN if king == 2 - st[TURN] else LOSS


@njit(cache=True, inline="always")
def tactical(st: IntArray, prm: IntArray, move: int) -> bool:
    squares = prm[P_N] * prm[P_N]
    src, dst = split(move, squares)
    mover = st[S_BOARD + src]
    enemy = 3 - mover
    flanks = prm[P_FLANKS] + dst * 16
    for k in range(8):
        a = prm[flanks + 2 * k]
        if a < 0:
            continue
        b = prm[flanks + 2 * k + 1]
        if st[S_BOARD + a] == enemy and st[S_BOARD + b] == mover and b != src:
            return True
    return False


@njit(cache=True, inline="always")
def _reaches(st: IntArray, prm: IntArray, t: int, mover: int) -> bool:
    """Whether a stone of ``mover`` can move to the empty square ``t``."""
    band, rstart, rlen, ray = prm[P_BAND], prm[P_RSTART], prm[P_RLEN], prm[P_RAY]
    throne = prm[P_THRONE]
    inner = prm[band + t]
    for k in range(8):
        start = prm[rstart + t * 8 + k]
        for i in range(prm[rlen + t * 8 + k]):
            s = prm[ray + start + i]
            v = st[S_BOARD + s]
            if v:
                if v == mover and prm[band + s] > inner:
                    return True
                break
            if s == throne and st[S_KING]:
                break
    return False


@njit(cache=True, inline="always")
def _frames(st: IntArray, prm: IntArray) -> tuple[int, int, int, int, int]:
    """The frames by how many stones they hold, one to four, of the side to move and none of
    the other's, less the other's likewise; and the crown: 2 when the side to move can complete
    a frame of three at once in place of the other side's King, 1 on a vacant Throne, else 0."""
    mover = 2 - st[TURN]
    enemy = 3 - mover
    king = st[S_KING]
    flist = prm[P_FLIST]
    one = two = three = four = crown = 0
    for f in range(prm[P_FRAMES]):
        mine = theirs = 0
        gap = -1
        for k in range(4):
            q = prm[flist + 4 * f + k]
            v = st[S_BOARD + q]
            mine += v == mover
            theirs += v == enemy
            if v == 0:
                gap = q
        if theirs == 0:
            count, side = mine, 1
            if mine == 3 and king != mover and not crown and _reaches(st, prm, gap, mover):
                crown = 2 if king == enemy else 1
        elif mine == 0:
            count, side = theirs, -1
        else:
            continue
        if count == 1:
            one += side
        elif count == 2:
            two += side
        elif count == 3:
            three += side
        elif count == 4:
            four += side
    return one, two, three, four, crown


@njit(cache=True)
def evaluate(st: IntArray, prm: IntArray) -> int:
    """The weights (``prm``, :func:`weights`) times the features (:data:`FEATURES`): the King
    first; then frames that one stone would complete (a frame the side to move can complete at
    once counts half the King it would win); then stones nearer the Throne (with the hand-set
    weights, the readable engine's evaluation before its squashing, in thousandths of a win)."""
    mover = 2 - st[TURN]
    king = st[S_KING]
    score = 0
    if king:
        score += prm[P_KING_W] if king == mover else -prm[P_KING_W]
    worth = prm[P_WORTH]
    one, two, three, four, crown = _frames(st, prm)
    score += prm[worth + 1] * one + prm[worth + 2] * two + prm[worth + 3] * three
    score += prm[worth + 4] * four + prm[P_CROWN_W] * crown
    return int(score + (st[S_PLACED] if mover == 2 else -st[S_PLACED]))


@njit(cache=True)
def features(st: IntArray, prm: IntArray, out: npt.NDArray[np.float64]) -> None:
    """Write the evaluation's features (:data:`FEATURES`) into ``out``: :func:`evaluate` is
    their dot product with the weights."""
    mover = 2 - st[TURN]
    king = st[S_KING]
    out[:] = 0.0
    out[0] = 0 if king == 0 else 1 if king == mover else -1
    for k, value in enumerate(_frames(st, prm)):
        out[1 + k] = value
    n = prm[P_N]
    band = prm[P_BAND]
    for s in range(n * n):
        v = st[S_BOARD + s]
        if v and prm[band + s]:
            out[RINGS + n // 2 - prm[band + s]] += 1 if v == mover else -1


@njit(cache=True)
def captures(st: IntArray, prm: IntArray, row: IntArray, n: int) -> int:
    """Move the tactical moves among ``row[:n]`` to its front; return how many there are.
    Marks the empty squares where a stone would flank an enemy stone against one of the
    mover's (found from the enemy stones), then filters by destination."""
    squares = prm[P_N] * prm[P_N]
    mover = 2 - st[TURN]
    enemy = 3 - mover
    marks = S_BOARD + squares  # st[marks + q]: 1 on a marked square
    marked = marks + squares  # st[marked + i]: the squares marked
    count = 0
    straddle = prm[P_STRADDLE]
    for a in range(squares):
        if st[S_BOARD + a] != enemy:
            continue
        at = straddle + a * 16
        for k in range(8):
            q = prm[at + 2 * k]
            if q < 0:
                break
            if (
                st[S_BOARD + q] == 0
                and st[S_BOARD + prm[at + 2 * k + 1]] == mover
                and not st[marks + q]
            ):
                st[marks + q] = 1
                st[marked + count] = q
                count += 1
    if count == 0:
        return 0
    found = 0
    for j in range(n):
        move = row[j]
        dst = split(move, squares)[1]
        if st[marks + dst] and tactical(st, prm, move):
            row[j] = row[found]
            row[found] = move
            found += 1
    for i in range(count):
        st[marks + st[marked + i]] = 0
    return found


@njit(cache=True, inline="always")
def planes(st: IntArray, prm: IntArray, out: npt.NDArray[np.float32]) -> None:
    """As :meth:`MorelliState.planes`: White stones, Black stones, then White's and Black's
    King (constant planes)."""
    squares = prm[P_N] * prm[P_N]
    king = st[S_KING]
    for k, piece in enumerate((2, 1)):  # one plane a loop: the compiler vectorises them
        for s in range(squares):
            out[k * squares + s] = np.float32(st[S_BOARD + s] == piece)
        crowned = np.float32(king == piece)
        for s in range(squares):
            out[(2 + k) * squares + s] = crowned
