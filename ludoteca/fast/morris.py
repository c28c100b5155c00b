"""Random Nine Men's Morris games in compiled code, move for move like :mod:`ludoteca.games.morris`.

The kernel plays with flying and without the draw rules (``morris:repetition=0,move_rule=0``)
and stops a game at ``cap`` plies; this is OpenSpiel's rule set, used by the benchmark.
"""

from __future__ import annotations

import numpy as np
import numpy.typing as npt
from numba import njit

from ..games.morris import ADJACENT, MILL_MASKS, MILLS_AT

__all__ = ["RULES", "play_random", "random_games"]

RULES = "morris:repetition=0,move_rule=0"
_ADJ = np.array(ADJACENT, dtype=np.int64)
_MASKS = np.array(MILL_MASKS, dtype=np.int64)
_AT = np.array(MILLS_AT, dtype=np.int64)


@njit(cache=True)
def _popcount(x: int) -> int:
    n = 0
    while x:
        x &= x - 1
        n += 1
    return n


@njit(cache=True)
def _generate(own: int, opp: int, hand: int, adj: npt.NDArray[np.int64],
              masks: npt.NDArray[np.int64], at: npt.NDArray[np.int64],
              out: npt.NDArray[np.int64]) -> int:
    full = (1 << 24) - 1
    empty = full & ~(own | opp)
    n = 0
    removable_ready = False
    removable = 0
    flying = hand == 0 and _popcount(own) == 3
    for src in range(25):
        if hand:
            if src != 24:
                continue
            targets = empty
        else:
            if src == 24 or not (own >> src) & 1:
                continue
            targets = empty if flying else adj[src] & empty
        for dst in range(24):
            if not (targets >> dst) & 1:
                continue
            after = own | (1 << dst)
            if src != 24:
                after ^= 1 << src
            base = (src * 24 + dst) * 25
            mill = False
            for k in range(2):
                m = at[dst, k]
                if after & m == m:
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
                    out[n] = base + 24
                    n += 1
                for r in range(24):
                    if (removable >> r) & 1:
                        out[n] = base + r
                        n += 1
            else:
                out[n] = base + 24
                n += 1
    return n


@njit(cache=True)
def _play(seed: int, cap: int, adj: npt.NDArray[np.int64], masks: npt.NDArray[np.int64],
          at: npt.NDArray[np.int64], codes: npt.NDArray[np.int64],
          counts: npt.NDArray[np.int64]) -> int:
    np.random.seed(seed)
    men = np.zeros(2, dtype=np.int64)
    hand = np.array([9, 9], dtype=np.int64)
    buf = np.empty(15000, dtype=np.int64)
    turn = 0
    ply = 0
    while ply < cap:
        own = men[turn]
        if _popcount(own) + hand[turn] < 3:
            break
        n = _generate(own, men[1 - turn], hand[turn], adj, masks, at, buf)
        if n == 0:
            break
        code = buf[np.random.randint(0, n)]
        if ply < codes.size:
            codes[ply] = code
            counts[ply] = n
        rest = code // 25
        rem = code % 25
        src = rest // 24
        dst = rest % 24
        if src == 24:
            men[turn] |= 1 << dst
            hand[turn] -= 1
        else:
            men[turn] ^= (1 << src) | (1 << dst)
        if rem != 24:
            men[1 - turn] ^= 1 << rem
        turn = 1 - turn
        ply += 1
    return ply


def play_random(seed: int, cap: int = 200) -> tuple[list[int], list[int]]:
    """One random game: the move codes played and the number of legal moves before each."""
    codes = np.zeros(cap, dtype=np.int64)
    counts = np.zeros(cap, dtype=np.int64)
    plies = _play(seed, cap, _ADJ, _MASKS, _AT, codes, counts)
    return codes[:plies].tolist(), counts[:plies].tolist()


def random_games(games: int, seed: int, cap: int = 200) -> int:
    """Play ``games`` random games; return the total number of plies."""
    codes = np.zeros(0, dtype=np.int64)
    total = 0
    for g in range(games):
        total += _play(seed + g, cap, _ADJ, _MASKS, _AT, codes, codes)
    return total
