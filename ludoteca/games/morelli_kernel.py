"""Random Morelli games in compiled code, move for move like :mod:`ludoteca.games.morelli`."""

from __future__ import annotations

import numpy as np
import numpy.typing as npt
from numba import njit

from .morelli import Morelli, MorelliState, geometry

__all__ = ["Tables", "play_random", "random_games"]

Int = npt.NDArray[np.int64]


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
        self.flanks = np.full((squares, 8, 2), -1, dtype=np.int64)
        for s in range(squares):
            for k, pair in enumerate(geo.flanks[s]):
                self.flanks[s, k] = pair
        self.frame = np.full((squares, 4), -1, dtype=np.int64)
        for s in range(squares):
            if geo.frame[s]:
                self.frame[s] = geo.frame[s]
        self.throne = geo.throne

    def args(self) -> tuple[Int, Int, Int, Int, Int, Int, int]:
        return (self.band, self.ray_start, self.ray_len, self.ray, self.flanks, self.frame,
                self.throne)


@njit(cache=True)
def _generate(board: Int, mover: int, king: int, band: Int, ray_start: Int, ray_len: Int,
              ray: Int, throne: int, out: Int) -> int:
    squares = board.size
    n = 0
    for s in range(squares):
        if board[s] != mover:
            continue
        d = band[s]
        if d <= 1:
            continue
        for k in range(8):
            start = ray_start[s, k]
            for i in range(ray_len[s, k]):
                t = ray[start + i]
                if board[t] != 0:
                    break
                if t == throne:
                    if king != 0:
                        break
                    continue
                if band[t] < d:
                    out[n] = s * squares + t
                    n += 1
    return n


@njit(cache=True)
def _framed(board: Int, frame: Int, s: int, mover: int) -> bool:
    """Whether the frame through square s (if any) holds only the mover's stones."""
    if frame[s, 0] < 0:
        return False
    for k in range(4):
        if board[frame[s, k]] != mover:
            return False
    return True


@njit(cache=True)
def _play(board: Int, turn: int, king: int, seed: int, band: Int, ray_start: Int,
          ray_len: Int, ray: Int, flanks: Int, frame: Int, throne: int, codes: Int,
          counts: Int) -> tuple[int, int]:
    """Play randomly to the end from (board, turn 1|2, king); return (plies, final king)."""
    np.random.seed(seed)
    squares = board.size
    buf = np.empty(squares * 40, dtype=np.int64)
    ply = 0
    mover = turn
    while True:
        n = _generate(board, mover, king, band, ray_start, ray_len, ray, throne, buf)
        if n == 0:
            break
        code = buf[np.random.randint(0, n)]
        if ply < codes.size:
            codes[ply] = code
            counts[ply] = n
        src = code // squares
        dst = code % squares
        enemy = 3 - mover
        board[src] = 0
        board[dst] = mover
        crowned = king == mover
        for k in range(8):
            a = flanks[dst, k, 0]
            if a < 0:
                continue
            b = flanks[dst, k, 1]
            if board[a] == enemy and board[b] == mover:
                board[a] = mover
                crowned = crowned or _framed(board, frame, a, mover)
        crowned = crowned or _framed(board, frame, dst, mover)
        if crowned:
            king = mover
        mover = 3 - mover
        ply += 1
    return ply, king


def play_random(state: MorelliState, seed: int) -> tuple[list[int], list[int], int]:
    """Play a random game from ``state`` (left unchanged): move codes, legal-move counts before
    each move, and the final King (0, 1 Black, 2 White)."""
    tables = _tables(state.n)
    board = np.array(state.board, dtype=np.int64)
    codes = np.zeros(200, dtype=np.int64)
    counts = np.zeros(200, dtype=np.int64)
    plies, king = _play(board, 1 if state.turn.name == "BLACK" else 2, state.king, seed,
                        *tables.args(), codes, counts)
    return codes[:plies].tolist(), counts[:plies].tolist(), king


def random_games(games: int, seed: int, rules: str = "morelli") -> int:
    """Play ``games`` random games from random setups; return the total number of moves."""
    empty = np.zeros(0, dtype=np.int64)
    total = 0
    for g in range(games):
        state = Morelli.new(rules, seed=seed + g)
        tables = _tables(state.n)
        board = np.array(state.board, dtype=np.int64)
        plies, _ = _play(board, 1, 0, seed + g, *tables.args(), empty, empty)
        total += plies
    return total


_TABLES: dict[int, Tables] = {}


def _tables(n: int) -> Tables:
    if n not in _TABLES:
        _TABLES[n] = Tables(n)
    return _TABLES[n]
