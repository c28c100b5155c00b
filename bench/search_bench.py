"""Search speed, side by side in one run: the compiled search against the readable Python
search, on the same positions, with the same time per position.

For each rule set: its start and the positions after 8, 16 and 24 plies of a seeded random game.
Prints, per rule set, the nodes per second (all nodes over all the time, so that a position
where a search finds a quick end does not outweigh the others) and the mean depth completed by
each search, and the speed-up; ``--out`` also writes the rows as JSON lines.  ``--baseline
REV`` also runs the search of an earlier revision of this repository (taken out with ``git
archive`` into a temporary folder and run in a process of its own, one position at a time,
interleaved with the others), e.g. the search that was the top level before the compiled one.
``--compiled`` times the compiled search alone: to compare two revisions of it, run this
script with each revision first on ``PYTHONPATH``, in turns (warm both revisions' numba caches
first: a baseline taken out with ``git archive`` has none, and compiles while it is timed).
Not a test: run it by hand.

    .venv/bin/python -m bench.search_bench --seconds 1 --baseline 230fac6 \
        --out bench/results/search.jsonl
"""

from __future__ import annotations

import argparse
import io
import json
import random
import statistics
import subprocess
import sys
import tarfile
import tempfile
from pathlib import Path

import ludoteca
from ludoteca.ai import Limit
from ludoteca.ai.search import SearchAgent

RULE_SETS = ["morris", "morris-12", "felli", "felli-mullah", "morelli", "morelli-9"]


def positions(rules: str) -> list[ludoteca.State]:
    rng = random.Random(rules)
    state = ludoteca.new_game(rules, seed=1)
    out = [state.copy()]
    for ply in range(1, 25):
        codes = state.legal_codes()
        if not codes:
            break
        state.push_code(rng.choice(codes))
        if ply % 8 == 0 and state.outcome() is None:
            out.append(state.copy())
    return out


def measure(agent: SearchAgent, state: ludoteca.State, seconds: float) -> tuple[int, int, float]:
    result = agent.analyse(state, Limit(seconds=seconds))
    return result.nodes, result.depth, result.seconds


#: run in the earlier revision's folder: read "rules position seconds" lines, answer each with
#: "nodes depth seconds" from that revision's readable search
BASELINE = """
import sys
import ludoteca
from ludoteca.ai import Limit
from ludoteca.ai.search import SearchAgent
for line in sys.stdin:
    rules, seconds, code = line.rstrip("\\n").split(" ", 2)
    state = ludoteca.load(rules).from_position_code(code)
    found = SearchAgent(0).analyse(state, Limit(seconds=float(seconds)))
    print(found.nodes, found.depth, found.seconds, flush=True)
"""


class Baseline:
    """The readable search of revision ``rev``, in a process of its own."""

    def __init__(self, rev: str) -> None:
        root = Path(__file__).resolve().parent.parent
        self.folder = tempfile.mkdtemp(prefix="ludoteca-baseline-")
        archive = subprocess.run(
            ["git", "-C", str(root), "archive", rev, "ludoteca"], check=True, capture_output=True
        ).stdout
        with tarfile.open(fileobj=io.BytesIO(archive)) as tar:
            tar.extractall(self.folder, filter="data")
        self.process = subprocess.Popen(
            [sys.executable, "-c", BASELINE],
            cwd=self.folder,
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            text=True,
        )

    def measure(self, rules: str, state: ludoteca.State, seconds: float) -> tuple[int, int, float]:
        assert self.process.stdin is not None and self.process.stdout is not None
        self.process.stdin.write(f"{rules} {seconds} {state.position_code()}\n")
        self.process.stdin.flush()
        nodes, depth, took = self.process.stdout.readline().split()
        return int(nodes), int(depth), float(took)

    def close(self) -> None:
        if self.process.stdin is not None:
            self.process.stdin.close()
        self.process.wait(30)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=1.0)
    parser.add_argument("--rules", nargs="*", default=RULE_SETS)
    parser.add_argument("--out", type=Path, default=None)
    parser.add_argument("--compiled", action="store_true", help="time the compiled search alone")
    parser.add_argument(
        "--baseline",
        default=None,
        metavar="REV",
        help="also run the readable search of this git revision",
    )
    args = parser.parse_args()
    rows = []
    warm = SearchAgent(0)
    for rules in args.rules:  # compile (or load) the kernels before timing anything
        warm.analyse(ludoteca.new_game(rules, seed=1), Limit(depth=1))
    baseline = Baseline(args.baseline) if args.baseline else None
    columns = ([] if args.compiled else ["python"]) + ["compiled"]
    columns += ["baseline"] if baseline else []
    print(
        f"{'rule set':<14} "
        + " ".join(f"{c + ' nps':>14} {'depth':>5}" for c in columns)
        + ("" if args.compiled else f" {'speed-up':>9}")
        + (f" {'vs ' + args.baseline:>12}" if baseline else "")
    )
    for rules in args.rules:
        nodes: dict[str, int] = {c: 0 for c in columns}
        seconds: dict[str, float] = {c: 0.0 for c in columns}
        depth: dict[str, list[int]] = {c: [] for c in columns}
        for state in positions(rules):
            found = (
                {}
                if args.compiled
                else {"python": measure(SearchAgent(0, compiled=False), state, args.seconds)}
            )
            found["compiled"] = measure(SearchAgent(0), state, args.seconds)
            if baseline is not None:
                found["baseline"] = baseline.measure(rules, state, args.seconds)
            row: dict[str, object] = {"rules": rules, "position": state.position_code()}
            for c, (searched, reached, took) in found.items():
                nodes[c] += searched
                seconds[c] += took
                depth[c].append(reached)
                row[c] = {"nodes": searched, "depth": reached, "seconds": took}
            if baseline is not None:
                row["baseline"] = {**row["baseline"], "revision": args.baseline}  # type: ignore
            rows.append(row)
        nps = {c: nodes[c] / seconds[c] for c in columns}
        line = f"{rules:<14} " + " ".join(
            f"{nps[c]:>14,.0f} {statistics.mean(depth[c]):>5.1f}" for c in columns
        )
        if not args.compiled:
            line += f" {nps['compiled'] / nps['python']:>8.0f}x"
        if baseline is not None:
            line += f" {nps['compiled'] / nps['baseline']:>11.0f}x"
        print(line, flush=True)
    if baseline is not None:
        baseline.close()
    if args.out:
        args.out.parent.mkdir(parents=True, exist_ok=True)
        args.out.write_text("".join(json.dumps(r) + "\n" for r in rows))


if __name__ == "__main__":
    main()
