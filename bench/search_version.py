"""One version of the search in a process of its own, for the side-by-side depth benchmarks
(``bench/morris_depth.py``, ``bench/morelli_depth.py``): the process runs ``script`` with the
argument ``child`` and ``path`` first on ``PYTHONPATH``, reads one JSON task a line and answers
each with one JSON line; :func:`compare` is both benchmarks' command line."""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path


class Version:
    """One version's search in a process of its own (``path`` first on ``PYTHONPATH``)."""

    def __init__(self, label: str, path: Path, script: str, child: str) -> None:
        self.label = label
        env = dict(os.environ, PYTHONPATH=str(path))
        self.process = subprocess.Popen(
            [sys.executable, "-P", script, child],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            text=True,
            env=env,
        )

    def ask(self, task: dict[str, object]) -> dict[str, object]:
        assert self.process.stdin is not None and self.process.stdout is not None
        self.process.stdin.write(json.dumps(task) + "\n")
        self.process.stdin.flush()
        answer: dict[str, object] = json.loads(self.process.stdout.readline())
        return answer

    def close(self) -> None:
        if self.process.stdin is not None:
            self.process.stdin.close()
        self.process.wait(60)


def compare(
    description: str,
    depth: int,
    script: str,
    child: str,
    depth_table: Callable[[list[Version], int], None],
    time_table: Callable[[list[Version], float], None],
) -> None:
    """The benchmarks' command: ``--base`` and ``--new`` revisions (git refs, or the working
    tree), each checked out and run as a :class:`Version` of ``script``; then the tables of
    ``--what`` (nodes to each depth up to ``--depth``, default ``depth``; the search at
    ``--seconds`` a move)."""
    from ludoteca.ai.versions import WORK, checkout

    parser = argparse.ArgumentParser(description=description)
    parser.add_argument("--base", required=True, help="the earlier revision (a git ref)")
    parser.add_argument(
        "--new", nargs="+", default=[WORK], help="the revisions to compare (default WORK)"
    )
    parser.add_argument("--depth", type=int, default=depth, help="the depth of the nodes count")
    parser.add_argument("--seconds", type=float, default=1.0, help="the time a move")
    parser.add_argument("--what", choices=["depth", "time", "both"], default="both")
    args = parser.parse_args()
    versions = []
    for ref in [args.base, *args.new]:
        found = checkout(ref)
        label = "work" if ref == WORK else found.commit[:10]  # refs may share their first letters
        print(f"{label} = {ref}" + (" (with changes)" if found.dirty else ""), flush=True)
        versions.append(Version(label, found.path, script, child))
    try:
        if args.what in ("depth", "both"):
            depth_table(versions, args.depth)
        if args.what in ("time", "both"):
            time_table(versions, args.seconds)
    finally:
        for version in versions:
            version.close()
