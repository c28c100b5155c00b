"""A game's two seats: their colours by name, and the columns of a game's row that belong to each
(who sits there, its token, its account, its display name, its time left).

Everything that reads or writes a seat's columns goes through :func:`seat`, so no column name is
ever spelled out from a colour.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from ...core import Color
from ..store import GameRow

__all__ = ["COLOURS", "SWAP", "Seat", "colour_name", "seat"]

COLOURS = {"white": Color.WHITE, "black": Color.BLACK}
SWAP = {"white": "black", "black": "white"}


def colour_name(colour: Color) -> str:
    """``"white"`` or ``"black"``."""
    return "white" if colour is Color.WHITE else "black"


@dataclass(frozen=True)
class Seat:
    """One seat's columns of a game's row: read them with the methods, name them in a change
    (``{seat.token: ...}``) with the attributes."""

    colour: Color
    name: str
    #: "human" or the computer player's spec ("level:N")
    kind: str
    #: the SHA-256 of the seat token (None: no token given out)
    token: str
    #: the account holding the seat (None: a guest, the computer, or free)
    user: str
    #: the player's display name
    display: str
    #: milliseconds left on the seat's clock
    ms: str

    def kind_of(self, row: GameRow) -> str:
        value: str = getattr(row, self.kind)
        return value

    def token_of(self, row: GameRow) -> str | None:
        value: str | None = getattr(row, self.token)
        return value

    def user_of(self, row: GameRow) -> int | None:
        value: int | None = getattr(row, self.user)
        return value

    def display_of(self, row: GameRow) -> str | None:
        value: str | None = getattr(row, self.display)
        return value

    def ms_of(self, row: GameRow) -> int | None:
        value: int | None = getattr(row, self.ms)
        return value

    def taken(self, row: GameRow) -> bool:
        """Whether someone holds the seat (a token given out, or an account)."""
        return self.token_of(row) is not None or self.user_of(row) is not None

    def values(self, **columns: Any) -> dict[str, Any]:
        """A change of this seat's columns: ``values(token=h, user=3)`` ->
        ``{"white_token": h, "white_user": 3}``."""
        return {getattr(self, key): value for key, value in columns.items()}


_SEATS = {
    colour: Seat(colour, name, name, f"{name}_token", f"{name}_user", f"{name}_name", f"{name}_ms")
    for name, colour in COLOURS.items()
}


def seat(colour: Color | str) -> Seat:
    """The seat of ``colour`` (a :class:`Color` or its name)."""
    return _SEATS[COLOURS[colour] if isinstance(colour, str) else colour]
