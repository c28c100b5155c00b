"""What Morelli's kernel tells the compiled search: its evaluation with the hand-set weights,
checked against the readable engine's in seeded random games, and with the tuned ones."""

from __future__ import annotations

import math
import random
from collections.abc import Iterator
from pathlib import Path

import numpy as np
import pytest

import ludoteca
from ludoteca.compiled.registry import functions
from ludoteca.games import load
from ludoteca.games.morelli import kernel as morelli_kernel
from ludoteca.games.morelli.board import frame_list
from ludoteca.games.morelli.rules import _FRAME_WORTH, Morelli, MorelliState, _stone_weights


def _positions(rules: str, games: int) -> Iterator[MorelliState]:
    for seed in range(games):
        rng = random.Random(seed)
        state = ludoteca.new_game(rules, seed=seed)
        assert isinstance(state, MorelliState)
        while codes := state.legal_codes():
            yield state
            state.push_code(rng.choice(codes))


def _plain(state: MorelliState) -> float:
    """The evaluation without its crown term: King, frames of one colour, stones by band."""
    mover = 1 if state.turn is ludoteca.Color.BLACK else 2
    score = 0.0 if not state.king else 1.5 if state.king == mover else -1.5
    for frame in frame_list(state.n):
        held = [state.board[q] for q in frame]
        if 3 - mover not in held:
            score += _FRAME_WORTH[held.count(mover)]
        elif mover not in held:
            score -= _FRAME_WORTH[held.count(3 - mover)]
    for v, w in zip(state.board, _stone_weights(state.n), strict=True):
        score += w if v == mover else -w if v else 0.0
    return score


def test_evaluation_counts_a_frame_the_mover_completes_at_once(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Half the King it wins (0.75 on a vacant Throne, 1.5 in place of the other side's), where
    a legal move lands on the empty square of a frame holding three of the mover's stones; the
    kernel's evaluation with the hand-set weights is the readable one's, in thousandths."""
    (tmp_path / "none.json").write_text("{}")
    monkeypatch.setattr(morelli_kernel, "WEIGHTS_FILE", tmp_path / "none.json")
    crowns = 0
    for rules in ("morelli", "morelli-9"):
        kernel = morelli_kernel.kernel(Morelli.of(rules))
        assert dict(kernel.weights) == morelli_kernel.DEFAULT_WEIGHTS
        evaluate = functions(kernel.name)["evaluate"]
        for state in _positions(rules, 8):
            mover = 1 if state.turn is ludoteca.Color.BLACK else 2
            squares = state.n * state.n
            gaps = {
                q
                for frame in frame_list(state.n)
                if [state.board[x] for x in frame].count(mover) == 3
                for q in frame
                if not state.board[q]
            }
            crown = state.king != mover and any(c % squares in gaps for c in state.legal_codes())
            expected = (1.5 if state.king else 0.75) if crown else 0.0
            score = _plain(state) + expected
            assert math.tanh(score / 2) == pytest.approx(state.evaluate(), abs=1e-12)
            assert evaluate(kernel.pack(state), kernel.prm) == round(500 * score)
            crowns += crown
    assert crowns > 20


def test_the_features_count_what_the_readable_position_holds() -> None:
    """The tuned evaluation's features, counted again from the readable position: the King,
    the frames by the stones one side holds in them, the stones by ring (bands from the edge),
    whose sum is the stones the side to move has more."""
    for rules in ("morelli", "morelli-11"):
        kernel = load(rules).kernel
        assert kernel is not None
        features = functions(kernel.name)["features"]
        row = np.zeros(len(kernel.weights))
        for state in _positions(rules, 3):
            mover = 1 if state.turn is ludoteca.Color.BLACK else 2
            expected = [0.0] * len(row)
            expected[0] = 0 if not state.king else 1 if state.king == mover else -1
            for frame in frame_list(state.n):
                held = [state.board[q] for q in frame]
                if held.count(mover) and 3 - mover not in held:
                    expected[held.count(mover)] += 1
                elif held.count(3 - mover) and mover not in held:
                    expected[held.count(3 - mover)] -= 1
            for v, band in zip(state.board, state.geo.band, strict=True):
                if v:
                    expected[morelli_kernel.RINGS + state.n // 2 - band] += 1 if v == mover else -1
            features(kernel.pack(state), kernel.prm, row)
            crown = row[5]
            row[5] = 0.0
            assert row.tolist() == expected
            assert crown in (0, 1, 2)
            assert sum(expected[morelli_kernel.RINGS :]) == (
                state.board.count(mover) - state.board.count(3 - mover)
            )
