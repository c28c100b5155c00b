"""What the games played on named points (Morris, Felli) share: a board of points named like
``a1`` joined by lines, and a start position without a setup."""

from __future__ import annotations

from typing import ClassVar

from ..core import BoardDescription, Game, InvalidPositionError, RuleSet, State

__all__ = ["PointBoardGame"]


class PointBoardGame(Game):
    """A game on named points: subclasses set ``points``, ``edges`` and ``state_class``."""

    points: ClassVar[tuple[str, ...]]
    edges: ClassVar[tuple[tuple[int, int], ...]]
    state_class: ClassVar[type[State]]

    @classmethod
    def board(cls, rules: RuleSet) -> BoardDescription:
        """Points at (file, rank) from their names (``c5`` is at (2, 4)), with their lines."""
        coords = tuple((float(ord(p[0]) - ord("a")), float(int(p[1:]) - 1)) for p in cls.points)
        return BoardDescription(points=cls.points, coords=coords, lines=cls.edges)

    @classmethod
    def new(cls, rules: str | RuleSet | None = None, setup: str | None = None,
            seed: int | None = None) -> State:
        if setup:
            raise InvalidPositionError(f"{cls.title} has no setup; use a position code")
        return cls.state_class(cls.rules(rules))  # type: ignore[call-arg]
