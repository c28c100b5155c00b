"""The rules lessons' service: the lessons every game declares (:meth:`Game.lessons
<ludoteca.core.Game.lessons>`), their steps' positions as the board draws them, and the
engine's verdict on a move made in a step (:func:`ludoteca.lessons.check`)."""

from __future__ import annotations

from ...core import LudotecaError, State
from ...i18n import _
from ...lessons import Lesson, Step, check
from ..errors import ActionError
from ..play.catalogue import from_code, games, rule_set
from .analysis import board_of, position_view
from .schemas import GameLessons, LessonStep, LessonSummary, LessonVerdict, LessonView, Position

__all__ = ["answer", "lesson_view", "listing"]


def listing() -> list[GameLessons]:
    """Every game that has lessons: its name and title, and its lessons (key, title, intro,
    number of steps, rule set and its title), in order."""
    out = []
    for family in games():
        lessons = family.of().lessons()
        if lessons:
            summaries = [
                LessonSummary(
                    key=ls.key,
                    title=_(ls.title),
                    intro=_(ls.intro),
                    steps=len(ls.steps),
                    rules=ls.rules,
                    rules_title=rule_set(family.name, ls.rules).rules_title,
                )
                for ls in lessons
            ]
            out.append(GameLessons(game=family.name, title=_(family.title), lessons=summaries))
    return out


def _lesson(game: str, key: str) -> Lesson:
    try:
        family = rule_set(game)
    except LudotecaError as error:
        raise ActionError(404, str(error)) from None
    for lesson in family.lessons():
        if lesson.key == key:
            return lesson
    raise ActionError(404, _("%(game)s has no lesson %(key)r", game=_(family.title), key=key))


def _position(lesson: Lesson, step: Step) -> State:
    return from_code(rule_set(lesson.rules).name, lesson.rules, step.position)


def _drawn(state: State) -> Position:
    """The position as the analysis board draws it (see :func:`.analysis.position_view`)."""
    return position_view(state)


def lesson_view(game: str, key: str) -> LessonView:
    """A lesson for the page: its title, intro, rule set (spec and title), board, and each
    step's sentence, hint and position (as the analysis board draws one); 404 if there is no
    such lesson."""
    lesson = _lesson(game, key)
    steps = [
        LessonStep(ask=_(step.ask), hint=_(step.hint), position=_drawn(_position(lesson, step)))
        for step in lesson.steps
    ]
    first = _position(lesson, lesson.steps[0])
    return LessonView(
        game=rule_set(game).name,
        key=lesson.key,
        title=_(lesson.title),
        intro=_(lesson.intro),
        rules=lesson.rules,
        rules_title=first.game.rules_title,
        board=board_of(first).board,
        steps=steps,
    )


def answer(game: str, key: str, number: int, move: str) -> LessonVerdict:
    """The engine's verdict on ``move`` (its notation) made in step ``number`` (from 0) of a
    lesson: ``right``, the ``sentence`` saying why, and the position after the move (when it is
    right); 404 for a lesson or step that does not exist, 400 with the rules' reason for a move
    that is unreadable or not legal there."""
    lesson = _lesson(game, key)
    if not 0 <= number < len(lesson.steps):
        raise ActionError(
            404,
            _(
                "the lesson %(title)r has steps 1 to %(last)s",
                title=_(lesson.title),
                last=len(lesson.steps),
            ),
        )
    step = lesson.steps[number]
    state = _position(lesson, step)
    try:
        verdict = check(state, step, move)
    except LudotecaError as error:
        raise ActionError(400, str(error)) from None
    after = None
    if verdict.right:
        state.push(move)
        after = _drawn(state)
    return LessonVerdict(right=verdict.right, sentence=verdict.sentence, after=after)
