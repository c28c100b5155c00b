"""Morelli's search side by side: nodes to each depth, and the depth a timed move reaches, for
the search of this working tree (or other revisions, ``--new``) against an earlier revision's,
on the same positions.

The positions: three 13x13 games set up from seeds 1-3 (moves of a one-ply search with a third
of them random, recorded below so that every version sees the same ones), each cut after 0, 12,
24, 36 and 48 plies.  Each version runs in a process of its own from a git worktree (as
``ludoteca sprt`` does).  Two measurements:

* ``depth``: the nodes and seconds the compiled search takes to complete each depth up to
  ``--depth`` (a depth limit: deterministic nodes), and the move and score it ends with;
* ``time``: the search at ``--seconds`` a move: the depth it completed and its nodes per second.

Not a test: run it by hand, e.g.

    .venv/bin/python -m bench.morelli_depth --base 966d2b5 --new f8804df a239584 --depth 4 \\
        --seconds 1 > bench/results/morelli-depth.txt
"""

from __future__ import annotations

import json
import statistics
import sys
import time
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from bench.search_version import Version


#: (setup seed, moves) of the measured games
GAMES = [
    (
        1,
        "J13-J4 A13-H6 J1-E6 A3-F8 C13-H8 M2-G8 I13-I8 B1-B10 F13-C10 A5-H5 G13-J10 G1-G6 A4-D4 "
        "H13-H11 I1-I7 D13-D10 F1-K6 A7-H7 A9-G3 H11-H9 B10-G5 M10-I6 K13-G9 M5-J8 M9-I9 D1-G4 "
        "M7-K7 A11-E7 M11-G11 E7-F7 A12-E12 B13-B10 M3-J6 A8-G2 L13-L6 M12-J9 E12-E7 G3-H4 K6-J7 "
        "E13-E8 G11-E9 A6-D6 A2-F2 E1-E5 J6-I5 G2-J5 A1-C3 K1-K3",
    ),
    (
        2,
        "A8-H8 A12-G6 E1-E12 A7-F7 E13-L6 B13-G8 M1-B12 M12-H7 K13-G9 C13-C5 B12-F8 H13-H9 L6-I9 "
        "G13-G10 M10-H10 F13-I10 A5-G11 A4-F9 M8-I8 C1-H6 M7-I11 M6-J9 K1-K8 A11-F6 G1-G5 B1-B4 "
        "H1-H5 M5-K7 M3-I7 I1-I6 E12-E7 J1-E6 F1-K6 M4-H4 A9-D6 M11-J8 K8-J7 M13-J10 D1-G4 B4-F4 "
        "A3-G3 M9-K9 A1-E5 J13-H11 D13-D9 A6-B5 L13-J11 B5-D7",
    ),
    (
        3,
        "M10-G10 M9-J9 D1-J7 A4-D7 A6-G6 L1-I4 M2-G8 H1-D5 G13-F12 E13-E10 H13-H7 A11-F6 F12-F7 "
        "K1-K3 B1-F5 C1-C3 F13-F8 M13-K11 D13-D10 E1-E2 C13-F10 M12-L11 A9-C11 M5-I9 M6-H6 E2-E5 "
        "M3-H8 J1-J4 A5-E9 A3-E7 I1-G3 C3-D4 M11-J8 J9-I8 G10-H9 I4-I7 J7-I6 J4-I5 M7-J7 M8-K8 "
        "G3-G4 A8-C8 A2-J2 M4-H4 B13-B6 J13-J9 B6-D6 A13-B12",
    ),
]
#: the plies after which each game's position is measured
PLIES = (0, 12, 24, 36, 48)

#: run in a version's own process: read one JSON task a line, answer one JSON line each
CHILD = "--child"


def child() -> None:
    """Answer tasks from stdin with the search of the ``ludoteca`` found on the path."""
    import ludoteca
    from ludoteca.ai import Limit
    from ludoteca.ai.search import SearchAgent, SearchResult

    SearchAgent(0).analyse(ludoteca.new_game("morelli", seed=1), Limit(depth=2))  # compile
    for line in sys.stdin:
        task = json.loads(line)
        state = ludoteca.new_game("morelli", seed=task["seed"])
        for text in task["moves"]:
            state.push(text)
        if task["kind"] == "depth":
            done: list[SearchResult] = []
            found = SearchAgent(0).analyse(state, Limit(depth=task["depth"]), done.append)
            reached = [(r.depth, r.nodes, r.seconds) for r in done]
            answer = {"depths": reached, "move": str(found.move), "score": found.score}
        else:
            started = time.perf_counter()
            found = SearchAgent(0, seconds=task["seconds"]).analyse(state)
            took = time.perf_counter() - started
            answer = {"took": took, "depth": found.depth, "nodes": found.nodes}
        print(json.dumps(answer), flush=True)


def positions() -> list[tuple[int, list[str]]]:
    """Each game of :data:`GAMES` cut after each ply of :data:`PLIES`."""
    return [(seed, moves.split()[:plies]) for seed, moves in GAMES for plies in PLIES]


def main() -> None:
    from bench.search_version import compare  # the parent only: its child runs with -P

    compare(__doc__.splitlines()[0], 4, __file__, CHILD, depth_table, time_table)


def depth_table(versions: list[Version], depth: int) -> None:
    """Print the nodes (and seconds) each version takes to complete each depth."""
    print(f"\nnodes (thousands) and seconds to complete each depth, up to depth {depth}")
    totals: dict[str, int] = {v.label: 0 for v in versions}
    for seed, moves in positions():
        task = {"kind": "depth", "seed": seed, "moves": moves, "depth": depth}
        answers = [v.ask(task) for v in versions]
        print(f"\nseed {seed} after {len(moves)} plies")
        print(f"{'depth':>5}" + "".join(f"{v.label:>21}" for v in versions))
        rows: dict[int, list[str]] = {}
        for answer in answers:
            for d, nodes, seconds in answer["depths"]:  # type: ignore[attr-defined]
                rows.setdefault(d, []).append(f"{nodes / 1000:>10.1f}k {seconds:>7.2f}s")
        for d in sorted(rows):
            print(f"{d:>5}" + "".join(f"{cell:>21}" for cell in rows[d]))
        for version, answer in zip(versions, answers, strict=True):
            totals[version.label] += answer["depths"][-1][1]  # type: ignore[index]
            print(f"  {version.label}: {answer['move']} score {answer['score']}")
    print(f"\ntotal nodes to depth {depth} over {len(positions())} positions:")
    for label, nodes in totals.items():
        print(f"  {label:>10}: {nodes / 1e6:.2f}M")


def time_table(versions: list[Version], seconds: float) -> None:
    """Print the depth each version completes at ``seconds`` a move and its nodes per second,
    the versions taking turns position by position."""
    print(f"\nthe search at {seconds:g} s a move: depth completed, nodes per second")
    print(f"{'seed':>4}{'plies':>6}" + "".join(f"{v.label:>14}{'nodes/s':>10}" for v in versions))
    depths: dict[str, list[int]] = {v.label: [] for v in versions}
    speed: dict[str, list[float]] = {v.label: [0.0, 0.0] for v in versions}
    for seed, moves in positions():
        cells = []
        for version in versions:
            task = {"kind": "time", "seed": seed, "moves": moves, "seconds": seconds}
            answer = version.ask(task)
            took, nodes = float(answer["took"]), int(answer["nodes"])  # type: ignore[arg-type, call-overload]
            depths[version.label].append(int(answer["depth"]))  # type: ignore[call-overload]
            speed[version.label][0] += nodes
            speed[version.label][1] += took
            cells.append(f"{answer['depth']:>14}{nodes / took:>10,.0f}")
        print(f"{seed:>4}{len(moves):>6}" + "".join(cells))
    for label in depths:
        nodes, took = speed[label]
        print(
            f"  {label:>10}: mean depth {statistics.mean(depths[label]):.2f}, "
            f"{nodes / took:,.0f} nodes/s over all positions"
        )


if __name__ == "__main__":
    if sys.argv[1:] == [CHILD]:
        child()
    else:
        main()
