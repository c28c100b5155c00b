"""Points and tie-breaks, worked out from a tournament's boards (pure).

A board is one player's game or bye in a round (:class:`Board`).  Swiss and round robin score
a win 1, a draw ½, a loss 0; a Swiss pairing-allocated bye 1 (FIDE, lichess), a round missed
(joined late, or a round robin's rest round) 0.  The arena scores as lichess does: win 2,
draw 1, loss 0, and after two wins in a row each game counts double until one is not won
(the streak, :func:`arena_points`).

Tie-breaks (FIDE C.07, simplified: a round without an opponent adds nothing, where FIDE
counts a virtual opponent): Buchholz (the sum of the opponents' scores), Buchholz cut-1 (less
the lowest of them), Sonneborn-Berger (the scores of the opponents beaten, and half of those
drawn).  The arena's tie-break is the performance: the opponents' mean rating plus
500 * (wins - losses) / games.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass

__all__ = ["Board", "Standing", "arena_points", "standings"]

#: a player's score of a game by its result, from White's and from Black's side
_SCORES = {"1-0": (1.0, 0.0), "0-1": (0.0, 1.0), "1/2-1/2": (0.5, 0.5)}


@dataclass(frozen=True)
class Board:
    """One pairing of a round: ``white`` against ``black`` (None: ``white`` has a bye worth
    ``bye`` points), and its ``result`` ("1-0", "0-1", "1/2-1/2"; "*" while in play)."""

    round: int
    white: int
    black: int | None
    result: str = "*"
    bye: float = 0.0

    def score(self, player: int) -> float | None:
        """``player``'s score of this board (a game's 1, ½ or 0, a bye's points); None while
        the game is in play."""
        if self.black is None:
            return self.bye
        scores = _SCORES.get(self.result)
        if scores is None:
            return None
        return scores[0] if player == self.white else scores[1]

    def opponent(self, player: int) -> int | None:
        """``player``'s opponent on this board (None for a bye)."""
        return self.black if player == self.white else self.white


@dataclass(frozen=True)
class Standing:
    """A player's line in the standings."""

    player: int
    points: float
    buchholz: float
    buchholz_cut1: float
    sonneborn_berger: float
    performance: int | None
    games: int
    streak: bool  # (arena) on a streak: the next win counts double


def arena_points(scores: Iterable[float]) -> tuple[float, bool]:
    """The arena points of a player's games in the order played (each 1, ½ or 0), and
    whether the player is on a streak after them: a win is 2, a draw 1, a loss 0; after two
    wins in a row every game counts double until one is not won."""
    points, wins, fire = 0.0, 0, False
    for score in scores:
        points += score * 2 * (2 if fire else 1)
        wins = wins + 1 if score == 1 else 0
        fire = wins >= 2
    return points, fire


def _finished(boards: Iterable[Board]) -> list[Board]:
    return [b for b in boards if b.score(b.white) is not None]


def standings(
    players: Sequence[int],
    boards: Sequence[Board],
    *,
    arena: bool = False,
    ratings: dict[int, int] | None = None,
    order: str = "swiss",
) -> list[Standing]:
    """The standings of ``players`` after the finished ``boards``, best first.  Swiss order
    (``order="swiss"``): points, Buchholz cut-1, Buchholz, Sonneborn-Berger; round robin
    (``"roundrobin"``): points, Sonneborn-Berger; arena (``arena``): arena points, then the
    performance (from ``ratings``, each player's rating).  Ties keep the order of ``players``
    (their seeding)."""
    done = _finished(boards)
    mine: dict[int, list[Board]] = {p: [] for p in players}
    for board in sorted(done, key=lambda b: b.round):
        for player in (board.white, board.black):
            if player is not None and player in mine:
                mine[player].append(board)
    score = {p: sum(b.score(p) or 0.0 for b in mine[p]) for p in players}
    rated = ratings or {}
    lines = []
    for player in players:
        games = [b for b in mine[player] if b.black is not None]
        opponents = [(b.opponent(player), b.score(player) or 0.0) for b in games]
        theirs = [score.get(o, 0.0) for o, _ in opponents if o is not None]
        buchholz = sum(theirs)
        cut1 = buchholz - min(theirs) if theirs else 0.0
        sb = sum(score.get(o, 0.0) * s for o, s in opponents if o is not None)
        if arena:
            points, fire = arena_points(s for _, s in opponents)
        else:
            points, fire = score[player], False
        lines.append(
            Standing(
                player=player,
                points=points,
                buchholz=buchholz,
                buchholz_cut1=cut1,
                sonneborn_berger=sb,
                performance=_performance(opponents, rated),
                games=len(games),
                streak=fire,
            )
        )
    seeding = {p: i for i, p in enumerate(players)}

    def key(line: Standing) -> tuple[float, ...]:
        if arena:
            return (-line.points, -(line.performance or 0), seeding[line.player])
        if order == "roundrobin":
            return (-line.points, -line.sonneborn_berger, seeding[line.player])
        tie = (-line.buchholz_cut1, -line.buchholz, -line.sonneborn_berger)
        return (-line.points, *tie, seeding[line.player])

    return sorted(lines, key=key)


def _performance(opponents: list[tuple[int | None, float]], ratings: dict[int, int]) -> int | None:
    """The mean rating of the rated opponents plus 500 * (wins - losses) / games; None
    without games."""
    known = [(ratings[o], s) for o, s in opponents if o is not None and o in ratings]
    if not known:
        return None
    mean = sum(r for r, _ in known) / len(known)
    balance = sum(1 if s == 1 else -1 if s == 0 else 0 for _, s in known)
    return round(mean + 500 * balance / len(known))
