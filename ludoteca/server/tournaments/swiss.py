"""Swiss pairing: the FIDE (Dutch) system as ``pairing-core`` implements it (its
``dutch-2026`` rule set: score groups, the top half against the bottom half with
transpositions and exchanges, colour preferences, no repeated pairing, float limits, one
pairing-allocated bye to a player of the lowest score group who has had none).

:func:`pair_swiss` turns the tournament's players and finished boards into its request: the
pairing numbers are the seeding (rating, then who joined first: a late entrant takes its
place by rating, as FIDE's "late entries" do), each player's colours, opponents, bye and the
floats of the last two rounds.  A round missed (joined late) is an unplayed round; a player
who withdrew is paired no more, but their games still count for their opponents.

The 2026 rules' search can give up where a round can still be paired: its budget of steps
or time runs out on a large field (64 players, random results: already in round 2), or a
score group has no candidate its rules accept, where FIDE says the Chief Arbiter decides.
The round is then paired by :func:`.matching.pair_by_matching`, which keeps the absolute
criteria and pairs by score as closely as they allow."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from pairing_core.errors import PairingError
from pairing_core.fide2026 import DUTCH_2026, P26Player, P26Request, pair_2026

from .matching import History, pair_by_matching
from .scoring import Board

__all__ = ["Entrant", "NoPairing", "pair_swiss"]

#: the 2026 rules' search budget, in steps and in seconds of one core (an odd field of 17
#: takes it about two in its first round), before the round is paired by matching
MAX_STEPS = 2_000_000
SECONDS = 5.0


class NoPairing(Exception):
    """No pairing of the round satisfies the rules (every remaining pairing is a rematch)."""


@dataclass(frozen=True)
class Entrant:
    """A player to pair: its id and rating (the seeding: rating, then the order given)."""

    id: int
    rating: int


def _float(mine: float, theirs: float | None) -> str:
    """The float of a round where a player with ``mine`` points met one with ``theirs``
    (None: a bye, a downfloat)."""
    if theirs is None or mine > theirs:
        return "D"
    return "U" if mine < theirs else ""


def pair_swiss(
    entrants: Sequence[Entrant], boards: Sequence[Board], number: int, rounds: int
) -> list[tuple[int, int | None]]:
    """The boards (white, black; black None: the bye) of Swiss round ``number`` of
    ``rounds`` between ``entrants`` (in seeding order), after the finished ``boards`` of the
    earlier rounds; :class:`NoPairing` if the rules allow none."""
    tpn = {e.id: i + 1 for i, e in enumerate(entrants)}
    # everyone who played, the withdrawn too: their scores make their opponents' floats
    everyone = {e.id for e in entrants} | {p for b in boards for p in (b.white, b.black)}
    score: dict[int, float] = {p: 0.0 for p in everyone if p is not None}
    colours = {e.id: "" for e in entrants}
    opponents: dict[int, list[int]] = {e.id: [] for e in entrants}  # those still in
    floats: dict[int, dict[int, str]] = {e.id: {} for e in entrants}  # by round
    pab = set()
    for round_number in sorted({b.round for b in boards}):
        before = dict(score)
        for board in (b for b in boards if b.round == round_number):
            for player in (board.white, board.black):
                if player is None:
                    continue
                score[player] += board.score(player) or 0.0
                if player not in tpn:
                    continue  # withdrawn: not paired any more
                other = board.opponent(player)
                theirs = None if other is None else before[other]
                floats[player][round_number] = _float(before[player], theirs)
                if other is None:
                    pab.add(player)
                    continue
                colours[player] += "W" if player == board.white else "B"
                if other in tpn:
                    opponents[player].append(other)
    unplayed = {e.id: number - 1 - len(colours[e.id]) for e in entrants}
    players = tuple(
        P26Player(
            id=e.id,
            tpn=tpn[e.id],
            score=score[e.id],
            rating=e.rating,
            colors=colours[e.id],
            opponents=tuple(opponents[e.id]),
            played=len(colours[e.id]),
            unplayed=unplayed[e.id],
            got_pab=e.id in pab,
            last_float=floats[e.id].get(number - 1, ""),
            prev_float=floats[e.id].get(number - 2, ""),
        )
        for e in entrants
    )
    request = P26Request(
        players=players,
        ruleset=DUTCH_2026,
        round_number=number,
        total_rounds=rounds,
        is_last_round=number == rounds,
        max_steps=MAX_STEPS,
        wall_clock_seconds=SECONDS,
    )
    try:
        pairing = pair_2026(request)
    except PairingError as error:
        histories = {
            e.id: History(score[e.id], colours[e.id], opponents[e.id], e.id in pab, unplayed[e.id])
            for e in entrants
        }
        matched = pair_by_matching([e.id for e in entrants], histories)
        if matched is None:
            raise NoPairing(str(error)) from error
        return matched
    found: list[tuple[int, int | None]] = [(p.white_id, p.black_id) for p in pairing.pairs]
    if pairing.bye_id is not None:
        found.append((pairing.bye_id, None))
    return found
