"""The puzzle dashboard: a player's success rate by theme and by difficulty, and the themes
they miss most, counted from their attempts at shipped puzzles (each puzzle's first outcome,
as :mod:`.training` counts it: solved, or missed by a wrong move or the solution asked for).
Attempts at puzzles that are not shipped (a set changed since, or an exercise made of the
player's own mistakes, :mod:`.mistakes`) are left out.  A pure function of the attempts and
the library (:func:`dashboard`)."""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable
from urllib.parse import urlencode

from ...i18n import _
from ...study.puzzles import Puzzle
from ..play.catalogue import rule_set
from .mistake_schemas import Band, Dashboard, MissedTheme, ThemeRate

__all__ = ["BAND", "MISSED", "dashboard"]

#: the width of a difficulty band (bands start at multiples of it)
BAND = 200
#: the themes missed most that the dashboard lists
MISSED = 5


def _rate(solved: int, attempts: int) -> float:
    return round(solved / attempts, 3)


def dashboard(attempts: Iterable[tuple[str, bool]], puzzles: dict[str, Puzzle]) -> Dashboard:
    """The dashboard of a player's ``attempts`` (puzzle id, solved) among the shipped
    ``puzzles`` (by id), its texts in the current language."""
    tried = [(puzzles[pid], solved) for pid, solved in attempts if pid in puzzles]
    by_theme: Counter[str] = Counter()
    solved_theme: Counter[str] = Counter()
    by_band: Counter[int] = Counter()
    solved_band: Counter[int] = Counter()
    missed: Counter[tuple[str, str]] = Counter()  # (theme, rules)
    for puzzle, solved in tried:
        band = puzzle.difficulty // BAND * BAND
        by_theme[puzzle.theme] += 1
        by_band[band] += 1
        if solved:
            solved_theme[puzzle.theme] += 1
            solved_band[band] += 1
        else:
            missed[puzzle.theme, puzzle.rules] += 1
    themes = [
        ThemeRate(
            theme=theme,
            theme_text=_(theme),
            attempts=count,
            solved=solved_theme[theme],
            rate=_rate(solved_theme[theme], count),
        )
        for theme, count in sorted(by_theme.items(), key=lambda item: (-item[1], item[0]))
    ]
    bands = [
        Band(
            low=band,
            high=band + BAND - 1,
            attempts=count,
            solved=solved_band[band],
            rate=_rate(solved_band[band], count),
        )
        for band, count in sorted(by_band.items())
    ]
    misses: Counter[str] = Counter()
    for (theme, _rules), count in missed.items():
        misses[theme] += count
    worst = sorted(misses.items(), key=lambda item: (-item[1], item[0]))[:MISSED]
    solved_all = sum(solved for _puzzle, solved in tried)
    return Dashboard(
        attempts=len(tried),
        solved=solved_all,
        rate=_rate(solved_all, len(tried)) if tried else None,
        themes=themes,
        bands=bands,
        missed=[_missed(theme, count, missed) for theme, count in worst],
    )


def _missed(theme: str, count: int, missed: Counter[tuple[str, str]]) -> MissedTheme:
    """A theme missed ``count`` times, with the link to practise it on the rule set where it
    was missed most (ties: the first by name)."""
    rules = min((r for t, r in missed if t == theme), key=lambda r: (-missed[theme, r], r))
    puzzle_rules = rule_set(rules)
    return MissedTheme(
        theme=theme,
        theme_text=_(theme),
        missed=count,
        rules=rules,
        rules_title=_(puzzle_rules.rules_title),
        url="/puzzles?" + urlencode({"rules": rules, "theme": theme}),
    )
