"""A game's two seats: their colours by name, and the columns of a game's row that belong to each
(who sits there, its token, its account, its display name, its time left).

Everything that reads or writes a seat's columns goes through :func:`seat`, so no column name is
ever spelled out from a colour.
"""

from __future__ import annotations

from dataclasses import dataclass

from ...core import Color
from ..schemas import Colour
from ..store import GameRow

__all__ = ["COLOURS", "SWAP", "Seat", "colour_name", "colour_named", "seat"]

COLOURS: dict[str, Color] = {"white": Color.WHITE, "black": Color.BLACK}
SWAP: dict[str, str] = {"white": "black", "black": "white"}


def colour_name(colour: Color) -> Colour:
    """``"white"`` or ``"black"``."""
    return "white" if colour is Color.WHITE else "black"


def colour_named(name: str | None) -> Colour | None:
    """The colour name ``name`` is (``None`` for anything else)."""
    return "white" if name == "white" else "black" if name == "black" else None


@dataclass(frozen=True)
class Seat:
    """One seat's columns of a game's row: read them with the methods, name them in a change
    (``{seat.token: ...}``) with the attributes."""

    colour: Color
    name: Colour
    #: the column names: who sits there ("human" or the computer player's spec, "level:N")
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

    def values(self, **columns: object) -> dict[str, object]:
        """A change of this seat's columns: ``values(token=h, user=3)`` ->
        ``{"white_token": h, "white_user": 3}``."""
        return {getattr(self, key): value for key, value in columns.items()}


def _seat(colour: Color) -> Seat:
    name = colour_name(colour)
    return Seat(colour, name, name, f"{name}_token", f"{name}_user", f"{name}_name", f"{name}_ms")


_BY_NAME: dict[str, Seat] = {colour_name(colour): _seat(colour) for colour in Color}
_BY_COLOUR = {place.colour: place for place in _BY_NAME.values()}


def seat(colour: Color | str) -> Seat:
    """The seat of ``colour`` (a :class:`Color` or its name)."""
    return _BY_NAME[colour] if isinstance(colour, str) else _BY_COLOUR[colour]
