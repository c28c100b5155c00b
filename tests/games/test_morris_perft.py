"""Perft counts for Nine Men's Morris, derived by hand and checked against the engine."""

from __future__ import annotations

from itertools import combinations
from math import perm

import ludoteca
from ludoteca.cli import main
from ludoteca.perft import perft, perft_counts

# The 16 mills as docs/rules.md (Nine Men's Morris) lists them.
MILLS = [
    "a1 d1 g1",
    "b2 d2 f2",
    "c3 d3 e3",
    "c5 d5 e5",
    "b6 d6 f6",
    "a7 d7 g7",
    "a1 a4 a7",
    "b2 b4 b6",
    "c3 c4 c5",
    "e3 e4 e5",
    "f2 f4 f6",
    "g1 g4 g7",
    "a4 b4 c4",
    "e4 f4 g4",
    "d1 d2 d3",
    "d5 d6 d7",
]


def hand_count(depth: int) -> int:
    """Sequences of ``depth`` placements, depth <= 5, counted combinatorially.

    Before ply 5 no side has three men, so every placement is one move: 24 * 23 * ... .  At ply 5
    White (two men down) closes a mill iff both men lie on one mill line whose third point Black
    left empty; such a placement offers one removal per Black man (two, neither in a mill), so it
    counts twice.
    """
    if depth < 5:
        return perm(24, depth)
    pairs = [
        (pair, third)
        for mill in MILLS
        for pair in combinations(mill.split(), 2)
        for third in set(mill.split()) - set(pair)
    ]
    assert len(pairs) == 48
    # White: the two men in either order; Black: two ordered points among the 21 others.
    extra = sum(2 * perm(21, 2) for _ in pairs)
    return perm(24, 5) + extra


def test_perft_matches_the_hand_count() -> None:
    state = ludoteca.new_game("morris")
    assert list(perft_counts(state, 5)) == [(d, hand_count(d)) for d in range(1, 6)]
    assert state.position_code() == ludoteca.new_game("morris").position_code()


def test_perft_after_moves_equals_sum_over_children() -> None:
    state = ludoteca.new_game("morris")
    for word in ["a1", "b6", "d1", "d6"]:
        state.push(word)
    total = 0
    for move in state.legal_moves:
        total += perft(state.child(move), 2)
    assert perft(state, 3) == total


def test_perft_command(capsys) -> None:  # type: ignore[no-untyped-def]
    assert main(["perft", "morris", "3"]) == 0
    assert capsys.readouterr().out.split("\n")[:3] == ["1 24", "2 552", "3 12144"]
    assert main(["perft", "morris", "2", "--moves", "a1 b6 d1 d6"]) == 0
    first = capsys.readouterr().out.splitlines()[0]
    assert first == "1 21"  # 19 quiet placements, and g1 closing a mill with two removals


def test_perft_command_rejects_bad_input(capsys) -> None:  # type: ignore[no-untyped-def]
    assert main(["perft", "morris", "2", "--moves", "a1 a1"]) == 2
    err = capsys.readouterr().err
    assert err.startswith("error:") and "occupied" in err and err.count("\n") == 1
    assert main(["perft", "morris", "0"]) == 2
    assert main(["perft", "chess", "1"]) == 2
    assert "unknown game" in capsys.readouterr().err
