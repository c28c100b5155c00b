"""The blind mode in a real browser (issue 58), by keyboard alone and by ear: everything the
tests read is read from Chromium's accessibility tree (Playwright's ARIA snapshot of the log
the mode reads out), as a screen reader would, never from the page's text.  A whole Nine
Men's Morris game against the computer's first level, each move chosen among the legal moves
the mode lists and typed in notation, the position read out checked against the server's
view; a refused move read out in the engine's words; the analysis board and a puzzle played
the same way."""

from __future__ import annotations

import json
import re
import time
from typing import Any

import ludoteca
from ludoteca.core import LudotecaError, State
from ludoteca.games.words import last_move_words
from ludoteca.study import puzzles as generator

from ..support.browser import serious_violations

#: the longest a test waits for a line to be read out (s)
WAIT = 30.0


def heard(page: Any) -> list[str]:
    """The lines the blind mode's log holds, as the accessibility tree gives them: the
    paragraphs of its ARIA snapshot (``- paragraph: text``, the text in double quotes, escaped
    as in JSON, where YAML needs it)."""
    lines = []
    for row in page.locator("#blind-say").aria_snapshot().splitlines()[1:]:
        said = re.fullmatch(r"\s+- paragraph: (.*)", row)
        assert said, row
        text = said.group(1)
        lines.append(json.loads(text) if text.startswith('"') else text)
    return lines


def new_lines(before: list[str], now: list[str]) -> list[str]:
    """The lines of the log ``now`` added since it was ``before`` (the log drops its oldest
    lines as it grows: the new ones follow the longest tail of ``before`` it still holds)."""
    for dropped in range(len(before) + 1):
        kept = before[dropped:]
        if now[: len(kept)] == kept:
            return now[len(kept) :]
    raise AssertionError("the log changed its past lines")


def hear(page: Any, before: list[str], where: str = "") -> list[str]:
    """Wait until the log has lines added since it was ``before`` (``where``: one of them
    starting so); the new lines."""
    deadline = time.monotonic() + WAIT
    while True:
        lines = new_lines(before, heard(page))
        if lines and (not where or any(line.startswith(where) for line in lines)):
            return lines
        assert time.monotonic() < deadline, f"nothing read out ({where!r}) after {WAIT} s"
        time.sleep(0.02)  # polling: the log is what is waited for


def press(page: Any, key: str) -> str:
    """Press ``key`` and wait for the line it has read out."""
    before = heard(page)
    page.keyboard.press(key)
    return hear(page, before)[-1]


def listed_moves(line: str) -> list[str]:
    """The moves of a list read out: ``"every piece: d6, a1-a4."``."""
    return line.split(": ", 1)[1].rstrip(".").split(", ")


def side_of(text: str, side: str) -> tuple[set[str], int]:
    """The points and the men in hand of ``side`` in a Morris position read out."""
    said = re.search(rf"{side}: ([^.]*)\.", text)
    assert said, text
    points: set[str] = set()
    hand = 0
    for part in said.group(1).split("; "):
        if on := re.fullmatch(r"\d+ m[ae]n, on (.*)", part):
            points = set(on.group(1).split(", "))
        elif held := re.fullmatch(r"(\d+) in hand", part):
            hand = int(held.group(1))
    return points, hand


def check_position(text: str, view: dict[str, Any]) -> None:
    """The position read out is the server's: each side's men by point and in hand, and the
    side to move."""
    names = view["board"]["points"]
    for index, side in enumerate(("White", "Black")):
        points, hand = side_of(text, side)
        token = side[0].lower()
        assert points == {names[i] for i, t in enumerate(view["pieces"]) if t == token}, text
        assert hand == view["hand"][index], text
    assert f"{view['turn'].title()} to move." in text, text


def refusal(state: State, text: str) -> str:
    """The engine's sentence for a move it refuses (in English)."""
    try:
        state.parse_move(text)
    except LudotecaError as error:
        return str(error)
    raise AssertionError(f"{text} is legal")


def value(state: State, side: int) -> float:
    """The position for ``side``: won (2), lost (-2), drawn (0), else the game's evaluation."""
    outcome = state.outcome()
    if outcome is not None:
        return 0.0 if outcome.winner is None else 2.0 if outcome.winner == side else -2.0
    return state.evaluate() if state.turn == side else -state.evaluate()


def choose(state: State, moves: list[str]) -> str:
    """The move of ``moves`` (the legal moves read out) that is best for the mover two plies
    deep by the game's own evaluation: a cheap player that soon beats the computer's first
    level."""
    side = state.turn

    def worst(move: str) -> float:
        child = state.child(move)
        replies = child.legal_codes() if child.outcome() is None else []
        values = []
        for code in replies:
            child.push_code(code)
            values.append(value(child, side))
            child.pop_code()
        return min(values) if values else value(child, side)

    return max(moves, key=worst)


def switch_on(page: Any) -> None:
    """Tab to the blind mode's switch in the header and press it: heard to be on."""
    for _ in range(12):
        page.keyboard.press("Tab")
        if page.evaluate("document.activeElement.id") == "blind-switch":
            break
    else:
        raise AssertionError("the blind mode's switch is not reached by Tab")
    assert press(page, "Enter") == "Blind mode: on"


def test_a_whole_nine_mens_morris_game_is_played_blind_by_keyboard(page: Any, server: str) -> None:
    created = page.request.post(
        server + "/api/games",
        data={"game": "morris", "opponent": "computer", "level": 1, "colour": "white"},
    ).json()
    game, token = created["id"], created["tokens"]["white"]
    page.goto(server + "/")
    page.evaluate("([key, token]) => localStorage.setItem(key, token)", [f"ludoteca:{game}", token])
    page.goto(f"{server}/game/{game}")
    page.wait_for_selector("html[data-ready]")
    switch_on(page)

    def view() -> dict[str, Any]:
        answer = page.request.get(f"{server}/api/games/{game}", headers={"X-Seat-Token": token})
        return dict(answer.json())

    state = ludoteca.load("morris").new()
    assert press(page, "c") == "This game has no clock."
    # a refused move: the engine's own sentence is read out, the text kept to be corrected
    page.keyboard.press("t")
    page.keyboard.type("a1-a4")
    assert press(page, "Enter") == refusal(state, "a1-a4")
    chosen = False
    while state.outcome() is None:
        page.keyboard.press("Tab")  # off the box: the mode's keys are the page's again
        check_position(press(page, "p"), view())
        moves = listed_moves(press(page, "m"))  # (the focus on the choice of a point)
        assert sorted(moves) == sorted(str(m) for m in state.legal_moves)
        if state.in_hand() == (0, 0) and not chosen:  # one man's moves, chosen by its point
            said = press(page, "ArrowDown")
            point = said.split(":")[0]
            assert listed_moves(said) == [m for m in moves if m.startswith(f"{point}-")], said
            chosen = True
        page.keyboard.press("Tab")  # on to the page's controls
        move = choose(state, moves)
        page.keyboard.press("t")
        page.keyboard.press("Control+a")
        page.keyboard.type(move)
        before = heard(page)
        page.keyboard.press("Enter")
        state.push(move)
        lines = hear(page, before, "White played ")
        assert lines[0] == last_move_words(state), lines
        if state.outcome() is None:  # the computer's reply, read out after it
            reply = next(
                line for line in hear(page, before, "Black played ") if line.startswith("Black")
            )
            played = re.fullmatch(r"Black played (\S+?)(?: \(.*\))?\.", reply)
            assert played, reply
            state.push(played.group(1))
            assert reply == last_move_words(state)
    over = view()["outcome"]
    assert f"{over['result']} — {over['text']}" in hear(page, before, over["result"])
    assert view()["moves"] == [str(m) for m in state.moves]
    plies = len(state.move_stack)
    print(f"a whole game of {plies} plies, played blind: {over['result']} {over['text']}")


def test_the_analysis_board_and_a_puzzle_are_played_blind(page: Any, server: str) -> None:
    page.goto(server + "/analysis?game=morris&moves=d6,d2")
    page.wait_for_selector("#board .pt")  # (its first position drawn; the engine's lines later)
    switch_on(page)
    state = ludoteca.load("morris").new()
    for move in ("d6", "d2"):
        state.push(move)
    assert press(page, "p") == state.describe()
    assert sorted(listed_moves(press(page, "m"))) == sorted(str(m) for m in state.legal_moves)
    page.keyboard.press("Tab")  # from the choice of a point on to the panel's box
    page.keyboard.type("d6")  # taken
    assert press(page, "Enter") == refusal(state, "d6")
    page.keyboard.press("Control+a")
    page.keyboard.type("f4")
    state.push("f4")
    assert press(page, "Enter") == "White played f4."
    page.keyboard.press("Tab")
    assert press(page, "p") == state.describe()
    # the mode is remembered: a puzzle page opens with it on
    puzzle = next(
        p
        for path in generator.shipped()
        for _, p in generator.read(path)
        if p.rules == "morris" and len(p.line) == 1
    )
    page.goto(f"{server}/puzzles/{puzzle.id}")
    page.wait_for_selector("html[data-ready]")
    start = ludoteca.load(puzzle.rules).from_position_code(puzzle.position)
    assert heard(page)[-1].endswith("find the winning move.")
    page.keyboard.press("Tab")
    assert press(page, "p") == start.describe()
    assert sorted(listed_moves(press(page, "m"))) == sorted(str(m) for m in start.legal_moves)
    page.keyboard.press("Tab")  # from the choice of a point on to the panel's box
    page.keyboard.type(puzzle.line[0])
    assert press(page, "Enter").startswith("Solved!")
    assert not serious_violations(page)  # (the panel and its log, shown)
