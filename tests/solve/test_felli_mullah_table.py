"""Felli with Mullahs solved (small slices of the table) against a plain retrograde over the
readable engine's moves, the Bellman equations, and the flip that exchanges the sides; its dense
index against the positions counted by brute force."""

from __future__ import annotations

import itertools
import random
from functools import cache

import numpy as np
import pytest

from checks.retro_reference import bellman, solve_graph
from ludoteca.ai.perfect import PerfectAgent
from ludoteca.compiled.kernel import STATE_SIZE
from ludoteca.core import Color
from ludoteca.games.felli.board import FLIP, MIRROR, PROMOTION
from ludoteca.games.felli.kernel import B
from ludoteca.games.felli.mullah_table import (
    MullahSolver,
    MullahTable,
    _data,
    _decode,
    _encode,
    layout,
    solve,
)
from ludoteca.games.felli.rules import Felli, FelliState

RULES = Felli.parse_rules("felli-mullah:repetition=0,move_rule=0")
Node = tuple[tuple[int, ...], int]


@pytest.fixture(scope="module")
def two() -> MullahTable:
    return solve(RULES, None, 2)


@cache
def positions(most: int) -> list[Node]:
    """Every board with at most ``most`` pieces a side and no man on its promotion corner,
    either side to move."""
    out = []
    pieces = (1, 5, 2, 6)
    for k in range(2 * most + 1):
        for points in itertools.combinations(range(13), k):
            for kinds in itertools.product(pieces, repeat=k):
                if sum(v & 3 == 1 for v in kinds) > most or sum(v & 3 == 2 for v in kinds) > most:
                    continue
                board = [0] * 13
                for p, v in zip(points, kinds, strict=True):
                    board[p] = v
                if any(board[c] == side for side in (1, 2) for c in PROMOTION[side]):
                    continue
                for turn in (0, 1):
                    out.append((tuple(board), turn))
    return out


def canonical(board: tuple[int, ...]) -> tuple[int, ...]:
    """The representative of a board and its mirror image (left to right): the smaller."""
    mirrored = [0] * 13
    for p, v in enumerate(board):
        mirrored[MIRROR[p]] = v
    return min(board, tuple(mirrored))


def random_position(rng: random.Random, most: int) -> Node:
    """A board with up to ``most`` pieces a side (the count of each side drawn first, then the
    points and kinds) and no man on its promotion corner, a side to move."""
    while True:
        sides = [1] * rng.randint(0, most) + [2] * rng.randint(0, most)
        board = [0] * 13
        for point, side in zip(rng.sample(range(13), len(sides)), sides, strict=True):
            board[point] = side | rng.choice((0, 4))  # a man or a Mullah
        if not any(board[c] == side for side in (1, 2) for c in PROMOTION[side]):
            return tuple(board), rng.randrange(2)


def state_of(node: Node) -> FelliState:
    return FelliState(Felli.of(RULES), node[0], Color(node[1]))


def children(node: Node) -> list[Node]:
    state = state_of(node)
    out = []
    for code in state.legal_codes():
        state.push_code(code)
        out.append((tuple(state.board), int(state.turn)))
        state.pop_code()
    return out


def test_every_small_position_matches_a_plain_retrograde(two: MullahTable) -> None:
    nodes = positions(2)
    reference = solve_graph(nodes, children)
    seen = {1: 0, -1: 0, 0: 0}
    for node in nodes:
        assert two.lookup(state_of(node)) == reference[node], node
        seen[reference[node][0]] += 1
    assert all(seen.values()), seen
    assert max(p for _, p in reference.values()) >= 5  # not only immediate ends


def test_flipping_the_board_and_the_sides_keeps_the_value(two: MullahTable) -> None:
    rng = random.Random(3)
    nodes = positions(2)
    for node in rng.sample(nodes, 300):
        board, turn = node
        flipped = [0] * 13
        for p, v in enumerate(board):
            flipped[FLIP[p]] = 0 if v == 0 else (3 - (v & 3)) | (v & 4)
        assert two.lookup(state_of(node)) == two.lookup(state_of((tuple(flipped), 1 - turn)))


def test_bellman_equations_hold_with_three_pieces_a_side() -> None:
    table = MullahSolver(RULES, 3).load()[0]  # the draw settings share the table
    rng = random.Random(7)
    seen = {1: 0, -1: 0, 0: 0}
    for node in (random_position(rng, 3) for _ in range(3000)):
        value, plies = table.lookup(state_of(node))
        kids = [table.lookup(state_of(c)) for c in children(node)]
        assert (value, plies) == bellman(kids)
        seen[value] += 1
    assert all(seen.values()), seen


def test_perfect_player_keeps_the_best_value(two: MullahTable) -> None:
    rng = random.Random(9)
    agent = PerfectAgent(RULES, 1, two)
    for node in rng.sample(positions(2), 200):
        state = state_of(node)
        if not state.legal_codes():
            continue
        value, plies = two.lookup(state)
        child = state.child(agent.choose(state))
        after = (
            (-1, 0)
            if child.outcome() is not None and child.outcome().winner is not None
            else two.lookup(child)
        )
        if value == 1:
            assert after == (-1, plies - 1)
        elif value == 0:
            assert after[0] == 0
        else:
            assert after == (1, plies - 1)


def boards(cls: tuple[int, int, int, int]) -> set[tuple[int, ...]]:
    """Every board (South to move) of the material ``cls`` (men, Mullahs, opponent men,
    opponent Mullahs) with no man on its promotion corner, by brute force: each set of points,
    each order of the pieces on them."""
    kinds = [v for v, k in zip((1, 5, 2, 6), cls, strict=True) for _ in range(k)]
    out = set()
    for points in itertools.combinations(range(13), len(kinds)):
        for order in set(itertools.permutations(kinds)):
            board = [0] * 13
            for point, v in zip(points, order, strict=True):
                board[point] = v
            if not any(board[c] == side for side in (1, 2) for c in PROMOTION[side]):
                out.add(tuple(board))
    return out


def label_class(label: str) -> tuple[int, int, int, int]:
    """The material of a pair's label (``"2+1M v 1+0M"``)."""
    a, b, c, d = (int(k) for k in label.replace("M", "").replace(" v ", "+").split("+"))
    return a, b, c, d


@pytest.mark.parametrize(
    ("most", "wanted"),
    [(2, None), (6, [(3, 0, 3, 0), (1, 2, 2, 1), (2, 1, 1, 1), (0, 4, 0, 0), (2, 2, 0, 2)])],
)
def test_the_index_is_a_bijection_onto_the_canonical_positions(
    most: int, wanted: list[tuple[int, int, int, int]] | None
) -> None:
    # every index of the pairs of classes (all of them, or those of the classes wanted)
    # decodes to a position that encodes back to it, and the positions decoded are the mirror
    # pairs of the classes' positions enumerated by brute force, each once
    data = _data(RULES, most)
    _, _, _, pairs, size, _ = layout(most)
    chosen = []
    for lo, hi, label in pairs:
        a, b, c, d = label_class(label)
        if wanted is None or {(a, b, c, d), (c, d, a, b)} & set(wanted):
            chosen.append((lo, hi, {(a, b, c, d), (c, d, a, b)}))
    assert len(chosen) == len(wanted or pairs)
    if wanted is None:
        assert chosen[0][0] == 1 and chosen[-1][1] == size  # the pairs cover the whole index
    st = np.zeros(STATE_SIZE, dtype=np.int64)
    decoded: set[tuple[int, ...]] = set()
    expected: set[tuple[int, ...]] = set()
    for lo, hi, classes in chosen:
        for g in range(lo, hi):
            assert _decode(g, st, data)
            assert _encode(st, data) == g
            decoded.add(canonical(tuple(int(v) for v in st[B : B + 13])))
        for cls in classes:
            expected |= {canonical(board) for board in boards(cls)}
    assert len(decoded) == sum(hi - lo for lo, hi, _ in chosen)
    assert decoded == expected
