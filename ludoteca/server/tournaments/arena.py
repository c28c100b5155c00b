"""Arena pairing (lichess's rules, simplified): the players free to play are paired at once,
each with the nearest in the standings (points, then rating) whom they did not just play."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

__all__ = ["pair_arena"]


def pair_arena(
    free: Sequence[int],
    points: Mapping[int, float],
    ratings: Mapping[int, int],
    last: Mapping[int, int],
) -> list[tuple[int, int]]:
    """Pairs (white, black) of the players ``free`` to play, ranked by ``points`` then
    ``ratings``: each in turn from the top meets the next one below who is not the opponent
    of its last game (``last``), else the next one below; white goes to the one of the pair
    ranked lower (an even share of colours needs no bookkeeping).  An odd one out waits."""
    ranked = sorted(free, key=lambda p: (-points.get(p, 0.0), -ratings.get(p, 0), p))
    pairs = []
    while len(ranked) >= 2:
        top = ranked.pop(0)
        choice = next((p for p in ranked if last.get(top) != p), ranked[0])
        ranked.remove(choice)
        pairs.append((choice, top))
    return pairs
