"""Interactive lessons on a game's rules: what a game declares through :meth:`Game.lessons
<ludoteca.core.Game.lessons>` (each game's lessons are data in ``ludoteca/games/``) and the one
way an answer is checked.

A lesson is a few steps; each step is a small position (a position code), a sentence asking
for a move, and a :data:`Goal`: which legal moves do what the sentence asks, decided by the
game's own rules (the move closes a mill, leaps, converts, seats a King), never one move's
notation where several moves do it.  A player's move is checked by the engine (:func:`check`):
an unreadable or illegal move is refused with the rules' reason; a legal move that does not do
what is asked gets the step's ``wrong`` sentence and its hint; a right one its explanation.
A lesson's texts are marked for the translation catalogue where they are written and translated
where they are shown (:func:`check` says its sentence in the current language).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING

from .i18n import _

if TYPE_CHECKING:
    from .core import Color, Game, State

__all__ = ["Goal", "Lesson", "Step", "Verdict", "answers", "check", "setup"]

#: whether the legal move ``code`` of ``state`` does what a step asks (``state`` is left as it
#: was: a goal that plays the move to look takes it back)
Goal = Callable[["State", int], bool]


@dataclass(frozen=True)
class Step:
    """One step of a lesson: the ``position`` (a position code), the sentence that asks for a
    move (``ask``), which moves do it (``goal``), a ``hint``, what is said after a right move
    (``explain``) and after a legal move that does not do it (``wrong``)."""

    position: str
    ask: str
    goal: Goal
    hint: str
    explain: str
    wrong: str


@dataclass(frozen=True)
class Lesson:
    """A lesson: its ``key`` (unique within its game, for addresses), ``title``, the rule set
    its positions are of (``rules``, a spec), an ``intro`` and its steps, in order."""

    key: str
    title: str
    rules: str
    intro: str
    steps: tuple[Step, ...]


@dataclass(frozen=True)
class Verdict:
    """What a move made in a step gets: ``right`` or not, and the sentence that says why."""

    right: bool
    sentence: str


def answers(state: State, step: Step) -> list[int]:
    """The codes of the legal moves of ``state`` (the step's position) that do what ``step``
    asks, in the order of the legal moves."""
    return [code for code in state.legal_codes() if step.goal(state, code)]


def check(state: State, step: Step, move: str) -> Verdict:
    """The verdict on ``move`` (its notation) played in ``state``, the step's position (left
    unchanged).  Raises :class:`~ludoteca.core.InvalidMoveError` or
    :class:`~ludoteca.core.IllegalMoveError`, with the reason, for a move that is unreadable or
    not legal there."""
    code = state.parse_move(move).code
    if step.goal(state, code):
        return Verdict(True, _(step.explain))
    return Verdict(False, _("%(wrong)s %(hint)s", wrong=_(step.wrong), hint=_(step.hint)))


def setup(game: Game, turn: Color, hand: tuple[int, int] | None = None, **where: str) -> str:
    """The position code of ``game``'s board with pieces on it: ``where`` maps a piece token
    (as :meth:`~ludoteca.core.State.pieces` gives them, e.g. ``w=``, ``b=``) to the names of
    its points, separated by spaces; ``turn`` is the side to move, ``hand`` the men in hand
    where the game has them.  (The code's other counters are as
    :meth:`~ludoteca.core.Game.position_code_of` makes them.)"""
    names = game.board.points
    pieces = [""] * len(names)
    for token, points in where.items():
        for name in points.split():
            pieces[names.index(name)] = token
    return game.position_code_of(pieces, turn, hand)
