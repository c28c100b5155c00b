"""What a game declares when it can be solved: a :class:`Solver` per rule set, giving a
:class:`Table` of exact values (the shared machinery is in :mod:`ludoteca.solve`)."""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from .core import RuleSet, State
    from .jobs import Pool

__all__ = ["Progress", "Solver", "Table"]

Progress = Callable[[str], None]


class Table(ABC):
    """A solved rule set, or part of one: the exact value of every position it covers."""

    rules: RuleSet
    #: how long solving took (0 when read from a file)
    seconds: float = 0.0

    def covers(self, state: State) -> bool:
        """Whether ``state`` is one of the table's positions (endgame tables cover some)."""
        return True

    @abstractmethod
    def lookup(self, state: State) -> tuple[int, int]:
        """``(value, plies)`` for the side to move: 1 win, -1 loss, 0 draw, and the plies to
        the end under best play (the winner wins fastest, the loser loses slowest).  Raises
        :class:`InvalidRulesError` for a position the table does not cover."""

    @abstractmethod
    def summary(self) -> list[str]:
        """Lines for people: the start position's value and plies, and the table's counts."""

    def stats(self) -> list[str]:
        """Lines for people: the counts of each material class (where the table has them)."""
        return []


class Solver(ABC):
    """How a game solves one of its rule sets (declared by ``Game.solver``)."""

    #: the rule set it solves
    rules: RuleSet
    #: a name for the table, the same for rule sets that share it (e.g. differing draw rules)
    key: str
    #: the ``men`` that ``Game.solver`` gives this very solver back for (None: the default)
    choice: int | None = None

    @abstractmethod
    def path(self) -> Path:
        """The file the table is cached in (its name ends with the table format's version,
        ``-vN``); it exists once the table is built."""

    @abstractmethod
    def load(
        self, progress: Progress | None = None, pool: Pool | None = None
    ) -> tuple[Table, bool]:
        """The table, read from the cache or solved now (and cached); and whether it was read.
        A table solved now is solved on ``pool`` where the game spreads its build (a Ray
        cluster: :func:`ludoteca.solve.retrograde.solve_pairs`), else in this process.  A game
        whose build goes in stages keeps each stage solved in a checkpoint beside
        :meth:`path` (:class:`ludoteca.solve.checkpoint.Checkpoint`), so that a build stopped
        halfway goes on from there, and deletes it once the table is written."""

    def ready(self) -> bool:
        """Whether :meth:`load` answers in a moment: the table is cached, or quick to solve.
        Players use a table that is not ready only when asked to (``ludoteca solve``)."""
        return True
