"""Practice against perfect play, on the analysis board: from a position a solved table covers,
the person plays on with the side to move there, and the perfect player answers each move with
one that keeps its value (a win as fast as possible, a loss as slow as possible, a draw held;
among equal moves :meth:`~ludoteca.ai.perfect.PerfectAgent.choose` sets the most traps).

The line is judged at every step: the start's value for the player, each of the player's moves
valued by the table before (the position's best move's value) and after it, and the first move
that lowered it (a win let slip to a draw or a loss, a draw to a loss) — the move where the
value was lost.  A slower win is still a win: the value is the verdict, not its distance.

The page keeps the line (the moves since the start); each request replays it, on the loop as
the analysis board's positions are (:func:`.analysis.state_of`: at most ``MAX_MOVES``), and the
table's work (one lookup a legal move of each of the player's positions, the perfect player's
choice) is one job of the analysis pool (:func:`practice_line`), never on the event loop.
"""

from __future__ import annotations

from typing import Literal

from ...ai.analysis import table_values
from ...ai.base import Limit
from ...ai.perfect import PerfectAgent, covering_table
from ...core import Color, State
from ...i18n import _
from ..computer.computer import Computer
from ..errors import ActionError
from ..play.catalogue import from_code
from .analysis import state_of
from .move_list import exact_value
from .schemas import Practice, PracticeFound, PracticeMove, PracticePly

__all__ = ["EXPECTED", "TRAP_SECONDS", "practice_line", "practise"]

#: the seconds the perfect player may spend choosing among equally good moves the one that
#: sets the most traps (two plies ahead where moves are few)
TRAP_SECONDS = 0.5
#: the seconds a practice step should take in the analysis pool (its deadline)
EXPECTED = 2.0


def practice_line(game: str, rules: str, start: str, moves: list[str]) -> PracticeFound:
    """The table's judgement of a practice line (run in the analysis pool, in no reader's
    language): ``moves`` played from the position code ``start`` by the side to move there
    (the player) and the perfect player in turn, already checked legal.  See
    :class:`~.schemas.PracticeFound`."""
    state = from_code(game, rules, start)
    table = covering_table(state)
    if table is None:
        return {"tabled": False, "value": 0, "moves": [], "reply": None, "over": False}
    perfect = PerfectAgent(state.rules, None, table)
    player = state.turn
    value = max(table_values(perfect, state).values())
    judged: list[PracticePly] = []
    for text in moves:
        code = state.parse_move(text).code
        if state.turn is player:
            values = table_values(perfect, state)
            judged.append(
                {
                    "ply": state.ply + 1,
                    "move": text,
                    "before": max(values.values()),
                    "after": values[code],
                }
            )
        state.push_code(code)
    reply = None
    if state.outcome() is None and state.turn is not player:
        move = perfect.choose(state, Limit(seconds=TRAP_SECONDS))
        reply = str(move)
        state.push(move)
    return {
        "tabled": True,
        "value": value,
        "moves": judged,
        "reply": reply,
        "over": state.outcome() is not None,
    }


def _sign(score: int) -> int:
    return (score > 0) - (score < 0)


async def practise(
    computer: Computer, game: str, rules: str | None, start: str, moves: list[str]
) -> Practice:
    """A practice step: the perfect player's reply to ``moves`` from the position code
    ``start`` (none when the player is to move or the game is over) and the judgement of the
    line so far, in the current language; 400 if the position or a move is not one, the game
    is over at the start, or no solved table covers it."""
    first = state_of(game, rules, start, [])
    if first.outcome() is not None:
        raise ActionError(400, _("the game is over in this position: there is nothing to practise"))
    state_of(game, rules, start, moves)  # every move legal (400 naming the first that is not)
    game, rules, code = first.game.name, str(first.rules), first.position_code()
    found = await computer.advisers.run(EXPECTED, practice_line, game, rules, code, moves)
    if not found["tabled"]:
        raise ActionError(
            400,
            _(
                "no solved table covers this position: practice against perfect play starts "
                "from a position the tables know"
            ),
        )
    judged = [_judged(ply) for ply in found["moves"]]
    lost = next((m for m in judged if _sign(m.after.score) < _sign(m.before.score)), None)
    value = exact_value(found["value"])
    if lost is None:
        verdict = _("You kept the value of the start: %(value)s.", value=value.text)
    else:
        verdict = _(
            "You lost the value at ply %(ply)s, %(move)s: %(before)s → %(after)s.",
            ply=lost.ply,
            move=lost.move,
            before=lost.before.text,
            after=lost.after.text,
        )
    return Practice(
        game=game,
        rules=rules,
        start=code,
        player=_side(first),
        value=value,
        reply=found["reply"],
        over=found["over"],
        moves=judged,
        kept=lost is None,
        lost=lost,
        verdict=verdict,
    )


def _judged(ply: PracticePly) -> PracticeMove:
    return PracticeMove(
        ply=ply["ply"],
        move=ply["move"],
        before=exact_value(ply["before"]),
        after=exact_value(ply["after"]),
    )


def _side(state: State) -> Literal["white", "black"]:
    return "white" if state.turn is Color.WHITE else "black"
