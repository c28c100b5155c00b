"""The registry of games: find a game by name or alias, or by the name of one of its rule sets.

Adding a game means writing its module and registering its :class:`~ludoteca.core.Game` here.
"""

from __future__ import annotations

from ..core import Game, RuleSet, State, UnknownGameError
from .felli import Felli
from .morelli import Morelli
from .morris import Morris

GAMES: dict[str, type[Game]] = {}


def register(game: type[Game]) -> type[Game]:
    """Add a game to the registry under its name, aliases and rule-set names."""
    for name in (game.name, *game.aliases, *game.rule_set_names()):
        owner = GAMES.get(name)
        if owner is not None and owner is not game:
            raise ValueError(f"name {name!r} is taken by {owner.name}")
        GAMES[name] = game
    return game


def game_names() -> list[str]:
    """The canonical names of the registered games, in registration order."""
    return list(dict.fromkeys(g.name for g in GAMES.values()))


def find_game(name: str) -> type[Game]:
    """The game called ``name`` (a game name, alias or rule-set name, any case).

    >>> find_game("nine-mens-morris").name
    'morris'
    """
    key = name.strip().lower().partition(":")[0]
    try:
        return GAMES[key]
    except KeyError:
        raise UnknownGameError(
            f"unknown game {name!r} (known: {', '.join(game_names())})"
        ) from None


def resolve(name: str, rules: str | RuleSet | None = None) -> tuple[type[Game], RuleSet]:
    """The game and rule set that ``name`` (and an optional explicit ``rules`` spec) denote.

    A rule-set name stands for its game with that rule set: ``resolve("felli-mullah")``.  An
    explicit ``rules`` wins over what the name implies.
    """
    game = find_game(name)
    if rules is None:
        key = name.strip().lower()
        rules = key if key.partition(":")[0] in game.rule_set_names() else None
    return game, game.rules(rules)


def new_game(
    name: str, rules: str | RuleSet | None = None, setup: str | None = None, seed: int | None = None
) -> State:
    """The start position of a game: ``new_game("morris")``, ``new_game("felli-mullah")``."""
    game, ruleset = resolve(name, rules)
    return game.new(ruleset, setup=setup, seed=seed)


register(Morris)
register(Felli)
register(Morelli)

__all__ = ["GAMES", "find_game", "game_names", "new_game", "register", "resolve"]
