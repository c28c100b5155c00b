"""What the games share to say a position in words (:meth:`~ludoteca.core.State.describe`,
read out by the pages' blind mode): a list of points in reading order, a side's sentence and
the position's closing sentences.  What a game's pieces are called, what it counts besides
them (men in hand, the Throne) is each game's own (its ``describe``)."""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from ..core import Color, State
from ..i18n import _, direction

__all__ = [
    "last_move_words",
    "listed",
    "ordered",
    "points_of",
    "position_words",
    "side_words",
    "turn_words",
]


def _reading_order(name: str) -> tuple[str, int]:
    """``a4`` before ``a10`` before ``b1``: by file, then by rank as a number."""
    return name[0].lower(), int(name[1:])


def ordered(names: Iterable[str]) -> list[str]:
    """Point names in reading order: by file, then by rank as a number."""
    return sorted(names, key=_reading_order)


def points_of(tokens: Sequence[str], names: Sequence[str], wanted: str) -> list[str]:
    """The names of the points holding the token ``wanted`` (of ``tokens``, one a point as
    :meth:`~ludoteca.core.State.pieces` gives them), in reading order."""
    return ordered(names[i] for i, t in enumerate(tokens) if t == wanted)


def listed(points: Sequence[str]) -> str:
    """Point names joined as a list ("a1, d1, g7"); in a language written right to left each
    name isolated (between U+2068 FIRST STRONG ISOLATE and U+2069 POP DIRECTIONAL ISOLATE), so
    that the list reads in its order there too, not as one left-to-right run."""
    if direction() == "rtl":
        points = [f"\u2068{point}\u2069" for point in points]
    return _(", ").join(points)


def side_words(side: Color, board: Sequence[str], more: Sequence[str] = ()) -> str:
    """One side's sentence: ``"White: 7 men, on a1, ...; 2 in hand."`` (``board``: what the
    game says of the side's pieces on the board, each kind in words, none when it has none;
    ``more``: what else it counts, such as the men in hand)."""
    parts = [*(board or [_("no pieces on the board")]), *more]
    # TRANSLATORS: what separates the parts of a side's pieces in the position read out
    words = _("; ").join(parts)
    # TRANSLATORS: a side's pieces in the position read out: "White: 7 men, on a1, d1; 2 in hand."
    return _("%(side)s: %(pieces)s.", side=_(side.title), pieces=words)


def turn_words(turn: Color) -> str:
    """Whose turn it is, as a sentence."""
    return _("White to move.") if turn is Color.WHITE else _("Black to move.")


def position_words(
    sides: Sequence[str], turn: Color, more: Sequence[str] = (), notice: str | None = None
) -> str:
    """The whole position read out: each side's sentence (White's first), the game's other
    sentences (``more``), whose turn it is and the position's notice."""
    return " ".join([*sides, *more, turn_words(turn), *([notice] if notice else [])])


def last_move_words(state: State) -> str | None:
    """The last move as a sentence ("Black played d6-d5xf4 (mill, takes f4)."), or ``None``
    before the first move (the state is left as it was)."""
    if not state.move_stack:
        return None
    code = state.pop_code()
    try:
        move, note = state.move_label(code), state.move_note(code)
        colour = _(state.turn.title)
    finally:
        state.push_code(code)
    if note:
        return _("%(colour)s played %(move)s (%(note)s).", colour=colour, move=move, note=note)
    return _("%(colour)s played %(move)s.", colour=colour, move=move)
