"""Game records: text and JSON forms, round trips, and clear errors for bad records."""

from __future__ import annotations

import io

import pytest

import ludoteca
from ludoteca import InvalidRecordError, Termination, record
from ludoteca.games.morris import Morris

SAMPLE = """\
[Game "morris"]
[Rules "morris"]
[White "Ann"]
[Black "Bob \\"the rook\\""]
[Date "2026.11.29"]
[Result "*"]

{opening} 1. a1 b6 2. d1 {threatens g1} d6 3. g1xb6 {first mill} *
"""


def test_read_sample() -> None:
    game = record.loads(SAMPLE)
    assert game.moves == ["a1", "b6", "d1", "d6", "g1xb6"]
    assert game.tags["Black"] == 'Bob "the rook"'
    assert game.comments == {0: "opening", 3: "threatens g1", 5: "first mill"}
    assert game.state.position_code() == ".../.B./.../....../.../.../WWW b 6 7 0 5"
    assert game.result == "*"


def test_write_then_read_is_identical() -> None:
    game = record.loads(SAMPLE)
    text = record.dumps(game)
    assert text == SAMPLE
    assert record.dumps(record.loads(text)) == text


def test_json_round_trip() -> None:
    game = record.loads(SAMPLE)
    data = record.to_json(game)
    again = record.from_json(data)
    assert again.moves == game.moves and again.tags == game.tags
    assert again.comments == game.comments
    assert record.dumps(again) == SAMPLE
    with pytest.raises(InvalidRecordError, match="malformed JSON"):
        record.from_json("{not json")
    with pytest.raises(InvalidRecordError, match="malformed JSON"):
        record.from_json({"moves": []})


def test_finished_game_names_its_termination() -> None:
    state = Morris.of().from_position_code("W.W/.W./.../....../.../.../BBB w 0 0 0 40")
    state.push("d6-d7xg1")
    assert state.position_code() == "WWW/.../.../....../.../.../BB. b 0 0 0 41"
    text = record.dumps(state)
    assert '[Result "1-0"]' in text
    assert '[Termination "fewer than three"]' in text
    assert '[Position "W.W/.W./.../....../.../.../BBB w 0 0 0 40"]' in text
    assert text.rstrip().endswith("21. d6-d7xg1 1-0")
    game = record.loads(text)
    assert game.termination is Termination.FEWER_THAN_THREE


def test_move_numbers_when_black_starts() -> None:
    state = Morris.of().from_position_code("W../.../.../....../.../.../... b 8 9 0 1")
    state.push("d6")
    state.push("a1")
    text = record.dumps(state)
    assert "1... d6 2. a1 *" in text
    assert record.loads(text).moves == ["d6", "a1"]


def test_resignation_is_kept() -> None:
    state = ludoteca.new_game("morris")
    state.push("d6")
    game = record.from_state(state, result="0-1", termination=Termination.RESIGNATION)
    again = record.loads(record.dumps(game))
    assert again.result == "0-1" and again.termination is Termination.RESIGNATION


@pytest.mark.parametrize(
    ("text", "reason"),
    [
        ('[White "x"]\n\n1. d6 *', "Game"),
        ('[Game "chess"]\n\n1. e4 *', "unknown game"),
        ('[Game "morris"]\n[Rules "morris:fly"]\n\n*', "unknown setting"),
        ('[Game "morris"]\n\n1. d6 d6 *', r"ply 2 \(d6\).*occupied"),
        ('[Game "morris"]\n\n1. a1 b6 2. d1 d6 3. g1 *', r"ply 5 \(g1\).*closes a mill"),
        ('[Game "morris"]\n\n1. d6 e9 *', r"ply 2 \(e9\).*not a Morris move"),
        ('[Game "morris"]\n[Result "1-0"]\n\n1. d6 0-1', "Result tag 1-0 but movetext ends 0-1"),
        ('[Game "morris"]\n\n1. d6 * d2', "after the result"),
        ('[Game "morris"]\n\n1. d6 {open *', "unbalanced"),
        ('[Game "morris"\n\n1. d6 *', "malformed tag"),
        ('[Game "morris"]\n[Position "junk"]\n\n*', "6 fields"),
        ('[Game "morris"]\n[Termination "checkmate"]\n\n*', "unknown termination"),
        (
            '[Game "morris"]\n[Position "W.W/.W./.../....../.../.../BBB w 0 0 0 40"]\n'
            '[Result "0-1"]\n\n21. d6-d7xg1 0-1',
            "says 0-1 but",
        ),
    ],
)
def test_bad_records(text: str, reason: str) -> None:
    with pytest.raises(InvalidRecordError, match=reason):
        record.loads(text)


def test_several_games_stream() -> None:
    stream = io.StringIO(SAMPLE + "\n" + SAMPLE)
    games = list(record.read_games(stream))
    assert [len(g.moves) for g in games] == [5, 5]


@pytest.mark.parametrize(
    ("text", "line"),
    [
        ('[Game "morris"]\n[Rules "morris"]\n\n1. d7 a1 2. g7 a7\n3. d6 d1 4. b4 zz9\n', 5),
        ('[Game "morris"]\n\n1. d7 {a comment\nover two lines} a1\n2. d7 *\n', 5),
        ('[Game "morris"]\n[Bad tag\n\n1. d7 *\n', 2),
        ('\n\n[Game "morris"]\n\n1. d7 a1 2. g7 *\n\n[Game "morris"]\n\n1. d7 d7 *\n', 9),
    ],
)
def test_an_error_names_the_line_at_fault(text: str, line: int) -> None:
    with pytest.raises(InvalidRecordError, match=rf"^line {line}:"):
        list(record.read_games(io.StringIO(text)))
