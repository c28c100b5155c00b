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
    WIN,
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
from .rules import FULL_BOARD_ACTIONS, Morris, MorrisState

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
P_SEVERAL, P_DEFENDER, P_FROM_HAND, P_COUNTS, P_FIRST, P_ZD, P_ZC, P_TURNS = range(23, 31)
HEAD = 31
# st: after KEY, TURN, QUIET: the men, the men in hand, the marked points, each side's points of
# closed mills (one-time mills; else 0), each side's removals due (negative: of its own men),
# and whether placing ends once the side to move has made its removals due
S_MEN, S_HAND, S_MARKED, S_USED, S_DUE, S_CLOSING = 3, 5, 7, 8, 10, 12
#: :data:`~.rules.FULL_BOARD_ACTIONS` by index (``prm[P_FULL]``)
FULL_DRAW, FULL_FIRST_LOSES, FULL_FIRST_REMOVES, FULL_BOTH_REMOVE = 1, 2, 3, 4
#: the slots of an undo row: the quiet plies, the marked points, the mover's points of closed
#: mills, the removals due, closing, the mover, the other side's hand, the key
U_QUIET, U_MARKED, U_USED, U_DUE, U_CLOSING, U_MOVER, U_HAND, U_KEY = 0, 1, 2, 3, 5, 6, 7, 8


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
        FULL_BOARD_ACTIONS.index(variant.full_board),
        int(rules.settings.get("three_men_rule", 0)),
        int(rules["move_rule"]),
        len(board.mill_masks),
        width,
    ]
    head += [0] * (P_ALWAYS - len(head)) + [int(variant.remove_from_mills), int(variant.marking)]
    head += [0] * (P_ONCE - len(head)) + [int(variant.one_time_mills)]
    head += [0] * (P_SEVERAL - len(head))
    head += [
        int(variant.multiple_removals),
        int(variant.defender_first),
        int(variant.hand_removal),
        int(variant.mill_counts),
        int(variant.first),
    ]
    head += [0] * (P_TURNS - len(head))
    # a side may move twice in a row: make takes its longer way (removals due, who moves next)
    head += [int(variant.removals_due or variant.hand_removal or variant.defender_first)]
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
    dues = zobrist(2 * 16 + 1, size * 100 + men + 70).tolist()  # 16 values a side, then closing
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
        dues,
    ):
        offsets.append(HEAD + len(tables))
        tables += table
    head[P_WEIGHTS : P_ZT + 1] = offsets[:-4]
    head[P_DEGREE], head[P_NEXT], head[P_ZM], head[P_ZU] = degree, *offsets[-4:-1]
    head[P_ZD], head[P_ZC] = offsets[-1], offsets[-1] + 32
    prm = np.array(head + tables, dtype=np.int64)
    return Kernel(
        NAME,
        prm,
        lambda state: _pack(state, prm),
        S_CLOSING + 1,
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
    st[S_DUE], st[S_DUE + 1] = state.due
    st[S_CLOSING] = int(state.closing)
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
        key ^= _due_key(prm, c, st[S_DUE + c])
    if st[S_CLOSING]:
        key ^= prm[prm[P_ZC]]
    for p in range(size):
        if st[S_MARKED] >> p & 1:
            key ^= prm[prm[P_ZM] + p]
    if st[TURN]:
        key ^= prm[prm[P_ZT]]
    return key


@njit(cache=True, inline="always")
def generate(st: IntArray, prm: IntArray, out: IntArray) -> int:
    """The legal moves of the side to move (draw rules aside), in the engine's codes and its
    order: placements first, then the men's moves by origin from the last point; where removals
    are due, the removals alone.  The rules where a side may move twice in a row take a way of
    their own, so that the other rule sets' generator stays as short as it was."""
    if prm[P_TURNS]:
        c = st[TURN]
        if st[S_DUE + c]:
            return _removals_due(st, prm, out)
        return _generate(st, prm, out, 0 if _placement_takes(st, prm, c) else -1)
    return _generate(st, prm, out, 0)


@njit(cache=True)
def _generate(st: IntArray, prm: IntArray, out: IntArray, spent: int) -> int:
    """:func:`generate` without removals due; ``spent``: -1 where a placement's mill takes no
    man from the board (every point counts as spent for it), else 0."""
    size = prm[P_SIZE]
    c = st[TURN]
    own, opp, hand = st[S_MEN + c], st[S_MEN + 1 - c], st[S_HAND + c]
    used = st[S_USED + c]
    empty = _empty(st, size)
    n = 0
    removable = -1  # the men a mill may remove, found at the first mill
    if hand:
        n, removable = _moves_from(prm, out, n, size, empty, own, opp, used | spent, removable)
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
def _placement_takes(st: IntArray, prm: IntArray, c: int) -> bool:
    """Whether a mill closed by a placement of ``c``'s takes its first man from the board,
    written in the move: not under removals by mill counts (it takes nothing), nor while the
    opponent has men in hand under removal from the hand."""
    if prm[P_COUNTS]:
        return False
    return not (prm[P_FROM_HAND] and st[S_HAND + 1 - c])


@njit(cache=True)
def _removals_due(st: IntArray, prm: IntArray, out: IntArray) -> int:
    """The moves of a side with removals due: a removal alone of each man it may take (its own
    where the count is negative), into ``out``; how many.  Not inlined: rare, it would only
    make the generator longer."""
    c = st[TURN]
    due = st[S_DUE + c]
    return _alone(out, 0, prm[P_SIZE], _removable(prm, st[S_MEN + (c if due < 0 else 1 - c)]))


@njit(cache=True, inline="always")
def _alone(out: IntArray, n: int, size: int, men: int) -> int:
    """Write a removal alone (``src == dst == rem``) of each of ``men`` after the ``n`` in
    ``out``; the new count."""
    while men:
        low = men & -men
        men ^= low
        r = low_bit(low)
        store(out, n, (r * size + r) * (size + 1) + r)
        n += 1
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
    the mover's points of closed mills, -1 where no mill takes from the board) once for each
    man it may remove; the new count and the removable men (``removable``: them, or -1 when
    not yet found)."""
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
def _taking(prm: IntArray, after: int, dst: int, used: int) -> int:
    """How many mills through ``dst`` the men ``after`` fill that take a man (as
    :func:`_takes`)."""
    at, width = prm[P_AT], prm[P_WIDTH]
    count = 0
    for k in range(width):
        m = load(prm, at + dst * width + k)
        if m and after & m == m and m & ~used:
            count += 1
    return count


@njit(cache=True, inline="always")
def _due_key(prm: IntArray, c: int, due: int) -> int:
    """The Zobrist key of side ``c``'s ``due`` removals (0 for none)."""
    if due == 0:
        return 0
    return int(load(prm, prm[P_ZD] + c * 16 + (due & 15)))


@njit(cache=True, inline="always")
def _set_due(st: IntArray, prm: IntArray, key: int, c: int, due: int) -> int:
    """Set side ``c``'s removals due to ``due``; the key updated."""
    key ^= _due_key(prm, c, st[S_DUE + c]) ^ _due_key(prm, c, due)
    st[S_DUE + c] = due
    return key


@njit(cache=True, inline="always")
def _due_against(st: IntArray, side: int, count: int) -> int:
    """``count`` removals due against ``side``'s men, or fewer: no more than it has on the
    board, and none once it has fewer than three men (it has lost)."""
    men = bit_count(st[S_MEN + side])
    if men + st[S_HAND + side] < 3:
        return 0
    return min(count, men)


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
    to``, then the removed man's point after a mill (a removal alone: that point alone), into
    ``out``; how many."""
    size = prm[P_SIZE]
    rest, rem = split(move, size + 1)
    if rest == rem * (size + 1):  # a removal alone: its point
        out[0] = rem
        return 1
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
    if st[S_DUE + c]:
        return _points(out, 0, 0, _removable(prm, own if st[S_DUE + c] < 0 else st[S_MEN + 1 - c]))
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
    if st[S_DUE + c]:  # the removal alone of the man on ``action``
        store(out, 0, (action * size + action) * (size + 1) + action)
        return 1
    src, dst = (size, action) if action < size else split(action - size, size)
    kept = own if src == size else own ^ (1 << src)
    base = (src * size + dst) * (size + 1)
    board = src != size or _placement_takes(st, prm, c)
    if not board or not _takes(prm, kept | (1 << dst), dst, st[S_USED + c]):
        store(out, 0, base + size)
        return 1
    return _removals(out, 0, base, size, _removable(prm, st[S_MEN + 1 - c]))


@njit(cache=True, inline="always")
def make(st: IntArray, prm: IntArray, move: int, undo: IntArray, ply: int) -> None:
    c = st[TURN]
    undo[ply, U_QUIET] = st[QUIET]
    undo[ply, U_MARKED] = st[S_MARKED]
    undo[ply, U_USED] = st[S_USED + c]
    undo[ply, U_KEY] = st[KEY]
    if prm[P_TURNS]:
        _make_turns(st, prm, move, undo, ply)
        return
    size = prm[P_SIZE]
    rest, rem = split(move, size + 1)
    src, dst = split(rest, size)
    key = _piece(st, prm, st[KEY], c, src, dst, rem)
    if st[S_MARKED] and st[S_HAND] == 0 and st[S_HAND + 1] == 0:
        key ^= _marks_key(prm, st[S_MARKED])  # placing is over: the marked points are free
        st[S_MARKED] = 0
    st[TURN] = 1 - c
    st[KEY] = key ^ prm[prm[P_ZT]]


@njit(cache=True, inline="always")
def _piece(st: IntArray, prm: IntArray, key: int, c: int, src: int, dst: int, rem: int) -> int:
    """Place (``src``: the board's size) or move a man of ``c``'s to ``dst``, recording the
    points of the mills it closes under one-time mills, and take the man ``rem`` its move names
    (marked when a placement takes him under marking); the key updated."""
    size, men = prm[P_SIZE], prm[P_MEN]
    zp, zh = prm[P_ZP], prm[P_ZH]
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
    return key


@njit(cache=True)
def _make_turns(st: IntArray, prm: IntArray, move: int, undo: IntArray, ply: int) -> None:
    """:func:`make` where a side may move twice in a row (removals as moves of their own,
    several removals for one move, removal from the hand, removals by mill counts, the
    defender moving first): the undo row's further fields, a removal alone or a placement or
    move with the removals it brings besides, and who is to move.  Not inlined, so that the
    other rule sets' :func:`make` stays short."""
    size, men = prm[P_SIZE], prm[P_MEN]
    zp, zh = prm[P_ZP], prm[P_ZH]
    c = st[TURN]
    other = 1 - c
    rest, rem = split(move, size + 1)
    src, dst = split(rest, size)
    undo[ply, U_DUE] = st[S_DUE]
    undo[ply, U_DUE + 1] = st[S_DUE + 1]
    undo[ply, U_CLOSING] = st[S_CLOSING]
    undo[ply, U_MOVER] = c
    undo[ply, U_HAND] = st[S_HAND + other]
    key = st[KEY]
    placing = st[S_HAND] != 0 or st[S_HAND + 1] != 0 or st[S_CLOSING] != 0
    if src == dst:  # a removal alone
        due = st[S_DUE + c]
        taken = c if due < 0 else other
        st[S_MEN + taken] ^= 1 << rem
        key ^= load(prm, zp + taken * size + rem)
        if prm[P_MARKING] and (st[S_HAND] or st[S_HAND + 1]):
            st[S_MARKED] |= 1 << rem
            key ^= load(prm, prm[P_ZM] + rem)
        st[QUIET] = 0
        due = due + 1 if due < 0 else due - 1
        if taken == other:
            due = _due_against(st, other, due)
        key = _set_due(st, prm, key, c, due)
    else:
        # the mills that take, counted before the move records its points (one-time mills)
        after = st[S_MEN + c] | (1 << dst)
        if src != size:
            after ^= 1 << src
        mills = _taking(prm, after, dst, st[S_USED + c])
        key = _piece(st, prm, key, c, src, dst, rem)
        if mills and not (src == size and prm[P_COUNTS]):
            count = mills if prm[P_SEVERAL] else 1
            if src == size and prm[P_FROM_HAND] and st[S_HAND + other]:
                taken = min(count, st[S_HAND + other])
                key ^= load(prm, zh + other * (men + 1) + st[S_HAND + other])
                st[S_HAND + other] -= taken
                key ^= load(prm, zh + other * (men + 1) + st[S_HAND + other])
                key = _set_due(st, prm, key, c, _due_against(st, other, count - taken))
            elif rem != size and count > 1:
                key = _set_due(st, prm, key, c, _due_against(st, other, count - 1))
    over = st[S_HAND] == 0 and st[S_HAND + 1] == 0
    if st[S_MARKED] and over:
        key ^= _marks_key(prm, st[S_MARKED])  # placing is over: the marked points are free
        st[S_MARKED] = 0
    ended = placing and over
    turn = other
    closing = 0
    if st[S_DUE + c]:
        turn = c
        closing = int(ended)
    elif ended:
        key, turn = _end_placing(st, prm, key, other)
    if closing != st[S_CLOSING]:
        key ^= prm[prm[P_ZC]]
        st[S_CLOSING] = closing
    if turn != c:
        key ^= prm[prm[P_ZT]]
    st[TURN] = turn
    st[KEY] = key


@njit(cache=True)
def _end_placing(st: IntArray, prm: IntArray, key: int, after: int) -> tuple[int, int]:
    """Placing is over: the removals its end brings (by mill counts, or on a full board) and
    the player to move, who moves first (the second player under the defender moving first,
    else ``after``, whose turn it is by alternation) unless only the other has removals due;
    the key updated and that player.  Not inlined: once a game."""
    first = 1 - prm[P_FIRST] if prm[P_DEFENDER] else after
    if prm[P_COUNTS]:
        masks = prm[P_MASKS]
        white = black = 0
        for k in range(prm[P_MILLS]):
            m = load(prm, masks + k)
            white += st[S_MEN] & m == m
            black += st[S_MEN + 1] & m == m
        low = min(white, black)
        due_w, due_b = low + (white > black), low + (black > white)
        if white == 0 and black == 0:
            due_w = due_b = -1
        elif black == 0:
            due_w, due_b = 2, 1
        elif white == 0:
            due_w, due_b = 1, 2
        key = _set_due(st, prm, key, 0, _clamped(st, 0, due_w))
        key = _set_due(st, prm, key, 1, _clamped(st, 1, due_b))
    elif _empty(st, prm[P_SIZE]) == 0 and prm[P_FULL] == FULL_BOTH_REMOVE:
        key = _set_due(st, prm, key, 0, 1)
        key = _set_due(st, prm, key, 1, 1)
    elif _empty(st, prm[P_SIZE]) == 0 and prm[P_FULL] == FULL_FIRST_REMOVES:
        key = _set_due(st, prm, key, first, 1)
    if st[S_DUE + first] == 0 and st[S_DUE + 1 - first] != 0:
        return key, 1 - first
    return key, first


@njit(cache=True, inline="always")
def _clamped(st: IntArray, c: int, due: int) -> int:
    """Side ``c``'s ``due`` removals by mill counts, no more than the men they take from (its
    own when negative)."""
    if due < 0:
        return max(due, -bit_count(st[S_MEN + c]))
    return min(due, bit_count(st[S_MEN + 1 - c]))


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
    size = prm[P_SIZE]
    turns = prm[P_TURNS] != 0
    c = undo[ply, U_MOVER] if turns else 1 - st[TURN]
    other = 1 - c
    rest, rem = split(move, size + 1)
    src, dst = split(rest, size)
    if src == dst:  # a removal alone: of the mover's own men when its removals were negative
        st[S_MEN + (c if undo[ply, U_DUE + c] < 0 else other)] |= 1 << rem
    else:
        if rem != size:
            st[S_MEN + other] |= 1 << rem
        if src == size:
            st[S_MEN + c] ^= 1 << dst
            st[S_HAND + c] += 1
        else:
            st[S_MEN + c] ^= (1 << src) | (1 << dst)
    if turns:
        st[S_HAND + other] = undo[ply, U_HAND]
        st[S_DUE] = undo[ply, U_DUE]
        st[S_DUE + 1] = undo[ply, U_DUE + 1]
        st[S_CLOSING] = undo[ply, U_CLOSING]
    st[S_MARKED] = undo[ply, U_MARKED]
    st[S_USED + c] = undo[ply, U_USED]
    st[QUIET] = undo[ply, U_QUIET]
    st[TURN] = c
    st[KEY] = undo[ply, U_KEY]


@njit(cache=True, inline="always")
def status(st: IntArray, prm: IntArray, n: int) -> int:
    size = prm[P_SIZE]
    c = st[TURN]
    if bit_count(st[S_MEN + c]) + st[S_HAND + c] < 3:
        return LOSS
    empty = _empty(st, size)
    if not (st[S_HAND + c] and empty) and st[S_DUE + c] == 0:
        full = prm[P_FULL]
        if empty == 0 and st[S_HAND] == 0 and st[S_HAND + 1] == 0:
            if full == FULL_DRAW:
                return DRAW
            if full == FULL_FIRST_LOSES:
                return LOSS if c == prm[P_FIRST] else WIN
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
    # removals due count as men already taken (negative: of the side's own men)
    man = count_own - count_opp + st[S_DUE + c] - st[S_DUE + 1 - c]
    mill = mills_own - mills_opp
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
