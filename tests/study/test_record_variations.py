"""Records with variations, marks, comments and shapes on any move: the text and JSON forms
round trip random trees of legal moves, and a bad record names the variations that lead to its
fault."""

from __future__ import annotations

import random
import re
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import ludoteca
from ludoteca import InvalidRecordError, record
from ludoteca.cli import main
from ludoteca.games import game_names
from ludoteca.gametree import BRUSHES, MARKS, GameTree, Node, Shape

HEAD = '[Game "morris"]\n[Rules "morris"]\n[Result "*"]\n\n'
SAMPLE = (
    HEAD + "{start} 1. a1 b6! (1... b4 {other} 2. d1 (2. g1!?) 2... d2) (1... b2) 2. d1\n"
    "{threatens g1} d6? 3. g1xb6 {first mill} *\n"
)
COMMENTS = ["", "", "", "a note", "mill (x) 1. !? $1 *"]


def test_a_tree_reads_and_writes_back() -> None:
    game = record.loads(SAMPLE)
    assert game.moves == ["a1", "b6", "d1", "d6", "g1xb6"]
    assert game.comments == {0: "start", 3: "threatens g1", 5: "first mill"}
    main_line = game.tree.main_line()
    assert [n.mark for n in main_line] == ["", "!", "", "?", ""]
    b4, b2 = main_line[0].children[1:]
    assert (b4.move, b4.comment, b2.move) == ("b4", "other", "b2")
    assert [(n.move, n.mark) for n in b4.children] == [("d1", ""), ("g1", "!?")]
    assert [n.move for n in b4.children[0].children] == ["d2"]
    assert record.dumps(game) == SAMPLE
    again = record.from_json(record.to_json(game))
    assert again.tree == game.tree and record.dumps(again) == SAMPLE


def test_marks_numeric_glyphs_and_comments_opening_a_variation() -> None:
    game = record.loads(HEAD + "1. a1 $1 b6 ?? (1... {instead} b4 $6) 2. d1 !? *")
    main_line = game.tree.main_line()
    assert [n.mark for n in main_line] == ["!", "??", "!?"]
    variation = main_line[0].children[1]
    assert (variation.move, variation.mark, variation.before) == ("b4", "?!", "instead")
    assert record.dumps(game).endswith("1. a1! b6?? ({instead} 1... b4?!) 2. d1!? *\n")


def test_shapes_read_from_comments_and_written_back() -> None:
    game = record.loads(
        HEAD + "{[%csl Ga1] start} 1. a1 {[%cal Ra1-d1,Bd1-g1] see [%csl Yd2]} b6 "
        "(1... {[%csl Gb4]} b4) *"
    )
    assert game.tree.shapes == [Shape("green", "a1")] and game.tree.comment == "start"
    first = game.tree.main_line()[0]
    assert first.shapes == [
        Shape("red", "a1", "d1"),
        Shape("blue", "d1", "g1"),
        Shape("yellow", "d2"),
    ]
    assert first.comment == "see"
    assert first.children[1].before == "[%csl Gb4]"  # (a variation's opening comment: text)
    assert record.dumps(game).endswith(
        "{[%csl Ga1] start} 1. a1 {[%cal Ra1-d1,Bd1-g1] [%csl Yd2] see} b6 ({[%csl Gb4]}\n"
        "1... b4) *\n"
    )
    data = record.to_json(game)["tree"]
    assert data["shapes"] == [{"brush": "green", "orig": "a1"}]
    assert data["moves"][0]["shapes"][0] == {"brush": "red", "orig": "a1", "dest": "d1"}
    assert record.from_json(record.to_json(game)).tree == game.tree
    assert Shape("red", "a1", "a1") == Shape("red", "a1")  # an arrow to itself circles


@pytest.mark.parametrize(
    ("movetext", "reason"),
    [
        ("1. a1 {[%csl Gz9]} *", "line 5: a shape on z9, which is not a point of this board"),
        ("1. a1 {[%cal Ga1-a9]} *", "a shape on a9, which is not"),
        ("1. a1 {[%csl Xa1]} *", "line 5: malformed drawing 'Xa1'"),
        ("1. a1 {[%cal Ga1]} *", "malformed drawing 'Ga1'"),
        (
            "1. a1 b6 (1... b4 {[%csl Gq1]}) *",
            "line 5: in the variation replacing 1... b6: a shape",
        ),
    ],
)
def test_bad_shapes(movetext: str, reason: str) -> None:
    with pytest.raises(InvalidRecordError, match=re.escape(reason)):
        record.loads(HEAD + movetext)


def test_a_record_without_variations_has_a_json_without_a_tree() -> None:
    data = record.to_json(record.loads(HEAD + "1. a1 {c} b6 *"))
    assert set(data) == {"tags", "moves", "comments", "position"}


@pytest.mark.parametrize(
    ("movetext", "reason"),
    [
        ("(1. a1) *", "line 5: a variation before any move"),
        ("1. a1 ((1. d1)) *", "a variation before any move"),
        ("1. a1 ) *", "a parenthesis closes no variation"),
        ("1. a1\n(1. b2 (1. d1)\n", "line 6: a variation is not closed"),
        ("1. a1 () *", "an empty variation"),
        ("1. a1 (1. d1 1-0) *", "a result inside a variation"),
        ("1. a1 $9 *", "unknown move mark \\$9"),
        ("1. a1!!! *", "unknown move mark !!!"),
        ("$1 1. a1 *", "a mark ! before any move"),
        ("1. a1! ? *", "a1 has two marks"),
        (
            "1. a1 b6 (1... b4 2. d1 (2. b4)) *",
            r"in the variation replacing 1\.\.\. b6, then in the one replacing 2\. d1: "
            r"ply 3 \(b4\).*occupied",
        ),
        ("1. a1 b6 2. d1 (2. g1 a1) *", r"replacing 2\. d1: ply 4 \(a1\).*occupied"),
    ],
)
def test_bad_variations(movetext: str, reason: str) -> None:
    with pytest.raises(InvalidRecordError, match=reason):
        record.loads(HEAD + movetext)


@pytest.mark.parametrize(
    "data",
    [
        {"moves": [{"move": "a1", "variations": [{"moves": []}]}]},
        {"moves": [{"move": "a1 b6"}]},
        {"moves": [{"move": "a1", "mark": "!!!"}]},
        {"moves": "a1"},
        {"comment": 3, "moves": []},
        {"moves": [{"move": "a1", "shapes": [{"brush": "pink", "orig": "a1"}]}]},
        {"moves": [{"move": "a1", "shapes": [{"brush": "red", "orig": "a 1"}]}]},
        {"moves": [{"move": "a1", "shapes": {"brush": "red"}}]},
        {"moves": [{"move": "a1", "variations": [{"moves": [{"move": "b6"}], "shapes": [{}]}]}]},
    ],
)
def test_malformed_json_trees(data: object) -> None:
    with pytest.raises(InvalidRecordError, match="malformed JSON record"):
        record.from_json({"tags": {"Game": "morris"}, "tree": data})


def test_record_check_names_the_path(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    bad = tmp_path / "bad.txt"
    bad.write_text(SAMPLE + "\n" + HEAD + "1. a1 b6 (1... b4 2. d1 (2. b4)) *\n")
    assert main(["record", "check", str(bad)]) == 2
    err = capsys.readouterr().err
    assert re.search(
        r"game 2, line 12: in the variation replacing 1\.\.\. b6, then in the one replacing "
        r"2\. d1: ply 3 \(b4\)",
        err,
    )


def random_shapes(state: ludoteca.State, rng: random.Random) -> list[Shape]:
    """Up to three shapes on the board of ``state`` (most often none): arrows and circled
    points in random brushes."""
    points = state.game.board.points
    return [
        Shape(rng.choice(BRUSHES), rng.choice(points), rng.choice(["", *points]))
        for _ in range(rng.choice([0, 0, 1, 3]))
    ]


def random_children(
    state: ludoteca.State, rng: random.Random, plies: int, depth: int
) -> list[Node]:
    """The children of ``state`` (left as it was) in a random tree: a line of up to ``plies``
    legal moves, its first move with up to two variations when ``depth`` allows (nested up to
    it), every move with a random mark and comments."""
    codes = state.legal_codes()
    if plies <= 0 or not codes:
        return []
    children: list[Node] = []
    for index in range(1 + (rng.randrange(3) if depth else 0)):
        code = rng.choice(codes)
        node = Node(str(state.move_of(code)), rng.choice(["", "", *MARKS]), rng.choice(COMMENTS))
        node.before = rng.choice(COMMENTS) if index else ""
        node.shapes = random_shapes(state, rng)
        state.push_code(code)
        length = plies - 1 if index == 0 else rng.randrange(plies)
        node.children = random_children(state, rng, length, depth - (index > 0))
        state.pop_code()
        children.append(node)
    return children


def random_record(name: str, seed: int) -> record.GameRecord:
    """A record of a random tree from a random position of game ``name``."""
    rng = random.Random(seed)
    state = ludoteca.new_game(name, seed=seed)
    for _ in range(rng.randrange(6)):
        if state.legal_codes():
            state.push_code(rng.choice(state.legal_codes()))
    start = state.game.from_position_code(state.position_code())
    tree = GameTree(
        rng.choice(COMMENTS),
        random_children(start, rng, rng.randrange(30), 3),
        random_shapes(start, rng),
    )
    end = start.copy()
    for node in tree.main_line():
        end.push(node.move)
    game = record.from_state(end, date="2026.01.01")
    game.tree = tree
    return game


@pytest.mark.parametrize("name", game_names())
@settings(max_examples=30, deadline=None)
@given(seed=st.integers(0, 2**32 - 1))
def test_random_trees_round_trip(name: str, seed: int) -> None:
    game = random_record(name, seed)
    text = record.dumps(game)
    again = record.loads(text)
    assert again.tree == game.tree
    assert record.dumps(again) == text
    assert record.from_json(record.to_json(game)).tree == game.tree


def labelled(tree: GameTree, ply: int) -> list[tuple[Node, int, str]]:
    """Every node with its ply (plies before it) and the path of variations to it."""
    found: list[tuple[Node, int, str]] = []
    pending = [(tree.children, ply, "")]
    while pending:
        children, at, path = pending.pop()
        for index, node in enumerate(children):
            inner = path
            if index:
                replaced = f"{at // 2 + 1}{'.' if at % 2 == 0 else '...'} {children[0].move}"
                inner = (
                    f"{path}, then in the one replacing {replaced}"
                    if path
                    else f"in the variation replacing {replaced}"
                )
            found.append((node, at, inner))
            pending.append((node.children, at + 1, inner))
    return found


@pytest.mark.parametrize("name", game_names())
@settings(max_examples=30, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), pick=st.randoms(use_true_random=False))
def test_a_bad_move_deep_in_a_variation_is_named_with_its_path(
    name: str, seed: int, pick: random.Random
) -> None:
    game = random_record(name, seed)
    inside = [entry for entry in labelled(game.tree, game.start().ply) if entry[2]]
    if not inside:
        return
    node, ply, path = pick.choice(inside)
    node.move = "z0"
    with pytest.raises(InvalidRecordError) as caught:
        record.loads(record.dumps(game))
    assert f": {path}: ply {ply + 1} (z0): " in str(caught.value)


@pytest.mark.parametrize("name", game_names())
@settings(max_examples=30, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), pick=st.randoms(use_true_random=False))
def test_unbalanced_parentheses_are_refused(name: str, seed: int, pick: random.Random) -> None:
    text = record.dumps(random_record(name, seed))
    parens = [m.start() for m in re.finditer(r"\{[^}]*\}|[()]", text) if m.group() in "()"]
    if not parens:
        return
    at = pick.choice(parens)
    with pytest.raises(InvalidRecordError):
        record.loads(text[:at] + text[at + 1 :])
    with pytest.raises(InvalidRecordError, match="a variation before any move"):
        record.loads(text.replace("\n\n", "\n\n(1. z0) ", 1))
