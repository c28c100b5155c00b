"""Golden playthroughs: one seeded random game for every rule set of every game, move by move,
checked into ``tests/data/golden/`` (as OpenSpiel does with its playthroughs).

A trace starts with the rule set and the start position; then, for every position, its code,
its legal moves (when there are at most 60, else their number and a digest of the list) and the
move played; the last line names the result and the rule that ended the game.  The test plays the
same game again and compares the whole text.  After a deliberate rules change, regenerate with
``python -m tests.games.test_golden`` and review the diff.
"""

from __future__ import annotations

import hashlib
import random
import sys
from pathlib import Path

import pytest

import ludoteca
from ludoteca.games import family, game_names

DATA = Path(__file__).parents[1] / "data" / "golden"
SEED = 2026
#: every rule set that is a game of its own (not the custom one: with its defaults it is Nine
#: Men's Morris, ``morris``)
RULE_SETS = [
    d.name
    for g in game_names()
    for d in family(g).rule_sets
    if ludoteca.load(d.name).rules.name == d.name
]


def trace(rules: str, seed: int = SEED) -> str:
    """The golden text of a seeded random game of a rule set."""
    rng = random.Random(seed)
    state = ludoteca.new_game(rules, seed=seed)
    lines = [
        f"# {state.game.name} ({state.rules}), random game, seed {seed}",
        f"start {state.position_code()}",
    ]
    while True:
        moves = [str(m) for m in state.legal_moves]
        listed = " ".join(moves)
        if len(moves) > 60:
            digest = hashlib.sha256(listed.encode()).hexdigest()[:16]
            listed = f"({len(moves)} moves, sha256 {digest})"
        lines.append(f"ply {state.ply}: {state.position_code()}")
        lines.append(f"  legal {len(moves)}: {listed}")
        outcome = state.outcome()
        if outcome is not None:
            lines.append(f"result {outcome.result} {outcome.termination.label}")
            return "\n".join(lines) + "\n"
        move = rng.choice(list(state.legal_moves))
        lines.append(f"  play {move}")
        state.push(move)


def test_every_rule_set_has_a_playthrough() -> None:
    assert sorted(p.stem for p in DATA.glob("*.txt")) == sorted(RULE_SETS)


@pytest.mark.parametrize("rules", RULE_SETS)
def test_golden_playthrough(rules: str) -> None:
    expected = (DATA / f"{rules}.txt").read_text()
    assert trace(rules) == expected


if __name__ == "__main__":
    DATA.mkdir(parents=True, exist_ok=True)
    for name in RULE_SETS:
        (DATA / f"{name}.txt").write_text(trace(name))
        print(f"wrote {DATA / name}.txt", file=sys.stderr)
