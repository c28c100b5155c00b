"""OpenSpiel's Nine Men's Morris point numbering, for the differential test and the benchmark."""

from __future__ import annotations

import pyspiel

__all__ = ["nine_mens_morris_points"]


def nine_mens_morris_points() -> list[str]:
    """Our names of OpenSpiel's ``nine_mens_morris`` points 0..23, read off its own drawing (where
    a man placed by each action appears), so that its actions can be translated to our moves."""
    game = pyspiel.load_game("nine_mens_morris")
    found = []
    for action in range(24):
        state = game.new_initial_state()
        state.apply_action(action)
        rows = str(state).splitlines()[:13]
        hits = [(r, line.index("W")) for r, line in enumerate(rows) if "W" in line]
        if len(hits) != 1:
            raise RuntimeError("unexpected nine_mens_morris drawing")
        found.append(hits[0])
    columns = sorted({c for _, c in found})
    return [f"{'abcdefg'[columns.index(c)]}{7 - r // 2}" for r, c in found]
