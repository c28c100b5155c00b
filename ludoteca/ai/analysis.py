"""Hints and analysis: the best move, an evaluation a person understands, and the main line.

The same call serves a hint during play, an evaluation bar and the review of a finished game.
Rule sets with a solved table are answered from it (exact); the others by alpha-beta search.
"""

from __future__ import annotations

from dataclasses import dataclass

from ..core import Color, Move, State
from .agents import Limit
from .search import WIN, SearchAgent, describe, is_mate

__all__ = ["Analysis", "analyse", "review"]


@dataclass
class Analysis:
    """The verdict on a position for its side to move."""

    move: Move
    score: int  # for the side to move, see ludoteca.ai.search
    white_share: float  # expected score for White, 0..1 (the evaluation bar)
    text: str
    pv: list[Move]
    exact: bool  # from a solved table, not an estimate

    def as_dict(self) -> dict[str, object]:
        return {"move": str(self.move), "score": self.score, "white_share": self.white_share,
                "text": self.text, "pv": [str(m) for m in self.pv], "exact": self.exact}


def _share(score: int, turn: Color) -> float:
    if is_mate(score):
        mover = 1.0 if score > 0 else 0.0
    elif score == 0:
        mover = 0.5
    else:
        mover = 1 / (1 + 10 ** (-score / 400))
    return mover if turn is Color.WHITE else 1.0 - mover


def analyse(state: State, limit: Limit | None = None, seed: int | None = None) -> Analysis:
    """Analyse a position that is not over (within ``limit``; default one second)."""
    from .perfect import PerfectAgent, table_for

    if table_for(state.rules) is not None:
        perfect = PerfectAgent(state.rules, seed)
        move = perfect.choose(state)
        value, plies = perfect.evaluate(state)
        score = 0 if value == 0 else (WIN - plies if value > 0 else -(WIN - plies))
        line = [move]
        child = state.child(move)
        while len(line) < 12 and child.outcome() is None:
            reply = perfect.choose(child)
            line.append(reply)
            child.push(reply)
        text = describe(score, state.turn) if value else "a draw with best play"
        return Analysis(move, score, _share(score, state.turn), text, line, True)
    agent = SearchAgent(seed)
    result = agent.analyse(state, limit or Limit(seconds=1.0))
    return Analysis(result.move, result.score, _share(result.score, state.turn),
                    describe(result.score, state.turn), result.pv, False)


def review(state: State, limit: Limit | None = None,
           threshold: float = 0.15) -> list[tuple[int, Move, Analysis, float]]:
    """Mistakes of a finished or running game: (ply, move played, best analysis, loss).

    ``loss`` is how much of the expected score (0..1) the mover gave away by the move played;
    moves that lose more than ``threshold`` are listed.
    """
    root = state.copy()
    played = list(root.move_stack)
    while root.move_stack:
        root.pop_code()
    found = []
    for code in played:
        if root.outcome() is not None:
            break
        before = analyse(root, limit)
        mover = root.turn
        root.push_code(code)
        if root.outcome() is None:
            after = analyse(root, limit).white_share
        else:
            outcome = root.outcome()
            assert outcome is not None
            after = 0.5 if outcome.winner is None else float(outcome.winner is Color.WHITE)
        best = before.white_share
        loss = (best - after) if mover is Color.WHITE else (after - best)
        if loss > threshold:
            found.append((root.ply, root.move_of(code), before, loss))
    return found
