"""The compiled playout kernels replay move for move in the pure engines."""

from __future__ import annotations

import pytest

import ludoteca
from ludoteca.games import morelli_kernel as fast_morelli
from ludoteca.games import morris_kernel as fast_morris
from ludoteca.games.morelli import Morelli

MORRIS_FAMILY = ["morris", "morris-6", "morris-12", "morabaraba", "morris-lasker"]


@pytest.mark.parametrize("name", MORRIS_FAMILY)
@pytest.mark.parametrize("seed", range(12))
def test_morris_kernel_games_replay(name: str, seed: int) -> None:
    rules = f"{name}:repetition=0,move_rule=0" + (",three_men_rule=0" if name == "morabaraba"
                                                  else "")
    codes, counts = fast_morris.play_random(seed, cap=200, rules=rules)
    state = ludoteca.new_game(name, rules=rules)
    for code, count in zip(codes, counts, strict=True):
        legal = state.legal_codes()
        assert len(legal) == count and code in legal
        state.push_code(code)
    assert (state.outcome() is not None) == (len(codes) < 200)


@pytest.mark.parametrize("rules", ["morelli", "morelli-11", "morelli-9"])
@pytest.mark.parametrize("seed", range(8))
def test_morelli_kernel_games_replay(rules: str, seed: int) -> None:
    state = Morelli.new(rules, seed=seed)
    codes, counts, king = fast_morelli.play_random(state, seed)
    for code, count in zip(codes, counts, strict=True):
        legal = state.legal_codes()
        assert len(legal) == count and code in legal
        state.push_code(code)
    assert state.outcome() is not None and state.king == king


def test_bulk_counts_are_plausible() -> None:
    assert 18 * 10 <= fast_morris.random_games(10, 1) <= 200 * 10
    assert 50 <= fast_morelli.random_games(3, 1) / 3 <= 176
