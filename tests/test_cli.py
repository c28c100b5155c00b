"""The command line: terminal play, record commands, and one-line errors."""

from __future__ import annotations

import io
import subprocess
import sys
from pathlib import Path

import pytest

from checks import morelli_reference
from ludoteca import record
from ludoteca.cli import main


def run(
    argv: list[str], stdin: str, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> tuple[int, str, str]:
    monkeypatch.setattr(sys, "stdin", io.StringIO(stdin))
    status = main(argv)
    out, err = capsys.readouterr()
    return status, out, err


def test_play_human_against_random(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    save = tmp_path / "game.txt"
    status, out, _ = run(
        ["play", "morris", "--black", "random", "--seed", "3", "--save", str(save)],
        "zz\nhelp\nd6\nmoves\nd6\nundo\nd2\nquit\n",
        monkeypatch,
        capsys,
    )
    assert status == 0
    assert "! 'zz' is not a Morris move" in out
    assert "Black (random) plays" in out
    assert "d6: d6 is occupied" in out
    game = record.loads(save.read_text())
    assert game.moves[0] == "d2" and len(game.moves) == 2


def test_play_random_against_random_to_the_end(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    save = tmp_path / "game.txt"
    status, out, _ = run(
        [
            "play",
            "morris",
            "--white",
            "random",
            "--black",
            "random",
            "--seed",
            "11",
            "--save",
            str(save),
        ],
        "",
        monkeypatch,
        capsys,
    )
    assert status == 0
    game = record.loads(save.read_text())
    outcome = game.state.outcome()
    assert outcome is not None and outcome.explain() in out
    assert game.result != "*"


def test_play_stops_cleanly_at_end_of_input(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    status, out, _ = run(["play", "morris"], "d6\n", monkeypatch, capsys)
    assert status == 0 and "Black to move>" in out


def test_unknown_player_is_an_error(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    status, _, err = run(["play", "morris", "--black", "deep-blue"], "", monkeypatch, capsys)
    assert status == 2 and "unknown player" in err


def test_record_check_and_show(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    good = tmp_path / "good.txt"
    good.write_text('[Game "morris"]\n\n1. a1 b6 2. d1 d6 3. g1xb6 *\n')
    assert main(["record", "check", str(good)]) == 0
    assert "1 game(s), all valid" in capsys.readouterr().out
    assert main(["record", "show", str(good)]) == 0
    out = capsys.readouterr().out
    assert "Moves: a1 b6 d1 d6 g1xb6" in out and "Black to move" in out
    bad = tmp_path / "bad.txt"
    bad.write_text('[Game "morris"]\n\n1. a1 b6 2. d1 d6 3. g1xa1 *\n')
    assert main(["record", "check", str(bad)]) == 2
    err = capsys.readouterr().err
    assert "ply 5 (g1xa1)" in err and err.count("\n") == 1
    assert main(["record", "check", str(tmp_path / "missing.txt")]) == 2
    assert "No such file" in capsys.readouterr().err


def test_console_script_runs() -> None:
    done = subprocess.run(
        [sys.executable, "-m", "ludoteca", "perft", "morris", "2"],
        capture_output=True,
        text=True,
        check=False,
    )
    assert done.returncode == 0 and done.stdout == "1 24\n2 552\n"
    done = subprocess.run(
        [sys.executable, "-m", "ludoteca", "perft"], capture_output=True, text=True, check=False
    )
    assert done.returncode == 2 and done.stderr.startswith("error:")
    assert done.stderr.count("\n") == 1


def outer_squares() -> list[tuple[int, int]]:
    """Morelli's red squares in setup-string order (docs/rules.md): clockwise from A1, up the
    left edge first."""
    return (
        [(0, y) for y in range(13)]
        + [(x, 12) for x in range(1, 13)]
        + [(12, y) for y in range(11, -1, -1)]
        + [(x, 0) for x in range(11, 0, -1)]
    )


def test_compiled_perft_counts_as_the_engine(capsys: pytest.CaptureFixture[str]) -> None:
    setup = "BW" * 12 + "WB" * 12
    args = ["perft", "morelli", "2", "--setup", setup, "--moves", "a3-c5"]
    assert main(args) == 0
    engine = capsys.readouterr().out
    assert main([*args, "--compiled"]) == 0
    # the counts by the second implementation of the rules, from the same setup and move
    board, king = morelli_reference.play(
        dict(zip(outer_squares(), setup, strict=True)), ((0, 2), (2, 4)), None
    )
    first = morelli_reference.legal(board, "W", king)
    second = 0
    for move in first:
        after, crowned = morelli_reference.play(board, move, king)
        second += len(morelli_reference.legal(after, "B", crowned))
    assert capsys.readouterr().out == engine == f"1 {len(first)}\n2 {second}\n"
    assert main(["perft", "morris", "65", "--compiled"]) == 2
    assert "at most 64" in capsys.readouterr().err


def test_play_against_a_level_with_a_hint(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    status, out, _ = run(
        ["play", "felli", "--black", "level:2", "--seed", "1"],
        "hint\nb2-c3\nquit\n",
        monkeypatch,
        capsys,
    )
    assert status == 0
    assert "hint: " in out and "a draw with best play" in out
    assert "Black (level:2) plays d4xb2" in out


def test_levels_analyse_and_tournament_commands(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["levels", "morris"]) == 0
    out = capsys.readouterr().out
    assert out.count("level ") >= 5
    assert (
        main(
            [
                "analyse",
                "morris",
                "--position",
                "B.B/.B./.../.....W/.../.W./WW. w 0 0 0 40",
                "--time",
                "0.5",
            ]
        )
        == 0
    )
    out = capsys.readouterr().out
    assert "best move: g4-g1x" in out and "White wins" in out
    records = tmp_path / "games.txt"
    assert (
        main(
            [
                "tournament",
                "felli",
                "--agents",
                "random",
                "search:depth=1",
                "--games",
                "2",
                "--out",
                str(records),
            ]
        )
        == 0
    )
    out = capsys.readouterr().out
    assert "search:depth=1" in out and "elo" in out
    assert main(["record", "check", str(records)]) == 0
    assert main(["tournament", "felli", "--agents", "random", "alphazero"]) == 2
    assert "unknown player" in capsys.readouterr().err


def test_engine_command_over_pipes() -> None:
    done = subprocess.run(
        [sys.executable, "-m", "ludoteca", "engine"],
        input="ludo\nnewgame morris\nposition startpos\ngo depth 1\nisready\nquit\n",
        capture_output=True,
        text=True,
        check=False,
        timeout=60,
    )
    assert done.returncode == 0
    lines = done.stdout.splitlines()
    assert "ludook" in lines and "readyok" in lines
    assert any(line.startswith("bestmove ") for line in lines)


def test_record_review_marks_a_blunder(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    # South to move can win the man on b4 (c3xa5); stepping away instead throws that away
    game = tmp_path / "game.txt"
    game.write_text('[Game "felli"]\n[Position ".b./b../w/.../... w 0 20"]\n\n11. c3-c2 *\n')
    assert main(["record", "review", str(game)]) == 0
    out = capsys.readouterr().out
    assert "1 mistake(s)" in out and "ply 21: c3-c2" in out
