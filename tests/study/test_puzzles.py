"""Puzzles: every generated solution is the one winning move by the table itself (looked up
here move by move), every reply the table's longest defence; Morelli's unique move holds at a
deeper search; the shipped sets pass ``ludoteca puzzles check``; bad files get clear errors.

The shipped sets hold thousands of puzzles: the tests here look at a deterministic sample of
each (spread over the set: :data:`SAMPLE` of a tabled one for its table here, a few for
``puzzles check``, Morelli's first for a deeper search); every puzzle of every
set is checked by ``ludoteca puzzles check FILE``, whose output is committed in
``bench/results/puzzles-check.txt`` (the command, its date and revision)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

import ludoteca
from ludoteca.ai import Limit
from ludoteca.ai.search import SearchAgent
from ludoteca.cli import main
from ludoteca.core import State
from ludoteca.study import puzzles
from ludoteca.study.puzzles import MUCH_SLOWER
from ludoteca.tables import Table

#: (rule set, endgame tables' size): the tables the shipped sets are checked with
TABLED = [("felli", None), ("felli-mullah", 3), ("morris", 4), ("morris-6", None)]
#: how many puzzles of each tabled shipped set the table checks here, move by move
SAMPLE = 60
#: the fewest puzzles a shipped set holds: with a table, and by search (Morelli)
AT_LEAST_TABLED, AT_LEAST_SEARCHED = 2000, 500


def shipped_set(rules: str) -> list[puzzles.Puzzle]:
    """The puzzles of a shipped set, in the file's order."""
    path = next(p for p in puzzles.shipped() if p.name == f"{rules}{puzzles.SUFFIX}")
    return [puzzle for _, puzzle in puzzles.read(path)]


def spread(found: list[puzzles.Puzzle], n: int) -> list[puzzles.Puzzle]:
    """``n`` of ``found`` evenly spaced from the first (all of them if there are no more)."""
    return [found[i * len(found) // n] for i in range(n)] if len(found) > n else found


def table_of(rules: str, men: int | None) -> Table:
    solver = ludoteca.load(rules).solver(men)
    assert solver is not None
    return solver.load()[0]


def after(table: Table, state: State, code: int) -> tuple[int, int]:
    """The mover's (value, plies) after ``code``: the game's own ending, else the table's."""
    mover = state.turn
    child = state.copy()
    child.push_code(code)
    outcome = child.outcome()
    if outcome is not None:
        return (0, 0) if outcome.winner is None else (1 if outcome.winner is mover else -1, 1)
    value, plies = table.lookup(child)
    return -value, plies + 1


def assert_unique_by_table(puzzle: puzzles.Puzzle, table: Table) -> None:
    """Each of the puzzle's moves is the one winning move by the table (every other win at least
    :data:`MUCH_SLOWER` plies slower), each reply the longest defence, the start won and not
    forced."""
    state = ludoteca.load(puzzle.rules).from_position_code(puzzle.position)
    assert puzzle.verification["value"] == 1
    assert puzzle.verification["plies"] == table.lookup(state)[1]
    assert len(puzzle.line) % 2 == 1  # it ends with the player's move
    for i, text in enumerate(puzzle.line):
        code = state.parse_move(text).code
        values = {c: after(table, state, c) for c in state.legal_codes()}
        if i % 2 == 0:
            value, plies = values.pop(code)
            assert value == 1, (puzzle.id, text)
            if i == 0:
                assert plies > 1  # no puzzle is won by its first move at once
                assert values  # nor has only one legal move
            for other, (v, p) in values.items():
                assert v < 1 or p >= plies + MUCH_SLOWER, (puzzle.id, state.move_of(other))
        else:
            assert all(v == -1 for v, _ in values.values())  # every reply loses
            assert values[code][1] == max(p for _, p in values.values()), puzzle.id
        state.push_code(code)


@pytest.mark.parametrize(("rules", "men"), TABLED)
def test_solutions_are_unique_and_replies_the_best_defence_by_the_table(
    rules: str, men: int | None
) -> None:
    found = puzzles.generate(rules, 2, seed=3, men=men)
    assert len(found) == 2 and len({p.id for p in found}) == 2
    table = table_of(rules, men)
    for puzzle in found:
        assert_unique_by_table(puzzle, table)


@pytest.mark.parametrize(("rules", "men"), TABLED)
def test_every_shipped_puzzle_of_a_solved_game_is_unique_by_the_table(
    rules: str, men: int | None
) -> None:
    """What the puzzle page serves, for each game with a table (Morelli's are checked by a
    deeper search, below): :data:`SAMPLE` puzzles spread over the set, the whole of which
    ``ludoteca puzzles check`` verifies (see the module's docstring)."""
    table = table_of(rules, men)
    sample = spread(shipped_set(rules), SAMPLE)
    assert len(sample) == SAMPLE and len({p.id for p in sample}) == SAMPLE
    for puzzle in sample:
        assert puzzle.verification["men"] == men
        assert_unique_by_table(puzzle, table)


def assert_holds_deeper(puzzle: puzzles.Puzzle) -> None:
    """The first move is still clearly winning, and the best, one ply deeper than its judge."""
    assert puzzle.verification["method"] == "search"
    deeper = max(puzzle.verification["depths"]) + 1
    state = ludoteca.load(puzzle.rules).from_position_code(puzzle.position)
    code = state.parse_move(puzzle.line[0]).code
    scores = SearchAgent(0).analyse(state, Limit(depth=deeper), exact=True).scores
    best = scores.pop(code)
    assert best >= puzzles.CLEAR_WIN and best > max(scores.values()), puzzle.id
    assert puzzle.theme in ("conversion", "frame", "throne")


def test_morelli_solutions_hold_at_a_deeper_search() -> None:
    found = puzzles.generate("morelli-9", 2, seed=3)
    assert len(found) == 2
    for puzzle in found:
        assert_holds_deeper(puzzle)


def test_shipped_morelli_solutions_hold_at_a_deeper_search() -> None:
    for puzzle in shipped_set("morelli-9")[:8]:
        assert_holds_deeper(puzzle)


def test_generation_is_the_same_on_a_process_pool(tmp_path: Path) -> None:
    one, two = tmp_path / "one.jsonl", tmp_path / "two.jsonl"
    assert main(["puzzles", "felli", "--count", "5", "--seed", "4", "--out", str(one)]) == 0
    args = ["puzzles", "felli", "--count", "5", "--seed", "4", "--jobs", "2", "--out", str(two)]
    assert main(args) == 0
    assert one.read_text() == two.read_text() and len(one.read_text().splitlines()) == 5
    assert main(["puzzles", "check", str(one)]) == 0


def test_add_keeps_a_compressed_files_puzzles_and_adds_only_new_ones(tmp_path: Path) -> None:
    """``--add`` to an xz file: its puzzles first, in their order, then the new ones, none
    twice (seed 4's five puzzles are among the eight of the same seed)."""
    out = tmp_path / "set.jsonl.xz"
    first = puzzles.generate("felli", 5, seed=4)
    assert puzzles.write(first, out) == 5 and out.read_bytes().startswith(b"\xfd7zXZ")
    more = puzzles.generate("felli", 8, seed=4) + puzzles.generate("felli", 3, seed=5)
    args = ["puzzles", "felli", "--count", "3", "--seed", "5", "--add", "--out", str(out)]
    assert main(args) == 0
    args = ["puzzles", "felli", "--count", "8", "--seed", "4", "--add", "--out", str(out)]
    assert main(args) == 0
    held = [p for _, p in puzzles.read(out)]
    assert [p.id for p in held[:5]] == [p.id for p in first]
    assert len(held) == len({p.id for p in held}) == len({p.id for p in more}) == 11
    assert main(["puzzles", "check", str(out)]) == 0


#: Puzzles of the shipped sets, their theme and difficulty worked out by hand (the comments say
#: how; the difficulty formula is the module's: 800 + 200·moves + 80·tempting + 200·quiet +
#: 10·min(alternatives, 30)): ``find`` must find each from its position alone.  Felli's points
#: by rank, north first: ``a5 c5 e5 / b4 c4 d4 / c3 / b2 c2 d2 / a1 c1 e1``; the 16-point
#: board's ``a5 c5 e5 / b4 c4 d4 / a3 b3 d3 e3 / b2 c2 d2 / a1 c1 e1``; the 24-point board's
#: rank 7 to rank 1 (``a4 b4 c4 e4 f4 g4`` in the middle).
HAND_LABELLED = [
    # White c1 e1, Black c3; White has three moves (c1-a1, c1-c2, e1-d2: nothing to leap).
    # c1-c2 gives a man away (c3xc1 is forced), then e1xa1 takes Black's last man: two moves,
    # no other capture at either (forced capture leaves e1xa1 alone), a quiet first move, two
    # alternatives: 800 + 400 + 0 + 200 + 20.  Quiet, answered by a capture: a sacrifice.
    ("felli-mullah", 3, ".../.../b/.../.ww w 0 16", ["c1-c2", "c3xc1", "e1xa1"], "sacrifice", 1420),
    # Black a5 c5 e1, White c4 d2; Black's moves: a5-b4, c5-e5, c5xc3 (over c4), e1-c1, e1xc3
    # (over d2).  c5xc3 wins at once: one move, one other capture (e1xc3) tempting, a
    # capture first, four alternatives: 800 + 200 + 80 + 0 + 40.  One leap: a capture.
    ("felli", None, "bb./.w././..w/..b b 4 27", ["c5xc3"], "capture", 1120),
    # Black a5 c5 d4, White a1 c1 e1, nobody next to an enemy: Black's six steps (a5-b4,
    # c5-c4, c5-e5, d4-c3, d4-c4, d4-e5) capture nothing; then c3xc1 (its only capture) and
    # c1-a1 (none: the empty a1 is behind no White man).  Three moves, nothing tempting, a quiet
    # first move, five alternatives: 800 + 600 + 0 + 200 + 50.  No capture at the first two
    # moves and a quiet reply: a quiet move.
    (
        "felli",
        None,
        "bb./..b/./.../www b 2 11",
        ["d4-c3", "c1-c2", "c3xc1", "a1-b2", "c1-a1"],
        "quiet move",
        1650,
    ),
    # Placing: White c1 e1 e3 (three in hand), Black a5 c5 a1 (none in a mill).  Nine empty
    # points; e5 closes e1-e3-e5 and takes any of Black's three men: 8 + 3 = 12 moves.  One
    # move, two other mills tempting (e5xa5, e5xc5), a mill first, eleven alternatives:
    # 800 + 200 + 160 + 0 + 110.  A mill.
    ("morris-6", None, "BB./.../...W/.../BWW w 3 3 0 6", ["e5xa1"], "mill", 1270),
    # White g7 g4 g1 (a mill), Black a7 b6 a1: White flies, 3 men x 18 empty points = 54 moves,
    # none closing a mill (no other line holds two White men).  g4-a4 opens the mill: one move,
    # nothing tempting, a quiet first move, 53 alternatives counted as 30:
    # 800 + 200 + 0 + 200 + 300.  A quiet flight threatening one point (g4): flying.  (Three a
    # side: the three-men table judges it, as the four-men one does, at a sixth of the cost.)
    ("morris", 3, "B.W/.B./.../.....W/.../.../B.W w 0 0 1 72", ["g4-a4"], "flying", 1500),
]


@pytest.mark.parametrize(
    ("rules", "men", "position", "line", "theme", "rated"),
    HAND_LABELLED,
    ids=[f"{case[0]}:{case[4]}" for case in HAND_LABELLED],
)
def test_theme_and_difficulty_are_the_hand_labelled_ones(
    rules: str, men: int | None, position: str, line: list[str], theme: str, rated: int
) -> None:
    game = ludoteca.load(rules)
    puzzle = puzzles.find(game.from_position_code(position), puzzles.judge_for(game, men))
    assert puzzle is not None
    assert (list(puzzle.line), puzzle.theme, puzzle.difficulty) == (line, theme, rated)


def test_themes_name_the_games_tactics() -> None:
    morris = ludoteca.load("morris")
    # White flies b2-... : two men on a7 d7, g7 empty: closing a mill
    state = morris.from_position_code("WW./.../.../B....B/.../.../W.B w 0 0 0 60")
    mill = state.parse_move("a1-g7xa4").code
    assert morris.puzzle_theme(state, [mill]) == "mill"
    # f4-f2 leaves two mills one step away: b4-b2 (b2 d2 f2) and d2-d1 (a1 d1 g1); in One-Time
    # Mill White closed a1-d1-g1 before, so d2-d1 would take nothing: one threat only
    board = "BB./B../.../.W.BW./.../.W./W.W w 0 0 "
    for rules, used, theme in [
        ("morris", "", "double threat"),
        ("one-time-mill", "a1d1g1/- ", "quiet move"),
    ]:
        game = ludoteca.load(rules)
        state = game.from_position_code(f"{board}{used}0 40")
        assert game.puzzle_theme(state, [state.parse_move("f4-f2").code]) == theme
    felli = ludoteca.load("felli:multi_capture")  # a1 leaps over b2 to c3, over c4 to c5
    state = felli.from_position_code("..b/.b././b../w.. w 0 20")
    chain = state.parse_move("a1xc3xc5").code
    assert felli.puzzle_theme(state, [chain]) == "capture chain"
    step = state.parse_move("a1-c1").code
    assert felli.puzzle_theme(state, [step]) == "quiet move"
    morelli = ludoteca.load("morelli-9")
    state = morelli.new(seed=1)
    quiet = next(c for c in state.legal_codes() if not state.conversions(c))
    assert morelli.puzzle_theme(state, [quiet]) == "quiet move"


def test_shipped_sets_exist_for_each_game() -> None:
    names = {p.name.removesuffix(puzzles.SUFFIX) for p in puzzles.shipped()}
    assert {rules for rules, _ in TABLED} | {"morelli-9", "morelli-11", "morelli"} <= names
    for rules in names:
        found = shipped_set(rules)
        assert len({p.id for p in found}) == len(found), rules
        tabled = any(rules == name for name, _ in TABLED)
        assert len(found) >= (AT_LEAST_TABLED if tabled else AT_LEAST_SEARCHED), rules


#: how many puzzles of a shipped set :func:`test_shipped_sets_pass_check` gives to ``puzzles
#: check``, spread over the set: of one with a table (which holds a sample of the set to its
#: line, above), and of one judged by the search (about 0.05 s of a core a Morelli 9x9 puzzle,
#: 0.1 s an 11x11 one, 0.18 s a 13x13 one)
CHECKED_OF_TABLED, CHECKED_OF_SEARCHED = 6, 36


@pytest.mark.parametrize("name", [p.name for p in puzzles.shipped()])
def test_shipped_sets_pass_check(name: str, tmp_path: Path) -> None:
    """``ludoteca puzzles check`` passes a sample of each shipped set (the whole sets: see the
    module's docstring)."""
    found = [
        puzzle for _, puzzle in puzzles.read(next(p for p in puzzles.shipped() if p.name == name))
    ]
    tabled = any(f"{rules}{puzzles.SUFFIX}" == name for rules, _ in TABLED)
    sample = spread(found, CHECKED_OF_TABLED if tabled else CHECKED_OF_SEARCHED)
    path = tmp_path / name
    puzzles.write(sample, path)
    good, bad = puzzles.check(path)
    assert bad is None
    assert good == len(sample)


def test_bad_puzzle_files_get_a_clear_error(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    good = puzzles.generate("felli", 2, seed=6)
    path = tmp_path / "bad.jsonl"

    def fails(lines: list[str], message: str) -> None:
        path.write_text("\n".join(lines) + "\n")
        assert main(["puzzles", "check", str(path)]) == 2
        err = capsys.readouterr().err
        assert err.startswith("error: ") and message in err and err.count("\n") == 1, err

    first = puzzles.dumps(good[0])
    fails([first, "{not json"], f"{path}:2: not JSON")
    broken = good[1].as_json()
    del broken["line"]
    fails([first, json.dumps(broken)], f"{path}:2: a puzzle needs the field 'line'")
    fails([json.dumps({**good[0].as_json(), "difficulty": "hard"})], "'difficulty' must be")
    state = ludoteca.load("felli").from_position_code(good[0].position)
    wrong = next(str(m) for m in state.legal_moves if str(m) != good[0].line[0])
    fails(
        [first, json.dumps({**good[1].as_json(), "line": ["a1-b9"]})],
        f"{path}:2: puzzle {good[1].id}:",
    )
    fails(
        [json.dumps({**good[0].as_json(), "line": [wrong]})],
        f"is not the unique winning move (the judge: {good[0].line[0]})",
    )
    fails([json.dumps({**good[0].as_json(), "id": "0" * 16})], "its id is not the hash")
    fails([""], "no puzzle found")
    assert main(["puzzles", "felli"]) == 2
    assert "--count" in capsys.readouterr().err


def test_a_start_with_one_legal_move_is_no_puzzle() -> None:
    """Felli's captures are compulsory: here White's only legal move is c3xc5, and it wins."""
    forced = puzzles.Puzzle.from_json(
        {
            "id": puzzles.puzzle_id("felli-mullah", "b.b/.b./w/..w/..w w 1 12"),
            "game": "felli",
            "rules": "felli-mullah",
            "position": "b.b/.b./w/..w/..w w 1 12",
            "line": ["c3xc5", "a5-b4", "c5-a5"],
            "theme": "capture",
            "difficulty": 1200,
            "verification": {
                "method": "table",
                "table": "felli-mullah-forced_capture=true-multi_capture=true-3",
                "men": 3,
                "value": 1,
                "plies": 13,
            },
        }
    )
    game = ludoteca.load(forced.rules)
    state = game.from_position_code(forced.position)
    assert [str(state.move_of(c)) for c in state.legal_codes()] == ["c3xc5"]
    assert puzzles.find(state, puzzles.judge_for(game, 3)) is None
    assert puzzles.verify(forced) == "its start has one legal move: nothing to find"


def test_a_table_not_built_is_not_built_when_asked_not_to() -> None:
    mullah = ludoteca.load("felli-mullah")  # the whole table: minutes to build
    solver = mullah.solver()
    assert solver is not None and not solver.ready()
    judge = puzzles.judge_for(mullah, build=False, depth=3)
    assert isinstance(judge, puzzles.SearchJudge) and judge.depths == (3, 4)
    assert not solver.ready()
    assert isinstance(puzzles.judge_for(ludoteca.load("felli")), puzzles.TableJudge)
