"""Opening books: building (resumable), reading, symmetric look-ups, and their use by the top
level, hints and the analysis board.  The books built here are tiny (a few plies, shallow
searches) in a temporary directory; the shipped books are checked for legal moves."""

from __future__ import annotations

import json
import lzma
from collections.abc import Iterator
from pathlib import Path

import pytest

import ludoteca
from ludoteca.ai import Limit, make_agent
from ludoteca.ai.analysis import analyse
from ludoteca.ai.book import Book, BookMove, InvalidBookError, book_for, book_key, load_book
from ludoteca.ai.book_build import Settings, build
from ludoteca.ai.search import SearchAgent
from ludoteca.cli import main
from ludoteca.core import Game, State
from ludoteca.games import family

TINY = Settings("morris", plies=3, depth=2, margin=8)


@pytest.fixture(scope="module")
def tiny(tmp_path_factory: pytest.TempPathFactory) -> tuple[Book, Path]:
    """A three-ply book of Nine Men's Morris searched two plies deep, and its file."""
    out = tmp_path_factory.mktemp("book") / "morris.json.xz"
    return build(TINY, out, progress=False), out


@pytest.fixture
def shipped(monkeypatch: pytest.MonkeyPatch, tiny: tuple[Book, Path]) -> Iterator[Game]:
    """Nine Men's Morris declaring the tiny book as its own."""
    game = ludoteca.load("morris")
    monkeypatch.setattr(type(game), "book_path", property(lambda self: tiny[1]))
    book_for.cache_clear()
    yield game
    book_for.cache_clear()


def _positions(book: Book) -> list[State]:
    return [book.game.from_position_code(key) for key in book.positions]


def test_a_book_has_the_start_and_the_positions_its_kept_moves_reach(
    tiny: tuple[Book, Path],
) -> None:
    book, out = tiny
    start = book.game.new()
    assert book.lookup(start) is not None
    assert load_book(out, book.game).positions == book.positions
    assert not out.with_name(out.name + ".partial").exists()
    for state in _positions(book):
        if state.ply + 1 < TINY.plies:
            for m in book.lookup(state).moves:  # type: ignore[union-attr]
                child = state.child(m.move)
                assert child.outcome() is not None or book.lookup(child) is not None


def test_book_moves_are_legal_and_their_values_agree_with_a_fresh_search(
    tiny: tuple[Book, Path],
) -> None:
    book, _ = tiny
    for state in _positions(book):
        entry = book.lookup(state)
        assert entry is not None and entry.depth == TINY.depth
        legal = state.legal_codes()
        assert all(m.move.code in legal for m in entry.moves)
        fresh = SearchAgent(0).analyse(state, Limit(depth=entry.depth), exact=True).scores
        best = max(fresh.values())
        assert entry.value == best
        for m in entry.moves:
            assert fresh[m.move.code] == m.value
        kept = {c for c, v in fresh.items() if v >= best - TINY.margin}
        assert kept == {m.move.code for m in entry.moves}


def test_a_mirrored_position_is_answered_with_the_mirrored_moves(
    tiny: tuple[Book, Path],
) -> None:
    book, _ = tiny
    game = book.game
    state = game.new()
    state.push("d6")  # a position of the book (one of the four best first moves)
    entry = book.lookup(state)
    assert entry is not None
    for perm in game.symmetries:
        image = [""] * len(perm)
        for p, token in enumerate(state.pieces()):
            image[perm[p]] = token
        mirrored = game.from_position_code(game.position_code_of(image, state.turn, (8, 9)))
        assert book_key(mirrored) == entry.key
        found = book.lookup(mirrored)
        assert found is not None

        # the same positions follow, with the same values (a symmetry that keeps the
        # position may swap moves of one orbit)
        def after(position: State, moves: tuple[BookMove, ...]) -> list[tuple[str, int]]:
            return sorted((book_key(position.child(m.move)), m.value) for m in moves)

        assert after(mirrored, found.moves) == after(state, entry.moves)


def test_a_stopped_build_continues_where_it_was(tmp_path: Path, tiny: tuple[Book, Path]) -> None:
    out = tmp_path / "morris.json.xz"
    work = out.with_name(out.name + ".partial")
    seen: list[str] = []

    def stop_after_two(key: str) -> None:
        seen.append(key)
        if len(seen) == 2:
            raise KeyboardInterrupt

    with pytest.raises(KeyboardInterrupt):
        build(TINY, out, progress=False, on_position=stop_after_two)
    assert len(work.read_text().splitlines()) == 3  # the settings, two positions
    with work.open("a") as sink:
        sink.write('{"key": "half a line, as a kill leaves it')
    with pytest.raises(ludoteca.core.LudotecaError, match="holds another build"):
        build(Settings("morris", plies=3, depth=3, margin=8), out, progress=False)
    again: list[str] = []
    book = build(TINY, out, progress=False, on_position=again.append)
    assert book.built["resumed_positions"] == 2
    assert not set(again) & set(seen[:2])
    assert book.positions == tiny[0].positions
    assert not work.exists()


def _write(path: Path, data: object) -> Path:
    path.write_bytes(lzma.compress(json.dumps(data).encode()))
    return path


def test_a_malformed_book_file_gets_a_clear_error(tmp_path: Path, tiny: tuple[Book, Path]) -> None:
    game = tiny[0].game
    garbage = tmp_path / "garbage.json.xz"
    garbage.write_bytes(b"not a book")
    with pytest.raises(InvalidBookError, match="not an xz-compressed JSON opening book"):
        load_book(garbage, game)
    good = tiny[0].to_json()
    with pytest.raises(InvalidBookError, match="format field"):
        load_book(_write(tmp_path / "a.json.xz", {**good, "format": "other"}), game)
    with pytest.raises(InvalidBookError, match="not of morris morris-12"):
        load_book(_write(tmp_path / "b.json.xz", good), ludoteca.load("morris-12"))
    broken = {**good, "positions": {"x": [2, [["d6", "high"]]]}}
    with pytest.raises(InvalidBookError, match="whole-number depth and values"):
        load_book(_write(tmp_path / "c.json.xz", broken), game)
    start = book_key(game.new())
    illegal = {**good, "positions": {start: [2, [["a1-a4", 5]]]}}
    book = load_book(_write(tmp_path / "d.json.xz", illegal), game)
    with pytest.raises(InvalidBookError, match="opening book's move"):
        book.lookup(game.new())


def test_the_top_level_plays_book_moves_and_two_seeds_play_differently(shipped: Game) -> None:
    book = book_for(shipped)
    assert book is not None
    top = len(shipped.ladder)
    assert "book=1" in shipped.ladder[-1].spec
    games = []
    for seed in (1, 2):
        state = shipped.new()
        white = make_agent(f"level:{top}", state.rules, seed)
        black = make_agent(f"level:{top}", state.rules, seed + 10)
        for ply in range(TINY.plies):
            entry = book.lookup(state)
            assert entry is not None
            move = (white, black)[ply % 2].choose(state)
            assert move in [m.move for m in entry.best()]
            state.push(move)
        games.append([str(m) for m in state.moves])
    assert games[0] != games[1]


def test_every_morris_rule_set_with_a_moving_phase_plays_its_book_at_the_top() -> None:
    for name in ("morris", "morris-12", "morabaraba", "morris-lasker"):
        game = ludoteca.load(name)
        assert "book=1" in game.ladder[-1].spec, name
        assert len(game.symmetries) == 16
        assert game.book_path is not None and game.book_path.name == f"{name}.json.xz"


def test_the_shipped_books_moves_are_legal() -> None:
    assert book_for(ludoteca.load("morris")) is not None
    for definition in family("morris").rule_sets:
        game = ludoteca.load(definition.name)
        book = book_for(game)
        if book is None:
            continue
        assert book.lookup(game.new()) is not None, definition.name
        for state in _positions(book):
            entry = book.lookup(state)
            assert entry is not None
            assert all(m.move.code in state.legal_codes() for m in entry.moves)


def test_hints_and_the_analysis_board_say_they_answer_from_the_book(shipped: Game) -> None:
    from ludoteca.server.study.analysis import search_lines

    start = shipped.new()
    entry = book_for(shipped).lookup(start)  # type: ignore[union-attr]
    assert entry is not None
    found = analyse(start, Limit(depth=2), seed=3)
    assert found.book and not found.exact and "opening book" in found.text
    assert found.move in [m.move for m in entry.best()] and found.score == entry.value
    assert found.as_dict()["book"] is True
    assert not analyse(start, Limit(depth=1), book=False).book
    lines = search_lines("morris", "morris", start.position_code(), 1, 1.0, [])
    assert lines["book"] is True and lines["depth"] == TINY.depth
    assert [line["score"] for line in lines["lines"]] == [m.value for m in entry.moves[:3]]


def test_book_show_and_bad_build_arguments(
    tiny: tuple[Book, Path], capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["book", "show", "morris", "--book", str(tiny[1]), "--moves", "d6"]) == 0
    out = capsys.readouterr().out
    entry = tiny[0].lookup(tiny[0].game.new().child("d6"))
    assert entry is not None
    assert f"{entry.moves[0].move} {entry.value} depth {TINY.depth} (best)" in out
    assert main(["book", "show", "morris", "--book", str(tiny[1]), "--moves", "d6 d6"]) == 2
    assert main(["book", "build", "morris", "--depth", "0", "--out", "x.json.xz"]) == 2
    assert "depth is at least 1" in capsys.readouterr().err
    assert make_agent("search:depth=1,book=1", tiny[0].game.rules).name == "search:depth=1,book=1"
