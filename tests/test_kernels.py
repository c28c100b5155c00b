"""The compiled kernels against the readable engines, move for move: in seeded random games of
every rule set with a kernel, the same legal moves at every position, the same ending, make and
unmake restoring the position exactly, and the incremental Zobrist key equal to a fresh one."""

from __future__ import annotations

import random

import numpy as np
import pytest

import ludoteca
from ludoteca.core import Termination
from ludoteca.games import find_game, game_names
from ludoteca.games.kernel import DRAW, LOSS, ONGOING, UNDO, WIN
from ludoteca.games.kernels import generate, make, status, unmake

RULE_SETS = [d.name for g in game_names() for d in find_game(g).rule_sets
             if find_game(g).kernel(find_game(g).rules(d.name)) is not None]
GAMES = {"morris": 24, "morris-6": 24, "morris-12": 24, "morabaraba": 24, "morris-lasker": 24,
         "felli": 40, "felli-mullah": 40, "morelli": 6, "morelli-11": 8, "morelli-9": 10}


def test_every_game_has_a_kernel() -> None:
    assert set(RULE_SETS) == set(GAMES)


@pytest.mark.parametrize("rules", RULE_SETS)
def test_kernel_follows_the_engine(rules: str) -> None:
    rng = random.Random(rules)
    out = np.zeros(4096, dtype=np.int64)
    undo = np.zeros(UNDO, dtype=np.int64)
    positions = 0
    for game in range(GAMES[rules]):
        # the search handles repetition itself: switch it off so the engine agrees
        state = ludoteca.new_game(rules, seed=game)
        spec = str(state.rules)
        if "repetition" in state.rules.settings:
            spec += ("," if ":" in spec else ":") + "repetition=0"
            state = ludoteca.new_game(spec, seed=game)
        kernel = state.game.kernel(state.rules)
        assert kernel is not None
        fields = kernel.fields
        st = kernel.pack(state)
        while True:
            n = generate(kernel.kind, st, kernel.prm, out)
            ended = status(kernel.kind, st, kernel.prm, n)
            outcome = state.outcome()
            if outcome is None:
                assert ended == ONGOING
                assert sorted(out[:n].tolist()) == sorted(state.legal_codes()), \
                    state.position_code()
            else:
                expected = DRAW if outcome.winner is None else (
                    WIN if outcome.winner is state.turn else LOSS)
                assert ended == expected, (state.position_code(), outcome)
                assert outcome.termination is not Termination.THREEFOLD_REPETITION
                break
            code = rng.choice(state.legal_codes())
            before = st[:fields].copy()
            make(kernel.kind, st, kernel.prm, code, undo)
            state.push_code(code)
            assert (st[:fields] == kernel.pack(state)[:fields]).all(), state.position_code()
            unmake(kernel.kind, st, kernel.prm, code, undo)
            assert (st[:fields] == before).all()
            make(kernel.kind, st, kernel.prm, code, undo)
            positions += 1
    assert positions > 100
