"""Threefold repetition and the move rule, for games whose positions can repeat.

A state class that inherits :class:`RepeatingState` calls :meth:`_start_history` once, counts
each position it reaches with :meth:`_enter` after a push and :meth:`_leave` before a pop, and
asks :meth:`_drawn` whether a draw rule has ended the game.  The rule-set settings
``repetition`` (occurrences that draw; 0: off) and ``move_rule`` (quiet plies that draw; 0: off)
configure it; what counts as "quiet" is each game's business (``self.quiet``).
"""

from __future__ import annotations

from abc import abstractmethod

from ..core import Outcome, RuleSet, SettingWords, State, Termination
from ..i18n import N_

__all__ = ["DRAW_DEFAULTS", "DRAW_OPTIONS", "DRAW_WORDS", "RepeatingState"]

#: the default draw settings of every rule set (docs/rules.md)
DRAW_DEFAULTS: dict[str, bool | int] = {"repetition": 3, "move_rule": 100}
#: the draw settings explained for players (``Game.options``)
DRAW_OPTIONS: dict[str, str] = {
    "repetition": N_("Draw when the same position occurs this many times (0: never)"),
    "move_rule": N_("Draw after this many plies without a capture (0: never)"),
}
#: the draw settings in a rule set's title (``Game.setting_words``)
DRAW_WORDS: dict[str, SettingWords] = {
    "repetition": SettingWords(off=N_("no repetition draw"), value=N_("repetition %(value)s")),
    "move_rule": SettingWords(off=N_("no move rule"), value=N_("move rule %(value)s")),
}


class RepeatingState(State):
    """A state with the two named draw rules and the history they need."""

    quiet: int
    _seen: dict[int, int]
    _repetition: int
    _move_rule: int

    def _start_history(self, rules: RuleSet) -> None:
        self._repetition = int(rules["repetition"])
        self._move_rule = int(rules["move_rule"])
        self._seen = {self._key(): 1}

    @abstractmethod
    def _key(self) -> int:
        """The position key as an int (what repetition compares)."""

    def _enter(self) -> None:
        key = self._key()
        self._seen[key] = self._seen.get(key, 0) + 1

    def _leave(self) -> None:
        key = self._key()
        left = self._seen[key] - 1
        if left:
            self._seen[key] = left
        else:
            del self._seen[key]

    def occurrences(self) -> int:
        return self._seen.get(self._key(), 1)

    def _drawn(self) -> Outcome | None:
        """The draw that has ended the game, if any."""
        if self._repetition and self._seen.get(self._key(), 0) >= self._repetition:
            return Outcome(Termination.THREEFOLD_REPETITION, None)
        if self._move_rule and self.quiet >= self._move_rule:
            return Outcome(Termination.MOVE_RULE, None)
        return None
