"""Felli in compiled code (numba): the search kernel (see :mod:`ludoteca.compiled.kernel`), move
for move like :mod:`.rules`, for every rule set (forced and multi-capture, the Mullah rules).

``st`` holds, after KEY, TURN and QUIET, the 13 points' values as the engine keeps them (0
empty, 1/2 a South/North man, 5/6 a Mullah).  Capture chains are walked depth first on an
explicit stack (numba cannot cache recursive functions).  Move codes are the engine's path codes.
"""

from __future__ import annotations

import numpy as np
import numpy.typing as npt
from numba import njit

from ...compiled.kernel import DRAW, KEY, LOSS, ONGOING, QUIET, STATE_SIZE, TURN, zobrist
from ...compiled.registry import Kernel, register
from ...core import State
from .board import BETWEEN, MULLAH, POINTS, PROMOTION, RAYS
from .rules import Felli, FelliState

__all__ = [
    "action_path",
    "evaluate",
    "generate",
    "kernel",
    "make",
    "planes",
    "status",
    "tactical",
    "unmake",
]

#: the name this kernel is registered under
NAME = "felli"
register(NAME, __name__)

IntArray = npt.NDArray[np.int64]
B = 3  # st[B + p]: the value on point p
P_FORCED, P_MULTI, P_MULLAH, P_RULE, P_STEP, P_JUMP, P_NRAYS, P_RANK = range(8)
P_RAYS, P_RAYLEN, P_RAY, P_BTW, P_BTWLEN, P_BETWEEN, P_ZOB, P_PROMO = range(8, 16)
MAXRAYS = 6
CHAIN, LEAPS = 8, 24  # the longest capture chain (points), the most leaps from one point
# st[VICTIM + d * LEAPS + i], st[LANDING + ...]: the leaps found at chain depth d; then per
# depth the number found (COUNT), the one being followed (INDEX), the value of its victim
# (SAVED), and the chain's points (PATH)
VICTIM = 64
LANDING = VICTIM + CHAIN * LEAPS
COUNT = LANDING + CHAIN * LEAPS
INDEX = COUNT + CHAIN
SAVED = INDEX + CHAIN
PATH = SAVED + CHAIN


def kernel(game: Felli) -> Kernel:
    """The search kernel of a Felli game (bound to its rule set)."""
    rules = game.rules
    head = [int(bool(rules[k])) for k in ("forced_capture", "multi_capture", "mullah")]
    head += [int(rules["move_rule"])] + [0] * 12
    rays_at: list[int] = []
    ray_len: list[int] = []
    flat: list[int] = []
    step = [-1] * (13 * MAXRAYS)  # step[p * MAXRAYS + k]: the first point of ray k, -1: none
    jump = [-1] * (13 * MAXRAYS)  # jump[p * MAXRAYS + k]: its second point, -1: none
    for p in range(13):
        for k in range(MAXRAYS):
            ray = RAYS[p][k] if k < len(RAYS[p]) else ()
            rays_at.append(len(flat))
            ray_len.append(len(ray))
            flat.extend(ray)
            step[p * MAXRAYS + k] = ray[0] if ray else -1
            jump[p * MAXRAYS + k] = ray[1] if len(ray) > 1 else -1
    btw_at: list[int] = []
    btw_len: list[int] = []
    btw: list[int] = []
    for a in range(13):
        for b in range(13):
            between = BETWEEN[a][b] or ()
            btw_at.append(len(btw))
            btw_len.append(len(between))
            btw.extend(between)
    promo = [0] * 21  # promo[side * 7 + k]: the promotion corners of side 1 and 2
    for side in (1, 2):
        promo[side * 7], promo[side * 7 + 1] = PROMOTION[side]
    rank = [int(POINTS[p][1:]) - 1 for p in range(13)]  # rows from South's, 0 to 4
    tables = {
        P_STEP: step,
        P_JUMP: jump,
        P_NRAYS: [len(RAYS[p]) for p in range(13)],
        P_RANK: rank,
        P_RAYS: rays_at,
        P_RAYLEN: ray_len,
        P_RAY: flat,
        P_BTW: btw_at,
        P_BTWLEN: btw_len,
        P_BETWEEN: btw,
        P_ZOB: zobrist(13 * 7 + 1, 13).tolist(),
        P_PROMO: promo,
    }
    data: list[int] = []
    for slot, table in tables.items():
        head[slot] = 16 + len(data)
        data += table
    prm = np.array(head + data, dtype=np.int64)
    return Kernel(NAME, prm, lambda state: _pack(state, prm), B + 13)


def _pack(state: State, prm: IntArray) -> IntArray:
    assert isinstance(state, FelliState)
    st = np.zeros(STATE_SIZE, dtype=np.int64)
    st[TURN] = int(state.turn)
    st[QUIET] = state.quiet
    st[B : B + 13] = state.board
    st[KEY] = _key(st, prm)
    return st


@njit(cache=True)
def _key(st: IntArray, prm: IntArray) -> int:
    key = 0
    for p in range(13):
        if st[B + p]:
            key ^= prm[prm[P_ZOB] + p * 7 + st[B + p]]
    if st[TURN]:
        key ^= prm[prm[P_ZOB] + 91]
    return key


@njit(cache=True, inline="always")
def _encode(st: IntArray, length: int, capture: int) -> int:
    total = 0
    for i in range(length - 1, -1, -1):
        total = total * 14 + st[PATH + i] + 1
    return capture + 2 * total


@njit(cache=True, inline="always")
def _leaps(st: IntArray, prm: IntArray, p: int, mullah: int, enemy: int, d: int) -> int:
    """The leaps of a (lifted) piece on ``p`` into row ``d``: victim and landing point."""
    count = 0
    row = d * LEAPS
    rays = prm[prm[P_NRAYS] + p]
    at = p * MAXRAYS
    if not mullah:  # a man leaps the neighbour onto the point behind it
        step = prm[P_STEP] + at
        jump = prm[P_JUMP] + at
        for k in range(rays):
            landing = prm[jump + k]
            if landing >= 0 and st[B + landing] == 0 and st[B + prm[step + k]] & 3 == enemy:
                st[VICTIM + row + count] = prm[step + k]
                st[LANDING + row + count] = landing
                count += 1
        return count
    starts = prm[P_RAYS] + at
    lengths = prm[P_RAYLEN] + at
    ray = prm[P_RAY]
    for k in range(rays):
        length = prm[lengths + k]
        start = ray + prm[starts + k]
        i = 0
        while i < length and st[B + prm[start + i]] == 0:
            i += 1
        if i + 1 >= length or st[B + prm[start + i]] & 3 != enemy:
            continue
        victim = prm[start + i]
        for j in range(i + 1, length):
            landing = prm[start + j]
            if st[B + landing]:
                break
            st[VICTIM + row + count] = victim
            st[LANDING + row + count] = landing
            count += 1
    return count


@njit(cache=True)
def generate(st: IntArray, prm: IntArray, out: IntArray) -> int:
    side = st[TURN] + 1
    enemy = 3 - side
    multi = prm[P_MULTI]
    n = 0
    for p in range(13):  # captures, chains walked depth first
        piece = st[B + p]
        if piece & 3 != side:
            continue
        mullah = piece & MULLAH
        st[B + p] = 0
        st[PATH] = p
        st[COUNT] = _leaps(st, prm, p, mullah, enemy, 0)
        st[INDEX] = 0
        d = 0
        while d >= 0:
            k = st[INDEX + d]
            if k >= st[COUNT + d]:
                d -= 1
                if d >= 0 and multi:
                    st[B + st[VICTIM + d * LEAPS + st[INDEX + d] - 1]] = st[SAVED + d]
                continue
            st[INDEX + d] = k + 1
            victim = st[VICTIM + d * LEAPS + k]
            landing = st[LANDING + d * LEAPS + k]
            st[PATH + d + 1] = landing
            if not multi:
                out[n] = _encode(st, d + 2, 1)
                n += 1
                continue
            st[SAVED + d] = st[B + victim]
            st[B + victim] = 0
            more = _leaps(st, prm, landing, mullah, enemy, d + 1)
            if more == 0:
                out[n] = _encode(st, d + 2, 1)
                n += 1
                st[B + victim] = st[SAVED + d]
                continue
            d += 1
            st[COUNT + d] = more
            st[INDEX + d] = 0
        st[B + p] = piece
    if n and prm[P_FORCED]:
        return n
    for p in range(13):  # steps and Mullah slides
        piece = st[B + p]
        if piece & 3 != side:
            continue
        at = p * MAXRAYS
        rays = prm[prm[P_NRAYS] + p]
        if not piece & MULLAH:
            step = prm[P_STEP] + at
            for k in range(rays):
                q = prm[step + k]
                if st[B + q] == 0:
                    out[n] = 2 * ((p + 1) + 14 * (q + 1))
                    n += 1
            continue
        starts = prm[P_RAYS] + at
        lengths = prm[P_RAYLEN] + at
        ray = prm[P_RAY]
        for k in range(rays):
            start = ray + prm[starts + k]
            for i in range(prm[lengths + k]):
                q = prm[start + i]
                if st[B + q]:
                    break
                out[n] = 2 * ((p + 1) + 14 * (q + 1))
                n += 1
    return n


@njit(cache=True, inline="always")
def make(st: IntArray, prm: IntArray, move: int, undo: IntArray, ply: int) -> None:
    """``undo[ply]``: [0] quiet, [1] promoted, [2] captures, then (point, value) pairs."""
    zob = prm[P_ZOB]
    rest = move >> 1
    first = rest % 14 - 1
    rest //= 14
    key = st[KEY]
    piece = st[B + first]
    st[B + first] = 0
    key ^= prm[zob + first * 7 + piece]
    taken = 0
    a = end = first
    while rest:
        b = rest % 14 - 1
        rest //= 14
        end = b
        if move & 1:
            at = prm[prm[P_BTW] + a * 13 + b]
            for j in range(prm[prm[P_BTWLEN] + a * 13 + b]):
                q = prm[prm[P_BETWEEN] + at + j]
                if st[B + q]:
                    undo[ply, 3 + 2 * taken] = q
                    undo[ply, 4 + 2 * taken] = st[B + q]
                    key ^= prm[zob + q * 7 + st[B + q]]
                    st[B + q] = 0
                    taken += 1
                    break
        a = b
    promoted = 0
    if prm[P_MULLAH] and not piece & MULLAH:
        side = piece & 3
        promo = prm[P_PROMO]
        if end == prm[promo + side * 7] or end == prm[promo + side * 7 + 1]:
            promoted = 1
    placed = piece | MULLAH if promoted else piece
    st[B + end] = placed
    key ^= prm[zob + end * 7 + placed]
    undo[ply, 0] = st[QUIET]
    undo[ply, 1] = promoted
    undo[ply, 2] = taken
    st[QUIET] = 0 if taken or promoted else st[QUIET] + 1
    st[TURN] = 1 - st[TURN]
    st[KEY] = key ^ prm[zob + 91]


@njit(cache=True, inline="always")
def unmake(st: IntArray, prm: IntArray, move: int, undo: IntArray, ply: int) -> None:
    zob = prm[P_ZOB]
    rest = move >> 1
    first = rest % 14 - 1
    end = first
    while rest:
        end = rest % 14 - 1
        rest //= 14
    key = st[KEY] ^ prm[zob + 91]
    placed = st[B + end]
    st[B + end] = 0
    key ^= prm[zob + end * 7 + placed]
    piece = placed & 3 if undo[ply, 1] else placed
    st[B + first] = piece
    key ^= prm[zob + first * 7 + piece]
    for i in range(undo[ply, 2]):
        q, value = undo[ply, 3 + 2 * i], undo[ply, 4 + 2 * i]
        st[B + q] = value
        key ^= prm[zob + q * 7 + value]
    st[QUIET] = undo[ply, 0]
    st[TURN] = 1 - st[TURN]
    st[KEY] = key


@njit(cache=True, inline="always")
def status(st: IntArray, prm: IntArray, n: int) -> int:
    if n == 0:
        return LOSS
    if prm[P_RULE] and st[QUIET] >= prm[P_RULE]:
        return DRAW
    return ONGOING


@njit(cache=True, inline="always")
def tactical(st: IntArray, prm: IntArray, move: int) -> bool:
    return bool(move & 1)


@njit(cache=True)
def evaluate(st: IntArray, prm: IntArray) -> int:
    """Material (a Mullah counts three men), free points next to each side's pieces, and (under
    the Mullah rules) men nearer their promotion corners."""
    side = st[TURN] + 1
    score = 0
    mullahs = prm[P_MULLAH]
    for p in range(13):
        v = st[B + p]
        if not v:
            continue
        worth = 300 if v & MULLAH else 100
        step = prm[P_STEP] + p * MAXRAYS
        for k in range(prm[prm[P_NRAYS] + p]):
            if st[B + prm[step + k]] == 0:
                worth += 4
        if mullahs and not v & MULLAH:
            rank = prm[prm[P_RANK] + p]
            worth += 8 * (rank if v == 1 else 4 - rank)
        score += worth if v & 3 == side else -worth
    return score


@njit(cache=True, inline="always")
def action_path(prm: IntArray, move: int, out: IntArray) -> int:
    """As :meth:`FelliState.action_path`: one action ``from * 13 + to`` per step, slide or leap,
    into ``out``; how many."""
    rest = move >> 1
    a = rest % 14 - 1
    rest //= 14
    n = 0
    while rest:
        b = rest % 14 - 1
        rest //= 14
        out[n] = a * 13 + b
        n += 1
        a = b
    return n


@njit(cache=True, inline="always")
def planes(st: IntArray, prm: IntArray, out: npt.NDArray[np.float32]) -> None:
    """As :meth:`FelliState.planes`: White men, Black men, White Mullahs, Black Mullahs."""
    for k, piece in enumerate((1, 2, 5, 6)):  # one plane a loop: the compiler vectorises them
        for p in range(13):
            out[13 * k + p] = np.float32(st[B + p] == piece)
