"""Round robin by the Berger tables of FIDE (Handbook C.05, Annex 1), from ``pairing-core``.

The players are numbered 1..n by their seeding; with an odd n the player the table pairs with
the missing n+1 rests that round.  There are n-1 rounds (n with an odd n)."""

from __future__ import annotations

from pairing_core import round_robin

__all__ = ["berger_round", "berger_rounds"]


def berger_rounds(count: int) -> int:
    """How many rounds a round robin of ``count`` (at least 2) players has."""
    return count - 1 if count % 2 == 0 else count


def berger_round(count: int, number: int) -> list[tuple[int, int | None]]:
    """The boards of round ``number`` (1-based) of a round robin of ``count`` players: pairs
    of Berger numbers (white, black), black None for the player resting."""
    table = round_robin(count)
    return [(white, black) for white, black in table[number - 1]]
