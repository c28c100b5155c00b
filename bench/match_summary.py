"""Summaries of matches against outside engines, shared by ``vs_uci_mill`` and
``vs_boardspace_morelli`` (not run itself).

Contract: a game is a JSON object with ``score`` (ours: 1, 0.5 or 0) unless ``error`` says why
it is void, and ``think``, a mapping of each side's list of think times in seconds.
:func:`read_games` reads such games, one a line, from ``--out`` files (compressed ``.xz`` ones
too); :func:`score_lines` gives our W-D-L, the score and its 95% interval (normal
approximation over the counted games, a draw half a point); :func:`think_lines` each side's
mean and longest think.
"""

from __future__ import annotations

import json
import lzma
import math
from collections.abc import Sequence
from pathlib import Path
from typing import Any


def read_games(paths: Sequence[Path]) -> list[dict[str, Any]]:
    """The games in ``paths``, one JSON object a line, decompressing ``.xz`` files."""
    games = []
    for path in paths:
        opener = lzma.open if path.suffix == ".xz" else open
        with opener(path, "rt", encoding="utf-8") as stream:
            games += [json.loads(line) for line in stream.read().splitlines() if line.strip()]
    return games


def score_lines(rows: Sequence[dict[str, Any]]) -> list[str]:
    """The games counted and void, then our W-D-L, score and its 95% interval."""
    counted = [r["score"] for r in rows if "error" not in r]
    n = len(counted)
    wins, draws = counted.count(1.0), counted.count(0.5)
    lines = [f"games counted: {n}, void (engine errors): {len(rows) - n}"]
    if n:
        mean = sum(counted) / n
        spread = math.sqrt(sum((s - mean) ** 2 for s in counted) / n / n)
        lines.append(
            f"Ludoteca W-D-L {wins}-{draws}-{n - wins - draws}: score {100 * mean:.1f}% "
            f"(95% interval {100 * max(0.0, mean - 1.96 * spread):.1f}%"
            f"-{100 * min(1.0, mean + 1.96 * spread):.1f}%, normal approximation over {n} games)"
        )
    return lines


def think_lines(rows: Sequence[dict[str, Any]], sides: Sequence[tuple[str, str]]) -> list[str]:
    """For each ``(key, what)`` of ``sides`` that has times: the mean and longest think."""
    lines = []
    for side, what in sides:
        times = [t for r in rows for t in r["think"].get(side, [])]
        if times:
            lines.append(
                f"think time of {what}: mean {sum(times) / len(times):.3f} s, "
                f"max {max(times):.3f} s over {len(times)}"
            )
    return lines
