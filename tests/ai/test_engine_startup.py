"""An outside engine's first move may take its start-up time (``EngineAgent(startup=...)``):
an engine version loads its compiled search at its first move, which takes seconds on a busy
machine; the moves after it keep the ordinary deadline."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

import ludoteca
from ludoteca.ai.engine import EngineAgent, EngineError
from ludoteca.games.morris import Morris

#: an engine whose first move takes 4 s, past the 3 s deadline the tests give a move
SLOW = f"{sys.executable} {Path(__file__).parents[1] / 'data' / 'engines' / 'slow_start.py'} 4"


def test_the_first_move_may_take_the_startup_allowance() -> None:
    state = ludoteca.new_game("morris")
    engine = EngineAgent(SLOW, Morris.parse_rules(), seconds=0.1, timeout=3.0, startup=10.0)
    try:
        for _ in range(3):  # the slow first move, then quick ones
            move = engine.choose(state)
            assert move in state.legal_moves
            state.push(move)
    finally:
        engine.close()


def test_without_the_allowance_a_slow_first_move_fails() -> None:
    engine = EngineAgent(SLOW, Morris.parse_rules(), seconds=0.1, timeout=3.0)
    try:
        with pytest.raises(EngineError, match="bestmove"):
            engine.choose(ludoteca.new_game("morris"))
    finally:
        engine.close()
