"""What the games played on named points (Morris, Felli) share: a board of points named like
``a1`` joined by lines, and a start position without a setup."""

from __future__ import annotations

from typing import ClassVar

from ..core import BoardDescription, Game, InvalidPositionError, RuleSet, State

__all__ = ["PointBoardGame"]


class PointBoardGame(Game):
    """A game on named points: subclasses set ``state_class`` and either ``points`` and
    ``edges`` or, when the board depends on the rule set, :meth:`layout`."""

    points: ClassVar[tuple[str, ...]] = ()
    edges: ClassVar[tuple[tuple[int, int], ...]] = ()
    state_class: ClassVar[type[State]]

    @classmethod
    def layout(cls, rules: RuleSet) -> tuple[tuple[str, ...], tuple[tuple[int, int], ...]]:
        """The point names and the lines (pairs of point indices) under these rules."""
        return cls.points, cls.edges

    @classmethod
    def board(cls, rules: RuleSet) -> BoardDescription:
        """Points at (file, rank) from their names (``c5`` is at (2, 4)), with their lines."""
        points, edges = cls.layout(rules)
        coords = tuple((float(ord(p[0]) - ord("a")), float(int(p[1:]) - 1)) for p in points)
        return BoardDescription(points=points, coords=coords, lines=edges)

    @classmethod
    def new(
        cls, rules: str | RuleSet | None = None, setup: str | None = None, seed: int | None = None
    ) -> State:
        if setup:
            raise InvalidPositionError(f"{cls.title} has no setup; use a position code")
        return cls.state_class(cls.rules(rules))  # type: ignore[call-arg]
