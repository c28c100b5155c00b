"""The compiled playout kernels replay move for move in the pure engines."""

from __future__ import annotations

import pytest

import ludoteca
from ludoteca.games.morelli import Morelli

pytest.importorskip("numba")

from ludoteca.fast import morelli as fast_morelli
from ludoteca.fast import morris as fast_morris


@pytest.mark.parametrize("seed", range(40))
def test_morris_kernel_games_replay(seed: int) -> None:
    codes, counts = fast_morris.play_random(seed, cap=200)
    state = ludoteca.new_game("morris", rules=fast_morris.RULES)
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
