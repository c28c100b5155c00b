"""The games the server offers, and its one way to the engine's registry.

:func:`catalogue` describes every game for the lobby (rule sets, settings, computer levels with
their ratings, the starting picture).  Every other part of the server finds a game, a rule set
or a starting position through the functions here (:func:`rule_set`, :func:`start_of`,
:func:`new_state`, :func:`from_code`, :func:`games`), so the registry is called from one place.
"""

from __future__ import annotations

import functools
import logging
from collections.abc import Mapping
from typing import TYPE_CHECKING, TypedDict

from ...ai.levels import Level, levels
from ...core import Game, InvalidRulesError, LudotecaError, RuleSet, State
from ...games import family, game_names, load
from ...i18n import Text, _, current, use
from ...svg import board_view
from .. import logs
from ..errors import ActionError
from ..schemas import BoardView, CatalogueGame, ChoiceView, LevelView, RuleSetView, RulesView

if TYPE_CHECKING:  # not imported at run time: worker processes read this module too
    from ..community.level_ratings import Estimates, LevelRating
    from ..store import GameRow

__all__ = [
    "catalogue",
    "default_game",
    "default_positions",
    "from_code",
    "game_title",
    "games",
    "level_views",
    "levels_of",
    "new_state",
    "replay",
    "rule_set",
    "rules_title",
    "start_of",
    "static_part",
]


class StaticValues(TypedDict):
    """The fields of a game's view that never change for a rule set and a language, as JSON
    values (those of a :class:`~..schemas.SharedView`; ``board``: as
    :func:`~ludoteca.svg.board_view` describes it)."""

    type: str
    game: str
    title: str
    summary: str
    rules: str
    rules_title: str
    texts: dict[str, str]
    board: Mapping[str, object]


log = logging.getLogger("ludoteca.server")


def games() -> list[type[Game]]:
    """Every registered game family, in registration order."""
    return [family(name) for name in game_names()]


def default_game() -> str:
    """The name of the first registered game: what a page shows when none is asked for."""
    return game_names()[0]


def default_positions() -> list[State]:
    """The usual start of every game's default rule set (the first random setup)."""
    return [load(name).new(seed=0) for name in game_names()]


def rule_set(game: str, rules: str | None = None) -> Game:
    """The game bound to the rule set that ``game`` (a name, alias or rule-set name) and
    ``rules`` (a spec, ``name:setting,...``) denote; :class:`~ludoteca.core.LudotecaError` if
    none."""
    return load(game, rules)


def playable(game: str, rules: str | None = None) -> Game:
    """:func:`rule_set`, refusing (:class:`~ludoteca.core.InvalidRulesError`) a rule set whose
    usual start is already over, which no one could play (Morelli's Free setup: no stone)."""
    bound = rule_set(game, rules)
    if not _has_play(bound):
        raise InvalidRulesError(
            Text(
                "%(rules)s is over before its first move: there is nothing to play",
                rules=bound.rules_title,
            )
        )
    return bound


def _has_play(bound: Game) -> bool:
    return bound.new(seed=0).outcome() is None


def _offered(game: type[Game], spec: str) -> bool:
    """Whether a form offers the choice that ``spec`` (a rule set with one setting changed)
    makes: not one whose start is already over (a Morelli setup no game can be played from),
    but one that makes a game only with other settings changed too (a custom mill game's full
    board's action, which needs men that fill the board): the server reads the form's choices
    as a whole."""
    try:
        bound = game.of(spec)
    except InvalidRulesError:
        return True
    return _has_play(bound)


def new_state(game: str, rules: str, seed: int | None = None, setup: str | None = None) -> State:
    """The usual start of a rule set (a random setup from ``seed``, or ``setup``)."""
    return load(game, rules).new(setup=setup, seed=seed)


def from_code(game: str, rules: str, code: str) -> State:
    """The position a position code gives; :class:`~ludoteca.core.LudotecaError` if malformed."""
    return load(game, rules).from_position_code(code)


def replay(row: GameRow, moves: list[str]) -> State:
    """The position after a stored game's moves; 500 if the engine no longer accepts them."""
    try:
        state = start_of(row)
        for move in moves:
            state.push(move)
    except LudotecaError as error:
        log.error("game %s cannot be replayed: %s", row.id, error, extra=logs.game(row.id))
        raise ActionError(
            500, _("Game %(id)s cannot be replayed: %(error)s", id=repr(row.id), error=str(error))
        ) from None
    return state


def start_of(row: GameRow) -> State:
    """A stored game's starting position (its position code, or the usual start with its
    setup)."""
    if row.position:
        return from_code(row.game, row.rules, row.position)
    return new_state(row.game, row.rules, setup=row.setup)


@functools.lru_cache(maxsize=256)
def static_part(game: str, rules: str, language: str) -> StaticValues:
    """The fields of a game's view that never change for a rule set (the board's geometry,
    titles, texts), its texts in ``language``."""
    bound = load(game, rules)
    with use(language):
        return {
            "type": "state",
            "game": game,
            "title": _(bound.title),
            "summary": _(bound.summary),
            "rules": rules,
            "rules_title": bound.rules_title,
            "texts": {key: _(text) if text else "" for key, text in bound.status_texts.items()},
            "board": board_view(bound.new(seed=0)),
        }


def level_views(rules: RuleSet, estimates: Estimates) -> list[LevelView]:
    """The computer levels the server plays for a rule set: number, name, description,
    once people's games against it give one, its rating on people's scale (``estimates``),
    and where measured its share of moves that keep the value against perfect play."""
    return [
        _level_view(level, estimates.get((str(rules), level.number))) for level in levels(rules)
    ]


def rules_of(game: str, rules: str | None) -> RulesView:
    """A rule-set spec's canonical spec, title (in the current language) and starting
    picture; 400 with the
    sentence that says why for a spec that denotes no rule set (a custom Morris rule set whose
    men do not fit its board …)."""
    try:
        bound = load(game, rules or None)
    except LudotecaError as error:
        raise ActionError(400, str(error)) from None
    state = bound.new(seed=0)
    return RulesView(
        rules=str(bound.rules),
        title=bound.rules_title,
        board=BoardView.model_validate(board_view(state)),
        pieces=state.pieces(),
    )


def levels_of(game: str, rules: str | None, estimates: Estimates) -> list[LevelView]:
    """The computer levels of a rule-set spec (``name:setting,...``); 400 if there is none."""
    try:
        bound = load(game, rules or None)
    except LudotecaError as error:
        raise ActionError(400, str(error)) from None
    return level_views(bound.rules, estimates)


def game_title(game: str) -> str:
    """The title of a game family (``"Nine Men's Morris"``) in the current language, or its name
    if unknown."""
    try:
        return _(family(game).title)
    except LudotecaError:
        return game


def rules_title(game: str, rules: str) -> str:
    """The title of a stored game's rule set (:attr:`~ludoteca.core.Game.rules_title`) in the
    current language, or its spec if the engine no longer knows it."""
    return _rules_title(game, rules, current())


@functools.lru_cache(maxsize=1024)
def _rules_title(game: str, rules: str, language: str) -> str:
    with use(language):
        try:
            return load(game, rules).rules_title
        except LudotecaError:
            return rules


def catalogue(estimates: Estimates) -> list[CatalogueGame]:
    """Each game with its summary and rule sets; each rule set with its title, settings,
    computer levels (with their ratings on people's scale, ``estimates``) and starting picture;
    the texts in the current language."""
    out = []
    for game in games():
        rule_sets = []
        for definition in game.rule_sets:
            bound = game.of(definition.name)
            custom = bound.rules.name != definition.name
            state = bound.new(seed=0)
            rule_sets.append(
                RuleSetView(
                    name=definition.name,
                    # (a rule set that is another with its defaults, Morris's custom one, is
                    # offered by its own title)
                    title=_(definition.title) if custom else bound.rules_title,
                    description=_(definition.description),
                    settings={
                        k: v
                        for k, v in definition.defaults.items()
                        if not game.options or k in game.options
                    },
                    options={
                        k: _(game.options[k]) if k in game.options else k.replace("_", " ")
                        for k in definition.defaults
                    },
                    choices={
                        k: [
                            ChoiceView(value=value, label=_(label))
                            for value, label in game.setting_words[k].values.items()
                            if _offered(game, f"{definition.name}:{k}={value}")
                        ]
                        for k in definition.defaults
                        if k in game.setting_words and game.setting_words[k].values
                    },
                    custom=custom,
                    levels=level_views(bound.rules, estimates),
                    board=BoardView.model_validate(board_view(state)),
                    pieces=state.pieces(),
                )
            )
        out.append(
            CatalogueGame(
                name=game.name,
                title=_(game.title),
                summary=_(game.summary),
                rule_sets=rule_sets,
            )
        )
    return out


def _level_view(level: Level, estimate: LevelRating | None) -> LevelView:
    return LevelView(
        number=level.number,
        name=_(level.name),
        description=_(level.description),
        rating=None if estimate is None else round(estimate.rating),
        deviation=None if estimate is None else round(estimate.deviation),
        games=0 if estimate is None else estimate.games,
        kept=None if level.kept is None else level.kept.percent,
        kept_moves=0 if level.kept is None else level.kept.moves,
        kept_endgame=level.kept is not None and level.kept.endgame,
    )
