"""Morris tables (small slices) against a plain retrograde over the readable engine's moves,
the Bellman equations, the board's symmetries, hand-checked positions and ``ludoteca solve``;
and the top level playing tabled positions perfectly."""

from __future__ import annotations

import itertools
import os
import random
from pathlib import Path

import numpy as np
import pytest

from checks.retro_reference import bellman, solve_graph
from ludoteca.ai.analysis import analyse, move_values
from ludoteca.ai.perfect import PerfectAgent
from ludoteca.ai.search import SearchAgent
from ludoteca.cli import main
from ludoteca.core import Color, RuleSet
from ludoteca.games.morris.board import NINE, SIX, TWELVE, MorrisBoard, symmetries
from ludoteca.games.morris.rules import Morris, MorrisState
from ludoteca.games.morris.table import MorrisSolver, MorrisTable, solve

Node = tuple[int, int, int]  # white men, black men, side to move


def rules_of(name: str) -> object:
    return Morris.parse_rules(f"{name}:repetition=0,move_rule=0")


def state_of(name: str, node: Node) -> MorrisState:
    white, black, turn = node
    return MorrisState(Morris.of(rules_of(name)), (white, black), (0, 0), Color(turn))  # type: ignore[arg-type]


def children(name: str, node: Node) -> list[Node]:
    state = state_of(name, node)
    if state.outcome() is not None:
        return []
    out = []
    for code in state.legal_codes():
        state.push_code(code)
        out.append((state.men[0], state.men[1], int(state.turn)))
        state.pop_code()
    return out


def mask(names: str, board: object = NINE) -> int:
    return sum(1 << board.index[p] for p in names.split())  # type: ignore[attr-defined]


@pytest.fixture(scope="module")
def nine3() -> MorrisTable:
    return solve(Morris.parse_rules("morris"), 3)


def test_every_board_has_the_sixteen_symmetries_of_the_square_and_rings() -> None:
    for board in (NINE, TWELVE, SIX):
        perms = symmetries(board)
        assert len(perms) == 16
        assert perms[0] == tuple(range(board.size))
        mills = {frozenset(p for p in range(board.size) if m >> p & 1) for m in board.mill_masks}
        for perm in perms:
            assert {frozenset(perm[p] for p in m) for m in mills} == mills
    swap = {NINE.index[a]: NINE.index[b] for a, b in (("a1", "c3"), ("d1", "d3"), ("b2", "b2"))}
    assert any(all(perm[a] == b for a, b in swap.items()) for perm in symmetries(NINE))


def plain_moves(own: int, opp: int) -> list[tuple[int, int]]:
    """The positions after each move of Six Men's Morris's moving phase (no flying), seen from
    the next side to move, written from the rules: a man steps to an empty neighbour; a new mill
    removes an opponent man, one not in a mill unless all are.  A side left with two men, or
    without a move, has lost: no moves."""
    if own.bit_count() < 3:
        return []
    empty = ((1 << SIX.size) - 1) & ~own & ~opp
    out = []
    for p in range(SIX.size):
        if not own >> p & 1:
            continue
        for q in range(SIX.size):
            if not (SIX.adjacent[p] >> q & 1 and empty >> q & 1):
                continue
            after = own & ~(1 << p) | 1 << q
            if any(m >> q & 1 and after & m == m for m in SIX.mill_masks):
                safe = [
                    x
                    for x in range(SIX.size)
                    if opp >> x & 1 and not any(m >> x & 1 and opp & m == m for m in SIX.mill_masks)
                ]
                victims = safe or [x for x in range(SIX.size) if opp >> x & 1]
                out.extend((opp & ~(1 << x), after) for x in victims)
            else:
                out.append((opp, after))
    return out


def test_six_mens_three_against_three_matches_a_plain_retrograde() -> None:
    table = solve(Morris.parse_rules("morris-6"), 3)
    points = range(SIX.size)
    nodes = []
    for white in itertools.combinations(points, 3):
        rest = [p for p in points if p not in white]
        for black in itertools.combinations(rest, 3):
            nodes.append((sum(1 << p for p in white), sum(1 << p for p in black)))
    reference = solve_graph(nodes, lambda node: plain_moves(*node))
    rng = random.Random(2)
    seen = {1: 0, -1: 0, 0: 0}
    for own, opp in nodes:
        expected = reference[(own, opp)]
        assert table.lookup(state_of("morris-6", (own, opp, 0))) == expected
        seen[expected[0]] += 1
    for own, opp in rng.sample(nodes, 200):  # Black to move: the same, seen from Black
        assert table.lookup(state_of("morris-6", (opp, own, 1))) == reference[(own, opp)]
    assert all(seen.values()), seen


@pytest.mark.parametrize(("name", "board"), [("morris", NINE), ("morris-12", TWELVE)])
def test_bellman_equations_and_symmetry_with_flying(
    nine3: MorrisTable, name: str, board: MorrisBoard
) -> None:
    """Nine Men's board, and the diagonal board of Twelve Men's Morris and Morabaraba (one
    table for both: the same board and flying rule)."""
    table = nine3 if name == "morris" else solve(Morris.parse_rules(name), 3)
    assert (
        MorrisSolver(Morris.parse_rules("morabaraba"), 3).key
        == MorrisSolver(Morris.parse_rules("morris-12"), 3).key
    )
    rng = random.Random(11)
    perms = symmetries(board)
    seen = {1: 0, -1: 0, 0: 0}
    for _ in range(400):
        points = rng.sample(range(24), 6)
        node = (sum(1 << p for p in points[:3]), sum(1 << p for p in points[3:]), rng.randrange(2))
        value, plies = table.lookup(state_of(name, node))
        kids = []
        for child in children(name, node):
            state = state_of(name, child)
            kids.append((-1, 0) if state.outcome() is not None else table.lookup(state))
        assert (value, plies) == bellman(kids)
        seen[value] += 1
        perm = rng.choice(perms)
        image = tuple(sum(1 << perm[p] for p in range(24) if m >> p & 1) for m in node[:2])
        assert table.lookup(state_of(name, (*image, node[2]))) == (value, plies)
    assert seen[1] and seen[-1], seen  # draws are rare with three men a side (see stats)


def test_hand_checked_positions(nine3: MorrisTable) -> None:
    # White's open two a1 d1 (g1 empty): flying a man there closes a mill and wins at once
    assert nine3.lookup(state_of("morris", (mask("a1 d1 b4"), mask("d2 f4 d6"), 0))) == (1, 1)
    # Black threatens two mills (g1 and a7: a1 d1 and a1 a4 with a man free to fly), White has
    # no mill in one: White blocks one, Black closes the other
    node = (mask("b2 d6 f4"), mask("a1 d1 a4"), 0)
    assert nine3.lookup(state_of("morris", node)) == (-1, 2)


def orbits(men: tuple[int, int]) -> int:
    """The number of symmetry classes of positions with ``men`` men a side on the Nine Men's
    board, by Burnside's lemma: the average over the symmetries of the positions each fixes (a
    fixed position is made of whole cycles of the permutation)."""
    total = 0
    for perm in symmetries(NINE):
        cycles, seen = [], set()
        for p in range(24):
            if p not in seen:
                length, q = 0, p
                while q not in seen:
                    seen.add(q)
                    q = perm[q]
                    length += 1
                cycles.append(length)
        ways = {(0, 0): 1}  # (white points, black points) -> ways, cycle by cycle
        for length in cycles:
            after: dict[tuple[int, int], int] = {}
            for (w, b), n in ways.items():
                for dw, db in ((0, 0), (length, 0), (0, length)):
                    key = (w + dw, b + db)
                    if key[0] <= men[0] and key[1] <= men[1]:
                        after[key] = after.get(key, 0) + n
            ways = after
        total += ways.get(men, 0)
    return total // 16


def test_solve_command_prints_stats(
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
    nine3: MorrisTable,
) -> None:
    monkeypatch.setenv("LUDOTECA_CACHE", str(tmp_path))
    assert main(["solve", "morris", "--men", "3", "--stats"]) == 0
    out = capsys.readouterr().out.splitlines()
    line = next(x for x in out if x.startswith("3-3: "))
    assert line == nine3.stats()[0]
    win, loss, draw = (int(line.split()[i]) for i in (2, 4, 6))
    assert win + loss + draw == orbits((3, 3))
    assert MorrisSolver(Morris.parse_rules("morris")).ready()  # the largest tables built are used
    assert main(["solve", "morris", "--men", "2"]) == 2


def test_top_level_converts_every_tabled_win(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("LUDOTECA_CACHE", str(tmp_path))
    rules = Morris.parse_rules("morris")
    table, _ = MorrisSolver(rules, 3).load()
    # analysis, hints and review read the built table wherever it covers the position
    state = MorrisState(Morris.of(rules), (mask("a1 d1 b4"), mask("d2 f4 d6")), (0, 0), Color.WHITE)
    verdict = analyse(state)
    assert verdict.exact and str(verdict.move).startswith("b4-g1x")
    assert "wins in 1" in verdict.text and verdict.white_share > 0.99
    values, _ = move_values(state)
    best = max(values.values())
    assert {str(state.move_of(c))[:6] for c, v in values.items() if v == best} == {"b4-g1x"}
    _converts(rules, table, 2)


def test_twelve_mens_and_morabaraba_top_levels_convert_every_tabled_win(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The diagonal board's table (Twelve Men's Morris and Morabaraba share it: one board, one
    flying rule; three against three has no draw there) serves both rule sets' top levels."""
    monkeypatch.setenv("LUDOTECA_CACHE", str(tmp_path))
    table, _ = MorrisSolver(Morris.parse_rules("morris-12"), 3).load()
    assert MorrisSolver(Morris.parse_rules("morabaraba"), 3).ready()
    for name in ("morris-12", "morabaraba"):  # their top levels play from the tables built
        assert "tables=1" in Morris.of(Morris.parse_rules(name)).ladder[-1].spec
    for name in ("morris-12", "morabaraba"):
        _converts(Morris.parse_rules(name), table, 0, wins=8)


def _converts(rules: RuleSet, table: MorrisTable, drawn: int, wins: int = 20) -> None:
    """The top level, against perfect defence, wins ``wins`` tabled wins (three men a side,
    White to move) within the table's distance and keeps ``drawn`` drawn positions drawn."""
    top = SearchAgent(1, seconds=0.05, tables=True)
    defence = PerfectAgent(rules, 2, table)
    rng = random.Random(5)
    won = draws = 0
    while won < wins or draws < drawn:
        points = rng.sample(range(24), 6)
        state = MorrisState(
            Morris.of(rules),
            (sum(1 << p for p in points[:3]), sum(1 << p for p in points[3:])),
            (0, 0),
            Color.WHITE,
        )
        value, plies = table.lookup(state)
        if (
            value == -1
            or (value == 1 and (plies < 3 or won >= wins))
            or (value == 0 and draws >= drawn)
        ):
            continue
        for _ in range(plies if value == 1 else 16):  # drawn: sixteen plies keep the draw
            agent = top if state.turn is Color.WHITE else defence
            state.push(agent.choose(state))
            if state.outcome() is not None:
                break
        outcome = state.outcome()
        if value == 1:  # won within the table's distance
            assert outcome is not None and outcome.winner is Color.WHITE
            won += 1
        else:
            assert outcome is None and table.lookup(state)[0] == 0
            draws += 1


def test_a_read_table_is_one_memory_map_shared_by_its_readers(nine3: MorrisTable) -> None:
    """A table read from the cache is a read-only memory map of its uncompressed copy (made
    beside the file, the same codes as the file and as a table solved afresh), remade when the
    file is newer or the copy damaged."""
    solver = MorrisSolver(Morris.parse_rules("morris"), 3)
    solver.load()  # built once a run (the run's cache)
    table, cached = solver.load()
    assert cached and isinstance(table, MorrisTable)
    copy = solver.path().with_name(solver.path().stem + ".codes.npy")
    with np.load(solver.path()) as packed:
        for lo, _, _ in table.layout.pairs:
            codes = table._codes(lo)
            assert not codes.flags.writeable
            assert isinstance(codes.base, np.memmap)
            assert np.array_equal(codes, packed[f"p{lo}"])
            assert np.array_equal(codes, nine3.pairs[lo])
    made = copy.stat().st_mtime_ns
    later = made + 2_000_000_000
    os.utime(solver.path(), ns=(later, later))  # the file built again (or imported) since
    again, _ = solver.load()
    assert copy.stat().st_mtime_ns > made
    # damaged: cut short (as a new file: the tables read so far map the old one, and a mapped
    # file cut in place would end their process)
    cut = copy.with_suffix(".cut")
    cut.write_bytes(copy.read_bytes()[:1000])
    os.replace(cut, copy)
    third, _ = solver.load()
    assert copy.stat().st_size > 1000
    rng = random.Random(5)
    for _ in range(200):
        points = rng.sample(range(24), 6)
        node = (sum(1 << p for p in points[:3]), sum(1 << p for p in points[3:]), rng.randrange(2))
        state = state_of("morris", node)
        assert third.lookup(state) == again.lookup(state) == nine3.lookup(state)


def test_a_rule_set_solved_from_its_start_has_five_distinct_levels(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Six Men's Morris's ladder (docs/ai.md): the family's first three levels, three plies,
    then the perfect player once the table is built (four plies before); Nine Men's Morris,
    solved only in its endgames, keeps the family's six."""
    monkeypatch.setenv("LUDOTECA_CACHE", str(tmp_path))
    six, nine = (Morris.of(Morris.parse_rules(name)) for name in ("morris-6", "morris"))
    assert not MorrisSolver(six.rules).ready()
    before = [rung.spec for rung in six.ladder]
    assert before[:3] == [rung.spec for rung in nine.ladder[:3]]
    assert before[3:] == ["search:depth=3", "search:depth=4"]
    monkeypatch.setattr(MorrisSolver, "ready", lambda self: True)
    assert [rung.spec for rung in six.ladder] == [*before[:4], "perfect"]
    assert len(nine.ladder) == 6 and "tables=1" in nine.ladder[-1].spec
