"""A second, plain Glicko-2 (Glickman's paper, steps 1-8) to check the server's against: the
volatility found by bisection rather than the paper's Illinois iteration."""

from __future__ import annotations

import math

SCALE = 173.7178


def rate(
    rating: float,
    deviation: float,
    volatility: float,
    games: list[tuple[float, float, float]],
    tau: float = 0.5,
) -> tuple[float, float, float]:
    """(rating, deviation, volatility) after one period with ``games``: (opponent's rating,
    opponent's deviation, score)."""
    mu, phi = (rating - 1500) / SCALE, deviation / SCALE
    v_inverse = 0.0
    total = 0.0
    for r_j, rd_j, score in games:
        mu_j, phi_j = (r_j - 1500) / SCALE, rd_j / SCALE
        g = 1 / math.sqrt(1 + 3 * phi_j**2 / math.pi**2)
        e = 1 / (1 + math.exp(-g * (mu - mu_j)))
        v_inverse += g**2 * e * (1 - e)
        total += g * (score - e)
    v = 1 / v_inverse
    delta = v * total
    a = math.log(volatility**2)

    def f(x: float) -> float:
        return (
            math.exp(x)
            * (delta**2 - phi**2 - v - math.exp(x))
            / (2 * (phi**2 + v + math.exp(x)) ** 2)
            - (x - a) / tau**2
        )

    # the paper's bracket (f may have other roots far away), searched by bisection
    if delta**2 > phi**2 + v:
        high = math.log(delta**2 - phi**2 - v)
    else:
        high = a - tau
        while f(high) < 0:
            high -= tau
    low, high = (a, high) if f(a) > 0 else (high, a)  # f(low) > 0 > f(high)
    for _ in range(200):
        middle = (low + high) / 2
        if f(middle) > 0:
            low = middle
        else:
            high = middle
    sigma = math.exp(low / 2)
    phi_star = math.sqrt(phi**2 + sigma**2)
    phi_new = 1 / math.sqrt(1 / phi_star**2 + 1 / v)
    mu_new = mu + phi_new**2 * total
    return 1500 + SCALE * mu_new, SCALE * phi_new, sigma
