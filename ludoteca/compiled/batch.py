"""Games played one integer action at a time by their kernels: the driver of the batched
environments (:mod:`ludoteca.vector`) and of the research adapters' cursor
(:mod:`ludoteca.adapters.actions`).

A game in progress is one row of an ``int64`` array: the kernel's ``st`` in its first
:data:`~.kernel.STATE_SIZE` slots, then this driver's slots (``R_*``: legal moves left, or
first actions where the kernel lists them; actions taken of the move in progress, plies, next
actions, random state, result, setup), the keys of the game's positions (a ring, for threefold
repetition, which the kernels leave to their callers), the distinct next actions, and the legal
moves whose action paths go on with the actions taken so far.  An action is what
``State.action_path`` spells a move with: the move's code, or (a kernel's
:func:`~.kernel.action_path`) one action a step of a move made in steps (a capture chain's
leaps, a mill and its removal).  A kernel that lists a position's first actions itself
(:func:`~.kernel.next_actions`) has its moves listed only once one is taken
(:func:`~.kernel.moves_with`).
Observations are the kernel's :func:`~.kernel.planes` and a side-to-move plane (1 where White
is to move), as the adapters give them; a result is the kernel's ``status`` with repetition,
or :data:`TRUNCATED` when a game reaches its ply limit.

The functions marked :func:`~.dispatch.specialise` are compiled for each kernel by
:func:`~.dispatch.bind`; :func:`layout` gives what they need for one rule set, and
:meth:`Layout.games` the arrays of a batch of its games (:class:`Games`, which they take whole).
"""

from __future__ import annotations

from dataclasses import dataclass
from types import SimpleNamespace
from typing import Any, NamedTuple

import numpy as np
import numpy.typing as npt
from numba import njit, prange, types
from numba.core.extending import intrinsic
from numba.np.numpy_support import carray

from ..core import Game
from . import registry
from .dispatch import bind, specialise
from .kernel import (
    DRAW,
    KEY,
    ONGOING,
    QUIET,
    STATE_SIZE,
    TURN,
    UNDO,
    WIN,
    IntArray,
    bare,
    generate,
    load,
    make,
    planes,
    prefetch,
    status,
    store,
)

__all__ = [
    "MASK",
    "MAX_MOVES",
    "SORT",
    "TRUNCATED",
    "Games",
    "Layout",
    "layout",
]

#: the result of a game stopped at its ply limit (beside the kernel's ``ONGOING`` ... ``WIN``)
TRUNCATED = 4
#: the most legal moves a position may have (and so distinct next actions)
MAX_MOVES = 2048
#: flags: keep a row's next actions in a mask array; sort them (and drop repeats) in the row
MASK, SORT = 1, 2
#: the mask argument of :func:`_offer` without :data:`MASK` (never read nor written)
_NO_MASK = np.zeros((1, 1), dtype=np.bool_)

# a row's own slots, after the kernel's
R_N, R_DEPTH, R_PLY, R_COUNT, R_RNG, R_RESULT, R_SETUP = range(STATE_SIZE, STATE_SIZE + 7)
R_SEEN = STATE_SIZE + 7  # the positions of the ring that repetition may count, as a filter
R_PATH = STATE_SIZE + 8  # scratch: one move's action path
R_UNDO = STATE_SIZE + 32  # the kernel's undo row of the last move (``rows[:, R_UNDO:]``)
R_HIST = R_UNDO + UNDO  # the ring of position keys
# cfg: the ring's size, repetitions that draw (0: off), the ply limit, 1 when every move is
# one action (its code), where the next actions and the moves start, the kernel's slots that
# describe a position, points, the kernel's planes, the row's width, the size of ``cfg`` and
# ``prm`` together (:attr:`Layout.fixed`), 1 when the kernel lists a position's first actions
# itself (``next_actions`` and ``moves_with``), and where a position's list starts (its moves,
# or its first actions under ``C_FIRST``)
C_HIST, C_REPEAT, C_MAXPLY, C_SINGLE, C_ACTS, C_MOVES, C_FIELDS, C_POINTS, C_PLANES = range(9)
C_WIDTH, C_FIXED, C_FIRST, C_LIST = 9, 10, 11, 12
CFG_SIZE = 16
#: how many rows ahead a step asks for the memory of the row it will step
AHEAD = 4

FloatArray = npt.NDArray[np.float32]
BoolArray = npt.NDArray[np.bool_]


class Games(NamedTuple):
    """A batch of games and what stepping them writes, one value that the batched functions
    take whole (numba passes a named tuple of arrays as its arrays): a new array is added here
    and in :meth:`Layout.games`.  Row ``i`` of each is game ``i``'s."""

    #: the games (the layout's rows)
    rows: IntArray
    #: the kernel's ``prm`` and the driver's ``cfg`` (the layout's)
    prm: IntArray
    cfg: IntArray
    #: the setups a game starts from (a kernel's ``st`` a row)
    starts: IntArray
    #: the legal next actions (``mask[i, a]``) and the observations (planes by points, flat)
    mask: BoolArray
    obs: FloatArray
    #: the last step's rewards (by colour), ended and truncated games
    rewards: FloatArray
    terminated: BoolArray
    truncated: BoolArray
    #: a random next action of each game
    draws: IntArray

    def packed(self) -> tuple[Any, ...]:
        """The arrays as a plain tuple, as the compiled entry points take them from Python:
        numba's dispatcher types a plain tuple in C at each call and a named one in Python
        (1 us more a call, half of a step of a few games); they name its parts again."""
        return tuple(self)


@njit(cache=True, inline="always")
def action_path(prm: IntArray, move: int, out: IntArray) -> int:
    """The default :func:`.kernel.action_path` (one action, the move's code), never called:
    ``C_SINGLE`` is set for a kernel without its own."""
    out[0] = move
    return 1


@njit(cache=True, inline="always")
def next_actions(st: IntArray, prm: IntArray, out: IntArray) -> int:
    """The default :func:`.kernel.next_actions`, never called: ``C_FIRST`` is clear for a
    kernel without its own."""
    return 0


@njit(cache=True, inline="always")
def moves_with(st: IntArray, prm: IntArray, action: int, out: IntArray) -> int:
    """The default :func:`.kernel.moves_with`, never called (as :func:`next_actions`)."""
    return 0


@njit(cache=True, inline="always")
def _random(rows: IntArray, i: int, bound: int) -> int:
    """An integer below ``bound`` (at most 2**32) from row ``i``'s generator (SplitMix64), its
    high 32 bits scaled (no division; each value's chance within 2**-32 of ``1 / bound``)."""
    x = np.uint64(rows[i, R_RNG]) + np.uint64(0x9E3779B97F4A7C15)
    rows[i, R_RNG] = np.int64(x)
    x = (x ^ (x >> np.uint64(30))) * np.uint64(0xBF58476D1CE4E5B9)
    x = (x ^ (x >> np.uint64(27))) * np.uint64(0x94D049BB133111EB)
    x ^= x >> np.uint64(31)
    scaled = (x >> np.uint64(32)) * np.uint64(bound)
    return np.int64(scaled >> np.uint64(32))  # type: ignore[return-value]


@njit(cache=True, inline="always")
def _draw(rows: IntArray, i: int, cfg: IntArray) -> int:
    """A uniformly random next action of row ``i`` (a game in progress), from its generator."""
    return int(load(rows, (i, cfg[C_ACTS] + _random(rows, i, rows[i, R_COUNT]))))


@njit(cache=True, inline="always")
def _first_illegal(mask: BoolArray, actions: IntArray, lo: int, hi: int) -> int:
    """The first row of ``lo`` to ``hi`` whose action its mask refuses, or -1."""
    size = mask.shape[1]
    for i in range(lo, hi):
        a = actions[i]
        if a < 0 or a >= size or not load(mask, (i, a)):
            return i
    return -1


@specialise(inline="always")
def _enter(rows: IntArray, i: int, prm: IntArray, cfg: IntArray) -> int:
    """Take row ``i``'s position (just reached) as the next of its game: its key joins the
    ring, its legal moves (or, under ``C_FIRST``, their first actions) are listed from
    ``C_LIST``, and its result is found and returned."""
    st = rows[i]
    if cfg[C_FIRST]:
        n = next_actions(st, prm, rows[i, cfg[C_LIST] :])
    else:
        n = generate(st, prm, rows[i, cfg[C_LIST] :])
    result = status(st, prm, n)
    ply = rows[i, R_PLY]
    ring = cfg[C_HIST] - 1
    key = st[KEY]
    store(rows, (i, R_HIST + (ply & ring)), key)
    # R_SEEN: one bit of 64, chosen by the key, for each position since the quiet count was
    # last 0 (or the game began).  The positions a repetition counts are among those, so a
    # key whose bit is clear has not occurred there and needs no scan.
    bit = 1 << (key & 63)
    earlier = rows[i, R_SEEN] & bit if st[QUIET] and ply else 0
    rows[i, R_SEEN] = (rows[i, R_SEEN] | bit) if st[QUIET] and ply else bit
    if result == ONGOING and cfg[C_REPEAT] and earlier:
        # every other position back: the key holds the side to move, and the moves since the
        # quiet count was last 0 pass the turn (a side moves twice in a row only by a removal,
        # which resets the count, or when placing ends, where it is 0)
        seen = 1
        for back in range(2, min(st[QUIET], ring, ply) + 1, 2):
            if load(rows, (i, R_HIST + ((ply - back) & ring))) == key:
                seen += 1
        if seen >= cfg[C_REPEAT]:
            result = DRAW
    if result == ONGOING and ply >= cfg[C_MAXPLY]:
        result = TRUNCATED
    rows[i, R_N] = n if result == ONGOING else 0
    rows[i, R_DEPTH] = 0
    rows[i, R_RESULT] = result
    return result


@njit(cache=True, inline="always")
def _runs_reversed(rows: IntArray, i: int, src: int, dst: int, n: int) -> bool:
    """Copy the ``n`` values of row ``i`` from ``src`` to ``dst`` in increasing order when
    they are increasing runs each below the run before it (as kernels tend to list their
    moves, by origin from the last); False, and nothing copied, otherwise."""
    above = -1  # the first value of the run before the current one (-1: none)
    run = 0
    for j in range(1, n + 1):
        if j == n or load(rows, (i, src + j)) < load(rows, (i, src + j - 1)):
            if above >= 0 and load(rows, (i, src + j - 1)) >= above:
                return False
            above = load(rows, (i, src + run))
            run = j
    end = dst + n
    run = 0
    for j in range(1, n + 1):
        if j == n or load(rows, (i, src + j)) < load(rows, (i, src + j - 1)):
            end -= j - run
            for k in range(j - run):  # a loop: a slice assignment within a row would copy
                store(rows, (i, end + k), load(rows, (i, src + run + k)))
            run = j
    return True


@njit(cache=True, inline="always")
def _sort(rows: IntArray, i: int, at: int, count: int) -> int:
    """Sort the ``count`` values of row ``i`` from ``at`` and drop repeats; how many are
    left.  Insertion sort (no allocation, quick on values nearly in order, as moves listed by
    origin are), handing over to numba's sort once it has moved values 8 places a value."""
    budget = 8 * count
    for k in range(1, count):
        a = rows[i, at + k]
        j = k - 1
        while j >= 0 and rows[i, at + j] > a:
            rows[i, at + j + 1] = rows[i, at + j]
            j -= 1
        rows[i, at + j + 1] = a
        budget -= k - 1 - j
        if budget < 0:
            rows[i, at : at + count].sort()
            break
    kept = 1
    for k in range(1, count):
        if rows[i, at + k] != rows[i, at + kept - 1]:
            rows[i, at + kept] = rows[i, at + k]
            kept += 1
    return kept


@specialise(inline="always")
def _offer(
    rows: IntArray, i: int, prm: IntArray, cfg: IntArray, mask: BoolArray, flags: int
) -> None:
    """Row ``i``'s distinct next actions (those that go on from the actions taken so far) into
    the row (in increasing order under :data:`SORT`; the legal moves themselves in a layout
    whose actions are its moves), and into ``mask`` under :data:`MASK` (cleared of the previous
    ones by :func:`_clear`)."""
    acts = cfg[C_ACTS]
    count = 0
    n = rows[i, R_N]
    ordered = False
    # the actions are the moves, or (at a move's first action) the kernel listed them: distinct
    if cfg[C_SINGLE] or (cfg[C_FIRST] and rows[i, R_DEPTH] == 0):
        listed = cfg[C_LIST]
        ordered = flags & SORT != 0 and _runs_reversed(rows, i, listed, acts, n)
        for j in range(n):
            a = load(rows, (i, listed + j))
            if not ordered and acts != listed:
                rows[i, acts + j] = a
            if flags & MASK:
                store(mask, (i, a), True)
        count = n
    else:
        depth = rows[i, R_DEPTH]
        path = rows[i, R_PATH:R_HIST]
        first = cfg[C_MOVES]
        for j in range(n):
            action_path(prm, rows[i, first + j], path)
            a = path[depth]
            if flags & MASK:
                if mask[i, a]:
                    continue
                mask[i, a] = True
            rows[i, acts + count] = a
            count += 1
    if flags & SORT and count and not ordered:
        count = _sort(rows, i, acts, count)
    rows[i, R_COUNT] = count


@njit(cache=True, inline="always")
def _clear(rows: IntArray, i: int, cfg: IntArray, mask: BoolArray) -> None:
    """Clear row ``i``'s next actions from ``mask`` (before its moves change: in a layout whose
    actions are its moves, they are its next actions)."""
    acts = cfg[C_ACTS]
    for k in range(rows[i, R_COUNT]):
        store(mask, (i, load(rows, (i, acts + k))), False)


@specialise(inline="always")
def _observe(rows: IntArray, i: int, prm: IntArray, cfg: IntArray, obs: FloatArray) -> None:
    """Row ``i``'s observation into ``obs[i]``: the kernel's planes, then the side to move."""
    out = obs[i]
    planes(rows[i], prm, out)
    side = np.float32(1.0 if rows[i, TURN] == 0 else 0.0)
    base = cfg[C_PLANES] * cfg[C_POINTS]
    for p in range(cfg[C_POINTS]):
        store(out, base + p, side)


@specialise(inline="always")
def _act(rows: IntArray, i: int, prm: IntArray, cfg: IntArray, action: int, checked: bool) -> int:
    """Take ``action`` in row ``i``: the code of the move it completes (played), -1 when the
    move goes on (the legal moves narrowed to those it continues), -2 when it is not legal
    (nothing changes).  ``checked``: the action is known to be legal (a mask said so)."""
    n, first = rows[i, R_N], cfg[C_MOVES]
    code = -1
    depth = rows[i, R_DEPTH]
    if not checked and (cfg[C_SINGLE] or (cfg[C_FIRST] and depth == 0)):
        listed = cfg[C_LIST]
        for j in range(n):
            if load(rows, (i, listed + j)) == action:
                break
        else:
            return -2
    if cfg[C_SINGLE]:
        code = action
    elif cfg[C_FIRST] and depth == 0:
        n = moves_with(rows[i], prm, action, rows[i, first:])
        path = rows[i, R_PATH:R_HIST]
        if n == 1 and action_path(prm, rows[i, first], path) == 1:
            code = rows[i, first]
        else:
            rows[i, R_N] = n
            rows[i, R_DEPTH] = 1
            return -1
    else:
        path = rows[i, R_PATH:R_HIST]
        keep = 0
        for j in range(n):
            move = rows[i, first + j]
            length = action_path(prm, move, path)
            if path[depth] == action:
                if length == depth + 1:
                    code = move
                rows[i, first + keep] = move
                keep += 1
        if keep == 0:
            return -2
        if code < 0:
            rows[i, R_N] = keep
            rows[i, R_DEPTH] = depth + 1
            return -1
    make(rows[i], prm, code, rows[:, R_UNDO:R_HIST], i)
    rows[i, R_PLY] += 1
    return code


@specialise(inline="always")
def _restart(rows: IntArray, i: int, prm: IntArray, cfg: IntArray, starts: IntArray) -> None:
    """Row ``i`` starts a new game from a setup among ``starts`` chosen by its generator."""
    s = _random(rows, i, starts.shape[0]) if starts.shape[0] > 1 else 0
    for k in range(cfg[C_FIELDS]):
        rows[i, k] = starts[s, k]
    rows[i, R_PLY] = 0
    rows[i, R_SETUP] = s
    _enter(rows, i, prm, cfg)


@specialise(nogil=True)
def batch_reset(packed: tuple[Any, ...], lo: int, hi: int) -> None:
    """New games in rows ``lo`` to ``hi`` of the :class:`Games` ``packed`` (:meth:`Games.packed`)
    (their masks clear, their generators seeded), and a random next action of each into
    ``draws``."""
    games = Games(*packed)
    rows, prm, cfg, starts, mask, obs = (
        bare(games.rows),
        bare(games.prm),
        bare(games.cfg),
        bare(games.starts),
        bare(games.mask),
        bare(games.obs),
    )
    draws = bare(games.draws)
    for i in range(lo, hi):
        rows[i, R_COUNT] = 0
        _restart(rows, i, prm, cfg, starts)
        _offer(rows, i, prm, cfg, mask, MASK)
        _observe(rows, i, prm, cfg, obs)
        draws[i] = _draw(rows, i, cfg)


@specialise(nogil=True)
def batch_step(packed: tuple[Any, ...], actions: IntArray, lo: int, hi: int) -> int:
    """Take each row's action (``lo`` to ``hi``) of the :class:`Games` ``packed``
    (:meth:`Games.packed`) if every one is legal, as :func:`_step_rows`: -1; else the first row
    whose action is not legal (nothing changed)."""
    games = Games(*packed)
    bad = _first_illegal(bare(games.mask), bare(actions), lo, hi)
    if bad < 0:
        _step_rows(games, actions, lo, hi)
    return bad


@specialise(nogil=True)
def _step_rows(games: Games, actions: IntArray, lo: int, hi: int) -> None:
    """Take each row's legal action (``lo`` to ``hi``); a game that ends scores its rewards
    (by colour: +1 win, -1 loss, 0 draw or truncated) and starts again at once.  A random next
    action of each row goes into ``draws`` (which may be ``actions`` itself: a row's action
    is read before its draw is written)."""
    rows, prm, cfg, starts, actions = (
        bare(games.rows),
        bare(games.prm),
        bare(games.cfg),
        bare(games.starts),
        bare(actions),
    )
    mask, obs, rewards = bare(games.mask), bare(games.obs), bare(games.rewards)
    terminated, truncated, draws = (
        bare(games.terminated),
        bare(games.truncated),
        bare(games.draws),
    )
    acts = cfg[C_ACTS]
    for i in range(lo, hi):
        if i + AHEAD < hi:  # the lines a later row's step reads and writes, while this one runs
            k = i + AHEAD
            prefetch(rows, (k, 0))
            prefetch(rows, (k, R_N))
            prefetch(rows, (k, acts))
            prefetch(rows, (k, acts + 8))
        _clear(rows, i, cfg, mask)
        terminated[i] = False
        truncated[i] = False
        rewards[i, 0] = 0.0
        rewards[i, 1] = 0.0
        if _act(rows, i, prm, cfg, actions[i], True) == -1:
            _offer(rows, i, prm, cfg, mask, MASK)
            draws[i] = _draw(rows, i, cfg)
            continue
        result = _enter(rows, i, prm, cfg)
        if result != ONGOING:
            turn = rows[i, TURN]
            if result != DRAW and result != TRUNCATED:
                winner = turn if result == WIN else 1 - turn
                rewards[i, winner] = 1.0
                rewards[i, 1 - winner] = -1.0
            if result == TRUNCATED:
                truncated[i] = True
            else:
                terminated[i] = True
            _restart(rows, i, prm, cfg, starts)
        _offer(rows, i, prm, cfg, mask, MASK)
        _observe(rows, i, prm, cfg, obs)
        draws[i] = _draw(rows, i, cfg)


@specialise(nogil=True, parallel=True)
def batch_reset_split(packed: tuple[Any, ...], bounds: IntArray) -> None:
    """:func:`batch_reset` on numba's threads, one share of rows ``bounds[k]`` to
    ``bounds[k + 1]`` a thread."""
    for k in prange(bounds.size - 1):
        batch_reset(packed, bounds[k], bounds[k + 1])


@specialise(nogil=True, parallel=True)
def batch_step_split(packed: tuple[Any, ...], actions: IntArray, bounds: IntArray) -> int:
    """:func:`batch_step` on numba's threads, one share of rows ``bounds[k]`` to
    ``bounds[k + 1]`` a thread (each share checked by the thread that steps it, whose cache
    holds its rows' masks)."""
    games = Games(*packed)
    shares = bounds.size - 1
    found = np.empty(shares, dtype=np.int64)
    for k in prange(shares):
        found[k] = _first_illegal(bare(games.mask), bare(actions), bounds[k], bounds[k + 1])
    for k in range(shares):
        if found[k] >= 0:
            return int(found[k])
    for k in prange(shares):
        _step_rows(games, actions, bounds[k], bounds[k + 1])
    return -1


def _as_pointer(typingctx: Any, address: Any) -> Any:
    """The integer ``address`` as a pointer to ``int64`` values (a numba intrinsic)."""

    def codegen(context: Any, builder: Any, signature: Any, args: Any) -> Any:
        return builder.inttoptr(args[0], context.get_value_type(signature.return_type))

    pointer = types.CPointer(types.int64)  # type: ignore[no-untyped-call]
    return pointer(types.int64), codegen


_pointer: Any = intrinsic(_as_pointer)


@njit(cache=True, inline="always")
def _cursor(row: int, fixed: int) -> tuple[IntArray, IntArray, IntArray]:
    """A cursor's ``rows`` (its one row), ``cfg`` and ``prm``, from the addresses of its row
    and of its :attr:`Layout.fixed` (an address, unlike an array, costs the caller nothing to
    pass)."""
    head = carray(_pointer(fixed), CFG_SIZE)
    both = carray(_pointer(fixed), head[C_FIXED])
    return carray(_pointer(row), (1, head[C_WIDTH])), both[:CFG_SIZE], both[CFG_SIZE:]


@specialise()
def cursor_start(row: int, fixed: int) -> tuple[int, int, int, int]:
    """The position of the row at address ``row`` (its kernel slots and ply set) as the start
    of a game, its next actions sorted; answered as by :func:`cursor_apply`, the code -1."""
    rows, cfg, prm = _cursor(row, fixed)
    _enter(rows, 0, prm, cfg)
    _offer(rows, 0, prm, cfg, _NO_MASK, SORT)
    return -1, rows[0, R_RESULT], rows[0, TURN], rows[0, R_COUNT]


@specialise()
def cursor_apply(row: int, fixed: int, action: int) -> tuple[int, int, int, int]:
    """Take ``action`` in the row at address ``row``, its next actions sorted (``fixed``: the
    address of :attr:`Layout.fixed`): as :func:`_act` (-2: not legal, nothing changed; -1: the
    move goes on; else the code of the move played), then the result, the side to act and the
    number of next actions (``R_COUNT``, none once the game is over)."""
    rows, cfg, prm = _cursor(row, fixed)
    code = _act(rows, 0, prm, cfg, action, False)
    if code == -2:
        return code, rows[0, R_RESULT], rows[0, TURN], rows[0, R_COUNT]
    if code >= 0:
        _enter(rows, 0, prm, cfg)
    _offer(rows, 0, prm, cfg, _NO_MASK, SORT)
    return code, rows[0, R_RESULT], rows[0, TURN], rows[0, R_COUNT]


@njit(cache=True)
def cursor_copy(rows: IntArray, cfg: IntArray, out: IntArray) -> int:
    """Row 0's game into row 0 of ``out`` (of the same width): every slot up to the next
    actions, the next actions and the legal moves left (the slots after them, written before
    they are read, are not copied); the address of ``out``."""
    acts, first = cfg[C_ACTS], cfg[C_MOVES]
    out[0, : acts + rows[0, R_COUNT]] = rows[0, : acts + rows[0, R_COUNT]]
    out[0, first : first + rows[0, R_N]] = rows[0, first : first + rows[0, R_N]]
    return out.ctypes.data


@specialise()
def cursor_observe(row: int, fixed: int, obs: FloatArray) -> None:
    """The observation of the row at address ``row`` into ``obs[0]``."""
    rows, cfg, prm = _cursor(row, fixed)
    _observe(rows, 0, prm, cfg, obs)


@dataclass(frozen=True)
class Layout:
    """A rule set's games as rows: the kernel's ``prm``, the ``cfg`` array of the driver, the
    row width, the observation's shape (the kernel's planes plus one, by points), the number of
    actions, and the driver compiled for the kernel (``code``)."""

    game: Game
    prm: IntArray
    cfg: IntArray
    width: int
    planes: int
    points: int
    actions: int
    code: SimpleNamespace

    @property
    def kernel(self) -> registry.Kernel:
        kernel = self.game.kernel
        assert kernel is not None
        return kernel

    @property
    def fixed(self) -> IntArray:
        """``cfg`` then ``prm``, one array (a new one), for the cursor functions."""
        return np.concatenate([self.cfg, self.prm])

    def games(self, count: int) -> Games:
        """``count`` games' arrays, of zeros (no setups yet: ``starts`` has none)."""
        return Games(
            rows=np.zeros((count, self.width), dtype=np.int64),
            prm=self.prm,
            cfg=self.cfg,
            starts=np.zeros((1, 0), dtype=np.int64),
            mask=np.zeros((count, self.actions), dtype=np.bool_),
            obs=np.zeros((count, self.planes * self.points), dtype=np.float32),
            rewards=np.zeros((count, 2), dtype=np.float32),
            terminated=np.zeros(count, dtype=np.bool_),
            truncated=np.zeros(count, dtype=np.bool_),
            draws=np.zeros(count, dtype=np.int64),
        )

    @property
    def acts(self) -> int:
        """Where a row's next actions start (``R_COUNT`` of them)."""
        return int(self.cfg[C_ACTS])


def layout(game: Game, max_plies: int | None = None, *, masked: bool = False) -> Layout:
    """The layout of ``game``'s rows (games stopped at ``max_plies``, default the game's
    ``longest_game``); ``masked``: for :func:`batch_step` (next actions in a mask, never
    sorted), where a game whose every move is one action keeps its legal moves as its next
    actions, and a kernel that lists a position's first actions lists them there (no copy).
    ``ValueError`` for a game whose kernel is missing or declares no
    :func:`~.kernel.planes`."""
    kernel = game.kernel
    if kernel is None:
        raise ValueError(f"{game.title} has no compiled kernel")
    found = registry.functions(kernel.name)
    if "planes" not in found:
        raise ValueError(f"the kernel of {game.title} ({kernel.name}) declares no planes")
    probe = game.new(seed=0).planes()
    settings = game.rules.settings
    move_rule = int(settings.get("move_rule", 0))
    ring = 1 << move_rule.bit_length() if move_rule else 1024
    acts = R_HIST + ring
    moves = acts + MAX_MOVES
    cfg = np.zeros(CFG_SIZE, dtype=np.int64)
    cfg[C_HIST] = ring
    cfg[C_REPEAT] = int(settings.get("repetition", 0))
    cfg[C_MAXPLY] = game.longest_game if max_plies is None else max_plies
    cfg[C_SINGLE] = "action_path" not in found
    cfg[C_FIRST] = "next_actions" in found and not cfg[C_SINGLE]
    cfg[C_ACTS], cfg[C_MOVES], cfg[C_LIST] = acts, moves, moves
    if masked and cfg[C_SINGLE]:
        cfg[C_ACTS] = moves
    if masked and cfg[C_FIRST]:
        cfg[C_LIST] = acts
    cfg[C_FIELDS] = kernel.fields
    cfg[C_POINTS], cfg[C_PLANES] = len(probe[0]), len(probe)
    cfg[C_WIDTH], cfg[C_FIXED] = moves + MAX_MOVES, CFG_SIZE + len(kernel.prm)
    return Layout(
        game,
        kernel.prm,
        cfg,
        moves + MAX_MOVES,
        len(probe) + 1,
        len(probe[0]),
        game.num_distinct_actions,
        bind(__name__, kernel.name),
    )
