"""The drawing face of every game: pieces per point and the touches that make each move."""

from __future__ import annotations

import random

import pytest

import ludoteca
from ludoteca.core import Color

RULE_SETS = ["morris", "felli", "felli-mullah", "felli:multi_capture", "morelli-9", "morelli"]


def own(token: str, colour: Color) -> bool:
    return token[-1:].lower() == ("w" if colour is Color.WHITE else "b")


@pytest.mark.parametrize("rules", RULE_SETS)
def test_gestures_touch_the_right_pieces_and_complete_each_move(rules: str) -> None:
    rng = random.Random(rules)
    for game in range(3):
        state = ludoteca.new_game(rules, seed=game)
        board = state.game.board
        while state.outcome() is None and len(state.move_stack) < 80:
            pieces = state.pieces()
            assert len(pieces) == len(board.points)
            gestures = {state.gesture(c): c for c in state.legal_codes()}
            assert len(gestures) == len(state.legal_codes())
            for gesture in gestures:
                for cut in range(1, len(gesture)):
                    assert gesture[:cut] not in gestures, "a gesture is a prefix of another"
                kinds = [k for k, _ in gesture]
                assert kinds[0] in ("from", "to") and "from" not in kinds[1:]
                for kind, point in gesture:
                    if kind == "from":
                        assert own(pieces[point], state.turn)
                    if kind == "take":
                        assert pieces[point] and not own(pieces[point], state.turn)
                if kinds == ["to"] or kinds[:2] == ["to", "take"]:
                    assert pieces[gesture[0][1]] == ""  # placing on an empty point
            gesture, code = rng.choice(sorted(gestures.items()))
            mover = state.turn
            state.push_code(code)
            landing = [p for k, p in gesture if k == "to"][-1]
            assert own(state.pieces()[landing], mover)
            for kind, point in gesture:
                if kind == "take":
                    assert state.pieces()[point] == ""


def test_morris_pieces_and_hand_follow_the_position() -> None:
    state = ludoteca.new_game("morris")
    assert state.in_hand() == (9, 9) and state.pieces() == [""] * 24
    for text in ("a7", "g7", "d7", "g4", "d6"):
        state.push(text)
    names = state.game.board.points
    placed = {names[i]: t for i, t in enumerate(state.pieces()) if t}
    assert placed == {"a7": "w", "d7": "w", "d6": "w", "g7": "b", "g4": "b"}
    assert state.in_hand() == (6, 7)
    assert ludoteca.new_game("felli").in_hand() is None


def test_felli_and_morelli_tokens() -> None:
    felli = ludoteca.new_game("felli")
    names = felli.game.board.points
    tokens = dict(zip(names, felli.pieces(), strict=True))
    assert tokens["a1"] == "w" and tokens["e5"] == "b" and tokens["c3"] == ""
    morelli = ludoteca.new_game("morelli", seed=3)
    pieces = morelli.pieces()
    assert pieces.count("w") == pieces.count("b") == 24 and "kw" not in pieces
