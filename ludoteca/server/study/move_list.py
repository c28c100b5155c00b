"""Every legal move of a position with its value, for the analysis board's moves panel: exact
from a solved table where one covers the position (win in N, draw, loss in N plies, ranked as
lichess ranks its tablebase moves: wins fastest first, then draws, then losses slowest first),
else the search's score at :data:`DEPTH`, ranked best first.  The values are worked out in the
analysis pool (:func:`~ludoteca.server.study.explorer.move_scores`), never on the event loop."""

from __future__ import annotations

from typing import Literal

from ...ai.base import Limit
from ...ai.search import WIN
from ...core import Color
from ...i18n import _, ngettext
from ..computer.computer import Computer
from .analysis import bar_text, state_of
from .explorer import move_scores
from .schemas import EveryMove, ExactValue, MoveRow

__all__ = ["DEPTH", "every_move", "exact_value"]

#: the search depth of a position no table covers (a modest one: Morelli's 480 first moves
#: take seconds at depth 3)
DEPTH = 2
#: the seconds a position's values should take in the analysis pool (their deadline)
EXPECTED = 5.0


async def every_move(
    computer: Computer, game: str, rules: str | None, position: str | None
) -> EveryMove:
    """The moves of the position ``position`` (a code; the usual start when ``None``) of a
    rule set, ranked, each with its ``score`` for the mover, ``exact``, and for an exact value
    its ``verdict`` (win, draw or loss) and ``plies`` to the end after it with best play, and
    ``text`` as the panel shows it (in the current language); 400 if the position is not
    one."""
    state = state_of(game, rules, position, [])
    game, rules, code = state.game.name, str(state.rules), state.position_code()
    limit = Limit(depth=DEPTH)
    scores = await computer.advisers.run(EXPECTED, move_scores, game, rules, code, limit)
    ranked = sorted(scores.items(), key=lambda item: (-item[1]["score"], item[0]))
    exact = any(value["exact"] for _move, value in ranked)
    return EveryMove(
        game=game,
        rules=rules,
        position=code,
        exact=exact,
        depth=None if exact else DEPTH,
        moves=[_row(move, v["score"], v["exact"], state.turn) for move, v in ranked],
    )


def _row(move: str, score: int, exact: bool, turn: Color) -> MoveRow:
    """One move's row: an exact value in words for the mover (``plies`` counting the move
    itself), else the evaluation bar's text for White."""
    if not exact:
        return MoveRow(
            move=move,
            score=score,
            exact=False,
            verdict=None,
            plies=None,
            text=bar_text(score, turn),
        )
    return MoveRow(move=move, exact=True, **dict(exact_value(score)))


def exact_value(score: int) -> ExactValue:
    """An exact value (a table's ``score`` for the side that moves, after its move) in words,
    in the current language: "Win in 7 plies" (the move counted), "Draw", "Loss in 3 plies"."""
    if not score:
        return ExactValue(score=0, verdict="draw", plies=None, text=_("Draw"))
    plies = WIN - abs(score) + 1
    if score > 0:
        text = ngettext("Win in %(num)s ply", "Win in %(num)s plies", plies)
    else:
        text = ngettext("Loss in %(num)s ply", "Loss in %(num)s plies", plies)
    verdict: Literal["win", "loss"] = "win" if score > 0 else "loss"
    return ExactValue(score=score, verdict=verdict, plies=plies, text=text)
