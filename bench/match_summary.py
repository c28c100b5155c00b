"""Summaries of matches against outside engines, shared by ``vs_uci_mill`` and
``vs_boardspace_morelli`` (not run itself).

Contract: a game is a JSON object with ``score`` (ours: 1, 0.5 or 0) unless ``error`` says why
it is void, and ``think``, a mapping of each side's list of think times in seconds.
:func:`read_games` reads such games, one a line, from ``--out`` files (compressed ``.xz`` ones
too); :func:`report` prints a game as it ends and appends it to such a file;
:func:`score_lines` gives our W-D-L, the score and its 95% interval (normal approximation over
the counted games, a draw half a point; for a sweep, every game won or every game lost, whose
approximation has no width, the exact binomial interval); :func:`think_lines` each side's mean
and longest think.
"""

from __future__ import annotations

import json
import lzma
import math
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from ludoteca.core import Color, Outcome


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
        low, high = max(0.0, mean - 1.96 * spread), min(1.0, mean + 1.96 * spread)
        how = f"normal approximation over {n} games"
        if wins in (0, n) and not draws:  # a sweep: the approximation's interval has no width
            bound = 0.025 ** (1 / n)  # Clopper-Pearson: every game won (or lost) of n
            low, high = (bound, 1.0) if wins else (0.0, 1.0 - bound)
            how = f"exact binomial interval, {'every' if wins else 'no'} game won of {n}"
        lines.append(
            f"Ludoteca W-D-L {wins}-{draws}-{n - wins - draws}: score {100 * mean:.1f}% "
            f"(95% interval {100 * low:.1f}%-{100 * high:.1f}%, {how})"
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


def report(row: dict[str, Any], heading: str, out: Path | None) -> None:
    """Print a game as it ends (``heading``, then its result and how it ended or why it is void,
    its length, each side's longest think, its moves) and append it to ``out`` as a JSON line."""
    mine, theirs = row["think"]["ours"], row["think"]["theirs"]
    verdict = (
        f"VOID: {row['error']}"
        if "error" in row
        else f"{row['result']} ({row['termination']}), Ludoteca scores {row['score']:g}"
    )
    print(
        f"{heading}: {verdict} after {row['plies']} plies; think max ours "
        f"{max(mine, default=0):.2f} s, theirs {max(theirs, default=0):.2f} s\n  {row['moves']}",
        flush=True,
    )
    if out:
        with out.open("a") as stream:
            stream.write(json.dumps(row) + "\n")


def scored(record: dict[str, Any], outcome: Outcome | None, ours: Color) -> dict[str, Any]:
    """``record`` with the game's ``result``, ``termination`` and our ``score`` (1, 0.5 or 0)
    from its ``outcome``, unless it is void (``error``); the same dict, returned."""
    if "error" not in record:
        assert outcome is not None
        winner = outcome.winner
        record.update(
            result=outcome.result,
            termination=outcome.termination.label,
            score=0.5 if winner is None else float(winner is ours),
        )
    return record
