"""Nodes to depth and the time a move takes, side by side: the search of this working tree (or
of other revisions, ``--new``) against the search of an earlier revision, on the Nine Men's
Morris positions of issue 27 (the placement positions of the games the top level lost to an
outside engine).

Two measurements, each run by every version in processes of their own (an earlier revision is
checked out as a git worktree, as ``ludoteca sprt`` does):

* ``depth``: the nodes and seconds the compiled search takes to complete each depth up to
  ``--depth`` (a depth limit: deterministic nodes), and the best move and score it ends with;
* ``time``: the top level's move at ``--seconds`` a move (``SearchAgent.choose``, as a game
  plays it): the seconds it really took and the depth it completed.

Not a test: run it by hand, e.g.

    .venv/bin/python -m bench.morris_depth --base faba354 --depth 12 --seconds 1 \
        > bench/results/morris-depth.txt
"""

from __future__ import annotations

import json
import statistics
import sys
import time
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from bench.search_version import Version


#: the games of issue 27 (moves as the analysis command takes them)
GAMES = [
    "f6 a4 b6 d6 f2 f4 b2 d2 b4xf4 f4 e4 c4 e5 e3 d1 d5 d7 c3 d1-g1 d5-c5xg1",
    "g4 e5 d6 c3 f4 e4 e3 c5 d5 c4xd5 d5 d7 f6 f2 b6xd7 d7 g1 d2 g4-g7 c3-d3",
    "f6 a4 d2 f2 d6 b6 b4 d1 g4 a1 g1 a7xg1 g1 g7 d7 d5 e4 f4 e4-e5 d5-c5",
]
#: the plies after which each game's position is measured
PLIES = (8, 12, 16, 20)

#: run in a version's own process: read one JSON task a line, answer one JSON line each
CHILD = "--child"


def child() -> None:
    """Answer tasks from stdin with the search of the ``ludoteca`` found on the path."""
    import ludoteca
    from ludoteca.ai import Limit
    from ludoteca.ai.search import SearchAgent, SearchResult

    warm = SearchAgent(0)
    warm.analyse(ludoteca.new_game("morris"), Limit(depth=2))
    for line in sys.stdin:
        task = json.loads(line)
        state = ludoteca.new_game("morris")
        for text in task["moves"]:
            state.push(text)
        if task["kind"] == "depth":
            done: list[SearchResult] = []
            found = SearchAgent(0).analyse(state, Limit(depth=task["depth"]), done.append)
            reached = [(r.depth, r.nodes, r.seconds) for r in done]
            answer = {"depths": reached, "move": str(found.move), "score": found.score}
        else:
            agent = SearchAgent(0, seconds=task["seconds"])
            started = time.perf_counter()
            found = agent.analyse(state)
            took = time.perf_counter() - started
            answer = {"took": took, "depth": found.depth, "move": str(found.move)}
        print(json.dumps(answer), flush=True)


def positions() -> list[list[str]]:
    """The measured positions: each game of :data:`GAMES` cut after each ply of :data:`PLIES`."""
    return [game.split()[:plies] for game in GAMES for plies in PLIES]


def main() -> None:
    from bench.search_version import compare  # the parent only: its child runs with -P

    compare(__doc__.splitlines()[0], 12, __file__, CHILD, depth_table, time_table)


def depth_table(versions: list[Version], depth: int) -> None:
    """Print the nodes and seconds to each depth, per position, for both versions."""
    print(f"\nnodes (thousands) and seconds to complete each depth, up to depth {depth}")
    totals: dict[str, list[int]] = {v.label: [] for v in versions}
    for moves in positions():
        print(f"\nafter {len(moves)} plies: {' '.join(moves)}")
        answers = [v.ask({"kind": "depth", "moves": moves, "depth": depth}) for v in versions]
        rows: dict[int, list[str]] = {}
        for answer in answers:
            for d, nodes, seconds in answer["depths"]:  # type: ignore[attr-defined]
                rows.setdefault(d, []).append(f"{nodes / 1000:>10.1f}k {seconds:>7.2f}s")
        head = "".join(f"{v.label:>21}" for v in versions)
        print(f"{'depth':>5}{head}")
        for d in sorted(rows):
            if d >= depth - 4:
                print(f"{d:>5}" + "".join(f"{cell:>21}" for cell in rows[d]))
        for version, answer in zip(versions, answers, strict=True):
            last = answer["depths"][-1]  # type: ignore[index]
            totals[version.label].append(last[1])
            print(f"  {version.label}: {answer['move']} score {answer['score']}")
    print(f"\ntotal nodes to depth {depth} over {len(positions())} positions:")
    for label, nodes in totals.items():
        print(f"  {label:>10}: {sum(nodes) / 1e6:.2f}M")


def time_table(versions: list[Version], seconds: float) -> None:
    """Print the seconds a move really took at ``seconds`` a move and the depth completed."""
    print(f"\nthe top level's search at {seconds:g} s a move: seconds used, depth completed")
    head = "".join(f"{v.label + ' s':>12}{'depth':>6}" for v in versions)
    print(f"{'plies':>5}{head}")
    used: dict[str, list[float]] = {v.label: [] for v in versions}
    for moves in positions():
        cells = []
        for version in versions:
            answer = version.ask({"kind": "time", "moves": moves, "seconds": seconds})
            used[version.label].append(float(answer["took"]))  # type: ignore[arg-type]
            cells.append(f"{answer['took']:>12.2f}{answer['depth']:>6}")
        print(f"{len(moves):>5}" + "".join(cells))
    for label, took in used.items():
        print(f"  {label:>10}: mean {statistics.mean(took):.2f} s, least {min(took):.2f} s")


if __name__ == "__main__":
    if sys.argv[1:] == [CHILD]:
        child()
    else:
        main()
