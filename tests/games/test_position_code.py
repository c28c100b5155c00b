"""Position codes: written and read back, impossible positions rejected with a reason."""

from __future__ import annotations

import pytest

import ludoteca
from ludoteca import InvalidPositionError
from ludoteca.games.morris import Morris

START = ".../.../.../....../.../.../... w 9 9 0 0"


def test_start_code() -> None:
    assert ludoteca.new_game("morris").position_code() == START
    state = Morris.of().from_position_code(START)
    assert state.legal_moves.count() == 24


def test_code_round_trip_mid_game() -> None:
    state = ludoteca.new_game("morris")
    for word in ["a1", "b6", "d1", "d6", "g1xb6"]:
        state.push(word)
    code = state.position_code()
    assert code == ".../.B./.../....../.../.../WWW b 6 7 0 5"
    again = Morris.of().from_position_code(code)
    assert again.position_code() == code
    assert {str(m) for m in again.legal_moves} == {str(m) for m in state.legal_moves}


@pytest.mark.parametrize(
    ("code", "reason"),
    [
        ("", "6 fields"),
        (".../.../.../....../.../.../... w 9 9 0", "6 fields"),
        (".../.../.../...../.../.../... w 9 9 0 0", "7 rows"),
        (".../.../.../....../.../.../..X w 9 9 0 0", "unknown board character"),
        (".../.../.../....../.../.../... x 9 9 0 0", "side to move"),
        (".../.../.../....../.../.../... w 9 nine 0 0", "must be numbers"),
        (".../.../.../....../.../.../... w 9 9 -1 0", "negative"),
        ("WWW/.../.../....../.../.../... w 9 9 0 0", "more than 9"),
        (".../.../.../....../.../.../... w 8 9 0 1", "impossible hands"),
        ("W../.../.../....../.../.../... b 8 9 0 3", "ply must be 1"),
        ("WWW/W../.../....../.../.../BB. w 0 0 0 40", "Black has fewer than three"),
        ("WWW/W../.../....../.../.../BBB w 0 0 0 12", "at least 18"),
    ],
)
def test_impossible_codes_are_rejected(code: str, reason: str) -> None:
    with pytest.raises(InvalidPositionError, match=reason):
        Morris.of().from_position_code(code)
