"""The game API as it was before games were bound to their rule sets, kept only for
``ludoteca.server`` until it moves to :func:`ludoteca.games.load`: :func:`find_game` and
:func:`resolve` give a :class:`GameFamily`, whose methods take the rule set every time."""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING

from ..core import Game, RuleSet, RuleSetDef, State

if TYPE_CHECKING:
    from ..tables import Solver

__all__ = ["GameFamily", "find_game", "resolve"]


class GameFamily:
    """A game family with the rule set passed to each method."""

    def __init__(self, game: type[Game]) -> None:
        self.game = game
        self.name: str = game.name
        self.title: str = game.title
        self.summary: str = game.summary
        self.options: Mapping[str, str] = game.options
        self.rule_sets: tuple[RuleSetDef, ...] = game.rule_sets

    def rules(self, spec: str | RuleSet | None = None) -> RuleSet:
        return self.game.parse_rules(spec)

    def new(
        self, rules: str | RuleSet | None = None, setup: str | None = None, seed: int | None = None
    ) -> State:
        return self.game.of(rules).new(setup=setup, seed=seed)

    def from_position_code(self, code: str, rules: str | RuleSet | None = None) -> State:
        return self.game.of(rules).from_position_code(code)

    def title_of(self, rules: RuleSet) -> str:
        return self.game.of(rules).title

    def status_texts(self, rules: RuleSet) -> dict[str, str]:
        return self.game.of(rules).status_texts

    def solver(self, rules: RuleSet, men: int | None = None) -> Solver | None:
        return self.game.of(rules).solver(men)


def find_game(name: str) -> GameFamily:
    """The game family called ``name`` (see :func:`ludoteca.games.family`)."""
    from . import family

    return GameFamily(family(name))


def resolve(name: str, rules: str | RuleSet | None = None) -> tuple[GameFamily, RuleSet]:
    """The game family and rule set that ``name`` (and an optional ``rules`` spec) denote."""
    from . import load

    game = load(name, rules)
    return GameFamily(type(game)), game.rules
