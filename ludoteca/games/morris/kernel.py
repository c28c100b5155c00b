"""The Morris family in compiled code (numba), move for move like :mod:`.rules`: the search
kernel (see :mod:`ludoteca.compiled.kernel`).

The board comes in as arrays built from the rule set's :class:`~.board.MorrisBoard` (each
point's neighbours, the mill masks, the mills through each point), so every board of the family
runs in the same kernel: ``generate``, ``make``/``unmake`` with an incremental Zobrist key,
``status``, ``evaluate`` (material, mills, open twos, and mobility and blocked men from the
placing phase on: weights, per rule set, times ``features``, so that ``ludoteca tune`` can fit
the weights to games), ``tactical`` and ``prior`` (a quiet move that stops a mill, then one
that makes an open two, first), over ``st``/``prm`` arrays (:func:`kernel`).
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
import numpy.typing as npt
from numba import njit

from ...compiled.kernel import (
    DRAW,
    KEY,
    LOSS,
    ONGOING,
    QUIET,
    STATE_SIZE,
    TURN,
    bit_count,
    high_bit,
    load,
    low_bit,
    split,
    store,
    zobrist,
)
from ...compiled.registry import Kernel, register, tuned_weights
from ...core import State
from .rules import Morris, MorrisState

__all__ = [
    "action_path",
    "evaluate",
    "features",
    "generate",
    "kernel",
    "make",
    "moves_with",
    "next_actions",
    "planes",
    "prior",
    "status",
    "tactical",
    "unmake",
    "weights",
]

#: the name this kernel is registered under
NAME = "morris"
register(NAME, __name__)

IntArray = npt.NDArray[np.int64]


# --- the search kernel -----------------------------------------------------------------------
# prm: switches, then offsets of the tables that follow them
P_SIZE, P_MEN, P_FLY, P_LASKER, P_FULL, P_THREE, P_RULE, P_MILLS, P_WIDTH = range(9)
P_WEIGHTS, P_ADJ, P_MASKS, P_AT, P_ZP, P_ZH, P_ZT, P_DEGREE, P_NEXT = range(9, 18)
P_ALWAYS, P_MARKING, P_ZM, P_ONCE, P_ZU = range(18, 23)
HEAD = 23
# st: after KEY, TURN, QUIET: the men, the men in hand, the marked points, each side's points of
# closed mills (one-time mills; else 0)
S_MEN, S_HAND, S_MARKED, S_USED = 3, 5, 7, 8


def kernel(game: Morris) -> Kernel:
    """The search kernel of a Morris game (bound to its rule set)."""
    rules = game.rules
    variant = game.variant
    board = variant.board
    size, men = board.size, variant.men
    width = max(len(m) for m in board.mills_at)
    degree = max(a.bit_count() for a in board.adjacent)
    head = [
        size,
        men,
        int(bool(rules["flying"])),
        int(variant.lasker),
        int(variant.full_board == "draw"),
        int(rules.settings.get("three_men_rule", 0)),
        int(rules["move_rule"]),
        len(board.mill_masks),
        width,
    ]
    head += [0] * (P_ALWAYS - len(head)) + [int(variant.remove_from_mills), int(variant.marking)]
    head += [0] * (P_ONCE - len(head)) + [int(variant.one_time_mills)]
    head += [0] * (HEAD - len(head))
    tuned = weights(str(rules))
    tables: list[int] = []
    offsets = []
    at = [0] * (size * width)
    for p, masks in enumerate(board.mills_at):
        at[p * width : p * width + len(masks)] = masks
    # each point's neighbours in increasing order, then the board's size (never empty)
    neighbours = [size] * (size * degree)
    for p, near in enumerate(board.adjacent):
        ps = [q for q in range(size) if near >> q & 1]
        neighbours[p * degree : p * degree + len(ps)] = ps
    keys = zobrist(2 * size + 2 * (men + 1) + 1, size * 100 + men).tolist()
    marks = zobrist(size, -(size * 100 + men)).tolist()
    used = zobrist(2 * size, size * 100 + men + 50).tolist()
    for table in (
        list(tuned.values()),
        list(board.adjacent),
        list(board.mill_masks),
        at,
        keys[: 2 * size],
        keys[2 * size : -1],
        keys[-1:],
        neighbours,
        marks,
        used,
    ):
        offsets.append(HEAD + len(tables))
        tables += table
    head[P_WEIGHTS : P_ZT + 1] = offsets[:-3]
    head[P_DEGREE], head[P_NEXT], head[P_ZM], head[P_ZU] = degree, *offsets[-3:]
    prm = np.array(head + tables, dtype=np.int64)
    return Kernel(
        NAME,
        prm,
        lambda state: _pack(state, prm),
        S_USED + 2,
        weights=tuple(tuned.items()),
        base_weights=tuple(DEFAULT_WEIGHTS.items()),
    )


def _pack(state: State, prm: IntArray) -> IntArray:
    assert isinstance(state, MorrisState)
    st = np.zeros(STATE_SIZE, dtype=np.int64)
    st[TURN] = int(state.turn)
    st[QUIET] = state.quiet
    st[S_MEN], st[S_MEN + 1] = state.men
    st[S_HAND], st[S_HAND + 1] = state.hand
    st[S_MARKED] = state.marked
    st[S_USED], st[S_USED + 1] = state.used
    st[KEY] = _key(st, prm)
    return st


@njit(cache=True)
def _key(st: IntArray, prm: IntArray) -> int:
    size, men = prm[P_SIZE], prm[P_MEN]
    key = 0
    for c in range(2):
        for p in range(size):
            if st[S_MEN + c] >> p & 1:
                key ^= prm[prm[P_ZP] + c * size + p]
        key ^= prm[prm[P_ZH] + c * (men + 1) + st[S_HAND + c]]
        key ^= _used_key(prm, c, st[S_USED + c])
    for p in range(size):
        if st[S_MARKED] >> p & 1:
            key ^= prm[prm[P_ZM] + p]
    if st[TURN]:
        key ^= prm[prm[P_ZT]]
    return key


@njit(cache=True)
def generate(st: IntArray, prm: IntArray, out: IntArray) -> int:
    """The legal moves of the side to move (draw rules aside), in the engine's codes and its
    order: placements first, then the men's moves by origin from the last point."""
    size = prm[P_SIZE]
    c = st[TURN]
    own, opp, hand = st[S_MEN + c], st[S_MEN + 1 - c], st[S_HAND + c]
    used = st[S_USED + c]
    empty = _empty(st, size)
    n = 0
    removable = -1  # the men a mill may remove, found at the first mill
    if hand:
        n, removable = _moves_from(prm, out, n, size, empty, own, opp, used, removable)
    if hand == 0 or prm[P_LASKER] != 0:
        flying = prm[P_FLY] != 0 and hand == 0 and bit_count(own) == 3
        adj = prm[P_ADJ]
        men = own
        while men:
            src = high_bit(men)
            men ^= 1 << src
            targets = empty if flying else load(prm, adj + src) & empty
            n, removable = _moves_from(prm, out, n, src, targets, own, opp, used, removable)
    return n


@njit(cache=True, inline="always")
def _moves_from(
    prm: IntArray,
    out: IntArray,
    n: int,
    src: int,
    targets: int,
    own: int,
    opp: int,
    used: int,
    removable: int,
) -> tuple[int, int]:
    """Write the moves from ``src`` (the board's size: a placement) to each of ``targets``
    after the ``n`` in ``out``, a move that closes a mill that takes (:func:`_takes`; ``used``:
    the mover's points of closed mills) once for each man it may remove; the new count and the
    removable men (``removable``: them, or -1 when not yet found)."""
    size = prm[P_SIZE]
    kept = own if src == size else own ^ (1 << src)
    while targets:
        low = targets & -targets
        targets ^= low
        dst = low_bit(low)
        base = (src * size + dst) * (size + 1)
        if not _takes(prm, kept | low, dst, used):
            store(out, n, base + size)
            n += 1
            continue
        if removable < 0:
            removable = _removable(prm, opp)
        n = _removals(out, n, base, size, removable)
    return n, removable


@njit(cache=True, inline="always")
def _takes(prm: IntArray, after: int, dst: int, used: int) -> bool:
    """Whether the men ``after`` (own, once moved) fill a mill through ``dst`` with a point
    outside ``used`` (the mover's points of closed mills, 0 where mills are not one-time):
    a mill that takes a man."""
    at, width = prm[P_AT], prm[P_WIDTH]
    for k in range(width):
        m = load(prm, at + dst * width + k)
        if m and after & m == m and m & ~used:
            return True
    return False


@njit(cache=True, inline="always")
def _closed(prm: IntArray, men: int, dst: int) -> int:
    """The points of the mills through ``dst`` that ``men`` fill (0 if none)."""
    at, width = prm[P_AT], prm[P_WIDTH]
    points = 0
    for k in range(width):
        m = load(prm, at + dst * width + k)
        if m and men & m == m:
            points |= m
    return points


@njit(cache=True, inline="always")
def _used_key(prm: IntArray, c: int, points: int) -> int:
    """The Zobrist keys of side ``c``'s ``points`` of closed mills, combined."""
    key, size = 0, prm[P_SIZE]
    while points:
        low = points & -points
        points ^= low
        key ^= load(prm, prm[P_ZU] + c * size + low_bit(low))
    return key


@njit(cache=True, inline="always")
def _empty(st: IntArray, size: int) -> int:
    """The empty points: neither side's men, nor marked."""
    return int(((1 << size) - 1) & ~(st[S_MEN] | st[S_MEN + 1] | st[S_MARKED]))


@njit(cache=True, inline="always")
def _removable(prm: IntArray, opp: int) -> int:
    """The opponent's men a mill may remove: all of them where the rule set removes from
    mills, else those in no mill, or all if every one is in one."""
    if prm[P_ALWAYS]:
        return opp
    masks = prm[P_MASKS]
    in_mill = 0
    for k in range(prm[P_MILLS]):
        m = load(prm, masks + k)
        if opp & m == m:
            in_mill |= m
    free = opp & ~in_mill
    return free if free else opp


@njit(cache=True, inline="always")
def _removals(out: IntArray, n: int, base: int, size: int, removable: int) -> int:
    """Write a mill-closing move (``base``: its code without the removal) once for each of
    the ``removable`` men (once, removing none, when there is none) after the ``n`` in
    ``out``; the new count."""
    if removable == 0:
        store(out, n, base + size)
        return n + 1
    return _points(out, n, base, removable)


@njit(cache=True, inline="always")
def action_path(prm: IntArray, move: int, out: IntArray) -> int:
    """As :meth:`MorrisState.action_path`: the placement's point or ``size + from * size +
    to``, then the removed man's point after a mill, into ``out``; how many."""
    size = prm[P_SIZE]
    rest, rem = split(move, size + 1)
    out[0] = rest - size * size if rest >= size * size else rest + size
    if rem == size:
        return 1
    out[1] = rem
    return 2


@njit(cache=True)
def next_actions(st: IntArray, prm: IntArray, out: IntArray) -> int:
    """The first actions of :func:`generate`'s moves (:func:`action_path`'s), once each and in
    its order, into ``out``; how many.  No mill is looked for: a move and the same move with
    a removal start alike."""
    size = prm[P_SIZE]
    c = st[TURN]
    own, hand = st[S_MEN + c], st[S_HAND + c]
    empty = _empty(st, size)
    n = 0
    if hand:
        n = _points(out, n, 0, empty)
    if hand == 0 or prm[P_LASKER] != 0:
        flying = prm[P_FLY] != 0 and hand == 0 and bit_count(own) == 3
        men = own
        if flying:
            while men:
                src = high_bit(men)
                men ^= 1 << src
                n = _points(out, n, size + src * size, empty)
            return n
        degree, near = prm[P_DEGREE], prm[P_NEXT]
        while men:  # every neighbour written, counted if empty: no branch on the board
            src = high_bit(men)
            men ^= 1 << src
            base, at = size + src * size, near + src * degree
            for k in range(degree):
                dst = load(prm, at + k)
                store(out, n, base + dst)
                n += empty >> dst & 1
    return n


@njit(cache=True, inline="always")
def _points(out: IntArray, n: int, base: int, points: int) -> int:
    """Write ``base + p`` for each of ``points`` after the ``n`` in ``out``; the new count."""
    while points:
        low = points & -points
        points ^= low
        store(out, n, base + low_bit(low))
        n += 1
    return n


@njit(cache=True, inline="always")
def moves_with(st: IntArray, prm: IntArray, action: int, out: IntArray) -> int:
    """The moves of :func:`generate` whose :func:`action_path` starts with ``action`` (one of
    :func:`next_actions`), in its order, into ``out``; how many: the move, or the move once for
    each man its mill may remove."""
    size = prm[P_SIZE]
    c = st[TURN]
    own = st[S_MEN + c]
    src, dst = (size, action) if action < size else split(action - size, size)
    kept = own if src == size else own ^ (1 << src)
    base = (src * size + dst) * (size + 1)
    if not _takes(prm, kept | (1 << dst), dst, st[S_USED + c]):
        store(out, 0, base + size)
        return 1
    return _removals(out, 0, base, size, _removable(prm, st[S_MEN + 1 - c]))


@njit(cache=True, inline="always")
def make(st: IntArray, prm: IntArray, move: int, undo: IntArray, ply: int) -> None:
    size, men = prm[P_SIZE], prm[P_MEN]
    zp, zh = prm[P_ZP], prm[P_ZH]
    c = st[TURN]
    rest, rem = split(move, size + 1)
    src, dst = split(rest, size)
    undo[ply, 0] = st[QUIET]
    undo[ply, 1] = st[S_MARKED]
    undo[ply, 2] = st[S_USED + c]
    key = st[KEY]
    if src == size:
        key ^= load(prm, zh + c * (men + 1) + st[S_HAND + c])
        st[S_HAND + c] -= 1
        key ^= load(prm, zh + c * (men + 1) + st[S_HAND + c])
        st[S_MEN + c] |= 1 << dst
        key ^= load(prm, zp + c * size + dst)
    else:
        st[S_MEN + c] ^= (1 << src) | (1 << dst)
        key ^= load(prm, zp + c * size + src) ^ load(prm, zp + c * size + dst)
        st[QUIET] += 1
    if prm[P_ONCE]:
        fresh = _closed(prm, st[S_MEN + c], dst) & ~st[S_USED + c]
        st[S_USED + c] |= fresh
        key ^= _used_key(prm, c, fresh)
    if rem != size:
        st[S_MEN + 1 - c] ^= 1 << rem
        key ^= load(prm, zp + (1 - c) * size + rem)
        st[QUIET] = 0
        if prm[P_MARKING] and src == size:
            st[S_MARKED] |= 1 << rem
            key ^= load(prm, prm[P_ZM] + rem)
    if st[S_MARKED] and st[S_HAND] == 0 and st[S_HAND + 1] == 0:
        key ^= _marks_key(prm, st[S_MARKED])  # placing is over: the marked points are free
        st[S_MARKED] = 0
    st[TURN] = 1 - c
    st[KEY] = key ^ prm[prm[P_ZT]]


@njit(cache=True, inline="always")
def _marks_key(prm: IntArray, marked: int) -> int:
    """The Zobrist keys of the ``marked`` points, combined."""
    key = 0
    while marked:
        low = marked & -marked
        marked ^= low
        key ^= load(prm, prm[P_ZM] + low_bit(low))
    return key


@njit(cache=True, inline="always")
def unmake(st: IntArray, prm: IntArray, move: int, undo: IntArray, ply: int) -> None:
    size, men = prm[P_SIZE], prm[P_MEN]
    zp, zh = prm[P_ZP], prm[P_ZH]
    c = 1 - st[TURN]
    rest, rem = split(move, size + 1)
    src, dst = split(rest, size)
    key = st[KEY] ^ prm[prm[P_ZT]]
    if rem != size:
        st[S_MEN + 1 - c] |= 1 << rem
        key ^= load(prm, zp + (1 - c) * size + rem)
    if src == size:
        st[S_MEN + c] ^= 1 << dst
        key ^= load(prm, zp + c * size + dst)
        key ^= load(prm, zh + c * (men + 1) + st[S_HAND + c])
        st[S_HAND + c] += 1
        key ^= load(prm, zh + c * (men + 1) + st[S_HAND + c])
    else:
        st[S_MEN + c] ^= (1 << src) | (1 << dst)
        key ^= load(prm, zp + c * size + src) ^ load(prm, zp + c * size + dst)
    key ^= _marks_key(prm, st[S_MARKED] ^ undo[ply, 1])
    st[S_MARKED] = undo[ply, 1]
    key ^= _used_key(prm, c, st[S_USED + c] ^ undo[ply, 2])
    st[S_USED + c] = undo[ply, 2]
    st[QUIET] = undo[ply, 0]
    st[TURN] = c
    st[KEY] = key


@njit(cache=True, inline="always")
def status(st: IntArray, prm: IntArray, n: int) -> int:
    size = prm[P_SIZE]
    c = st[TURN]
    if bit_count(st[S_MEN + c]) + st[S_HAND + c] < 3:
        return LOSS
    empty = _empty(st, size)
    if not (st[S_HAND + c] and empty):
        if prm[P_FULL] and empty == 0 and st[S_HAND] == 0 and st[S_HAND + 1] == 0:
            return DRAW
        if n == 0:
            return LOSS
    quiet = st[QUIET]
    if prm[P_RULE] and quiet >= prm[P_RULE]:
        return DRAW
    if (
        prm[P_THREE]
        and quiet >= prm[P_THREE]
        and st[S_HAND] == 0
        and st[S_HAND + 1] == 0
        and min(bit_count(st[S_MEN]), bit_count(st[S_MEN + 1])) == 3
    ):
        return DRAW
    return ONGOING


@njit(cache=True, inline="always")
def tactical(st: IntArray, prm: IntArray, move: int) -> bool:
    size = prm[P_SIZE]
    return bool(split(move, size + 1)[1] != size)


@njit(cache=True, inline="always")
def prior(st: IntArray, prm: IntArray, move: int) -> int:
    """2 for a quiet move to a point where the other side has two men of a mill and this side
    none (it stops a mill), 1 for one that makes an open two of this side's (a mill one move
    away), 0 for any other."""
    size, at, width = prm[P_SIZE], prm[P_AT], prm[P_WIDTH]
    c = st[TURN]
    own, opp = st[S_MEN + c], st[S_MEN + 1 - c]
    src, dst = split(split(move, size + 1)[0], size)
    if src != size:
        own ^= 1 << src
    found = 0
    for k in range(width):
        m = prm[at + dst * width + k]
        if not m:
            continue
        others = m & ~(1 << dst)
        if opp & others == others:
            return 2
        if opp & m == 0 and bit_count(own & others) == 1:
            found = 1
    return found


@njit(cache=True, inline="always")
def _mobility(prm: IntArray, men: int, empty: int) -> tuple[int, int, int, int]:
    """The steps the ``men`` have to empty neighbours, how many of them have none, how
    many have one (a man the other side can shut in with one man), and the empty points
    next to one of them."""
    adj = prm[P_ADJ]
    steps = blocked = weak = reach = 0
    while men:
        low = men & -men
        men ^= low
        near = prm[adj + low_bit(low)] & empty
        reach |= near
        free = bit_count(near)
        steps += free
        blocked += free == 0
        weak += free == 1
    return steps, blocked, weak, bit_count(reach)


@njit(cache=True, inline="always")
def _short(steps: int, men: int) -> int:
    """The square of the steps a side with at least :data:`ROOM` men on the board lacks to
    reach :data:`ROOM`: the moving phase is lost by the side that runs out of moves, so each
    step fewer costs more than the one before."""
    short = max(0, ROOM - steps) if bit_count(men) >= ROOM else 0
    return short * short


#: the men and steps below which a side is squeezed (:func:`_short`)
ROOM = 5


@njit(cache=True, inline="always")
def _terms(st: IntArray, prm: IntArray) -> tuple[int, ...]:
    """The evaluation's features for the side to move, in the order of :data:`FEATURES`."""
    size = prm[P_SIZE]
    c = st[TURN]
    own, opp = st[S_MEN + c], st[S_MEN + 1 - c]
    hand_own, hand_opp = st[S_HAND + c], st[S_HAND + 1 - c]
    count_own = bit_count(own) + hand_own
    count_opp = bit_count(opp) + hand_opp
    empty = _empty(st, size)
    masks = prm[P_MASKS]
    twos_own = twos_opp = mills_own = mills_opp = ready_own = ready_opp = 0
    adj = prm[P_ADJ]
    used_own, used_opp = st[S_USED + c], st[S_USED + 1 - c]
    for k in range(prm[P_MILLS]):
        m = prm[masks + k]
        mine, theirs = own & m, opp & m
        # a mill on points all recorded for its side (one-time mills) takes nothing: not counted
        if (m & ~used_own == 0 and theirs == 0) or (m & ~used_opp == 0 and mine == 0):
            continue
        if mine == m:
            mills_own += 1
        elif theirs == m:
            mills_opp += 1
        elif theirs == 0 and bit_count(mine) == 2:
            twos_own += 1
            if prm[adj + low_bit(m & ~mine)] & own & ~m:
                ready_own += 1
        elif mine == 0 and bit_count(theirs) == 2:
            twos_opp += 1
            if prm[adj + low_bit(m & ~theirs)] & opp & ~m:
                ready_opp += 1
    flying = prm[P_FLY] != 0
    fly_own = flying and hand_own == 0 and count_own == 3
    fly_opp = flying and hand_opp == 0 and count_opp == 3
    mob_own, blocked_own, weak_own, reach_own = _mobility(prm, own, empty)
    mob_opp, blocked_opp, weak_opp, reach_opp = _mobility(prm, opp, empty)
    steps = blocked = squeezed = weak = shut_in = reach = ready = 0
    if not fly_own and not fly_opp:
        steps = mob_own - mob_opp
        blocked = blocked_own - blocked_opp
        squeezed = _short(mob_opp, opp) - _short(mob_own, own)
        weak = weak_opp * (hand_own > 0) - weak_own * (hand_opp > 0)
        reach = reach_own - reach_opp
        ready = ready_own * (hand_own == 0) - ready_opp * (hand_opp == 0)
        # a side shut in loses at its turn unless the other lets go
        shut_in = int(hand_opp == 0 and mob_opp == 0 and count_opp >= 3) - int(
            hand_own == 0 and mob_own == 0 and count_own >= 3
        )
    man, mill = count_own - count_opp, mills_own - mills_opp
    moving = int(hand_own + hand_opp == 0)
    placing = 1 - moving
    return (
        man * moving,
        mill * moving,
        twos_own * moving,
        twos_opp * moving,
        steps * moving,
        blocked * moving,
        squeezed * moving,
        weak,
        shut_in,
        int(fly_opp and twos_own > 0 and (count_own == 3 or mob_own > 0)),
        int(fly_own and twos_opp >= 2),
        reach,
        ready,
        man * placing,
        mill * placing,
        twos_own * placing,
        twos_opp * placing,
        steps * placing,
        blocked * placing,
        squeezed * placing,
    )


#: the terms weighted apart while men are placed: each has its feature for the moving phase
#: and a ``_placing`` one
PHASED = ("man", "mill", "open_two", "open_two_against", "step", "blocked", "squeezed")


#: the evaluation's features (:func:`features`), each the side to move's less the other's
#: unless it names one side: men (on the board and in hand); mills; the open twos (a mill one
#: move away) of the side to move, and of the other side; from the placing phase on, while
#: neither side flies, the steps to empty neighbours, the men without one, the squares of the
#: steps a side with :data:`ROOM` men or more lacks to reach :data:`ROOM` (the other's less
#: the side to move's), the men with one free neighbour while the other side has men to place
#: (the other's less the side to move's), and a side shut in (the other less the side to
#: move); the flying endgame: an open two of the side to move against three flying men
#: (when it has three men or a step), and two open twos against the side to move's three;
#: and, while neither side flies, the empty points next to a side's men, and the open twos a
#: side with no men left to place can close with its next step (a man of its own, not of the
#: two, next to the gap).  Under one-time mills a mill or open two on points all recorded for its
#: side (a mill there would take nothing) counts for nothing.
FEATURES = (
    *PHASED,
    "weak",
    "shut_in",
    "flying_attack",
    "flying_defence",
    "reach",
    "ready",
    *(f"{name}_placing" for name in PHASED),
)
#: the hand-set weights of the family, in units where a man is worth 100 and 1000 is clearly
#: won (a term weighs the same in both phases); a rule set with weights of its own in
#: :data:`WEIGHTS_FILE` plays with those
DEFAULT_WEIGHTS = {
    "man": 100,
    "mill": 12,
    "open_two": 30,
    "open_two_against": -24,
    "step": 8,
    "blocked": -14,
    "squeezed": 8,
    "weak": 6,
    "shut_in": 600,
    "flying_attack": 250,
    "flying_defence": -250,
    "reach": 0,
    "ready": 0,
}
DEFAULT_WEIGHTS |= {f"{name}_placing": DEFAULT_WEIGHTS[name] for name in PHASED}
#: the weights tuned for a rule set (``ludoteca tune``), by rule set: ``{rules: {"weights":
#: {feature: weight}, ...}}``
WEIGHTS_FILE = Path(__file__).with_name("weights.json")


def weights(rules: str) -> dict[str, int]:
    """The evaluation's weights for the rule set ``rules`` (its canonical spec): the family's
    :data:`DEFAULT_WEIGHTS`, or those :data:`WEIGHTS_FILE` holds for that rule set."""
    return tuned_weights(WEIGHTS_FILE, rules, DEFAULT_WEIGHTS)


@njit(cache=True)
def features(st: IntArray, prm: IntArray, out: npt.NDArray[np.float64]) -> None:
    """Write the evaluation's features (:data:`FEATURES`) into ``out``: :func:`evaluate` is
    their dot product with the weights."""
    for k, value in enumerate(_terms(st, prm)):
        out[k] = value


@njit(cache=True)
def evaluate(st: IntArray, prm: IntArray) -> int:
    """The weights (``prm``, :func:`weights`) times the features (:data:`FEATURES`):
    material; mills and open twos; from the placing phase on, the mobility and the blocked
    men of both sides, a side squeezed to few steps (a side left without a move loses), men
    the other side can still shut in by placing one man and a side shut in; and the flying
    endgame (three men cannot stop an open two for long, nor two open twos at all)."""
    at = prm[P_WEIGHTS]
    score = 0
    for k, value in enumerate(_terms(st, prm)):
        score += prm[at + k] * value
    return score


@njit(cache=True, inline="always")
def planes(st: IntArray, prm: IntArray, out: npt.NDArray[np.float32]) -> None:
    """As :meth:`MorrisState.planes`: White's and Black's men, then each side's men in hand as
    a fraction of the men it starts with."""
    size, men = prm[P_SIZE], prm[P_MEN]
    for c in range(2):  # one plane a loop, float32 values: loops the compiler vectorises
        bits, base = st[S_MEN + c], c * size
        for p in range(size):
            store(out, base + p, np.float32(bits >> p & 1))
        hand, base = np.float32(st[S_HAND + c] / men), (2 + c) * size
        for p in range(size):
            store(out, base + p, hand)
