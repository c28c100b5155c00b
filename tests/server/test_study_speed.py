"""What keeps study work quick (issue 26): an analysis from a solved table looks each legal
move up once a ply of its line (not the perfect player's trap search, thousands of lookups a
move); a report's run of positions, searched in order from the table of the position before,
is the same each time it is computed; an analysis-board job whose asker has gone is stopped
while it searches."""

from __future__ import annotations

from pathlib import Path

import pytest

import ludoteca
from ludoteca.ai import Limit, make_agent
from ludoteca.ai.analysis import analyse
from ludoteca.ai.book import book_for
from ludoteca.ai.perfect import PerfectAgent
from ludoteca.core import Color, State
from ludoteca.games.morris.board import NINE
from ludoteca.games.morris.rules import Morris, MorrisState
from ludoteca.games.morris.table import MorrisSolver, MorrisTable
from ludoteca.server.computer import interrupt
from ludoteca.server.computer.workers import report_plies
from ludoteca.server.study.analysis import search_lines


def mask(names: str) -> int:
    return sum(1 << NINE.index[p] for p in names.split())


def test_an_analysis_from_a_table_plays_best_moves_at_one_lookup_a_move(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("LUDOTECA_CACHE", str(tmp_path))
    rules = Morris.parse_rules("morris")
    table, _ = MorrisSolver(rules, 3).load()  # a tiny table: three men a side
    state = MorrisState(Morris.of(rules), (mask("a1 d1 g7"), mask("d2 f4 d6")), (0, 0), Color.WHITE)
    lookups = []
    real = MorrisTable.lookup

    def counted(self: MorrisTable, position: State) -> tuple[int, int]:
        lookups.append(1)
        return real(self, position)

    monkeypatch.setattr(MorrisTable, "lookup", counted)
    verdict = analyse(state)
    assert verdict.exact
    # every move of the line is of the best value where it is played, as the table says
    judge = PerfectAgent(rules, 0, table)
    position = state.copy()
    legal_moves = 0
    for move in verdict.pv:
        scores = [judge.score(position, code) for code in position.legal_codes()]
        assert judge.score(position, move.code) == max(scores)
        legal_moves += len(scores)
        position.push(move)
    assert len(verdict.pv) == 12 or position.outcome() is not None
    lookups.clear()
    analyse(state)
    # one lookup a legal move along the line, and the position's own value
    assert len(lookups) == legal_moves + 1


def game(name: str, plies: int) -> tuple[State, list[str]]:
    """The start and the moves of a game a noisy shallow search plays against itself."""
    state = ludoteca.new_game(name)
    agent = make_agent("search:depth=2,noise=300", state.rules, 3)
    while len(state.move_stack) < plies and state.outcome() is None:
        state.push(agent.choose(state))
    start = state.copy()
    moves: list[str] = []
    while start.move_stack:
        moves.insert(0, str(start.move_of(start.pop_code())))
    return start, moves


@pytest.mark.parametrize("name", ["morris", "morelli"])
def test_a_run_of_positions_gives_the_same_values_each_time(name: str) -> None:
    start, moves = game(name, 24)
    rules, code = str(start.rules), start.position_code()
    plies = list(range(10, 20))
    limit = Limit(depth=12, nodes=5_000)
    first = report_plies(name, rules, code, moves, plies, limit)
    assert sorted(first) == plies
    assert report_plies(name, rules, code, moves, plies, limit) == first
    # each value is a search's of its own position: its best move is legal there, and the
    # move played is the game's
    for ply, value in first.items():
        position = start.copy()
        for move in moves[:ply]:
            position.push(move)
        assert value.best in {str(position.move_of(c)) for c in position.legal_codes()}
        assert value.played == moves[ply]


def test_an_analysis_board_job_is_stopped_by_its_ticket() -> None:
    start, moves = game("morelli", 20)
    position = start.copy()
    for move in moves:
        position.push(move)
    book = book_for(position.game)
    assert book is None or book.lookup(position) is None  # searched, not read from the book
    args = ("morelli", str(position.rules), position.position_code())
    shared = interrupt.shared_ticket()
    interrupt.start_watching(shared)
    shared.value = 7  # the server stops the job of ticket 7 (here before it even starts)
    other = search_lines(*args, 2, 3600.0, [], "en", 8)
    assert other["depth"] == 2  # another job is not stopped
    # depth 30 among hundreds of moves would search for hours
    stopped = search_lines(*args, 30, 3600.0, other["candidates"], "en", 7)
    assert stopped["depth"] < 30
