"""A Swiss round paired as a maximum-weight matching: the fallback where the Dutch system's
search gives up (see :mod:`.swiss`).

It keeps FIDE's absolute criteria (C.04.1: no two players meet twice; a pairing-allocated bye
at most once a player; no one's colour difference past two nor the same colour three times
running) and, among the pairings that do, pairs everyone it can, then players of equal score
(each point between two opponents costs more than any other difference), then each player
with the colour they would rather have wherever the two of a pair differ in it (the Dutch
system's colour criteria), then, within a score group, the top half against the bottom half
as the Dutch system does; the bye goes to the lowest score group's player who has had none,
the fewest unplayed rounds, then the lowest ranked (the Dutch rules' C.5 and C.9).  Edmonds'
blossom algorithm (``networkx``) finds the best matching: about a second for 200 players."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from itertools import combinations

import networkx as nx

__all__ = ["History", "pair_by_matching"]

#: the bye's node in the graph (the players' are their ids)
_BYE = "bye"


class History:
    """What a player brings to a round: its score, its colours so far (``"W"``, ``"B"``, one a
    game played), its opponents, whether it had the pairing-allocated bye and how many of
    its rounds went unplayed (missed, or a bye)."""

    __slots__ = ("colours", "had_bye", "opponents", "score", "unplayed")

    def __init__(
        self,
        score: float,
        colours: str,
        opponents: Sequence[int],
        had_bye: bool,
        unplayed: int = 0,
    ) -> None:
        self.score = score
        self.colours = colours
        self.opponents = frozenset(opponents)
        self.had_bye = had_bye
        self.unplayed = unplayed

    def due(self) -> str | None:
        """The colour it must have (an absolute colour preference), if any."""
        balance = self.colours.count("W") - self.colours.count("B")
        if balance <= -2 or self.colours.endswith("BB"):
            return "W"
        if balance >= 2 or self.colours.endswith("WW"):
            return "B"
        return None

    def wish(self) -> str | None:
        """The colour it would rather have, if any: the one due, else the one its leaning
        says."""
        leaning = self.leaning()
        return self.due() or ("W" if leaning > 0 else "B" if leaning < 0 else None)

    def leaning(self) -> int:
        """How much it would rather have White (the colours' balance, then the last one)."""
        balance = self.colours.count("B") - self.colours.count("W")
        last = {"W": -1, "B": 1}.get(self.colours[-1:], 0)
        return 2 * balance + last


def pair_by_matching(
    ranked: Sequence[int], players: Mapping[int, History]
) -> list[tuple[int, int | None]] | None:
    """The boards (white, black; black None: the bye) of a round between ``ranked`` (the
    players' ids, in order of pairing number), or None if the absolute criteria
    leave some player without a board."""
    number = {p: i for i, p in enumerate(ranked)}
    order = sorted(ranked, key=lambda p: (-players[p].score, number[p]))
    place = {p: i for i, p in enumerate(order)}
    groups: dict[float, list[int]] = {}
    for p in order:
        groups.setdefault(players[p].score, []).append(p)
    half = {p: len(groups[players[p].score]) / 2 for p in order}
    count = len(order)
    #: the cost of a pair of players who would both rather have the same colour (one goes
    #: without): more than a whole round's costs of ranks within score groups
    clash = count * count + 1
    #: the cost of a point between opponents: more than every other cost of a round
    point = (count // 2 + 1) * (clash + count) + 1
    spread = max(players[p].score for p in order) - min(players[p].score for p in order)
    #: more than the costs of a whole round's pairs: the bye's choice comes first
    whole = (count // 2 + 1) * (point * round(2 * spread) ** 2 + clash + count) + 1
    top = (count + 2) * whole
    graph = nx.Graph()
    graph.add_nodes_from(order)
    for a, b in combinations(order, 2):
        one, other = players[a], players[b]
        if b in one.opponents or (one.due() is not None and one.due() == other.due()):
            continue
        cost = point * round(2 * abs(one.score - other.score)) ** 2
        if one.wish() is not None and one.wish() == other.wish():
            cost += clash
        if one.score == other.score:
            cost += int(abs(abs(place[a] - place[b]) - half[a]))  # top half against bottom
        graph.add_edge(a, b, weight=top - cost)
    if count % 2:
        byes = sorted(
            (p for p in order if not players[p].had_bye),
            key=lambda p: (players[p].score, players[p].unplayed, -place[p]),
        )
        for choice, p in enumerate(byes):
            graph.add_edge(_BYE, p, weight=top - choice * whole)
    matching = nx.max_weight_matching(graph, maxcardinality=True)
    boards = [
        (b if a == _BYE else a, None) if _BYE in (a, b) else _coloured(a, b, players, place)
        for a, b in matching
    ]
    if 2 * len(boards) < count:
        return None
    return sorted(boards, key=lambda board: min(place[p] for p in board if p is not None))


def _coloured(
    a: int, b: int, players: Mapping[int, History], place: Mapping[int, int]
) -> tuple[int, int | None]:
    """The board of ``a`` and ``b``, White first: a due colour first, then the stronger
    leaning, then the higher ranked's leaning (White if none)."""
    due_a, due_b = players[a].due(), players[b].due()
    if due_a or due_b:
        white_a = due_a == "W" or due_b == "B"
    else:
        lean_a, lean_b = players[a].leaning(), players[b].leaning()
        if lean_a != lean_b:
            white_a = lean_a > lean_b
        else:
            higher = a if place[a] < place[b] else b
            white_a = (players[higher].leaning() >= 0) == (higher == a)
    return (a, b) if white_a else (b, a)
