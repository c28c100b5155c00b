"""The compiled search: the same answers as the readable search where both are exact, forced
results checked against the solved Felli table, deterministic under depth and node limits, a
clean stop, and engine-style reports per depth."""

from __future__ import annotations

import random
import threading
from pathlib import Path

import numpy as np
import pytest

import ludoteca
from ludoteca.ai import Limit
from ludoteca.ai.analysis import analyse, review
from ludoteca.ai.book import book_for
from ludoteca.ai.perfect import PerfectAgent
from ludoteca.ai.search import WIN, SearchAgent, SearchResult
from ludoteca.cli import main
from ludoteca.compiled.search import CompiledSearch, _pack, _probe, _store
from ludoteca.games.felli import Felli
from ludoteca.games.morris import Morris


def _felli_positions(count: int, seed: int) -> list[ludoteca.State]:
    rng = random.Random(seed)
    out = []
    while len(out) < count:
        state = Felli.of("felli:repetition=0").new()
        for _ in range(rng.randrange(6, 30)):
            codes = state.legal_codes()
            if not codes:
                break
            state.push_code(rng.choice(codes))
        if state.outcome() is None:
            out.append(state)
    return out


def test_forced_results_match_the_solved_table() -> None:
    """Where the table says the mover wins or loses within 7 plies, a depth-8 compiled search
    finds exactly that distance, and so does the readable search."""
    table = PerfectAgent(Felli.parse_rules()).table
    checked = 0
    for state in _felli_positions(200, 4):
        value, plies = table.lookup(state)
        if value == 0 or plies > 7:
            continue
        expected = WIN - plies if value > 0 else -(WIN - plies)
        fast = SearchAgent(1).analyse(state, Limit(depth=8))
        slow = SearchAgent(1, compiled=False).analyse(state, Limit(depth=8))
        assert fast.score == slow.score == expected, state.position_code()
        checked += 1
    assert checked >= 5


def test_mate_in_one_in_the_flying_endgame() -> None:
    state = Morris.of().from_position_code("B.B/.B./.../.....W/.../.W./WW. w 0 0 0 40")
    for agent in (SearchAgent(0), SearchAgent(0, compiled=False)):
        found = agent.analyse(state, Limit(depth=3))
        assert str(found.move).startswith("g4-g1x") and found.score == WIN - 1


@pytest.mark.parametrize("rules", ["morris", "morabaraba", "felli-mullah", "morelli-9"])
def test_deterministic_under_depth_and_node_limits(rules: str) -> None:
    state = ludoteca.new_game(rules, seed=5)
    for move in list(state.legal_moves)[:1]:
        state.push(move)
    for limit in (Limit(depth=4), Limit(nodes=30_000)):
        first = analyse(state, limit)
        again = analyse(state, limit)
        assert (first.move, first.score, first.pv) == (again.move, again.score, again.pv)


def test_a_running_search_stops_cleanly() -> None:
    state = ludoteca.new_game("morris")
    agent = SearchAgent(0)
    results: list[SearchResult] = []
    worker = threading.Thread(target=lambda: results.append(agent.analyse(state, Limit(depth=60))))
    worker.start()
    threading.Timer(0.5, agent.stop).start()
    worker.join(30)
    assert not worker.is_alive() and results
    assert results[0].move in state.legal_moves and results[0].depth < 60
    assert state.ply == 0 and not state.move_stack


def test_review_never_recommends_the_move_played() -> None:
    state = ludoteca.new_game("morris")
    rng = random.Random(8)
    for _ in range(24):
        state.push_code(rng.choice(state.legal_codes()))
    mistakes = review(state, Limit(depth=3))
    assert mistakes, "random moves should include some mistakes"
    for ply, played, best, loss in mistakes:
        assert best.move != played and loss > 0.15 and 1 <= ply <= 24


def test_analyse_reports_every_depth(capsys: pytest.CaptureFixture[str]) -> None:
    # the start is answered from the opening book; after a1 the position is searched
    after = ludoteca.load("morris").new().child("a1")
    book = book_for(after.game)
    assert book is not None and book.lookup(after) is None
    assert main(["analyse", "morris", "--moves", "a1", "--depth", "5"]) == 0
    first = capsys.readouterr().out.splitlines()
    assert main(["analyse", "morris", "--moves", "a1", "--depth", "5"]) == 0
    again = capsys.readouterr().out.splitlines()
    depths = [line for line in first if line.startswith("depth ")]
    assert [line.split()[1] for line in depths] == ["1", "2", "3", "4", "5"]
    for line in depths:
        words = line.split()
        assert words[2::2][:5] == ["score", "nodes", "nps", "time", "pv"]

    def steady(lines: list[str]) -> list[str]:  # times and nodes per second vary
        return [" ".join(w for i, w in enumerate(x.split()) if i not in (7, 9)) for x in lines]

    assert steady(first) == steady(again) and first[-3].startswith("best move: ")


def _one_ply_values(state: ludoteca.State, quiesce: int) -> int:
    """The best one-ply value, worked out here from the kernel's own move generation and
    evaluation: each move's reply position evaluated for its mover, negated; with ``quiesce``
    1, a tactical reply is tried too (the replier takes the better of standing and it)."""
    from ludoteca.compiled.kernel import UNDO
    from ludoteca.compiled.registry import functions

    kernel = state.game.kernel
    assert kernel is not None
    k = functions(kernel.name)
    evaluate, generate, make, tactical, unmake = (
        k[f] for f in ("evaluate", "generate", "make", "tactical", "unmake")
    )
    st = kernel.pack(state)
    moves = np.zeros(1024, dtype=np.int64)
    replies = np.zeros(1024, dtype=np.int64)
    undo = np.zeros((2, UNDO), dtype=np.int64)
    best = -(10**9)
    for move in moves[: generate(st, kernel.prm, moves)].tolist():
        make(st, kernel.prm, move, undo, 0)
        stand = evaluate(st, kernel.prm)
        if quiesce:
            for reply in replies[: generate(st, kernel.prm, replies)].tolist():
                if tactical(st, kernel.prm, reply):
                    make(st, kernel.prm, reply, undo, 1)
                    stand = max(stand, -evaluate(st, kernel.prm))
                    unmake(st, kernel.prm, reply, undo, 1)
        unmake(st, kernel.prm, move, undo, 0)
        best = max(best, -stand)
    return best


@pytest.mark.parametrize("game", ["morelli", "felli"])
def test_quiesce_bounds_the_plies_past_the_horizon(game: str) -> None:
    """``quiesce=0`` scores a one-ply search by the evaluation alone, ``quiesce=1`` lets the
    reply capture once: both as computed here move by move from the kernel."""
    rng = random.Random(5)
    checked = 0
    for seed in range(12):
        state = ludoteca.new_game(game, seed=seed)
        for _ in range(rng.randrange(4, 30)):
            codes = state.legal_codes()
            if not codes:
                break
            state.push_code(rng.choice(codes))
        if state.outcome() is not None or any(
            (child := state.copy(), child.push_code(c), child.outcome())[2] is not None
            for c in state.legal_codes()
        ):
            continue  # a game ending within the ply is scored by its result instead
        for quiesce in (0, 1):
            found = SearchAgent(0, quiesce=quiesce).analyse(state, Limit(depth=1))
            assert found.score == _one_ply_values(state, quiesce), (quiesce, state)
        checked += 1
    assert checked >= 6


def test_warming_loads_the_search_and_drops_caches_of_earlier_fingerprints() -> None:
    from ludoteca.compiled import dispatch, warm

    cache = Path(dispatch.__file__).parent / "__pycache__"
    cache.mkdir(exist_ok=True)
    stale = cache / "search._root_felli_0123456789abcdef-1.py311.nbi"
    stale.write_bytes(b"")
    game = ludoteca.load("felli")
    assert warm(game) and not stale.exists()
    current = dispatch.fingerprint("felli", "ludoteca.compiled.search")
    kept = {p.name.split("_felli_")[1].split("-")[0] for p in cache.glob("search.*_felli_*")}
    assert kept == {current}  # the earlier fingerprint's files went too


def _entry(move: int, depth: int) -> int:
    return int(_pack(move, depth, 0, 0))


def test_a_bucket_keeps_the_deeper_entry_of_this_search_and_the_latest_beside_it() -> None:
    """The table's buckets (hand-worked): keys 8, 24 and 40 share the bucket of slots 8-9 of a
    16-slot table (their low bits agree but for bit 0); a deep entry stays in the first slot
    while shallower ones replace each other in the second; a key's own entry is overwritten
    where it is; an entry from an earlier search gives way to any new one, moving aside."""
    keys, vals, gens = (np.zeros(16, dtype=np.int64) for _ in range(3))
    _store(keys, vals, gens, 8, _entry(1, 9), 1)
    _store(keys, vals, gens, 24, _entry(2, 3), 1)
    assert (_probe(keys, 8), _probe(keys, 24)) == (8, 9)
    _store(keys, vals, gens, 40, _entry(3, 2), 1)  # shallower than the first: the second goes
    assert (_probe(keys, 8), _probe(keys, 24), _probe(keys, 40)) == (8, -1, 9)
    _store(keys, vals, gens, 8, _entry(4, 1), 1)  # its own entry, even if shallower
    assert _probe(keys, 8) == 8 and vals[8] >> 27 == 4
    _store(keys, vals, gens, 24, _entry(5, 6), 1)  # deeper than the first: takes its place
    assert (_probe(keys, 24), _probe(keys, 8), _probe(keys, 40)) == (8, 9, -1)
    _store(keys, vals, gens, 40, _entry(6, 1), 2)  # a later search: the old deep entry moves
    assert (_probe(keys, 40), _probe(keys, 24), _probe(keys, 8)) == (8, 9, -1)
    assert _probe(keys, 9) == -1 and _probe(keys, 56) == -1


def test_a_kept_table_answers_a_deep_search_of_a_position_already_searched() -> None:
    """A search that keeps the table of one to depth 9 of the same position finds its answer
    again in a tiny part of the work, though searches of other positions stored nearly a table's
    worth of entries in between: the deep entries stay (with one entry a slot, always replaced,
    the search again took 27% of the first one's nodes; with the buckets 0.03%)."""
    state = Morris.of("morris").new()
    assert state.game.kernel is not None
    searcher = CompiledSearch(state.game.kernel)
    for word in ("d2", "d6", "f4", "b4"):
        state.push(state.parse_move(word))
    first = searcher.run(state, max_depth=9)
    rng = random.Random(3)
    for _ in range(3):
        other = Morris.of("morris").new()
        for _ in range(6):
            other.push_code(rng.choice(other.legal_codes()))
        searcher.run(other, max_depth=8, keep=True)
    again = searcher.run(state, max_depth=9, keep=True)
    assert first is not None and again is not None
    assert again.moves[0] == first.moves[0] and again.scores[0] == first.scores[0]
    assert again.nodes * 100 < first.nodes
