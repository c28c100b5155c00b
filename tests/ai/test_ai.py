"""Computer players: search, MCTS, levels, analysis, tournaments and the engine protocol."""

from __future__ import annotations

import importlib
import io
import itertools
import json
import math
import random
import sys
from pathlib import Path

import pytest

import ludoteca
from ludoteca import LudotecaError, record
from ludoteca.ai import Limit, RandomAgent, make_agent
from ludoteca.ai.agents import KINDS
from ludoteca.ai.analysis import analyse, review
from ludoteca.ai.engine import EngineAgent
from ludoteca.ai.levels import levels, ratings
from ludoteca.ai.mcts import MCTSAgent
from ludoteca.ai.perfect import PerfectAgent
from ludoteca.ai.search import WIN, SearchAgent
from ludoteca.ai.tournament import elo_gaps, elo_ratings, run_tournament
from ludoteca.games.felli import Felli
from ludoteca.games.morris import Morris
from ludoteca.protocol import serve

ENGINES = Path(__file__).parents[1] / "data" / "engines"
ENGINE = f"{sys.executable} -m ludoteca engine"


def test_search_takes_the_winning_mill() -> None:
    # White closes a1 d1 g1 by g4-g1 and removes one of Black's three men: Black has two left
    state = Morris.of().from_position_code("B.B/.B./.../.....W/.../.W./WW. w 0 0 0 40")
    result = SearchAgent(seed=1).analyse(state, Limit(depth=3))
    assert str(result.move).startswith("g4-g1x")
    assert result.score == WIN - 1


def test_search_blocks_a_mill_it_would_lose_to() -> None:
    # Black (to move) must stop White's g4-g1 mill against its three men: only a man on g1 does
    state = Morris.of().from_position_code("B.B/.B./.../.....W/.../.W./WW. b 0 0 0 41")
    move = SearchAgent(seed=1).choose(state, Limit(depth=4))
    assert str(move).endswith("-g1")


@pytest.mark.parametrize("rules", ["felli", "felli:forced_capture,multi_capture"])
def test_search_agrees_with_the_solved_table(rules: str) -> None:
    from ludoteca.games.felli.solver import solve

    table = solve(rules)
    rng = random.Random(7)
    checked = 0
    while checked < 12:
        state = Felli.of(rules).new()
        for _ in range(rng.randrange(4, 30)):
            if not state.legal_codes():
                break
            state.push_code(rng.choice(state.legal_codes()))
        if state.outcome() is not None:
            continue
        value, plies = table.lookup(state)
        if value == 0 or plies > 7:
            continue
        result = SearchAgent(seed=1).analyse(state, Limit(depth=plies + 1))
        assert result.score == (WIN - plies if value > 0 else -(WIN - plies)), state.position_code()
        checked += 1


def test_search_is_reproducible_with_a_seed() -> None:
    state = ludoteca.new_game("morris")
    for word in ["d6", "f4", "d2"]:
        state.push(word)
    first = [str(SearchAgent(seed=5, noise=300).choose(state, Limit(depth=2))) for _ in range(2)]
    again = [str(SearchAgent(seed=5, noise=300).choose(state, Limit(depth=2))) for _ in range(2)]
    assert first == again
    assert state.ply == 3  # the state is left unchanged


def test_a_search_that_keeps_its_table_finds_its_last_answer_again_at_once() -> None:
    """``keep=1``: each move's search starts from the table of the search before; asked the same
    position twice to the same depth, the second search answers the same move from far fewer
    nodes, where a player without ``keep`` searches it all again (a node count, not a time)."""
    state = Morris.of("morris").new()
    for word in ("d2", "d6", "f4", "b4"):
        state.push(state.parse_move(word))
    kept = make_agent("search:depth=7,keep=1", state.rules, seed=1)
    plain = make_agent("search:depth=7", state.rules, seed=1)
    assert isinstance(kept, SearchAgent) and isinstance(plain, SearchAgent)
    assert kept.keep and plain.keep is None
    first = kept.analyse(state, keep=True)
    again = kept.analyse(state, keep=True)
    twice = [plain.analyse(state) for _ in range(2)]
    assert again.move == first.move and again.score == first.score
    assert again.nodes * 5 < first.nodes
    assert twice[1].nodes * 2 > twice[0].nodes  # no table kept: about the same work again


@pytest.mark.parametrize(
    ("spec", "limit", "kept"),
    [
        ("search:time=0.05", None, True),
        ("search:depth=3", None, False),
        ("search:nodes=2000", None, False),
        ("search:time=0.05", Limit(depth=3), False),
        ("search:time=0.05,keep=0", None, False),
        ("search:depth=3,keep=1", None, True),
    ],
)
def test_a_move_searched_for_a_time_keeps_the_table_unless_told_not_to(
    spec: str, limit: Limit | None, kept: bool, monkeypatch: pytest.MonkeyPatch
) -> None:
    """By default a move searched for a time starts from the search before; one searched to a
    depth or a node budget does not (it must be the same whatever came before); ``keep=0`` and
    ``keep=1`` say so for any limit."""
    from ludoteca.compiled.search import CompiledSearch

    asked: list[bool] = []
    run = CompiledSearch.run

    def spy(self: CompiledSearch, *args: object, **kwargs: object) -> object:
        asked.append(bool(kwargs["keep"]))
        return run(self, *args, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(CompiledSearch, "run", spy)
    state = Morris.of("morris").new()
    state.push(state.parse_move("d2"))
    agent = make_agent(spec, state.rules, seed=1)
    agent.choose(state, limit)
    assert asked == [kept]


@pytest.mark.parametrize(
    ("game", "spec", "reduce"),
    [
        ("morris", "search:time=0.05", None),
        ("morris", "search:depth=3,reduce=3", 3),
        ("morelli", "search:nodes=2000,reduce=0", 0),
    ],
)
def test_a_spec_sets_the_late_move_reductions(
    game: str, spec: str, reduce: int | None, monkeypatch: pytest.MonkeyPatch
) -> None:
    """``reduce=R`` in a search spec reaches the compiled search; without it the search uses
    the kernel's own (``None``)."""
    from ludoteca.compiled.search import CompiledSearch

    asked: list[object] = []
    run = CompiledSearch.run

    def spy(self: CompiledSearch, *args: object, **kwargs: object) -> object:
        asked.append(kwargs["reduce"])
        return run(self, *args, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(CompiledSearch, "run", spy)
    state = ludoteca.new_game(game)
    agent = make_agent(spec, state.rules, seed=1)
    agent.choose(state)
    assert asked == [reduce]


def test_late_move_reductions_reach_a_depth_in_fewer_nodes() -> None:
    """On a Nine Men's Morris placing position, the search to depth 8 with quiet moves after the
    third reduced (``reduce=3``) visits fewer nodes than the full-width search, which the
    Morris kernel's default (no reductions) is: node counts of the same deterministic
    searches."""
    from ludoteca.compiled.search import CompiledSearch

    state = ludoteca.new_game("morris")
    for text in "d2 d6 b4 f4 d1".split():
        state.push(text)
    kernel = state.game.kernel
    assert kernel is not None and kernel.reduce_after == 0

    def nodes(reduce: int | None) -> int:
        found = CompiledSearch(kernel).run(state, max_depth=8, reduce=reduce)
        assert found is not None and found.depth == 8
        return found.nodes

    full, default, reduced = nodes(0), nodes(None), nodes(3)
    assert default == full and reduced < full * 0.8, (full, default, reduced)


def test_mcts_finds_the_winning_capture() -> None:
    state = Felli.of().from_position_code(".../..././b../w.. w 0 20")
    move = MCTSAgent(seed=1).choose(state, Limit(nodes=300))
    assert str(move) == "a1xc3"


@pytest.mark.parametrize("name", ["morris", "felli", "felli-mullah", "morelli"])
def test_every_level_plays_legal_moves(name: str) -> None:
    state = ludoteca.new_game(name, seed=3)
    ladder = levels(state.rules)
    assert len(ladder) >= 5
    for level in ladder[:4]:
        agent = make_agent(f"level:{level.number}", state.rules, seed=1)
        move = agent.choose(state)
        assert move in state.legal_moves
    with pytest.raises(LudotecaError, match="levels 1 to"):
        make_agent("level:99", state.rules)


def test_stored_ratings_increase_with_the_level_and_fit_the_ladders() -> None:
    for rules, by_level in ratings().items():
        shown = levels(ludoteca.load(rules).rules)
        for k, entry in by_level.items():
            # a stored rating is shown for the agent it measured; a level whose agent changed
            # since it was measured shows none
            level = shown[int(k) - 1]
            assert (level.rating is not None) == (entry["spec"] == level.spec), (rules, k)
            if level.rating is not None:
                assert level.rating == (entry["elo"], entry["error"], entry["games"]), (rules, k)
        # every level measured above the one under it
        values = [level.rating[0] for level in shown if level.rating is not None]
        assert values and all(low < high for low, high in itertools.pairwise(values)), rules


def test_agent_specs_are_checked() -> None:
    rules = Morris.parse_rules()
    specs = ["alphago", "search:deep=3", "search:depth=x", "level:x", "search:time=-1"]
    for spec in [*specs, "random:depth=x", "mcts:sims=-1", "perfect:depth=x", "net[sims=x]:a"]:
        with pytest.raises(LudotecaError):
            make_agent(spec, rules)


def test_every_kind_of_spec_names_a_factory() -> None:
    for kind, target in KINDS.items():
        module, _, name = target.partition(":")
        assert callable(getattr(importlib.import_module(module), name)), kind
    rules = Felli.parse_rules()
    for spec, cls in [
        (" Random ", RandomAgent),
        ("MCTS:sims=5", MCTSAgent),
        ("search", SearchAgent),
    ]:
        agent = make_agent(spec, rules, seed=1)
        assert isinstance(agent, cls), spec
    assert make_agent("level:1", rules).name == "level:1"


def test_elo_from_a_known_table() -> None:
    # A beats B 3 games in 4 (75%): about 191 Elo, less the pull of the one-draw prior
    ratings_ = elo_ratings([[0, 30], [10, 0]], [[0, 40], [40, 0]])
    gap = ratings_[1][0] - ratings_[0][0]
    assert -191 < gap < -170
    assert ratings_[0] == (1000.0, 0.0) and ratings_[1][1] > 0


def test_gaps_in_a_chain_are_each_pairs_own() -> None:
    # a ladder played by neighbours only: A-B 40 games (B took 30), B-C 200 games (C took 150);
    # B-C's gap and its error come from B-C's games alone (with the one-draw prior), computed
    # here in closed form for two players, while C's rating error also carries A-B's
    scores = [[0, 10, 0], [30, 0, 50], [0, 150, 0]]
    games = [[0, 40, 0], [40, 0, 200], [0, 200, 0]]
    gaps = elo_gaps(scores, games)
    share = (150 + 0.5) / (200 + 1)
    factor = 400 / math.log(10)
    assert gaps[1][0] == pytest.approx(factor * math.log(share / (1 - share)), abs=0.01)
    error = 1.96 * factor / math.sqrt((200 + 1) * share * (1 - share))
    assert gaps[1][1] == pytest.approx(error, rel=1e-6)
    ratings = elo_ratings(scores, games)
    assert ratings[2][1] > gaps[1][1] and ratings[2][1] > ratings[1][1]
    assert gaps[0][0] == pytest.approx(ratings[1][0] - ratings[0][0])


def test_tournament_runs_and_writes_valid_records() -> None:
    result = run_tournament("felli", ["random", "search:depth=2"], games=4, jobs=2, seed=3)
    assert len(result.results) == 4
    scores = result.scores()
    assert scores[1][0] > scores[0][1]
    for game in result.results:
        assert record.loads(game.record_text).state.ply == game.plies
    assert "search:depth=2" in result.crosstable()


def test_an_adjacent_schedule_plays_only_neighbours() -> None:
    result = run_tournament(
        "felli",
        ["random", "search:depth=1", "search:depth=2"],
        games=2,
        jobs=1,
        seed=3,
        adjacent=True,
    )
    games = result.games_between()
    assert games[0][1] == games[1][2] == 2 and games[0][2] == 0 and len(result.results) == 4


def test_analysis_and_review() -> None:
    state = Felli.of().new()
    found = analyse(state)
    assert found.exact and found.move in state.legal_moves and found.white_share == 0.5
    morris = Morris.of().from_position_code("B.B/.B./.../.....W/.../.W./WW. w 0 0 0 40")
    hint = analyse(morris, Limit(depth=3))
    assert str(hint.move).startswith("g4-g1x") and hint.white_share == 1.0
    assert "White wins" in hint.text


def test_review_marks_exactly_the_moves_that_give_value_away() -> None:
    """A random basic-Felli game: the review must list exactly the plies at which the solved
    table says the mover's value dropped (from a win, or from a draw), with a better move."""
    table = PerfectAgent(Felli.parse_rules()).table
    state = Felli.of().new()
    rng = random.Random(11)
    dropped = []
    while len(state.move_stack) < 14 and state.outcome() is None:
        before = table.lookup(state)[0]
        state.push_code(rng.choice(state.legal_codes()))
        if -table.lookup(state)[0] < before:
            dropped.append(state.ply)
    assert dropped, "the seed should give a game with at least one mistake"
    mistakes = review(state)
    assert [ply for ply, _, _, _ in mistakes] == dropped
    for _, played, best, loss in mistakes:
        assert loss > 0.15 and best.move != played


def test_engine_protocol_session() -> None:
    out = io.StringIO()
    serve(
        [
            "ludo",
            "newgame felli",
            "setoption name agent value search:depth=2",
            "position startpos moves b2-c3",
            "go depth 2",
            "isready",
            "position startpos moves b2-c3 zz",
            "go",
            "bogus",
            "quit",
        ],
        out,
    )
    lines = out.getvalue().splitlines()
    assert lines[0].startswith("id name Ludoteca") and "ludook" in lines
    assert "bestmove d4xb2" in lines
    assert any(line.startswith("info depth") for line in lines)
    assert any(line.startswith("error") and "zz" in line for line in lines)
    assert any("unknown command" in line for line in lines)


def test_engine_agent_drives_our_engine_process() -> None:
    rules = Morris.parse_rules()
    engine = EngineAgent(ENGINE, rules, seconds=0.2)
    try:
        state = ludoteca.new_game("morris")
        move = engine.choose(state)
        assert move in state.legal_moves
        state.push(move)
        assert engine.choose(state) in state.legal_moves
    finally:
        engine.close()


def test_tournament_survives_broken_engines() -> None:
    specs = [
        f"engine:{sys.executable} {ENGINES / 'hang.py'}",
        f"engine:{sys.executable} {ENGINES / 'crash.py'}",
        f"engine:{sys.executable} {ENGINES / 'garbage.py'}",
        f"engine:{ENGINE}",
    ]
    result = run_tournament("felli", specs, games=1, jobs=2, seed=1, seconds=0.2)
    assert len(result.results) == 6
    failures = [r.failure for r in result.results if r.failure]
    assert any("no 'bestmove'" in f for f in failures)
    assert any("exited" in f for f in failures)
    assert any("z9-z9" in f for f in failures)
    scores = result.scores()
    assert sum(scores[3]) >= 3  # our engine beats the three broken ones by forfeit
    for game in result.results:
        assert record.loads(game.record_text).result in ("1-0", "0-1", "1/2-1/2")


def test_a_rating_belongs_to_the_spec_it_measured(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from ludoteca.ai import levels as ladder

    monkeypatch.setattr(ladder, "RATINGS_FILE", tmp_path / "ratings.json")
    ladder.ratings.cache_clear()
    try:
        rules = Felli.parse_rules()
        result = run_tournament("felli", ["level:1", "level:2"], games=4, jobs=1, seed=3)
        ladder.store_ratings(rules, result.level_ratings())
        shown = ladder.levels(rules)
        assert shown[0].rating == (1000.0, 0.0, 4) and shown[1].rating is not None
        assert shown[2].rating is None  # not in the tournament
        # the second level's spec changes (a new ladder): its old rating is no longer shown
        stored = json.loads((tmp_path / "ratings.json").read_text())
        stored["felli"]["2"]["spec"] = "search:depth=9"
        (tmp_path / "ratings.json").write_text(json.dumps(stored))
        ladder.ratings.cache_clear()
        assert ladder.levels(rules)[1].rating is None
        assert ladder.levels(rules)[0].rating == (1000.0, 0.0, 4)
    finally:
        ladder.ratings.cache_clear()
