"""The rules lessons (ludoteca.lessons, each game's lessons in ludoteca/games): every step of
every lesson has a legal position, at least one move that does what it asks and one that does
not (refused with the step's sentence), and its answers agree with the plain reference engines
of checks/, which share no code with the games; each step of the lessons of the mill rule sets
other than Nine Men's Morris also judges a move read off its board by hand, right and wrong."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import Any

import pytest
from fastapi.testclient import TestClient

import ludoteca
from checks import felli_reference, morelli_reference, morris_reference
from ludoteca.core import IllegalMoveError, InvalidMoveError, State
from ludoteca.games.morris.rules import MorrisState
from ludoteca.lessons import Lesson, Step, Verdict, answers, check
from ludoteca.server import Settings, create_app

GAMES = ("morris", "felli", "morelli")
STEPS = [
    pytest.param(game, lesson, i, step, id=f"{game}-{lesson.key}-{i}")
    for game in GAMES
    for lesson in ludoteca.load(game).lessons()
    for i, step in enumerate(lesson.steps)
]


def position(lesson: Lesson, step: Step) -> State:
    return ludoteca.load(lesson.rules).from_position_code(step.position)


def test_every_game_teaches_what_the_issue_asks() -> None:
    keys = {game: [lesson.key for lesson in ludoteca.load(game).lessons()] for game in GAMES}
    assert keys == {
        "morris": [
            "placing",
            "removal",
            "moving",
            "flying",
            "diagonals",
            "lasker",
            "marked",
            "each-mill",
            "hand",
            "mill-counts",
            "one-time",
        ],
        "felli": ["steps", "chains", "mullahs"],
        "morelli": ["bands", "flanking", "throne"],
    }


@pytest.mark.parametrize(("game", "lesson", "number", "step"), STEPS)
def test_a_step_has_a_legal_position_a_right_move_and_a_wrong_one(
    game: str, lesson: Lesson, number: int, step: Step
) -> None:
    state = position(lesson, step)
    assert state.position_code() == step.position  # read back as written: a legal position
    assert state.outcome() is None
    right = answers(state, step)
    wrong = [code for code in state.legal_codes() if code not in right]
    assert right and wrong
    before = state.position_code()
    for code in right:
        verdict = check(state, step, str(state.move_of(code)))
        assert verdict.right and verdict.sentence == step.explain
    for code in wrong:
        verdict = check(state, step, str(state.move_of(code)))
        assert not verdict.right and verdict.sentence == f"{step.wrong} {step.hint}"
    assert state.position_code() == before  # the checks left the position as it was


@pytest.mark.parametrize(("game", "lesson", "number", "step"), STEPS[:3])
def test_an_illegal_or_unreadable_move_is_refused_with_the_reason(
    game: str, lesson: Lesson, number: int, step: Step
) -> None:
    state = position(lesson, step)
    with pytest.raises(InvalidMoveError):
        check(state, step, "zz99")
    occupied = next(i for i, token in enumerate(state.pieces()) if token)
    with pytest.raises(IllegalMoveError):
        check(state, step, state.game.board.points[occupied])  # a placement on a man


#: for each step of the lessons of rules other than Nine Men's Morris's, a move read off its
#: board by hand that does what it asks and a legal one that does not
HAND_CHECKED = {
    ("diagonals", 0): ("a1xd6", "e4xd6"),  # a1 b2 c3 is a diagonal; e4 f4 g4 is not
    ("diagonals", 1): ("b2-a1xg7", "e5-e4xg7"),  # b2-a1 runs along a diagonal; e5-e4 does not
    ("lasker", 0): ("d7-a7xb4", "a7xb4"),  # the same mill closed by placing keeps no man in hand
    ("marked", 0): ("d1xg7", "b2"),  # a7 is marked, so a1 a4 a7 cannot close; a1 d1 g1 can
    ("each-mill", 0): ("a1xg1", "e4xg1"),  # a1 fills a1 a4 a7 and a1 b2 c3; e4 only e4 f4 g4
    ("each-mill", 1): ("xd6", "xg1"),  # d5 d6 with d7 empty threatens; g1 stands alone
    ("hand", 0): ("a7", "d1"),  # a1 a4 a7 closes, Black holds 8 in hand; d1 closes nothing
    ("hand", 1): ("a7xg4", "a7xb2"),  # Black's g1 g4 with g7 empty; b2's lines are blocked
    ("mill-counts", 0): ("a7", "d1"),  # a1 a4 a7 fills a mill (written without a removal)
    ("one-time", 0): ("d7-g7xc5", "d7-a7"),  # g1 g4 g7 is new; a1 a4 a7 has taken its man
}


@pytest.mark.parametrize(("key", "number"), sorted(HAND_CHECKED))
def test_the_rule_lessons_judge_moves_checked_by_hand(key: str, number: int) -> None:
    lesson = next(ls for ls in ludoteca.load("morris").lessons() if ls.key == key)
    assert lesson.rules != "morris"  # each is set in a rule set that has its rule
    step = lesson.steps[number]
    state = position(lesson, step)
    right, wrong = HAND_CHECKED[key, number]
    assert check(state, step, right) == Verdict(True, step.explain)
    assert check(state, step, wrong) == Verdict(False, f"{step.wrong} {step.hint}")


def test_every_step_of_the_rule_lessons_is_checked_by_hand() -> None:
    taught = {
        (lesson.key, number)
        for lesson in ludoteca.load("morris").lessons()
        if lesson.rules != "morris"
        for number in range(len(lesson.steps))
    }
    assert taught == set(HAND_CHECKED)


def test_a_double_mill_leaves_the_second_removal_to_a_turn_of_its_own() -> None:
    """Da San Qi's lesson: its second step is the position its first step's answer a1xd2
    leaves (d2 marked, one removal due, White still to move)."""
    first, second = next(
        ls for ls in ludoteca.load("morris").lessons() if ls.key == "each-mill"
    ).steps
    state = ludoteca.load("da-san-qi").from_position_code(first.position)
    state.push("a1xd2")
    assert state.position_code() == second.position


# --- the reference engines' view: each step's legal moves, and the moves that do what it asks,
# --- read off the reference's positions before and after each move


def morris_view(state: State) -> tuple[set[str], Callable[[str], bool]]:
    assert isinstance(state, MorrisState)
    tokens = {"w": "W", "b": "B"}
    names = state.game.board.points
    occupant = {names[i]: tokens[t] for i, t in enumerate(state.pieces()) if t}
    occupant |= {
        names[p]: morris_reference.MARK for p in range(len(names)) if state.marked >> p & 1
    }
    hand = state.in_hand()
    assert hand is not None
    pos = morris_reference.Position(
        str(state.rules),
        occupant,
        {"W": hand[0], "B": hand[1]},
        "W" if state.turn.name == "WHITE" else "B",
        used={
            colour: frozenset(names[p] for p in range(len(names)) if used >> p & 1)
            for colour, used in zip("WB", state.used, strict=True)
        },
        due=dict(zip("WB", state.due, strict=True)),
        closing=state.closing,
    )
    board = pos.rules.board
    mover, enemy = pos.turn, "B" if pos.turn == "W" else "W"

    def lines_of_two(occupant: dict[str, str], colour: str, point: str) -> list[list[str]]:
        found = []
        for line in morris_reference.LINES[board]:
            points = line.split()
            owners = [occupant.get(p) for p in points]
            if point in points and owners.count(colour) == 2 and owners.count(None) == 1:
                found.append(points)
        return found

    def diagonal(points: list[str] | set[str]) -> bool:  # no two on one file or rank
        return len({p[0] for p in points}) == len({p[1:] for p in points}) == len(points)

    def does(move: str) -> bool:
        after = morris_reference.play(pos, move)
        body, _, taken = move.partition("x")
        src, _, dst = body.rpartition("-")
        removed = bool(taken)
        flew = bool(src) and dst not in morris_reference.neighbours(board, src)
        mills = morris_reference.mills_closed(board, after.occupant, dst) if dst else []
        return {
            "placing-0": not src and bool(lines_of_two(after.occupant, mover, dst)),
            "placing-1": removed,
            "removal-0": removed and bool(lines_of_two(pos.occupant, enemy, taken)),
            "moving-0": removed and bool(src),
            "flying-0": removed and flew,
            "diagonals-0": removed and any(diagonal(mill) for mill in mills),
            "diagonals-1": removed and bool(src) and diagonal([src, dst]),
            "lasker-0": removed and bool(src),
            "marked-0": removed,
            "each-mill-0": removed and len(mills) >= 2,
            "each-mill-1": removed and bool(lines_of_two(pos.occupant, enemy, taken)),
            "hand-0": after.hand[enemy] < pos.hand[enemy],
            "hand-1": removed and bool(lines_of_two(pos.occupant, enemy, taken)),
            "mill-counts-0": bool(mills),
            "one-time-0": removed,
        }[current]

    return set(morris_reference.legal(pos)), does


def felli_view(state: State) -> tuple[set[str], Callable[[str], bool]]:
    board = dict(zip(state.game.board.points, state.pieces(), strict=True))
    side = "w" if state.turn.name == "WHITE" else "b"
    mullahs = bool(state.rules["mullah"])

    def does(move: str) -> bool:
        after = felli_reference.play(board, move, mullahs)
        path = move.replace("-", "x").split("x")
        taken = sum(1 for p in board if board[p].lower() not in ("", side) and not after[p])
        rank = int(path[-1][1]) - int(path[0][1])
        return {
            "steps-0": not taken and rank > 0,
            "steps-1": taken >= 1,
            "chains-0": taken >= 2,
            "mullahs-0": board[path[0]] == side and after[path[-1]] == side.upper(),
            "mullahs-1": taken >= 1 and board[path[0]] == side.upper(),
        }[current]

    forced, multi = bool(state.rules["forced_capture"]), bool(state.rules["multi_capture"])
    return felli_reference.legal(board, side, forced, multi), does


def morelli_view(state: State) -> tuple[set[str], Callable[[str], bool]]:
    n = int(state.game.board.points[-1][1:])
    names = state.game.board.points
    board = {}
    king = None
    for i, token in enumerate(state.pieces()):
        if token.startswith("k"):
            king = token[1].upper()
        elif token:
            board[(i % n, i // n)] = token.upper()
    colour = "B" if state.turn.name == "BLACK" else "W"

    def square(xy: tuple[int, int]) -> str:
        return names[xy[1] * n + xy[0]]

    def does(move: str) -> bool:
        src, dst = (names.index(part) for part in move.split("-"))
        step = ((src % n, src // n), (dst % n, dst // n))
        after, crowned = morelli_reference.play(board, step, king)
        (x0, y0), (x1, y1) = step
        return {
            "bands-0": morelli_reference.band(x1, y1) == 1,
            "bands-1": x0 != x1 and y0 != y1,
            "flanking-0": any(after.get(xy, stone) != stone for xy, stone in board.items()),
            "throne-0": crowned == colour and king != colour,
            "throne-1": crowned == colour and king != colour,
        }[current]

    moves = {f"{square(a)}-{square(b)}" for a, b in morelli_reference.legal(board, colour, king)}
    return moves, does


VIEWS: dict[str, Callable[[State], tuple[set[str], Callable[[str], bool]]]] = {
    "morris": morris_view,
    "felli": felli_view,
    "morelli": morelli_view,
}
current = ""


@pytest.fixture
def reference_board(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """The Morelli reference on the lessons' 9x9 board."""
    monkeypatch.setattr(morelli_reference, "N", 9)
    monkeypatch.setattr(morelli_reference, "C", 4)
    yield


@pytest.mark.usefixtures("reference_board")
@pytest.mark.parametrize(("game", "lesson", "number", "step"), STEPS)
def test_the_checker_agrees_with_the_reference_engine(
    game: str, lesson: Lesson, number: int, step: Step
) -> None:
    global current
    current = f"{lesson.key}-{number}"
    state = position(lesson, step)
    legal, does = VIEWS[game](state)
    assert {str(state.move_of(code)) for code in state.legal_codes()} == legal
    right = {str(state.move_of(code)) for code in answers(state, step)}
    assert right == {move for move in legal if does(move)}


# --- the API ------------------------------------------------------------------------------------


@pytest.fixture
def client(tmp_path: Any) -> Iterator[TestClient]:
    settings = Settings(db=f"sqlite+aiosqlite:///{tmp_path / 'lessons.db'}", workers=1, warm=False)
    with TestClient(create_app(settings)) as test_client:
        yield test_client


def test_the_api_lists_serves_and_checks_lessons(client: TestClient) -> None:
    listed = client.get("/api/lessons").json()
    assert [entry["game"] for entry in listed] == list(GAMES)
    felli = ludoteca.load("felli").lessons()
    assert [ls["steps"] for ls in listed[1]["lessons"]] == [len(ls.steps) for ls in felli]
    lesson = client.get("/api/lessons/felli/chains").json()
    step = felli[1].steps[0]
    assert lesson["steps"][0]["ask"] == step.ask
    assert lesson["steps"][0]["position"]["code"] == step.position
    assert len(lesson["steps"][0]["position"]["legal"]) == 2  # the chain, and a single leap
    right = client.post("/api/lessons/felli/chains/0", json={"move": "a1xc3xc5"}).json()
    assert right["right"] and right["sentence"] == step.explain
    assert right["after"]["pieces"].count("b") == 1  # two of the three black men taken
    wrong = client.post("/api/lessons/felli/chains/0", json={"move": "d4xb4"}).json()
    assert not wrong["right"] and wrong["sentence"].startswith(step.wrong)
    illegal = client.post("/api/lessons/felli/chains/0", json={"move": "a1-c1"})
    assert illegal.status_code == 400 and "compulsory" in illegal.json()["error"]
    assert client.post("/api/lessons/felli/chains/7", json={"move": "a1xc3xc5"}).status_code == 404
    assert client.get("/api/lessons/felli/nothing").status_code == 404
    assert client.get("/api/lessons/nogame/steps").status_code == 404
    assert client.get("/lessons").status_code == 200


def test_the_api_names_the_rule_set_of_each_lesson(client: TestClient) -> None:
    morris = client.get("/api/lessons").json()[0]
    assert morris["game"] == "morris"
    titles = {entry["key"]: (entry["rules"], entry["rules_title"]) for entry in morris["lessons"]}
    assert titles["placing"] == ("morris", "Nine Men's Morris")
    assert titles["diagonals"] == ("morris-12", "Twelve Men's Morris")
    assert titles["each-mill"] == ("da-san-qi", "Da San Qi")
    assert titles["one-time"] == ("one-time-mill", "One-Time Mill")
    lesson = client.get("/api/lessons/morris/each-mill").json()
    assert (lesson["rules"], lesson["rules_title"]) == ("da-san-qi", "Da San Qi")
    removals = lesson["steps"][1]["position"]["legal"]
    assert len(removals) == 5  # a removal alone of each black man: Da San Qi takes any man
    right = client.post("/api/lessons/morris/each-mill/1", json={"move": "xd6"}).json()
    assert right["right"] and right["after"]["turn"] == "black"
    wrong = client.post("/api/lessons/morris/each-mill/1", json={"move": "xg1"}).json()
    assert not wrong["right"]
    placing = client.post("/api/lessons/morris/each-mill/1", json={"move": "d1"})
    assert placing.status_code == 400 and "must first remove" in placing.json()["error"]
