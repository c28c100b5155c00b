"""Tournament pairing and scoring (pure): the FIDE Berger tables, the Dutch system (and its
matching fallback) on published examples and on an example worked out by hand from the
rules, standings and tie-breaks computed by hand, and the arena's points with its streak."""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Mapping, Sequence

import pytest
from pairing_core.errors import PairingError

from ludoteca.server.tournaments import swiss
from ludoteca.server.tournaments.arena import pair_arena
from ludoteca.server.tournaments.berger import berger_round, berger_rounds
from ludoteca.server.tournaments.matching import History, pair_by_matching
from ludoteca.server.tournaments.scoring import Board, arena_points, standings
from ludoteca.server.tournaments.swiss import Entrant, pair_swiss

# FIDE Handbook C.05 (General Regulations for Competitions), Annex 1, "Berger tables for
# round-robin tournaments", copied by hand: round by round, white first.
BERGER = {
    4: ["1-4 2-3", "4-3 1-2", "2-4 3-1"],
    6: ["1-6 2-5 3-4", "6-4 5-3 1-2", "2-6 3-1 4-5", "6-5 1-4 2-3", "3-6 4-2 5-1"],
    8: [
        "1-8 2-7 3-6 4-5",
        "8-5 6-4 7-3 1-2",
        "2-8 3-1 4-7 5-6",
        "8-6 7-5 1-4 2-3",
        "3-8 4-2 5-1 6-7",
        "8-7 1-6 2-5 3-4",
        "4-8 5-3 6-2 7-1",
    ],
}


def test_round_robins_follow_fides_berger_tables() -> None:
    for count, table in BERGER.items():
        assert berger_rounds(count) == count - 1
        for number, line in enumerate(table, 1):
            written = [tuple(int(n) for n in pair.split("-")) for pair in line.split()]
            assert berger_round(count, number) == written, (count, number)


def test_an_odd_round_robin_rests_the_player_of_the_missing_number() -> None:
    # 5 players use the table of 6: whoever meets number 6 rests
    assert berger_rounds(5) == 5
    assert berger_round(5, 1) == [(1, None), (2, 5), (3, 4)]
    assert berger_round(5, 2) == [(4, None), (5, 3), (1, 2)]  # the table's 6-4: 4 rests


SIX = [Entrant(i, 2000 - 10 * i) for i in range(1, 7)]


def test_the_dutch_system_on_an_example_worked_out_by_hand() -> None:
    """Six players, pairing numbers 1-6 by rating (FIDE C.04.3, Dutch system):

    Round 1 (art. 5.1, 5.2.5): the top half 1-3 meets the bottom half 4-6 in order; number 1
    takes the initial colour (white), and the colours alternate down the boards:
    1-4, 5-2, 3-6.

    After 1, 2 and 3 win: score group 1 = {1, 2, 3}, score group 0 = {4, 5, 6}.  Round 2:
    in {1, 2, 3}, S1 = {1}, S2 = {2, 3}: 1 meets 2 and 3, the lowest, floats down (art.
    1.4.1); 1 had white and 2 black, so 2 gets white (art. 5.2.2): 2-1.  In the bracket
    {3; 4, 5, 6} the moved-down 3 meets the first of S2 it has not met, 4 (3 met 6); 3 had
    white, 4 black: 4-3.  The remainder {5, 6}: 5 had white, 6 black: 6-5.
    """
    assert pair_swiss(SIX, [], 1, 5) == [(1, 4), (5, 2), (3, 6)]
    one = [Board(1, 1, 4, "1-0"), Board(1, 5, 2, "0-1"), Board(1, 3, 6, "1-0")]
    assert pair_swiss(SIX, one, 2, 5) == [(2, 1), (4, 3), (6, 5)]


def test_the_bye_goes_to_the_lowest_ranked_of_an_odd_field_and_only_once() -> None:
    """Five players: the pairing-allocated bye goes to the lowest ranked of the lowest score
    group, number 5 (C.04.1 art. c, C.04.3 art. 1.5); the other four pair top half against
    bottom half, colours alternating: 1-3, 4-2.  In round 2 number 5, who had the bye, may
    not get another one, and no pairing repeats."""
    five = SIX[:5]
    first = pair_swiss(five, [], 1, 3)
    assert first == [(1, 3), (4, 2), (5, None)]
    one = [Board(1, 1, 3, "1-0"), Board(1, 4, 2, "0-1"), Board(1, 5, None, bye=1.0)]
    second = pair_swiss(five, one, 2, 3)
    byes = [white for white, black in second if black is None]
    assert len(byes) == 1 and byes[0] != 5  # (a player gets one pairing-allocated bye at most)
    met = {frozenset((b.white, b.black)) for b in one if b.black is not None}
    assert not met & {frozenset(p) for p in second if p[1] is not None}


# Published examples of the Dutch rules in force from 2026 (the 2025 revision): the
# regression tests "dutch_2025_C5" and "dutch_2025_C9" of bbpPairings (BieremaBoyzProgramming/
# bbpPairings, test/tests/dutch_2025_C5.input and .output.expected, and the same for C9),
# copied by hand from their TRF: a player's pairing number, rating and, round by round, the
# opponent, their colour and the result ("-": a round missed, not paired); and the pairing
# they publish, White first (None: the pairing-allocated bye).
PUBLISHED = {
    # C.9: of the lowest score group, the bye goes to the one with the fewest unplayed
    # rounds: 4, not 5 (who missed round 1), although 5 is ranked lower.
    "C9": (
        {
            1: (2720, ["3 w 1"]),
            2: (2701, ["4 b 1"]),
            3: (2697, ["1 b 0"]),
            4: (2689, ["2 w 0"]),
            5: (2673, ["-"]),
        },
        [(2, 1), (3, 5), (4, None)],
    ),
    # C.5: 4 misses round 3; 1 and 3 (2 points) cannot both meet their equals, since 2 and 5
    # (1 point) have met: 1-5 and 3-2, and the bye to the lowest score, 6.
    "C5": (
        {
            1: (2720, ["4 w 1", "2 b 1"]),
            2: (2701, ["5 b 1", "1 w 0"]),
            3: (2697, ["6 w 1", "4 b 1"]),
            4: (2689, ["1 b 0", "3 w 0", "-"]),
            5: (2673, ["2 w 0", "6 b 1"]),
            6: (2664, ["3 b 0", "5 w 0"]),
        },
        [(1, 5), (3, 2), (6, None)],
    ),
}


def _published(name: str) -> tuple[list[Entrant], list[Board], int, list[tuple[int, int | None]]]:
    """The example's players to pair (those not marked "-" in the round to pair), the boards
    of its earlier rounds, the round to pair and the published pairing."""
    cards, pairing = PUBLISHED[name]
    number = 1 + max(len(rounds) for _, rounds in cards.values() if rounds[-1:] != ["-"])
    boards = set()
    for player, (_, rounds) in cards.items():
        for index, entry in enumerate(rounds[: number - 1], 1):
            if entry == "-":
                continue
            opponent, colour, result = entry.split()
            white, black = (player, int(opponent)) if colour == "w" else (int(opponent), player)
            mine = {"1": 1.0, "0": 0.0}[result]
            score = mine if colour == "w" else 1.0 - mine
            boards.add(Board(index, white, black, {1.0: "1-0", 0.0: "0-1"}[score]))
    # each game written on both players' cards, alike: no slip in the copy
    assert sum(e != "-" for _, rounds in cards.values() for e in rounds) == 2 * len(boards)
    absent = {p for p, (_, rounds) in cards.items() if len(rounds) >= number}
    entrants = [Entrant(p, rating) for p, (rating, _) in cards.items() if p not in absent]
    return entrants, sorted(boards, key=lambda b: (b.round, b.white)), number, pairing


@pytest.mark.parametrize("name", sorted(PUBLISHED))
def test_the_dutch_system_pairs_published_examples(name: str) -> None:
    entrants, boards, number, pairing = _published(name)
    assert pair_swiss(entrants, boards, number, 3) == pairing


@pytest.mark.parametrize("name", sorted(PUBLISHED))
def test_the_matching_fallback_pairs_published_examples(
    monkeypatch: pytest.MonkeyPatch, name: str
) -> None:
    """The same examples where the Dutch search gives up: the matching that pairs the round
    instead finds the published pairing too (a missed round weighs on the bye, C.9; a player
    who is not paired this round is no opponent to avoid)."""

    def give_up(request: object) -> None:
        raise PairingError("the test's budget")

    monkeypatch.setattr(swiss, "pair_2026", give_up)
    entrants, boards, number, pairing = _published(name)
    assert sorted(pair_swiss(entrants, boards, number, 3), key=str) == sorted(pairing, key=str)


def test_a_bracket_of_two_who_met_moves_down_and_everyone_has_their_colour() -> None:
    """Six players, round 2, worked by hand from the Dutch rules (C.04.3): round 1 was 1-4
    (0-1), 5-2 (1-0), 3-6 (a draw).  Scores: 4 and 5: 1; 3 and 6: ½; 1 and 2: 0.  {4, 5}
    pair: 4 had Black, 5 White: 4-5.  3 and 6 met: both move down to {1, 2}.  3 and 1 had
    White and would rather have Black, 6 and 2 had Black: 3-1 and 6-2 would leave one of each
    pair without their colour; 2-3 and 6-1 give everyone theirs (the colour criteria).  The
    Dutch search gives up on the bracket of 3 and 6 ("no candidate"), so this is the
    matching's pairing."""
    one = [Board(1, 1, 4, "0-1"), Board(1, 5, 2, "1-0"), Board(1, 3, 6, "1/2-1/2")]
    assert sorted(pair_swiss(SIX, one, 2, 3)) == [(2, 3), (4, 5), (6, 1)]


@pytest.mark.parametrize("count", [64, 65])
def test_a_large_swiss_is_paired_to_its_last_round(
    monkeypatch: pytest.MonkeyPatch, count: int
) -> None:
    """A Swiss of 64 (and of 65) over 7 rounds, random results: where the 2026 rules' search
    gives up (given a tenth of a second here) the round is paired by matching, and every
    round keeps FIDE's absolute rules, checked here on their own: each player on one
    board, no two players meet twice, a pairing-allocated bye at most once a player (none in
    an even field), no one the same colour three times running nor two more of one colour."""
    monkeypatch.setattr(swiss, "SECONDS", 0.1)
    fallbacks = []

    def counted(
        ranked: Sequence[int], players: Mapping[int, History]
    ) -> list[tuple[int, int | None]] | None:
        fallbacks.append(1)
        return pair_by_matching(ranked, players)

    monkeypatch.setattr(swiss, "pair_by_matching", counted)
    entrants = [Entrant(i, 2400 - 3 * i) for i in range(1, count + 1)]
    rng = random.Random(count)
    boards: list[Board] = []
    for number in range(1, 8):
        pairs = pair_swiss(entrants, boards, number, 7)
        seats = Counter(p for pair in pairs for p in pair if p is not None)
        assert set(seats) == {e.id for e in entrants} and set(seats.values()) == {1}
        for white, black in pairs:
            result = "*" if black is None else rng.choice(["1-0", "0-1", "1/2-1/2"])
            boards.append(Board(number, white, black, result, 1.0 if black is None else 0.0))
    games = [frozenset((b.white, b.black)) for b in boards if b.black is not None]
    assert len(games) == len(set(games))
    byes = Counter(b.white for b in boards if b.black is None)
    assert set(byes.values()) <= {1} and sum(byes.values()) == 7 * (count % 2)
    for entrant in entrants:
        colours = "".join(
            "W" if b.white == entrant.id else "B"
            for b in boards
            if entrant.id in (b.white, b.black) and b.black is not None
        )
        assert "WWW" not in colours and "BBB" not in colours, (entrant, colours)
        assert abs(colours.count("W") - colours.count("B")) <= 2, (entrant, colours)
    assert fallbacks, "no round was paired by matching"


def test_the_matching_pairs_by_score_alternates_colours_and_gives_the_lowest_the_bye() -> None:
    """Round 2 of four, worked by hand: 1 beat 3 with White, 4 beat 2 with White, so the
    winners 1 and 4 meet, and the losers 2 and 3 (no rematch).  1 and 4 both had White and
    would rather have Black: the higher ranked, 1, has its way, (4, 1); 2 and 3 both had
    Black: 2 has White, (2, 3).  Then five players where the lowest two, 5 and 4, have had
    the bye: it goes to the lowest ranked of the one-point group left, 3, as the others can
    still all be paired (1-5, 2-4)."""
    four = {
        1: History(1.0, "W", [3], False),
        2: History(0.0, "B", [4], False),
        3: History(0.0, "B", [1], False),
        4: History(1.0, "W", [2], False),
    }
    assert pair_by_matching([1, 2, 3, 4], four) == [(4, 1), (2, 3)]
    five = {
        1: History(2.0, "WB", [4, 2], False),
        2: History(1.0, "BW", [3, 1], False),
        3: History(1.0, "WB", [2, 5], False),
        4: History(1.0, "BW", [1], True),
        5: History(0.0, "B", [3], True),
    }
    boards = pair_by_matching([1, 2, 3, 4, 5], five)
    assert boards is not None and (4, None) not in boards and (5, None) not in boards
    assert (3, None) in boards
    assert {frozenset(b) for b in boards if b[1] is not None} == {
        frozenset((1, 5)),
        frozenset((2, 4)),
    }


# A Swiss of 6 over 3 rounds, results chosen for the test; the tie-breaks worked by hand.
SWISS = [
    Board(1, 1, 4, "1-0"),
    Board(1, 5, 2, "1/2-1/2"),
    Board(1, 3, 6, "0-1"),
    Board(2, 2, 1, "0-1"),
    Board(2, 6, 5, "1-0"),
    Board(2, 4, 3, "1/2-1/2"),
    Board(3, 1, 6, "1/2-1/2"),
    Board(3, 3, 2, "0-1"),
    Board(3, 5, 4, "1-0"),
]


def test_swiss_standings_and_tie_breaks_worked_by_hand() -> None:
    """Points: 1: 1+1+½ = 2½; 2: ½+0+1 = 1½; 3: 0+½+0 = ½; 4: 0+½+0 = ½; 5: ½+0+1 = 1½;
    6: 1+1+½ = 2½.
    Opponents: 1: 4, 2, 6 -> Buchholz ½+1½+2½ = 4½, cut-1 4, SB ½+1½+½·2½ = 3¼.
    6: 3, 5, 1 -> Buchholz ½+1½+2½ = 4½, cut-1 4, SB ½+1½+1¼ = 3¼.
    2: 5, 1, 3 -> Buchholz 1½+2½+½ = 4½, cut-1 4, SB ½·1½+½ = 1¼.
    5: 2, 6, 4 -> Buchholz 1½+2½+½ = 4½, cut-1 4, SB ½·1½+½ = 1¼.
    3: 6, 4, 2 -> Buchholz 2½+½+1½ = 4½, cut-1 4, SB ½·½ = ¼.
    4: 1, 3, 5 -> Buchholz 2½+½+1½ = 4½, cut-1 4, SB ½·½ = ¼.
    All tie-breaks are equal pairwise, so the seeding decides: 1, 6, 2, 5, 3, 4."""
    table = standings([1, 2, 3, 4, 5, 6], SWISS)
    got = [(s.player, s.points, s.buchholz, s.buchholz_cut1, s.sonneborn_berger) for s in table]
    assert got == [
        (1, 2.5, 4.5, 4.0, 3.25),
        (6, 2.5, 4.5, 4.0, 3.25),
        (2, 1.5, 4.5, 4.0, 1.25),
        (5, 1.5, 4.5, 4.0, 1.25),
        (3, 0.5, 4.5, 4.0, 0.25),
        (4, 0.5, 4.5, 4.0, 0.25),
    ]


def test_tie_breaks_separate_equal_points() -> None:
    """1 beats 2, 3 beats 4; then 1 draws 3, 2 beats 4.  Points: 1: 1½, 3: 1½, 2: 1, 4: 0.
    Buchholz: 1: 1 (2) + 1½ (3) = 2½, cut-1 1½; 3: 0 (4) + 1½ (1) = 1½, cut-1 1½.
    SB: 1: 1 + ½·1½ = 1¾; 3: 0 + ½·1½ = ¾.  Cut-1 ties; Buchholz puts 1 first."""
    boards = [
        Board(1, 1, 2, "1-0"),
        Board(1, 3, 4, "1-0"),
        Board(2, 1, 3, "1/2-1/2"),
        Board(2, 2, 4, "1-0"),
    ]
    table = standings([3, 1, 2, 4], boards)  # seeding 3 first: the tie-breaks must win over it
    assert [(s.player, s.buchholz, s.buchholz_cut1, s.sonneborn_berger) for s in table[:2]] == [
        (1, 2.5, 1.5, 1.75),
        (3, 1.5, 1.5, 0.75),
    ]


def test_a_bye_scores_its_points_and_adds_no_tie_break() -> None:
    boards = [Board(1, 1, 2, "0-1"), Board(1, 3, None, bye=1.0)]
    table = {s.player: s for s in standings([1, 2, 3], boards)}
    assert (table[3].points, table[3].buchholz, table[3].games) == (1.0, 0.0, 0)


def test_arena_points_with_the_streak() -> None:
    """W W W D W L W: 2 + 2 + 4 (on fire) + 2 (a draw on fire, which ends it) + 2 + 0 + 2."""
    assert arena_points([1, 1, 1, 0.5, 1, 0, 1]) == (14.0, False)
    assert arena_points([1, 1]) == (4.0, True)
    assert arena_points([0.5, 1, 0, 1, 1, 1]) == (1 + 2 + 0 + 2 + 2 + 4, True)


def test_arena_standings_by_points_then_performance() -> None:
    """1 beats 2, beats 3 (rated 1600 and 1400): 4 points; performance 1500 + 500 = 2000.
    4 beats 3, beats 2: 4 points, the same performance: the seeding (1 first) decides.
    2 lost to 1 and 4 (1500 and 1500): 1500 - 500 = 1000; so did 3: the seeding puts 2 first."""
    ratings = {1: 1500, 2: 1600, 3: 1400, 4: 1500}
    boards = [
        Board(1, 1, 2, "1-0"),
        Board(2, 3, 1, "0-1"),
        Board(3, 4, 3, "1-0"),
        Board(4, 2, 4, "0-1"),
    ]
    table = standings([1, 2, 3, 4], boards, arena=True, ratings=ratings)
    assert [(s.player, s.points, s.performance, s.streak) for s in table] == [
        (1, 4.0, 2000, True),
        (4, 4.0, 2000, True),
        (2, 0.0, 1000, False),
        (3, 0.0, 1000, False),
    ]


def test_arena_pairs_neighbours_but_not_the_last_opponent() -> None:
    points = {1: 4.0, 2: 4.0, 3: 2.0, 4: 0.0}
    ratings = {1: 1500, 2: 1500, 3: 1500, 4: 1500}
    assert pair_arena([1, 2, 3, 4], points, ratings, {}) == [(2, 1), (4, 3)]
    assert pair_arena([1, 2, 3, 4], points, ratings, {1: 2, 2: 1}) == [(3, 1), (4, 2)]
    assert pair_arena([1, 2, 3], points, ratings, {1: 2, 2: 1, 3: 1}) == [(3, 1)]
