"""Random games played by the compiled kernels replay move for move in the readable engines:
every move legal, the same number of legal moves before it, and the same ending."""

from __future__ import annotations

import pytest

import ludoteca
from ludoteca.compiled.drivers import random_game, random_plies

NO_DRAW_RULES = {
    "morris": "repetition=0,move_rule=0",
    "morris-6": "repetition=0,move_rule=0",
    "morris-12": "repetition=0,move_rule=0",
    "morabaraba": "repetition=0,move_rule=0,three_men_rule=0",
    "morris-lasker": "repetition=0,move_rule=0",
    "felli": "repetition=0",
    "felli-mullah": "repetition=0",
    "morelli": "",
    "morelli-11": "",
    "morelli-9": "",
}


@pytest.mark.parametrize("name", sorted(NO_DRAW_RULES))
@pytest.mark.parametrize("seed", range(8))
def test_kernel_games_replay(name: str, seed: int) -> None:
    spec = f"{name}:{NO_DRAW_RULES[name]}" if NO_DRAW_RULES[name] else name
    state = ludoteca.new_game(spec, seed=seed)
    codes, counts, winner = random_game(state, seed, cap=400)
    for code, count in zip(codes, counts, strict=True):
        legal = state.legal_codes()
        assert len(legal) == count and code in legal
        state.push_code(code)
    outcome = state.outcome()
    if len(codes) < 400:
        assert outcome is not None and outcome.winner == winner
    else:
        assert winner is None


def test_bulk_counts_are_plausible() -> None:
    assert 18 * 10 <= random_plies(ludoteca.new_game("morris:move_rule=0"), 10, 1, 200) <= 200 * 10
    assert 50 <= random_plies(ludoteca.new_game("morelli", seed=1), 3, 1) / 3 <= 176
