"""Felli solved a second way: a plain retrograde analysis (``checks/retro_reference.py``:
dictionaries, no symmetry, no index) over every position reachable from the start, with the
moves of the plain rules implementation ``checks/felli_reference.py`` (which shares no
code with ``ludoteca.games.felli``), then every reachable position's value and plies compared
with the project's table (``ludoteca.games.felli.solver``).  It shows the documented start
values (basic Felli a draw; with forced capture a win in 31 plies for the side to move) without
the project's own solver, and that the two agree everywhere the game can go.  Not a test: the
graph of basic Felli takes minutes and gigabytes in plain Python;
``tests/solve/test_felli_solve.py`` checks the table against plain minimax on small positions in the
suite.

    .venv/bin/python -m bench.felli_reference_solve --out bench/results/felli_reference.txt
    .venv/bin/python -m bench.felli_reference_solve --rules felli:forced_capture

Prints, for each rule set: reachable positions, the start's value by each solver, positions
that differ (0 expected), seconds; exits 1 when they differ.
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

import ludoteca
from checks import felli_reference as ref
from checks.retro_reference import solve_graph
from ludoteca.games.felli.solver import solve

#: the rows of the position code, top first, as point indices of the game's board
ROWS = ((10, 11, 12), (7, 8, 9), (6,), (3, 4, 5), (0, 1, 2))
Node = tuple[str, str]  # (the 13 points' pieces in the game's point order, "." empty), side


def check(rules: str) -> tuple[bool, str]:
    game = ludoteca.load(rules)
    names = game.board.points
    forced, multi = bool(game.rules["forced_capture"]), bool(game.rules["multi_capture"])
    start_state = game.new()
    start: Node = ("".join(p or "." for p in start_state.pieces()), "w")

    def children(node: Node) -> list[Node]:
        cells, side = node
        board = {name: ("" if c == "." else c) for name, c in zip(names, cells, strict=True)}
        other = "b" if side == "w" else "w"
        out = []
        for move in ref.legal(board, side, forced, multi):
            after = ref.play(board, move, mullahs=False)
            out.append(("".join(after[n] or "." for n in names), other))
        return out

    started = time.perf_counter()
    values = solve_graph([start], children)
    solved = time.perf_counter() - started
    table = solve(rules)
    plain = ludoteca.load(f"{rules}{',' if ':' in rules else ':'}repetition=0,move_rule=0")
    differ = 0
    for (cells, side), value in values.items():
        rows = "/".join("".join(cells[i] for i in row) for row in ROWS)
        state = plain.from_position_code(f"{rows} {side} 0 0")
        found = table.lookup(state)
        if (int(found[0]), int(found[1])) != value:
            differ += 1
    seconds = time.perf_counter() - started
    said = {1: "win", 0: "draw", -1: "loss"}
    value, plies = values[start]
    mine = table.lookup(plain.from_position_code(start_state.position_code()))
    return differ == 0, (
        f"{rules}: {len(values):,} reachable positions; the start: plain retrograde "
        f"{said[value]}{f' in {plies}' if value else ''}, the table {said[int(mine[0])]}"
        f"{f' in {int(mine[1])}' if mine[0] else ''}; {differ} positions differ; "
        f"{solved:.0f} s to solve plainly, {seconds:.0f} s in all"
    )


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rules", action="append", help="rule sets (default: basic Felli)")
    parser.add_argument("--out", type=Path, help="also append the lines to this file")
    args = parser.parse_args()
    ok = True
    for rules in args.rules or ["felli"]:
        agrees, line = check(rules)
        ok &= agrees
        print(line, flush=True)
        if args.out:
            with args.out.open("a") as out:
                out.write(line + "\n")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
