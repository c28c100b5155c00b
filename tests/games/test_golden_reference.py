"""The golden playthroughs (``tests/data/golden/``) are written by the engines they test; here
the second implementations in ``tests/support/`` replay every one of them on their own and
agree: at every position the same legal moves (their number where the file lists only a
digest), the move played among them, the next position the one the file shows, and the same
ending.  The files are read as text; nothing of ``ludoteca`` is used."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

import pytest

from checks import felli_reference as felli
from checks import morelli_reference as morelli
from checks import morris_reference as morris

DATA = Path(__file__).parents[1] / "data" / "golden"


@dataclass
class Ply:
    code: str
    count: int
    listed: list[str] | None  # None: more than 60 moves, only counted and digested
    digest: str | None
    played: str | None  # None at the last position


@dataclass
class Playthrough:
    start: str
    plies: list[Ply]
    result: str
    reason: str


def read(rules: str) -> Playthrough:
    lines = (DATA / f"{rules}.txt").read_text().splitlines()
    assert lines[0].startswith("# ") and lines[1].startswith("start ")
    plies: list[Ply] = []
    result = reason = ""
    for line in lines[2:]:
        if line.startswith("ply "):
            plies.append(Ply(line.split(": ", 1)[1], 0, None, None, None))
        elif line.startswith("  legal "):
            head, _, rest = line.strip().partition(":")
            plies[-1].count = int(head.split()[1])
            rest = rest.strip()
            if rest.startswith("("):
                plies[-1].digest = rest.rstrip(")").split("sha256 ")[1]
            else:
                plies[-1].listed = rest.split() if rest else []
        elif line.startswith("  play "):
            plies[-1].played = line.split("play ", 1)[1]
        elif line.startswith("result "):
            result, reason = line.split(" ", 2)[1:]
    assert plies and result, "an unfinished playthrough"
    return Playthrough(lines[1].split(" ", 1)[1], plies, result, reason)


def agree(ply: Ply, legal: set[str]) -> None:
    """The file's legal moves at ``ply`` are ``legal``."""
    assert ply.count == len(legal), ply.code
    if ply.listed is not None:
        assert sorted(ply.listed) == sorted(legal), ply.code
    if ply.played is not None:
        assert ply.played in legal, ply.code


# --- the Morris family ------------------------------------------------------------------------
MORRIS_REASONS = {
    "fewer than three": "fewer than three",
    "no legal moves": "no legal moves",
    "threefold repetition": "threefold repetition",
    "move rule": "move rule",
    "full board": "full board",
    "three men rule": "three men rule",
}


@pytest.mark.parametrize("rules", list(morris.VARIANTS))
def test_the_morris_reference_replays_the_golden_game(rules: str) -> None:
    game = read(rules)
    position = morris.start(rules)
    for ply in game.plies:
        agree(ply, set(morris.legal(position)))
        if ply.played is not None:
            position = morris.play(position, ply.played)
    ended = morris.outcome(position)
    assert ended is not None
    winner, reason = ended
    assert reason == MORRIS_REASONS[game.reason]
    assert game.result == {"W": "1-0", "B": "0-1", None: "1/2-1/2"}[winner]


# --- Felli ------------------------------------------------------------------------------------
#: the points of a Felli position code's rows, top (North's side) first
FELLI_ROWS = [
    ["a5", "c5", "e5"],
    ["b4", "c4", "d4"],
    ["c3"],
    ["b2", "c2", "d2"],
    ["a1", "c1", "e1"],
]
#: (forced capture, multi-capture, Mullahs) as docs/rules.md sets them for each rule set
FELLI_RULES = {"felli": (False, False, False), "felli-mullah": (True, True, True)}


def felli_board(code: str) -> tuple[dict[str, str], str]:
    rows, side = code.split()[:2]
    board = {}
    for points, row in zip(FELLI_ROWS, rows.split("/"), strict=True):
        for point, mark in zip(points, row, strict=True):
            board[point] = "" if mark == "." else mark
    return board, side


@pytest.mark.parametrize("rules", list(FELLI_RULES))
def test_the_felli_reference_replays_the_golden_game(rules: str) -> None:
    forced, multi, mullahs = FELLI_RULES[rules]
    game = read(rules)
    board, side = felli_board(game.start)
    for ply in game.plies:
        assert felli_board(ply.code) == (board, side)  # the position the file shows
        if ply.played is None:
            break
        agree(ply, felli.legal(board, side, forced, multi))
        board = felli.play(board, ply.played, mullahs)
        side = "b" if side == "w" else "w"
    assert game.plies[-1].count == 0  # the game is over
    if game.reason in ("no legal moves", "all captured"):  # the side to move has none and loses
        assert not felli.legal(board, side, forced, multi)
        assert game.result == ("0-1" if side == "w" else "1-0")
        # 'all captured' when no man of theirs is left, 'no legal moves' when they are shut in
        left = any(mark.lower() == side for mark in board.values() if mark)
        assert left == (game.reason == "no legal moves")
    else:  # a draw by the draw rules (which the reference leaves to the engine): moves remain
        assert game.result == "1/2-1/2" and felli.legal(board, side, forced, multi)


# --- Morelli (the reference plays on 13 x 13 only) ---------------------------------------------
def morelli_position(code: str) -> tuple[dict[tuple[int, int], str], str, str | None]:
    rows, turn, king = code.split()[:3]
    board = {
        (x, 12 - y): mark.upper()
        for y, row in enumerate(rows.split("/"))
        for x, mark in enumerate(row)
        if mark in "bw"
    }
    return board, turn.upper(), None if king == "-" else king.upper()


def square(name: str) -> tuple[int, int]:
    return "ABCDEFGHIJKLM".index(name[0]), int(name[1:]) - 1


def name(point: tuple[int, int]) -> str:
    return f"{'ABCDEFGHIJKLM'[point[0]]}{point[1] + 1}"


def test_the_morelli_reference_replays_the_golden_game() -> None:
    game = read("morelli")
    board, turn, king = morelli_position(game.start)
    for ply in game.plies:
        assert morelli_position(ply.code) == (board, turn, king)
        legal = {f"{name(a)}-{name(b)}" for a, b in morelli.legal(board, turn, king)}
        agree(ply, legal)  # where the file has only a digest (of the engine's order): the count
        if ply.played is not None:
            start, _, end = ply.played.partition("-")
            board, king = morelli.play(board, (square(start), square(end)), king)
            turn = "W" if turn == "B" else "B"
    assert not morelli.legal(board, turn, king)  # the player to move has no move
    expected = {"B": ("0-1", "throne"), "W": ("1-0", "throne"), None: ("1/2-1/2", "vacant throne")}
    assert (game.result, game.reason) == expected[king]


def test_every_golden_file_is_replayed_by_a_reference_or_named_here() -> None:
    replayed = {*morris.VARIANTS, *FELLI_RULES, "morelli"}
    # the smaller Morelli boards: the reference is written for 13 x 13 only
    beyond_the_references = {"morelli-9", "morelli-11"}
    assert {p.stem for p in DATA.glob("*.txt")} == replayed | beyond_the_references
