"""A built Morris endgame table checked as a whole, without building anything: the Bellman
equations and the board's symmetries on random positions of every class, and, against a smaller
table of the same board, every position of the classes they share.

    LUDOTECA_CACHE=DIR .venv/bin/python -m bench.table_check --men 6 --against 5
    .venv/bin/python -m bench.table_check --rules morris-12 --men 5 --against 4 --samples 200

For each class of the moving phase (``W-B``: the side to move's men, the opponent's), ``--samples``
random positions (men placed at random, either side to move): the table's value and distance
must follow from its values of the position's children (the readable engine's moves; a child
where the game is over is lost for its side to move), and every symmetry of the board must map
the position to one of the same value and distance.  Then the codes of every class the smaller
table (``--against`` men) has too are compared entry by entry.  Both tables are read from the
cache (``$LUDOTECA_CACHE``); one missing is an error, never a build.  Prints one line per class
and a last line ``all checks passed`` (exit 0) or the failures (exit 1).
"""

from __future__ import annotations

import argparse
import random
import sys

import numpy as np

from checks.retro_reference import bellman
from ludoteca.core import Color
from ludoteca.games.morris.board import symmetries
from ludoteca.games.morris.rules import Morris, MorrisState
from ludoteca.games.morris.table import MorrisSolver, MorrisTable


def built(rules: str, men: int) -> MorrisTable:
    """The table of ``rules`` to ``men`` a side, from the cache (an error if it is not there)."""
    solver = MorrisSolver(Morris.parse_rules(rules), men)
    if not solver.ready():
        raise SystemExit(f"no table of {rules} to {men} men in the cache ({solver.path()})")
    table, _ = solver.load()
    assert isinstance(table, MorrisTable)
    return table


def check_samples(
    table: MorrisTable, game: Morris, cls: tuple[int, int], samples: int, rng: random.Random
) -> list[str]:
    """The Bellman and symmetry checks on ``samples`` random positions of the class ``cls``."""
    board = game.variant.board
    perms = symmetries(board)
    failures = []
    for _ in range(samples):
        points = rng.sample(range(board.size), cls[0] + cls[1])
        own = sum(1 << p for p in points[: cls[0]])
        opp = sum(1 << p for p in points[cls[0] :])
        turn = Color(rng.randrange(2))
        men = (own, opp) if turn is Color.WHITE else (opp, own)
        state = MorrisState(game, men, (0, 0), turn)
        value = table.lookup(state)
        kids = []
        for code in state.legal_codes():
            state.push_code(code)
            kids.append((-1, 0) if state.outcome() is not None else table.lookup(state))
            state.pop_code()
        if value != bellman(kids):
            failures.append(f"{state.position_code()}: {value}, children say {bellman(kids)}")
        for perm in perms:
            white, black = (sum(1 << perm[p] for p in range(board.size) if m >> p & 1) for m in men)
            seen = table.lookup(MorrisState(game, (white, black), (0, 0), turn))
            if seen != value:
                failures.append(f"{state.position_code()}: {value}, its image {seen}")
                break
    return failures


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rules", default="morris", help="a Morris rule set (default morris)")
    parser.add_argument("--men", type=int, required=True, help="the table to check: men a side")
    parser.add_argument("--against", type=int, default=None, help="a smaller table: men a side")
    parser.add_argument("--samples", type=int, default=100, help="positions a class")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    rules = f"{args.rules}:repetition=0,move_rule=0"
    game = Morris.of(Morris.parse_rules(rules))
    table = built(rules, args.men)
    rng = random.Random(args.seed)
    failures = []
    classes = [(a, b) for a, h, b, k in table.layout.classes if not (h or k)]
    for cls in classes:
        found = check_samples(table, game, cls, args.samples, rng)
        print(f"{cls[0]}-{cls[1]}: {args.samples} positions, {len(found)} failures", flush=True)
        failures += found
    if args.against is not None:
        smaller = built(rules, args.against)
        for a, h, b, k in smaller.layout.classes:
            if h or k:
                continue
            mine = table.class_codes((a, 0, b, 0))
            theirs = smaller.class_codes((a, 0, b, 0))
            differ = int(np.count_nonzero(np.asarray(mine) != np.asarray(theirs)))
            print(f"{a}-{b}: {len(theirs)} entries, {differ} differing from the smaller table")
            if differ or len(mine) != len(theirs):
                failures.append(f"{a}-{b}: {differ} entries differ from the smaller table")
    for line in failures[:20]:
        print("FAILED", line)
    print("all checks passed" if not failures else f"{len(failures)} failures")
    sys.exit(1 if failures else 0)


if __name__ == "__main__":
    main()
