"""Felli's solver: the strong solution of the basic game by retrograde analysis (numpy).

Positions are seen from the side to move: each of the 13 points holds 0 (empty), 1 (a man of the
side to move) or 2 (an opponent man), and a position's index is ``sum(digit[p] * 3**p)``.  Felli's
basic rules are the same for both sides (men move and capture in every direction), so this one
table of 3**13 entries covers both sides to move.

The table holds, for every index, the value for the side to move (1 win, -1 loss, 0 draw) and
the number of plies to the end under best play (the winner wins fastest, the loser loses slowest).
A player without a legal move loses.  Play that never ends is a draw, which matches the threefold
repetition rule; the 100-ply move rule is not part of the table (see docs/ai.md).
"""

from __future__ import annotations

import time
from dataclasses import dataclass
from pathlib import Path
from typing import BinaryIO

import numpy as np
import numpy.typing as npt

from ...core import Color, InvalidRulesError, RuleSet, State
from ...files import read_or_build
from ...jobs import Pool
from ...solve import cache_dir, parents_of
from ...tables import Progress, Solver, Table
from .board import LINES, MULLAH
from .rules import Felli

__all__ = ["FelliSolver", "FelliTable", "index_of", "load_or_solve", "solve"]

N = 3**13
POW3 = np.array([3**p for p in range(13)], dtype=np.int64)
#: (from, over, to) for every leap along a line; steps are (from, to) with the same geometry
LEAPS = [(line[i], line[i + 1], line[i + 2]) for line in LINES for i in range(len(line) - 2)]
LEAPS += [(c, b, a) for a, b, c in LEAPS]
STEPS = [(line[i], line[i + 1]) for line in LINES for i in range(len(line) - 1)]
STEPS += [(b, a) for a, b in STEPS]

IntArray = npt.NDArray[np.int64]


@dataclass
class FelliTable(Table):
    """A solved basic-Felli rule set: value and plies-to-end for every position index."""

    rules: RuleSet
    value: npt.NDArray[np.int8]
    depth: npt.NDArray[np.int16]
    seconds: float = 0.0

    def lookup(self, state: State) -> tuple[int, int]:
        """``(value, plies)`` for the side to move of ``state``: 1 win, -1 loss, 0 draw."""
        i = index_of(state)
        return int(self.value[i]), int(self.depth[i])

    def counts(self) -> dict[str, int]:
        """Win, loss and draw counts over the positions with at most six men a side."""
        ones = _digit_count(1)
        twos = _digit_count(2)
        real = (ones <= 6) & (twos <= 6)
        v = self.value[real]
        return {
            "positions": int(real.sum()),
            "win": int((v == 1).sum()),
            "loss": int((v == -1).sum()),
            "draw": int((v == 0).sum()),
        }

    def summary(self) -> list[str]:
        """The start's value (and plies), and the win/loss/draw counts."""
        state = Felli.of(self.rules).new()
        value, plies = self.lookup(state)
        who = "South" if state.turn is Color.WHITE else "North"
        lines = [f"value: {({1: 'win', -1: 'loss', 0: 'draw'})[value]} (for {who}, to move)"]
        if value:
            lines.append(f"plies: {plies}")
        counts = self.counts()
        lines.append(
            f"positions: {counts['positions']} (at most six men a side, side to move "
            f"normalised): win {counts['win']}, loss {counts['loss']}, "
            f"draw {counts['draw']}"
        )
        return lines


class FelliSolver(Solver):
    """Solves a basic Felli rule set (the draw settings do not change the table)."""

    def __init__(self, rules: RuleSet) -> None:
        _check_rules(rules)
        self.rules = rules
        self.key = "felli-" + "-".join(
            f"{k}={str(bool(rules[k])).lower()}" for k in ("forced_capture", "multi_capture")
        )

    def path(self) -> Path:
        return _cache_path(_table_rules(self.rules))

    def load(
        self, progress: Progress | None = None, pool: Pool | None = None
    ) -> tuple[FelliTable, bool]:
        """The table, solved in this process whatever the ``pool`` (a matter of seconds)."""
        return load_or_solve(self.rules, progress)


def _check_rules(rules: RuleSet) -> None:
    if rules["mullah"]:
        raise InvalidRulesError(
            f"{rules}: this table covers the basic game (without Mullahs); the Mullah rule "
            "sets have their own (mullah_table)"
        )


def index_of(state: State) -> int:
    """The table index of a basic-Felli state, seen from its side to move."""
    board: list[int] = state.board  # type: ignore[attr-defined]
    side = state.turn + 1
    index = 0
    for p in range(12, -1, -1):
        v = board[p]
        if v & MULLAH:
            raise InvalidRulesError("positions with Mullahs are not in the basic-game table")
        index = index * 3 + (0 if not v else 1 if v == side else 2)
    return index


def _digit_count(d: int) -> IntArray:
    idx = np.arange(N, dtype=np.int64)
    total = np.zeros(N, dtype=np.int64)
    for p in range(13):
        total += (idx // POW3[p]) % 3 == d
    return total


def _edges(rules: RuleSet, progress: Progress) -> tuple[IntArray, IntArray]:
    """Every move of every position as (parent index, child index seen from the child's mover)."""
    idx = np.arange(N, dtype=np.int64)
    digits = np.empty((13, N), dtype=np.int8)
    for p in range(13):
        digits[p] = (idx // POW3[p]) % 3
    ones = np.zeros(N, dtype=np.int64)
    twos = np.zeros(N, dtype=np.int64)
    for p in range(13):
        ones += (digits[p] == 1) * POW3[p]
        twos += (digits[p] == 2) * POW3[p]
    swapped = 2 * ones + twos  # the same board seen by the other side

    parents: list[IntArray] = []
    boards: list[IntArray] = []
    # captures: a frontier of (parent, board, location of the capturing man)
    f_parent = []
    f_board = []
    f_loc = []
    for a, over, b in LEAPS:
        sel = np.flatnonzero((digits[a] == 1) & (digits[over] == 2) & (digits[b] == 0))
        f_parent.append(sel)
        f_board.append(sel - POW3[a] + POW3[b] - 2 * POW3[over])
        f_loc.append(np.full(sel.size, b, dtype=np.int8))
    parent = np.concatenate(f_parent)
    board = np.concatenate(f_board)
    loc = np.concatenate(f_loc)
    has_capture = np.zeros(N, dtype=bool)
    has_capture[parent] = True
    while parent.size:
        if not rules["multi_capture"]:
            parents.append(parent)
            boards.append(board)
            break
        extended = np.zeros(parent.size, dtype=bool)
        n_parent, n_board, n_loc = [], [], []
        for a, over, b in LEAPS:
            sel = np.flatnonzero(
                (loc == a) & ((board // POW3[over]) % 3 == 2) & ((board // POW3[b]) % 3 == 0)
            )
            if not sel.size:
                continue
            extended[sel] = True
            n_parent.append(parent[sel])
            n_board.append(board[sel] - POW3[a] + POW3[b] - 2 * POW3[over])
            n_loc.append(np.full(sel.size, b, dtype=np.int8))
        parents.append(parent[~extended])
        boards.append(board[~extended])
        if not n_parent:
            break
        parent = np.concatenate(n_parent)
        board = np.concatenate(n_board)
        loc = np.concatenate(n_loc)
    for a, b in STEPS:
        cond = (digits[a] == 1) & (digits[b] == 0)
        if rules["forced_capture"]:
            cond &= ~has_capture
        sel = np.flatnonzero(cond)
        parents.append(sel)
        boards.append(sel - POW3[a] + POW3[b])
    parent = np.concatenate(parents)
    child = swapped[np.concatenate(boards)]
    progress(f"{parent.size:,} moves generated")
    return parent, child


def solve(rules: str | RuleSet | None = None, progress: Progress | None = None) -> FelliTable:
    """Solve a basic Felli rule set (any combination of forced and multi capture)."""
    ruleset = Felli.parse_rules(rules)
    _check_rules(ruleset)
    say = progress or (lambda _: None)
    started = time.perf_counter()
    parent, child = _edges(ruleset, say)
    outdeg = np.bincount(parent, minlength=N)
    order = np.argsort(child, kind="stable")
    by_child = parent[order].astype(np.int32)
    offsets = np.zeros(N + 1, dtype=np.int64)
    np.cumsum(np.bincount(child, minlength=N), out=offsets[1:])
    del parent, child, order

    value = np.zeros(N, dtype=np.int8)
    depth = np.zeros(N, dtype=np.int16)
    counter = outdeg.astype(np.int32)
    frontier = np.flatnonzero(outdeg == 0)
    value[frontier] = -1
    level = 0
    while frontier.size:
        level += 1
        preds = parents_of(by_child, offsets, frontier)
        preds = preds[value[preds] == 0]
        if level % 2:  # the frontier lost: each parent wins
            frontier = np.unique(preds)
            value[frontier] = 1
        else:  # the frontier won: a parent whose every move lets the opponent win loses
            counter -= np.bincount(preds, minlength=N).astype(np.int32)
            candidates = np.unique(preds)
            frontier = candidates[counter[candidates] == 0]
            value[frontier] = -1
        depth[frontier] = level
        if frontier.size:
            say(f"ply {level}: {frontier.size:,} positions {'won' if level % 2 else 'lost'}")
    return FelliTable(ruleset, value, depth, time.perf_counter() - started)


def _table_rules(rules: RuleSet) -> RuleSet:
    """The rule set a table is cached under: the draw settings do not change it, only the
    capture settings."""
    return Felli.parse_rules(
        "felli:"
        + ",".join(
            f"{k}={str(bool(rules[k])).lower()}" for k in ("forced_capture", "multi_capture")
        )
    )


def _cache_path(rules: RuleSet) -> Path:
    return cache_dir() / f"{str(rules).replace(':', '_').replace(',', '+')}-v1.npz"


def load_or_solve(
    rules: str | RuleSet | None = None, progress: Progress | None = None
) -> tuple[FelliTable, bool]:
    """The table for a rule set from the cache, or solved now and cached (one process at a
    time: :func:`~ludoteca.files.read_or_build`); and whether cached."""
    ruleset = Felli.parse_rules(rules)
    _check_rules(ruleset)

    def read(path: Path) -> FelliTable:
        with np.load(path) as data:
            return FelliTable(ruleset, data["value"], data["depth"])

    def save(out: BinaryIO, table: FelliTable) -> None:
        np.savez_compressed(out, value=table.value, depth=table.depth)

    return read_or_build(
        _cache_path(_table_rules(ruleset)), read, lambda: solve(ruleset, progress), save
    )
