"""Morelli's setups as Boardspace names and deals them: how the red squares are filled at the
start, one kind a rule set (its ``setup`` setting), each dealt from a source of random draws.

A setup is a string over the red squares in setup-string order (clockwise from A1, up the left
edge first: :attr:`.board.Geometry.perimeter`), ``B`` for a stone of the first player, ``W``
for one of the second, ``.`` for an empty square.  docs/rules.md ("Setups") states each kind;
Boardspace's rules code, read to learn them (never copied), deals them so:

- ``random_opposite`` (RandomOpposite, the default): each pair of opposite red squares holds one
  stone of each colour, the colours drawn at random (the 2015 rules' "pair rule");
- ``random`` (Random): each corner and the n - 2 squares before it clockwise (a *side*) hold as
  many stones of each colour, two corners each, the order drawn at random;
- ``adjacent`` (Adjacent): the first player holds the left column and the bottom row, the second
  the right column and the top row;
- ``opposing`` (Opposing): the first player holds the bottom row but M1 and the top row but A13,
  the second the left and right columns but those two corners;
- ``blocks`` (Blocks): from each corner clockwise, blocks of alternate colours (3, 4, 4 and 1
  squares on 13x13; 3, 3, 3, 1 on 11x11; 3, 2, 2, 1 on 9x9), the first player's block first
  from A1 up and from the top right corner down, the second's from the top left corner right and
  from the bottom right corner left;
- ``free`` (Free): no stone; Boardspace deals an empty board, on which no move is possible.

Boardspace's first player may also give up the first move (its rules revision 101), so a fixed
setup is played with either colour holding the first player's squares: :func:`fits` takes a
fixed deal with its colours exchanged too.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Protocol

from ...core import Color
from ...i18n import N_, Text
from .board import geometry

__all__ = ["DEFAULT", "KINDS", "LABELS", "NAMES", "Draws", "PythonDraws", "deal", "fits", "swap"]

#: the kinds, in Boardspace's order (its records number them so)
KINDS = ("adjacent", "opposing", "random", "blocks", "free", "random_opposite")
#: the kind a rule set has unless it says otherwise
DEFAULT = "random_opposite"
#: each kind's name in Boardspace's records
NAMES = {
    "adjacent": "Adjacent",
    "opposing": "Opposing",
    "random": "Random",
    "blocks": "Blocks",
    "free": "Free",
    "random_opposite": "RandomOpposite",
}
#: each kind's name for people (translated where shown)
LABELS = {
    "adjacent": N_("Adjacent"),
    "opposing": N_("Opposing"),
    "random": N_("Random"),
    "blocks": N_("Blocks"),
    "free": N_("Free (no stones)"),
    "random_opposite": N_("Random opposite"),
}
#: the blocks' lengths along each side of 12, 10 and 8 squares (Blocks)
_BLOCKS = {13: (3, 4, 4, 1), 11: (3, 3, 3, 1), 9: (3, 2, 2, 1)}


class Draws(Protocol):
    """A source of random draws: Java's ``java.util.Random`` for Boardspace's deals (its
    ``nextInt`` and Boardspace's shuffle), or :class:`PythonDraws` for the engine's own."""

    def next_int(self, bound: int) -> int:
        """A whole number from 0 to ``bound`` - 1."""

    def shuffle(self, values: list[int]) -> None:
        """Put ``values`` in a random order, in place."""


class PythonDraws:
    """Draws from Python's seeded generator (``random.Random``)."""

    def __init__(self, seed: int | None) -> None:
        self.rng = random.Random(seed)

    def next_int(self, bound: int) -> int:
        return self.rng.randrange(bound)

    def shuffle(self, values: list[int]) -> None:
        self.rng.shuffle(values)


def _sides(n: int) -> list[list[int]]:
    """Each corner's side, as setup-string indexes: the corner, then the n - 2 squares before
    it clockwise (A1, L1 .. B1; A13, A12 .. A2; M13, L13 .. B13; M1, M2 .. M12)."""
    ring = 4 * (n - 1)
    return [[(k * (n - 1) - j) % ring for j in range(n - 1)] for k in range(4)]


def deal(kind: str, n: int, draws: Draws) -> str:
    """The setup string of ``kind`` on the nxn board, ``B`` for the first player's stones, its
    random choices (``random`` and ``random_opposite``) drawn from ``draws`` in Boardspace's
    order: for ``random_opposite``, A1 .. An then B1 .. (n-2)1, each square's opposite taking
    the other colour; for ``random``, the corners' colours shuffled (two each), then each side
    (from A1, M13, A13, M1) shuffled, its colours alternating from the corner's opposite."""
    ring = 4 * (n - 1)
    cells = ["."] * ring
    colour = "BW"
    if kind == "random_opposite":
        for i in range(n):  # A1 .. An: indexes 0 .. n-1, opposite M1 .. Mn
            v = draws.next_int(2)
            cells[i], cells[i + ring // 2] = colour[v], colour[v ^ 1]
        for i in range(1, n - 1):  # B1 .. (n-2)1: indexes ring-1 .. , opposite on row n
            v = draws.next_int(2)
            cells[ring - i], cells[ring // 2 - i] = colour[v], colour[v ^ 1]
    elif kind == "random":
        corners = [0, 0, 1, 1]
        draws.shuffle(corners)
        sides = _sides(n)
        # Boardspace fills the sides from A1, M13, A13 then M1, each from its corner
        for side, corner in zip((sides[0], sides[2], sides[1], sides[3]), corners, strict=True):
            rest = [(corner ^ 1) ^ (j & 1) for j in range(n - 2)]
            draws.shuffle(rest)
            for index, v in zip(side, [corner, *rest], strict=True):
                cells[index] = colour[v]
    elif kind == "adjacent":
        for i, s in enumerate(geometry(n).perimeter):
            x, y = s % n, s // n
            cells[i] = "B" if x == 0 or (y == 0 and x < n - 1) else "W"
    elif kind == "opposing":
        for i, s in enumerate(geometry(n).perimeter):
            x, y = s % n, s // n
            rows = (y == 0 and x < n - 1) or (y == n - 1 and x > 0)
            cells[i] = "B" if rows else "W"
    elif kind == "blocks":
        lengths = _BLOCKS[n]
        run = [c for k, length in enumerate(lengths) for c in [k & 1] * length]
        for k in range(4):  # from A1, A13, M13, M1 clockwise
            for i, v in enumerate(run):
                cells[k * (n - 1) + i] = colour[v ^ (k & 1)]
    elif kind != "free":
        raise ValueError(f"unknown setup kind {kind!r}")
    return "".join(cells)


def _colour(letter: str) -> Text:
    return Text((Color.BLACK if letter == "B" else Color.WHITE).title)


def swap(setup: str) -> str:
    """The setup with its colours exchanged."""
    return setup.translate(str.maketrans("BW", "WB"))


def fits(kind: str, n: int, ring: Sequence[str]) -> Text | None:
    """Why the red squares' stones ``ring`` (``B``, ``W`` or ``.``, in setup-string order)
    cannot be what is left of a ``kind`` setup, or ``None`` when they can be.  A stone never
    comes back to a red square nor changes colour there, so a square may be empty but never
    hold a stone its deal did not put there: a full ring fits exactly the kind's deals."""
    geo = geometry(n)
    names = [geo.names[s] for s in geo.perimeter]
    stones = [i for i, c in enumerate(ring) if c != "."]
    if kind == "free":
        if stones:
            return Text(
                "the Free setup leaves every red square empty, but %(square)s holds a stone",
                square=names[stones[0]],
            )
        return None
    if kind == "random_opposite":
        half = len(ring) // 2
        for i in range(half):
            if ring[i] != "." and ring[i] == ring[i + half]:
                return Text(
                    "setup breaks the pair rule: %(first)s and %(second)s are opposite and "
                    "both %(colour)s",
                    first=names[i],
                    second=names[i + half],
                    colour=_colour(ring[i]),
                )
        return None
    if kind == "random":
        corners = [ring[side[0]] for side in _sides(n)]
        for c in "BW":
            if corners.count(c) > 2:
                return Text(
                    "the Random setup gives each player two corners, but %(count)s hold %(colour)s "
                    "stones",
                    count=corners.count(c),
                    colour=_colour(c),
                )
        for side in _sides(n):
            cells = [ring[i] for i in side]
            for c in "BW":
                if cells.count(c) > len(side) // 2:
                    return Text(
                        "the Random setup gives each side from a corner (%(first)s to "
                        "%(last)s) as many stones of each colour, but %(count)s of its "
                        "%(size)s are %(colour)s",
                        first=names[side[0]],
                        last=names[side[-1]],
                        count=cells.count(c),
                        size=len(side),
                        colour=_colour(c),
                    )
        return None
    dealt = deal(kind, n, PythonDraws(0))
    for candidate in (dealt, swap(dealt)):
        if all(ring[i] == candidate[i] for i in stones):
            return None
    return Text(
        "the stones on the red squares are not where Boardspace's %(kind)s setup deals them "
        "(with the colours either way round): it fills them %(setup)s",
        kind=NAMES[kind],
        setup=dealt,
    )
