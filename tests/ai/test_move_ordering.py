"""The kernels' ``prior`` (how the compiled search orders quiet moves before their history):
Morris's ranks on a hand-checked position, and in random positions of every rule set of the
family the same ranks as a plain count over the board's lines of three."""

from __future__ import annotations

import random

import pytest

import ludoteca
from ludoteca.compiled import search
from ludoteca.compiled.dispatch import bind
from ludoteca.games.morris.rules import MorrisState

MORRIS_RULES = ("morris", "morris-6", "morris-12", "morabaraba", "morris-lasker")


def priors(state: MorrisState) -> dict[str, int]:
    """Each quiet legal move's prior, as the search sees it."""
    kernel = state.game.kernel
    assert kernel is not None
    k = bind(search.__name__, kernel.name)
    st = kernel.pack(state)
    return {
        str(state.move_of(code)): int(k.prior(st, kernel.prm, code))
        for code in state.legal_codes()
        if state.move_of(code).remove is None
    }


def plain_prior(state: MorrisState, text: str) -> int:
    """The rank of a quiet move from the board's lines: 2 if it goes where the other side
    holds the rest of a line of three, else 1 if it makes a line of three hold two of its own
    men and none of the other side's, else 0."""
    move = state.read_move(text)
    me = 0 if state.turn is ludoteca.Color.WHITE else 1
    own = [p for p in range(len(state.board.points)) if state.men[me] >> p & 1]
    opp = {p for p in range(len(state.board.points)) if state.men[1 - me] >> p & 1}
    mine = set(own) - ({move.src} if move.src is not None else set())
    rank = 0
    for line in state.board.lines:
        if len(line) != 3 or move.dst not in line:
            continue
        rest = [p for p in line if p != move.dst]
        if all(p in opp for p in rest):
            return 2
        if not any(p in opp for p in rest) and sum(p in mine for p in rest) == 1:
            rank = 1
    return rank


def test_a_block_ranks_above_an_open_two_and_both_above_the_rest() -> None:
    """White holds a7 and g7; Black, to place, holds b6: d7 stops White's mill (2); d6, f6
    (the line b6-d6-f6), b4 and b2 (b6-b4-b2) each make an open two of Black's (1); a4 and a1
    are on White's line a7-a4-a1 with one White man only, and the rest touch no line of
    Black's (0)."""
    state = ludoteca.new_game("morris")
    for move in ("a7", "b6", "g7"):
        state.push(move)
    found = priors(state)
    expected = {"d7": 2, "d6": 1, "f6": 1, "b4": 1, "b2": 1}
    assert {m: r for m, r in found.items() if r} == expected
    assert len(found) == 24 - 3


def test_a_step_away_from_a_line_does_not_count_for_it() -> None:
    """In the moving phase the man that moves leaves its point: a step along a line of three
    that keeps two men on it only because the moving man was one of them makes no open two."""
    rng = random.Random(4)
    state = ludoteca.new_game("morris")
    while state.hand[0] or state.hand[1]:  # type: ignore[attr-defined]
        state.push_code(rng.choice(state.legal_codes()))
    assert isinstance(state, MorrisState) and state.outcome() is None
    moves = priors(state)
    assert any("-" in m for m in moves)
    for text, rank in moves.items():
        assert rank == plain_prior(state, text), text


@pytest.mark.parametrize("rules", MORRIS_RULES)
def test_the_prior_agrees_with_a_plain_count_over_the_lines(rules: str) -> None:
    rng = random.Random(rules)
    checked = 0
    for _ in range(12):
        state = ludoteca.load(rules).new()
        assert isinstance(state, MorrisState)
        while state.outcome() is None and checked < 5000:
            for text, rank in priors(state).items():
                assert rank == plain_prior(state, text), (state.position_code(), text)
                checked += 1
            state.push_code(rng.choice(state.legal_codes()))
    assert checked > 500
