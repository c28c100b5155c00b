"""The computer levels of each game: level 1 (a beginner can win) up to the strongest.

Each game declares its ladder per rule set (``Game.ladder``: the rungs of :mod:`ludoteca.ladder`,
agent specs, see :mod:`.agents`); here its rungs are numbered, given their measured ratings and
made into agents (the ``level:N`` spec).  Ratings are measured with ``ludoteca tournament
--store-ratings`` (:meth:`.tournament.Tournament.level_ratings`) and kept by rule set in
``ludoteca/games/ratings.json`` (Elo, anchored at level 1 = 1000, with the 95% error bar, the
number of games and the agent spec measured); a level whose spec has changed since shows no
rating until it is measured again.

In a rule set with a solved table, each level's share of moves that keep the position's value
against the perfect player (:mod:`.calibration`, measured by ``bench/level_values.py``) is kept
in ``ludoteca/games/level_values.json`` (:func:`value_shares`), the same way: shown for the spec
measured only.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Any

from ..core import LudotecaError, RuleSet
from ..i18n import Text, ngettext, percent
from .agents import make_agent
from .base import Agent, parse_spec

__all__ = [
    "Kept",
    "Level",
    "level_agent",
    "levels",
    "ratings",
    "store_ratings",
    "store_value_shares",
    "value_shares",
    "within",
]

RATINGS_FILE = Path(__file__).parent.parent / "games" / "ratings.json"
VALUES_FILE = Path(__file__).parent.parent / "games" / "level_values.json"


@dataclass(frozen=True)
class Kept:
    """A level's measured moves that keep the position's value: ``kept`` of ``moves`` (at
    least one) of its moves judged by the table; ``endgame`` when the table covers the
    endgames only (the moves judged are the level's endgame moves)."""

    kept: int
    moves: int
    endgame: bool = False

    @property
    def percent(self) -> int:
        """The share kept in whole percents, rounded down: a level that lost the value once in
        a thousand moves does not show 100."""
        return 100 * self.kept // self.moves

    def text(self) -> str:
        """ "keeps the value in 85% of moves" ("of endgame moves" where the table covers the
        endgames only), in the current language (the pages' levels.js says the same)."""
        if self.endgame:
            return ngettext(
                "keeps the value in %(share)s of endgame moves",
                "keeps the value in %(share)s of endgame moves",
                self.percent,
                share=percent(self.percent),
            )
        return ngettext(
            "keeps the value in %(share)s of moves",
            "keeps the value in %(share)s of moves",
            self.percent,
            share=percent(self.percent),
        )


@dataclass(frozen=True)
class Level:
    """One rung: its number, the agent spec, a description, its name for people, and its
    measured ladder Elo if any (against the other levels, level 1 = 1000: not a rating on
    people's scale)."""

    number: int
    spec: str
    description: str
    name: str
    rating: tuple[float, float, int] | None = None  # Elo, 95% error, games
    kept: Kept | None = None  # its moves that keep the value, where measured


Measured = dict[str, dict[str, dict[str, Any]]]


@cache
def ratings() -> Measured:
    """The measured ratings: game rule set -> level number (as text) -> ``{"elo", "error",
    "games", "spec"}``."""
    if not RATINGS_FILE.exists():
        return {}
    data: Measured = json.loads(RATINGS_FILE.read_text())
    return data


@cache
def value_shares() -> dict[str, dict[str, Any]]:
    """The measured shares of value-keeping moves: game rule set -> ``{"command", "endgame",
    "levels"}``, its ``levels`` level number (as text) -> ``{"spec", "moves", "kept",
    "choices", "kept_choices", "games", "wins", "draws", "losses"}`` (``choices``: the moves
    in positions where some legal move would lose the value, ``kept_choices`` of them kept;
    the games and their results against the perfect player, from the level's side)."""
    if not VALUES_FILE.exists():
        return {}
    data: dict[str, dict[str, Any]] = json.loads(VALUES_FILE.read_text())
    return data


def levels(rules: RuleSet) -> list[Level]:
    """The ladder for a rule set, with measured ratings and shares of value-keeping moves where
    they exist (for the spec the level has now)."""
    from ..games import load

    ladder = load(rules).ladder
    measured = ratings().get(str(rules), {})
    judged = value_shares().get(str(rules), {})
    out = []
    for i, rung in enumerate(ladder, start=1):
        entry = measured.get(str(i))
        rating = None
        if isinstance(entry, dict) and entry.get("spec") == rung.spec:
            rating = (float(entry["elo"]), float(entry["error"]), int(entry["games"]))
        moves = judged.get("levels", {}).get(str(i))
        kept = None
        if isinstance(moves, dict) and moves.get("spec") == rung.spec and moves["moves"]:
            kept = Kept(int(moves["kept"]), int(moves["moves"]), bool(judged.get("endgame")))
        out.append(Level(i, rung.spec, rung.description, rung.name, rating, kept))
    return out


def level_agent(spec: str, rules: RuleSet, seed: int | None = None) -> Agent:
    """The agent of a ``level:N`` spec: level N's own agent for a rule set, named ``level:N``;
    ``LudotecaError`` for a level the ladder does not have."""
    number = int(parse_spec(spec)[1]["level"])
    ladder = levels(rules)
    if not 1 <= number <= len(ladder):
        raise LudotecaError(
            Text(
                "%(game)s has levels 1 to %(top)s, not %(number)s",
                game=rules.game,
                top=len(ladder),
                number=number,
            )
        )
    agent = make_agent(ladder[number - 1].spec, rules, seed)
    agent.name = f"level:{number}"
    return agent


def within(spec: str, rules: RuleSet, seconds: float) -> str:
    """The spec of the player ``spec`` (a level resolved to its own spec) thinking at most
    ``seconds`` a move: its ``time`` option lowered to ``seconds`` where it is higher.  A
    player without a time option (fixed depth, nodes, a table) is left as it is: its moves
    are quick."""
    kind, options = parse_spec(spec)
    if kind == "level":
        ladder = levels(rules)
        number = int(options["level"])
        if not 1 <= number <= len(ladder):
            return spec  # refused with its sentence when the agent is made
        spec = ladder[number - 1].spec
        kind, options = parse_spec(spec)
    if options.get("time", 0.0) <= seconds:
        return spec
    options["time"] = seconds
    return f"{kind}:" + ",".join(f"{key}={value:g}" for key, value in options.items())


def store_ratings(rules: RuleSet, measured: Mapping[int, tuple[float, float, int]]) -> None:
    """Save the ladder Elo measured for a rule set's levels (level number -> Elo, 95% error,
    games), each with the spec its level has now, re-anchored so that level 1 has 1000 when it
    was measured; they replace the rule set's stored ones, the other rule sets' entries are
    those in the file now (another tournament may have stored its own since this one
    started)."""
    ladder = levels(rules)
    shift = 1000 - measured[1][0] if 1 in measured else 0.0
    entries = {
        str(number): {
            "elo": round(elo + shift, 1),
            "error": round(error, 1),
            "games": games,
            "spec": ladder[number - 1].spec,
        }
        for number, (elo, error, games) in measured.items()
    }
    ratings.cache_clear()
    data = dict(ratings())
    data[str(rules)] = entries
    RATINGS_FILE.write_text(json.dumps(data, indent=1, sort_keys=True) + "\n")
    ratings.cache_clear()


def store_value_shares(
    rules: RuleSet, measured: Mapping[int, Mapping[str, int | str]], command: str, endgame: bool
) -> None:
    """Save what ``command`` measured of a rule set's levels (level number -> the entry
    :func:`value_shares` describes, its ``spec`` the one measured), and whether its table
    covers the endgames only; they replace the rule set's stored ones (every level of it:
    a level not measured now has none), the other rule sets' are those in the file now."""
    value_shares.cache_clear()
    data = dict(value_shares())
    data[str(rules)] = {
        "command": command,
        "endgame": endgame,
        "levels": {str(number): dict(entry) for number, entry in sorted(measured.items())},
    }
    VALUES_FILE.write_text(json.dumps(data, indent=1, sort_keys=True) + "\n")
    value_shares.cache_clear()
