"""The careless player (the ``careless`` spec): random play plus a look one ply ahead, standing
for a person who has just learnt the rules and does not think further than the next reply.

Among its legal moves it plays, uniformly at random among the moves of the first group that
has any:

1. the moves that win at once (the game ends with its win);
2. the moves after which no reply of the opponent wins at once and none takes material
   (:func:`material`: its pieces on the board and in hand; a capture, a removal);
3. the moves after which no reply wins at once;
4. every legal move.

So it takes a win it can see, never leaves a man to be taken when it can help it, and is
otherwise blind: it sets no trap, does not seek a capture, and walks into any threat that takes
two plies to land.  The ladder's first level is made to lose most of its games to it
(:mod:`ludoteca.ai.calibration`, ``bench/level_values.py``).
"""

from __future__ import annotations

import random

from ..core import Color, Move, RuleSet, State
from .base import Limit, parse_spec

__all__ = ["CarelessAgent", "careless_agent", "material"]


def material(state: State, colour: Color) -> int:
    """The pieces ``colour`` has: on the board (each token of :meth:`State.pieces` whose style
    is that side's, a man or a Mullah alike) and in hand."""
    styles = state.game.board.styles
    on_board = sum(1 for token in state.pieces() if token and styles[token].side is colour)
    hand = state.in_hand()
    return on_board + (hand[colour] if hand is not None else 0)


class CarelessAgent:
    """Plays as the module says: a win at once, else a move that gives nothing away one ply
    ahead, else at random."""

    def __init__(self, seed: int | None = None) -> None:
        self.name = "careless"
        self._rng = random.Random(seed)

    def _after(self, state: State, code: int) -> int:
        """What ``code`` leads to one ply ahead: 0 it wins at once, 1 no reply wins or takes
        material, 2 a reply takes material but none wins, 3 a reply wins at once."""
        me = state.turn
        state.push_code(code)
        try:
            outcome = state.outcome()
            if outcome is not None:
                return 1 if outcome.winner is None else 0 if outcome.winner is me else 3
            mine = material(state, me)
            worst = 1
            for reply in state.legal_codes():
                state.push_code(reply)
                try:
                    ending = state.outcome()
                    if ending is not None and ending.winner is not None and ending.winner is not me:
                        return 3
                    if material(state, me) < mine:
                        worst = 2
                finally:
                    state.pop_code()
            return worst
        finally:
            state.pop_code()

    def choose(self, state: State, limit: Limit | None = None) -> Move:
        codes = state.legal_codes()
        if not codes:
            raise ValueError("the game is over: there is no move to choose")
        grades = [self._after(state, code) for code in codes]
        best = min(grades)
        return state.move_of(
            self._rng.choice([c for c, g in zip(codes, grades, strict=True) if g == best])
        )


def careless_agent(spec: str, rules: RuleSet, seed: int | None = None) -> CarelessAgent:
    """The agent of a ``careless`` spec (its options checked, then unused)."""
    parse_spec(spec)
    return CarelessAgent(seed)
