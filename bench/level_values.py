"""Each level of a tabled rule set against perfect play: its share of moves that keep the
position's value, and its games against the perfect player; and level 1 against a careless
player (:mod:`ludoteca.ai.calibration`, :mod:`ludoteca.ai.careless`).

For each rule set named (its table built: ``ludoteca solve``; Nine Men's Morris is judged inside
its endgame tables, the largest built), prints per level: its moves judged by the table, the
share that kept the value with its 95% Wilson interval, the same among its moves where some
legal move would have lost the value ("choices": no lost position, no forced move), and its
wins, draws and losses against the perfect player; then level 1's games against the careless
player from the usual start, with the share it lost and its 95% interval (``--first SPEC``:
another agent's games instead, e.g. a former level 1; ``--games 0``: those games alone).
``--store`` keeps the shares in ``ludoteca/games/level_values.json``, which the levels list
shows (``ludoteca levels``, the web app's level selector).

    nice -n 10 .venv/bin/python -m bench.level_values felli felli-mullah morris-6 --games 40 \\
        --careless 100 --out bench/results/level_values.txt --store
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

from ludoteca.ai.calibration import Judged, against, against_perfect, wilson
from ludoteca.ai.levels import levels, store_value_shares
from ludoteca.ai.perfect import table_for
from ludoteca.games import load


def share(hits: int, total: int) -> str:
    """``hits`` of ``total`` as a percentage with its 95% Wilson interval."""
    if not total:
        return "-"
    low, high = wilson(hits, total)
    return f"{100 * hits / total:5.1f}% ({100 * low:.1f}-{100 * high:.1f})"


def entry(judged: Judged) -> dict[str, int | str]:
    """A level's figures as ``ludoteca/games/level_values.json`` keeps them."""
    games = judged.games
    return {
        "spec": judged.spec,
        "moves": judged.moves,
        "kept": judged.kept,
        "choices": judged.choices,
        "kept_choices": judged.kept_choices,
        "games": games.games,
        "wins": games.wins,
        "draws": games.draws,
        "losses": games.losses,
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("rules", nargs="+", help="rule sets with a built table")
    parser.add_argument("--games", type=int, default=40, help="games a level against perfect")
    parser.add_argument("--careless", type=int, default=100, help="level 1's careless games")
    parser.add_argument(
        "--first",
        default=None,
        help="an agent to play the careless player instead of level 1 (a level 1 to compare)",
    )
    parser.add_argument("--levels", type=int, nargs="*", default=None, help="default: all")
    parser.add_argument("--plies", type=int, default=4, help="random plies into the table")
    parser.add_argument("--lookahead", type=int, default=2, help="the perfect player's traps")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--out", type=Path, default=None)
    parser.add_argument("--store", action="store_true", help="keep the shares for the list")
    args = parser.parse_args()
    command = "python -m bench.level_values " + " ".join(sys.argv[1:])
    lines: list[str] = []

    def say(line: str) -> None:
        lines.append(line)
        print(line, flush=True)

    for name in args.rules:
        game = load(name)
        table = table_for(game.rules)
        if table is None:
            raise SystemExit(f"{name}: no built table (`ludoteca solve`)")
        endgame = not table.covers(game.new(seed=0))
        where = "its endgame table" if endgame else "its whole-game table"
        say(f"## {name}: judged by {where}")
        if args.games:
            say(
                f"{args.games} games a level against perfect play ({args.plies} value-keeping "
                "random plies into the table, each opening played with both colours; the "
                f"perfect player counts its traps {args.lookahead} "
                f"{'ply' if args.lookahead == 1 else 'plies'} ahead)"
            )
            say(
                f"{'level':>5}  {'agent':<38} {'moves':>6}  {'kept (95%)':<20} {'choices':>7}  "
                f"{'kept (95%)':<20} {'W-D-L vs perfect':>16}  {'s':>5}"
            )
        measured = {}
        for level in levels(game.rules) if args.games else []:
            if args.levels and level.number not in args.levels:
                continue
            started = time.perf_counter()
            judged = against_perfect(
                game.rules, level.spec, args.games, args.seed, args.plies, args.lookahead
            )
            measured[level.number] = entry(judged)
            say(
                f"{level.number:>5}  {level.spec:<38} {judged.moves:>6}  "
                f"{share(judged.kept, judged.moves):<20} {judged.choices:>7}  "
                f"{share(judged.kept_choices, judged.choices):<20} "
                f"{judged.games!s:>16}  {time.perf_counter() - started:>5.0f}"
            )
        if args.careless:
            first = args.first or levels(game.rules)[0].spec
            started = time.perf_counter()
            results = against(game.rules, first, "careless", args.careless, args.seed)
            who = "level 1" if args.first is None else "the agent"
            say(
                f"{who} ({first}) against the careless player, from the start, colours "
                f"alternating: {results} (its W-D-L, {results.games} games); it lost "
                f"{share(results.losses, results.games)}  [{time.perf_counter() - started:.0f} s]"
            )
        say("")
        if args.store and measured:
            store_value_shares(game.rules, measured, command, endgame)
    if args.out:
        with args.out.open("a") as out:
            out.write(f"# {time.strftime('%Y-%m-%d %H:%M')}  {command}\n" + "\n".join(lines))
            out.write("\n")


if __name__ == "__main__":
    main()
