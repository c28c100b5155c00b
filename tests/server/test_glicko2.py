"""The Glicko-2 module against the worked example of Glickman's paper and a second plain
implementation."""

from __future__ import annotations

import datetime

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from ludoteca.server.community import glicko2
from ludoteca.server.community.glicko2 import Rating
from ludoteca.server.community.ratings import RatingRow, category, current

from ..support import glicko2_reference


def test_the_papers_worked_example() -> None:
    # Glickman, "Example of the Glicko-2 system": 1500/200/0.06 beats 1400/30, loses to
    # 1550/100 and 1700/300 -> 1464.06, 151.52, 0.05999 (the paper rounds its steps)
    new = glicko2.rate(
        Rating(1500, 200, 0.06),
        [(Rating(1400, 30, 0.06), 1), (Rating(1550, 100, 0.06), 0), (Rating(1700, 300, 0.06), 0)],
    )
    assert new.rating == pytest.approx(1464.06, abs=0.02)
    assert new.deviation == pytest.approx(151.52, abs=0.01)
    assert new.volatility == pytest.approx(0.05999, abs=1e-5)


#: ratings a few hundred points apart: for a win by a thousand points and more, the volatility
#: equation has several roots, and which one an iteration finds depends on the method
ratings = st.tuples(st.floats(1200, 1800), st.floats(30, 350))


@settings(max_examples=200, deadline=None)
@given(
    player=ratings,
    volatility=st.floats(0.03, 0.12),
    games=st.lists(st.tuples(ratings, st.sampled_from([0.0, 0.5, 1.0])), min_size=1, max_size=6),
)
def test_agrees_with_a_second_implementation(
    player: tuple[float, float], volatility: float, games: list[tuple[tuple[float, float], float]]
) -> None:
    mine = glicko2.rate(
        Rating(*player, volatility), [(Rating(r, rd, 0.06), score) for (r, rd), score in games]
    )
    other = glicko2_reference.rate(*player, volatility, [(r, rd, s) for (r, rd), s in games])
    assert mine.rating == pytest.approx(other[0], abs=0.01)
    assert mine.deviation == pytest.approx(other[1], abs=0.01)
    assert mine.volatility == pytest.approx(other[2], abs=1e-6)


def test_no_games_widens_the_deviation_up_to_a_new_players() -> None:
    # step 6 alone: phi* = sqrt(phi^2 + sigma^2), on the Glicko-2 scale
    before = Rating(1700, 50, 0.06)
    after = glicko2.rate(before, [])
    assert after.rating == 1700
    assert after.deviation == pytest.approx(
        glicko2.SCALE * ((50 / glicko2.SCALE) ** 2 + 0.06**2) ** 0.5
    )
    assert glicko2.idle(before, 10_000).deviation == glicko2.MAX_DEVIATION


def test_a_rating_widens_while_its_player_is_away() -> None:
    last = datetime.datetime(2026, 1, 1, tzinfo=datetime.UTC)
    row = RatingRow(rating=1600.0, deviation=60.0, volatility=0.06, updated=last)
    assert current(row, last).deviation == pytest.approx(60.0)
    later = current(row, last + datetime.timedelta(days=100))  # twenty periods of five days
    assert later.deviation == pytest.approx(glicko2.idle(Rating(1600, 60, 0.06), 20).deviation)
    assert later.deviation > 60 and later.rating == 1600


@pytest.mark.parametrize(
    ("clock", "kind"),
    [
        (None, "untimed"),
        ("3+2", "blitz"),
        ("5+0", "blitz"),
        ("10+0", "rapid"),
        ("10+5", "rapid"),
        ("30+0", "classical"),
    ],
)
def test_time_control_categories(clock: str | None, kind: str) -> None:
    assert category(clock) == kind
