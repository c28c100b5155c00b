"""The Glicko-2 rating system (Mark Glickman, "Example of the Glicko-2 system", 2013).

A rating is ``(rating, deviation, volatility)`` on the Glicko scale (a new player: 1500, 350,
0.06).  :func:`rate` is one rating period of the paper's steps 2-8 for one player against the
opponents met in it; :func:`idle` widens the deviation for periods without games (step 6 alone).
The volatility is found by the paper's Illinois iteration (step 5).
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import NamedTuple

__all__ = ["NEW", "TAU", "Rating", "expected", "idle", "rate"]

SCALE = 173.7178  # Glicko points per Glicko-2 unit
TAU = 0.5  # how much the volatility may change in one period
EPSILON = 1e-6  # the volatility iteration's tolerance
MAX_DEVIATION = 350.0


class Rating(NamedTuple):
    """A player's rating, its deviation and volatility (Glicko scale)."""

    rating: float
    deviation: float
    volatility: float


NEW = Rating(1500.0, MAX_DEVIATION, 0.06)


def _g(phi: float) -> float:
    return 1 / math.sqrt(1 + 3 * phi * phi / math.pi**2)


def _e(mu: float, mu_j: float, phi_j: float) -> float:
    return 1 / (1 + math.exp(-_g(phi_j) * (mu - mu_j)))


def expected(player: Rating, opponent: Rating) -> float:
    """The score ``player`` is expected to make against ``opponent`` (0 to 1)."""
    return _e(
        (player.rating - 1500) / SCALE, (opponent.rating - 1500) / SCALE, opponent.deviation / SCALE
    )


def idle(player: Rating, periods: float) -> Rating:
    """The rating after ``periods`` rating periods (fractions allowed) without a game: the
    deviation widens with the volatility, up to a new player's."""
    phi = player.deviation / SCALE
    widened = math.sqrt(phi * phi + periods * player.volatility**2) * SCALE
    return player._replace(deviation=min(widened, MAX_DEVIATION))


def rate(player: Rating, games: Sequence[tuple[Rating, float]], tau: float = TAU) -> Rating:
    """The rating after one period in which ``player`` met each opponent of ``games`` with the
    score given (1 win, 0.5 draw, 0 loss).  No games: :func:`idle` for one period."""
    if not games:
        return idle(player, 1)
    mu = (player.rating - 1500) / SCALE
    phi = player.deviation / SCALE
    sigma = player.volatility
    terms = []
    for opponent, score in games:
        mu_j, phi_j = (opponent.rating - 1500) / SCALE, opponent.deviation / SCALE
        terms.append((_g(phi_j), _e(mu, mu_j, phi_j), score))
    v = 1 / sum(g * g * e * (1 - e) for g, e, _ in terms)
    gain = sum(g * (score - e) for g, e, score in terms)
    delta = v * gain
    # step 5: the new volatility, the root of f by the Illinois algorithm
    a = math.log(sigma * sigma)

    def f(x: float) -> float:
        ex = math.exp(x)
        return ex * (delta * delta - phi * phi - v - ex) / (2 * (phi * phi + v + ex) ** 2) - (
            x - a
        ) / (tau * tau)

    low = a
    if delta * delta > phi * phi + v:
        high = math.log(delta * delta - phi * phi - v)
    else:
        k = 1
        while f(a - k * tau) < 0:
            k += 1
        high = a - k * tau
    f_low, f_high = f(low), f(high)
    while abs(high - low) > EPSILON:
        c = low + (low - high) * f_low / (f_high - f_low)
        f_c = f(c)
        if f_c * f_high <= 0:
            low, f_low = high, f_high
        else:
            f_low /= 2
        high, f_high = c, f_c
    new_sigma = math.exp(low / 2)
    # steps 6-8: the deviation widens by the new volatility, then narrows by the games
    phi_star = math.sqrt(phi * phi + new_sigma * new_sigma)
    new_phi = 1 / math.sqrt(1 / (phi_star * phi_star) + 1 / v)
    new_mu = mu + new_phi * new_phi * gain
    return Rating(1500 + new_mu * SCALE, new_phi * SCALE, new_sigma)
