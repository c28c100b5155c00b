"""The puzzle page in a real browser: a puzzle solved and one failed by clicking the board (an
account's puzzle rating moving as shown), streak and rush runs started and scored, and the
daily puzzle on the lobby opened.  On SQLite: what PostgreSQL keeps of puzzles (attempts,
ratings, runs) is tests/server/test_server_puzzles.py's, on both databases."""

from __future__ import annotations

import json
import time
import urllib.parse
import urllib.request
from typing import Any

import ludoteca
from ludoteca.study import puzzles as generator
from ludoteca.study.puzzles import Puzzle

from ..support.browser import point, serious_violations
from .test_web_browser import sign_up_in_browser


def shipped() -> dict[str, Puzzle]:
    return {p.id: p for path in generator.shipped() for _, p in generator.read(path)}


def click_move(page: Any, state: ludoteca.core.State, text: str) -> None:
    """Make the move ``text`` of ``state`` by clicking each point of its gesture."""
    names = state.game.board.points
    for _, index in state.gesture(state.parse_move(text).code):
        point(page, names[index]).click()


def solve_on_page(page: Any, puzzle: Puzzle) -> None:
    """Play a puzzle's solution on the page, waiting for each reply."""
    state = ludoteca.load(puzzle.rules).from_position_code(puzzle.position)
    for i, move in enumerate(puzzle.line):
        if i % 2 == 0:
            click_move(page, state, move)
            if i + 1 < len(puzzle.line):
                page.wait_for_function(
                    "document.getElementById('verdict').textContent.startsWith('Right')"
                )
                page.wait_for_function(
                    "(n) => document.getElementById('verdict').textContent.includes(n)",
                    arg=puzzle.line[i + 1],
                )
        state.push(move)
    page.wait_for_function("document.getElementById('verdict').textContent.startsWith('Solved')")


def wrong_move(puzzle: Puzzle) -> tuple[ludoteca.core.State, str]:
    state = ludoteca.load(puzzle.rules).from_position_code(puzzle.position)
    solution = state.parse_move(puzzle.line[0]).code
    return state, next(str(state.move_of(c)) for c in state.legal_codes() if c != solution)


def shown_id(page: Any) -> str:
    page.wait_for_function("document.getElementById('permalink').href.includes('/puzzles/')")
    href: str = page.get_attribute("#permalink", "href")
    return href.rsplit("/", 1)[1]


def test_a_puzzle_solved_and_one_failed_move_the_rating(page: Any, server: str) -> None:
    sign_up_in_browser(page, server, "Solver")
    solved, failed = [p for p in shipped().values() if p.rules == "felli" and len(p.line) >= 3][:2]
    page.goto(f"{server}/puzzles/{solved.id}")
    page.wait_for_selector("#board .pt")
    assert "to move: find the winning move" in page.inner_text("#status")
    solve_on_page(page, solved)
    verdict = page.inner_text("#verdict")
    assert "Your puzzle rating: 1500 →" in verdict, verdict
    page.wait_for_function(
        "document.getElementById('my-rating').textContent.includes('after 1 puzzle ·')"
    )
    gained = float(page.inner_text("#my-rating").split()[0].rstrip("?"))
    assert gained > 1500
    assert page.locator("#history li").count() == 1
    # the second: a wrong first move is taken back and counted as failed
    page.goto(f"{server}/puzzles/{failed.id}")
    page.wait_for_selector("#board .pt")
    before = [point(page, n).get_attribute("data-piece") for n in ("a1", "c3", "e5")]
    state, wrong = wrong_move(failed)
    click_move(page, state, wrong)
    page.wait_for_function("document.getElementById('verdict').textContent.startsWith('Not the')")
    assert [point(page, n).get_attribute("data-piece") for n in ("a1", "c3", "e5")] == before
    page.wait_for_function("document.getElementById('my-rating').textContent.includes('2 puzzles')")
    assert float(page.inner_text("#my-rating").split()[0].rstrip("?")) < gained
    assert page.locator("#history li").count() == 2
    # the solution can then be shown, step by step
    page.click("#show-solution")
    page.wait_for_selector("#step-next", state="visible")
    assert "The solution, move 1 of" in page.inner_text("#status")
    page.click("#step-next")
    assert "The solution, move 2 of" in page.inner_text("#status")


def test_a_streak_and_a_rush_are_started_and_scored(page: Any, server: str) -> None:
    page.goto(f"{server}/puzzles")
    page.wait_for_selector("#board .pt")
    page.select_option("#set", "morris-6")
    page.click("#streak")
    page.wait_for_selector("#run", state="visible")
    assert page.inner_text("#run-title") == "Streak"
    first = shown_id(page)
    solve_on_page(page, shipped()[first])
    page.wait_for_function("document.getElementById('run-score').textContent === '1'")
    page.wait_for_function(f"!document.getElementById('permalink').href.endsWith('{first}')")
    second = shipped()[shown_id(page)]
    assert second.difficulty >= shipped()[first].difficulty
    state, wrong = wrong_move(second)
    click_move(page, state, wrong)
    page.wait_for_selector("#run-over", state="visible")
    assert "The streak is over: 1 solved" in page.inner_text("#run-over")
    page.click("#rush")
    page.wait_for_function("document.getElementById('run-title').textContent === 'Rush'")
    assert page.inner_text("#run-score") == "0"
    clock = page.inner_text("#run-clock")
    assert clock in ("3:00", "2:59", "2:58"), clock


def test_the_daily_puzzle_on_the_lobby_opens(page: Any, server: str) -> None:
    with urllib.request.urlopen(server + "/api/puzzles/daily") as answer:
        daily = json.load(answer)
    page.goto(server + "/")
    page.wait_for_selector("#daily-board .pt")
    assert daily["rules_title"] in page.inner_text("#daily-text")
    assert serious_violations(page) == []
    page.click("#daily-link")
    page.wait_for_url(f"**/puzzles/{daily['id']}")
    page.wait_for_selector("#board .pt")
    assert shown_id(page) == daily["id"]
    assert serious_violations(page) == []


def test_a_position_of_the_analysis_board_becomes_a_puzzle(page: Any, server: str) -> None:
    known = shipped()
    own = next(
        p
        for seed in range(50, 80)
        for p in generator.generate("felli", 1, seed=seed)
        if p.id not in known
    )
    page.goto(f"{server}/analysis?game=felli&position={urllib.parse.quote(own.position)}")
    page.wait_for_selector("#board .pt")
    page.click("#make-puzzle")
    page.wait_for_selector("#notice a", timeout=120_000)
    assert "This position is a puzzle" in page.inner_text("#notice")
    page.click("#notice a")
    page.wait_for_url(f"**/puzzles/{own.id}")
    page.wait_for_selector("#board .pt")
    solve_on_page(page, own)
    # the start, with no single winning move, is refused with the judge's sentence
    page.goto(f"{server}/analysis?game=felli")
    page.wait_for_selector("#board .pt")
    page.click("#make-puzzle")
    page.wait_for_function(
        "document.getElementById('notice').textContent.includes('Not a puzzle')", timeout=120_000
    )


def test_a_blunder_of_ones_game_is_offered_and_solved_on_the_mistakes_page(
    page: Any, server: str
) -> None:
    """A hot-seat Felli game of the account's (made through the API with its session) in which
    Black's b4-c3 walks into a capture; once its report is ready the mistakes page offers the
    position before it, and a move keeping the draw (by the table) solves it."""
    from ..server.test_server_board_api import table_value
    from ..server.test_server_mistakes import PLAYED, felli_table
    from ..server.test_server_report import FELLI_ENDGAME
    from ..support.browser import REPORT_WAIT

    sign_up_in_browser(page, server, "Mira")
    csrf = {"X-CSRF-Token": page.request.get(server + "/api/me").json()["csrf"]}
    body = {"game": "felli", "opponent": "hotseat", "position": FELLI_ENDGAME}
    made = page.request.post(server + "/api/games", data=body, headers=csrf).json()
    for ply, move in enumerate(PLAYED):
        intent = {"token": made["tokens"]["white"], "type": "move", "move": move, "ply": ply}
        page.request.post(f"{server}/api/games/{made['id']}/actions", data=intent, headers=csrf)
    deadline = time.monotonic() + REPORT_WAIT / 1000
    while page.request.get(f"{server}/api/games/{made['id']}/report").json()["status"] != "ready":
        assert time.monotonic() < deadline, "the game's report was not made in time"
        time.sleep(0.5)  # polling: the API tells of no change
    page.goto(server + "/puzzles/mistakes")
    page.wait_for_selector('#mistakes li[data-done="false"]')
    assert "b4-c3" in page.inner_text("#mistakes") and "b4-c3" in page.inner_text("#status")
    position = ludoteca.load("felli").from_position_code(FELLI_ENDGAME).child(PLAYED[0])
    table = felli_table()
    keeps = next(
        str(position.move_of(c))
        for c in position.legal_codes()
        if table_value(table, position, c)[0] == "draw"
    )
    click_move(page, position, keeps)
    page.wait_for_selector("#verdict.good")
    assert keeps in page.inner_text("#verdict")
    page.wait_for_selector('#mistakes li[data-done="true"]')
    page.goto(server + "/puzzles/dashboard")
    page.wait_for_function("document.documentElement.dataset.ready === '1'")
    assert "No puzzle counted yet" in page.inner_text("#dashboard-summary")


#: the dashboard test's attempts at shipped puzzles (each solved in one move): id, rule set,
#: theme and difficulty as the package's files have them, and how it goes
DASHBOARD_ATTEMPTS = [
    ("c30eacddb13454c5", "felli", "quiet move", 1230, "solved"),
    ("fcc62f95f53d5c1c", "felli", "capture", 1120, "solved"),
    ("534e581d3f68f5f3", "felli", "quiet move", 1240, "wrong move"),
    ("8f0631e84266f033", "morris-6", "quiet move", 1210, "solution asked"),
    ("e3faf030df9cf233", "felli", "capture", 1110, "solution asked"),
]


def test_the_dashboard_shows_the_figures_counted_by_hand(page: Any, server: str) -> None:
    """An account solves two puzzles and misses one by a wrong move on the puzzle page, and asks
    for two solutions through the API with its session; the dashboard's tables then hold the
    figures counted by hand from those five attempts (five puzzles of one move: 12 s at nice 19
    on two cores with a load of 8)."""
    sign_up_in_browser(page, server, "Tally")
    csrf = {"X-CSRF-Token": page.request.get(server + "/api/me").json()["csrf"]}
    known = shipped()
    for puzzle_id, rules, theme, rated, how in DASHBOARD_ATTEMPTS:
        puzzle = known[puzzle_id]
        assert (puzzle.rules, puzzle.theme, puzzle.difficulty, len(puzzle.line)) == (
            rules,
            theme,
            rated,
            1,
        )
        if how == "solution asked":
            asked = page.request.post(f"{server}/api/puzzles/{puzzle_id}/solution", headers=csrf)
            assert asked.ok
            continue
        page.goto(f"{server}/puzzles/{puzzle_id}")
        page.wait_for_selector("#board .pt")
        if how == "solved":
            solve_on_page(page, puzzle)
        else:
            click_move(page, *wrong_move(puzzle))
            page.wait_for_function(
                "document.getElementById('verdict').textContent.startsWith('Not the')"
            )
    page.goto(server + "/puzzles/dashboard")
    page.wait_for_function("document.documentElement.dataset.ready === '1'")
    cells = "rows => rows.map(r => [...r.cells].map(c => c.textContent))"
    dash = "\N{EN DASH}"  # between a band's bounds
    # by hand: five attempts, two solved (c30e..., fcc6...): 40%
    assert page.inner_text("#dashboard-summary") == "2 of 5 puzzles solved (40%)."
    # quiet moves: c30e... solved, 534e... and 8f06... missed: 1 of 3, 33%; captures: fcc6...
    # solved, e3fa... missed: 1 of 2, 50%; the theme tried most first
    assert page.eval_on_selector_all("#themes tr", cells) == [
        ["quiet move", "3", "1", "33%"],
        ["capture", "2", "1", "50%"],
    ]
    # difficulty 1000-1199: 1120 solved, 1110 missed: 1 of 2; 1200-1399: 1230 solved, 1240
    # and 1210 missed: 1 of 3; the easiest band first
    assert page.eval_on_selector_all("#bands tr", cells) == [
        [f"1000{dash}1199", "2", "1", "50%"],
        [f"1200{dash}1399", "3", "1", "33%"],
    ]
    # missed most: quiet moves twice (once in Felli, once in Six Men's Morris: the tie goes to
    # the first rule set by name, felli), then captures once (Felli)
    missed = page.locator("#missed li")
    assert [missed.nth(i).get_attribute("data-theme") for i in range(2)] == [
        "quiet move",
        "capture",
    ]
    assert "missed 2 times" in missed.nth(0).inner_text()
    assert missed.nth(0).locator("a").get_attribute("href") == (
        "/puzzles?rules=felli&theme=quiet+move"
    )
