"""The registry of games: find a game family by name or alias, or by the name of one of its
rule sets, and load a game bound to a rule set.

>>> load("morris-12").title
"Twelve Men's Morris"
>>> family("nine-mens-morris").name
'morris'

Each game family is a package here (:mod:`.morris`, :mod:`.felli`, :mod:`.morelli`: its
geometry, rules, kernel, tables, lessons and data); what they share is beside them
(:mod:`.pointboard`, :mod:`.draws`, ``ratings.json``).  Adding a game means writing its package
(see ``docs/new-game.md``) and registering its :class:`~ludoteca.core.Game` here.
"""

from __future__ import annotations

from ..core import Game, RuleSet, State, UnknownGameError
from ..i18n import Text
from .felli import Felli
from .morelli import Morelli
from .morris import Morris

GAMES: dict[str, type[Game]] = {}


def register(game: type[Game]) -> type[Game]:
    """Add a game family to the registry under its name, aliases and rule-set names."""
    for name in (game.name, *game.aliases, *game.rule_set_names()):
        owner = GAMES.get(name)
        if owner is not None and owner is not game:
            raise ValueError(f"name {name!r} is taken by {owner.name}")
        GAMES[name] = game
    return game


def game_names() -> list[str]:
    """The canonical names of the registered games, in registration order."""
    return list(dict.fromkeys(g.name for g in GAMES.values()))


def family(name: str) -> type[Game]:
    """The game family called ``name`` (a game name, alias or rule-set name, any case, with
    or without settings after a ``:``)."""
    key = name.strip().lower().partition(":")[0]
    try:
        return GAMES[key]
    except KeyError:
        raise UnknownGameError(
            Text(
                "unknown game %(name)s (known: %(known)s)",
                name=repr(name),
                known=", ".join(game_names()),
            )
        ) from None


def load(spec: str | RuleSet, rules: str | RuleSet | None = None) -> Game:
    """The game that ``spec`` denotes, bound to its rule set: a game name or alias (its
    default rule set), a rule-set name or alias, either with settings (``"felli:mullah"``,
    ``"morris-12:move_rule=50"``), or a :class:`RuleSet`.  ``rules``, a rule set of that game
    or its spec, wins over what ``spec`` implies.  One instance per rule set."""
    if isinstance(spec, RuleSet):
        return family(spec.game).of(spec if rules is None else rules)
    game = family(spec)
    if rules is not None:
        return game.of(rules)
    name, _, settings = spec.strip().lower().partition(":")
    if name not in game.rule_set_names():
        name = game.rule_sets[0].name
    return game.of(f"{name}:{settings}" if settings else name)


def new_game(
    name: str | RuleSet,
    rules: str | RuleSet | None = None,
    setup: str | None = None,
    seed: int | None = None,
) -> State:
    """The start position of a game: ``new_game("morris")``, ``new_game("felli-mullah")``;
    ``rules`` (a rule set of the game named, or its spec) wins over what the name implies."""
    return load(name, rules).new(setup=setup, seed=seed)


register(Morris)
register(Felli)
register(Morelli)

__all__ = [
    "GAMES",
    "family",
    "game_names",
    "load",
    "new_game",
    "register",
]
