"""The Morelli board of each size: its squares' names, bands and lines, and the frames that can
form on it (the tables the rules, the compiled kernel and the lessons share).

Squares are numbered ``y * n + x`` (x: column A.., y: row 1.., both from 0).  The band of a
square is its Chebyshev distance to the Throne (0: the Throne, n // 2: the red edge).
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache, partial

from ...i18n import N_

__all__ = ["BAND_NAMES", "DIRECTIONS", "LETTERS", "Geometry", "frame_list", "frames", "geometry"]

#: the column letters, A on the left
LETTERS = "ABCDEFGHIJKLM"
#: the eight directions a line runs in, as (dx, dy)
DIRECTIONS = ((1, 0), (1, 1), (0, 1), (-1, 1), (-1, 0), (-1, -1), (0, -1), (1, -1))
#: each band's colour, from the Throne out to the edge
BAND_NAMES = (
    N_("violet"),
    N_("indigo"),
    N_("blue"),
    N_("green"),
    N_("yellow"),
    N_("orange"),
    N_("red"),
)


@dataclass(frozen=True)
class Geometry:
    """Every precomputed table of one board size."""

    n: int
    throne: int
    band: tuple[int, ...]
    names: tuple[str, ...]
    #: RAYS[s]: for each direction, the squares met walking from s (the Throne included)
    rays: tuple[tuple[tuple[int, ...], ...], ...]
    #: INWARD[s]: each ray of s cut to its first squares nearer the centre than s, where its
    #: moves end (the band falls, then rises, along a line: no later square is nearer)
    inward: tuple[tuple[tuple[int, ...], ...], ...]
    #: STEPS[s]: (neighbour, square beyond) pairs for the capture test, both on the board
    flanks: tuple[tuple[tuple[int, int], ...], ...]
    #: FRAME[s]: the four squares of s's frame, or () where no frame can form
    frame: tuple[tuple[int, ...], ...]
    #: the red squares in setup-string order (clockwise from A1, up the left edge first)
    perimeter: tuple[int, ...]

    @property
    def pairs(self) -> int:
        """Stones per side (and opposite pairs of red squares)."""
        return len(self.perimeter) // 2

    def name(self, s: int) -> str:
        return self.names[s]


@cache
def geometry(n: int) -> Geometry:
    """The tables of an nxn board (n odd)."""
    c = n // 2

    def sq(x: int, y: int) -> int:
        return y * n + x

    inside = range(n)
    band = tuple(max(abs(s % n - c), abs(s // n - c)) for s in range(n * n))
    names = tuple(f"{LETTERS[s % n]}{s // n + 1}" for s in range(n * n))
    rays = []
    inward = []
    flanks = []
    for s in range(n * n):
        x, y = s % n, s // n
        rays_s = []
        flanks_s = []
        for dx, dy in DIRECTIONS:
            ray = []
            k = 1
            while x + k * dx in inside and y + k * dy in inside:
                ray.append(sq(x + k * dx, y + k * dy))
                k += 1
            rays_s.append(tuple(ray))
            if len(ray) >= 2:
                flanks_s.append((ray[0], ray[1]))
        rays.append(tuple(rays_s))
        flanks.append(tuple(flanks_s))
        inward.append(tuple(filter(None, map(partial(_nearer, band, s), rays_s))))
    frame = []
    for s in range(n * n):
        x, y = s % n, s // n
        orbit = (sq(x, y), sq(n - 1 - y, x), sq(n - 1 - x, n - 1 - y), sq(y, n - 1 - x))
        frame.append(orbit if 1 <= band[s] < c else ())
    perimeter = (
        [sq(0, y) for y in range(n)]
        + [sq(x, n - 1) for x in range(1, n)]
        + [sq(n - 1, y) for y in range(n - 2, -1, -1)]
        + [sq(x, 0) for x in range(n - 2, 0, -1)]
    )
    return Geometry(
        n,
        sq(c, c),
        band,
        names,
        tuple(rays),
        tuple(inward),
        tuple(flanks),
        tuple(frame),
        tuple(perimeter),
    )


def _nearer(band: tuple[int, ...], s: int, ray: tuple[int, ...]) -> tuple[int, ...]:
    """The first squares of ``ray`` (from ``s``) nearer the centre than ``s``; checked to be
    all of them."""
    k = 0
    while k < len(ray) and band[ray[k]] < band[s]:
        k += 1
    assert all(band[t] >= band[s] for t in ray[k:]), "a line's band falls, then rises"
    return ray[:k]


def frames(n: int) -> set[frozenset[int]]:
    """The distinct frames that can form on an nxn board."""
    return {frozenset(f) for f in geometry(n).frame if f}


@cache
def frame_list(n: int) -> tuple[tuple[int, ...], ...]:
    """The distinct frames of an nxn board (:func:`frames`), each as its squares in increasing
    order, in increasing order: the fixed order the evaluation and the kernel walk them in."""
    return tuple(sorted(tuple(sorted(f)) for f in frames(n)))
