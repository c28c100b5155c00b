"""What the games played on named points (Morris, Felli) share: a board of points named like
``a1`` joined by lines, and a start position without a setup."""

from __future__ import annotations

from typing import ClassVar

from ..core import Game, InvalidPositionError, State
from ..drawing import BoardDescription
from ..i18n import Text

__all__ = ["PointBoardGame"]


class PointBoardGame(Game):
    """A game on named points: subclasses set ``state_class`` and either ``points`` and
    ``edges`` or, when the board depends on the rule set, :attr:`layout`."""

    points: ClassVar[tuple[str, ...]] = ()
    edges: ClassVar[tuple[tuple[int, int], ...]] = ()
    state_class: ClassVar[type[State]]

    @property
    def layout(self) -> tuple[tuple[str, ...], tuple[tuple[int, int], ...]]:
        """The point names and the lines (pairs of point indices) under the rule set."""
        return self.points, self.edges

    @property
    def board(self) -> BoardDescription:
        """Points at (file, rank) from their names (``c5`` is at (2, 4)), with their lines."""
        points, edges = self.layout
        coords = tuple((float(ord(p[0]) - ord("a")), float(int(p[1:]) - 1)) for p in points)
        return BoardDescription(points=points, coords=coords, lines=edges)

    def new(self, setup: str | None = None, seed: int | None = None) -> State:
        if setup:
            raise InvalidPositionError(
                Text("%(game)s has no setup; use a position code", game=Text(self.title))
            )
        return self.state_class(self)  # type: ignore[call-arg]
