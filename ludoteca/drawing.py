"""How a game's board and pieces are described as data, so that one drawing code (``svg.py``,
the browser) draws every game."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field

from .core import Color

__all__ = ["MEN", "BoardDescription", "PieceStyle"]


@dataclass(frozen=True)
class PieceStyle:
    """How one piece token is drawn and named: its side, its name for people ("man", "Mullah"),
    its shape (``"stone"`` or ``"king"``) and whether it carries a promotion ring."""

    side: Color
    name: str
    shape: str = "stone"
    ring: bool = False


#: the styles of a game whose only pieces are plain men (tokens ``"w"`` and ``"b"``)
MEN: Mapping[str, PieceStyle] = {
    "w": PieceStyle(Color.WHITE, "man"),
    "b": PieceStyle(Color.BLACK, "man"),
}


@dataclass(frozen=True)
class BoardDescription:
    """A game's board as data, for drawing any game with the same code.

    ``points`` are the names of the playable points or cells in code order; ``coords`` their
    (x, y) positions in board units with y growing upwards; ``lines`` pairs of point indices to
    draw as lines; ``cells`` whether points are drawn as square cells; ``fills`` the colour of
    each cell (empty: the default colour); ``styles`` how each piece token of
    :meth:`State.pieces` is drawn.
    """

    points: tuple[str, ...]
    coords: tuple[tuple[float, float], ...]
    lines: tuple[tuple[int, int], ...] = ()
    cells: bool = False
    fills: tuple[str, ...] = ()
    styles: Mapping[str, PieceStyle] = field(default_factory=lambda: dict(MEN))
