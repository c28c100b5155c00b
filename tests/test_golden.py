"""Golden playthroughs: a whole game per rule set, move by move, checked into tests/data/.

Each line of a trace is ``ply move legal-move-count position-code`` after the move; the last
line names the result.  Regenerate after a deliberate rules change with
``python tests/test_golden.py`` and review the diff.
"""

from __future__ import annotations

import random
import sys
from pathlib import Path

import pytest

import ludoteca

DATA = Path(__file__).parent / "data"
GOLDEN = {"morris_golden.txt": ("morris", 2026)}


def trace(name: str, seed: int) -> list[str]:
    rng = random.Random(seed)
    state = ludoteca.new_game(name, seed=seed)
    lines = [f"# {name} ({state.rules}), random game, seed {seed}", f"0 - "
             f"{state.legal_moves.count()} {state.code()}"]
    while state.outcome() is None:
        move = rng.choice(list(state.legal_moves))
        state.push(move)
        lines.append(f"{state.ply} {move} {state.legal_moves.count()} {state.code()}")
    outcome = state.outcome()
    assert outcome is not None
    lines.append(f"result {outcome.result} {outcome.termination.label}")
    return lines


@pytest.mark.parametrize("filename", sorted(GOLDEN))
def test_golden_playthrough(filename: str) -> None:
    lines = (DATA / filename).read_text().splitlines()
    name, seed = GOLDEN[filename]
    _header, first, *plies, last = lines
    state = ludoteca.new_game(name, seed=seed)
    assert first == f"0 - {state.legal_moves.count()} {state.code()}"
    for line in plies:
        ply, move, count, code = line.split(" ", 3)
        state.push(move)
        assert (state.ply, state.legal_moves.count(), state.code()) == (int(ply), int(count),
                                                                       code), line
    outcome = state.outcome()
    assert outcome is not None
    assert last == f"result {outcome.result} {outcome.termination.label}"


if __name__ == "__main__":
    for filename, (name, seed) in GOLDEN.items():
        (DATA / filename).write_text("\n".join(trace(name, seed)) + "\n")
        print(f"wrote {DATA / filename}", file=sys.stderr)
