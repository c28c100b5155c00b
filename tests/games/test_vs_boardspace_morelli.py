"""bench/vs_boardspace_morelli.py without Java: the translation of moves to Boardspace's move
specs and back (hand-checked, and on the real game the smoke run played against Boardspace's
robot, whose specs its Java code wrote), the driver's board read and compared with ours, and
the game loop against a stand-in driver that plays first legal moves, or an illegal one."""

from __future__ import annotations

import sys
import textwrap
from pathlib import Path

import pytest

from bench import vs_boardspace_morelli as bench
from bench.match_summary import read_games, report, score_lines
from ludoteca.core import Color, InvalidRecordError
from ludoteca.games import load
from ludoteca.games.morelli.boardspace import move_spec, read_move_spec
from ludoteca.games.morelli.rules import Morelli, MorelliState

SMOKE = Path(bench.__file__).parent / "results" / "vs-boardspace-morelli-smoke.jsonl.xz"
#: 9x9, the red squares clockwise from A1 (up the left edge first)
SETUP = "BWWBWBWWWBBBWWBBWBBWBWBBBWWWBBWW"


def start(setup: str = SETUP) -> MorelliState:
    game = load("morelli-9")
    assert isinstance(game, Morelli)
    return game.new(setup=setup)


def test_moves_to_boardspace_and_back_by_hand() -> None:
    assert move_spec("A5-L5") == "Move A 5 L 5"
    assert move_spec("a5-e5x3") == "Move A 5 E 5"
    assert move_spec("D13-D11K") == "Move D 13 D 11"
    assert read_move_spec("Move A 5 L 5") == "A5-L5"
    assert read_move_spec("17 Move m 13 h 8") == "M13-H8"
    for bad in ("Done", "Resign", "Move A 5 L", "Move N 1 A 1", "Dropb A 5"):
        with pytest.raises(InvalidRecordError):
            read_move_spec(bad)


def test_the_smoke_game_against_boardspace_round_trips() -> None:
    """Every robot move of the committed game, as Boardspace's Java wrote it, reads as the move
    our engine replayed, and ours written for Boardspace read back the same; the replay reaches
    the recorded result."""
    (game,) = read_games([SMOKE])
    state = start(game["setup"])
    ours = Color[game["ours"].upper()]
    specs = iter(game["robot_moves"])
    robot_plies = 0
    for text in game["moves"].split():
        move = state.parse_move(text)
        assert read_move_spec(move_spec(str(move))) == str(move)
        if state.turn is not ours:
            spec = next(specs)
            assert read_move_spec(spec) == str(move) and move_spec(str(move)) == spec
            robot_plies += 1
        state.push(move)
    assert robot_plies == len(game["robot_moves"]) > 10
    outcome = state.outcome()
    assert outcome is not None and outcome.result == game["result"]


def test_the_drivers_board_is_compared_with_ours() -> None:
    state = start()
    new = bench.stones(state)
    assert new.startswith("new 9 A1=0 ") and new.count("=0") == new.count("=1") == 16
    cells = ",".join(new.split()[2:])
    bench.check_board(state, f"state 0 0 0 0 {cells}")
    with pytest.raises(bench.DriverError, match="not ours"):
        bench.check_board(state, f"state 1 0 0 0 {cells}")  # White to move
    with pytest.raises(bench.DriverError, match="not ours"):
        bench.check_board(state, "state 0 0 0 0 " + cells.replace("A1=0", "A1=1"))
    assert bench.read_state("state 1 1 0 1 A1=0,E5=1*") == (1, True, (False, True), {"A1": 0}, 1)


FAKE = textwrap.dedent(
    """
    import sys
    from ludoteca.core import Color
    from ludoteca.games import load
    from ludoteca.games.morelli.board import geometry
    from ludoteca.games.morelli.boardspace import move_spec, read_move_spec

    state = None
    for line in sys.stdin:
        words = line.split()
        if words[0] == "quit":
            break
        if words[0] == "version":
            print("version stand-in")
        elif words[0] == "new":
            n = int(words[1])
            stones = dict(w.split("=") for w in words[2:])
            geo = geometry(n)
            setup = "".join("BW"[int(stones[geo.names[s]])] for s in geo.perimeter)
            state = load("morelli-9").new(setup=setup)
            print("ok")
        elif words[0] == "move":
            state.push(state.parse_move(read_move_spec(line[5:])))
            print("ok")
        elif words[0] == "go":
            if sys.argv[1] == "illegal":
                print("bestmove Move A 1 A 2 0.01")
            else:
                print("bestmove " + move_spec(str(state.move_of(state.legal_codes()[0]))) + " 0.01")
        elif words[0] == "state":
            geo = geometry(state.n)
            cells = [f"{geo.names[s]}={v - 1}" for s, v in enumerate(state.board) if v]
            if state.king:
                cells.append(f"{geo.names[geo.throne]}={state.king - 1}*")
            outcome = state.outcome()
            won = [outcome is not None and outcome.winner is c for c in (Color.BLACK, Color.WHITE)]
            wins = [int(w) for w in won]
            turn = int(state.turn is Color.WHITE)
            print(f"state {turn} {int(outcome is not None)} {wins[0]} {wins[1]} " + ",".join(cells))
        else:
            print("ok")
        sys.stdout.flush()
    """
)


@pytest.mark.parametrize("ours", [Color.BLACK, Color.WHITE])
def test_a_game_against_a_stand_in_driver(tmp_path: Path, ours: Color) -> None:
    script = tmp_path / "fake_driver.py"
    script.write_text(FAKE)
    row = bench.play(
        [sys.executable, str(script), "legal"],
        "dumbot",
        "search:depth=1",
        SETUP,
        ours,
        "morelli-9",
        1,
        hang=60,
    )
    assert "error" not in row, row.get("error")
    assert row["driver"] == "stand-in" and row["result"] in ("1-0", "0-1", "1/2-1/2")
    state = start()
    robot_plies = 0
    for text in row["moves"].split():
        robot_plies += state.turn is not ours
        state.push(state.parse_move(text))
    outcome = state.outcome()
    assert outcome is not None and outcome.result == row["result"]
    assert len(row["robot_moves"]) == len(row["think"]["theirs"]) == robot_plies > 0


def test_an_illegal_robot_move_makes_the_game_void(tmp_path: Path) -> None:
    script = tmp_path / "fake_driver.py"
    script.write_text(FAKE)
    row = bench.play(
        [sys.executable, str(script), "illegal"],
        "dumbot",
        "search:depth=1",
        SETUP,
        Color.WHITE,
        "morelli-9",
        1,
        hang=60,
    )
    assert "score" not in row and row["plies"] == 0
    assert row["error"] == "the robot's move 'Move A 1 A 2' is illegal here: A1-A2: A2 is occupied"


def test_a_sweep_gets_the_exact_binomial_interval() -> None:
    """Every game won (or lost): the normal approximation's interval has no width, so the
    summary gives Clopper-Pearson's, whose bound for n of n is 0.025 ** (1 / n) (12 of 12:
    73.5%); a match with mixed results keeps the normal approximation."""
    won = [{"score": 1.0, "think": {}} for _ in range(12)]
    assert score_lines(won)[1] == (
        "Ludoteca W-D-L 12-0-0: score 100.0% (95% interval 73.5%-100.0%, "
        "exact binomial interval, every game won of 12)"
    )
    lost = [{"score": 0.0, "think": {}} for _ in range(4)]
    assert (
        "(95% interval 0.0%-60.2%, exact binomial interval, no game won of 4)"
        in (score_lines(lost)[1])
    )
    mixed = [{"score": s, "think": {}} for s in (1.0, 0.5, 0.0, 1.0)]
    assert "normal approximation over 4 games" in score_lines(mixed)[1]


def test_a_reported_game_is_printed_and_read_back(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """``report``: the line printed as a game ends (a void one says why), and the game appended
    to the results file as ``read_games`` reads it back."""
    out = tmp_path / "games.jsonl"
    won = {"think": {"ours": [0.5, 0.9], "theirs": [1.2]}, "result": "1-0"}
    won |= {"termination": "throne", "score": 1.0, "plies": 3, "moves": "A1-B2 C3-C4 B2-E5"}
    void = {"think": {"ours": [], "theirs": []}, "error": "robot crashed", "plies": 0, "moves": ""}
    report(won, "9x9 game 1/2: setup BW, Ludoteca white", out)
    report(void, "9x9 game 2/2: setup BW, Ludoteca black", out)
    printed = capsys.readouterr().out.splitlines()
    assert printed[0] == (
        "9x9 game 1/2: setup BW, Ludoteca white: 1-0 (throne), Ludoteca scores 1 after 3 plies; "
        "think max ours 0.90 s, theirs 1.20 s"
    )
    assert printed[1] == "  A1-B2 C3-C4 B2-E5"
    assert printed[2].startswith("9x9 game 2/2: setup BW, Ludoteca black: VOID: robot crashed")
    assert read_games([out]) == [won, void]
