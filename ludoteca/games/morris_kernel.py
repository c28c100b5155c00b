"""Random games of any Morris rule set in compiled code (numba), move for move like
:mod:`ludoteca.games.morris`.

The board comes in as arrays built from the rule set's :class:`~.morris.MorrisBoard` (each
point's neighbours, the mill masks, the mills through each point), so every board of the family
runs in the same kernel.  The kernel plays without the draw rules and stops a game at ``cap``
plies; with ``morris:repetition=0,move_rule=0`` it is OpenSpiel's Nine Men's Morris, which the
benchmark uses.
"""

from __future__ import annotations

import numpy as np
import numpy.typing as npt
from numba import njit

from ..core import RuleSet
from .morris import VARIANTS, Morris

__all__ = ["RULES", "play_random", "random_games"]

RULES = "morris:repetition=0,move_rule=0"
IntArray = npt.NDArray[np.int64]


def _tables(rules: RuleSet) -> tuple[IntArray, IntArray, IntArray, IntArray]:
    """The kernel's view of a rule set: neighbours, mill masks, mills at each point (padded
    with 0 masks, never a mill) and the switches ``[size, men, flying, lasker, first]``."""
    variant = VARIANTS[rules.name]
    board = variant.board
    width = max(len(m) for m in board.mills_at)
    at = np.zeros((board.size, width), dtype=np.int64)
    for p, masks in enumerate(board.mills_at):
        at[p, :len(masks)] = masks
    switches = np.array([board.size, variant.men, bool(rules["flying"]), variant.lasker,
                         int(variant.first)], dtype=np.int64)
    return (np.array(board.adjacent, dtype=np.int64), np.array(board.mill_masks, dtype=np.int64),
            at, switches)


@njit(cache=True)
def _popcount(x: int) -> int:
    n = 0
    while x:
        x &= x - 1
        n += 1
    return n


@njit(cache=True)
def _generate(own: int, opp: int, hand: int, adj: IntArray, masks: IntArray, at: IntArray,
              switches: IntArray, out: IntArray) -> int:
    size = switches[0]
    full = (1 << size) - 1
    empty = full & ~(own | opp)
    n = 0
    removable_ready = False
    removable = 0
    flying = switches[2] and hand == 0 and _popcount(own) == 3
    moving = hand == 0 or switches[3]
    for src in range(size + 1):
        if src == size:
            if not hand:
                continue
            targets = empty
        else:
            if not moving or not (own >> src) & 1:
                continue
            targets = empty if flying else adj[src] & empty
        for dst in range(size):
            if not (targets >> dst) & 1:
                continue
            after = own | (1 << dst)
            if src != size:
                after ^= 1 << src
            base = (src * size + dst) * (size + 1)
            mill = False
            for k in range(at.shape[1]):
                m = at[dst, k]
                if m and after & m == m:
                    mill = True
            if mill:
                if not removable_ready:
                    in_mill = 0
                    for m in masks:
                        if opp & m == m:
                            in_mill |= m
                    removable = opp & ~in_mill
                    if removable == 0:
                        removable = opp
                    removable_ready = True
                if removable == 0:
                    out[n] = base + size
                    n += 1
                for r in range(size):
                    if (removable >> r) & 1:
                        out[n] = base + r
                        n += 1
            else:
                out[n] = base + size
                n += 1
    return n


@njit(cache=True)
def _play(seed: int, cap: int, adj: IntArray, masks: IntArray, at: IntArray,
          switches: IntArray, codes: IntArray, counts: IntArray) -> int:
    np.random.seed(seed)
    size = switches[0]
    men = np.zeros(2, dtype=np.int64)
    hand = np.array([switches[1], switches[1]], dtype=np.int64)
    buf = np.empty((size + 1) * size * (size + 1), dtype=np.int64)
    turn = switches[4]
    ply = 0
    while ply < cap:
        own = men[turn]
        if _popcount(own) + hand[turn] < 3:
            break
        n = _generate(own, men[1 - turn], hand[turn], adj, masks, at, switches, buf)
        if n == 0:
            break
        code = buf[np.random.randint(0, n)]
        if ply < codes.size:
            codes[ply] = code
            counts[ply] = n
        rest = code // (size + 1)
        rem = code % (size + 1)
        src = rest // size
        dst = rest % size
        if src == size:
            men[turn] |= 1 << dst
            hand[turn] -= 1
        else:
            men[turn] ^= (1 << src) | (1 << dst)
        if rem != size:
            men[1 - turn] ^= 1 << rem
        turn = 1 - turn
        ply += 1
    return ply


def play_random(seed: int, cap: int = 200, rules: str = RULES) -> tuple[list[int], list[int]]:
    """One random game: the move codes played and the number of legal moves before each."""
    codes = np.zeros(cap, dtype=np.int64)
    counts = np.zeros(cap, dtype=np.int64)
    plies = _play(seed, cap, *_tables(Morris.rules(rules)), codes, counts)
    return codes[:plies].tolist(), counts[:plies].tolist()


def random_games(games: int, seed: int, cap: int = 200, rules: str = RULES) -> int:
    """Play ``games`` random games; return the total number of plies."""
    tables = _tables(Morris.rules(rules))
    codes = np.zeros(0, dtype=np.int64)
    total = 0
    for g in range(games):
        total += _play(seed + g, cap, *tables, codes, codes)
    return total
