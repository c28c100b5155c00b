"""One version of the search in a process of its own, for the side-by-side depth benchmarks
(``bench/morris_depth.py``, ``bench/morelli_depth.py``): the process runs ``script`` with the
argument ``child`` and ``path`` first on ``PYTHONPATH``, reads one JSON task a line and answers
each with one JSON line."""

from __future__ import annotations

import json
import os
import subprocess
import sys
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
